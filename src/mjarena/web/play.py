"""Play sessions: a person takes one seat against three bots; each session is its own game.

The game is an ordinary :func:`mjarena.arena.match.run_match` running in a thread of its own, so a finished
game is recorded, ranked and saved exactly like any match, and its replay plays again with
``mjarena replay --check``.  A game closed (evicted, left, or waiting longer than :data:`MOVE_SECONDS` for its
person) is cancelled at once: its thread stops at the next decision and its bots' processes are killed.  The
person's seat is a :class:`HumanAgent`: when the rules ask it, it publishes a view of the table and the legal
choices, and waits for :meth:`PlaySession.submit`.  The view is built in the game thread while it waits, so a
request never reads a game that is moving.

How each legal choice shows on the page is :mod:`mjarena.web.play_choices`'; the server's sessions, bounded
per client and in all, are :mod:`mjarena.web.play_room`'s.

>>> session = PlaySession("noi2014", 0, ["builtin:greedy"] * 3, seed=7)
>>> view = session.wait()
>>> view["state"], view["table"]["seats"][1]["hand"] is None   # the others' hands are hidden
('waiting', True)
>>> view = session.submit(view["version"], choice=len(view["choices"]) - 1)
>>> view["version"] > 1
True
>>> session.close(); session.join(5.0)
True
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mjarena.i18n import N_, worded
from mjarena.variants.base import Action
from mjarena.web.play_choices import AUTO_TARGET, NO_TARGET, choice_views, discard_distances

__all__ = ["MOVE_SECONDS", "WAIT_SECONDS", "HumanAgent", "PlayError", "PlaySession"]

MOVE_SECONDS = 1800.0
"""A game that waits this long for its person's move ends (its thread and bots with it)."""
WAIT_SECONDS = 10.0
"""How long a request waits for the bots to reach the person's next decision before answering anyway."""


Keeper = Callable[[dict[str, Any], str, str], str]
"""Saves a finished game: (its replay, its file's name, the client) -> its name under the server's folder
(:meth:`mjarena.web.library.Library.save_played`)."""


class PlayError(Exception):
    """A request the session cannot take: ``status`` is the HTTP status to answer with (404, 409, 422)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Cancelled(BaseException):
    """The session was closed: raised at the game's next decision, it ends :func:`run_match` (not an agent's
    error, which the judge would play on after), whose ``finally`` closes every agent."""


class _Cancellable:
    """A bot of a session: refuses to answer once the session is closed (see :class:`_Cancelled`)."""

    def __init__(self, agent: Any, session: PlaySession) -> None:
        self.agent = agent
        self.session = session

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if self.session.closed:
            raise _Cancelled
        return self.agent.act(game, seat, legal)

    @property
    def transcript(self) -> Any:
        return getattr(self.agent, "transcript", None)

    def close(self) -> None:
        close = getattr(self.agent, "close", None)
        if close is not None:
            close()


def _action_of(data: dict[str, Any]) -> Action:
    """An :class:`Action` from its JSON form; :class:`PlayError` 400 naming the field of a wrong type."""
    verb, tile, target, tiles = (data.get(key) for key in ("type", "tile", "target", "tiles"))
    if not isinstance(verb, str):
        raise PlayError(400, 'an action needs "type", a string such as "play" or "pass"')
    for key, value in (("tile", tile), ("target", target)):
        if value is not None and (type(value) is not int):
            raise PlayError(400, f'"{key}" must be a whole number or null, not {value!r}')
    if tiles is not None and not (isinstance(tiles, list) and all(type(t) is int for t in tiles)):
        raise PlayError(400, '"tiles" must be a list of whole numbers')
    return Action(verb, tile, target, tuple(tiles or ()))


class HumanAgent:
    """The person's seat: :meth:`act` hands the decision to its session and waits for the answer."""

    name = "human"

    def __init__(self, session: PlaySession) -> None:
        self.session = session

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        return self.session._decide(game, seat, legal)


