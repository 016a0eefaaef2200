"""``builtin:strong``: an expected-value player for NOI 2014, 百搭 and THUPC 2021.

Where :class:`~mjarena.agents.builtin.GreedyAgent` only lowers the exchange distance (和牌距离), this player
also counts what is left to draw, from public information only (its own hand, every discard and every meld):

- **Discards** (tile efficiency with wall counting): the discard that leaves the lowest distance, then the most
  *useful tiles still unseen* (kinds whose draw would lower the distance, each weighted by the copies nobody has
  shown; a 百搭 wildcard counts as useful whenever it lowers the distance), then the tile least connected to the
  rest (百搭 weighs each useful tile and breaks near-ties by danger, below).  Distances are the rule set's
  exact table distance (:func:`mjarena.hand.wild.distance`: the 2-5-8 pair, wildcards and seven pairs of 百搭
  included; dead tiles such as THUPC's PASS must go).
- **Claims** by expected distance: PENG, CHI (CHOW) and open kongs are compared, each with its best discard,
  against passing; a claim is taken when it lowers the distance, or keeps it with more unseen useful tiles.
  Kongs from the hand are declared when they do not raise the distance (a kong brings a free draw).
- **NOI 2014 target hand** (the wall ran out): among the winning hands closest to the whole hand, the one with
  the highest 胡牌机会值 (the ranking's tie-break).  At that point every tile is in a hand, a meld or the
  discards, so a kind the target lacks appears "in a hand at the end" (the best position) unless all four
  copies were discarded and left unclaimed; the target avoids such dead kinds when the distance allows.
- **THUPC 2021 special tiles**: a hand holding one never wins, so they go first; DOUBLE (an extra turn at once)
  before PASS before REVERSE; PASS skips the opponent with the most melds (the one whose progress shows).
- **百搭** (:class:`StrongBaidaAgent`, the table model in :mod:`mjarena.agents.strong_baida`): the win is 4
  points whatever its 台 and whoever discarded it, so the player races.  Useful tiles are weighted by how they
  can arrive (a draw, or a claim from the others' discards at the rate the bots discard that kind), and among
  the discards that are (within 5%, once the hand is late) the fastest, the one least likely to let another
  player win goes.  The discarder's next player claims only to lower the distance (the claim takes the place of
  its draw).  It never gives up speed for safety: folding (the safest discard once the hand is three tiles or
  more from a win, late) measured 0.03 points a game *worse* (1,000 duplicate sets), and even a cheat that sees
  every hand and never deals in gains only 0.07.
- **Defence** elsewhere: none.  NOI 2014 ranks by the order of winning and THUPC pays the winner only; a tile is
  never held back for safety.

Deterministic: nothing is random (``seed`` is accepted like every built-in agent's).  Every decision is a few
hundred table look-ups (``benchmarks/strong.py`` prints the time per decision).

>>> from mjarena.arena.match import run_match
>>> result = run_match(["builtin:strong", "builtin:greedy"] * 2, seed=5)
>>> [(seat.bot, seat.points) for seat in result.seats][:2]
[('builtin:strong', 4.0), ('builtin:greedy', 2.0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjarena.agents.builtin import keep_value
from mjarena.agents.strong_baida import Table, claim_share
from mjarena.hand.options import RULES, HandRules
from mjarena.hand.wild import distance
from mjarena.tiles import DOUBLE, NUM_KINDS, PASS, REVERSE, WILD
from mjarena.variants.base import Action, tiles_of

__all__ = ["StrongBaidaAgent", "StrongNoiAgent", "StrongThupcAgent", "seen_tiles", "useful_tiles"]

_CLAIM_MELDS = {"peng": 2, "pong": 2, "gang": 3, "chi": 2, "chow": 2}
"""Tiles a claim takes from the claimer's hand (CHI/CHOW: the run less the claimed tile)."""
_DISCARD_EVENTS = ("play", "discard")


