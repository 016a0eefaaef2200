"""A tournament's bots on a Ray cluster whose nodes share no file system with the judge's machine: what travels.

``mjarena tournament --executor ray`` plans each entrant once, on the judge's machine, before any game
(:func:`plan_bot`), and each game's task carries its seats' plans (:class:`ShippedBot`), whose folder the Ray
executor sends by content (:class:`mjarena.arena.executors.Portable`, :mod:`mjarena.builds.shipping`); the node
that plays the game unpacks it into its own cache and plays the bot from there (:meth:`ShippedBot.relocated`).

* ``builtin:`` and ``python:`` bots: nothing travels (they play in the worker; a ``python:`` module must be
  importable on every node).
* A source file: built here (:mod:`mjarena.builds`, from the cache when it was built before); its build folder
  travels, without the sources its run command does not use (:func:`mjarena.builds.shipping.held_back`: a
  compiled bot's source never leaves this machine; a Python or JavaScript bot's source is its program).  A source
  that does not build plays as it does on one machine: it errs at its first request.
* A command line: its *own files* travel.  They are the words of the command that name an existing file or
  folder here (relative to the current folder, as its box finds them; words starting with ``-`` are options)
  outside the system directories, the program excepted when it is a bare name (each node looks it up on its own
  PATH) or an interpreter in a runtime's tree such as ``~/.pyenv/versions/3.11.7/bin/python3``
  (:func:`mjarena.sandbox.binds.own_path`).  What travels is the deepest folder that holds them all (a file's
  folder; a folder named itself), whole (sources included: they are the organiser's own files, not a team's):
  keep a bot in a folder of its own.  A command without own files sends nothing, and what it names must be on
  every node.  Refused before any game (:class:`CannotShip`): own files in unrelated places (their folder would
  be the root), a folder of more than :data:`MAX_FOLDER_FILES` files and folders or
  :data:`~mjarena.builds.shipping.MAX_PARCEL_BYTES` bytes (a home directory, say), one that holds the
  tournament's own folder (its secret and results), or one holding anything but files and folders (a link).

On a node, every path of the command that names the folder is moved to the node's copy, so the bot's box shows
what it shows on one machine, from there.  The bot runs in the node's working folder, not in yours: a program
that opens its own files should find them beside itself (``__file__``, ``argv[0]``).

>>> from mjarena.limits import Limits
>>> plan_bot("builtin:greedy", Limits()) is None, plan_bot("python3 -c pass", Limits()).folder is None
(True, True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from mjarena.sandbox.binds import own_path

if TYPE_CHECKING:
    from mjarena.limits import Limits
    from mjarena.rulesets import JudgeRules
    from mjarena.variants.base import Agent

__all__ = ["MAX_FOLDER_FILES", "CannotShip", "ShippedBot", "command_files", "plan_bot", "seat_factory",
           "travelling_folder"]

MAX_FOLDER_FILES = 10_000
"""The most files (and folders) a program bot's folder may hold to travel to a cluster's nodes."""


class CannotShip(ValueError):
    """A bot whose files cannot be sent to a cluster's nodes; says why."""


@dataclass(frozen=True)
class ShippedBot:
    """How a node plays one entrant: its command (``argv``), the paths its box shows besides those the command
    names (``readable``: a build's folder), the limits it plays under (seconds per answer, MiB, seconds of
    thinking per game), and the one ``folder`` of its files that travels (None: none does) without the names in
    ``leave_out``; or why its source does not build (``broken``).

    >>> bot = ShippedBot(("python3", "/srv/mine/bot.py", "--fast"), 1.0, 256, 30.0, folder="/srv/mine")
    >>> bot.relocated({"/srv/mine": "/node/cache/ab12"}).argv
    ('python3', '/node/cache/ab12/bot.py', '--fast')
    """

    argv: tuple[str, ...]
    time_limit: float
    memory_mib: int
    game_budget: float
    readable: tuple[str, ...] = ()
    folder: str | None = None
    leave_out: tuple[str, ...] = ()
    broken: str | None = None

    def relocated(self, places: Mapping[str, str]) -> ShippedBot:
        """The same bot with its folder at the place ``places`` gives it (unchanged when it names none)."""
        old = self.folder
        new = places.get(old) if old is not None else None
        if old is None or new is None:
            return self

        def moved(word: str) -> str:
            return new + word[len(old):] if word == old or word.startswith(old + "/") else word

        return replace(self, argv=tuple(map(moved, self.argv)), readable=tuple(map(moved, self.readable)),
                       folder=new)

    def agent(self, spec: str, seat: int, limits: Limits, rules: JudgeRules) -> Agent:
        """The agent of seat ``seat`` (named ``spec``, as on one machine), in the box of ``limits``."""
        from mjarena.agents.botzone_agent import BotzoneAgent
        from mjarena.agents.source_bot import BrokenBuild
        from mjarena.protocol.process import BotProcess, ProcessTransport

        if self.broken is not None:
            return BrokenBuild(spec, self.broken)
        process = BotProcess(
            list(self.argv), time_limit=self.time_limit, memory_limit_mib=self.memory_mib,
            output_limit=limits.output_bytes, sandbox=limits.sandbox, readable=list(self.readable),
            game_budget=self.game_budget, seat=seat,
        )
        return BotzoneAgent(ProcessTransport(process), name=spec, protocol=rules.protocol)


