"""The NOI 2014 / Botzone bot protocol: request and response strings, JSON framing, and running bots.

- :mod:`mjarena.protocol.botzone`: pure functions, the requests a seat receives (a view of the event stream),
  parsing and formatting responses, the JSON input and output lines, the keep-running marker.
- :mod:`mjarena.protocol.process`: :class:`BotProcess`, a bot program run as a subprocess in restart or
  keep-running mode, with wall-time, memory and output limits.
  Beside it, :mod:`mjarena.protocol.bot_pipes` (a running program's pipes and the one wait on it) and
  :mod:`mjarena.protocol.bot_failures` (a bot's failure in words).
- :mod:`mjarena.protocol.transport`: the :class:`Transport` interface (``ask``/``close``), its two kinds:
  :class:`ProcessTransport` (around a :class:`BotProcess`) and :class:`ScriptedTransport` (a mock bot for
  transcript-style tests), and the :class:`Reply` and :class:`Exchange` records.

The agent that plays a seat through a transport is :class:`mjarena.agents.botzone_agent.BotzoneAgent`; the
errors (:class:`BotError` and its subclasses) live in :mod:`mjarena.agents.errors` and are re-exported here.
"""

from mjarena.agents.errors import (
    AgentError,
    BotBadOutput,
    BotCrash,
    BotError,
    BotMemoryError,
    BotOutputLimit,
    BotTimeout,
    IllegalAnswer,
)
from mjarena.protocol.botzone import (
    KEEP_RUNNING,
    Request,
    decode_output,
    encode_input,
    encode_output,
    encode_request,
    format_response,
    parse_response,
    request_kind,
    requests_for,
)
from mjarena.protocol.process import BotProcess, ProcessTransport
from mjarena.protocol.transport import Exchange, Reply, ScriptedTransport, Transport

__all__ = [
    "KEEP_RUNNING",
    "AgentError",
    "BotBadOutput",
    "BotCrash",
    "BotError",
    "BotMemoryError",
    "BotOutputLimit",
    "BotProcess",
    "BotTimeout",
    "Exchange",
    "IllegalAnswer",
    "ProcessTransport",
    "Reply",
    "Request",
    "ScriptedTransport",
    "Transport",
    "decode_output",
    "encode_input",
    "encode_output",
    "encode_request",
    "format_response",
    "parse_response",
    "request_kind",
    "requests_for",
]
