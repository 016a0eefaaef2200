#!/usr/bin/env python3
"""An example NOI 2014 mahjong bot in keep-running mode: one process for the whole game.

Standard library only; copy it and improve the strategy.  The judge starts it once, with one line of JSON
holding the history (as in restart mode, see restart_bot.py).  After each answer the bot prints the line
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and flushes; the judge then keeps the process and writes only the next
request, JSON-encoded on one line (a string with its quotes: ``"2 T3"``).  The bot keeps its table in memory
and answers each request as it comes.  Stopping the marker (or exiting) makes the judge start the bot afresh,
with the whole history, at its next request; the bot below handles a history line at any time.

Strategy and table-keeping are the same as restart_bot.py (the section between the two marked lines is
identical in both files).
"""

import json
import sys

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

# ---- strategy: identical in restart_bot.py and keep_running_bot.py ----------------------------------------

SUITS = "WBT"  # tile index = 9 * suit + rank - 1: W1..W9 = 0..8, B1..B9 = 9..17, T1..T9 = 18..26


def tile_index(name):
    """'B4' (or 'b4') -> 12."""
    return SUITS.index(name[0].upper()) * 9 + int(name[1]) - 1


def tile_name(index):
    """12 -> 'B4'."""
    return SUITS[index // 9] + str(index % 9 + 1)


def is_complete(counts, sets_needed, pair_needed=True):
    """Whether the concealed counts split into exactly ``sets_needed`` sets (and one pair)."""
    first = next((i for i in range(27) if counts[i]), None)
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
    if first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for i in (first, first + 1, first + 2):
            counts[i] -= 1
        ok = is_complete(counts, sets_needed - 1, pair_needed)
        for i in (first, first + 1, first + 2):
            counts[i] += 1
        return ok
    return False


def shanten(counts, melds):
    """How many tiles away from a winning hand (-1: it wins).  ``melds`` sets are already laid down."""
    best = [8]

    def search(i, sets, partials, pair):
        while i < 27 and not counts[i]:
            i += 1
        if i == 27:
            value = 8 - 2 * sets - min(partials, 4 - sets) - pair
            best[0] = min(best[0], value)
            return
        now = 8 - 2 * sets - min(partials, 4 - sets) - pair
        if max(-1, now - (2 * sum(counts[i:]) + 2) // 3) >= best[0]:
            return  # even the best use of the tiles left (two steps per three tiles) cannot improve
        if counts[i] >= 3:
            counts[i] -= 3
            search(i, sets + 1, partials, pair)
            counts[i] += 3
        if i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
            counts[i] -= 1
            counts[i + 1] -= 1
            counts[i + 2] -= 1
            search(i, sets + 1, partials, pair)
            counts[i] += 1
            counts[i + 1] += 1
            counts[i + 2] += 1
        if counts[i] >= 2:
            counts[i] -= 2
            if not pair:
                search(i, sets, partials, 1)
            search(i, sets, partials + 1, pair)
            counts[i] += 2
        for gap in (1, 2):
            if i % 9 + gap <= 8 and counts[i + gap]:
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


def isolation(counts, i):
    """Lower is more isolated: neighbours within two ranks in the same suit, terminals count less."""
    rank = i % 9
    near = sum(counts[i + d] for d in (-2, -1, 1, 2) if 0 <= rank + d <= 8)
    return 3 * (counts[i] - 1) + 2 * near + (0 if rank in (0, 8) else 1)


class Table:
    """What this bot knows: its seat, concealed tiles, melds, and the tiles it has seen played."""

    def __init__(self):
        self.me = None
        self.hand = [0] * 27
        self.melds = []  # [kind, size] per laid set: size 3 (PENG) or 4 (GANG)
        self.seen = [0] * 27  # tiles known to be out of the wall and not in this hand
        self.pengs = {}  # player -> kinds it ponged (to tell an added kong from a concealed one)
        self.last_play = None  # (player, kind) of the last discard
        self.claim = None  # (kind, my answer) of a PENG/GANG not yet known to have happened

    # -- reading the history ----------------------------------------------------------------------------------

    def feed(self, request, response=None):
        """Take in one request, and my response to it when it is a past turn."""
        self._settle_claim(request)
        self._see(request.split())
        if response is not None:
            self._did(request.split(), response.split())

    def _settle_claim(self, request):
        """My PENG/GANG on a discard happened unless the very next request is somebody's HU on that tile."""
        if self.claim is None:
            return
        kind, answer = self.claim
        self.claim = None
        words = request.split()
        preempted = len(words) == 4 and words[0] == "3" and words[2] == "HU" and words[3] != "SELF"
        if preempted and tile_index(words[3]) == kind:
            return  # somebody won on that tile: my claim was not carried out
        if answer[0] == "GANG" and [kind, 3] in self.melds:
            self.melds[self.melds.index([kind, 3])][1] = 4  # the discard joined my PENG
            return
        self.hand[kind] -= 2
        if answer[0] == "PENG":
            self.melds.append([kind, 3])
            played = tile_index(answer[1])
            self.hand[played] -= 1
            self.seen[played] += 1
            self.last_play = (self.me, played)
        else:
            self.hand[kind] -= 1
            self.melds.append([kind, 4])

    def _see(self, words):
        if words[0] == "0":
            self.me = int(words[1])
        elif words[0] == "1":
            for name in words[1:]:
                self.hand[tile_index(name)] += 1
        elif words[0] == "2":
            self.hand[tile_index(words[1])] += 1
        elif words[0] == "3" and words[3] != "SELF":
            player, kind = int(words[1]), tile_index(words[3])
            if words[2] == "PLAY":
                self.seen[kind] += 1
                self.last_play = (player, kind)
            elif words[2] == "PENG":
                self.seen[kind] += 2
                self.pengs.setdefault(player, []).append(kind)
            elif words[2] == "GANG":
                on_discard = self.last_play is not None and self.last_play[1] == kind and self.last_play[0] != player
                if kind in self.pengs.get(player, []):
                    self.seen[kind] += 0 if on_discard else 1  # the discard (seen already) or its 4th tile added
                elif on_discard:
                    self.seen[kind] += 3  # an open kong on that discard
                else:
                    self.seen[kind] += 4  # a concealed kong

    def _did(self, request, answer):
        if not answer:
            return
        if request[0] == "2":
            if answer[0] == "PLAY":
                kind = tile_index(answer[1])
                self.hand[kind] -= 1
                self.seen[kind] += 1
                self.last_play = (self.me, kind)
            elif answer[0] == "GANG":
                kind = tile_index(answer[1])
                for meld in self.melds:
                    if meld[0] == kind and meld[1] == 3:
                        meld[1] = 4
                        self.hand[kind] -= 1
                        break
                else:
                    self.hand[kind] -= 4
                    self.melds.append([kind, 4])
        elif request[0] == "3" and request[2] == "PLAY" and answer[0] in ("PENG", "GANG"):
            self.claim = (tile_index(request[3]), answer)

    # -- deciding -------------------------------------------------------------------------------------------

    def decide(self, request):
        """Take in the current request and return my answer to it (remembering that answer)."""
        self.feed(request)
        words = request.split()
        if words[0] == "2":
            answer = self._turn()
        elif words[0] == "3" and words[2] == "PLAY" and int(words[1]) != self.me:
            answer = self._react(tile_index(words[3]))
        elif words[0] == "4":
            answer = self._target()
        else:
            answer = "PASS"
        self._did(words, answer.split())
        return answer

    def _wins(self):
        return is_complete(self.hand[:], 4 - len(self.melds))

    def _best_discard(self, avoid=None):
        """(shanten after it, tile) of the best discard."""
        best = None
        for kind in range(27):
            if not self.hand[kind] or kind == avoid:
                continue
            self.hand[kind] -= 1
            value = (shanten(self.hand, len(self.melds)), isolation(self.hand, kind), -abs(kind % 9 - 4), kind)
            self.hand[kind] += 1
            if best is None or value < best:
                best = value
        return None if best is None else (best[0], best[3])

    def _turn(self):
        if self._wins():
            return "HU"
        for meld in self.melds:
            if meld[1] == 3 and self.hand[meld[0]]:
                return "GANG " + tile_name(meld[0])  # the fourth tile of my PENG is useless otherwise
        now = shanten(self.hand, len(self.melds))
        for kind in range(27):
            if self.hand[kind] == 4:
                self.hand[kind] = 0
                after = shanten(self.hand, len(self.melds) + 1)
                self.hand[kind] = 4
                if after <= now:
                    return "GANG " + tile_name(kind)
        return "PLAY " + tile_name(self._best_discard()[1])

    def _react(self, kind):
        self.hand[kind] += 1
        wins = self._wins()
        self.hand[kind] -= 1
        if wins:
            return "HU"
        if [kind, 3] in self.melds:
            return "GANG"  # the discard makes my PENG a kong: the same hand, and one more draw
        if self.hand[kind] < 2:
            return "PASS"
        now = shanten(self.hand, len(self.melds))
        if self.hand[kind] == 3:
            self.hand[kind] = 0
            after = shanten(self.hand, len(self.melds) + 1)
            self.hand[kind] = 3
            if after <= now:
                return "GANG"
        self.hand[kind] -= 2
        self.melds.append([kind, 3])
        choice = self._best_discard(avoid=kind)
        self.melds.pop()
        self.hand[kind] += 2
        if choice is not None and choice[0] < now:
            return "PENG " + tile_name(choice[1])
        return "PASS"

    def _target(self):
        """A winning shape (my melds, 4 - melds more sets, a pair) sharing as many tiles with my hand as found."""
        sets = [[k, k, k] for k in range(27)] + [[k, k + 1, k + 2] for k in range(27) if k % 9 <= 6]
        fixed = []
        for kind, size in self.melds:
            fixed += [kind] * size
        best = None
        for pair in range(27):
            used = [0] * 27
            for kind in [*fixed, pair, pair]:
                used[kind] += 1
            if max(used) > 4:
                continue
            left = self.hand[:]
            overlap = min(left[pair], 2)
            left[pair] -= overlap
            chosen = []
            for _ in range(4 - len(self.melds)):
                pick = None
                for tiles in sets:
                    if any(used[k] + tiles.count(k) > 4 for k in tiles):
                        continue
                    gain = 0
                    spare = left[:]
                    for k in tiles:
                        if spare[k]:
                            spare[k] -= 1
                            gain += 1
                    if pick is None or gain > pick[0]:
                        pick = (gain, tiles, spare)
                overlap += pick[0]
                left = pick[2]
                chosen += pick[1]
                for k in pick[1]:
                    used[k] += 1
            if best is None or overlap > best[0]:
                best = (overlap, [*fixed, *sorted(chosen), pair, pair])
        return " ".join(tile_name(k) for k in best[1])


# ---- end of strategy ----------------------------------------------------------------------------------------


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
        answer = table.decide(request)
        print(json.dumps({"response": answer}), flush=True)
        print(KEEP_RUNNING, flush=True)


if __name__ == "__main__":
    main()
