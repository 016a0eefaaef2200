"""Play sessions: a person takes one seat against three bots; each session is its own game.

The game is an ordinary :func:`mjarena.arena.match.run_match` running in a thread of its own, so a finished
game is recorded, ranked and saved exactly like any match, and its replay plays again with
``mjarena replay --check``.  The person's seat is a :class:`HumanAgent`: when the rules ask it, it publishes
a view of the table and the legal choices, and waits for :meth:`PlaySession.submit`.  The view is built in the
game thread while it waits, so a request never reads a game that is moving.

>>> room = PlayRoom(root=None)
>>> session = room.create("noi2014", seat=0, opponents=["builtin:greedy"] * 3, seed=7)
>>> view = session.wait()
>>> view["state"], view["table"]["seats"][1]["hand"] is None   # the others' hands are hidden
('waiting', True)
>>> view = session.submit(view["version"], choice=len(view["choices"]) - 1)
>>> view["version"] > 1
True
>>> room.close()
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjarena.agents.errors import AgentError
from mjarena.variants.base import Action

__all__ = ["MAX_SESSIONS", "HumanAgent", "PlayError", "PlayRoom", "PlaySession", "choice_views"]

MAX_SESSIONS = 32
"""Games kept in memory at once; starting one more ends (and forgets) the least recently used."""
WAIT_SECONDS = 10.0
"""How long a request waits for the bots to reach the person's next decision before answering anyway."""
NO_TARGET = Action("target")
AUTO_TARGET = "auto"


