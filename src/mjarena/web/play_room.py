"""The play page's room: a server's play sessions by id, bounded per client and in all, and the server's own bots
a person may choose as opponents (``mjarena serve --bot``).

One session, its game and its person's decisions are :mod:`mjarena.web.play`'s.

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

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from mjarena.i18n import N_, worded
from mjarena.web.play import MOVE_SECONDS, Keeper, PlayError, PlaySession

__all__ = ["IDLE_SECONDS", "MAX_SEED", "MAX_SESSIONS", "PER_CLIENT", "PlayRoom", "bot_label", "offered_bot"]

MAX_SESSIONS = 64
"""Games kept at once (running, or finished and still shown).  When full, a finished game makes room, then one
without a move for :data:`IDLE_SECONDS`, then the least recently moved game of the client holding the most games
(when it holds more than the newcomer would): a few addresses cannot fill the room; else 503."""
PER_CLIENT = 4
"""Games one client (an IPv4 address, an IPv6 /64) keeps at once; its next one ends its own least recently moved.
Games still ending count until their threads are gone."""
IDLE_SECONDS = 600.0
"""A game without a move for this long may be ended to make room for a new one (looking at it is no move)."""
MAX_SEED = 2**53 - 1
"""The largest seed a person may ask for (a whole number JSON carries exactly)."""


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

    ``root``: where finished games are saved (``ROOT/played/``); None keeps none; ``keep``: what saves them
    there (:data:`mjarena.web.play.Keeper`: the library's quota), else they are written as they are.  ``bots``:
    the server's command lines a person may choose as opponents besides the rule set's built-in bots, offered by
    their labels (:func:`bot_label`).
    """

    def __init__(self, root: Path | None, bots: Sequence[str] = (), limit: int = MAX_SESSIONS,
                 per_client: int = PER_CLIENT, idle_seconds: float = IDLE_SECONDS,
                 move_seconds: float = MOVE_SECONDS, keep: Keeper | None = None) -> None:
        self.root = root
        self.keep = keep
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
            raise PlayError(422, worded(N_("seat %(seat)s: choose 0, 1, 2 or 3"), seat=repr(seat)))
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise PlayError(422, worded(N_("the seed must be a whole number from 0 to %(largest)s"), largest=MAX_SEED))
        if len(opponents) != 3:
            raise PlayError(422, worded(N_("three opponents, not %(count)s"), count=len(opponents)))
        allowed = self.opponents(judge.name)
        for spec in opponents:
            if spec not in allowed:
                raise PlayError(422, worded(N_("opponent %(name)s is not offered here; choose from: %(offered)s"),
                                            name=repr(str(spec)[:60]), offered=", ".join(allowed)))
        commands = {label: command for _, label, command in self._offered}
        with self._lock:
            ended = self._make_room(client)
        for session in ended:  # closed: their threads end at once (a bot thinking now was killed)
            session.join(5.0)
        with self._lock:
            self._ending = [session for session in self._ending if session.running]
            if self._count(client) >= self.per_client:
                raise PlayError(503, worded(N_("your earlier games are still ending; try again in a moment")))
            if self._count() >= self.limit:
                raise PlayError(503, worded(N_("the server is playing as many games as it can hold; try again in "
                                               "a few minutes")))
            session = PlaySession(judge.name, seat, opponents, seed=seed, root=self.root, client=client,
                                  commands=commands, move_seconds=self.move_seconds, keep=self.keep)
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
                raise PlayError(404, worded(N_("no game of that id here (it may have ended when the server "
                                               "restarted)")))
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
