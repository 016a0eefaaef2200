"""A bot's error told in the reader's language: the stored verdict stays what the judge wrote (a ``reason`` code
and an English ``detail``), and its words are rendered from the catalog when shown.

Each sentence the judge writes into a ``detail`` is one of :data:`TEMPLATES` (the English of
:mod:`mjarena.protocol.process`, :mod:`mjarena.protocol.bot_failures`, :mod:`mjarena.protocol.botzone`,
:mod:`mjarena.arena.match` and :mod:`mjarena.arena.illegal`, placeholders as ``%(name)s``).  :func:`render` reads a
detail back into its template and values, and writes the template's translation with the values in, each value
rendered the same way (a value is itself a sentence of the table, a word of the catalog, or kept as it is: a tile,
a number, a command).  The standard error a detail quotes is never translated; a detail that fits no template is
shown as it is.

>>> render("exit code 3", "zh_CN"), render("exit code 3", "en")
('退出码 3', 'exit code 3')
>>> render("no answer within 1.000 s", "zh_CN")
'1.000 秒内没有给出回答'
>>> print(render("killed by SIGSEGV; stderr:\\nSegmentation fault", "zh_CN"))
被信号 SIGSEGV 终止；标准错误输出：
Segmentation fault
>>> render("something the judge never says", "zh_CN")
'something the judge never says'
"""

from __future__ import annotations

import re
from functools import lru_cache

from mjarena.i18n import N_, NC_, active, translator

__all__ = ["BUILD_TEMPLATES", "KIND_LABELS", "SUFFIXES", "TEMPLATES", "kind_label", "render", "render_build"]

KIND = "error kind"
KIND_LABELS = {
    "crash": NC_("error kind", "crash"),
    "timeout": NC_("error kind", "timeout"),
    "memory": NC_("error kind", "memory"),
    "bad_output": NC_("error kind", "bad output"),
    "output_limit": NC_("error kind", "output limit"),
    "illegal_action": NC_("error kind", "illegal action"),
    "false_hu": NC_("error kind", "false HU"),
    "other": NC_("error kind", "other"),
}
"""Each error's stable code (a seat's ``reason``, or a kind of :mod:`mjarena.contest.failures`) and its label."""

STAGES = (N_("draw"), N_("discard"), N_("claim"), N_("target"))
"""The stages a decision is taken at, as ``is not legal at this STAGE`` names them."""

