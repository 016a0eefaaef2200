"""How an agent reaches a bot: the :class:`Transport` interface, its :class:`Reply`, and a scripted mock.

Two transports speak the protocol: :class:`mjarena.protocol.process.ProcessTransport` delivers requests to a
real program through a :class:`~mjarena.protocol.process.BotProcess` (restart or keep-running mode, with
limits), and :class:`ScriptedTransport` plays back queued answers so that protocol tests read like
transcripts (python-chess's ``MockTransport`` habit):

>>> bot = ScriptedTransport().expect("0 1", "PASS").expect("1 W1 W2", "PASS", data="dealt")
>>> bot.ask("0 1").response, bot.ask("1 W1 W2").data
('PASS', 'dealt')
>>> bot.assert_done()
>>> ScriptedTransport().expect("0 1", "PASS").ask("0 2")
Traceback (most recent call last):
...
AssertionError: request 1: expected '0 1', got '0 2'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from mjarena.agents.errors import AgentError
from mjarena.protocol.botzone import decode_output
from mjarena.untrusted import trim_utf8

__all__ = ["RESPONSE_LIMIT", "Exchange", "Printed", "Reply", "ScriptedTransport", "Transport"]

RESPONSE_LIMIT = 4096
"""Bytes of UTF-8 a replay keeps of one response (as of a ``debug`` field and of the standard error's tail)."""


_OPTIONAL = ("debug", "stderr", "queued_ms", "overloaded")  # left out of a replay when None


@dataclass(frozen=True)
class Reply:
    """A bot's answer to one request.

    ``response`` and ``data`` as the bot printed them (``data`` None when left out), ``elapsed`` seconds of the
    bot's own time (process start included in restart mode: its wall time less ``queued``, the seconds its threads
    waited for a busy machine's CPU; None when not measured), ``kept`` whether the process was kept running after
    it, and ``mode`` how the request was delivered: ``restart`` (a new process, whole history), ``keep`` (the bare
    request to a kept process) or ``scripted``. ``memory_kib`` is the bot's peak resident memory when known.
    ``debug`` is the answer's Botzone ``debug`` field (trimmed), ``stderr`` what the bot wrote to its standard error
    while it answered (its tail), each None when there was none.
    """

    response: str
    data: str | None = None
    elapsed: float = 0.0
    kept: bool = False
    mode: str = "scripted"
    memory_kib: int | None = None
    debug: str | None = None
    stderr: str | None = None
    queued: float | None = None

    @property
    def elapsed_ms(self) -> float:
        return self.elapsed * 1000.0


class Exchange(NamedTuple):
    """One line of a transcript: the request, the response (None if the bot failed), the time and the mode; the
    bot's ``debug`` field and the tail of its standard error for this turn, when it gave any (private to the
    bot's owner).  ``elapsed_ms`` is the bot's own time; ``queued_ms`` the time its threads waited for a CPU
    on top of it (the machine's load, not the bot's doing; None when not measured), and ``overloaded`` is True on
    a failed answer that waited for a CPU more than a tenth of its time limit: a verdict reached while the judge's
    machine was overloaded."""

    request: str
    response: str | None
    elapsed_ms: float
    mode: str
    debug: str | None = None
    stderr: str | None = None
    queued_ms: float | None = None
    overloaded: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """The exchange as a replay keeps it: ``debug`` and ``stderr`` only when there are any, the response cut
        to :data:`RESPONSE_LIMIT` bytes (the judge read the action from all of it; a bot padding its answers to
        the 1 MiB line limit would otherwise make a 60 MiB replay).

        >>> Exchange("2 W1", "PLAY W1", 1.5, "keep", debug="kept W2").to_json()
        {'request': '2 W1', 'response': 'PLAY W1', 'elapsed_ms': 1.5, 'mode': 'keep', 'debug': 'kept W2'}
        >>> len(Exchange("2 W1", "PLAY W1" + " " * 100_000, 1.5, "keep").to_json()["response"].encode())
        4096
        """
        data = {key: value for key, value in self._asdict().items()
                if value is not None or key not in _OPTIONAL}
        if self.queued_ms is not None:
            data["queued_ms"] = round(self.queued_ms, 3)
        if self.response is not None:
            data["response"] = trim_utf8(self.response, RESPONSE_LIMIT)
        return data


@dataclass(frozen=True)
class Printed:
    """A script item for :class:`ScriptedTransport`: the bot's output line ``text`` as it printed it, judged as the
    real transport judges it (:func:`~mjarena.protocol.botzone.decode_output`, so that bad bytes become
    ``bad_output``).

    >>> ScriptedTransport([Printed('{"response": "PASS", "debug": "hi"}')]).ask("0 1").debug
    'hi'
    """

    text: str


class Transport(Protocol):
    """Anything that delivers one request to a bot and returns its answer (or raises a :class:`BotError`)."""

    def ask(self, request: str) -> Reply: ...

    def close(self) -> None: ...


ScriptItem = str | Reply | Printed | AgentError


class ScriptedTransport:
    """A mock bot: answers from a queue, records every request, and checks expected requests when given.

    Each queued item is a response string, a :class:`Reply`, what the bot :class:`Printed` (decoded when asked),
    or an :class:`AgentError` (usually a :class:`~mjarena.agents.errors.BotError`) to raise; :meth:`expect` also
    names the request it must answer.
    """

    def __init__(self, script: Iterable[ScriptItem | tuple[str, ScriptItem]] = ()) -> None:
        self.requests: list[str] = []
        self.closed = False
        self._queue: deque[tuple[str | None, ScriptItem]] = deque()
        for item in script:
            if isinstance(item, tuple):
                self.expect(*item)
            else:
                self.push(item)

    def push(self, answer: ScriptItem, data: str | None = None) -> ScriptedTransport:
        """Queue an answer to whatever request comes next."""
        self._queue.append((None, self._reply(answer, data)))
        return self

    def expect(self, request: str, answer: ScriptItem, data: str | None = None) -> ScriptedTransport:
        """Queue an answer to exactly ``request`` (a different request fails the test)."""
        self._queue.append((request, self._reply(answer, data)))
        return self

    @staticmethod
    def _reply(answer: ScriptItem, data: str | None) -> ScriptItem:
        return Reply(answer, data) if isinstance(answer, str) else answer

    def ask(self, request: str) -> Reply:
        if self.closed:
            raise RuntimeError(f"scripted bot is closed; request {request!r}")
        self.requests.append(request)
        number = len(self.requests)
        if not self._queue:
            raise AssertionError(f"request {number}: {request!r} was not expected (the script is used up)")
        expected, answer = self._queue.popleft()
        if expected is not None and expected != request:
            raise AssertionError(f"request {number}: expected {expected!r}, got {request!r}")
        if isinstance(answer, AgentError):
            raise answer
        if isinstance(answer, Printed):
            output = decode_output(answer.text, request)
            return Reply(output.response, output.data, debug=output.debug)
        assert isinstance(answer, Reply)
        return answer

    def assert_done(self) -> None:
        """Fail unless every queued answer was used."""
        if self._queue:
            left = [request or answer for request, answer in self._queue]
            raise AssertionError(f"{len(self._queue)} scripted answer(s) never asked for: {left!r}")

    def close(self) -> None:
        self.closed = True
