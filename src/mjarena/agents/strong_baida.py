"""What the 百搭 strong player (:class:`~mjarena.agents.strong.StrongBaidaAgent`) assumes about the table.

Two estimates from public information only (the discards in order, the melds, the tiles in one's own hand):

- **Arrival** (:meth:`Table.arrival`): how fast one unseen copy of a useful kind can reach the hand.  Every
  player draws once a round, so each copy has ``1 / N`` chance to be the draw (``N``: every unseen copy).  A
  copy can also come from another player's discard: with a win (a ready hand wins on any discard) or a PENG
  (two held) from each of the three others' discards, with a CHI (a run with two held tiles) from the previous
  player's only.  How often a discard is one given kind depends on the kind and the stage of the hand: the
  bots here drop honours and terminals first and keep 5s longest (:data:`DISCARD_RATES`, measured on 1,500
  games of ``builtin:strong`` against ``builtin:greedy``; ``tools/fit_baida_model.py`` measures it again).  A
  claimed tile counts at :data:`CLAIM_SHARE` of that rate: it comes as an open meld, which the hand can no
  longer rearrange.  A wildcard is only ever drawn (a discarded one is dead).
- **Danger** (:meth:`Table.danger`): the chance that discarding a kind lets another player win.  Exact zeros
  first (:func:`exactly_safe`): a kind that a player let pass since their own last discard (including that
  discard) does not complete their hand, for their concealed hand has not changed since and every player
  declares a win it can (it is worth the whole 4 points; every built-in bot does) -- at a claim, the discard
  being claimed counts as let pass by everyone, for the claimer discards next only if nobody won on it; a
  player with four melds holds one tile and wins only on a 2-5-8 pair; a wildcard can never be claimed.
  Otherwise a logistic model per opponent (:data:`DANGER_MODEL` over :func:`danger_features`, fitted on about
  10 million (decision, opponent, kind) cases of 5,000 such games): the kind's class, the stage, the copies
  visible, the opponent's melds, and whether the opponent discarded that kind (sixteen times safer) or its
  neighbours before.

>>> from types import SimpleNamespace
>>> from mjarena.variants.base import Event
>>> events = [Event("play", 0, (13,)), Event("play", 1, (4,)), Event("play", 2, (29,))]  # 5p, 5m, West
>>> table = Table.of(SimpleNamespace(events=events, discards=[13, 4, 29], melds=[[], [], [], []]), seat=3)
>>> [sorted(opponent.passed) for opponent in table.opponents]  # seats 0, 1, 2
[[4, 13, 29], [4, 29], [29]]
>>> table.danger(29, visible=1)  # West: every other player let it pass
0.0
>>> round(table.danger(4, visible=1), 4), round(table.danger(22, visible=1), 4)  # 5m: only seat 2 may win; 5s: all
(0.0021, 0.0064)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from mjarena.tiles import WILD

__all__ = [
    "CLAIM_SHARE", "DANGER_FEATURES", "DANGER_MODEL", "DISCARD_RATES", "Opponent", "Table", "claim_share",
    "danger_features", "exactly_safe", "tile_class",
]

STAGE_DISCARDS = 8
"""Discards (by all players) per stage of :data:`DISCARD_RATES` and of the danger model's ``stage``."""

DISCARD_RATES: tuple[tuple[float, ...], ...] = (
    (8.17, 5.68, 0.57, 0.50, 0.32, 0.15),
    (7.02, 3.20, 1.84, 1.74, 1.34, 0.71),
    (4.03, 3.43, 2.82, 2.62, 2.44, 1.33),
    (2.85, 3.43, 2.96, 3.13, 2.89, 1.87),
    (2.91, 3.65, 2.85, 3.09, 2.90, 1.57),
)
"""Percent of the discards that are one given kind, by stage (discards 0-7, 8-15, 16-23, 24-31, 32 on) and by
:func:`tile_class` (honour, 1/9, 2/8, 3/7, 4/6, 5)."""

CLAIM_SHARE = 0.5
"""The weight of a tile that would come by a claim, as a share of its discard rate (see the module docstring);
half: the measured best of 0.5 and 1 (1,000 duplicate sets each on seeds 3, 4, 5)."""

DANGER_FEATURES = (
    "bias", "1/9", "2/8", "3/7", "4/6", "5", "stage", "stage^2", "honour x stage", "visible 1", "visible 2",
    "visible 3", "melds 1", "melds 2", "melds 3+", "discarded", "suji", "next to", "two from",
)
"""The terms of the danger model (:func:`danger_features`)."""

DANGER_MODEL = (
    -8.403, 0.845, 1.711, 1.425, 1.404, 1.910, 2.139, -0.269, -0.072, -0.277, -0.563,
    -0.911, 0.388, 0.693, 0.706, -2.763, -0.144, -0.174, -0.101,
)
"""Logistic coefficients of the chance that one opponent wins on one kind, one per :data:`DANGER_FEATURES`
(``tools/fit_baida_model.py`` fits them)."""


def tile_class(kind: int) -> int:
    """0 for an honour, else 1 + the distance of the rank from the nearer end: 1/9 -> 1, 2/8 -> 2, ..., 5 -> 5.

    >>> [tile_class(kind) for kind in (0, 1, 4, 7, 8, 27)]
    [1, 2, 5, 2, 1, 0]
    """
    if kind >= 27:
        return 0
    rank = kind % 9
    return min(rank, 8 - rank) + 1


def _pair_258(kind: int) -> bool:
    return kind < 27 and kind % 9 in (1, 4, 7)


