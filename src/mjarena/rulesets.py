"""The rule-set registry: what the judge needs to know of each rule set it can run matches of, looked up by name.

The rules engines know nothing of bots; the judge needs, per rule set, how to make and shuffle walls, which
protocol strings the bots speak, which built-in agents exist, how to rank a finished game, and in which
notation walls and events are written to JSON.

It sits below everything that plays, reads or shows games (agents' factory, replays, the environments, the arena,
the web app, the contest: docs/architecture.md), and above what it names: the rules engines, the protocols'
strings and the built-in players, each imported when its rule set is first asked for.

>>> judge_rules("noi").name, judge_rules("百搭").protocol.__name__
('noi2014', 'mjarena.protocol.baida')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from mjarena.formats import SEATS_NOI, SEATS_THUPC, noi_log, thupc_log
from mjarena.tiles import Notation, format_tile
from mjarena.variants import get_variant
from mjarena.variants.base import Event

__all__ = ["RULE_SETS", "JudgeRules", "judge_rules"]

def format_noi_tile(kind: int) -> str:
    """A tile's NOI 2014 (Botzone) name: ``W1`` ... ``T9``."""
    return format_tile(kind, "noi")


Ranker = Callable[[Any, Mapping[int, Sequence[int] | None], Mapping[int, str]], list[Any]]


@dataclass(frozen=True)
class JudgeRules:
    """One rule set as the judge sees it.

    ``hu_always_accepted``: the rules accept a HU that does not win (NOI 2014's 诈胡, a ``false_hu`` error)
    rather than refusing it as an illegal action.  ``seats`` names seats 0..3 and ``log`` writes a game's events
    as readable lines, each as the rule set's own texts do (THUPC's ``A OUT 1M``).  ``tile_name`` names a tile
    as the rule set's bots read it, and so as its log and the web app show it (百搭: ``F1`` for East, ``J1`` for
    中); walls and events in JSON are written in ``notation``.
    """

    name: str
    new_game: Callable[[Sequence[int]], Any]
    shuffled_wall: Callable[[int], list[int]]
    validate_wall: Callable[[Sequence[int]], None]
    rank: Ranker
    protocol: ModuleType
    agents: Mapping[str, Callable[..., Any]]
    notation: Notation
    hu_always_accepted: bool
    seats: tuple[str, ...] = SEATS_NOI
    log: Callable[[Sequence[Event]], list[str]] = noi_log
    tile_name: Callable[[int], str] = format_noi_tile


def _noi2014() -> JudgeRules:
    from mjarena.agents.builtin import BUILTIN_AGENTS
    from mjarena.agents.strong import StrongNoiAgent
    from mjarena.protocol import botzone
    from mjarena.variants import noi2014

    return JudgeRules(
        name="noi2014", new_game=noi2014.NoiGame, shuffled_wall=noi2014.shuffled_wall,
        validate_wall=noi2014.validate_wall, rank=noi2014.rank, protocol=botzone,
        agents={**BUILTIN_AGENTS, "strong": StrongNoiAgent},
        notation="noi", hu_always_accepted=True,
    )


def _errors_last(results: Sequence[Any], errors: Mapping[int, str]) -> list[Any]:
    """A one-winner ranking with erring seats last (tied) and no points, as in NOI 2014."""
    fine = [r for r in results if r.seat not in errors]
    last = 1 + len(fine)
    erred = [r._replace(status="error", rank=last, points=0.0, reason=errors[r.seat]) for r in results
             if r.seat in errors]
    return sorted(fine + erred, key=lambda r: r.seat)


def _baida() -> JudgeRules:
    from mjarena.agents.baida_agents import BAIDA_AGENTS
    from mjarena.agents.strong import StrongBaidaAgent
    from mjarena.protocol import baida as protocol
    from mjarena.variants import baida

    return JudgeRules(
        name="baida", new_game=baida.BaidaGame, shuffled_wall=baida.shuffled_wall,
        validate_wall=baida.validate_wall, rank=lambda game, _targets, errors: _errors_last(baida.rank(game), errors),
        protocol=protocol, agents={**BAIDA_AGENTS, "strong": StrongBaidaAgent}, notation="thupc",
        hu_always_accepted=False,
        log=lambda events: noi_log(events, tile_name=protocol.format_tile), tile_name=protocol.format_tile,
    )


def _thupc2021() -> JudgeRules:
    from mjarena.agents.strong import StrongThupcAgent
    from mjarena.agents.thupc_fixed import THUPC_AGENTS
    from mjarena.protocol import thupc as protocol
    from mjarena.variants import thupc2021

    return JudgeRules(
        name="thupc2021", new_game=thupc2021.ThupcGame, shuffled_wall=thupc2021.shuffled_wall,
        validate_wall=thupc2021.validate_wall,
        rank=lambda game, _targets, errors: _errors_last(thupc2021.rank(game), errors),
        protocol=protocol, agents={**THUPC_AGENTS, "strong": StrongThupcAgent}, notation="thupc",
        hu_always_accepted=False,
        seats=SEATS_THUPC, log=thupc_log, tile_name=format_tile,
    )


RULE_SETS: dict[str, Callable[[], JudgeRules]] = {"noi2014": _noi2014, "baida": _baida, "thupc2021": _thupc2021}


def judge_rules(name: str) -> JudgeRules:
    """The judge's view of a rule set, by name or alias; KeyError naming the ones the judge can run."""
    try:
        canonical = get_variant(name).name
    except KeyError:
        canonical = name
    if canonical not in RULE_SETS:
        raise KeyError(f"no matches of {name!r}; the judge runs: {', '.join(RULE_SETS)}")
    return RULE_SETS[canonical]()
