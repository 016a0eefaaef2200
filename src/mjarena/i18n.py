"""The language a reader gets, and the words in it: gettext catalogs (English the source, ``zh_CN`` beside it).

The catalogs are ``locale/<LOCALE>/LC_MESSAGES/mjarena.po`` in the package, compiled to ``.mo`` at install
(``setup.py``); an editable install without the ``.mo`` compiles the ``.po`` in memory (:mod:`mjarena.catalogs`).
Only the standard library's :mod:`gettext` runs here; Babel, where installed, formats numbers and dates in the
locale's style, and is the tool that extracts and updates the catalogs (``make catalogs``).

The language of a page: the ``lang`` cookie (the switch on the pages sets it), else the best of the visitor's
``Accept-Language`` that mjarena speaks, else the contest's default (``contest create --language``).

>>> negotiate(None, "zh-CN,zh;q=0.9,en;q=0.8"), negotiate("en", "zh-CN"), negotiate(None, "fr, de", "zh_CN")
('zh_CN', 'en', 'zh_CN')
>>> translator("zh_CN").gettext("did not exit"), translator("en").gettext("did not exit")
('未退出', 'did not exit')
>>> translator("zh_CN").pgettext("error kind", "memory")
'内存超限'
>>> html_lang("zh_CN"), html_lang("en")
('zh-CN', 'en')
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from mjarena.catalogs import mo_bytes, read_po

__all__ = [
    "COOKIE",
    "DEFAULT",
    "LOCALES",
    "NC_",
    "N_",
    "activated",
    "active",
    "format_datetime",
    "format_number",
    "gettext",
    "html_lang",
    "locale_of",
    "negotiate",
    "ngettext",
    "pgettext",
    "translated",
    "translator",
    "worded",
]

DOMAIN = "mjarena"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT = "en"
LOCALES = {"en": "English", "zh_CN": "简体中文"}
"""The languages mjarena speaks: locale -> its own name (what the switch on a page says)."""
COOKIE = "lang"
"""The cookie that keeps a visitor's choice of language."""


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now (Babel extracts ``N_("...")``).

    >>> N_("timeout")
    'timeout'
    """
    return message


def NC_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` (where one English word has two translations: ``memory`` the error kind,
    ``memory`` the limit) for the catalog; :func:`pgettext` translates it.

    >>> NC_("error kind", "memory")
    'memory'
    """
    return message


def locale_of(tag: str | None) -> str | None:
    """The locale mjarena speaks for a language tag (``zh-CN``, ``zh_cn``, ``zh-Hans``, ``zh``, ``en-GB``),
    None for one it does not.

    >>> [locale_of(tag) for tag in ("zh-CN", "zh_cn", "zh-Hans-CN", "zh", "en-GB", "EN", "zh-TW", "fr", "")]
    ['zh_CN', 'zh_CN', 'zh_CN', 'zh_CN', 'en', 'en', None, None, None]
    """
    parts = (tag or "").strip().replace("_", "-").lower().split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] == "zh" and not {"tw", "hk", "mo", "hant"} & set(parts[1:]):
        return "zh_CN"
    return None