class PlaySession:
    """One game of a person (seat ``seat``) against ``opponents`` (three bot specs, in seat order)."""

    def __init__(self, rules: str, seat: int, opponents: Sequence[str], *, seed: int | None = None,
                 root: Path | None = None, client: str = "", commands: dict[str, str] | None = None,
                 move_seconds: float = MOVE_SECONDS, keep: Keeper | None = None) -> None:
        import random

        from mjarena.rulesets import judge_rules
        from mjarena.web.timeline import seat_names, tile_names

        self.id = secrets.token_urlsafe(16)
        self.judge = judge_rules(rules)
        self.seat = seat
        self.specs = list(opponents)
        self.specs.insert(seat, "human")
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        self.root = root
        self.keep = keep  # saves a finished game (a library's quota): else written under root as it is
        self.names = tile_names(self.judge.name)
        self.seat_names = list(seat_names(self.judge.name))
        self.client = client
        self.commands = dict(commands or {})  # an opponent's label -> the server's command line for it
        self.move_seconds = move_seconds
        self.touched = time.monotonic()
        """When the person last moved (or the game started): looking at the game does not count."""
        self._agents: list[_Cancellable] = []
        self._changed = threading.Condition()
        self._wakers: set[Any] = set()
        self._distances: dict[int, int] = {}
        self._state = "running"
        self._version = 0
        self._choices: list[Action | str] = []
        self._answer: Action | str | None = None
        self._closed = False
        self._view: dict[str, Any] = self._make_view(None, "running")
        self._thread = threading.Thread(target=self._run, name=f"mjarena-play-{self.id[:6]}", daemon=True)
        self._thread.start()

    # -- the request side ------------------------------------------------------------------------------

    def wait(self, timeout: float = WAIT_SECONDS) -> dict[str, Any]:
        """The latest view, after waiting up to ``timeout`` seconds for the bots to finish moving."""
        with self._changed:
            self._changed.wait_for(lambda: self._state != "running", timeout)
            return self._view

    async def next_view(self, timeout: float = WAIT_SECONDS) -> dict[str, Any]:
        """:meth:`wait` for an event loop: the request waits without holding a thread."""
        import asyncio

        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def wake() -> None:  # called by the game thread, with the lock held
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(changed.set)

        deadline = loop.time() + timeout
        with self._changed:
            self._wakers.add(wake)
        try:
            while True:
                changed.clear()
                with self._changed:
                    if self._state != "running":
                        return self._view
                left = deadline - loop.time()
                if left <= 0:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), left)
        finally:
            with self._changed:
                self._wakers.discard(wake)
        with self._changed:
            return self._view

    def _notify(self) -> None:
        """Wake every waiter (called with the lock held)."""
        self._changed.notify_all()
        for wake in list(self._wakers):
            wake()

    def submit(self, version: int, choice: int | None = None, action: dict[str, Any] | None = None,
               timeout: float = WAIT_SECONDS) -> dict[str, Any]:
        """Answer the decision of view ``version`` with choice number ``choice`` (or an ``action`` given as
        ``{"type", "tile", "target", "tiles"}``); the next view.  :class:`PlayError` 409 when it is not the
        person's decision (or an old one), 422 for a choice that is not legal."""
        self.touched = time.monotonic()
        with self._changed:
            if self._state != "waiting":
                raise PlayError(409, worded(N_("the game is over")) if self._state in ("finished", "failed")
                                else worded(N_("not your turn: the bots are still playing")))
            if version != self._version:
                raise PlayError(409, worded(N_("this answers decision %(version)s, but the game is at decision "
                                               "%(now)s"), version=version, now=self._version))
            picked = self._pick(choice, action)
            self._answer = picked
            self._state = "running"
            self._notify()
        return self.wait(timeout)

    def _pick(self, choice: int | None, action: dict[str, Any] | None) -> Action | str:
        if choice is not None:
            if not 0 <= choice < len(self._choices):
                raise PlayError(422, worded(N_("choice %(choice)s is not one of the %(count)s legal choices"),
                                            choice=choice, count=len(self._choices)))
            return self._choices[choice]
        wanted = _action_of(action or {})
        if wanted not in self._choices:
            raise PlayError(422, f"{action} is not legal now; legal: "
                            + ", ".join(view["label"] for view in self._view["choices"]))
        return wanted

    def close(self) -> None:
        """End the session at once: the game stops at its next decision (a pending one included), its bots'
        processes are killed now, and nothing is saved."""
        with self._changed:
            if self._closed:
                return
            self._closed = True
            self._notify()
            agents = list(self._agents)
        for agent in agents:  # a bot thinking now is killed: its answer never comes, the game thread moves on
            with contextlib.suppress(Exception):
                agent.close()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def finished(self) -> bool:
        return self._state in ("finished", "failed", "ended")

    @property
    def running(self) -> bool:
        """Whether the game's thread still runs (a closed game's runs until its next decision)."""
        return self._thread.is_alive()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the game's thread to end; whether it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    # -- the game side ---------------------------------------------------------------------------------

    def _decide(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        """Called by :class:`HumanAgent` in the game thread: publish the decision, wait for the answer."""
        stage = game.decision.stage
        choices: list[Action | str] = [NO_TARGET, AUTO_TARGET] if stage == "target" else list(legal)
        discards = [a.tile for a in legal if a.type in ("play", "discard") and a.tile is not None]
        hand = game.hands[seat]
        distances = discard_distances(self.judge.name, getattr(hand, "counts", hand), len(game.melds[seat]),
                                      discards) if discards else {}
        with self._changed:
            if self._closed:
                raise _Cancelled
            self._version += 1
            self._choices = choices
            self._distances = distances
            self._answer = None
            self._view = self._make_view(game, "waiting", stage)
            self._state = "waiting"
            self._notify()
            if not self._changed.wait_for(lambda: self._answer is not None or self._closed, self.move_seconds):
                self._closed = True  # nobody moved for move_seconds: the game ends, its bots with it
                self._ended(worded(N_("the game ended: no move for %(minutes)s minutes"),
                                   minutes=f"{self.move_seconds / 60:g}"))
                raise _Cancelled
            if self._answer is None:
                raise _Cancelled
            answer, self._answer = self._answer, None
        if answer == AUTO_TARGET:
            return self.judge.agents["greedy"](seed=self.seed).act(game, seat, legal)
        assert isinstance(answer, Action)
        return answer

    def _make_agent(self, spec: str, seat: int, limits: Any, seed: int | None = None, rules: Any = None) -> Any:
        from mjarena.agents.factory import make_agent

        if seat == self.seat:
            return HumanAgent(self)
        with self._changed:
            if self._closed:
                raise _Cancelled
        agent = _Cancellable(make_agent(self.commands.get(spec, spec), seat, limits, seed=seed, rules=rules), self)
        with self._changed:
            self._agents.append(agent)
            closed = self._closed
        if closed:
            agent.close()
            raise _Cancelled
        return agent

    def _ended(self, message: str) -> None:
        """The view of a game closed before its end (called with the lock held)."""
        self._view = {**self._view, "state": "ended", "choices": [], "message": message}
        self._state = "ended"
        self._notify()

    def _run(self) -> None:
        from mjarena.arena.match import run_match

        try:
            result = run_match(self.specs, rules=self.judge.name, seed=self.seed, make_agent=self._make_agent)
        except _Cancelled:
            with self._changed:
                if self._state != "ended":
                    self._ended(worded(N_("the game ended: it was closed")))
            return
        except Exception as error:  # a bug or a broken bot set-up: the page says so instead of hanging
            with self._changed:
                if self._closed:  # closed while a bot was asked: killing its box is what failed, not the game
                    if self._state != "ended":
                        self._ended(worded(N_("the game ended: it was closed")))
                    return
                self._view = {**self._view, "state": "failed", "choices": [], "message": worded(
                    N_("the game stopped: %(error)s"), error=str(error))}
                self._state = "failed"
                self._notify()
            return
        if self._closed:
            return
        data = result.to_json()
        replay, message = self._save(data)
        from mjarena.table import Table
        from mjarena.web.outcome import outcome

        table = Table(self.judge.name, len(data["wall"]))
        for event in result.events:
            table.apply(event)
        with self._changed:
            self._version += 1
            self._choices = []
            view = self._make_view(None, "finished", table=table.snapshot())
            view["result"] = [{key: seat[key] for key in ("seat", "bot", "status", "reason", "detail", "rank",
                                                            "points")} for seat in data["seats"]]
            view["replay"], view["message"] = replay, message
            view["outcome"] = outcome(data, result.events)  # in English: the game's thread has no reader
            view["log"] = self._log(result.events)
            view["_words"] = {**view["_words"], "events": self._logged(result.events), "game": (data, result.events)}
            self._view = view
            self._state = "finished"
            self._notify()

    def _save(self, data: dict[str, Any]) -> tuple[str | None, str]:
        """Save the finished game under ``ROOT/played/``; (its name relative to ROOT, a message)."""
        from mjarena.replay import save

        if self.root is None and self.keep is None:
            return None, worded(N_("game over (this server keeps no replays)"))
        file = f"{time.strftime('%Y%m%d-%H%M%S')}-{self.judge.name}-{self.id[:8]}.json"
        name = f"played/{file}"
        try:
            if self.keep is not None:
                name = self.keep(data, file, self.client)
            else:
                save(data, self.root / name)  # type: ignore[operator]
        except OSError as error:
            return None, worded(N_("game over; the replay could not be saved: %(error)s"),
                                error=str(error.strerror or error))
        return name, worded(N_("game over; the replay is saved"))

    def _logged(self, events: Sequence[Any]) -> list[Any]:
        """The events the game's log shows the person: the last 12 but the others' draws and deals."""
        hidden = {"deal", "draw", "draw_back"}
        return [event for event in events if event.type not in hidden or event.seat == self.seat][-12:]

    def _log(self, events: Sequence[Any]) -> list[str]:
        from mjarena.web.timeline import describe

        return describe(self._logged(events), self.judge.name)

    def _make_view(self, game: Any, state: str, stage: str | None = None,
                   table: dict[str, Any] | None = None) -> dict[str, Any]:
        from mjarena.table import Table

        if table is None:
            rebuilt = Table(self.judge.name, len(getattr(game, "wall", ())) or None)
            for event in getattr(game, "events", ()):
                rebuilt.apply(event)
            table = rebuilt.snapshot(hidden=[s for s in range(4) if s != self.seat])
        return {  # the seed only once the game is over: the wall, and so every hidden tile, follows from it
            "id": self.id, "rules": self.judge.name, "seat": self.seat, **({"seed": self.seed} if state == "finished"
                                                                           else {}),
            "seat_names": self.seat_names, "bots": self.specs, "state": state, "version": self._version,
            "stage": stage, "choices": choice_views(stage or "", self._choices, self.names, self.seat_names,
                                                    self._distances),
            "table": table, "log": self._log(game.events) if game is not None else [],
            "tile_names": self.names,
            "_words": {"actions": list(self._choices), "distances": dict(self._distances),
                       "events": self._logged(game.events) if game is not None else []},
        }  # _words: what mjarena.web.play_words writes the view's words from, in the reader's language