def danger_features(kind: int, visible: int, discards: int, opponent: Opponent) -> list[float]:
    """The terms of :data:`DANGER_FEATURES` for discarding ``kind`` towards ``opponent``: the kind's class (vs
    an honour), the stage (discards so far / 10) and its square, the stage again for an honour, the copies
    ``visible`` to the discarder (1, 2, 3 vs none), the opponent's melds (1, 2, 3 or more vs none), whether it
    discarded this kind before, and the same-suit kinds 3 (suji), 1 and 2 away among its discards.

    >>> danger_features(13, 1, 20, Opponent(1, frozenset({10}), frozenset()))[5:]  # 5p; 2p discarded (suji)
    [1.0, 2.0, 4.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    """
    stage = discards / 10
    cls = tile_class(kind)
    row = [1.0] + [float(cls == c) for c in range(1, 6)] + [stage, stage * stage, stage if cls == 0 else 0.0]
    row += [float(visible == v) for v in (1, 2, 3)] + [float(min(opponent.melds, 3) == m) for m in (1, 2, 3)]
    seen = opponent.discarded
    row.append(float(kind in seen))
    rank = kind % 9
    for offset in (3, 1, 2):
        row.append(float(kind < 27 and ((rank >= offset and kind - offset in seen)
                                        or (rank + offset <= 8 and kind + offset in seen))))
    return row


def exactly_safe(kind: int, opponent: Opponent) -> bool:
    """Whether ``kind`` certainly does not complete ``opponent``'s hand: it let the kind pass since its own last
    discard, or it has four melds and the kind cannot make a 2-5-8 pair.  (A wildcard never can: it is dead.)"""
    return kind == WILD or kind in opponent.passed or (opponent.melds >= 4 and not _pair_258(kind))


def claim_share(counts: Sequence[int], kind: int, ready: bool) -> float:
    """The share of the other players' discards a useful ``kind`` can be claimed from, once drawn into
    ``counts`` (which already holds it): a win or a PENG, every discard (1); a CHI only, the previous player's
    (1/3); else 0 (only a draw brings it).  A wildcard is never claimed.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> claim_share(counts_of(parse_mpsz("555m8p")), 4, ready=False)  # 5m drawn to a pair: a PENG takes it too
    1.0
    >>> round(claim_share(counts_of(parse_mpsz("456m8p")), 4, ready=False), 3)  # between 4m and 6m: a CHI
    0.333
    >>> claim_share(counts_of(parse_mpsz("456m8p")), 16, ready=False), claim_share([0] * 38, 37, ready=True)
    (0.0, 0.0)
    """
    if kind == WILD:
        return 0.0
    if ready or counts[kind] >= 3:
        return 1.0
    if kind < 27:
        rank, c = kind % 9, counts
        if (rank >= 2 and c[kind - 2] and c[kind - 1]) or (1 <= rank <= 7 and c[kind - 1] and c[kind + 1]) \
                or (rank <= 6 and c[kind + 1] and c[kind + 2]):
            return 1.0 / 3.0
    return 0.0


class Opponent(NamedTuple):
    """What the table shows of one other player: ``melds`` laid down, every kind it ever ``discarded``, and the
    kinds it let ``passed`` since its own last discard (that discard included)."""

    melds: int
    discarded: frozenset[int]
    passed: frozenset[int]


class Table:
    """The public view of one decision: ``discards`` so far (by everyone) and each other player's
    :class:`Opponent`.  :meth:`of` reads them off a game; ``Table()`` is the opening (nothing shown yet)."""

    def __init__(self, discards: int = 0, opponents: Sequence[Opponent] = ()) -> None:
        self.discards = discards
        self.stage = min(discards // STAGE_DISCARDS, len(DISCARD_RATES) - 1)
        self.opponents = list(opponents)

    @classmethod
    def of(cls, game: Any, seat: int) -> Table:
        """The view of ``seat`` in ``game``: ``play`` events in order (``game.events``) and ``game.melds``."""
        plays = [(event.seat, event.tiles[0]) for event in game.events if event.type == "play"]
        last = {player: index for index, (player, _) in enumerate(plays)}
        return cls(len(game.discards), [
            Opponent(len(game.melds[other]), frozenset(kind for player, kind in plays if player == other),
                     frozenset(kind for _, kind in plays[last[other]:]) if other in last else frozenset())
            for other in range(4) if other != seat
        ])

    def arrival(self, kind: int, copies: int, total: int, share: float) -> float:
        """The arrival weight of ``copies`` unseen copies of a useful ``kind`` (``total`` unseen copies in all;
        ``share`` from :func:`claim_share`): ``copies * (1 / total + CLAIM_SHARE * share * rate)``."""
        weight = 1.0 / total
        if share:
            weight += CLAIM_SHARE * share * DISCARD_RATES[self.stage][tile_class(kind)] / 100.0
        return copies * weight

    def danger(self, kind: int, visible: int) -> float:
        """The chance that discarding ``kind`` lets some other player win (``visible``: copies seen at the table
        or held by the discarder, the discarded one included)."""
        if kind == WILD or visible >= 4:
            return 0.0
        safe = 1.0
        for opponent in self.opponents:
            if not exactly_safe(kind, opponent):
                z = sum(c * x for c, x in zip(DANGER_MODEL, danger_features(kind, visible, self.discards, opponent),
                                              strict=True))
                safe *= 1.0 - 1.0 / (1.0 + math.exp(-z))
        return 1.0 - safe
