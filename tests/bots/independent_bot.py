#!/usr/bin/env python3
"""Independent NOI 2014 mahjong bot, written from the contest statement and RULINGS.md only.

Usage:
    python3 independent_bot.py restart   # one JSON line with the full history in, one JSON line out, exit
    python3 independent_bot.py keep      # Botzone keep-running: full history first, then bare requests

The bot rebuilds its own hand from the requests and its own past responses, then answers the
last request with a legal move: HU when the hand wins, GANG of the tile just drawn when it
holds all four (or has ponged it) and that does not slow the hand, PENG when it brings the
hand closer to winning, otherwise PASS / PLAY of the least useful tile. On `4` it names a
winning-shaped target hand as close as it can find to what it holds.

Only the Python standard library is used.
"""

from __future__ import annotations

import contextlib
import json
import sys
from functools import cache

KEEP_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
SUITS = "WBT"
NKINDS = 27
# Answer an open kong on another player's discard (legal per the statement, 杠牌 form 1).
ALLOW_OPEN_GANG = True


# --------------------------------------------------------------------------- tiles


def tile_index(name: str) -> int | None:
    """'W1'..'W9', 'B1'..'B9', 'T1'..'T9' (any letter case) -> 0..26, else None."""
    if not isinstance(name, str):
        return None
    s = name.strip().upper()
    if len(s) != 2 or s[0] not in SUITS or s[1] not in "123456789":
        return None
    return SUITS.index(s[0]) * 9 + int(s[1]) - 1


