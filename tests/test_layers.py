"""Imports point down: every module's imports under src/mjarena, read with ``ast`` (at the top of the file, inside
functions and under ``TYPE_CHECKING`` alike), against the layer order of docs/architecture.md (read from its
table, so the order is written once), and no two modules that import each other.  And the package stays in
pieces a reader can hold: no function or method over :data:`FUNCTION_LINES` lines (its nested functions
counted in), no module over :data:`MODULE_LINES` but the ones :data:`LONG_MODULES` names, each with its reason.

The checks themselves are tested on small made-up module graphs, so a check that could not fail would show.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PACKAGE = "mjarena"
FUNCTION_LINES = 100
MODULE_LINES = 600
LONG_MODULES = {
    "mjarena/hand/wild.py": "the wildcard enumerator: one table-driven search, read as a whole",
}


def layer_table(text: str) -> list[tuple[str, list[str]]]:
    """The layers of docs/architecture.md's ``## Layers`` table, top first: (layer, the module names it lists).

    >>> layer_table("## Layers\\n\\n| layer | modules | owns |\\n| --- | --- | --- |\\n| top | `a.x`, `a.y` | it |\\n"
    ...             "| low | `a` | the rest |\\n\\n## Next\\n| no | `b` | |\\n")
    [('top', ['a.x', 'a.y']), ('low', ['a'])]
    """
    text = "\n" + text
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0] if "\n## Layers\n" in text else ""
    rows = [line for line in section.splitlines() if line.startswith("|")]
    layers = []
    for row in rows[2:]:  # the header and the --- line
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        layers.append((cells[0], re.findall(r"`([\w.]+)`", cells[1])))
    return layers


def module_names(source: Path = SOURCE) -> dict[str, Path]:
    """Every module of the package: dotted name -> file (a package by its ``__init__.py``; a C extension by its
    ``.c`` source, whether built or not)."""
    modules = {}
    for path in sorted([*(source / PACKAGE).rglob("*.py"), *(source / PACKAGE).rglob("*.c")]):
        parts = path.relative_to(source).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imports_of(name: str, tree: ast.AST, modules: Mapping[str, object], *, is_package: bool = False) -> set[str]:
    """The package's modules that ``tree`` (module ``name``) imports, wherever the import statement is.

    ``from P import X`` is the module ``P.X`` when there is one, else ``P``; relative imports are resolved.

    >>> code = "import a.b\\nfrom a import c, d\\ndef f():\\n    from .b import e\\n    import os\\n"
    >>> sorted(imports_of("a.z", ast.parse(code), {"a": 0, "a.b": 0, "a.c": 0}))
    ['a', 'a.b', 'a.c']
    """
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {module for module in found if module in modules}


def import_graph(source: Path = SOURCE) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (itself left out)."""
    modules = module_names(source)
    graph = {}
    for name, path in modules.items():
        if path.suffix != ".py":  # a C extension imports nothing of the package
            graph[name] = set()
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = imports_of(name, tree, modules, is_package=path.name == "__init__.py") - {name}
    return graph


def rank_of(module: str, layers: Sequence[tuple[str, Sequence[str]]]) -> int | None:
    """The index (0 = top) of the layer that holds ``module``: the layer of the longest listed name that is the
    module or a package above it; the package itself (its ``__init__``) only by its own name.

    >>> layers = [("top", ["a.x"]), ("low", ["a"])]
    >>> rank_of("a.x.y", layers), rank_of("a.w", layers), rank_of("a", layers), rank_of("b", layers)
    (0, 1, 1, None)
    """
    best: tuple[int, int] | None = None
    for index, (_, names) in enumerate(layers):
        for listed in names:
            holds = module == listed or (listed != PACKAGE and module.startswith(listed + "."))
            if holds and (best is None or len(listed) > best[0]):
                best = (len(listed), index)
    return None if best is None else best[1]


def with_parents(module: str) -> Iterator[str]:
    """The module and the packages above it, which importing it runs first (the top package left out).

    >>> list(with_parents("a.b.c"))
    ['a.b.c', 'a.b']
    """
    parts = module.split(".")
    for end in range(len(parts), 1, -1):
        yield ".".join(parts[:end])