class PlayError(Exception):
    """A request the session cannot take: ``status`` is the HTTP status to answer with (404, 409, 422)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Resigned(AgentError):
    """The person left (the session was closed): the judge plays the seat to the end."""


def choice_views(stage: str, choices: Sequence[Action | str], names: dict[int, str],
                 seats: Sequence[str]) -> list[dict[str, Any]]:
    """How the page shows each legal choice: ``label``, the ``group`` button it sits under (None: clicking the
    ``tile`` in hand chooses it) and the ``tile`` to click (the tile discarded), if any.

    >>> names = {0: "W1", 1: "W2"}
    >>> [(c["group"], c["tile"]) for c in choice_views("draw", [Action("hu"), Action("play", 1)], names, "ESWN")]
    [('HU', None), (None, 1)]
    >>> choice_views("claim", [Action("peng", 0)], names, "ESWN")[0]["label"]
    'PENG, then discard W1'
    """
    views = []
    for index, action in enumerate(choices):
        group: str | None
        tile: int | None = None
        if action == AUTO_TARGET:
            views.append({"index": index, "type": "target", "label": "Let the greedy bot choose my target hand",
                          "group": "Greedy target", "tile": None})
            continue
        assert isinstance(action, Action)
        verb, name = action.type, names.get(action.tile, "") if action.tile is not None else ""
        if verb == "target":
            group = label = "No target hand"
        elif verb in ("play", "discard"):
            group, tile = None, action.tile
            label = f"discard {name}" + (f" → {seats[action.target]}" if action.target is not None else "")
        elif verb == "peng" and stage == "claim":
            group, tile, label = "PENG", action.tile, f"PENG, then discard {name}"
        elif verb == "chi":
            run = "-".join(names.get(action.tile + i, "?") for i in range(3))  # type: ignore[operator]
            group, tile = f"CHI {run}", action.tiles[0]
            label = f"CHI {run}, then discard {names.get(action.tiles[0], '?')}"
        elif verb == "chow":
            group = label = "CHOW " + "-".join(names.get(action.tile + i, "?") for i in range(3))  # type: ignore[operator]
        elif verb == "pass":
            group = label = "Pass"
        elif verb == "self_drawn":
            group = label = "SELF-DRAWN win"
        else:
            group = label = f"{verb.upper()} {name}".strip()
        views.append({"index": index, "type": verb, "label": label, "group": group, "tile": tile})
    return views


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
                 root: Path | None = None) -> None:
        import random

        from mjarena.arena.rulesets import judge_rules
        from mjarena.web.timeline import seat_names, tile_names

        self.id = secrets.token_urlsafe(16)
        self.judge = judge_rules(rules)
        self.seat = seat
        self.specs = list(opponents)
        self.specs.insert(seat, "human")
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        self.root = root
        self.names = tile_names(self.judge.notation)
        self.seat_names = list(seat_names(self.judge.name))
        self.touched = time.monotonic()
        self._changed = threading.Condition()
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
        self.touched = time.monotonic()
        with self._changed:
            self._changed.wait_for(lambda: self._state != "running", timeout)
            return self._view

    def submit(self, version: int, choice: int | None = None, action: dict[str, Any] | None = None,
               timeout: float = WAIT_SECONDS) -> dict[str, Any]:
        """Answer the decision of view ``version`` with choice number ``choice`` (or an ``action`` given as
        ``{"type", "tile", "target", "tiles"}``); the next view.  :class:`PlayError` 409 when it is not the
        person's decision (or an old one), 422 for a choice that is not legal."""
        self.touched = time.monotonic()
        with self._changed:
            if self._state != "waiting":
                raise PlayError(409, "the game is over" if self._state in ("finished", "failed")
                                else "not your turn: the bots are still playing")
            if version != self._version:
                raise PlayError(409, f"this answers decision {version}, but the game is at decision {self._version}")
            picked = self._pick(choice, action)
            self._answer = picked
            self._state = "running"
            self._changed.notify_all()
        return self.wait(timeout)

    def _pick(self, choice: int | None, action: dict[str, Any] | None) -> Action | str:
        if choice is not None:
            if not 0 <= choice < len(self._choices):
                raise PlayError(422, f"choice {choice} is not one of the {len(self._choices)} legal choices")
            return self._choices[choice]
        wanted = _action_of(action or {})
        if wanted not in self._choices:
            raise PlayError(422, f"{action} is not legal now; legal: "
                            + ", ".join(view["label"] for view in self._view["choices"]))
        return wanted

    def close(self) -> None:
        """End the session: a pending decision is answered by the judge from now on, and nothing is saved."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def finished(self) -> bool:
        return self._state in ("finished", "failed")

    # -- the game side ---------------------------------------------------------------------------------

    def _decide(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        """Called by :class:`HumanAgent` in the game thread: publish the decision, wait for the answer."""
        stage = game.decision.stage
        choices: list[Action | str] = [NO_TARGET, AUTO_TARGET] if stage == "target" else list(legal)
        with self._changed:
            if self._closed:
                raise _Resigned("resigned", "the player left the game")
            self._version += 1
            self._choices = choices
            self._answer = None
            self._view = self._make_view(game, "waiting", stage)
            self._state = "waiting"
            self._changed.notify_all()
            self._changed.wait_for(lambda: self._answer is not None or self._closed)
            if self._answer is None:
                raise _Resigned("resigned", "the player left the game")
            answer, self._answer = self._answer, None
        if answer == AUTO_TARGET:
            return self.judge.agents["greedy"](seed=self.seed).act(game, seat, legal)
        assert isinstance(answer, Action)
        return answer

    def _make_agent(self, spec: str, seat: int, limits: Any, seed: int | None = None, rules: Any = None) -> Any:
        from mjarena.agents.factory import make_agent

        return HumanAgent(self) if seat == self.seat else make_agent(spec, seat, limits, seed=seed, rules=rules)

    def _run(self) -> None:
        from mjarena.arena.match import run_match

        try:
            result = run_match(self.specs, rules=self.judge.name, seed=self.seed, make_agent=self._make_agent)
        except Exception as error:  # a bug or a broken bot set-up: the page says so instead of hanging
            with self._changed:
                self._view = {**self._view, "state": "failed", "choices": [], "message": f"the game stopped: {error}"}
                self._state = "failed"
                self._changed.notify_all()
            return
        if self._closed:
            return
        data = result.to_json()
        replay, message = self._save(data)
        from mjarena.web.timeline import Table

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
            view["log"] = self._log(result.events)
            self._view = view
            self._state = "finished"
            self._changed.notify_all()

    def _save(self, data: dict[str, Any]) -> tuple[str | None, str]:
        """Save the finished game under ``ROOT/played/``; (its name relative to ROOT, a message)."""
        from mjarena.replay import save

        if self.root is None:
            return None, "game over (this server keeps no replays)"
        name = f"played/{time.strftime('%Y%m%d-%H%M%S')}-{self.judge.name}-{self.id[:8]}.json"
        try:
            save(data, self.root / name)
        except OSError as error:
            return None, f"game over; the replay could not be saved: {error.strerror or error}"
        return name, "game over; the replay is saved"

    def _log(self, events: Sequence[Any]) -> list[str]:
        from mjarena.web.timeline import describe

        hidden = {"deal", "draw", "draw_back"}
        mine = [text for event, text in zip(events, describe(events, self.judge.name),
                                            strict=True)
                if event.type not in hidden or event.seat == self.seat]
        return mine[-12:]

    def _make_view(self, game: Any, state: str, stage: str | None = None,
                   table: dict[str, Any] | None = None) -> dict[str, Any]:
        from mjarena.web.timeline import Table

        if table is None:
            rebuilt = Table(self.judge.name, len(getattr(game, "wall", ())) or None)
            for event in getattr(game, "events", ()):
                rebuilt.apply(event)
            table = rebuilt.snapshot(hidden=[s for s in range(4) if s != self.seat])
        return {
            "id": self.id, "rules": self.judge.name, "seed": self.seed, "seat": self.seat,
            "seat_names": self.seat_names, "bots": self.specs, "state": state, "version": self._version,
            "stage": stage, "choices": choice_views(stage or "", self._choices, self.names, self.seat_names),
            "table": table, "log": self._log(game.events) if game is not None else [],
            "tile_names": self.names,
        }


class PlayRoom:
    """The sessions of one server, by id, at most ``limit`` at once (the least recently used ends first).

    ``root``: where finished games are saved (``ROOT/played/``); None keeps none.  ``bots``: the bot specs a
    person may choose as opponents besides the rule set's built-in ones (command lines set on the server).
    """

    def __init__(self, root: Path | None, bots: Sequence[str] = (), limit: int = MAX_SESSIONS) -> None:
        self.root = root
        self.bots = list(bots)
        self.limit = limit
        self._sessions: OrderedDict[str, PlaySession] = OrderedDict()
        self._lock = threading.Lock()

    def opponents(self, rules: str) -> list[str]:
        """The specs a person may pick for ``rules``: its built-in bots, then the server's command lines."""
        from mjarena.arena.rulesets import judge_rules

        return [f"builtin:{name}" for name in judge_rules(rules).agents] + self.bots

    def create(self, rules: str, seat: int, opponents: Sequence[str], seed: int | None = None) -> PlaySession:
        """Start a game; :class:`PlayError` 422 for an unknown rule set, seat or opponent."""
        from mjarena.arena.rulesets import judge_rules

        try:
            judge = judge_rules(rules)
        except KeyError as error:
            raise PlayError(422, str(error.args[0])) from None
        if seat not in range(4):
            raise PlayError(422, f"seat {seat!r}: choose 0, 1, 2 or 3")
        if len(opponents) != 3:
            raise PlayError(422, f"three opponents, not {len(opponents)}")
        allowed = self.opponents(judge.name)
        for spec in opponents:
            if spec not in allowed:
                raise PlayError(422, f"opponent {spec!r} is not offered here; choose from: {', '.join(allowed)}")
        session = PlaySession(judge.name, seat, opponents, seed=seed, root=self.root)
        with self._lock:
            self._sessions[session.id] = session
            while len(self._sessions) > self.limit:
                _, oldest = self._sessions.popitem(last=False)
                oldest.close()
        return session

    def get(self, session_id: str) -> PlaySession:
        """The session; :class:`PlayError` 404 if there is none of that id (never was, or ended)."""
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise PlayError(404, "no game of that id here (it may have ended when the server restarted)")
            self._sessions.move_to_end(session_id)
            return session

    def close(self) -> None:
        """End every session (on server shutdown)."""
        with self._lock:
            for session in self._sessions.values():
                session.close()
            self._sessions.clear()
