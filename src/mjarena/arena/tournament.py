"""The tournament runner: Swiss or round-robin rounds of NOI 2014 games, played in parallel, never losing a result.

This module plays the games (:class:`GameTask`, :func:`play_game`, run by a worker) and runs a tournament in its
folder (:class:`Tournament`, :func:`run_tournament`).  The rest is in the modules below it:

* :mod:`mjarena.arena.schedules` — who sits with whom (Swiss pairing, round-robin schedule, the games at a
  table, house bots), pure functions of the seed and of finished results;
* :mod:`mjarena.arena.tournament_settings` — the parameters (:class:`~mjarena.arena.tournament_settings.Settings`,
  ``tournament.json``, the secret) and the tables they give each round;
* :mod:`mjarena.arena.standings` — the tally of the games and its formats (text, CSV, JSON);
* :mod:`mjarena.arena.results_file` — ``games.jsonl``: reading, checking, the group commit.

An entrant count that is not a multiple of 4 is padded with house bots (``builtin:random``, named ``house-1``,
…) that take the last places of a Swiss round; their results are neither scored nor rated nor listed.

Results on disk (``DIR``): ``tournament.json`` (the parameters; a resume with other parameters is refused),
``games.jsonl`` (one line per finished game, appended and fsync'ed in groups), ``replays/<game id>.json``,
``standings.json`` and ``standings.csv``.  Running again on the same ``DIR`` plays only the games that are not
in ``games.jsonl``: game ids are ``r<round>-t<table>-g<game>``, walls and seats derive from the seed, and round
``r + 1`` of a Swiss tournament depends only on the results of rounds ``<= r``, so the schedule comes out the
same.  Results are applied and written in game-id order, never in completion order, so the executor and the number
of workers change nothing but the speed: ``games.jsonl`` and ``standings.json`` are the same bytes.  A worker sends
back a game's line already written as JSON and what the standings need of it (:class:`Played`); the judge's own
work per game (the loop, the pool's threads, the group commit, the ratings) is what caps the games per second on
many cores, so it is kept near a tenth of a millisecond (``benchmarks/tournament.py`` measures it).

On Ray (``--executor ray``, an executor whose results come from another machine) every entrant is planned on
this machine before any game (:meth:`Tournament.ship_bots`, :mod:`mjarena.arena.shipped_bots`): sources are built
here, and each game's task names its bots' build and program folders, which the executor sends to the node that
plays it (no node needs a shared file system); a bot whose files cannot travel is refused before any game.  The
local pool plans nothing: its workers build and run the bots where they are.

A game the judge fails (:class:`~mjarena.agents.errors.JudgeError`: a bot's box that cannot start, its build
gone) is never recorded as a bot's ``crash``: the run stops with that error (``mjarena tournament`` says the judge
failed and exits with status 3), the finished games kept, and running again plays the rest.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from mjarena.agents.errors import JudgeError
from mjarena.arena.overload import Overload
from mjarena.arena.results_file import GroupCommit, check_records, has_games, read_records
from mjarena.arena.schedules import HOUSE_PREFIX, HOUSE_SPEC, game_id, round_robin_schedule, table_game, table_games
from mjarena.arena.standings import (
    GameSummary,
    Tally,
    format_standings,
    standings_csv,
    standings_json,
    summarize,
)
from mjarena.arena.tournament_settings import (
    SECRET_FILE,
    Settings,
    TournamentError,
    read_secret,
    read_settings,
    swiss_round,
    write_secret,
)
from mjarena.files import write_atomically
from mjarena.sandbox import DEFAULT_SANDBOX, Sandbox

if TYPE_CHECKING:
    from mjarena.arena.draws import Draws
    from mjarena.arena.executors import Executor
    from mjarena.arena.shipped_bots import ShippedBot
    from mjarena.limits import Limits

__all__ = ["GameTask", "Played", "TableDeal", "Tournament", "play_game", "run_tournament"]


# -- one game (runs in a worker) -----------------------------------------------------------------------


class TableDeal(NamedTuple):
    """A table's players and their specs, the tournament's draws and format: what a worker deals a game's seats
    and wall from (:meth:`GameTask.dealt`, :func:`~mjarena.arena.schedules.table_game`) instead of the judge (a
    seeded shuffle and two hashes, about a tenth of the judge's own work per game).  One per table, shared by its
    games' tasks (pickled once a chunk)."""

    players: tuple[str, ...]
    specs: tuple[str, ...]
    draws: Draws
    duplicate: bool


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game (picklable).  A task with a ``deal`` has its seats (``names``,
    ``specs``), ``wall_seed`` and ``rotation`` still to deal from it (:meth:`dealt`; the tournament's local
    workers do), blank until then."""

    game_id: str
    round: int
    table: int
    number: int
    wall_seed: int
    rotation: int | None
    names: tuple[str, ...]
    specs: tuple[str, ...]
    time_limit: float
    memory_limit: int
    replay_path: str | None  # the worker writes the replay there; None: it returns the replay instead
    rules: str = "noi2014"
    sandbox: Sandbox = DEFAULT_SANDBOX
    toolchains: str | None = None
    language_limits: bool = False
    sync_replay: bool = True  # False: the caller fsyncs the replay (Tournament.run does, a batch at a time)
    game_budget: float | None = None  # a seat's thinking seconds per game (None: 30 times the time limit)
    programs: tuple[ShippedBot | None, ...] | None = None  # each seat's as planned for a cluster; None: from specs
    deal: TableDeal | None = None  # the table to deal the seats and wall from (None: dealt already)

    def __str__(self) -> str:
        return self.game_id

    @property
    def limits(self) -> Limits:
        """The limits the game's bots play under."""
        from mjarena.limits import Limits

        return Limits(time=self.time_limit, memory_mib=self.memory_limit, sandbox=self.sandbox,
                      toolchains=self.toolchains, language_limits=self.language_limits, game_budget=self.game_budget)

    def folders(self) -> dict[str, list[str]]:
        """The folders its bots' files travel from to a cluster's node, each with the names that stay here
        (:class:`mjarena.arena.executors.Portable`; none for a game whose bots were not planned for a cluster)."""
        return {bot.folder: list(bot.leave_out) for bot in self.programs or () if bot is not None and bot.folder}

    def dealt(self) -> GameTask:
        """The task with its seats and wall dealt from its ``deal`` (itself when it has none)."""
        deal = self.deal
        if deal is None:
            return self
        game = table_game(deal.players, seed=deal.draws, round_no=self.round, table=self.table, number=self.number,
                          duplicate=deal.duplicate)
        spec = dict(zip(deal.players, deal.specs, strict=True))
        return replace(self, names=game.seats, specs=tuple(spec[name] for name in game.seats),
                       wall_seed=game.wall_seed, rotation=game.rotation, deal=None)

    def renumbered(self, number: int, game_id: str, replay_path: str | None) -> GameTask:
        """The same game task with another number, id and replay path: a copy of its fields, a fifth of the cost
        of making a task (a frozen dataclass's ``__init__`` sets each of its 19 fields through ``object``), for
        the games of a table.

        >>> task = GameTask("r001-t001-g001", 1, 1, 1, 0, None, (), (), 1.0, 256, None)
        >>> other = task.renumbered(2, "r001-t001-g002", None)
        >>> other == replace(task, number=2, game_id="r001-t001-g002"), task.number
        (True, 1)
        """
        fields = dict(self.__dict__, number=number, game_id=game_id, replay_path=replay_path)
        copy = object.__new__(GameTask)
        copy.__dict__.update(fields)
        return copy

    def relocated(self, places: Mapping[str, str]) -> GameTask:
        """The same game with its bots' folders at the places ``places`` gives them (on the node that plays it)."""
        if self.programs is None:
            return self
        return replace(self, programs=tuple(None if bot is None else bot.relocated(places) for bot in self.programs))


class Played(NamedTuple):
    """What a worker sends back of one game, small to pickle: its line of ``games.jsonl`` (JSON text, the newline
    included), what the standings and the Swiss pairing need of it (:class:`~mjarena.arena.standings.GameSummary`),
    the replay when the worker could not write it (None when it did), and the path of the replay it wrote while
    that replay is not yet on disk (None when the worker fsync'ed it: ``sync_replay``; else the judge puts it
    there, with the other replays of a group of games, before their lines: :class:`GroupCommit`), and the
    answers' waits for a CPU, summed in the worker (:meth:`~mjarena.arena.overload.Overload.figures`)."""

    line: str
    summary: GameSummary
    replay: dict[str, Any] | None
    unsynced: str | None
    load: tuple[int, float, float, int] = (0, 0.0, 0.0, 0)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a plain tuple and made again without a Python call (``tuple.__new__``): a named tuple's own
        ``__new__`` was a third of the judge's cost to take a game's result from the pool."""
        return tuple.__new__, (Played, tuple(self))


def play_game(task: GameTask) -> Played:
    """Play one game (:class:`Played`); the replay written to ``replay_path`` (fsync'ed there with
    ``sync_replay``), or sent back when that is None.  Its seats play their ``programs`` when it has them
    (:mod:`mjarena.arena.shipped_bots`), else their specs."""
    from mjarena.arena.match import run_match
    from mjarena.replay import save

    task = task.dealt()
    factory = None
    if task.programs is not None:
        from mjarena.arena.shipped_bots import seat_factory

        factory = seat_factory(task.programs)
    result = run_match(list(task.specs), rules=task.rules, seed=task.wall_seed, limits=task.limits,
                       make_agent=factory)
    names = task.names
    house = [name.startswith(HOUSE_PREFIX) for name in names]
    seats = [(names[seat.seat], house[seat.seat], seat) for seat in result.seats]
    record = {
        "game": task.game_id, "round": task.round, "table": task.table, "number": task.number,
        "wall_seed": task.wall_seed, "rotation": task.rotation, "bots": list(names),
        "results": [
            {"seat": seat.seat, "bot": name, "house": is_house, "status": seat.status, "reason": seat.reason,
             "detail": seat.detail, "rank": seat.rank, "points": seat.points}
            for name, is_house, seat in seats
        ],
    }
    summary = GameSummary(task.game_id, task.round, tuple(
        (name, is_house, seat.status, seat.reason, seat.rank, seat.points) for name, is_house, seat in seats))
    line = json.dumps(record, ensure_ascii=False) + "\n"
    load = Overload.of([result.transcripts], task.time_limit).figures()
    replay = result.to_json()
    replay["tournament"] = {key: record[key] for key in ("game", "round", "table", "number", "bots")}
    if task.replay_path is None:
        return Played(line, summary, replay, None, load)
    save(replay, task.replay_path, sync=task.sync_replay)
    return Played(line, summary, None, None if task.sync_replay else task.replay_path, load)


# -- the tournament in its folder ---------------------------------------------------------------------


class Tournament:
    """A tournament bound to its directory: opening it checks or writes ``tournament.json`` and reads the
    games already finished; :meth:`run` plays the rest."""

    def __init__(
        self, settings: Settings, out_dir: str | Path, *, seed_given: bool = True, sandbox: Sandbox = DEFAULT_SANDBOX
    ) -> None:
        """``seed_given=False``: take the seed stored in an existing ``DIR`` (a fresh ``DIR`` keeps
        ``settings.seed``).  A seed of None: the walls come from a random secret, made now in ``DIR/secret``
        for a fresh ``DIR``.  ``sandbox`` is the box of the program bots (a choice of this run, not a parameter
        of the tournament: a resumed tournament may use another)."""
        self.out_dir = Path(out_dir)
        self.sandbox = sandbox
        try:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            (self.out_dir / "replays").mkdir(exist_ok=True)
        except OSError as error:
            raise TournamentError(f"{self.out_dir}: cannot create the folder: {error.strerror or error}") from None
        meta = self.out_dir / "tournament.json"
        if meta.exists():
            stored = read_settings(self.out_dir)
            if not seed_given:
                settings = replace(settings, seed=stored.seed)
            mine, theirs = settings.to_json(), stored.to_json()
            if mine != theirs:
                changed = ", ".join(key for key in theirs if mine.get(key) != theirs[key])
                raise TournamentError(
                    f"{self.out_dir} holds a tournament with other parameters ({changed}); "
                    "use the same command to resume it, or another --out"
                )
        elif has_games(self.out_dir / "games.jsonl"):
            raise TournamentError(
                f"{self.out_dir}: this folder holds games of another tournament (games.jsonl without "
                "tournament.json); use another --out"
            )
        else:
            if settings.seed is None:  # a fresh secret, kept before any game can be dealt from it
                from mjarena.arena.draws import new_secret

                (self.out_dir / SECRET_FILE).unlink(missing_ok=True)  # left by a run that dealt no game
                write_secret(self.out_dir, new_secret())
            write_atomically(meta, json.dumps({"format": "mjarena-tournament", "version": 1,
                                                "parameters": settings.to_json()}, indent=2) + "\n")
        if settings.seed is None:
            settings = replace(settings, secret=read_secret(self.out_dir))
        self.settings = settings
        self._round_robin: list[list[tuple[str, ...]]] | None = None
        self._tally: Tally | None = None  # the games finished in game-id order, up to some game (None: none yet)
        self._shipped: dict[str, ShippedBot | None] | None = None  # each entrant's plan for a cluster (ship_bots)
        self._replays = str(self.out_dir / "replays")
        numbered = read_records(self.out_dir / "games.jsonl")
        if numbered and settings.format == "round-robin":
            self._round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
        records = check_records(settings, numbered, self.out_dir / "games.jsonl", self._round_robin)
        self.games: dict[str, GameSummary] = {gid: summarize(record) for gid, record in records.items()}
        """The finished games by id, as the standings see them (the lines of ``games.jsonl`` stay on disk)."""
        self._finished_in: dict[int, int] = {}  # round -> games of it finished
        self.loads: list[tuple[int, float, float, int]] = []
        """Each game played by this run: its answers' waits for a CPU (:attr:`Played.load`; :meth:`overload`)."""
        for game in self.games.values():
            self._finished_in[game.round] = self._finished_in.get(game.round, 0) + 1

    def tables(self, round_no: int) -> list[tuple[str, ...]]:
        """The tables of round ``round_no`` (from 1); a Swiss round needs every game of the rounds before."""
        settings = self.settings
        if settings.format == "round-robin":
            if self._round_robin is None:
                self._round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
            return self._round_robin[round_no - 1]
        expected = (round_no - 1) * settings.tables * settings.games_at_table
        finished = sum(count for number, count in self._finished_in.items() if number < round_no)
        if finished != expected:
            raise RuntimeError(f"round {round_no} needs the {expected} games before it, {finished} finished")
        return swiss_round(settings, round_no, self._tally_through(round_no - 1).points())

    def _tally_through(self, round_no: int | None) -> Tally:
        """A tally of exactly the finished games of rounds up to ``round_no`` (None: all): the one carried from
        game to game when it holds those, else a fresh one (a folder whose games were not finished in order)."""
        tally, games = self._tally, self.games
        wanted = len(games) if round_no is None else sum(
            count for number, count in self._finished_in.items() if number <= round_no)
        if tally is not None and len(tally.counted) == wanted and (
                round_no is None or not tally.counted or games[tally.counted[-1]].round <= round_no):
            return tally
        tally = self._tally = Tally(self.settings)
        tally.extend(games if round_no is None else {gid: game for gid, game in games.items()
                                                      if game.round <= round_no})
        return tally

    def _count(self, game: GameSummary) -> None:
        """Keep one finished game; the tally carried on counts it when it comes after the tally's last game."""
        self.games[game.game] = game
        self._finished_in[game.round] = self._finished_in.get(game.round, 0) + 1
        tally = self._tally
        if tally is not None and (not tally.counted or game.game > tally.counted[-1]):
            tally.add(game)
        else:
            self._tally = None  # rebuilt when next asked for

    def overload(self) -> Overload:
        """The run-queue delay of the answers of the games this run played (not those of a run resumed from)."""
        return Overload.summed(self.loads, self.settings.time_limit)

    def ship_bots(self) -> None:
        """Plan every entrant for a cluster whose nodes see no file of this machine (built here, their folders
        checked; :mod:`mjarena.arena.shipped_bots`): the games' tasks then carry their seats' plans, and their
        folders travel.  :class:`TournamentError` naming the bot whose files cannot travel."""
        from mjarena.arena.shipped_bots import CannotShip, plan_bot
        from mjarena.limits import Limits

        settings = self.settings
        limits = Limits(time=settings.time_limit, memory_mib=settings.memory_limit, sandbox=self.sandbox,
                        toolchains=settings.toolchains, language_limits=settings.language_limits,
                        game_budget=settings.game_budget)
        shipped = {}
        for bot in settings.bots:
            try:
                shipped[bot.name] = plan_bot(bot.spec, limits, private=self.out_dir)
            except CannotShip as error:
                raise TournamentError(f"--bot {bot.name}: cannot send its files to the cluster's nodes: {error}"
                                      ) from None
        self._shipped = shipped

    def tasks(self, round_no: int, *, replays_here: bool = True, sync_replays: bool = True, dealt: bool = True
              ) -> list[GameTask]:
        """Every game of round ``round_no``, finished or not, in game-id order (``sync_replays=False``: the worker
        does not fsync the replay it writes; the caller does); after :meth:`ship_bots`, with each seat's plan.
        ``dealt=False``: each game's seats and wall left for the worker to deal from its table
        (:meth:`GameTask.dealt`: the draws, a secret's key included, go with the task; not with bots planned for a
        cluster, whose tasks are always dealt here)."""
        settings = self.settings
        specs = {bot.name: bot.spec for bot in settings.bots}
        shipped = self._shipped
        replays = f"{self._replays}{os.sep}" if replays_here else None
        draws, duplicate = settings.draws, settings.duplicate
        tasks: list[GameTask] = []

        def task(table_no: int, number: int, wall_seed: int, rotation: int | None, names: tuple[str, ...],
                 deal: TableDeal | None) -> GameTask:
            gid = game_id(round_no, table_no, number)
            return GameTask(gid, round_no, table_no, number, wall_seed, rotation, names,
                            tuple(specs.get(name, HOUSE_SPEC) for name in names), settings.time_limit,
                            settings.memory_limit, None if replays is None else f"{replays}{gid}.json", settings.rules,
                            self.sandbox, settings.toolchains, settings.language_limits, sync_replays,
                            settings.game_budget,
                            None if shipped is None else tuple(shipped.get(name) for name in names), deal)

        for table_no, players in enumerate(self.tables(round_no), 1):
            if not dealt and shipped is None:  # the seats and walls are the workers' to deal
                deal = TableDeal(players, tuple(specs.get(name, HOUSE_SPEC) for name in players), draws, duplicate)
                first = task(table_no, 1, 0, None, (), deal)
                tasks.append(first)
                for number in range(2, settings.games_at_table + 1):  # the table's first with its number changed
                    gid = game_id(round_no, table_no, number)
                    tasks.append(first.renumbered(number, gid, None if replays is None else f"{replays}{gid}.json"))
                continue
            tasks.extend(task(table_no, game.number, game.wall_seed, game.rotation, game.seats, None)
                         for game in table_games(players, seed=draws, round_no=round_no, table=table_no,
                                                 games_per_table=settings.games_per_table, duplicate=duplicate))
        return tasks

    def replay_path(self, gid: str) -> Path:
        """Where the replay of game ``gid`` goes."""
        return self.out_dir / "replays" / f"{gid}.json"

    def standings(self) -> list[dict[str, Any]]:
        """The table from every finished game."""
        return self._tally_through(None).rows()

    def write_standings(self, through_round: int | None = None) -> list[dict[str, Any]]:
        """Write ``standings.json`` and ``standings.csv``; return the rows.  ``through_round``: only the games of
        rounds up to that one (the next round's games may be finishing already); those of a round are replaced
        atomically but not fsync'ed (about 1 ms of the judge's CPU a file under load: a tenth of its work per game;
        they are figures of ``games.jsonl``, written again from it by the next round or a resumed run), the
        final ones (all the games) are fsync'ed too."""
        rows = self._tally_through(through_round).rows()
        sync = through_round is None
        write_atomically(self.out_dir / "standings.json", standings_json(rows), sync=sync)
        write_atomically(self.out_dir / "standings.csv", standings_csv(rows), sync=sync)
        return rows

    def run(self, executor: Executor, *, progress: bool | None = None, log: IO[str] | None = None
            ) -> list[dict[str, Any]]:
        """Play every game not yet in ``games.jsonl``, round by round; print the standings to ``log`` (stderr)
        after each round played.  ``progress``: on stderr, a live bar on a terminal and a line every few percent
        on a pipe or file (:func:`mjarena.progress.progress_bar`; False: none).  At the end, one line to ``log``
        when the judge's machine was overloaded while this run's games were played (:meth:`overload`).

        Every game of a batch goes to the executor at once: a round-robin tournament's whole schedule, a Swiss
        tournament's round (the next one needs its points), the next round sent off before a round's standings
        are written.  Results are kept in game-id order, whatever order they come in: ``games.jsonl`` is the
        same bytes on any executor and any number of workers."""
        from mjarena.progress import progress_bar

        log = sys.stderr if log is None else log
        settings = self.settings
        if executor.remote and self._shipped is None:  # another machine plays: the bots' files go to it
            self.ship_bots()
        shown = progress_bar(settings.total_games, desc="games", initial=len(self.games),
                             enabled=progress is not False)
        # A round-robin schedule is known in advance: every round is queued at once, so the workers go on with
        # the next round while a round's standings are written (no barrier between rounds); a Swiss round
        # needs the points of the rounds before it.
        batches = [range(1, settings.rounds + 1)] if settings.format == "round-robin" else [
            range(round_no, round_no + 1) for round_no in range(1, settings.rounds + 1)]
        with open(self.out_dir / "games.jsonl", "a", encoding="utf-8") as out, GroupCommit(out) as commits, \
                shown as bar:
            def report(round_no: int) -> None:
                commits.wait()
                rows = self.write_standings(through_round=round_no)
                bar.clear()
                print(f"standings after round {round_no}/{settings.rounds}:\n{format_standings(rows)}\n", file=log,
                      flush=True)
                bar.refresh()

            try:
                _Batches(self, executor, batches, commits, bar, report).play()
            except JudgeError as error:  # no bot's fault: no game of it recorded, none charged to a bot
                raise JudgeError(f"{error}; the {len(self.games)} games finished are kept: run the same "
                                 "command again to play the rest") from None
        overloaded = self.overload().line()
        if overloaded is not None:  # the verdicts stand on the bots' own time; the figures are slower than they are
            print(overloaded, file=log, flush=True)
        return self.write_standings()


class _Batches:
    """:meth:`Tournament.run`'s loop: each batch of rounds sent to the executor in one go (the next one as soon as
    its tables are known, before the standings are written), the results kept in game-id order."""

    def __init__(self, tournament: Tournament, executor: Executor, batches: list[range], commits: GroupCommit,
                 bar: Any, report: Any) -> None:
        self.tournament, self.executor, self.commits, self.bar, self.report = (tournament, executor, commits, bar,
                                                                               report)
        self.batches = iter(batches)

    def start(self) -> tuple[list[GameTask], Any] | None:
        """The next batch's games not finished, already sent to the executor, and their results (None: done)."""
        tournament = self.tournament
        for rounds in self.batches:
            pending = [task for round_no in rounds
                       for task in tournament.tasks(round_no, replays_here=not self.executor.remote,
                                                    sync_replays=False, dealt=self.executor.remote)
                       if task.game_id not in tournament.games]
            if not pending:
                continue
            return pending, self.executor.run(play_game, pending)
        return None

    def play(self) -> None:
        upcoming = self.start()
        while upcoming is not None:
            pending, results = upcoming
            upcoming = self._keep(pending, results)

    def _keep(self, pending: list[GameTask], results: Any) -> tuple[list[GameTask], Any] | None:
        """Take one batch's results, keeping them in game-id order; the next batch, once started."""
        tournament, commits = self.tournament, self.commits
        left: dict[int, int] = {}
        for task in pending:
            left[task.round] = left.get(task.round, 0) + 1
        index = {task.game_id: number for number, task in enumerate(pending)}
        arrived: dict[int, Played] = {}
        position = 0
        upcoming = None
        for task, played in results:
            arrived[index[task.game_id]] = played
            lines: list[tuple[str, str | None]] = []
            while position in arrived:
                played = arrived.pop(position)
                round_no = pending[position].round
                position += 1
                lines.append((played.line, self._replay(played)))
                tournament._count(played.summary)
                tournament.loads.append(played.load)
                left[round_no] -= 1
                if not left[round_no]:  # the round is whole: the next batch goes before its standings are written
                    commits.put(lines)
                    self.bar.update(len(lines))
                    lines = []
                    if position == len(pending):
                        upcoming = self.start()
                    self.report(round_no)
            if lines:
                commits.put(lines)
                self.bar.update(len(lines))
        return upcoming

    def _replay(self, played: Played) -> str | None:
        """The path of the game's replay to put on disk before its line (None: it is there already); a replay
        sent back is written here first."""
        if played.replay is None:
            return played.unsynced
        from mjarena.replay import save

        path = self.tournament.replay_path(played.summary.game)
        save(played.replay, path, sync=False)
        return str(path)


def run_tournament(
    settings: Settings,
    out_dir: str | Path,
    *,
    executor: str = "local",
    workers: int | None = None,
    progress: bool | None = None,
    seed_given: bool = True,
    log: IO[str] | None = None,
    sandbox: Sandbox = DEFAULT_SANDBOX,
) -> list[dict[str, Any]]:
    """Open (or resume) the tournament in ``out_dir`` and play it to the end on ``executor`` (``local`` or
    ``ray``); returns the final standings.  Stopped (Ctrl-C, SIGTERM, SIGHUP: :mod:`mjarena.lifetime`), the
    finished games are kept, the running ones are dropped at once (their workers and bots killed); running again
    resumes."""
    from mjarena.arena.executors import make_executor
    from mjarena.arena.node_check import NodeCheck

    tournament = Tournament(settings, out_dir, seed_given=seed_given, sandbox=sandbox)
    check = None
    if executor == "ray":  # before Ray starts: a bot whose files cannot travel is refused at once
        tournament.ship_bots()
        check = NodeCheck.for_games(sandbox.kind)  # a node plays only with the bots' box and runtimes
    # on an exception: the workers killed, nothing waited for
    with make_executor(executor, workers, check=check) as pool:
        return tournament.run(pool, progress=progress, log=log)

