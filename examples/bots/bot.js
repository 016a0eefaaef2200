// An example NOI 2014 mahjong bot in JavaScript (Node.js), restart mode: the judge starts it for every request.
//
// Run as the contest does:  node bot.js
// Standard library only; copy it and improve the strategy.
//
// Each run reads ONE line of JSON from standard input (not to the end of input: the judge keeps standard input
// open, so a bot that waits for its end waits until it times out),
//   {"requests": [...], "responses": [...], "data": "...", "time_limit": "...", "memory_limit": "..."}
// (every request of the game so far, and this bot's answers to all but the last one), rebuilds the table from
// that history, prints ONE line {"response": "...", "data": ""} answering the last request, and exits.
// docs/contestants.md and README.md in this folder list the requests and the answers.
//
// Strategy (the same in every example bot): HU whenever the hand wins; discard the tile whose loss keeps the
// hand closest to winning (an isolated tile, a terminal first); PENG or a kong of three in hand only when it
// brings the hand closer (or no further) to winning; GANG a discard or a drawn tile onto an own PENG always;
// at "4" a winning-shaped target as close to the hand as a greedy search finds.
"use strict";

const readline = require("readline");

const KINDS = 27;

// ---- tiles: index = 9 * suit + rank - 1; W1..W9 = 0..8, B1..B9 = 9..17, T1..T9 = 18..26 ----

function tileIndex(name) {
  return "WBT".indexOf(name[0].toUpperCase()) * 9 + Number(name[1]) - 1;
}

function tileName(index) {
  return "WBT"[Math.floor(index / 9)] + ((index % 9) + 1);
}

function words(text) {
  return text.trim().split(/\s+/).filter((word) => word.length > 0);
}

// ---- hand analysis ----

// Whether the counts split into exactly `sets` sets and (if needPair) one pair.
function isComplete(c, sets, needPair) {
  let first = 0;
  while (first < KINDS && c[first] === 0) first++;
  if (first === KINDS) return sets === 0 && !needPair;
  if (needPair && c[first] >= 2) {
    c[first] -= 2;
    const ok = isComplete(c, sets, false);
    c[first] += 2;
    if (ok) return true;
  }
  if (sets === 0) return false;
  if (c[first] >= 3) {
    c[first] -= 3;
    const ok = isComplete(c, sets - 1, needPair);
    c[first] += 3;
    if (ok) return true;
  }
  if (first % 9 <= 6 && c[first + 1] && c[first + 2]) {
    c[first]--, c[first + 1]--, c[first + 2]--;
    const ok = isComplete(c, sets - 1, needPair);
    c[first]++, c[first + 1]++, c[first + 2]++;
    return ok;
  }
  return false;
}

// How many tiles away from a winning hand (-1: it wins); `melds` sets are already laid down.
function shanten(c, melds) {
  let best = 8;
  function search(i, sets, partials, pair) {
    while (i < KINDS && c[i] === 0) i++;
    const now = 8 - 2 * sets - Math.min(partials, 4 - sets) - pair;
    if (i === KINDS) {
      best = Math.min(best, now);
      return;
    }
    let left = 0;
    for (let k = i; k < KINDS; k++) left += c[k];
    if (Math.max(-1, now - Math.floor((2 * left + 2) / 3)) >= best) return; // the rest cannot improve
    if (c[i] >= 3) {
      c[i] -= 3;
      search(i, sets + 1, partials, pair);
      c[i] += 3;
    }
    if (i % 9 <= 6 && c[i + 1] && c[i + 2]) {
      c[i]--, c[i + 1]--, c[i + 2]--;
      search(i, sets + 1, partials, pair);
      c[i]++, c[i + 1]++, c[i + 2]++;
    }
    if (c[i] >= 2) {
      c[i] -= 2;
      if (!pair) search(i, sets, partials, 1);
      search(i, sets, partials + 1, pair);
      c[i] += 2;
    }
    for (const gap of [1, 2]) {
      if ((i % 9) + gap <= 8 && c[i + gap]) {
        c[i]--, c[i + gap]--;
        search(i, sets, partials + 1, pair);
        c[i]++, c[i + gap]++;
      }
    }
    c[i]--;
    search(i, sets, partials, pair);
    c[i]++;
  }
  search(0, melds, 0, 0);
  return best;
}

