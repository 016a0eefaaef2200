"""A seat played by a bot that speaks the NOI 2014 / Botzone protocol, behind a transport.

:class:`BotzoneAgent` turns the engine's questions into the bot's requests and the bot's answers into actions.
At each ``act(game, seat, legal)`` it reads the events since its last call, sends the seat's pending requests
(:func:`~mjarena.protocol.botzone.requests_for`): first those that only inform (each must be answered
``PASS``), then the one that carries the decision (``2 X`` for a draw, ``3 p PLAY X`` for a claim, ``4`` for the
target), and returns the answer as an :class:`~mjarena.variants.base.Action`.  Whether that action is legal is
the rules' business; the engine rejects it (and accepts a false ``HU``, which its rules handle).

The transport is a :class:`~mjarena.protocol.process.BotProcess` for a real program or a
:class:`~mjarena.protocol.transport.ScriptedTransport` in tests:

>>> from mjarena.protocol.transport import ScriptedTransport
>>> from mjarena.variants.base import Decision, Event
>>> class Table:  # the two attributes the agent reads
...     events = [Event("deal", 2, tuple(range(13))), Event("draw", 0, (5,)), Event("play", 0, (5,))]
...     decision = Decision("claim", {})
>>> bot = ScriptedTransport([("0 2", "PASS"), ("1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4", "PASS"),
...                          ("3 0 PLAY W6", "PENG W1")])
>>> agent = BotzoneAgent(bot, "peng-bot")
>>> agent.act(Table(), 2, [])
Action(type='peng', tile=0, target=None, tiles=())
>>> [line.request for line in agent.transcript]
['0 2', '1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4', '3 0 PLAY W6']

On any :class:`~mjarena.agents.errors.AgentError` (a bot failure, a malformed answer, a non-``PASS`` answer to
a request that only informs) the agent closes the transport and re-raises: the match runner records the reason
and plays for the seat from then on.  The agent also closes the transport after the bot's last possible answer
(its target, or a self-drawn ``HU``); the runner should still call :meth:`BotzoneAgent.close` at the end of the
game (closing twice is harmless).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from mjarena.agents.errors import AgentError
from mjarena.protocol import botzone
from mjarena.protocol.botzone import Request
from mjarena.protocol.transport import Exchange, Reply, Transport
from mjarena.variants.base import Action

__all__ = ["BotzoneAgent", "ProtocolMismatch"]


class ProtocolMismatch(RuntimeError):
    """The engine asked for a decision that the event stream gives no request for (a bug, not the bot's fault)."""


class BotzoneAgent:
    """An agent whose decisions come from a Botzone-protocol bot.

    ``transcript`` lists every exchange as ``(request, response, elapsed_ms, mode, debug, stderr)`` (``response``
    None and ``mode`` ``"error"`` when the bot failed; ``debug`` the answer's Botzone ``debug`` field, ``stderr``
    the tail of the bot's standard error, when any); ``error`` is the :class:`AgentError` that ended its game.
    ``protocol`` is the module of request and response strings: :mod:`mjarena.protocol.botzone` (NOI 2014) or
    :mod:`mjarena.protocol.baida`; each has ``requests_for``, ``stage_kind``, ``parse_response`` and ``check_pass``.
    """

    def __init__(self, transport: Transport, name: str = "bot", protocol: ModuleType = botzone) -> None:
        self.transport = transport
        self.name = name
        self.protocol = protocol
        self.transcript: list[Exchange] = []
        self.error: AgentError | None = None
        self.seat: int | None = None
        self.closed = False
        self._cursor = 0  # events before this index have been told to the bot

    def __repr__(self) -> str:
        return f"<BotzoneAgent {self.name!r} seat={self.seat} answers={len(self.transcript)}>"

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        """Tell the bot what happened since its last decision, ask for this one, and return its action."""
        if self.closed:
            raise RuntimeError(f"{self!r} is closed" + (f" after {self.error}" if self.error else ""))
        if self.seat is None:
            self.seat = seat
        elif seat != self.seat:
            raise ValueError(f"{self!r} plays seat {self.seat}, not seat {seat}")
        kind = self.protocol.stage_kind(game.decision.stage)
        pending = self.protocol.requests_for(game.events, seat, start=self._cursor)
        if not pending or pending[-1].kind != kind:
            last = pending[-1].text if pending else "nothing"
            raise ProtocolMismatch(
                f"seat {seat}: the engine asks for a {game.decision.stage!r} decision, but the last request "
                f"is {last!r} ({len(game.events)} events)"
            )
        self._cursor = len(game.events)
        try:
            for request in pending[:-1]:
                self._answer_in_passing(request)
            final = pending[-1]
            reply = self._ask(final)
            action = self.protocol.parse_response(reply.response, final.kind, final.text)
        except AgentError as error:
            self.error = error
            self.close()
            raise
        if final.kind == "target" or (final.kind == "draw" and action.type == "hu"):
            self.close()  # the bot's game is over: it will receive nothing more
        return action

    def _answer_in_passing(self, request: Request) -> None:
        reply = self._ask(request)
        action = self.protocol.parse_response(reply.response, request.kind, request.text)
        if request.kind == "pass":
            self.protocol.check_pass(action, reply.response, request.text)
        elif request.kind != "discard":
            # A discard the rules did not ask this seat about: any well-formed answer is moot, like a claim
            # pre-empted by a nearer HU.  A draw or a target always carries a decision.
            raise ProtocolMismatch(f"seat {self.seat}: {request.text!r} carries a decision the engine never asked")

    def _ask(self, request: Request) -> Reply:
        try:
            reply = self.transport.ask(request.text)
        except AgentError as error:
            elapsed = (error.elapsed or 0.0) * 1000.0
            queued = error.queued
            self.transcript.append(Exchange(
                request.text, None, elapsed, "error", stderr=error.stderr or None,
                queued_ms=None if queued is None else queued * 1000.0,
                overloaded=error.overloaded or None,
            ))
            raise
        queued_ms = None if reply.queued is None else reply.queued * 1000.0
        self.transcript.append(
            Exchange(request.text, reply.response, reply.elapsed_ms, reply.mode, reply.debug, reply.stderr, queued_ms)
        )
        return reply

    def close(self) -> None:
        """Close the transport (kill the bot's process if it is kept running).  Safe to call twice."""
        if not self.closed:
            self.closed = True
            self.transport.close()

    def __enter__(self) -> BotzoneAgent:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
