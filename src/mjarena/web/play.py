"""Play sessions: a person takes one seat against three bots; each session is its own game.

The game is an ordinary :func:`mjarena.arena.match.run_match` running in a thread of its own, so a finished
game is recorded, ranked and saved exactly like any match, and its replay plays again with
``mjarena replay --check``.  A game closed (evicted, left, or waiting longer than :data:`MOVE_SECONDS` for its
person) is cancelled at once: its thread stops at the next decision and its bots' processes are killed.  The
person's seat is a :class:`HumanAgent`: when the rules ask it, it publishes a view of the table and the legal
choices, and waits for :meth:`PlaySession.submit`.  The view is built in the game thread while it waits, so a
request never reads a game that is moving.

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

import contextlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjarena.variants.base import Action

__all__ = ["MAX_SEED", "MAX_SESSIONS", "MOVE_SECONDS", "PER_CLIENT", "HumanAgent", "PlayError", "PlayRoom",
           "PlaySession", "bot_label", "choice_views", "discard_distances"]

MAX_SESSIONS = 64
"""Games kept at once (running, or finished and still shown).  When full, a finished game makes room, then one
without a move for :data:`IDLE_SECONDS`, then the least recently moved game of the client holding the most games
(when it holds more than the newcomer would): a few addresses cannot fill the room; else 503."""
PER_CLIENT = 4
"""Games one client (an IPv4 address, an IPv6 /64) keeps at once; its next one ends its own least recently moved.
Games still ending count until their threads are gone."""
IDLE_SECONDS = 600.0
"""A game without a move for this long may be ended to make room for a new one (looking at it is no move)."""
MOVE_SECONDS = 1800.0
"""A game that waits this long for its person's move ends (its thread and bots with it)."""
MAX_SEED = 2**53 - 1
"""The largest seed a person may ask for (a whole number JSON carries exactly)."""
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


def discard_distances(rules: str, counts: Sequence[int], melds: int, kinds: Sequence[int]) -> dict[int, int]:
    """The exchange distance (和牌距离) left after discarding each kind of ``kinds`` from a hand with ``counts``
    and ``melds`` sets laid down, under the rule set's hand rules: the tiles still to draw to win (1: ready).
    The figures are :func:`mjarena.hand.wild.discards`' (as in the replay viewer's annotations,
    :mod:`mjarena.web.effects`); kinds the hand does not hold, or a hand that is not ``14 - 3 * melds`` tiles,
    get none.

    >>> from mjarena.tiles import counts_of, parse_tiles
    >>> hand = counts_of(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6 T9", "noi"))
    >>> discard_distances("noi2014", hand, 0, [8, 14, 26])  # T9 leaves the hand ready; W9 breaks a run
    {8: 2, 14: 2, 26: 1}
    """
    from mjarena.hand import RULES
    from mjarena.hand.wild import discards

    try:
        after = {option.kind: option.distance for option in discards(counts, melds, RULES[rules])}
    except ValueError:  # TileError is one
        return {}
    return {kind: after[kind] for kind in dict.fromkeys(kinds) if kind in after}


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