// Lower is more isolated: neighbours within two ranks in the same suit; terminals count less.
function isolation(c, i) {
  const rank = i % 9;
  let near = 0;
  for (const d of [-2, -1, 1, 2]) if (rank + d >= 0 && rank + d <= 8) near += c[i + d];
  return 3 * (c[i] - 1) + 2 * near + (rank === 0 || rank === 8 ? 0 : 1);
}

function lexicallyLess(a, b) {
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return a[j] < b[j];
  return false;
}

// ---- what this bot knows, and its decisions ----

class Table {
  constructor() {
    this.me = -1;
    this.hand = new Array(KINDS).fill(0);
    this.melds = []; // {kind, size}: size 3 (PENG) or 4 (GANG)
    this.claim = null; // {kind, answer} of a PENG/GANG of mine on a discard, not yet known to have happened
  }

  // Takes in one request, and my answer to it when it is a past turn.
  feed(request, answer) {
    const w = words(request);
    this.settleClaim(w);
    if (w[0] === "0") this.me = Number(w[1]);
    if (w[0] === "1") for (const name of w.slice(1)) this.hand[tileIndex(name)]++;
    if (w[0] === "2") this.hand[tileIndex(w[1])]++;
    if (answer !== undefined) this.did(w, words(answer));
  }

  // Takes in the current request and returns my answer to it.
  decide(request) {
    this.feed(request);
    const w = words(request);
    let answer = "PASS";
    if (w[0] === "2") answer = this.turn();
    if (w[0] === "3" && w[2] === "PLAY" && Number(w[1]) !== this.me) answer = this.react(tileIndex(w[3]));
    if (w[0] === "4") answer = this.target();
    this.did(w, words(answer));
    return answer;
  }

  peng(kind) {
    return this.melds.find((m) => m.kind === kind && m.size === 3);
  }

  // My PENG/GANG on a discard happened unless the very next request is somebody's HU on that tile.
  settleClaim(w) {
    if (this.claim === null) return;
    const { kind, answer } = this.claim;
    this.claim = null;
    if (w.length === 4 && w[0] === "3" && w[2] === "HU" && w[3] !== "SELF" && tileIndex(w[3]) === kind) return;
    if (answer[0] === "GANG" && this.peng(kind)) {
      this.peng(kind).size = 4; // the discard joined my PENG
      return;
    }
    this.hand[kind] -= 2;
    if (answer[0] === "PENG") {
      this.melds.push({ kind, size: 3 });
      this.hand[tileIndex(answer[1])]--;
    } else {
      this.hand[kind]--;
      this.melds.push({ kind, size: 4 });
    }
  }

  did(w, answer) {
    if (answer.length === 0) return;
    if (w[0] === "2" && answer.length === 2) {
      const kind = tileIndex(answer[1]);
      if (answer[0] === "PLAY") {
        this.hand[kind]--;
      } else if (answer[0] === "GANG" && this.peng(kind)) {
        this.peng(kind).size = 4;
        this.hand[kind]--;
      } else if (answer[0] === "GANG") {
        this.hand[kind] -= 4;
        this.melds.push({ kind, size: 4 });
      }
    } else if (w[0] === "3" && w[2] === "PLAY" && (answer[0] === "PENG" || answer[0] === "GANG")) {
      this.claim = { kind: tileIndex(w[3]), answer };
    }
  }

  wins() {
    return isComplete(this.hand, 4 - this.melds.length, true);
  }