def seen_tiles(events: Sequence[Any]) -> list[int]:
    """Counts (38 kinds) of the tiles every player has seen: discards and melds, from a game's events.

    A claim shows the claimer's own tiles of the meld (the claimed discard was already seen), a concealed kong
    its four tiles, an added kong its fourth.

    >>> from mjarena.variants.base import Event
    >>> seen = seen_tiles([Event("play", 0, (4,)), Event("peng", 1, (4,)), Event("angang", 2, (7,))])
    >>> seen[4], seen[7]
    (3, 4)
    """
    seen = [0] * NUM_KINDS
    last = None
    for event in events:
        kind = event.type
        if kind in _DISCARD_EVENTS:
            last = event.tiles[0]
            seen[last] += 1
        elif kind in ("chi", "chow"):
            for tile in event.tiles:
                seen[tile] += 1
            if last is not None:
                seen[last] -= 1  # the claimed discard, counted when it was discarded
        elif kind in _CLAIM_MELDS:  # peng / pong (the tile, or the three tiles in THUPC), open gang
            tile = event.tiles[0]
            seen[tile] += _CLAIM_MELDS[kind]
        elif kind == "angang":
            seen[event.tiles[0]] += 4
        elif kind == "bugang":
            seen[event.tiles[0]] += 1
    return seen


def _drawable(rules: HandRules) -> list[int]:
    """The kinds a player can draw and that can help: live kinds, and the wildcard when the rules have one."""
    kinds = sorted(kind for kind in rules.kinds if kind != rules.wild_kind)
    return kinds + ([rules.wild_kind] if rules.wild_kind is not None else [])


def useful_tiles(counts: list[int], melds: int, rules: HandRules, unseen: Sequence[int],
                 now: int | None = None) -> int:
    """How many unseen tiles would lower the distance of a ``13 - 3 * melds`` hand (``counts`` is restored).

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> hand = counts_of(parse_mpsz("123m456p789s1122z"))
    >>> useful_tiles(hand, 0, RULES["thupc2021"], [4 - held for held in hand])  # 1z or 2z: two of each left
    4
    """
    now = distance(counts, melds, rules) if now is None else now
    total = 0
    for kind in _drawable(rules):
        if unseen[kind] > 0 and counts[kind] < (8 if kind == WILD else 4):
            counts[kind] += 1
            if distance(counts, melds, rules) < now:
                total += unseen[kind]
            counts[kind] -= 1
    return total


