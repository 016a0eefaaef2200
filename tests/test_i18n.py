"""The reader's language: chosen from the cookie, Accept-Language and the contest's default; the catalogs read
compiled or, without a ``.mo``, from the ``.po``; and a bot's verdicts, as the judge really writes them, rendered in
Chinese with nothing of their English sentences left.
"""

from __future__ import annotations

import gettext
import io
import re
import shutil
from pathlib import Path

import pytest

from mjarena import i18n
from mjarena.catalogs import CatalogError, compile_po, mo_bytes, read_po
from mjarena.verdicts import render

ZH_CN = Path(i18n.__file__).parent / "locale" / "zh_CN" / "LC_MESSAGES" / "mjarena.po"


@pytest.mark.parametrize(("cookie", "header", "default", "chosen"), [
    (None, None, "en", "en"),
    (None, None, "zh_CN", "zh_CN"),
    (None, None, "zh-CN", "zh_CN"),
    ("zh-CN", "en-US,en;q=0.9", "en", "zh_CN"),        # the switch's cookie wins
    ("klingon", "zh-Hans-CN,zh;q=0.9", "en", "zh_CN"),  # an unknown cookie is no choice
    (None, "fr;q=0.9, en;q=0.5, zh-CN;q=0.8", "en", "zh_CN"),
    (None, "zh-TW, en;q=0.1", "zh_CN", "en"),           # Taiwan's Chinese is not zh_CN's script
    (None, "fr, de", "zh_CN", "zh_CN"),
    (None, "*", "zh_CN", "zh_CN"),
    (None, "zh;q=abc, en;q=0.5", "en", "en"),           # a malformed weight counts for nothing
])
def test_the_language_of_a_page(cookie, header, default, chosen):
    assert i18n.negotiate(cookie, header, default) == chosen


def test_every_po_entry_survives_compilation():
    entries = read_po(ZH_CN.read_text(encoding="utf-8"))
    compiled = gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
    assert compiled.info()["language"] == "zh_CN"
    for entry in entries[1:]:
        if entry.context is None:
            assert compiled.gettext(entry.msgid) == entry.msgstr[0]
        else:
            assert compiled.pgettext(entry.context, entry.msgid) == entry.msgstr[0]
    assert any(entry.context for entry in entries)


def test_plural_forms_compile():
    entries = read_po('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n'
                      '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
                      'msgid "%(n)s game"\nmsgid_plural "%(n)s games"\nmsgstr[0] "%(n)s 局"\n')
    compiled = gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
    assert compiled.ngettext("%(n)s game", "%(n)s games", 5) == "%(n)s 局"


def test_a_po_file_that_is_not_gettext_is_named_by_its_line():
    with pytest.raises(CatalogError, match="line 2: not a gettext line"):
        read_po('msgid "a"\nmsgstr: "b"\n')


@pytest.fixture
def locale_dir(tmp_path, monkeypatch):
    folder = tmp_path / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(ZH_CN, folder / "mjarena.po")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translator.cache_clear()
    yield folder
    i18n.translator.cache_clear()


def test_an_editable_install_reads_the_po_and_an_installed_one_the_mo(locale_dir):
    assert i18n.translator("zh-CN").gettext("did not exit") == "未退出"  # no .mo: the .po, compiled in memory
    i18n.translator.cache_clear()
    po = locale_dir / "mjarena.po"
    altered = locale_dir / "altered.po"
    altered.write_text(po.read_text(encoding="utf-8").replace('msgstr "未退出"', 'msgstr "没有退出"'), encoding="utf-8")
    compile_po(altered, locale_dir / "mjarena.mo")  # as setup.py's build step does
    assert i18n.translator("zh_CN").gettext("did not exit") == "没有退出"


