"""The judge behind the server: builds submissions, pairs Swiss rounds and plays their games, in threads of
its own (the web server never waits for it) and games in worker processes.

Rounds, while the window is open, back to back:

1. the teams with a bot that builds are sorted by points (ties by a draw from the contest's secret and the
   round number, :meth:`~mjarena.contest.model.Contest.draws`; during the freeze by the points the public
   sees, those from before it, so that a pairing never shows the hidden results) and seated 1–4, 5–8, …
   (:func:`mjarena.arena.schedules.swiss_tables`); house bots (``builtin:greedy``) pad the last table and are
   not scored.  Each table plays ``games_per_table`` walls (:func:`~mjarena.arena.schedules.table_games`), the
   seats drawn from the secret too.  The round and its games are one transaction: game ids are
   fixed from then on.
2. each game starts when a worker is free; its seats' submissions are pinned then (the team's newest build
   that passed), so a new version plays from the team's next game and a running game keeps its versions.
   A worker on this machine writes each turn to the game's live file as it plays (the pages' live view:
   :mod:`mjarena.contest.live_file`), one on a cluster's node hands them to a relay on this machine that writes
   the same file (:mod:`mjarena.contest.live_relay`); removed once the game is committed or failed.
3. a finished game is committed once, in one transaction (results and replay); a game that was running when
   the server stopped is played again from its start, with the versions it had pinned.

A game that fails for anything but its bots (a bot's failure is a seat's result, recorded by the match) is a
**judge error**: a bot's build missing or replaced, its box that cannot start
(:class:`~mjarena.agents.errors.JudgeError`), the disk full, the worker process dying, a build that no longer
builds.  It is noted in the ``judge_errors`` table (the console lists them), nothing is recorded against a team,
and the game stays ``running`` with its pinned versions, to be played again from its start with the same wall
at the round's next pass.  After :data:`~mjarena.contest.db.MAX_JUDGE_ERRORS` of them it is ``held`` for the
organiser (the round goes on without it; the console's *Play it now* releases it).  A finished game played again
(:meth:`Scheduler.replay`) keeps its result when the judge fails it, and is tried again up to the same bound.

When the window closes the round in progress is finished and no new one starts.
"""

from __future__ import annotations

import itertools
import logging
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import replace
from pathlib import Path
from typing import Any

from mjarena.agents.errors import JudgeError
from mjarena.arena.overload import Overload
from mjarena.arena.schedules import house_names, swiss_tables, table_games
from mjarena.contest.db import MAX_JUDGE_ERRORS
from mjarena.contest.games import GameTask, SeatPlan, play_game
from mjarena.contest.live_file import clear_live, live_path, remove_live
from mjarena.contest.live_relay import LiveRelay, RelaySink
from mjarena.contest.model import Contest
from mjarena.contest.opening import house_games_count, playing_teams, waiting_for
from mjarena.contest.public import frozen_since
from mjarena.contest.sources import contest_sandbox, program_of

__all__ = ["Scheduler", "judge_error_text", "warm_up"]

log = logging.getLogger("mjarena.contest")
_RETRY_SECONDS = 2.0


def _pid(_: int) -> int:
    import os

    return os.getpid()


def judge_error_text(error: BaseException) -> str:
    """What the console says of a judge error.

    >>> judge_error_text(JudgeError("cannot start 'x': the bot's file /b is gone"))
    "cannot start 'x': the bot's file /b is gone"
    >>> judge_error_text(OSError(28, "No space left on device"))
    'OSError: [Errno 28] No space left on device'
    """
    from concurrent.futures.process import BrokenProcessPool

    if isinstance(error, JudgeError):
        return str(error)
    if isinstance(error, BrokenProcessPool):
        return f"the worker process playing it died ({error})"
    return f"{type(error).__name__}: {error}"


def warm_up(executor: Any, workers: int) -> None:
    """Start the pool's workers now (call it before any thread starts: a forked worker copies no lock)."""
    list(executor.run(_pid, list(range(workers))))