TEMPLATES = (
    # the exit of a program (protocol.bot_failures)
    N_("exit code %(code)s"),
    N_("killed by %(signal)s"),
    N_("did not exit"),
    # the bot process (protocol.process)
    N_("no answer within %(seconds)s s"),
    N_("no answer within %(seconds)s s: %(why)s"),
    N_("no answer within %(seconds)s s (%(spent)s)"),
    N_("no answer within %(seconds)s s: %(why)s (%(spent)s)"),
    N_("printed %(bytes)s bytes but neither exited nor printed the keep-running marker within %(seconds)s s "
       "(%(spent)s)"),
    N_("printed %(bytes)s bytes but neither exited nor printed the keep-running marker within %(seconds)s s: "
       "%(why)s (%(spent)s)"),
    # how the time went (protocol.bot_pipes.Deadline.spent)
    N_("%(seconds)s s"),
    N_("%(own)s s of its own time, %(wall)s s of wall time of which %(queued)s s waiting for a busy machine's CPU"),
    N_("%(own)s s of its own time, %(wall)s s of wall time (the wall-clock cap) of which %(queued)s s waiting for "
       "a busy machine's CPU"),
    N_("printed %(bytes)s bytes but neither exited nor printed the keep-running marker within %(seconds)s s"),
    N_("printed %(bytes)s bytes but neither exited nor printed the keep-running marker within %(seconds)s s: "
       "%(why)s"),
    N_("the thinking budget of %(budget)s s for the game is used up (%(used)s s over %(answers)s answers)"),
    N_("no time left: %(why)s"),
    N_("used %(used)s s of CPU time, over the limit of %(limit)s s per answer"),
    N_("printed more than %(limit)s bytes"),
    N_("peak resident memory %(peak)s MiB, over the limit of %(limit)s MiB"),
    N_("peak resident memory %(peak)s MiB, over the limit of %(limit)s MiB; %(status)s"),
    N_("an allocation failed (memory limit %(limit)s MiB)"),
    N_("an allocation failed (memory limit %(limit)s MiB); %(status)s"),
    N_("the bot asked to keep running, then exited (%(status)s) before its next request"),
    N_("the kept-running bot exited (exit code 0) before answering"),
    N_("cannot start %(command)s again: %(error)s"),
    N_("does not build: %(why)s"),
    # the bot's output (protocol.botzone)
    N_("printed nothing"),
    N_("printed nothing to %(request)s"),
    N_("output %(output)s is not JSON (%(error)s)"),
    N_("output %(output)s to %(request)s is not JSON (%(error)s)"),
    N_("output %(output)s is not a JSON object"),
    N_("output %(output)s to %(request)s is not a JSON object"),
    N_('output %(output)s has no "response" key'),
    N_('output %(output)s to %(request)s has no "response" key'),
    N_('"response" of %(output)s is not a string'),
    N_('"response" of %(output)s to %(request)s is not a string'),
    N_('"data" of %(output)s is not a string'),
    N_('"data" of %(output)s to %(request)s is not a string'),
    N_("response %(response)s to %(request)s: %(problem)s"),
    N_("response %(response)s: %(problem)s"),
    N_("%(response)s to %(request)s: only PASS answers this request"),
    N_("%(error)s (token %(position)s)"),
    N_("unknown tile name %(token)s"),
    N_("empty response"),
    N_("the answer to 4 is a target hand (tile names), not %(verb)s"),
    N_("unknown verb %(verb)s (PASS, PLAY, PENG, GANG, HU)"),
    N_("%(verb)s takes no tile"),
    N_("%(verb)s takes exactly one tile"),
    N_("%(verb)s takes at most one tile"),
    # the game's judgement (arena.match, arena.illegal)
    N_("declared HU without a winning hand"),
    N_("%(answer)s is not legal at this %(stage)s: %(why)s"),
    N_("%(reason)s; its choices were %(choices)s"),
    N_("%(reason)s; its choices were %(choices)s and %(more)s more"),
    N_("%(reason)s; it had no choice to make"),
    N_("%(action)s is not offered here"),
    N_("it is not among the answers offered"),
    N_("it does not hold %(tile)s"),
    N_("the hand does not win"),
    N_("the hand does not win with the discard %(tile)s"),
    N_("nothing was discarded to claim: it is its own turn to discard"),
    N_("it is not its turn to discard: this is a claim on the discard %(tile)s"),
    N_("only the discarder's next player may %(action)s"),
    N_("PASS must name another player"),
    N_("a %(verb)s of the discard %(tile)s needs two %(tile)s in the hand; it holds %(held)s"),
    N_("an open %(verb)s of the discard %(tile)s needs three %(tile)s in the hand; it holds %(held)s"),
    N_("an open %(verb)s of the discard %(tile)s needs three %(tile)s in the hand (or a PENG of %(tile)s); "
       "it holds %(held)s"),
    N_("a %(verb)s of %(tile)s needs four %(tile)s in the hand, or one and a PENG of it; it holds %(held)s"),
    N_("a %(verb)s of %(tile)s needs four %(tile)s in the hand, or one and a PENG of it; it holds %(held)s "
       "and has a PENG of it"),
    N_("after the %(claim)s it would discard %(tile)s, which it does not hold"),
    N_("after the %(claim)s it would discard %(tile)s, which it does not hold (the claim takes it)"),
    N_("%(verb)s of %(tile)s"),
    N_("no %(tile)s"),
    N_("one %(tile)s"),
    N_("two %(tile)s"),
    N_("three %(tile)s"),
    N_("four %(tile)s"),
)
"""Every sentence a bot's ``detail`` is made of, in English (the catalog's msgids)."""

BUILD_TEMPLATES = (
    N_("the compiler ran out of time: a compile may take %(wall)s s of wall-clock time and %(cpu)s s of CPU time, "
       "and this one passed the %(which)s limit; %(note)s"),
    N_("the compiler used more than %(limit)s MiB"),
    N_("the build is too large: what the compiler writes may take at most %(size)s in the build folder (and "
       "%(tmp)s MiB in /tmp, %(file)s MiB a file); %(note)s"),
    N_("the compiler failed (exit code %(code)s)"),
    N_("the compiler made no %(file)s"),
    N_("the class holding main must be called Main (public class Main), in a file of any name"),
    N_("this verdict is kept for this source: change the source to try again"),
    N_("wall-clock"),
    N_("CPU"),
)
"""The first line of a ``compile_error``'s message (:mod:`mjarena.builds.builder`), before the compiler's own
output, which is never translated."""