def choice_views(stage: str, choices: Sequence[Action | str], names: dict[int, str],
                 seats: Sequence[str], distances: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """How the page shows each legal choice: ``label``, the ``group`` button it sits under (None: clicking the
    ``tile`` in hand chooses it), the ``tile`` to click (the tile discarded), if any, and for a plain discard
    the ``distance`` it leaves (from ``distances``, by kind).

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
        view = {"index": index, "type": verb, "label": label, "group": group, "tile": tile}
        if group is None and distances and tile in distances:
            view["distance"] = distances[tile]
        views.append(view)
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
                 root: Path | None = None, client: str = "", commands: dict[str, str] | None = None,
                 move_seconds: float = MOVE_SECONDS) -> None:
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
                raise PlayError(409, "the game is over" if self._state in ("finished", "failed")
                                else "not your turn: the bots are still playing")
            if version != self._version:
                raise PlayError(409, f"this answers decision {version}, but the game is at decision {self._version}")
            picked = self._pick(choice, action)
            self._answer = picked
            self._state = "running"
            self._notify()
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
                self._ended(f"the game ended: no move for {self.move_seconds / 60:g} minutes")
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
                    self._ended("the game ended: it was closed")
            return
        except Exception as error:  # a bug or a broken bot set-up: the page says so instead of hanging
            with self._changed:
                self._view = {**self._view, "state": "failed", "choices": [], "message": f"the game stopped: {error}"}
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
            view["outcome"] = outcome(data, result.events)
            view["log"] = self._log(result.events)
            self._view = view
            self._state = "finished"
            self._notify()

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
        }


def offered_bot(text: str) -> tuple[str, str]:
    """(rule set, spec) of a ``--bot`` given to ``mjarena serve``: ``RULES:SPEC`` for a bot made for the rule set
    RULES (``baida:python3 examples/bots/baida_bot.py``), else NOI 2014's, whose protocol program bots speak by
    default.

    >>> offered_bot("python3 mybot.py"), offered_bot("百搭:python3 examples/bots/baida_bot.py")
    (('noi2014', 'python3 mybot.py'), ('baida', 'python3 examples/bots/baida_bot.py'))
    """
    from mjarena.rulesets import judge_rules

    prefix, colon, rest = text.partition(":")
    if colon and prefix not in ("builtin", "python"):
        try:
            return judge_rules(prefix).name, rest
        except KeyError:
            pass
    return "noi2014", text


def bot_label(command: str) -> str:
    """How the pages name a ``--bot`` command line: ``bot:`` and the name of its program (the last word naming a
    file), never the command line, which may hold the server's paths.

    >>> bot_label("python3 /srv/bots/restart_bot.py --fast"), bot_label("./thupc_bot")
    ('bot:restart_bot', 'bot:thupc_bot')
    """
    import re
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    files = [word for word in words if not word.startswith("-")]
    program = next((word for word in reversed(files) if "/" in word or "." in word), files[0] if files else "bot")
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(program).stem).strip("-") or "bot"
    return f"bot:{name[:40]}"


class PlayRoom:
    """The sessions of one server, by id, bounded by what runs: at most ``per_client`` games for one client (its
    least recently moved ends first) and ``limit`` in all.  A game ended here is cancelled at once
    (:meth:`PlaySession.close`); one still ending counts against its client and the total until its thread is gone.
    When full, a finished game makes room, then one without a move for ``idle_seconds``, then the least recently
    moved game of the client holding the most (if it holds more than the newcomer would): a few clients cannot lock
    the others out.  Else a new game is refused with 503.

    ``root``: where finished games are saved (``ROOT/played/``); None keeps none.  ``bots``: the server's command
    lines a person may choose as opponents besides the rule set's built-in bots, offered by their labels
    (:func:`bot_label`).
    """

    def __init__(self, root: Path | None, bots: Sequence[str] = (), limit: int = MAX_SESSIONS,
                 per_client: int = PER_CLIENT, idle_seconds: float = IDLE_SECONDS,
                 move_seconds: float = MOVE_SECONDS) -> None:
        self.root = root
        self.limit = limit
        self.per_client = per_client
        self.idle_seconds = idle_seconds
        self.move_seconds = move_seconds
        self._offered: list[tuple[str, str, str]] = []  # (rule set, label, command line)
        for text in bots:
            rules, command = offered_bot(text)
            label, taken = bot_label(command), {label for _, label, _ in self._offered}
            number = 2
            while label in taken:
                label, number = f"{bot_label(command)}-{number}", number + 1
            self._offered.append((rules, label, command))
        self._sessions: OrderedDict[str, PlaySession] = OrderedDict()
        self._ending: list[PlaySession] = []  # closed here, their threads not yet gone
        self._lock = threading.Lock()

    @property
    def bots(self) -> list[str]:
        """The labels of the server's bots."""
        return [label for _, label, _ in self._offered]

    def opponents(self, rules: str) -> list[str]:
        """The names a person may pick for ``rules``: its built-in bots, then the labels of the server's bots made
        for it (:func:`offered_bot`: a bot speaks one rule set's protocol, NOI 2014's unless told)."""
        from mjarena.rulesets import judge_rules

        canonical = judge_rules(rules).name
        return [f"builtin:{name}" for name in judge_rules(rules).agents] + [
            label for made_for, label, _ in self._offered if made_for == canonical]

    def create(self, rules: str, seat: int, opponents: Sequence[str], seed: int | None = None,
               client: str = "") -> PlaySession:
        """Start a game for ``client`` (its key: :func:`mjarena.web.server.client_of`); :class:`PlayError` 422 for
        an unknown rule set, seat, opponent or seed, 503 when the server runs as many games as it may and none of
        them can end."""
        from mjarena.rulesets import judge_rules

        try:
            judge = judge_rules(rules)
        except KeyError as error:
            raise PlayError(422, str(error.args[0])) from None
        if seat not in range(4):
            raise PlayError(422, f"seat {seat!r}: choose 0, 1, 2 or 3")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise PlayError(422, f"the seed must be a whole number from 0 to {MAX_SEED}")
        if len(opponents) != 3:
            raise PlayError(422, f"three opponents, not {len(opponents)}")
        allowed = self.opponents(judge.name)
        for spec in opponents:
            if spec not in allowed:
                raise PlayError(422, f"opponent {str(spec)[:60]!r} is not offered here; choose from: "
                                     f"{', '.join(allowed)}")
        commands = {label: command for _, label, command in self._offered}
        with self._lock:
            ended = self._make_room(client)
        for session in ended:  # closed: their threads end at once (a bot thinking now was killed)
            session.join(5.0)
        with self._lock:
            self._ending = [session for session in self._ending if session.running]
            if self._count(client) >= self.per_client:
                raise PlayError(503, "your earlier games are still ending; try again in a moment")
            if self._count() >= self.limit:
                raise PlayError(503, "the server is playing as many games as it can hold; try again in a few "
                                     "minutes")
            session = PlaySession(judge.name, seat, opponents, seed=seed, root=self.root, client=client,
                                  commands=commands, move_seconds=self.move_seconds)
            self._sessions[session.id] = session
        return session

    def _count(self, client: str | None = None) -> int:
        """Games held (listed, or still running after they were ended) by ``client``, or by all."""
        held = [*self._sessions.values(), *self._ending]
        return sum(1 for session in held if client is None or session.client == client)

    def _end(self, sid: str) -> PlaySession:
        session = self._sessions.pop(sid)
        session.close()
        if session.running:
            self._ending.append(session)
        return session

    def _make_room(self, client: str) -> list[PlaySession]:
        """End ``client``'s least recently moved games down to one below its share; then, if the room is full,
        finished games, then idle ones, then the least recently moved of the client holding the most games (more
        than ``client`` would); the games ended.  Called with the lock held."""
        ended: list[PlaySession] = []
        before = sum(1 for session in self._ending if session.running)  # ended earlier, still ending

        def full() -> bool:  # the games ended now are gone once their threads end (create waits for that)
            return len(self._sessions) + before >= self.limit

        by_move = sorted(self._sessions.items(), key=lambda item: item[1].touched)
        own = [sid for sid, session in by_move if session.client == client]
        for sid in own[: max(0, len(own) - self.per_client + 1)]:
            ended.append(self._end(sid))
        now = time.monotonic()
        for test in (lambda s: s.finished, lambda s: now - s.touched > self.idle_seconds):
            for sid, session in sorted(self._sessions.items(), key=lambda item: item[1].touched):
                if not full():
                    return ended
                if test(session):
                    ended.append(self._end(sid))
        while full():
            counts: dict[str, int] = {}
            for session in self._sessions.values():
                counts[session.client] = counts.get(session.client, 0) + 1
            largest = max(counts, key=lambda key: counts[key], default=None)
            if largest is None or counts[largest] <= counts.get(client, 0) + 1:
                break
            oldest = min((item for item in self._sessions.items() if item[1].client == largest),
                         key=lambda item: item[1].touched)
            ended.append(self._end(oldest[0]))
        return ended

    def get(self, session_id: str) -> PlaySession:
        """The session; :class:`PlayError` 404 if there is none of that id (never was, or ended)."""
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise PlayError(404, "no game of that id here (it may have ended when the server restarted)")
            return session

    def running(self) -> int:
        """Games whose threads run now (listed or ending)."""
        with self._lock:
            return sum(1 for session in [*self._sessions.values(), *self._ending] if session.running)

    def close(self) -> None:
        """End every session (on server shutdown)."""
        with self._lock:
            for sid in list(self._sessions):
                self._end(sid)
            ending, self._ending = self._ending, []
        for session in ending:
            session.join(5.0)
