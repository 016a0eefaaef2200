#!/usr/bin/env python3
"""An example THUPC 2021 mahjong bot, keep-running mode (it also answers a whole-history line at any time).

Standard library only; copy it and improve the strategy.  Run it with ``mjarena match --rules thupc2021``.  The
protocol (docs/protocol.md, section THUPC 2021) has the NOI 2014 shape in the statement's tile names: ``1M``..``9M``,
``1P``..``9P``, ``1S``..``9S``, ``E S W N B F Z``, and the specials ``PASS``, ``REVERSE``, ``DOUBLE``.  The first
line is the judge's history ``{"requests": [...], "responses": [...], ...}``; after each answer the bot prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and the judge sends each later request alone, as a JSON string.  The game
ends at the first win or when the wall runs out.

Unlike NOI 2014, a claim is confirmed: ``3 p PENG X`` naming my own seat means my PENG happened, and I discard
in answer to it.  A HU whose hand does not win is an illegal action; a hand holding a special tile never wins.

Strategy: HU whenever the hand wins; play a special tile as soon as one is held (PASS on the next seat);
otherwise discard the tile whose loss keeps the hand closest to winning, an isolated one first; PENG when that
brings the hand closer.  No CHI: a place to start improving.
"""

import json
import sys

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
NAMES = [str(rank) + suit for suit in "MPS" for rank in range(1, 10)] + list("ESWNBFZ")
KINDS = len(NAMES)  # 0..26 suited (M, P, S), 27..33 honours
INDEX = {name: kind for kind, name in enumerate(NAMES)}
SPECIALS = ("PASS", "REVERSE", "DOUBLE")


def is_suited(kind):
    return kind < 27


def is_complete(counts, sets_needed, pair_needed=True):
    """Whether the counts split into exactly ``sets_needed`` sets (and one pair); honours make no runs."""
    first = next((k for k in range(KINDS) if counts[k]), None)
    if first is None:
        return sets_needed == 0 and not pair_needed
    if pair_needed and counts[first] >= 2:
        counts[first] -= 2
        ok = is_complete(counts, sets_needed, False)
        counts[first] += 2
        if ok:
            return True
    if sets_needed == 0:
        return False
    if counts[first] >= 3:
        counts[first] -= 3
        ok = is_complete(counts, sets_needed - 1, pair_needed)
        counts[first] += 3
        if ok:
            return True
    if is_suited(first) and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for k in (first, first + 1, first + 2):
            counts[k] -= 1
        ok = is_complete(counts, sets_needed - 1, pair_needed)
        for k in (first, first + 1, first + 2):
            counts[k] += 1
        return ok
    return False


def shanten(counts, melds):
    """Tiles away from four sets and a pair (-1: complete); honours make no runs."""
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
    """My seat, ordinary tiles, special tiles held, sets laid down, and the last discard."""

    def __init__(self):
        self.me = None
        self.hand = [0] * KINDS
        self.specials = []
        self.melds = 0
        self.last_play = None  # the kind of the last ordinary discard

    def feed(self, request, response=None):
        """Take in one request, and my answer to it when it is a past turn."""
        words = request.split()
        if words[0] == "0":
            self.me = int(words[1])
        elif words[0] in ("1", "2"):
            for name in words[1:]:
                self._add(name, 1)
        elif words[0] == "3" and words[2] == "PLAY" and words[3] in INDEX:
            self.last_play = INDEX[words[3]]
        elif words[0] == "3" and int(words[1]) == self.me:  # my claim happened: lay the set down
            self.melds += 1
            if words[2] == "PENG":
                self.hand[INDEX[words[3]]] -= 2
            else:  # CHI L: the run L, L+1, L+2 less the discard taken
                low = INDEX[words[3]]
                for kind in (low, low + 1, low + 2):
                    self.hand[kind] -= kind != self.last_play
        if response is not None:
            self._did(words, response.split())

    def _add(self, name, count):
        if name in SPECIALS:
            if count > 0:
                self.specials.append(name)
            else:
                self.specials.remove(name)
        else:
            self.hand[INDEX[name]] += count

    def _did(self, request, answer):
        if answer[0] == "PLAY":  # my own discards are never told back
            self._add(answer[1], -1)

    def decide(self, request):
        """Take in the current request and return my answer to it (remembering that answer)."""
        self.feed(request)
        words = request.split()
        answer = "PASS"
        if words[0] == "2":
            answer = self._turn(may_win=True)
        elif words[0] == "3" and words[2] in ("PENG", "CHI") and int(words[1]) == self.me:
            answer = self._turn(may_win=False)
        elif words[0] == "3" and words[2] == "PLAY" and words[3] in INDEX and int(words[1]) != self.me:
            answer = self._react(INDEX[words[3]])
        self._did(words, answer.split())
        return answer

    def _best_discard(self, avoid=None):
        """(shanten after it, kind) of the best ordinary discard other than ``avoid``."""
        best = None
        for kind in range(KINDS):
            if not self.hand[kind] or kind == avoid:
                continue
            self.hand[kind] -= 1
            value = (shanten(self.hand, self.melds), isolation(self.hand, kind), kind)
            self.hand[kind] += 1
            if best is None or value < best:
                best = value
        return None if best is None else (best[0], best[2])

    def _turn(self, may_win):
        if may_win and not self.specials and is_complete(self.hand[:], 4 - self.melds):
            return "HU"
        if self.specials:  # a special tile can never be part of a win: play it at once
            special = self.specials[0]
            return f"PLAY PASS {(self.me + 1) % 4}" if special == "PASS" else "PLAY " + special
        return "PLAY " + NAMES[self._best_discard()[1]]

    def _react(self, kind):
        self.hand[kind] += 1
        winning = not self.specials and is_complete(self.hand[:], 4 - self.melds)
        self.hand[kind] -= 1
        if winning:
            return "HU"
        if self.hand[kind] < 2 or self.specials:
            return "PASS"
        now = shanten(self.hand, self.melds)
        self.hand[kind] -= 2
        self.melds += 1
        choice = self._best_discard(avoid=kind)
        self.melds -= 1
        self.hand[kind] += 2
        return "PENG" if choice is not None and choice[0] < now else "PASS"


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
