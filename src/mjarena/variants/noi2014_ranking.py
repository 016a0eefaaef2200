"""Ranking one NOI 2014 game: winners, then target hands (海明距离, 胡牌机会值), then players who erred.

The spec's rules ("排名规则"), with RULINGS.md where the spec is silent:

- "已胡牌的选手排名优于未胡牌的选手" and "按照胡牌的顺序进行排名": winners first, in the order they won.
- "流局的选手需给出自己想要胡牌的牌型 ... 海明距离少的靠前": when the wall ran out, each player still in names a
  target hand; its distance is the size of the multiset symmetric difference between the target and the
  player's whole hand (concealed and melded tiles, a kong's fourth tile included).  The spec's examples:
  "只需要拿到 X 即可胡牌，所以海明距离为 1" and "需要得到 X, Y，并打出 Z，海明距离为 3".
- A target must be a winning shape, "4 个句子和 1 副将牌" of "14 至 18 张" tiles (kongs as 4-tile sets), at
  most 4 of a kind, NOI kinds only; anything else counts as :data:`WORST_DISTANCE`.
- "若出现海明距离相同，则根据选手的胡牌机会值进行排名 ... 胡牌机会值越大的选手排位越靠前": see
  :func:`chance_value`.  "若两名选手胡牌机会值仍然相同，则视为平局": a tie.
- When only one player is left (the game did not run out of tiles) it ranks after all winners, no target.
- Players who erred (the ``errors`` mapping, and every seat that left after a false HU) rank below all
  others, tied among themselves.
- "第一名 4 分，第二名 3 分，第三名 2 分，第四名 1 分。若出现名次相同，则给对应名次平均分": see
  :func:`points_for_ranks`.

>>> points_for_ranks([1, 2, 2, 4])
[4.0, 2.5, 2.5, 1.0]
>>> target_distance([0, 0, 0], counts_of([0, 0, 1]))
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any, NamedTuple

from mjarena.hand.standard import is_winning
from mjarena.tiles import counts_of

__all__ = [
    "ERROR_REASONS",
    "NOI_KINDS",
    "WORST_DISTANCE",
    "SeatResult",
    "chance_value",
    "is_winning_shape",
    "points_for_ranks",
    "rank",
    "target_distance",
    "whole_hand_counts",
    "winner_results",
]

NOI_KINDS = 27
"""Kinds 0..26: W1-W9, B1-B9, T1-T9."""
WORST_DISTANCE = 99
"""The distance of a malformed or non-winning target: more than any real one (at most 18 + 17 tiles)."""
ERROR_REASONS = ("timeout", "crash", "memory", "output_limit", "bad_output", "illegal_action", "false_hu")


class SeatResult(NamedTuple):
    """One seat's result.  ``status`` is ``won``, ``in`` or ``error``; ``rank`` is 1-based (ties share the
    better rank); ``distance``, ``chance`` and ``target`` are set for players still in at an exhausted end
    (``target`` as answered, even when malformed, unless it is not a list of NOI kinds: then None; a
    malformed target has distance :data:`WORST_DISTANCE` and chance None).  ``reason`` is the error reason
    of an ``error`` seat."""

    seat: int
    status: str
    rank: int
    points: float
    distance: int | None = None
    chance: int | None = None
    target: tuple[int, ...] | None = None
    reason: str | None = None


def winner_results(winner: int | None, points: float, seats: int = 4) -> list[SeatResult]:
    """The results of a one-winner hand (THUPC 2021, 百搭): the winner ranks 1st with ``points``, the others
    2nd with 0; a drawn hand (``winner`` None) ranks everyone 1st with 0.

    >>> [(r.status, r.rank, r.points) for r in winner_results(2, 4.0)][1:3]
    [('in', 2, 0.0), ('won', 1, 4.0)]
    """
    loser_rank = 1 if winner is None else 2
    return [
        SeatResult(seat, "won", 1, points) if seat == winner else SeatResult(seat, "in", loser_rank, 0.0)
        for seat in range(seats)
    ]


def points_for_ranks(ranks: Sequence[int]) -> list[float]:
    """The points of each seat from its rank: n, n-1, ..., 1 for n seats; tied ranks share the average.

    Ranks are 1-based and tied seats share the better rank ("两人并列第 2，则得分为第二名的 3 分加上第三名的
    2 分的平均值，即 2.5 分"):

    >>> points_for_ranks([1, 1, 1, 1])
    [2.5, 2.5, 2.5, 2.5]
    >>> points_for_ranks([2, 1, 3, 3])
    [3.0, 4.0, 1.5, 1.5]
    >>> points_for_ranks([1, 2, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: ranks [1, 2, 2, 3] are not 1-based ranks where ties share the better rank
    """
    n = len(ranks)
    ordered = sorted(ranks)
    if any(r != ordered.index(r) + 1 for r in ordered):
        raise ValueError(f"ranks {list(ranks)} are not 1-based ranks where ties share the better rank")
    scale = [float(n - i) for i in range(n)]
    points = []
    for r in ranks:
        tied = ordered.count(r)
        points.append(sum(scale[r - 1 : r - 1 + tied]) / tied)
    return points


def is_winning_shape(tiles: Iterable[Any], seven_pairs: bool = False) -> bool:
    """Whether ``tiles`` (kinds) make "4 个句子和 1 副将牌": 14 to 18 NOI tiles, at most 4 of a kind, where
    each of ``len - 14`` kinds held four times may be a kong (a 4-tile set).

    >>> from mjarena.tiles import parse_tiles
    >>> is_winning_shape(parse_tiles("B1 B2 B3 B2 B3 B4 t2 t2 t2 t2 T4 T5 T6 W8 W8"))
    True
    >>> is_winning_shape(parse_tiles("B1 B2 B3 B2 B3 B4 T2 T2 T2 T4 T5 T6 W8 W9"))
    False
    """
    tiles = list(tiles)
    if not 14 <= len(tiles) <= 18 or any(type(k) is not int or not 0 <= k < NOI_KINDS for k in tiles):
        return False
    counts = counts_of(tiles)
    if max(counts) > 4:
        return False
    kongs = len(tiles) - 14
    fours = [k for k in range(NOI_KINDS) if counts[k] == 4]
    for chosen in combinations(fours, kongs):
        rest = counts.copy()
        for kind in chosen:
            rest[kind] = 0
        if is_winning(rest, melds=kongs):
            return True
    return seven_pairs and kongs == 0 and all(c % 2 == 0 for c in counts)


def whole_hand_counts(concealed: Sequence[int], melds: Iterable[Any]) -> list[int]:
    """The count vector (27 kinds) of concealed tiles plus melded ones (3 for a peng, 4 for a gang).

    >>> from mjarena.variants.noi2014 import Meld
    >>> whole_hand_counts(counts_of([1, 2]), [Meld("gang", 1, "open")])[:3]
    [0, 5, 1]
    """
    counts = list(concealed[:NOI_KINDS])
    for meld in melds:
        counts[meld.kind] += 4 if meld.type == "gang" else 3
    return counts


def target_distance(target: Sequence[int], whole: Sequence[int]) -> int:
    """海明距离: the size of the multiset symmetric difference of a target and a whole hand (counts).

    The spec's second example: a hand that needs two tiles and must discard one is at distance 3.

    >>> hand = counts_of([0, 1, 2, 3, 4, 5, 9, 10, 11, 18, 18, 20, 26])
    >>> target_distance([0, 1, 2, 3, 4, 5, 9, 10, 11, 18, 18, 19, 20, 21], hand)
    3
    """
    wanted = counts_of(target)
    return sum(abs(wanted[k] - whole[k]) for k in range(NOI_KINDS))


def chance_value(target: Sequence[int], whole: Sequence[int], positions: Sequence[int]) -> int:
    """胡牌机会值: the smallest last-appearance position among the kinds the player lacks.

    ``positions[k]`` is where kind ``k`` last appears: the discards are positions 1..N in order (ponged,
    konged and won-on tiles included) and every hand at the end shares position N + 1.  "min{P_i = 最后一张牌
    i 出现的位置 | i 为该选手胡牌需要的牌}".  A player that lacks nothing gets the largest position (N + 1 or
    more, as ``max(positions)``).

    >>> positions = [0] * 27
    >>> positions[3], positions[7] = 30, 41
    >>> chance_value([3, 7], [0] * 27, positions)
    30
    """
    wanted = counts_of(target)
    lacking = [positions[k] for k in range(NOI_KINDS) if wanted[k] > whole[k]]
    return min(lacking) if lacking else max(positions)


def _last_positions(game: Any) -> list[int]:
    """Last appearance of each kind: discard positions 1..N, every hand (and meld) at N + 1."""
    positions = [0] * NOI_KINDS
    for position, kind in enumerate(game.discards, start=1):
        positions[kind] = position
    at_end = len(game.discards) + 1
    for seat in range(4):
        whole = whole_hand_counts(game.hands[seat].counts, game.melds[seat])
        for kind in range(NOI_KINDS):
            if whole[kind]:
                positions[kind] = at_end
    return positions


def _read_target(answer: Any, seven_pairs: bool) -> tuple[tuple[int, ...] | None, bool]:
    """(the answer as a tuple of kinds, or None if it is not a sequence of NOI kinds; whether it wins)."""
    if answer is None or isinstance(answer, (str, bytes)):
        return None, False
    try:
        tiles = tuple(answer)
    except TypeError:
        return None, False
    if any(type(kind) is not int or not 0 <= kind < NOI_KINDS for kind in tiles):
        return None, False
    return tiles, is_winning_shape(tiles, seven_pairs)


def rank(
    game: Any,
    targets: Mapping[int, Sequence[int] | None] | None = None,
    errors: Mapping[int, str] | None = None,
) -> list[SeatResult]:
    """Rank the seats of a finished :class:`~mjarena.variants.noi2014.NoiGame`; one result per seat, by seat.

    ``targets`` defaults to ``game.targets`` (the answers to the ``target`` decision); ``errors`` maps a
    seat to its error reason.  A seat that left after a false HU counts as an error (``false_hu``) even if
    ``errors`` does not name it.

    >>> from mjarena.agents.builtin import GreedyAgent
    >>> from mjarena.variants.base import play
    >>> from mjarena.variants.noi2014 import NoiGame, shuffled_wall
    >>> results = rank(play(NoiGame(shuffled_wall(seed=3)), [GreedyAgent()] * 4))
    >>> sum(r.points for r in results)
    10.0
    """
    if game.decision is not None:
        raise ValueError("the game is not over: rank it after its last event")
    targets = game.targets if targets is None else targets
    errors = dict(errors or {})
    for seat in range(4):
        if game.status[seat] == "out":
            errors.setdefault(seat, "false_hu")
    groups: list[list[SeatResult]] = []
    for seat in game.win_order:
        if seat not in errors:
            groups.append([SeatResult(seat, "won", 0, 0.0)])
    rest = [seat for seat in range(4) if game.status[seat] == "in" and seat not in errors]
    if game.exhausted:
        groups += _rank_targets(game, rest, targets)
    elif rest:
        groups.append([SeatResult(seat, "in", 0, 0.0) for seat in rest])
    erred = [SeatResult(seat, "error", 0, 0.0, reason=errors[seat]) for seat in sorted(errors)]
    if erred:
        groups.append(erred)
    return _assign(groups)


def _rank_targets(game: Any, seats: list[int], targets: Mapping[int, Sequence[int] | None]) -> list[list]:
    seven_pairs = getattr(getattr(game, "options", None), "seven_pairs", False)
    positions = _last_positions(game)
    scored = []
    for seat in seats:
        whole = whole_hand_counts(game.hands[seat].counts, game.melds[seat])
        target, valid = _read_target(targets.get(seat), seven_pairs)
        if not valid:
            distance, chance = WORST_DISTANCE, None
        else:
            assert target is not None
            distance, chance = target_distance(target, whole), chance_value(target, whole, positions)
        scored.append(SeatResult(seat, "in", 0, 0.0, distance, chance, target))
    scored.sort(key=_target_key)
    groups: list[list[SeatResult]] = []
    for result in scored:
        if groups and _target_key(groups[-1][0]) == _target_key(result):
            groups[-1].append(result)
        else:
            groups.append([result])
    return groups


def _target_key(result: SeatResult) -> tuple[int, int]:
    assert result.distance is not None
    return result.distance, -(result.chance if result.chance is not None else -1)


def _assign(groups: list[list[SeatResult]]) -> list[SeatResult]:
    ranked: list[SeatResult] = []
    place = 1
    for group in groups:
        ranked += [result._replace(rank=place) for result in group]
        place += len(group)
    points = points_for_ranks([r.rank for r in ranked])
    ranked = [r._replace(points=p) for r, p in zip(ranked, points, strict=True)]
    return sorted(ranked, key=lambda r: r.seat)
