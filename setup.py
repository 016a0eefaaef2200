"""The optional C accelerator of the hand analysis, and the interface's catalogs compiled; everything else is in
pyproject.toml.

The extension is optional: without a C compiler the install goes on and mjarena uses its pure-Python path
(same results, slower).  ``python -c "import mjarena.hand.wild as w; print(w.ACCELERATED)"`` tells which.

Each ``locale/*/LC_MESSAGES/*.po`` of the package is compiled to its ``.mo`` beside it in the build, by
``mjarena.catalogs`` (the standard library alone, loaded by its path: nothing else of mjarena is needed, nor Babel).
An editable install skips it; mjarena then reads the ``.po`` itself.
"""

import importlib.util
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildPyWithCatalogs(build_py):
    """build_py, then every copied ``.po`` compiled to a ``.mo`` beside it."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        spec = importlib.util.spec_from_file_location("_mjarena_catalogs", Path("src/mjarena/catalogs.py"))
        assert spec is not None and spec.loader is not None
        catalogs = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = catalogs  # its dataclasses look their module up there
        spec.loader.exec_module(catalogs)
        for po in sorted(Path(self.build_lib, "mjarena", "locale").glob("*/LC_MESSAGES/*.po")):
            catalogs.compile_po(po, po.with_suffix(".mo"))


setup(
    ext_modules=[Extension("mjarena.hand._speedups", ["src/mjarena/hand/_speedups.c"], optional=True)],
    cmdclass={"build_py": BuildPyWithCatalogs},
)