SUFFIXES = (
    (N_("; stderr:\n"), False),
    (N_(" (it was still waiting for input: read one line, not to the end of input; the judge keeps standard input "
        "open in case a bot asks to keep running)"), True),
)
"""Pieces the judge adds at the end of a detail: (the English, whether the piece ends the sentence it follows).
``; stderr:`` is followed by the bot's own standard error, never translated."""


_NUMBER = r"\d+(?:\.\d+)?"
_VALUES = {"verb": r"[A-Z]+", "tile": r"[^\s;:,()]+", "code": r"-?\d+", "position": r"\d+", "seconds": _NUMBER,
           "own": _NUMBER, "wall": _NUMBER, "queued": _NUMBER, "spent": r"[^()]+(?:\([^()]*\)[^()]*)?"}
"""What some placeholders can hold (any other: any text), so that a short sentence such as ``one %(tile)s`` is
never read into a longer detail."""


def _regex(template: str) -> str:
    """The regular expression of a template: each placeholder a group, a repeated one its back-reference."""
    pieces = re.split(r"%\((\w+)\)s", template)
    regex, seen = "", set()
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            regex += re.escape(piece)
        elif piece in seen:
            regex += f"(?P={piece})"
        else:
            seen.add(piece)
            regex += f"(?P<{piece}>{_VALUES.get(piece, '.+?')})"
    return regex + r"\Z"


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    compiled = [(re.compile(_regex(template), re.DOTALL), template) for template in (*TEMPLATES, *BUILD_TEMPLATES)]
    # the longest templates first, so "no answer within 1 s: why" is not read as "no answer within 1 s: why s"
    return tuple(sorted(compiled, key=lambda pair: -len(pair[1])))


def _sentence(text: str, locale: str, depth: int = 0) -> str:
    words = translator(locale)
    if depth > 4:
        return text
    for pattern, template in _patterns():
        match = pattern.match(text)
        if match is not None:
            values = {name: _sentence(value, locale, depth + 1) for name, value in match.groupdict().items()}
            return words.gettext(template) % values
    return words.gettext(text) if text.strip() else text


def render(detail: str | None, locale: str | None = None) -> str:
    """A stored ``detail`` in the reader's language (``en`` gives it back as it is; None: the active one,
    :func:`mjarena.i18n.active`)."""
    if not detail:
        return detail or ""
    locale = locale or active()
    words = translator(locale)
    head, stderr = detail, None
    marker = SUFFIXES[0][0]
    if marker in detail:
        head, _, stderr = detail.partition(marker)
    tail = ""
    for suffix, _ in SUFFIXES[1:]:
        if head.endswith(suffix):
            head, tail = head[: -len(suffix)], words.gettext(suffix) + tail
    text = _sentence(head, locale) + tail
    return text if stderr is None else text + words.gettext(marker) + stderr


def render_build(message: str | None, locale: str | None = None) -> str:
    r"""A build's message in the reader's language: its first line, the judge's (:data:`BUILD_TEMPLATES`), rendered;
    the compiler's output after it as it is.

    >>> print(render_build("the compiler used more than 512 MiB\nbot.cpp:1: error: x", "zh_CN"))
    编译器使用的内存超过 512 MiB
    bot.cpp:1: error: x
    >>> render_build("bot.cpp:1:1: error: expected ';'", "zh_CN")
    "bot.cpp:1:1: error: expected ';'"
    """
    if not message:
        return message or ""
    first, newline, rest = message.partition("\n")
    locale = locale or active()
    for pattern, _template in _patterns():
        if pattern.match(first):
            return _sentence(first, locale) + newline + rest
    return message


def kind_label(code: str | None, locale: str | None = None) -> str:
    """The label of an error's code in the reader's language (an unknown code as it is).

    >>> kind_label("bad_output", "zh_CN"), kind_label("bad_output", "en"), kind_label("new_kind", "zh_CN")
    ('输出格式错误', 'bad output', 'new_kind')
    """
    if not code:
        return ""
    label = KIND_LABELS.get(code)
    return translator(locale or active()).pgettext(KIND, label) if label else code
