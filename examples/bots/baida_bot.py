#!/usr/bin/env python3
"""An example 百搭 (baida) mahjong bot, keep-running mode (it also answers a whole-history line at any time).

Standard library only; copy it and improve the strategy.  Run it with ``mjarena match --rules baida``.  The
protocol (docs/protocol.md, section 百搭) is NOI 2014's with honours and the wildcard: tiles ``W1``..``W9``,
``B1``..``B9``, ``T1``..``T9``, ``F1``..``F4`` (winds), ``J1``..``J3`` (dragons) and ``BAIDA``.  The first line is
the judge's history ``{"requests": [...], "responses": [...], ...}``; after each answer the bot prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and the judge sends each later request alone, as a JSON string.  One hand
only: the game ends at the first win, and there is no ``4`` request.

Unlike NOI 2014, a HU whose hand does not win is an illegal action, so the win check below is exact for the
forms the bot declares: four sets and a pair of 2, 5 or 8 of one suit (小胡; 清一色 needs that pair too), or
seven pairs (七巧对), a BAIDA standing for any tile.

Strategy: HU whenever the hand wins; never discard a BAIDA; discard the tile whose loss keeps the hand closest
to winning (counting each BAIDA as one step), an isolated one first; PENG when that brings the hand closer;
a concealed kong of four, or the fourth tile of a PENG, always.  No CHI: a place to start improving.
"""

