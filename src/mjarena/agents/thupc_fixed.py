"""The THUPC 2021 statement's fixed strategy, as an agent that can sit at any seat.

- Special tiles go first, PASS before REVERSE before DOUBLE; PASS names the discarder's next player.
- Otherwise discard the tile that leaves the lowest exchange distance; ties go by the order
  Z F B N W S E 9S ... 1S 9P ... 1P 9M ... 1M (the highest kind number first).
- Always win when it can (RON or SELFDRAWN).  PONG, else CHOW, only if it strictly lowers the distance;
  among CHOWs that do, the one with the largest numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjarena.agents.builtin import RandomAgent
from mjarena.tiles import DOUBLE, PASS, REVERSE, STANDARD_KINDS
from mjarena.variants.base import Action

__all__ = ["THUPC_AGENTS", "FixedStrategy"]

_SPECIAL_ORDER = (PASS, REVERSE, DOUBLE)


class FixedStrategy:
    """The statement's strategy for the :class:`~mjarena.variants.thupc2021.ThupcGame` rules."""

    name = "thupc-fixed"

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` is accepted like every built-in agent's; the strategy is deterministic."""

    def act(self, game, seat: int, legal: Sequence[Action]) -> Action:
        hand = game.hands[seat]
        first = legal[0]
        if first.type == "self_drawn":
            return first
        if first.type == "discard":
            return self._discard(game, seat, hand)
        return self._claim(game, hand, legal)

    @staticmethod
    def _discard(game, seat: int, hand) -> Action:
        counts = hand.counts
        if hand.extra:
            for kind in _SPECIAL_ORDER:
                if counts[kind]:
                    return Action("discard", kind, game.next_seat(seat) if kind == PASS else None)
        kinds = [kind for kind in range(STANDARD_KINDS - 1, -1, -1) if counts[kind]]  # the tie order
        distances = hand.distances_without(kinds)
        return Action("discard", kinds[distances.index(min(distances))])

    @staticmethod
    def _claim(game, hand, legal: Sequence[Action]) -> Action:
        kind = game.claimable
        now = None
        chows: list[tuple[int, Action]] = []  # (the run's lowest tile, the CHOW)
        for action in legal:
            if action.type == "ron":
                return action
            if action.type == "pong":
                now = hand.distance()
                if hand.distance_without(kind, copies=2, extra_melds=1) < now:
                    return action
            elif action.type == "chow":
                assert action.tile is not None  # the rules' CHOW names its run's lowest tile
                chows.append((action.tile, action))
        if chows:
            now = hand.distance() if now is None else now
            for low, action in sorted(chows, key=lambda chow: -chow[0]):
                others = [t for t in (low, low + 1, low + 2) if t != kind]
                if hand.distance_without_pair(others[0], others[1]) < now:
                    return action
        return legal[-1]  # the "pass" action closes every list of claim options


THUPC_AGENTS: dict[str, type] = {"fixed": FixedStrategy, "greedy": FixedStrategy, "random": RandomAgent}
"""The built-in THUPC agents: ``fixed`` (the statement's strategy; also named ``greedy``, as it is the greedy
player of the other rule sets) and ``random``."""