class _Player:
    """What the three rule sets share: the evaluation of discards and claims."""

    rules: HandRules
    name = "strong"

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` is accepted like every built-in agent's; the player is deterministic."""

    # -- evaluation -------------------------------------------------------------------------------------

    def unseen(self, game: Any, counts: Sequence[int]) -> list[int]:
        """Copies of each kind neither in this hand nor shown at the table (wildcards: 8 in all)."""
        seen = seen_tiles(game.events)
        return [(8 if kind == WILD else 4) - seen[kind] - counts[kind] for kind in range(NUM_KINDS)]

    def score(self, counts: list[int], melds: int, unseen: Sequence[int]) -> tuple[int, float]:
        """(distance, -useful unseen tiles) of a hand that waits (13 - 3n tiles): lower is better."""
        now = distance(counts, melds, self.rules)
        return now, -useful_tiles(counts, melds, self.rules, unseen, now)

    def discard_options(self, counts: list[int], melds: int, unseen: Sequence[int],
                        kinds: Sequence[int] | None = None) -> list[tuple[int, float, int, int]]:
        """(distance, score's second part, :func:`~mjarena.agents.builtin.keep_value`, kind) of each discard of a
        14 - 3n hand among ``kinds`` (default: every kind held), in kind order (``counts`` is restored)."""
        options = []
        for kind in sorted(set(kinds) if kinds is not None else (k for k in range(NUM_KINDS) if counts[k])):
            counts[kind] -= 1
            options.append((*self.score(counts, melds, unseen), keep_value(counts, kind), kind))
            counts[kind] += 1
        assert options, "a hand to discard from holds a tile"
        return options

    def best_discard(self, counts: list[int], melds: int, unseen: Sequence[int],
                     kinds: Sequence[int] | None = None) -> tuple[tuple[int, float], int]:
        """(score, kind) of the best discard of a 14 - 3n hand among ``kinds`` (default: every kind held): the
        lowest score, then keep value, then kind."""
        best = min(self.discard_options(counts, melds, unseen, kinds))
        return (best[0], best[1]), best[3]

    def decide(self, game: Any, seat: int, legal: Sequence[Action], counts: list[int]) -> Action:
        """A decision of NOI 2014 or 百搭 (the same verbs): HU, else a claim, else a discard or a kong."""
        if legal[0].type == "hu":
            return legal[0]
        melds = len(game.melds[seat])
        unseen = self.unseen(game, counts)
        if legal[-1].type == "pass":
            return self.claim(counts, melds, game.claimable, legal, unseen)
        return self.after_draw(counts, melds, legal, unseen)

    def after_draw(self, counts: list[int], melds: int, legal: Sequence[Action], unseen: Sequence[int]) -> Action:
        """The best ``play``; but a kong from the hand first when it leaves no higher distance (it brings a draw)."""
        (now, _), kind = self.best_discard(counts, melds, unseen, tiles_of(legal, "play"))
        for action in legal:
            if action.type == "gang" and action.tile is not None:
                copies, laid = (4, 1) if counts[action.tile] == 4 else (1, 0)  # concealed, or added to a PENG
                if distance(_less(counts, action.tile, copies), melds + laid, self.rules) <= now:
                    return action
        return Action("play", kind)

    def claim(self, counts: list[int], melds: int, kind: int, legal: Sequence[Action],
              unseen: Sequence[int]) -> Action:
        """PENG (and 百搭's CHI) when it beats passing, each with its best discard; an open kong when it keeps the
        distance (it brings a draw)."""
        if len(legal) == 1:
            return legal[0]
        choice, best = legal[-1], self.score(counts, melds, unseen)
        pengs = tiles_of(legal, "peng")
        if pengs:
            counts[kind] -= 2
            score, discard = self.best_discard(counts, melds + 1, unseen, pengs)
            counts[kind] += 2
            if score < best:
                choice, best = Action("peng", discard), score
        for low in sorted(set(tiles_of(legal, "chi"))):
            after = list(counts)
            after[kind] += 1
            for tile in (low, low + 1, low + 2):
                after[tile] -= 1
            discards = [a.tiles[0] for a in legal if a.type == "chi" and a.tile == low]
            score, discard = self.best_discard(after, melds + 1, unseen, discards)
            if score < best:
                choice, best = Action("chi", low, tiles=(discard,)), score
        for action in legal:
            if action.type == "gang" and action.tile is None:
                concealed = counts[kind] >= 3  # else the discard joins a PENG: the concealed hand stays the same
                if not concealed or distance(_less(counts, kind, 3), melds + 1, self.rules) <= best[0]:
                    choice = action
        return choice


def _less(counts: Sequence[int], kind: int, copies: int) -> list[int]:
    after = list(counts)
    after[kind] -= copies
    return after


class StrongNoiAgent(_Player):
    """NOI 2014: tile efficiency with wall counting, claims by expected distance, the chance-maximising target."""

    rules = RULES["noi2014"]

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if not legal:
            return Action("target", tiles=chance_target(game, seat))
        return self.decide(game, seat, legal, list(game.hands[seat].counts))


class StrongBaidaAgent(_Player):
    """百搭: tile efficiency with wall counting (wildcards, the 2-5-8 pair and seven pairs included), each useful
    tile weighted by how it can arrive, and the least dangerous of the (nearly) fastest discards.

    The win is worth 4 points whatever its 台 and whoever discarded it, so the player only races: it never gives
    up speed for safety.  A discard's score is its distance, then its useful unseen tiles, each weighted by
    :meth:`Table.arrival <mjarena.agents.strong_baida.Table.arrival>` (a tile that can also be claimed, a
    ready hand's wait above all, counts more, the more so for kinds the others tend to discard).  Among the
    discards at the lowest distance whose weight is within :attr:`near` of the best, the one least likely to
    let another player win (:meth:`Table.danger <mjarena.agents.strong_baida.Table.danger>`) goes; early (fewer
    than :attr:`late` discards and no other player with :attr:`late_melds` melds) only exact ties are broken
    that way, for nobody is likely to be ready yet.
    """

    rules = RULES["baida"]
    near = 0.05
    """Discards whose weighted useful tiles are within this share of the best's count as equally fast (late)."""
    late = 24
    """Discards (by everyone) from which near-ties go by danger; before, only exact ties do (+0.009 points a game,
    ahead on all six of seeds 3-8, docs/compare.md)."""
    late_melds = 2
    """... or from the time another player has this many melds."""

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` is accepted like every built-in agent's; the player is deterministic."""
        self.table = Table()
        self.drawing_next = False

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        self.table = Table.of(game, seat)
        discarder = getattr(game, "discarder", None)
        self.drawing_next = discarder is not None and seat == (discarder + 1) % 4
        return self.decide(game, seat, legal, list(game.hands[seat]))

    def claim(self, counts: list[int], melds: int, kind: int, legal: Sequence[Action],
              unseen: Sequence[int]) -> Action:
        """As every player's claims (:meth:`_Player.claim`); but the discarder's next player takes a CHI or PENG
        only when it lowers the distance.  That player draws next if it passes, and a claim takes the place of
        that draw: a claimed tile that leaves the distance as it is gives up the draw's chance of lowering it
        (a wider wait is not worth it: +0.019 points a game over 1,900 duplicate sets, seeds 3-6).  A player
        further on loses no draw by claiming (the players between lose theirs) and keeps the rule of all."""
        choice = super().claim(counts, melds, kind, legal, unseen)
        if self.drawing_next and choice.type in ("chi", "peng"):
            after = list(counts)
            named = choice.tile
            assert named is not None  # as _Player.claim makes them: a PENG names its discard, a CHI its lowest tile
            if choice.type == "peng":
                after[kind] -= 2
                discard = named
            else:
                after[kind] += 1
                for tile in range(named, named + 3):
                    after[tile] -= 1
                discard = choice.tiles[0]
            after[discard] -= 1
            if distance(after, melds + 1, self.rules) >= distance(counts, melds, self.rules):
                return legal[-1]
        return choice

    def score(self, counts: list[int], melds: int, unseen: Sequence[int]) -> tuple[int, float]:
        """(distance, -the arrival weight of the useful unseen tiles) of a waiting hand: lower is better."""
        rules = self.rules
        now = distance(counts, melds, rules)
        kinds = _drawable(rules)
        total = sum(unseen[kind] for kind in kinds if unseen[kind] > 0) or 1
        weight = 0.0
        for kind in kinds:
            copies = unseen[kind]
            if copies > 0 and counts[kind] < (8 if kind == WILD else 4):
                counts[kind] += 1
                if distance(counts, melds, rules) < now:
                    weight += self.table.arrival(kind, copies, total, claim_share(counts, kind, now == 1))
                counts[kind] -= 1
        return now, -weight

    def best_discard(self, counts: list[int], melds: int, unseen: Sequence[int],
                     kinds: Sequence[int] | None = None) -> tuple[tuple[int, float], int]:
        """(score of the fastest discard, kind discarded): the least dangerous of the discards at the lowest
        distance whose useful-tile weight is within :attr:`near` of the best (early: equal to it), then the most
        useful, then :func:`~mjarena.agents.builtin.keep_value`."""
        options = self.discard_options(counts, melds, unseen, kinds)
        fastest = min(options)
        table = self.table
        late = table.discards >= self.late or any(other.melds >= self.late_melds for other in table.opponents)
        floor = (1.0 - (self.near if late else 0.0)) * fastest[1]  # weights are negative: within `near` of the best
        equal = [option for option in options if option[0] == fastest[0] and option[1] <= floor + 1e-12]
        visible = [(8 if kind == WILD else 4) - unseen[kind] for kind in range(NUM_KINDS)]
        chosen = min(equal, key=lambda o: (round(self.table.danger(o[3], visible[o[3]]), 3), o[1], o[2]))
        return (fastest[0], fastest[1]), chosen[3]


