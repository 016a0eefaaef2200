"""The zh_CN catalog is complete and keeps its placeholders, it follows the glossary (docs/glossary.zh-CN.md), and
the Chinese pages do too.  Each check is also run on a small made-up catalog or glossary, so a check that could not
fail would show.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mjarena.catalogs import catalog_problems, placeholders, read_po
from mjarena.verdicts import KIND_LABELS, STAGES, SUFFIXES, TEMPLATES

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "mjarena" / "locale"
ZH_CN = LOCALE / "zh_CN" / "LC_MESSAGES" / "mjarena.po"
GLOSSARY = ROOT / "docs" / "glossary.zh-CN.md"
CHINESE_PAGES = [ROOT / "docs" / "contestants.zh-CN.md", ROOT / "docs" / "protocol.zh-CN.md"]


def glossary_rows(text: str) -> list[tuple[str, list[str], list[str]]]:
    """(English term, its Chinese words, the words not to use) of each row of the glossary's table.

    >>> glossary_rows("| English | 中文 | 不用 | 说明 |\\n| --- | --- | --- | --- |\\n| GANG | 杠 | 槓 | x |\\n"
    ...               "| win | 和牌 / 和 | | |\\n")
    [('GANG', ['杠'], ['槓']), ('win', ['和牌', '和'], [])]
    """
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or cells[0] in ("English", "---"):
            continue
        words = [[word.strip() for word in cell.split(" / ") if word.strip()] for cell in cells[1:3]]
        rows.append((cells[0], words[0], words[1]))
    return rows


def english_words(msgid: str) -> str:
    """The prose of a message: its placeholders, quoted code (``"response"``, ```x```) and lists of the
    protocol's commands (``PASS, PLAY, PENG``) taken out."""
    text = re.sub(r"%\(\w+\)\w|\{\w*\}", " ", msgid)
    text = re.sub(r"\b[A-Z]{2,}(?:, [A-Z]{2,})+\b", " ", text)
    return re.sub(r'"[^"]*"|`[^`]*`', " ", text)


def glossary_problems(entries, rows) -> list[str]:
    """A translation without the glossary's word for a term its English uses, or with a word it says not to use."""
    problems = []
    longest_first = sorted(rows, key=lambda row: -len(row[0]))
    for entry in entries:
        if not entry.msgid:
            continue
        prose = english_words(entry.msgid)
        for term, chinese, avoided in longest_first:  # "Swiss draw" is checked, then no longer read as "draw"
            found = re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", re.IGNORECASE)
            if found.search(prose):
                prose = found.sub(" ", prose)
                problems += [f"{entry.msgid!r}: {form!r} lacks {' or '.join(chinese)} for {term!r}"
                             for form in entry.msgstr if not any(word in form for word in chinese)]
            problems += [f"{entry.msgid!r}: {form!r} uses {word!r}, not {term!r}'s word"
                         for form in entry.msgstr for word in avoided if word in form]
    return problems


@pytest.fixture(scope="module")
def catalog():
    return read_po(ZH_CN.read_text(encoding="utf-8"))


def test_the_zh_cn_catalog_is_complete_with_the_same_placeholders(catalog):
    assert len(catalog) > 50
    assert catalog_problems(catalog) == []


def test_the_catalog_holds_every_message_the_code_marks(catalog):
    """Every marked message is in the template (``make catalogs`` was run) and in the zh_CN catalog."""
    template = {entry.msgid for entry in read_po((LOCALE / "mjarena.pot").read_text(encoding="utf-8"))}
    marked = {*TEMPLATES, *KIND_LABELS.values(), *STAGES, *(suffix for suffix, _ in SUFFIXES)}
    assert marked - template == set()
    assert template - {entry.msgid for entry in catalog} == set()


def test_the_catalog_check_fails_on_a_made_up_catalog():
    made_up = read_po("\n".join([
        'msgid "Round %(round)s"', 'msgstr "第 %(number)s 轮"', "",
        'msgid "Standings"', 'msgstr ""', "",
        "#, fuzzy", 'msgid "Upload"', 'msgstr "上传"', "",
        'msgid "{team} uploaded"', 'msgstr "队伍已上传"', "",
        'msgid "%(n)s game"', 'msgid_plural "%(n)s games"', 'msgstr[0] "%(n)s 局"', "",
        'msgid "Team %s"', 'msgstr "队伍 %s"', "",
    ]))
    problems = catalog_problems(made_up)
    assert [problem.split(":")[0] for problem in problems] == ["line 1", "line 4", "line 8", "line 11"]
    assert "placeholders %(round)s in English, %(number)s in the translation" in problems[0]
    assert problems[1].endswith("no translation") and problems[2].endswith("no translation (fuzzy)")
    assert "placeholders {team} in English, none in the translation" in problems[3]


def test_placeholders_of_both_styles():
    assert placeholders("%(a)s and %(b).3f of {c} at 100%%") == ["%(a)s", "%(b).3f", "{c}"]
    assert placeholders("{{literal}} %s") == ["%s"]


def test_the_catalog_follows_the_glossary(catalog):
    rows = glossary_rows(GLOSSARY.read_text(encoding="utf-8"))
    assert {"HU", "PENG", "GANG", "distance", "discard", "draw", "forfeit", "timeout"} <= {row[0] for row in rows}
    assert glossary_problems(catalog, rows) == []


def test_the_glossary_check_fails_on_a_made_up_catalog():
    rows = [("GANG", ["杠"], ["槓"]), ("hand", ["手牌"], []), ("response", ["回应"], []), ("draw", ["摸牌"], []),
            ("Swiss draw", ["抽签"], [])]
    made_up = read_po('msgid "GANG of %(tile)s"\nmsgstr "槓 %(tile)s"\n\nmsgid "the hand does not win"\n'
                      'msgstr "不能和"\n\nmsgid "no \\"response\\" in %(hand)s"\nmsgstr "没有 \\"response\\""\n\n'
                      'msgid "the Swiss draw"\nmsgstr "瑞士轮抽签"\n\nmsgid "a draw"\nmsgstr "抽签"\n')
    assert glossary_problems(made_up, rows) == [
        "'GANG of %(tile)s': '槓 %(tile)s' lacks 杠 for 'GANG'",
        "'GANG of %(tile)s': '槓 %(tile)s' uses '槓', not 'GANG''s word",
        "'the hand does not win': '不能和' lacks 手牌 for 'hand'",
        "'a draw': '抽签' lacks 摸牌 for 'draw'",
    ]


@pytest.mark.parametrize("page", CHINESE_PAGES, ids=lambda path: path.name)
def test_the_chinese_pages_use_the_glossary_words(page):
    text = page.read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # the example bots' code stays as it is
    used = [(term, word) for term, _, avoided in glossary_rows(GLOSSARY.read_text(encoding="utf-8"))
            for word in avoided if word in prose]
    assert used == []
    assert "glossary.zh-CN.md" in text
    for word in ("和牌", "摸牌", "碰", "杠", "评测机", "Bot"):
        assert word in prose