def upward_imports(graph: Mapping[str, set[str]], layers: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Each import of a module from a higher layer (the packages that importing it runs count too), in words.

    >>> layers = [("top", ["a.web"]), ("low", ["a"])]
    >>> upward_imports({"a.web": {"a.tiles"}, "a.tiles": set(), "a.luck": {"a.web.timeline"}}, layers)
    ['a.luck (low) imports a.web.timeline (top)']
    """
    problems = []
    for module, targets in sorted(graph.items()):
        own = rank_of(module, layers)
        if own is None:
            continue
        for target in sorted(targets):
            for imported in with_parents(target):
                theirs = rank_of(imported, layers)
                if theirs is not None and theirs < own:
                    problems.append(f"{module} ({layers[own][0]}) imports {imported} ({layers[theirs][0]})")
                    break
    return problems


def circles(graph: Mapping[str, set[str]]) -> list[str]:
    """Each pair of modules that import each other.

    >>> circles({"a.model": {"a.building"}, "a.building": {"a.model", "a.db"}, "a.db": set()})
    ['a.building <-> a.model']
    """
    return sorted({" <-> ".join(sorted((module, target))) for module, targets in graph.items() for target in targets
                   if module in graph.get(target, ())})


def unplaced(graph: Mapping[str, set[str]], layers: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """The modules in no layer.

    >>> unplaced({"a.x": set(), "b": set()}, [("top", ["a"])])
    ['b']
    """
    return sorted(module for module in graph if rank_of(module, layers) is None)


def long_functions(tree: ast.AST, where: str, limit: int = FUNCTION_LINES) -> list[str]:
    """Each function or method of ``tree`` longer than ``limit`` lines (from its ``def`` to its last line, the
    functions nested in it included), in words.

    >>> code = "def short():\\n    pass\\nclass A:\\n    def long(self):\\n" + "        x = 1\\n" * 3
    >>> long_functions(ast.parse(code), "a.py", limit=3)
    ['a.py:4 long is 4 lines (at most 3)']
    """
    return [f"{where}:{node.lineno} {node.name} is {node.end_lineno - node.lineno + 1} lines (at most {limit})"
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > limit]


def long_modules(texts: Mapping[str, str], limit: int = MODULE_LINES,
                 allowed: Mapping[str, str] = LONG_MODULES) -> list[str]:
    """Each module (its path -> its text) longer than ``limit`` lines that ``allowed`` does not name, in words.

    >>> long_modules({"a/x.py": "1\\n2\\n3\\n", "a/y.py": "1\\n", "a/z.py": "1\\n2\\n3\\n"}, 2, {"a/z.py": "why"})
    ['a/x.py is 3 lines (at most 2)']
    """
    return [f"{path} is {len(text.splitlines())} lines (at most {limit})" for path, text in sorted(texts.items())
            if len(text.splitlines()) > limit and path not in allowed]


def package_texts(source: Path = SOURCE) -> dict[str, str]:
    """Every Python module of the package: its path under ``src`` -> its text."""
    return {path.relative_to(source).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted((source / PACKAGE).rglob("*.py"))}


@pytest.fixture(scope="module")
def layers() -> list[tuple[str, list[str]]]:
    found = layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(found) >= 5, f"{ARCHITECTURE}: no '## Layers' table of layers (found {found})"
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_every_module_is_in_a_layer(graph: dict[str, set[str]], layers: list[tuple[str, list[str]]]) -> None:
    assert unplaced(graph, layers) == [], f"modules in no layer of {ARCHITECTURE.name}: add them to its table"


def test_the_layers_name_modules_that_exist(graph: dict[str, set[str]], layers: list[tuple[str, list[str]]]) -> None:
    listed = [name for _, names in layers for name in names]
    assert [name for name in listed if not any(m == name or m.startswith(name + ".") for m in graph)] == []
    assert len(listed) == len(set(listed)), "a module listed in two layers"


def test_imports_point_down(graph: dict[str, set[str]], layers: list[tuple[str, list[str]]]) -> None:
    problems = upward_imports(graph, layers)
    assert problems == [], "imports from a higher layer (docs/architecture.md):\n" + "\n".join(problems)


def test_no_two_modules_import_each_other(graph: dict[str, set[str]]) -> None:
    found = circles(graph)
    assert found == [], "modules that import each other:\n" + "\n".join(found)


def test_the_reader_sees_imports_inside_functions_and_type_checking() -> None:
    """An import inside a function, a method or under ``TYPE_CHECKING`` is an import like the others."""
    code = """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from mjarena.web.timeline import Table
class Model:
    def store(self):
        from mjarena.contest.building import check_quota
def later():
    import mjarena.arena.match
"""
    modules = {"mjarena.web.timeline": 0, "mjarena.contest.building": 0, "mjarena.arena.match": 0}
    assert imports_of("mjarena.x", ast.parse(code), modules) == set(modules)
    layers = [("top", ["mjarena.web", "mjarena.contest"]), ("middle", ["mjarena.arena"]), ("low", ["mjarena.x"])]
    assert len(upward_imports({"mjarena.x": imports_of("mjarena.x", ast.parse(code), modules)}, layers)) == 3


def test_no_function_is_over_the_bound() -> None:
    found = [problem for path, text in package_texts().items()
             for problem in long_functions(ast.parse(text, path), path)]
    assert found == [], "functions to split (tests/test_layers.py: FUNCTION_LINES):\n" + "\n".join(found)


def test_no_module_is_over_the_bound() -> None:
    texts = package_texts()
    assert [path for path in LONG_MODULES if path not in texts] == [], "LONG_MODULES names a module that is gone"
    found = long_modules(texts)
    assert found == [], "modules to split (tests/test_layers.py: MODULE_LINES):\n" + "\n".join(found)


def test_the_size_checks_see_nested_functions_and_methods() -> None:
    """A long function made of short nested ones is long; a long method is long; async ones count too."""
    code = "def outer():\n" + "".join(f"    def inner{n}():\n        pass\n" for n in range(3))
    code += "class Page:\n    async def handler(self):\n" + "        x = 1\n" * 6
    assert [line.split(" is ")[0] for line in long_functions(ast.parse(code), "m.py", limit=6)] == [
        "m.py:1 outer", "m.py:9 handler"]
    assert long_modules({"m.py": code}, limit=10, allowed={}) == ["m.py is 15 lines (at most 10)"]


def test_an_import_up_inside_a_function_is_caught() -> None:
    """The agent factory importing the environments inside a function, as it once did, is an import up."""
    code = "def policy_agent():\n    from mjarena.env.policy_agent import PolicyAgent\n    return PolicyAgent\n"
    modules = {"mjarena.env": 0, "mjarena.env.policy_agent": 0, "mjarena.agents.factory": 0}
    graph = {"mjarena.agents.factory": imports_of("mjarena.agents.factory", ast.parse(code), modules)}
    layers = [("environments", ["mjarena.env"]), ("agent factory", ["mjarena.agents.factory"])]
    assert upward_imports(graph, layers) == [
        "mjarena.agents.factory (agent factory) imports mjarena.env.policy_agent (environments)"]