import json
import sys

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
NAMES = [suit + str(rank) for suit in "WBT" for rank in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
KINDS = len(NAMES)  # 0..26 suited (W, B, T), 27..33 honours
INDEX = {name: kind for kind, name in enumerate(NAMES)}
WILD = "BAIDA"


def is_suited(kind):
    return kind < 27


def sets_fit(counts, wild, sets):
    """Whether the counts and ``wild`` wildcards make exactly ``sets`` sets (triplets; runs within a suit)."""
    first = next((k for k in range(KINDS) if counts[k]), None)
    if first is None:
        return wild == 3 * sets
    if sets == 0:
        return False
    for real in range(min(3, counts[first]), 0, -1):  # a triplet of ``first``, wildcards making up the rest
        if 3 - real <= wild:
            counts[first] -= real
            ok = sets_fit(counts, wild - (3 - real), sets - 1)
            counts[first] += real
            if ok:
                return True
    if is_suited(first):
        for start in (first - 2, first - 1, first):  # runs holding ``first``; lower tiles are wildcards
            if start < 0 or start // 9 != first // 9 or start % 9 > 6:
                continue
            run = (start, start + 1, start + 2)
            missing = sum(1 for k in run if k != first and not counts[k])
            if missing > wild:
                continue
            taken = [k for k in run if k == first or counts[k]]
            for k in taken:
                counts[k] -= 1
            ok = sets_fit(counts, wild - missing, sets - 1)
            for k in taken:
                counts[k] += 1
            if ok:
                return True
    return False


def wins(counts, wild, melds):
    """Whether the concealed tiles (14 - 3 * melds of them, ``wild`` of them BAIDA) win."""
    if melds == 0 and sum(counts) + wild == 14:  # seven pairs: every odd tile paired by a wildcard
        singles = sum(count % 2 for count in counts)
        if singles <= wild and (wild - singles) % 2 == 0:
            return True
    for pair in (k for k in range(27) if k % 9 in (1, 4, 7)):  # the 2-5-8 pair, wildcards making up the rest
        real = min(2, counts[pair])
        if 2 - real <= wild:
            counts[pair] -= real
            ok = sets_fit(counts, wild - (2 - real), 4 - melds)
            counts[pair] += real
            if ok:
                return True
    return False


def shanten(counts, melds):
    """Tiles away from four sets and a pair, BAIDA left out (-1: complete); honours make no runs."""
    best = [8]

    def search(i, sets, partials, pair):
        while i < KINDS and not counts[i]:
            i += 1
        now = 8 - 2 * sets - min(partials, 4 - sets) - pair
        if i == KINDS:
            best[0] = min(best[0], now)
            return
        if max(-1, now - (2 * sum(counts[i:]) + 2) // 3) >= best[0]:
            return
        if counts[i] >= 3:
            counts[i] -= 3
            search(i, sets + 1, partials, pair)
            counts[i] += 3
        if is_suited(i) and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
            for k in (i, i + 1, i + 2):
                counts[k] -= 1
            search(i, sets + 1, partials, pair)
            for k in (i, i + 1, i + 2):
                counts[k] += 1
        if counts[i] >= 2:
            counts[i] -= 2
            if not pair:
                search(i, sets, partials, 1)
            search(i, sets, partials + 1, pair)
            counts[i] += 2
        for gap in (1, 2):
            if is_suited(i) and i % 9 + gap <= 8 and counts[i + gap]:
                counts[i] -= 1
                counts[i + gap] -= 1
                search(i, sets, partials + 1, pair)
                counts[i] += 1
                counts[i + gap] += 1
        counts[i] -= 1
        search(i, sets, partials, pair)
        counts[i] += 1

    search(0, melds, 0, 0)
    return best[0]


def isolation(counts, kind):
    """Lower is more isolated: neighbours within two ranks in the same suit (honours have none)."""
    near = 0
    if is_suited(kind):
        rank = kind % 9
        near = sum(counts[kind + d] for d in (-2, -1, 1, 2) if 0 <= rank + d <= 8)
    return 3 * (counts[kind] - 1) + 2 * near


class Table:
    """My seat, concealed tiles (wildcards apart), the kinds I ponged and how many sets I laid down."""

    def __init__(self):
        self.me = None
        self.hand = [0] * KINDS
        self.wild = 0
        self.pengs = []
        self.melds = 0

    def feed(self, request, response=None):
        """Take in one request, and my answer to it when it is a past turn."""
        words = request.split()
        if words[0] == "0":
            self.me = int(words[1])
        elif words[0] in ("1", "2"):
            for name in words[1:]:
                self._add(name, 1)
        if response is not None:
            self._did(words, response.split())

    def _add(self, name, count):
        if name == WILD:
            self.wild += count
        else:
            self.hand[INDEX[name]] += count

    def _did(self, request, answer):
        """My own actions are never told back: apply them as I answer.  A PENG of mine always happens unless
        someone wins on that tile, and then the game is over."""
        if request[0] == "2" and answer[0] == "PLAY":
            self._add(answer[1], -1)
        elif request[0] == "2" and answer[0] == "GANG":
            kind = INDEX[answer[1]]
            if kind in self.pengs:
                self.hand[kind] -= 1
            else:
                self.hand[kind] -= 4
                self.melds += 1
        elif request[0] == "3" and answer[0] == "PENG":
            kind = INDEX[request[3]]
            self.hand[kind] -= 2
            self.pengs.append(kind)
            self.melds += 1
            self._add(answer[1], -1)

    def decide(self, request):
        """Take in the current request and return my answer to it (remembering that answer)."""
        self.feed(request)
        words = request.split()
        answer = "PASS"
        if words[0] == "2":
            answer = self._turn()
        elif words[0] == "3" and words[2] == "PLAY" and words[3] != WILD and int(words[1]) != self.me:
            answer = self._react(INDEX[words[3]])
        self._did(words, answer.split())
        return answer

    def _distance(self):
        return max(-1, shanten(self.hand, self.melds) - self.wild)

    def _best_discard(self, avoid=None):
        """(distance after it, kind) of the best discard other than ``avoid`` (never a BAIDA)."""
        best = None
        for kind in range(KINDS):
            if not self.hand[kind] or kind == avoid:
                continue
            self.hand[kind] -= 1
            value = (self._distance(), isolation(self.hand, kind), kind)
            self.hand[kind] += 1
            if best is None or value < best:
                best = value
        return None if best is None else (best[0], best[2])

    def _turn(self):
        if wins(self.hand, self.wild, self.melds):
            return "HU"
        for kind in range(KINDS):
            if self.hand[kind] == 4 or (self.hand[kind] and kind in self.pengs):
                return "GANG " + NAMES[kind]
        choice = self._best_discard()
        return "PLAY " + (NAMES[choice[1]] if choice else WILD)  # a hand of wildcards only must let one go

    def _react(self, kind):
        self.hand[kind] += 1
        winning = wins(self.hand, self.wild, self.melds)
        self.hand[kind] -= 1
        if winning:
            return "HU"
        if self.hand[kind] < 2:
            return "PASS"
        now = self._distance()
        self.hand[kind] -= 2
        self.melds += 1
        choice = self._best_discard(avoid=kind)
        self.melds -= 1
        self.hand[kind] += 2
        if choice is not None and choice[0] < now:
            return "PENG " + NAMES[choice[1]]
        return "PASS"


def main():
    table = None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if isinstance(message, dict):  # the whole history: (re)build the table from it
            table = Table()
            for turn, response in enumerate(message["responses"]):
                table.feed(message["requests"][turn], response)
            request = message["requests"][-1]
        else:  # one bare request
            request = message
        print(json.dumps({"response": table.decide(request)}), flush=True)
        print(KEEP_RUNNING, flush=True)


if __name__ == "__main__":
    main()