class StrongThupcAgent(_Player):
    """THUPC 2021: special tiles first, then tile efficiency with wall counting; PONG/CHOW by expected distance."""

    rules = RULES["thupc2021"]

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        first = legal[0]
        if first.type in ("self_drawn", "ron"):
            return first
        counts = list(game.hands[seat].counts)
        melds = len(game.melds[seat])
        if first.type == "discard":
            return self._discard(game, seat, counts, melds, legal)
        unseen = self.unseen(game, counts)
        kind = game.claimable
        choice, best = legal[-1], self.score(counts, melds, unseen)
        for action in legal:
            if action.type == "pong":
                taken = [kind, kind]
            elif action.type == "chow":
                low = action.tile
                assert low is not None  # the rules' CHOW names its run's lowest tile
                taken = [t for t in range(low, low + 3) if t != kind]
            else:
                continue
            after = list(counts)
            for tile in taken:
                after[tile] -= 1
            score, _ = self.best_discard(after, melds + 1, unseen)
            if score < best:
                choice, best = action, score
        return choice

    def _discard(self, game: Any, seat: int, counts: list[int], melds: int, legal: Sequence[Action]) -> Action:
        for special in (DOUBLE, PASS, REVERSE):
            if counts[special]:
                if special != PASS:
                    return Action("discard", special)
                others = [(len(game.melds[other]), -((other - seat) % 4), other) for other in range(4) if other != seat]
                return Action("discard", PASS, max(others)[2])
        unseen = self.unseen(game, counts)
        _, kind = self.best_discard(counts, melds, unseen, tiles_of(legal, "discard"))
        return Action("discard", kind)