  // {after: shanten after it, kind} of the best discard; kind -1 if there is none besides `avoid`.
  bestDiscard(avoid) {
    let best = null;
    let kind = -1;
    for (let k = 0; k < KINDS; k++) {
      if (!this.hand[k] || k === avoid) continue;
      this.hand[k]--;
      const value = [shanten(this.hand, this.melds.length), isolation(this.hand, k), -Math.abs((k % 9) - 4)];
      this.hand[k]++;
      if (best === null || lexicallyLess(value, best)) [best, kind] = [value, k];
    }
    return { after: best === null ? 99 : best[0], kind };
  }

  turn() {
    if (this.wins()) return "HU";
    for (const m of this.melds) if (m.size === 3 && this.hand[m.kind]) return "GANG " + tileName(m.kind);
    const now = shanten(this.hand, this.melds.length);
    for (let k = 0; k < KINDS; k++) {
      if (this.hand[k] !== 4) continue;
      this.hand[k] = 0;
      const after = shanten(this.hand, this.melds.length + 1);
      this.hand[k] = 4;
      if (after <= now) return "GANG " + tileName(k);
    }
    return "PLAY " + tileName(this.bestDiscard(-1).kind);
  }

  react(kind) {
    this.hand[kind]++;
    const winning = this.wins();
    this.hand[kind]--;
    if (winning) return "HU";
    if (this.peng(kind)) return "GANG"; // the discard makes my PENG a kong: same hand, one more draw
    if (this.hand[kind] < 2) return "PASS";
    const now = shanten(this.hand, this.melds.length);
    if (this.hand[kind] === 3) {
      this.hand[kind] = 0;
      const after = shanten(this.hand, this.melds.length + 1);
      this.hand[kind] = 3;
      if (after <= now) return "GANG";
    }
    this.hand[kind] -= 2;
    this.melds.push({ kind, size: 3 });
    const choice = this.bestDiscard(kind);
    this.melds.pop();
    this.hand[kind] += 2;
    return choice.kind >= 0 && choice.after < now ? "PENG " + tileName(choice.kind) : "PASS";
  }

  // A winning shape (my melds, 4 - melds more sets, a pair) sharing as many tiles with my hand as found.
  target() {
    const sets = [];
    for (let k = 0; k < KINDS; k++) sets.push([k, k, k]);
    for (let k = 0; k < KINDS; k++) if (k % 9 <= 6) sets.push([k, k + 1, k + 2]);
    const fixed = this.melds.flatMap((m) => new Array(m.size).fill(m.kind));
    let best = null;
    for (let pair = 0; pair < KINDS; pair++) {
      const used = new Array(KINDS).fill(0);
      for (const k of [...fixed, pair, pair]) used[k]++;
      if (Math.max(...used) > 4) continue;
      let left = this.hand.slice();
      let overlap = Math.min(left[pair], 2);
      left[pair] -= overlap;
      const chosen = [];
      for (let s = this.melds.length; s < 4; s++) {
        let pick = null;
        for (const set of sets) {
          if (set.some((k) => used[k] + set.filter((x) => x === k).length > 4)) continue;
          const spare = left.slice();
          let gain = 0;
          for (const k of set) if (spare[k]) spare[k]--, gain++;
          if (pick === null || gain > pick.gain) pick = { gain, set, spare };
        }
        overlap += pick.gain;
        left = pick.spare;
        for (const k of pick.set) used[k]++, chosen.push(k);
      }
      if (best === null || overlap > best.overlap) {
        best = { overlap, tiles: [...fixed, ...chosen.sort((a, b) => a - b), pair, pair] };
      }
    }
    return best.tiles.map(tileName).join(" ");
  }
}

// ONE line, then answer and exit (the judge does not close standard input).
const input = readline.createInterface({ input: process.stdin });
input.once("line", (line) => {
  input.close();
  const { requests, responses } = JSON.parse(line);
  const table = new Table();
  responses.forEach((response, turn) => table.feed(requests[turn], response));
  const answer = table.decide(requests[requests.length - 1]);
  process.stdout.write(JSON.stringify({ response: answer, data: "" }) + "\n", () => process.exit(0));
});