def _real_details() -> list[str]:
    """Details as the judge's own code writes them (each producer called, not its words copied)."""
    from mjarena.agents.errors import AgentError
    from mjarena.arena.illegal import why_illegal
    from mjarena.protocol import botzone
    from mjarena.protocol.bot_failures import STDIN_HINT, describe_exit
    from mjarena.rulesets import judge_rules
    from mjarena.variants.base import Action

    details = [describe_exit(3), describe_exit(-9), describe_exit(None), f"no answer within 1.000 s{STDIN_HINT}",
               f"{describe_exit(1)}; stderr:\nTraceback: boom"]
    for text in ("", "not json", "[1]", '{"data": "x"}', '{"response": 1}', '{"response": "PASS", "data": 2}'):
        for request in (None, "2 W1"):
            with pytest.raises(AgentError) as error:
                botzone.decode_output(text, request)
            details.append(error.value.detail)
    with pytest.raises(AgentError) as error:
        botzone.check_pass(Action("hu"), "HU", "3 2 PENG W2")
    details.append(error.value.detail)
    details.append(botzone.bad_output("unknown tile name 'Z1' (token 2)", "PLAY Z1", "2 W1").detail)
    judge = judge_rules("noi2014")
    game = judge.new_game(judge.shuffled_wall(2014))
    held = game.hands[0].counts
    missing = next(kind for kind in range(27) if held[kind] == 0)
    for action in (Action("peng", 0), Action("play", missing), Action("gang", missing), Action("hu")):
        why = why_illegal(judge, game, 0, action, game.decision.stage, game.decision.legal[0])
        details.append(f"'X' is not legal at this {game.decision.stage}: {why}")
    return details


def test_the_judge_s_verdicts_read_in_chinese():
    for detail in _real_details():
        chinese = render(detail, "zh_CN")
        assert render(detail, "en") == detail
        assert re.search(r"[\u4e00-\u9fff]", chinese), detail
        # what may stay English: the bot's own words and code (quoted), signal names, the JSON parser's message,
        # tiles, the protocol's commands, units, "Bot" (the glossary's word), and the quoted standard error
        prose = re.sub(r"'[^']*'|\"[^\"]*\"|SIG\w+|JSON（.*?）|JSON|PASS|HU|PENG|GANG|PLAY|MiB|CPU|Bot|\b[WBT]\d\b|"
                       r"标准错误输出：.*", "", chinese, flags=re.DOTALL)
        assert not re.search(r"[A-Za-z]{3,}", prose), (detail, chinese)


def test_a_verdict_keeps_the_bot_s_standard_error_as_it_is():
    chinese = render("exit code 1; stderr:\nexit code 2 is what it says", "zh_CN")
    assert chinese == "退出码 1；标准错误输出：\nexit code 2 is what it says"


def test_the_contest_s_default_language(tmp_path, capsys):
    from mjarena.cli import main
    from mjarena.contest.model import Contest, ContestError, Settings

    with pytest.raises(ContestError, match=r"^--language zh-TW: expected one of en, zh-CN$"):
        Settings(language="zh-TW").check()
    assert main(["contest", "create", str(tmp_path / "c"), "--team", "red", "--language", "zh-CN", "--json"]) == 0
    assert Contest.open(tmp_path / "c").settings.language == "zh_CN"
    assert main(["contest", "create", str(tmp_path / "d"), "--language", "fr"]) != 0
    assert "--language fr: expected one of en, zh-CN" in capsys.readouterr().err


def test_a_build_s_own_words_read_in_chinese_and_the_compiler_s_stay():
    from mjarena.builds import load_toolchains
    from mjarena.builds.builder import KEEP_NOTE
    from mjarena.verdicts import render_build

    java = next(chain for chain in load_toolchains().values() if chain.expect_message)
    for message in (java.expect_message, KEEP_NOTE):
        assert re.search(r"[\u4e00-\u9fff]", render_build(message, "zh_CN")), message
        assert render_build(message, "en") == message
    compiler = "Main.java:3: error: ';' expected"
    assert render_build(compiler, "zh_CN") == compiler


@pytest.mark.parametrize("detail", [
    # a timeout on a busy machine, as docs/protocol.md's *Time* quotes one (the judge says how the time went)
    "no answer within 1.000 s (1.028 s of its own time, 2.944 s of wall time of which 1.916 s waiting for a busy "
    "machine's CPU)",
    "no answer within 0.500 s: the thinking budget of 30 s for the game is used up (29.500 s over 50 answers) "
    "(0.511 s)",
])
def test_how_the_time_went_reads_in_chinese(detail):
    chinese = render(detail, "zh_CN")
    assert not re.search(r"[A-Za-z]{3,}", chinese.replace("CPU", "")), chinese


def test_an_error_kind_is_told_apart_from_the_same_english_word():
    from mjarena.verdicts import KIND_LABELS, kind_label

    labels = [kind_label(code, "zh_CN") for code in KIND_LABELS]
    assert len(set(labels)) == len(labels)
    assert kind_label("memory", "zh_CN") != i18n.translator("zh_CN").gettext("memory")  # 内存超限, not 内存
