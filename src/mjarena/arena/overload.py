"""Whether the judge's machine was overloaded while bots answered, read from their transcripts (a replay's
``transcripts``): each exchange's ``queued_ms`` is the time the bot's threads waited, ready to run, for a CPU.
That time is the judge's, not the bot's (its deadline moved by it: docs/protocol.md, "Time"), but a run that
saw much of it is worth saying so: its figures are slower than the bots are, and a verdict reached then is
marked (``overloaded`` on the exchange).

>>> transcripts = {"0": [{"elapsed_ms": 300.0, "queued_ms": 450.0}, {"elapsed_ms": 20.0, "queued_ms": 1.0}],
...                "1": [{"elapsed_ms": 5.0}]}
>>> load = Overload.of([transcripts], time_limit=1.0)
>>> load.answers, load.waited, load.most, load.slowed
(3, 0.451, 0.45, 1)
>>> load.line()[:84]
"the judge's machine was overloaded: the bots waited 0.451 s for a CPU over 3 answers"
>>> Overload.of([{"0": [{"elapsed_ms": 3.0, "queued_ms": 2.0}]}], time_limit=1.0).line() is None
True

A worker that plays many games sends back each game's four figures (:meth:`Overload.figures`), and the parent
adds them (:meth:`Overload.summed`): no transcript is read twice, none travels to be read.

>>> total = Overload.summed([load.figures(), (5, 0.02, 0.02, 0)], time_limit=1.0)
>>> total.figures(), total.to_json()["waited_s"]
((8, 0.471, 0.45, 1), 0.471)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["SHARE", "Overload"]

SHARE = 0.1
"""An answer that waited for a CPU more than this share of its time limit was slowed by the machine's load (the
same share as :data:`mjarena.protocol.bot_pipes.OVERLOADED_SHARE`, which marks a verdict)."""


_SEQUENCES = frozenset({tuple, list})
_NUMBERS = frozenset({int, float})  # not bool: True is no count of answers


@dataclass(frozen=True)
class Overload:
    """The run-queue delay of a run's answers: ``answers`` counted, ``waited`` seconds in all, ``most`` on one
    answer, ``slowed`` answers that waited more than :data:`SHARE` of the time limit ``limit``."""

    answers: int
    waited: float
    most: float
    slowed: int
    limit: float

    @classmethod
    def of(cls, transcripts: Iterable[Mapping[Any, Any]], time_limit: float) -> Overload:
        """From the ``transcripts`` of one or more games (seat -> list of exchanges; anything else is skipped)."""
        answers = slowed = 0
        waited = most = 0.0
        for game in transcripts:
            for lines in game.values() if isinstance(game, Mapping) else ():
                for line in lines if isinstance(lines, list) else ():
                    queued = line.get("queued_ms") if isinstance(line, Mapping) else None
                    answers += 1
                    if not isinstance(queued, (int, float)) or isinstance(queued, bool) or queued <= 0:
                        continue
                    seconds = queued / 1000.0
                    waited += seconds
                    most = max(most, seconds)
                    slowed += seconds > SHARE * time_limit
        return cls(answers, round(waited, 6), round(most, 6), slowed, time_limit)

    @classmethod
    def summed(cls, parts: Iterable[Sequence[float]], time_limit: float) -> Overload:
        """The sum of several runs' :meth:`figures` (answers, waited, most, slowed); a part that is not four
        numbers is skipped (a record from before these figures were kept)."""
        answers = slowed = 0
        waited = most = 0.0
        for part in parts:  # once a game in a tournament's parent: checked by exact types, not isinstance calls
            if type(part) not in _SEQUENCES or len(part) != 4 or not {type(x) for x in part} <= _NUMBERS:
                continue
            answers += int(part[0])
            waited += float(part[1])
            most = max(most, float(part[2]))
            slowed += int(part[3])
        return cls(answers, round(waited, 6), round(most, 6), slowed, time_limit)

    def figures(self) -> tuple[int, float, float, int]:
        """``(answers, waited, most, slowed)``: what a worker sends back of a game, small to pickle."""
        return (self.answers, self.waited, self.most, self.slowed)

    def to_json(self) -> dict[str, Any]:
        """The figures by name, for a JSON report: ``answers``, ``waited_s``, ``most_s``, ``slowed`` and
        ``slowed_over_s`` (the wait that counts an answer as slowed)."""
        return {"answers": self.answers, "waited_s": self.waited, "most_s": self.most, "slowed": self.slowed,
                "slowed_over_s": round(SHARE * self.limit, 6)}

    def line(self) -> str | None:
        """One line saying that the machine was overloaded, with the figures; None when no answer was slowed."""
        if not self.slowed:
            return None
        plural = "answer" if self.slowed == 1 else "answers"
        return (f"the judge's machine was overloaded: the bots waited {self.waited:.3f} s for a CPU over "
                f"{self.answers} answers (most {self.most:.3f} s on one; {self.slowed} {plural} waited over "
                f"{SHARE * self.limit:.3f} s), not counted as their time")