# -- the NOI 2014 target hand -----------------------------------------------------------------------------


def chance_target(game: Any, seat: int) -> tuple[int, ...]:
    """The target hand for an exhausted NOI 2014 wall: closest to the whole hand, then the best 胡牌机会值.

    A kind the target lacks scores the last position (every hand at the end) unless all four of its copies were
    discarded and none was claimed: then the position of its last discard.  Dead kinds are shut out of the
    completion, the latest-discarded ones last, as long as the distance stays the closest.
    """
    from mjarena.agents.builtin import best_target
    from mjarena.variants.noi2014_ranking import target_distance

    hand, melds = game.hands[seat], game.melds[seat]
    whole = game.whole_hand(seat)
    closest = best_target(hand, melds)
    best_distance = target_distance(closest, whole)
    claimed = set(game.claimed)
    discarded = [0] * 27
    last = [0] * 27
    for position, kind in enumerate(game.discards, start=1):
        if position - 1 not in claimed:
            discarded[kind] += 1
            last[kind] = position
    dead = sorted((last[k], k) for k in range(27) if discarded[k] == 4 and not whole[k])  # earliest first
    for allowed in range(len(dead) + 1):  # shut every dead kind out, then allow the latest-discarded ones
        target = _target_without(hand, melds, [kind for _, kind in dead[: len(dead) - allowed]])
        if target is not None and target_distance(target, whole) == best_distance:
            return target
    return closest


def _target_without(hand: Any, melds: Sequence[Any], shut: Sequence[int]) -> tuple[int, ...] | None:
    """The closest target (as :func:`~mjarena.agents.builtin.best_target` completes one) that holds no more
    tiles of the ``shut`` kinds than the hand does; None if the caps leave none."""
    from mjarena.agents.builtin import Completion

    fixed: list[int] = []
    cap = [4] * 27
    for meld in melds:
        size = 4 if meld.type == "gang" else 3
        fixed += [meld.kind] * size
        cap[meld.kind] -= size
    concealed = list(hand.counts[:27])
    for kind in shut:
        cap[kind] = min(cap[kind], concealed[kind])
    completion = Completion(concealed.copy(), cap, 4 - len(melds)).run()
    return None if completion is None else tuple(sorted(fixed + completion))


STRONG_AGENTS: dict[str, type[_Player]] = {
    "noi2014": StrongNoiAgent, "baida": StrongBaidaAgent, "thupc2021": StrongThupcAgent,
}
"""The strong player of each rule set, by rule-set name."""