class Scheduler:
    """Plays the contest's rounds on ``executor`` (:mod:`mjarena.arena.executors`), ``slots`` games at once."""

    def __init__(self, contest: Contest, executor: Any, slots: int, *, poll: float = 0.5,
                 clock: Callable[[], float] = time.time, retry: float = _RETRY_SECONDS) -> None:
        self.contest = contest
        self.executor = executor
        self.slots = slots
        self.poll = poll
        self.clock = clock
        self.retry = retry
        """Seconds before a game that failed is played again."""
        self._playing: set[int] = set()  # the games being played now (each by one thread at a time)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="contest-scheduler", daemon=True)
        self._games = ThreadPoolExecutor(max_workers=slots, thread_name_prefix="contest-game")
        self._lock = threading.Lock()
        self.replaying: set[int] = set()
        """Finished games being played again (:meth:`replay`)."""
        self.timing = {"games": 0, "own": 0.0, "played": 0.0}
        """The games committed in the round now being played, the scheduler's own CPU seconds on them (its
        thread's: the database, the task, the pool's hand-over; :func:`time.thread_time`) and the seconds they
        took to play (waited for, in the workers); logged and started again as each round ends."""
        self.loads: list[Any] = []
        """The same games' answers' waits for a CPU (each game's ``load``, summed in its worker): one line in the
        round's log when the machine was overloaded (:mod:`mjarena.arena.overload`)."""
        self._relay: Any = None  # the live relay of the games on a cluster's nodes (made at their first)
        self._relay_made = False
        self._plays = itertools.count(1)  # each play of a game on a node: its number at the relay
        self._relayed: dict[int, int] = {}  # a game played on a node now -> its play's number
        self.overloaded: dict[int, Overload] = {}
        """Each round played under overload since the server started, and its figures (the console shows them;
        the round's log said their line)."""

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def start(self) -> None:
        self.contest.open_window(self.clock())
        with self.contest.db.transaction() as tx:
            tx.clear_replaying()  # the replays of the last judge were dropped with it
        clear_live(self.contest.root)  # the games left running are played again from their start
        self._thread.start()

    def stop(self) -> None:
        """Stop at once: no new game starts; running games are dropped (played again at the next start)."""
        self._stop.set()
        self._games.shutdown(wait=False, cancel_futures=True)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    @property
    def live_here(self) -> bool:
        """Whether the games are played on this machine, writing their live files (:mod:`mjarena.contest.live_file`):
        a Ray cluster's nodes share no file system with the server, and hand their lines to a relay on this
        machine (:mod:`mjarena.contest.live_relay`)."""
        return not getattr(self.executor, "remote", False)

    def _live(self, game_id: int) -> str | RelaySink | None:
        """Where the worker playing game ``game_id`` writes its live lines: the file's path on this machine, or
        a relay to it from a cluster's node (made at the first game there; None, with a warning, if the
        executor cannot make one: the game is played without its live view)."""
        if self.live_here:
            return str(live_path(self.contest.root, game_id))
        with self._lock:
            if not self._relay_made:
                self._relay_made = True
                make = getattr(self.executor, "actor_here", None)
                try:
                    self._relay = make(LiveRelay, str(self.contest.root)) if callable(make) else None
                except Exception as error:
                    log.warning("no live view of the games on the cluster: the relay cannot be made (%s)", error)
            if self._relay is None:
                return None
            play = self._relayed[game_id] = next(self._plays)
        return RelaySink(self._relay, game_id, play)

    def _live_over(self, game_id: int) -> None:
        """Game ``game_id``'s live file goes (its result is committed, or the judge failed it); the relay drops
        what comes later of its play."""
        remove_live(self.contest.root, game_id)
        with self._lock:
            play = self._relayed.pop(game_id, None)
        if play is not None:
            try:
                self._relay.done.remote(game_id, play)
            except Exception as error:  # (Ray gone: the server is stopping)
                log.warning("game %d: the live relay cannot be told it is over (%s)", game_id, error)

    def nodes(self) -> list[dict[str, Any]] | None:
        """The cluster's nodes as the executor checked them (:meth:`mjarena.arena.executors.RayExecutor.nodes`),
        or None when games are played on this machine alone."""
        nodes = getattr(self.executor, "nodes", None)
        return nodes() if callable(nodes) else None

    def running_on(self) -> dict[int, str]:
        """The node each game running now plays on (empty when games are played on this machine alone)."""
        running = getattr(self.executor, "running", None)
        if not callable(running):
            return {}
        return {task.game_id: node for task, node in running() if isinstance(getattr(task, "game_id", None), int)}

    # -- the loop ----------------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                busy = self.step()
            except Exception:
                if self._stop.is_set():
                    return
                log.exception("the scheduler failed; trying again")
                busy = False
            if not busy:
                self._stop.wait(self.poll)

    def step(self) -> bool:
        """One round's worth of work: finish the round in progress, or start the next one if the window is
        open and a team has a bot.  False when there was nothing to do."""
        rounds = self.contest.db.rounds()
        if rounds and rounds[-1][2] is None:
            self.play_round(rounds[-1][0])
            return True
        if not self.contest.window_open(self.clock()):
            return False
        number = self.new_round()
        return number is not None

    def new_round(self) -> int | None:
        """Pair and plan the next round; its number (None when no team that may play has a bot that builds, or
        while the first round waits for teams: :mod:`mjarena.contest.opening`)."""
        contest = self.contest
        current = playing_teams(contest)  # disabled teams play no more
        if not current or waiting_for(contest, self.clock()) is not None:
            return None
        teams = {team.id: team.name for team in contest.db.teams() if team.id in current}
        # during the freeze, paired on the results the public sees: a pairing on the hidden ones would show them
        as_of = frozen_since(contest, self.clock())
        totals = contest.db.totals(finished_before=as_of, house_games=house_games_count(contest.settings))
        points = {teams[team_id]: totals.get(team_id, (0, 0.0))[1] for team_id in teams}
        if contest.settings.rank_by == "points_per_game":  # pair as the standings rank (no game yet: 0)
            points = {teams[team_id]: _per_game(*totals.get(team_id, (0, 0.0))) for team_id in teams}
        number = (contest.db.rounds()[-1][0] if contest.db.rounds() else 0) + 1
        draws = contest.draws()
        names = sorted(teams.values())
        ids = {name: team_id for team_id, name in teams.items()}
        house = set(house_names(len(names)))
        meetings = {teams[team_id]: count for team_id, count in contest.db.house_meetings().items() if team_id in teams}
        plan = []
        draw = random.Random(draws("swiss", number))
        for table_no, players in enumerate(swiss_tables(names, points, draw, meetings), 1):
            # seats drawn from the players in name order: mjarena contest verify needs only who sat at the table
            games = table_games(sorted(players), seed=draws, round_no=number, table=table_no,
                                games_per_table=contest.settings.games_per_table, duplicate=False)
            plan.append([(game.number, game.wall_seed, [None if name in house else ids[name] for name in game.seats])
                         for game in games])
        # what the pairing was drawn from, for mjarena contest verify to draw it again from the revealed secret
        pairing = {"teams": names, "points": points, "house_meetings": meetings, "as_of": as_of,
                   "ranked_by": contest.settings.rank_by}
        with contest.db.transaction() as tx:
            tx.add_round(number, self.clock(), plan, pairing)
        log.info("round %d: %d table(s), %d team(s)", number, len(plan), len(names))
        return number

    def play_round(self, number: int) -> None:
        """Play every game of round ``number`` not finished yet; close the round when all are."""
        db = self.contest.db
        pending = db.games(round_no=number, states=("planned", "running"))
        futures = [self._games.submit(self.play, game.id) for game in pending]
        waiting = set(futures)
        while waiting and not self._stop.is_set():  # (a game cancelled by stop() never tells a waiter it is done)
            waiting = wait(waiting, timeout=self.poll).not_done
        if self._stop.is_set():
            return
        failed = [future.exception() for future in futures if future.exception() is not None]
        if db.games(round_no=number, states=("planned", "running")):
            for error in failed:
                log.error("a game of round %d failed: %s", number, error)
            self._stop.wait(self.retry)  # the judge errors' games are played again at the next pass
            return
        with db.transaction() as tx:
            tx.finish_round(number, self.clock())
        with self._lock:
            games, own, played = self.timing["games"], self.timing["own"], self.timing["played"]
            self.timing = {"games": 0, "own": 0.0, "played": 0.0}
            loads, self.loads = self.loads, []
        if games:
            log.info("round %d finished: %d games, the scheduler's own CPU %.2f ms a game beside %.1f ms a game "
                     "played in the workers", number, games, own * 1000 / games, played * 1000 / games)
        load = Overload.summed(loads, self.contest.settings.time_limit)
        said = load.line()
        if said is not None:  # the verdicts stand (the bots' deadlines moved); the figures are slower
            self.overloaded[number] = load
            log.warning("round %d: %s", number, said)

    def play(self, game_id: int) -> None:
        """Play one game and commit its result (nothing when stopping, or when another thread plays it); a
        failure of the judge's is noted as a judge error (:meth:`judge_failed`), and the game played again later."""
        if self._stop.is_set():
            return
        with self._lock:
            if game_id in self._playing:
                return
            self._playing.add(game_id)
        try:
            self._play(game_id)
        finally:
            with self._lock:
                self._playing.discard(game_id)

    def _play(self, game_id: int) -> None:
        own = time.thread_time()
        contest = self.contest
        db = contest.db
        game = db.game(game_id)
        if game is None or game.state in ("finished", "held"):
            return
        if game.state == "planned":
            if contest.paused_since() is not None:  # the organiser paused: no game starts until resumed
                return
            current = db.current_submissions()
            disabled = db.flagged("disabled")
            without = [seat for seat in game.seats
                       if seat.team is not None and _team_id(contest, seat.team) in disabled]
            pinned = {seat.seat: current[_team_id(contest, seat.team)].id for seat in game.seats
                      if seat.team is not None and seat not in without}
            with db.transaction() as tx:
                for seat in without:  # disabled since the round was planned: a house bot plays its seat, and says so
                    tx.play_without(game_id, seat.seat)
                    tx.log_admin(self.clock(), "played without",
                                 f"game {game_id}: {seat.team} (disabled), a house bot in its seat")
                tx.start_game(game_id, self.clock(), pinned)
            game = db.game(game_id)
            assert game is not None
        try:
            started = time.perf_counter()
            outcome = self._outcome(game, live=True)
            played = time.perf_counter() - started
        except Exception as error:  # the bots' failures are results: whatever is raised is the judge's
            if not self._stop.is_set():  # (stopping kills the workers: those games are dropped, not failed)
                self.judge_failed(game_id, error)
            return
        if self._stop.is_set():
            return
        try:
            with db.transaction() as tx:
                tx.finish_game(game_id, self.clock(), outcome["results"], outcome["replay"], outcome.get("node"))
        except Exception as error:  # the disk full, say: nothing written, the game played again
            self.judge_failed(game_id, error)  # (if even this cannot be written, the round's pass logs it)
            return
        self._live_over(game_id)  # the pages show its replay now
        with self._lock:
            self.timing["games"] += 1
            self.timing["own"] += time.thread_time() - own
            self.timing["played"] += played
            self.loads.append(outcome.get("load"))

    def _outcome(self, game: Any, live: bool = False) -> dict[str, Any]:
        """Play a started game in a worker: what :func:`~mjarena.contest.games.play_game` gives back (``live``: with
        its live file, :mod:`mjarena.contest.live`)."""
        task = self.task(game)
        if live:
            task = replace(task, live=self._live(game.id))
        _, outcome = next(iter(self.executor.run(play_game, [task])))
        return outcome

    def judge_failed(self, game_id: int, error: BaseException) -> bool:
        """Note a judge error of game ``game_id`` (see the module docstring); whether the game is now held."""
        what = judge_error_text(error)
        self._live_over(game_id)  # the game is played again from its start, with a new one
        seat, after = getattr(error, "seat", None), getattr(error, "after_seat", None)  # (games.play_game's)
        with self.contest.db.transaction() as tx:
            held = tx.judge_error(game_id, self.clock(), what, seat=seat if isinstance(seat, int) else None,
                                  after_seat=after if isinstance(after, int) else None)
        if held:
            log.error("game %d: judge error, held for the organiser after %d: %s", game_id, MAX_JUDGE_ERRORS, what)
        else:
            log.warning("game %d: judge error, to be played again: %s", game_id, what)
        return held

    def release(self, game_id: int) -> Future[None]:
        """Play a game held after judge errors now (its judge errors no longer counted); :class:`ValueError`
        unless it is held."""
        with self.contest.db.transaction() as tx:
            if not tx.release_game(game_id):
                raise ValueError(f"game {game_id} is not held after judge errors")
        return self._games.submit(self.play, game_id)

    def replay(self, game_id: int) -> Future[bool]:
        """Play finished game ``game_id`` again, from its record (its walls, its pinned versions), and replace its
        result in one transaction; the future's value says whether it was replaced."""
        with self._lock:
            if game_id in self.replaying:
                raise ValueError(f"game {game_id} is being played again already")
            self.replaying.add(game_id)
        try:
            with self.contest.db.transaction() as tx:  # its builds are kept while it plays (building.evict)
                tx.set_replaying(game_id, self.clock())
            return self._games.submit(self._replay, game_id)
        except BaseException:
            self._replayed(game_id)
            raise

    def _replayed(self, game_id: int) -> None:
        with self.contest.db.transaction() as tx:
            tx.set_replaying(game_id, None)
        with self._lock:
            self.replaying.discard(game_id)

    def _replay(self, game_id: int) -> bool:
        """Play a finished game again; its result is replaced only by a whole game: after a judge error it stands,
        and the game is tried again, at most :data:`~mjarena.contest.db.MAX_JUDGE_ERRORS` times."""
        try:
            for attempt in range(MAX_JUDGE_ERRORS):
                game = self.contest.db.game(game_id)
                if game is None or game.state != "finished" or self._stop.is_set():
                    return False
                if attempt:
                    log.info("game %d: played again after a judge error", game_id)
                try:
                    outcome = self._outcome(game)
                except Exception as error:  # as in play: the judge's failure, the result stands
                    if self._stop.is_set():
                        return False
                    self.judge_failed(game_id, error)
                    self._stop.wait(self.retry)
                    continue
                if self._stop.is_set():
                    return False
                with self.contest.db.transaction() as tx:
                    replaced = tx.replace_result(game_id, self.clock(), outcome["results"], outcome["replay"],
                                                 outcome.get("node"))
                    if replaced:
                        tx.log_admin(self.clock(), "replayed", f"game {game_id}")
                log.info("game %d played again from its record", game_id)
                return replaced
            return False
        finally:
            self._replayed(game_id)

    def task(self, game: Any) -> GameTask:
        """The worker's task for a started game (its pinned submissions, built)."""
        contest = self.contest
        plans = []
        for seat in game.seats:
            if seat.team is None:
                plans.append(SeatPlan(None, None, None))
                continue
            submission = contest.db.submission(seat.submission_id)
            assert submission is not None
            settings = contest.settings
            program = program_of(Path(submission.path), sandbox=contest_sandbox(settings),
                                 cache_dir=contest.root / "builds", limits=settings.bot_limits(),
                                 wall_limit=settings.compile_wall, max_output_bytes=settings.build_output_mib << 20)
            plans.append(SeatPlan(seat.team, seat.version, program))
        settings = contest.settings
        return GameTask(game.id, settings.rules, game.wall_seed, tuple(plans), settings.time_limit,
                        settings.memory_limit, settings.sandbox)


def _per_game(games: int, points: float) -> float:
    """Points per game (0 before the first game).

    >>> _per_game(4, 10.0), _per_game(0, 0.0)
    (2.5, 0.0)
    """
    return points / games if games else 0.0


def _team_id(contest: Contest, name: str) -> int:
    team = contest.db.team(name)
    assert team is not None
    return team.id