def accepted(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (a malformed weight counts 0).

    >>> accepted("en;q=0.5, zh-CN, fr;q=0.8, de;q=x")
    ['zh-CN', 'fr', 'en', 'de']
    """
    weighted = []
    for position, part in enumerate((header or "").split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if tag.strip():
            weighted.append((-weight, position, tag.strip()))
    return [tag for _, _, tag in sorted(weighted)]


def negotiate(cookie: str | None, accept_language: str | None, default: str = DEFAULT) -> str:
    """The locale of a page: the cookie's, else the first of ``Accept-Language`` that mjarena speaks, else
    ``default`` (itself read as a tag: ``zh-CN`` works)."""
    chosen = locale_of(cookie)
    if chosen is not None:
        return chosen
    for tag in accepted(accept_language):
        if tag == "*":
            break
        chosen = locale_of(tag)
        if chosen is not None:
            return chosen
    return locale_of(default) or DEFAULT


def html_lang(locale: str) -> str:
    """The ``<html lang>`` of a locale (BCP 47: a hyphen)."""
    return locale.replace("_", "-")


@cache
def translator(locale: str) -> _gettext.NullTranslations:
    """The translations of ``locale`` (``zh_CN``, or a tag such as ``zh-CN``): the compiled ``.mo`` when there is
    one, else the ``.po`` compiled in memory; English (the messages themselves) for ``en`` or a locale without a
    catalog."""
    chosen = locale_of(locale) or DEFAULT
    if chosen == DEFAULT:
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / chosen / "LC_MESSAGES"
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as stream:
            return _gettext.GNUTranslations(stream)
    if po.is_file():
        import io

        return _gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po.read_text(encoding="utf-8")))))
    return _gettext.NullTranslations()


def format_number(value: float, locale: str, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals and the locale's grouping (Babel's when installed).

    >>> format_number(12345.678, "zh_CN", 1), format_number(-3, "en")
    ('12,345.7', '-3')
    """
    try:
        from babel.numbers import format_decimal
    except ImportError:
        return f"{value:,.{digits}f}"
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return str(format_decimal(round(value, digits), format=pattern, locale=locale_of(locale) or DEFAULT))


def format_datetime(epoch: float, locale: str, zone: str | None = None) -> str:
    """The moment ``epoch`` in the locale's style, its time zone named (UTC unless ``zone``, an IANA name, is
    given and known).

    >>> format_datetime(0, "en"), format_datetime(0, "zh_CN", "Asia/Shanghai")
    ('1970-01-01 00:00:00 UTC', '1970年1月1日 08:00:00 (Asia/Shanghai)')
    """
    from datetime import datetime, timezone, tzinfo

    where: tzinfo = timezone.utc
    if zone:
        try:
            from zoneinfo import ZoneInfo

            where = ZoneInfo(zone)
        except (ImportError, ValueError, KeyError, OSError):
            zone = None
    moment = datetime.fromtimestamp(epoch, where)
    named = zone or "UTC"
    if locale_of(locale) == "zh_CN":
        return f"{moment.year}年{moment.month}月{moment.day}日 {moment:%H:%M:%S} ({named})"
    return f"{moment:%Y-%m-%d %H:%M:%S} {named}" if not zone else f"{moment:%Y-%m-%d %H:%M:%S} ({named})"



_ACTIVE: ContextVar[str] = ContextVar("mjarena_locale", default=DEFAULT)


def active() -> str:
    """The locale of what is being written now (a request's, set by :func:`activated`; English outside one)."""
    return _ACTIVE.get()


@contextmanager
def activated(locale: str) -> Iterator[str]:
    """Write in ``locale`` inside the block (a web request's language, set by its middleware).

    >>> with activated("zh-CN"):
    ...     gettext("did not exit"), pgettext("error kind", "timeout"), active()
    ('未退出', '超时', 'zh_CN')
    >>> gettext("did not exit")
    'did not exit'
    """
    chosen = locale_of(locale) or DEFAULT
    token = _ACTIVE.set(chosen)
    try:
        yield chosen
    finally:
        _ACTIVE.reset(token)


def gettext(message: str) -> str:
    """``message`` in the active locale (pages write ``_("Standings")`` with ``from mjarena.i18n import gettext as
    _``)."""
    return translator(_ACTIVE.get()).gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` (marked with :func:`NC_`) in the active locale."""
    return translator(_ACTIVE.get()).pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` for ``count`` in the active locale."""
    return translator(_ACTIVE.get()).ngettext(singular, plural, count)


class Worded(str):
    """An English sentence with values (a refusal's): the string itself is the English, what the API and the logs
    say; :func:`translated` writes it in the reader's language from its ``template`` (a msgid) and ``values``."""

    template: str
    values: dict[str, object]


def worded(template: str, **values: object) -> Worded:
    """``template % values`` that remembers both, so that a page can show it translated (``template`` is marked
    with :func:`N_` where it is written; a value that is itself :class:`Worded` is translated too).

    >>> refusal = worded(N_("the message is empty"))
    >>> refusal, translated(refusal), translated(ValueError(refusal))
    ('the message is empty', 'the message is empty', 'the message is empty')
    """
    text = Worded(template % values)
    text.template, text.values = template, values
    return text


def translated(message: object) -> str:
    """``message`` (a string, :class:`Worded`, or an exception carrying one) in the active locale: a plain
    string is looked up in the catalog as it is (shown unchanged when it is not there).

    >>> with activated("zh-CN"):
    ...     translated(worded(N_("too many uploads: at most %(limit)s a minute; try again in %(wait)s s"),
    ...                       limit=5, wait=12))
    '上传过于频繁：每分钟最多 5 次，请在 12 秒后再试'
    """
    if isinstance(message, BaseException):
        message = message.args[0] if message.args else ""
    template = getattr(message, "template", None)
    if template is not None and isinstance(message, Worded):
        values = {key: translated(value) if isinstance(value, Worded) else value
                  for key, value in message.values.items()}
        return gettext(template) % values
    return gettext(str(message)) if message else ""