def tile_name(i: int) -> str:
    return SUITS[i // 9] + str(i % 9 + 1)


# --------------------------------------------------------------------------- hand analysis


def _prune(opts: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """Keep the Pareto front of (sets, partial sets, pair) triples."""
    front = []
    for o in sorted(opts, reverse=True):
        if not any(f[0] >= o[0] and f[1] >= o[1] and f[2] >= o[2] for f in front):
            front.append(o)
    return tuple(front)


@cache
def suit_options(c: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Ways to split one suit's counts into (complete sets, partial sets, the pair 0/1)."""
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return ((0, 0, 0),)
    opts: set[tuple[int, int, int]] = set()

    def take(idxs: tuple[int, ...], dm: int, dt: int, dp: int) -> None:
        lst = list(c)
        for j in idxs:
            lst[j] -= 1
        for m, t, p in suit_options(tuple(lst)):
            if dp and p:
                continue
            opts.add((min(m + dm, 4), min(t + dt, 4), p + dp))

    take((i,), 0, 0, 0)  # the tile at i is left alone
    if c[i] >= 3:
        take((i, i, i), 1, 0, 0)
    if i <= 6 and c[i + 1] and c[i + 2]:
        take((i, i + 1, i + 2), 1, 0, 0)
    if c[i] >= 2:
        take((i, i), 0, 0, 1)
        take((i, i), 0, 1, 0)
    if i <= 7 and c[i + 1]:
        take((i, i + 1), 0, 1, 0)
    if i <= 6 and c[i + 2]:
        take((i, i + 2), 0, 1, 0)
    return _prune(opts)


@cache
def _shanten(counts: tuple[int, ...], need: int) -> int:
    best = 99
    a = suit_options(counts[0:9])
    b = suit_options(counts[9:18])
    c = suit_options(counts[18:27])
    for m1, t1, p1 in a:
        for m2, t2, p2 in b:
            if p1 + p2 > 1:
                continue
            for m3, t3, p3 in c:
                p = p1 + p2 + p3
                if p > 1:
                    continue
                m = min(m1 + m2 + m3, need)
                t = min(t1 + t2 + t3, need - m)
                v = 2 * need - 2 * m - t - p
                if v < best:
                    best = v
    return best


def shanten(counts: list[int], nmelds: int) -> int:
    """Tiles away from ready (-1 = complete) for a concealed hand plus nmelds fixed sets."""
    return _shanten(tuple(counts), max(0, 4 - nmelds))


def _can_split(c: list[int], pair_used: bool) -> bool:
    i = 0
    while i < NKINDS and c[i] == 0:
        i += 1
    if i == NKINDS:
        return pair_used
    if c[i] >= 3:
        c[i] -= 3
        ok = _can_split(c, pair_used)
        c[i] += 3
        if ok:
            return True
    if not pair_used and c[i] >= 2:
        c[i] -= 2
        ok = _can_split(c, True)
        c[i] += 2
        if ok:
            return True
    if i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for j in (i, i + 1, i + 2):
            c[j] -= 1
        ok = _can_split(c, pair_used)
        for j in (i, i + 1, i + 2):
            c[j] += 1
        if ok:
            return True
    return False


def is_win(counts: list[int], nmelds: int) -> bool:
    """Exact check: concealed tiles = (4 - nmelds) sets + one pair."""
    if nmelds > 4 or any(x < 0 for x in counts):
        return False
    if sum(counts) != 3 * (4 - nmelds) + 2:
        return False
    return _can_split(list(counts), False)


# --------------------------------------------------------------------------- state


class State:
    def __init__(self) -> None:
        self.myid = -1
        self.hand = [0] * NKINDS  # concealed tiles
        self.melds: list[list] = []  # [kind, size 3 (PENG) or 4 (GANG)]
        self.public = [0] * NKINDS  # tiles seen outside my hand (discards and others' melds)
        self.discards: list[int] = []  # every discard seen, in order (for the 4 tie-break)

    # -- helpers
    def mine(self, k: int) -> int:
        return self.hand[k] + sum(m[1] for m in self.melds if m[0] == k)

    def unseen(self, k: int) -> int:
        return max(0, 4 - self.mine(k) - self.public[k])

    def take(self, k: int, n: int = 1) -> None:
        self.hand[k] = max(0, self.hand[k] - n)

    def see(self, k: int, n: int = 1) -> None:
        self.public[k] = min(4, max(0, self.public[k] + n))

    # -- replay of one finished turn
    def apply(self, req: str, resp: str, nxt: str | None) -> None:
        t = req.split()
        r = resp.split() if isinstance(resp, str) else []
        if not t:
            return
        if t[0] == "0" and len(t) >= 2:
            with contextlib.suppress(ValueError):
                self.myid = int(t[1])
        elif t[0] == "1":
            self.hand = [0] * NKINDS
            for name in t[1:]:
                k = tile_index(name)
                if k is not None:
                    self.hand[k] += 1
        elif t[0] == "2" and len(t) >= 2:
            k = tile_index(t[1])
            if k is not None:
                self.hand[k] += 1
            if len(r) >= 2 and r[0] == "PLAY":
                y = tile_index(r[1])
                if y is not None:
                    self.take(y)
                    self.see(y)
                    self.discards.append(y)
            elif len(r) >= 2 and r[0] == "GANG":
                y = tile_index(r[1])
                if y is not None:
                    self._self_gang(y)
        elif t[0] == "3" and len(t) >= 4:
            self._apply_public(t, r, nxt)

    def _self_gang(self, y: int) -> None:
        if self.hand[y] >= 4:
            self.take(y, 4)
            self.melds.append([y, 4])
            return
        for m in self.melds:
            if m[0] == y and m[1] == 3 and self.hand[y] >= 1:
                self.take(y)
                m[1] = 4
                return

    def _apply_public(self, t: list[str], r: list[str], nxt: str | None) -> None:
        try:
            who = int(t[1])
        except ValueError:
            who = -2
        act = t[2].upper()
        x = tile_index(t[3])
        if who == self.myid or x is None:
            return
        if act == "PLAY":
            self.see(x)
            self.discards.append(x)
            # I am never told of my own PENG / GANG: the claim failed only if the next thing I hear is
            # someone's HU on this very discard (HU beats PENG/GANG).  Otherwise it was carried out,
            # even if the next request is `4` (the wall ran out right after it).
            nt = nxt.split() if isinstance(nxt, str) else []
            preempted = len(nt) >= 4 and nt[0] == "3" and nt[2].upper() == "HU" and tile_index(nt[3]) == x
            if preempted:
                return
            if len(r) >= 2 and r[0] == "PENG":
                y = tile_index(r[1])
                if y is not None and self.hand[x] >= 2:
                    self.take(x, 2)
                    self.melds.append([x, 3])
                    self.see(x, -1)
                    self.take(y)
                    self.see(y)
                    self.discards.append(y)
            elif r and r[0] == "GANG" and self.hand[x] >= 3:
                self.take(x, 3)
                self.melds.append([x, 4])
                self.see(x, -1)
        elif act == "PENG":
            self.see(x, 2)
        elif act == "GANG":
            self.public[x] = max(self.public[x], 4 - self.mine(x))


def rebuild(requests: list, responses: list) -> State:
    st = State()
    n = len(requests)
    for i in range(n - 1):
        req = requests[i] if isinstance(requests[i], str) else ""
        resp = responses[i] if i < len(responses) and isinstance(responses[i], str) else ""
        nxt = requests[i + 1] if isinstance(requests[i + 1], str) else None
        with contextlib.suppress(Exception):
            st.apply(req, resp, nxt)
    return st


# --------------------------------------------------------------------------- decisions


def _near(hand: list[int]) -> list[int]:
    """Kinds that could possibly improve the hand: same suit within 2 of a held tile."""
    out = []
    for k in range(NKINDS):
        base = k - k % 9
        lo, hi = max(base, k - 2), min(base + 8, k + 2)
        if any(hand[j] for j in range(lo, hi + 1)):
            out.append(k)
    return out


def ukeire(st: State, hand: list[int], nmelds: int, cur: int) -> int:
    total = 0
    for k in _near(hand):
        u = st.unseen(k)
        if u == 0 or hand[k] >= 4:
            continue
        hand[k] += 1
        if shanten(hand, nmelds) < cur:
            total += u
        hand[k] -= 1
    return total


def isolation(hand: list[int], k: int) -> int:
    """Higher = better connected (keep)."""
    base = k - k % 9
    score = 3 * (hand[k] - 1)
    for d, w in ((1, 2), (2, 1)):
        for j in (k - d, k + d):
            if base <= j <= base + 8:
                score += w * min(hand[j], 1)
    r = k % 9
    if r in (0, 8):
        score -= 1
    return score


def best_discard(st: State, hand: list[int], nmelds: int, exclude: int | None = None) -> tuple[int, int] | None:
    """(kind to discard, resulting shanten), or None if nothing may be discarded."""
    cands = [k for k in range(NKINDS) if hand[k] > 0 and k != exclude]
    if not cands:
        return None
    scored = []
    for k in cands:
        hand[k] -= 1
        scored.append((shanten(hand, nmelds), k))
        hand[k] += 1
    low = min(s for s, _ in scored)
    best = None
    for s, k in scored:
        if s != low:
            continue
        hand[k] -= 1
        u = ukeire(st, hand, nmelds, s)
        hand[k] += 1
        key = (-u, isolation(hand, k), -st.public[k], k)
        if best is None or key < best[0]:
            best = (key, k)
    return best[1], low


def decide_draw(st: State, x: int | None) -> str:
    hand = st.hand
    if x is not None:
        hand[x] += 1
    nm = len(st.melds)
    if is_win(hand, nm):
        return "HU"
    pick = best_discard(st, hand, nm)
    if pick is None:  # nothing concealed?  cannot happen in a consistent game
        return "PLAY " + tile_name(x) if x is not None else "PASS"
    disc, s_keep = pick
    if x is not None:
        # Kong of the tile just drawn (statement: the drawn tile is the fourth one / matches my PENG).
        if hand[x] >= 4:
            hand[x] -= 4
            s_kong = shanten(hand, nm + 1)
            hand[x] += 4
            if s_kong <= s_keep:
                return "GANG " + tile_name(x)
        elif any(m[0] == x and m[1] == 3 for m in st.melds):
            hand[x] -= 1
            s_kong = shanten(hand, nm)
            hand[x] += 1
            if s_kong <= s_keep:
                return "GANG " + tile_name(x)
    return "PLAY " + tile_name(disc)


def decide_discard(st: State, x: int) -> str:
    hand = st.hand
    nm = len(st.melds)
    hand[x] += 1
    win = is_win(hand, nm)
    hand[x] -= 1
    if win:
        return "HU"
    if nm >= 4:
        return "PASS"
    s_now = shanten(hand, nm)
    if ALLOW_OPEN_GANG and hand[x] >= 3:
        hand[x] -= 3
        s_kong = shanten(hand, nm + 1)
        hand[x] += 3
        if s_kong <= s_now:
            return "GANG"
    if hand[x] >= 2:
        hand[x] -= 2
        pick = best_discard(st, hand, nm + 1, exclude=x)
        hand[x] += 2
        if pick is not None and pick[1] < s_now:
            return "PENG " + tile_name(pick[0])
    return "PASS"


def decide_target(st: State) -> str:
    """A winning-shaped target close to my whole hand (melds kept as they are, a kong as 4 tiles).

    The distance to a target is tiles missing + tiles to throw away, so for a target of fixed size
    the best one keeps as many concealed tiles as possible.  Ties are broken by the statement's
    胡牌机会值: a missing kind still unseen by me is somewhere in a hand at the end (best
    position); a kind whose four copies are all visible last appeared at its last discard.

    Exact dynamic programme over the 27 kinds in order.  State after kind k: (runs started at k,
    runs started at k-1, sets used, pair used); value: (tiles of my hand kept, 胡牌机会值).
    Both parts compose (sum and min), so keeping the best value per state is exact.
    """
    hand = list(st.hand)
    need = max(0, 4 - len(st.melds))
    cap = [max(0, 4 - sum(m[1] for m in st.melds if m[0] == k)) for k in range(NKINDS)]
    unseen = [st.unseen(k) for k in range(NKINDS)]
    last_pos = {k: i for i, k in enumerate(st.discards)}
    big = 10**9
    states: dict[tuple[int, int, int, int], tuple[int, int]] = {(0, 0, 0, 0): (0, big)}
    layers: list[dict] = []
    for k in range(NKINDS):
        new: dict[tuple[int, int, int, int], tuple] = {}
        can_start = k % 9 <= 6
        dead_pos = big if unseen[k] > 0 else last_pos.get(k, -1)
        for (p1, p2, sets, pr), (kept, chance) in states.items():
            forced = p1 + p2
            if forced > cap[k]:
                continue
            for r in range(need - sets + 1 if can_start else 1):
                for trip in (0, 1):
                    if sets + r + trip > need:
                        break
                    for pa in (0,) if pr else (0, 1):
                        t = forced + r + 3 * trip + 2 * pa
                        if t > cap[k]:
                            continue
                        val = (kept + min(t, hand[k]), min(chance, dead_pos) if t > hand[k] else chance)
                        key = (r, p1, sets + r + trip, pr | pa)
                        old = new.get(key)
                        if old is None or val > old[0]:
                            new[key] = (val, (p1, p2, sets, pr), t)
        layers.append(new)
        states = {key: v[0] for key, v in new.items()}

    tiles: list[int] = []
    for k, size in st.melds:
        tiles.extend([k] * size)
    key = (0, 0, need, 1)
    if key in states:
        for k in range(NKINDS - 1, -1, -1):
            _, prev, t = layers[k][key]
            tiles.extend([k] * t)
            key = prev
    else:  # cannot happen with a consistent hand
        tiles = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 13]
    tiles.sort()
    return " ".join(tile_name(k) for k in tiles)


def decide(requests: list, responses: list) -> str:
    if not requests:
        return "PASS"
    st = rebuild(requests, responses)
    req = requests[-1] if isinstance(requests[-1], str) else ""
    t = req.split()
    if not t:
        return "PASS"
    if t[0] == "2":
        x = tile_index(t[1]) if len(t) >= 2 else None
        return decide_draw(st, x)
    if t[0] == "3" and len(t) >= 4 and t[2].upper() == "PLAY":
        try:
            who = int(t[1])
        except ValueError:
            who = -2
        x = tile_index(t[3])
        if x is None or who == st.myid:
            return "PASS"
        return decide_discard(st, x)
    if t[0] == "4":
        return decide_target(st)
    return "PASS"


def safe_decide(requests: list, responses: list) -> str:
    try:
        return decide(requests, responses)
    except Exception:
        # never crash: fall back to the simplest legal answer we can think of
        last = requests[-1] if requests and isinstance(requests[-1], str) else ""
        t = last.split()
        if t and t[0] == "2" and len(t) >= 2 and tile_index(t[1]) is not None:
            return "PLAY " + tile_name(tile_index(t[1]))
        if t and t[0] == "4":
            return "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B5 B5"
        return "PASS"


# --------------------------------------------------------------------------- I/O


def emit(response: str, keep: bool) -> None:
    try:
        sys.stdout.write(json.dumps({"response": response, "data": ""}) + "\n")
        if keep:
            sys.stdout.write(KEEP_MARKER + "\n")
        sys.stdout.flush()
    except (OSError, ValueError):  # the judge closed the pipe: nothing left to do
        sys.exit(0)


def parse_history(obj) -> tuple[list, list]:
    if isinstance(obj, dict):
        reqs = obj.get("requests")
        resps = obj.get("responses")
        reqs = [r if isinstance(r, str) else json.dumps(r) for r in reqs] if isinstance(reqs, list) else []
        resps = [r if isinstance(r, str) else "" for r in resps] if isinstance(resps, list) else []
        return reqs, resps[: max(0, len(reqs) - 1)]
    if isinstance(obj, str):
        return [obj], []
    return [], []


def read_input() -> tuple[bool, object]:
    """Read one JSON value (normally one line).  Returns (eof, value); undecodable text is returned as is.

    A value spread over several lines is read on only while it is visibly unfinished, so a
    well-formed one-line input never makes the bot wait for more.
    """
    buf = ""
    while True:
        try:
            line = sys.stdin.readline()
        except (OSError, ValueError):
            line = ""
        if not line:
            if buf.strip():
                return False, buf.strip()
            return True, None
        buf += line
        text = buf.strip()
        if not text:
            buf = ""
            continue
        try:
            return False, json.loads(text)
        except json.JSONDecodeError as e:
            if e.pos < len(text) or len(buf) > 1 << 22:
                return False, text
        except ValueError:
            return False, text


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "restart"
    keep = mode == "keep"
    requests: list = []
    responses: list = []
    first = True
    while True:
        eof, obj = read_input()
        if eof:
            if first and not keep:
                emit("PASS", False)
            return
        if isinstance(obj, dict) or first:
            requests, responses = parse_history(obj)
        else:
            requests.append(obj if isinstance(obj, str) else json.dumps(obj))
        first = False
        ans = safe_decide(requests, responses)
        responses.append(ans)
        emit(ans, keep)
        if not keep:
            return


if __name__ == "__main__":
    main()