def command_files(words: Sequence[str], cwd: str) -> tuple[list[str], list[str]]:
    """The command ``words`` with every word that names an existing path (relative to ``cwd``) made absolute, and
    those of its paths that are the bot's own (see the module's docstring).

    >>> command_files(["python3", "-c", "pass"], "/")
    (['python3', '-c', 'pass'], [])
    >>> command_files(["/usr/bin/env", "python3", "usr/lib"], "/")
    (['/usr/bin/env', 'python3', '/usr/lib'], [])
    """
    argv = list(words)
    own = []
    for index, word in enumerate(words):
        if (index == 0 and "/" not in word) or (index > 0 and word.startswith("-")) or not word or "\0" in word:
            continue
        path = os.path.abspath(os.path.join(cwd, word))
        if not os.path.exists(path):
            continue
        argv[index] = path
        if own_path(path, program=index == 0):
            own.append(path)
    return argv, own


def travelling_folder(paths: Sequence[str]) -> str:
    """The deepest folder holding every one of the absolute ``paths`` (a folder named counts as itself, a file as
    its folder); :class:`CannotShip` when that is the root.

    >>> travelling_folder(["/srv/mine/bot.py", "/srv/mine/data"])
    '/srv/mine'
    >>> try:
    ...     travelling_folder(["/srv/bot.py", "/home/m.bin"])
    ... except CannotShip as error:
    ...     print(error)
    it names files in unrelated places (/srv/bot.py, /home/m.bin): put them in one folder
    """
    folders = [path if os.path.isdir(path) else os.path.dirname(path) for path in paths]
    common = os.path.commonpath(folders)
    if common == os.path.dirname(common):  # the root
        raise CannotShip(f"it names files in unrelated places ({', '.join(paths)}): put them in one folder")
    return common


def _check_folder(folder: str, leave_out: Sequence[str], private: str | None) -> None:
    """:class:`CannotShip` unless ``folder`` (without ``leave_out``) can travel: within the bounds, not holding
    ``private``, and packed without an error (:func:`mjarena.builds.shipping.pack`)."""
    from mjarena.builds.shipping import MAX_PARCEL_BYTES, ShippingError, pack

    if private is not None and os.path.commonpath([folder, private]) == folder:
        raise CannotShip(f"its folder {folder} holds the tournament's folder {private} (its secret and results): "
                         "put the bot in a folder of its own")
    files = size = 0
    stack = [folder]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    files += 1
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        size += entry.stat(follow_symlinks=False).st_size
                    if files > MAX_FOLDER_FILES or size > MAX_PARCEL_BYTES:
                        bound = (f"{MAX_FOLDER_FILES} files and folders" if files > MAX_FOLDER_FILES else
                                 f"{MAX_PARCEL_BYTES >> 20} MiB" if MAX_PARCEL_BYTES >> 20 else
                                 f"{MAX_PARCEL_BYTES} bytes")
                        raise CannotShip(f"its folder {folder} holds more than {bound}: put the bot in a folder of "
                                         "its own")
        except OSError as error:
            raise CannotShip(f"cannot read its folder {folder}: {error.strerror or error}") from None
    try:
        pack(folder, leave_out)
    except ShippingError as error:
        raise CannotShip(str(error)) from None


def plan_bot(spec: str, limits: Limits, *, cwd: str | None = None, private: str | os.PathLike[str] | None = None
             ) -> ShippedBot | None:
    """How a node plays ``spec`` under ``limits`` (see the module's docstring): None for a bot that plays in the
    worker (``builtin:``, ``python:``); a source file is built here.  ``cwd``: where the command's relative paths
    start (the current folder); ``private``: a folder that must not travel (the tournament's).
    :class:`CannotShip` saying why the bot's files cannot travel."""
    from mjarena.command_line import split_command

    if spec.startswith(("builtin:", "python:")):
        return None
    keep = None if private is None else os.path.abspath(private)
    from mjarena.agents.source_bot import build_for_play, is_source, language_limits

    if is_source(spec, limits.toolchains):
        built = build_for_play(spec, limits)
        if isinstance(built, str):
            return ShippedBot((), limits.time, limits.memory_mib, limits.budget, broken=built)
        seconds, memory, budget = language_limits(built, limits)
        bot = ShippedBot(tuple(built.command(memory)), seconds, memory, budget, tuple(built.readable))
        return _with_folder(bot, built.readable, keep, build=True)
    try:
        words = split_command(spec)
    except ValueError as error:
        raise CannotShip(f"bot command {spec!r}: {error}") from None
    argv, own = command_files(words, cwd or os.getcwd())
    bot = ShippedBot(tuple(argv), limits.time, limits.memory_mib, limits.budget)
    return _with_folder(bot, [travelling_folder(own)] if own else [], keep, build=False)


def _with_folder(bot: ShippedBot, folders: Sequence[str], private: str | None, *, build: bool) -> ShippedBot:
    """``bot`` with the one folder of ``folders`` that travels (checked); a ``build`` leaves here the sources its
    command does not use, a program's folder travels whole."""
    from mjarena.builds.shipping import held_back

    if not folders:
        return bot
    if len(folders) > 1:
        raise CannotShip(f"its files are in {len(folders)} folders ({', '.join(folders)}); one can travel")
    folder = folders[0]
    try:
        names = os.listdir(folder)
    except OSError as error:
        raise CannotShip(f"cannot read its folder {folder}: {error.strerror or error}") from None
    leave_out = tuple(held_back(names, bot.argv)) if build else ()
    _check_folder(folder, leave_out, private)
    return replace(bot, folder=folder, leave_out=leave_out)


def seat_factory(programs: Sequence[ShippedBot | None]) -> Any:
    """The match's agent factory for a game whose seats play ``programs`` (None: as on one machine)."""
    from mjarena.agents.factory import make_agent

    def factory(spec: str, seat: int, limits: Limits, seed: int | None = None, rules: Any = None) -> Agent:
        program = programs[seat]
        if program is None:
            return make_agent(spec, seat, limits, seed=seed, rules=rules)
        return program.agent(spec, seat, limits, rules)

    return factory
