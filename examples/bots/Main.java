// An example NOI 2014 mahjong bot in Java, KEEP-RUNNING mode: one process for the whole game.
//
// Build and run as the contest does:  javac Main.java   then   java -cp DIR Main   (the class must be Main)
// Standard library only; copy it and improve the strategy.
//
// Why keep-running: starting a JVM costs about half a second, paid on every request in restart mode. This bot
// reads its first line, the judge's whole history
//   {"requests": [...], "responses": [...], "data": "...", "time_limit": "...", "memory_limit": "..."}
// answers the last request with ONE line {"response": "...", "data": ""}, then prints the line
// >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and flushes. Every later line is one bare request, JSON-encoded ("2 T3",
// quotes included), answered the same way. A history line may come again at any time (after a restart); the
// bot then starts over from it. docs/contestants.md and README.md in this folder list the requests and answers.
//
// Strategy (the same in every example bot): HU whenever the hand wins; discard the tile whose loss keeps the
// hand closest to winning (an isolated tile, a terminal first); PENG or a kong of three in hand only when it
// brings the hand closer (or no further) to winning; GANG a discard or a drawn tile onto an own PENG always;
// at "4" a winning-shaped target as close to the hand as a greedy search finds.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Main {
    static final int KINDS = 27;
    static final String KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

    // ---- tiles: index = 9 * suit + rank - 1; W1..W9 = 0..8, B1..B9 = 9..17, T1..T9 = 18..26 ----

    static int tileIndex(String name) {
        int suit = "WBT".indexOf(Character.toUpperCase(name.charAt(0)));
        if (suit < 0 || name.length() != 2 || name.charAt(1) < '1' || name.charAt(1) > '9') return -1;
        return suit * 9 + name.charAt(1) - '1';
    }

    static String tileName(int index) {
        return "" + "WBT".charAt(index / 9) + (index % 9 + 1);
    }

    static String[] words(String text) {
        String trimmed = text.trim();
        return trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
    }

    // ---- a small JSON reader: just what the judge sends (a string, or an object with arrays of strings) ----

    static final class Json {
        final String text;
        int at;

        Json(String text, int at) {
            this.text = text;
            this.at = at;
        }

        void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        }

        String string() {
            skipSpace();
            if (at >= text.length() || text.charAt(at) != '"') throw new IllegalArgumentException("no string");
            StringBuilder out = new StringBuilder();
            for (at++; text.charAt(at) != '"'; at++) {
                char c = text.charAt(at);
                if (c == '\\') {
                    c = text.charAt(++at);
                    if (c == 'n') c = '\n';
                    if (c == 't') c = '\t';
                    if (c == 'u') {
                        c = (char) Integer.parseInt(text.substring(at + 1, at + 5), 16);
                        at += 4;
                    }
                }
                out.append(c);
            }
            at++;
            return out.toString();
        }

        List<String> stringArray(String key) {
            at = text.indexOf("\"" + key + "\"");
            if (at < 0) throw new IllegalArgumentException("no \"" + key + "\"");
            at += key.length() + 2;
            skipSpace();
            if (text.charAt(at++) != ':') throw new IllegalArgumentException("no ':' after \"" + key + "\"");
            skipSpace();
            if (text.charAt(at++) != '[') throw new IllegalArgumentException("\"" + key + "\" is not an array");
            List<String> items = new ArrayList<>();
            for (skipSpace(); text.charAt(at) != ']'; skipSpace()) {
                items.add(string());
                skipSpace();
                if (text.charAt(at) == ',') at++;
            }
            return items;
        }
    }

    // ---- hand analysis ----

    // Whether the counts split into exactly `sets` sets and (if needPair) one pair.
    static boolean isComplete(int[] c, int sets, boolean needPair) {
        int first = 0;
        while (first < KINDS && c[first] == 0) first++;
        if (first == KINDS) return sets == 0 && !needPair;
        if (needPair && c[first] >= 2) {
            c[first] -= 2;
            boolean ok = isComplete(c, sets, false);
            c[first] += 2;
            if (ok) return true;
        }
        if (sets == 0) return false;
        if (c[first] >= 3) {
            c[first] -= 3;
            boolean ok = isComplete(c, sets - 1, needPair);
            c[first] += 3;
            if (ok) return true;
        }
        if (first % 9 <= 6 && c[first + 1] > 0 && c[first + 2] > 0) {
            c[first]--; c[first + 1]--; c[first + 2]--;
            boolean ok = isComplete(c, sets - 1, needPair);
            c[first]++; c[first + 1]++; c[first + 2]++;
            return ok;
        }
        return false;
    }

    static final class Shanten {
        final int[] c;
        int best = 8;

        Shanten(int[] c) {
            this.c = c;
        }

        void search(int i, int sets, int partials, int pair) {
            while (i < KINDS && c[i] == 0) i++;
            int now = 8 - 2 * sets - Math.min(partials, 4 - sets) - pair;
            if (i == KINDS) {
                best = Math.min(best, now);
                return;
            }
            int left = 0;
            for (int k = i; k < KINDS; k++) left += c[k];
            if (Math.max(-1, now - (2 * left + 2) / 3) >= best) return;  // the best use of the rest cannot improve
            if (c[i] >= 3) {
                c[i] -= 3;
                search(i, sets + 1, partials, pair);
                c[i] += 3;
            }
            if (i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0) {
                c[i]--; c[i + 1]--; c[i + 2]--;
                search(i, sets + 1, partials, pair);
                c[i]++; c[i + 1]++; c[i + 2]++;
            }
            if (c[i] >= 2) {
                c[i] -= 2;
                if (pair == 0) search(i, sets, partials, 1);
                search(i, sets, partials + 1, pair);
                c[i] += 2;
            }
            for (int gap = 1; gap <= 2; gap++) {
                if (i % 9 + gap <= 8 && c[i + gap] > 0) {
                    c[i]--; c[i + gap]--;
                    search(i, sets, partials + 1, pair);
                    c[i]++; c[i + gap]++;
                }
            }
            c[i]--;
            search(i, sets, partials, pair);
            c[i]++;
        }
    }

    // How many tiles away from a winning hand (-1: it wins); `melds` sets are already laid down.
    static int shanten(int[] c, int melds) {
        Shanten s = new Shanten(c);
        s.search(0, melds, 0, 0);
        return s.best;
    }

    // Lower is more isolated: neighbours within two ranks in the same suit; terminals count less.
    static int isolation(int[] c, int i) {
        int rank = i % 9, near = 0;
        for (int d = -2; d <= 2; d++) if (d != 0 && rank + d >= 0 && rank + d <= 8) near += c[i + d];
        return 3 * (c[i] - 1) + 2 * near + (rank == 0 || rank == 8 ? 0 : 1);
    }

    // ---- what this bot knows, and its decisions ----

    static final class Table {
        int me = -1;
        final int[] hand = new int[KINDS];
        final List<int[]> melds = new ArrayList<>();  // {kind, size}: size 3 (PENG) or 4 (GANG)
        int claimKind = -1;  // a PENG/GANG of mine on a discard, not yet known to have happened
        String[] claimAnswer;

        // Takes in one request, and my answer to it when it is a past turn (null: the current one).
        void feed(String request, String answer) {
            String[] w = words(request);
            settleClaim(w);
            if (w.length == 2 && w[0].equals("0")) me = Integer.parseInt(w[1]);
            if (w.length > 1 && w[0].equals("1")) for (int j = 1; j < w.length; j++) hand[tileIndex(w[j])]++;
            if (w.length == 2 && w[0].equals("2")) hand[tileIndex(w[1])]++;
            if (answer != null) did(w, words(answer));
        }

        // Takes in the current request and returns my answer to it (remembering that answer).
        String decide(String request) {
            feed(request, null);
            String[] w = words(request);
            String answer = "PASS";
            if (w.length == 2 && w[0].equals("2")) answer = turn();
            if (w.length == 4 && w[0].equals("3") && w[2].equals("PLAY") && Integer.parseInt(w[1]) != me) {
                answer = react(tileIndex(w[3]));
            }
            if (w.length == 1 && w[0].equals("4")) answer = target();
            did(w, words(answer));
            return answer;
        }

        int[] peng(int kind) {
            for (int[] m : melds) if (m[0] == kind && m[1] == 3) return m;
            return null;
        }

        // My PENG/GANG on a discard happened unless the very next request is somebody's HU on that tile.
        void settleClaim(String[] w) {
            if (claimKind < 0) return;
            int kind = claimKind;
            claimKind = -1;
            if (w.length == 4 && w[0].equals("3") && w[2].equals("HU") && tileIndex(w[3]) == kind) return;
            if (claimAnswer[0].equals("GANG") && peng(kind) != null) {
                peng(kind)[1] = 4;  // the discard joined my PENG
                return;
            }
            hand[kind] -= 2;
            if (claimAnswer[0].equals("PENG")) {
                melds.add(new int[] {kind, 3});
                hand[tileIndex(claimAnswer[1])]--;
            } else {
                hand[kind]--;
                melds.add(new int[] {kind, 4});
            }
        }

        void did(String[] w, String[] answer) {
            if (answer.length == 0 || w.length == 0) return;
            if (w[0].equals("2") && answer.length == 2) {
                int kind = tileIndex(answer[1]);
                if (answer[0].equals("PLAY")) {
                    hand[kind]--;
                } else if (answer[0].equals("GANG") && peng(kind) != null) {
                    peng(kind)[1] = 4;
                    hand[kind]--;
                } else if (answer[0].equals("GANG")) {
                    hand[kind] -= 4;
                    melds.add(new int[] {kind, 4});
                }
            } else if (w.length == 4 && w[0].equals("3") && w[2].equals("PLAY")
                    && (answer[0].equals("PENG") || answer[0].equals("GANG"))) {
                claimKind = tileIndex(w[3]);
                claimAnswer = answer;
            }
        }

        boolean wins() {
            return isComplete(hand, 4 - melds.size(), true);
        }

        // {shanten after, kind} of the best discard; kind -1 if there is none besides `avoid`.
        int[] bestDiscard(int avoid) {
            int[] best = null;
            int choice = -1;
            for (int k = 0; k < KINDS; k++) {
                if (hand[k] == 0 || k == avoid) continue;
                hand[k]--;
                int[] value = {shanten(hand, melds.size()), isolation(hand, k), -Math.abs(k % 9 - 4)};
                hand[k]++;
                if (best == null || Arrays.compare(value, best) < 0) {
                    best = value;
                    choice = k;
                }
            }
            return new int[] {best == null ? 99 : best[0], choice};
        }

        String turn() {
            if (wins()) return "HU";
            for (int[] m : melds) if (m[1] == 3 && hand[m[0]] > 0) return "GANG " + tileName(m[0]);  // else useless
            int now = shanten(hand, melds.size());
            for (int k = 0; k < KINDS; k++) {
                if (hand[k] != 4) continue;
                hand[k] = 0;
                int after = shanten(hand, melds.size() + 1);
                hand[k] = 4;
                if (after <= now) return "GANG " + tileName(k);
            }
            return "PLAY " + tileName(bestDiscard(-1)[1]);
        }

        String react(int kind) {
            hand[kind]++;
            boolean winning = wins();
            hand[kind]--;
            if (winning) return "HU";
            if (peng(kind) != null) return "GANG";  // the discard makes my PENG a kong: same hand, one more draw
            if (hand[kind] < 2) return "PASS";
            int now = shanten(hand, melds.size());
            if (hand[kind] == 3) {
                hand[kind] = 0;
                int after = shanten(hand, melds.size() + 1);
                hand[kind] = 3;
                if (after <= now) return "GANG";
            }
            hand[kind] -= 2;
            melds.add(new int[] {kind, 3});
            int[] choice = bestDiscard(kind);
            melds.remove(melds.size() - 1);
            hand[kind] += 2;
            if (choice[1] >= 0 && choice[0] < now) return "PENG " + tileName(choice[1]);
            return "PASS";
        }

        // A winning shape (my melds, 4 - melds more sets, a pair) sharing as many tiles with my hand as found.
        String target() {
            List<int[]> sets = new ArrayList<>();
            for (int k = 0; k < KINDS; k++) sets.add(new int[] {k, k, k});
            for (int k = 0; k < KINDS; k++) if (k % 9 <= 6) sets.add(new int[] {k, k + 1, k + 2});
            List<Integer> fixed = new ArrayList<>();
            for (int[] m : melds) for (int j = 0; j < m[1]; j++) fixed.add(m[0]);
            int bestOverlap = -1;
            List<Integer> best = null;
            for (int pair = 0; pair < KINDS; pair++) {
                int[] used = new int[KINDS];
                for (int k : fixed) used[k]++;
                used[pair] += 2;
                if (Arrays.stream(used).max().getAsInt() > 4) continue;
                int[] left = hand.clone();
                int overlap = Math.min(left[pair], 2);
                left[pair] -= overlap;
                List<Integer> chosen = new ArrayList<>();
                for (int s = melds.size(); s < 4; s++) {
                    int pickGain = -1;
                    int[] pick = null, pickLeft = null;
                    for (int[] set : sets) {
                        int[] need = new int[KINDS];
                        boolean fits = true;
                        for (int k : set) need[k]++;
                        for (int k : set) fits &= used[k] + need[k] <= 4;
                        if (!fits) continue;
                        int[] spare = left.clone();
                        int gain = 0;
                        for (int k : set) {
                            if (spare[k] > 0) {
                                spare[k]--;
                                gain++;
                            }
                        }
                        if (gain > pickGain) {
                            pickGain = gain;
                            pick = set;
                            pickLeft = spare;
                        }
                    }
                    overlap += pickGain;
                    left = pickLeft;
                    for (int k : pick) {
                        used[k]++;
                        chosen.add(k);
                    }
                }
                if (overlap > bestOverlap) {
                    bestOverlap = overlap;
                    best = new ArrayList<>(fixed);
                    chosen.sort(null);
                    best.addAll(chosen);
                    best.add(pair);
                    best.add(pair);
                }
            }
            StringBuilder out = new StringBuilder();
            for (int k : best) out.append(out.length() > 0 ? " " : "").append(tileName(k));
            return out.toString();
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Table table = new Table();
        for (String line; (line = in.readLine()) != null; ) {
            String answer;
            if (line.trim().startsWith("{")) {  // the whole history: start over from it
                Json json = new Json(line, 0);
                List<String> requests = json.stringArray("requests");
                List<String> responses = json.stringArray("responses");
                table = new Table();
                for (int t = 0; t < responses.size(); t++) table.feed(requests.get(t), responses.get(t));
                answer = table.decide(requests.get(requests.size() - 1));
            } else {
                answer = table.decide(new Json(line, 0).string());
            }
            System.out.println("{\"response\": \"" + answer + "\", \"data\": \"\"}");
            System.out.println(KEEP_RUNNING);
            System.out.flush();
        }
    }
}
