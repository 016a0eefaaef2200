"""A bot's command line split into its words by the rules of the system it runs on.

On POSIX a shell's rules (:func:`shlex.split`: quotes, and backslash escapes); on Windows the rules every C
program's start-up code applies to its command line (the Microsoft C runtime's, as ``CommandLineToArgvW``), where a
backslash is a path's separator and escapes only a double quote: ``python C:\\Users\\me\\bot.py`` is two words
there, while POSIX rules would make the second ``C:Usersmebot.py``.

>>> split_command("python3 bots/mine.py --level 2")
['python3', 'bots/mine.py', '--level', '2']
>>> split_command(r'python C:\\Users\\me\\bot.py', windows=True)
['python', 'C:\\\\Users\\\\me\\\\bot.py']
"""

from __future__ import annotations

import shlex
import sys

__all__ = ["split_command", "split_windows"]


def split_windows(text: str) -> list[str]:
    """``text`` split as the Microsoft C runtime splits a command line: words between spaces or tabs; double quotes
    group (and may open and close within a word; ``""`` inside quotes is one literal quote); backslashes are
    literal except before a double quote, where ``2n`` of them are ``n`` and the quote is a quote, and ``2n + 1``
    are ``n`` and a literal quote.  A quote left open runs to the end.

    >>> split_windows(r'"C:\\Program Files\\Python\\python.exe" bot.py')
    ['C:\\\\Program Files\\\\Python\\\\python.exe', 'bot.py']
    >>> split_windows(r'a\\\\\\"b "c d"e ""  "x""y"')
    ['a\\\\"b', 'c de', '', 'x"y']
    """
    words: list[str] = []
    word: list[str] = []
    in_word = quoted = False
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char == "\\":
            end = index
            while end < length and text[end] == "\\":
                end += 1
            count = end - index
            if end < length and text[end] == '"':
                word.append("\\" * (count // 2))
                if count % 2:
                    word.append('"')
                    end += 1
                index, in_word = end, True
                continue
            word.append("\\" * count)
            index, in_word = end, True
            continue
        if char == '"':
            if quoted and index + 1 < length and text[index + 1] == '"':
                word.append('"')
                index += 2
                continue
            quoted, in_word = not quoted, True
            index += 1
            continue
        if char in " \t" and not quoted:
            if in_word:
                words.append("".join(word))
                word, in_word = [], False
            index += 1
            continue
        word.append(char)
        in_word = True
        index += 1
    if in_word:
        words.append("".join(word))
    return words


def split_command(text: str, *, windows: bool | None = None) -> list[str]:
    """The words of a command line: Windows' rules (:func:`split_windows`) on Windows (or with ``windows``),
    else POSIX shell rules (:func:`shlex.split`); ValueError for a quote left open on POSIX."""
    if windows is None:
        windows = sys.platform == "win32"
    return split_windows(text) if windows else shlex.split(text)
