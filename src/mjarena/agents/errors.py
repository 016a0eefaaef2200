"""Why an agent failed to give an answer: the error vocabulary shared by agents, the bot judge and the match runner.

Every failure of an agent is an :class:`AgentError` with a ``reason`` (one word of the result vocabulary) and a
human-readable ``detail``.  A match runner needs only this module::

    try:
        action = agent.act(game, seat, legal)
    except AgentError as error:
        record(seat, error.reason, error.detail)   # then play for that seat

Bots that run as programs fail in five ways, each its own class under :class:`BotError`:

=====================  ================  ==========================================================
class                  ``reason``        when
=====================  ================  ==========================================================
:class:`BotTimeout`    ``timeout``       no complete answer within the time limit (own time)
:class:`BotCrash`      ``crash``         non-zero exit, killed by a signal, or a kept-running bot
                                         that exited before answering
:class:`BotMemoryError`  ``memory``      peak memory above the limit, or died of an allocation failure
:class:`BotOutputLimit`  ``output_limit``  printed more than the output limit
:class:`BotBadOutput`  ``bad_output``    printed nothing, not JSON, no string ``response``, or a
                                         response that is not a response of the protocol
=====================  ================  ==========================================================

:class:`JudgeError` is the other side: a failure that is not the bot's own (its build missing or replaced, its box
that cannot be made or cannot start it, the disk full).  It is no :class:`AgentError`: a match never records it
against a seat but stops the game with it, and whoever runs the game plays it again (a contest) or reports it
(a tournament, a match).

:class:`IllegalAnswer` (``illegal_action``) is an answer of the right form that the protocol itself forbids
(anything but ``PASS`` to a request that may only be acknowledged).  Answers that are well formed but not legal
in the game are the rules engine's business (:class:`mjarena.variants.base.IllegalAction`).

The errors survive pickling (for runners that play games in worker processes):

>>> import pickle
>>> error = pickle.loads(pickle.dumps(BotTimeout("no answer within 1.000 s", stderr="slow", elapsed=1.0)))
>>> error.reason, error.detail, error.stderr, error.elapsed, isinstance(error, AgentError)
('timeout', 'no answer within 1.000 s', 'slow', 1.0, True)
>>> str(bot_error("crash", "exit code 3"))
'crash: exit code 3'
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "BOT_REASONS",
    "AgentError",
    "BotBadOutput",
    "BotCrash",
    "BotError",
    "BotMemoryError",
    "BotOutputLimit",
    "BotTimeout",
    "IllegalAnswer",
    "JudgeError",
    "bot_error",
]

BOT_REASONS = ("timeout", "crash", "memory", "output_limit", "bad_output")
"""The reasons a bot program can fail for (in the order of the result vocabulary)."""


class AgentError(Exception):
    """An agent failed to answer: ``reason`` is one word of the result vocabulary, ``detail`` says what happened.

    Optional context: ``request`` (the request being answered), ``elapsed`` (seconds of its own time spent on
    it), ``queued`` (seconds it waited for a busy machine's CPU on top of that; ``overloaded`` when that was much:
    a verdict reached while the judge's machine was overloaded), ``stderr``
    (the tail of what a program wrote to its standard error).
    """

    reason: str = "error"

    def __init__(
        self,
        reason: str,
        detail: str,
        *,
        request: str | None = None,
        elapsed: float | None = None,
        stderr: str = "",
        queued: float | None = None,
        overloaded: bool = False,
    ) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail
        self.request = request
        self.elapsed = elapsed
        self.stderr = stderr
        self.queued = queued
        self.overloaded = overloaded

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}"

    def __reduce__(self) -> tuple[Any, ...]:
        extra = {"request": self.request, "elapsed": self.elapsed, "stderr": self.stderr, "queued": self.queued,
                 "overloaded": self.overloaded}
        return (_rebuild, (type(self), self.reason, self.detail, extra))


def _rebuild(cls: type[AgentError], reason: str, detail: str, extra: dict[str, Any]) -> AgentError:
    error = cls.__new__(cls)
    AgentError.__init__(error, reason, detail, **extra)
    return error


class JudgeError(Exception):
    """The judge, not the bot, failed: the game it happened in stands for nothing (no seat's result).

    >>> import pickle
    >>> str(pickle.loads(pickle.dumps(JudgeError("the bot's build is gone: /b/work"))))
    "the bot's build is gone: /b/work"
    """


class IllegalAnswer(AgentError):
    """A well-formed answer that the protocol forbids here (reason ``illegal_action``)."""

    def __init__(self, detail: str, **context: Any) -> None:
        super().__init__("illegal_action", detail, **context)


class BotError(AgentError):
    """A bot program failed; ``reason`` is one of :data:`BOT_REASONS`.  Use the subclasses (or :func:`bot_error`)."""

    fixed_reason: ClassVar[str] = ""

    def __init__(self, reason: str, detail: str, **context: Any) -> None:
        if reason not in BOT_REASONS:
            raise ValueError(f"unknown bot error reason {reason!r}; known: {', '.join(BOT_REASONS)}")
        super().__init__(reason, detail, **context)


class _FixedBotError(BotError):
    def __init__(self, detail: str, **context: Any) -> None:
        super().__init__(self.fixed_reason, detail, **context)


class BotTimeout(_FixedBotError):
    """No complete answer within the time limit, in the bot's own time (reason ``timeout``)."""

    fixed_reason = "timeout"


class BotCrash(_FixedBotError):
    """The program exited abnormally, or a kept-running program exited before answering (reason ``crash``)."""

    fixed_reason = "crash"


class BotMemoryError(_FixedBotError):
    """The program used more memory than allowed (reason ``memory``)."""

    fixed_reason = "memory"


class BotOutputLimit(_FixedBotError):
    """The program printed more than the output limit (reason ``output_limit``)."""

    fixed_reason = "output_limit"


class BotBadOutput(_FixedBotError):
    """The program's output is not an answer of the protocol (reason ``bad_output``)."""

    fixed_reason = "bad_output"


_CLASSES: dict[str, type[_FixedBotError]] = {
    cls.fixed_reason: cls for cls in (BotTimeout, BotCrash, BotMemoryError, BotOutputLimit, BotBadOutput)
}


def bot_error(reason: str, detail: str, **context: Any) -> BotError:
    """The :class:`BotError` subclass instance for ``reason``."""
    try:
        cls = _CLASSES[reason]
    except KeyError:
        raise ValueError(f"unknown bot error reason {reason!r}; known: {', '.join(BOT_REASONS)}") from None
    return cls(detail, **context)
