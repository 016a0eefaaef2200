// An example NOI 2014 mahjong bot in C++, restart mode: the judge starts it for every request.
//
// Build and run as the contest does:  g++ -o bot bot.cpp   then   ./bot
// Standard library only; copy it and improve the strategy.
//
// Each run reads ONE line of JSON from standard input,
//   {"requests": [...], "responses": [...], "data": "...", "time_limit": "...", "memory_limit": "..."}
// (every request of the game so far, and this bot's answers to all but the last one), rebuilds the table from
// that history, prints ONE line {"response": "...", "data": ""} answering the last request, and exits.
// docs/contestants.md and README.md in this folder list the requests and the answers.
//
// Strategy (the same in every example bot): HU whenever the hand wins; discard the tile whose loss keeps the
// hand closest to winning (an isolated tile, a terminal first); PENG or a kong of three in hand only when it
// brings the hand closer (or no further) to winning; GANG a discard or a drawn tile onto an own PENG always;
// at "4" a winning-shaped target as close to the hand as a greedy search finds.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace std;

const int KINDS = 27;
typedef array<int, KINDS> Counts;

// ---- tiles: index = 9 * suit + rank - 1; W1..W9 = 0..8, B1..B9 = 9..17, T1..T9 = 18..26 ----

int tileIndex(const string &name) {
    string suits = "WBT";
    size_t suit = name.empty() ? string::npos : suits.find((char)toupper(name[0]));
    if (suit == string::npos || name.size() != 2 || name[1] < '1' || name[1] > '9') return -1;
    return (int)suit * 9 + name[1] - '1';
}

string tileName(int index) { return string(1, "WBT"[index / 9]) + char('1' + index % 9); }

vector<string> words(const string &text) {
    istringstream in(text);
    vector<string> out;
    for (string word; in >> word;) out.push_back(word);
    return out;
}

// ---- a small JSON reader: just what the judge sends (an object with arrays of strings) ----

struct JsonReader {
    const string &text;
    size_t at;

    void skipSpace() {
        while (at < text.size() && isspace((unsigned char)text[at])) at++;
    }

    // The string starting at `at` (its opening quote); false if there is none.
    bool readString(string &out) {
        skipSpace();
        if (at >= text.size() || text[at] != '"') return false;
        out.clear();
        for (at++; at < text.size() && text[at] != '"'; at++) {
            char c = text[at];
            if (c == '\\') {
                if (++at >= text.size()) return false;
                c = text[at] == 'n' ? '\n' : text[at] == 't' ? '\t' : text[at];
                if (text[at] == 'u') {  // \uXXXX: the protocol never needs one; keep a placeholder
                    at += 4;
                    c = '?';
                }
            }
            out += c;
        }
        if (at >= text.size()) return false;
        at++;
        return true;
    }

    // The array of strings under "key" in the object; false if it is missing or malformed.
    bool stringArray(const string &key, vector<string> &out) {
        size_t found = text.find("\"" + key + "\"");
        if (found == string::npos) return false;
        at = found + key.size() + 2;
        skipSpace();
        if (at >= text.size() || text[at++] != ':') return false;
        skipSpace();
        if (at >= text.size() || text[at++] != '[') return false;
        for (skipSpace(); at < text.size() && text[at] != ']'; skipSpace()) {
            string item;
            if (!readString(item)) return false;
            out.push_back(item);
            skipSpace();
            if (at < text.size() && text[at] == ',') at++;
        }
        return at < text.size();
    }
};

// ---- hand analysis ----

// Whether the counts split into exactly `sets` sets and (if needPair) one pair.
bool isComplete(Counts &c, int sets, bool needPair) {
    int first = 0;
    while (first < KINDS && c[first] == 0) first++;
    if (first == KINDS) return sets == 0 && !needPair;
    if (needPair && c[first] >= 2) {
        c[first] -= 2;
        bool ok = isComplete(c, sets, false);
        c[first] += 2;
        if (ok) return true;
    }
    if (sets == 0) return false;
    if (c[first] >= 3) {
        c[first] -= 3;
        bool ok = isComplete(c, sets - 1, needPair);
        c[first] += 3;
        if (ok) return true;
    }
    if (first % 9 <= 6 && c[first + 1] && c[first + 2]) {
        c[first]--, c[first + 1]--, c[first + 2]--;
        bool ok = isComplete(c, sets - 1, needPair);
        c[first]++, c[first + 1]++, c[first + 2]++;
        return ok;
    }
    return false;
}

struct Shanten {
    Counts &c;
    int best = 8;

    void search(int i, int sets, int partials, int pair) {
        while (i < KINDS && c[i] == 0) i++;
        int now = 8 - 2 * sets - min(partials, 4 - sets) - pair;
        if (i == KINDS) {
            best = min(best, now);
            return;
        }
        int left = 0;
        for (int k = i; k < KINDS; k++) left += c[k];
        if (max(-1, now - (2 * left + 2) / 3) >= best) return;  // the best use of the rest cannot improve
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
        for (int gap = 1; gap <= 2; gap++) {
            if (i % 9 + gap <= 8 && c[i + gap]) {
                c[i]--, c[i + gap]--;
                search(i, sets, partials + 1, pair);
                c[i]++, c[i + gap]++;
            }
        }
        c[i]--;
        search(i, sets, partials, pair);
        c[i]++;
    }
};

// How many tiles away from a winning hand (-1: it wins); `melds` sets are already laid down.
int shanten(Counts &c, int melds) {
    Shanten s{c};
    s.search(0, melds, 0, 0);
    return s.best;
}

// Lower is more isolated: neighbours within two ranks in the same suit; terminals count less.
int isolation(const Counts &c, int i) {
    int rank = i % 9, near = 0;
    for (int d = -2; d <= 2; d++)
        if (d != 0 && rank + d >= 0 && rank + d <= 8) near += c[i + d];
    return 3 * (c[i] - 1) + 2 * near + (rank == 0 || rank == 8 ? 0 : 1);
}

// ---- what this bot knows, and its decisions ----

struct Meld {
    int kind, size;  // size 3 (PENG) or 4 (GANG)
};

class Table {
   public:
    // Takes in one request, and my answer to it when it is a past turn.
    void feed(const string &request, const string *answer) {
        vector<string> w = words(request);
        settleClaim(w);
        if (w.size() == 2 && w[0] == "0") me = atoi(w[1].c_str());
        if (w.size() > 1 && w[0] == "1")
            for (size_t j = 1; j < w.size(); j++) hand[tileIndex(w[j])]++;
        if (w.size() == 2 && w[0] == "2") hand[tileIndex(w[1])]++;
        if (answer != NULL) did(w, words(*answer));
    }

    // Takes in the current request and returns my answer to it.
    string decide(const string &request) {
        feed(request, NULL);
        vector<string> w = words(request);
        string answer = "PASS";
        if (w.size() == 2 && w[0] == "2") answer = turn();
        if (w.size() == 4 && w[0] == "3" && w[2] == "PLAY" && atoi(w[1].c_str()) != me) answer = react(tileIndex(w[3]));
        if (w.size() == 1 && w[0] == "4") answer = target();
        did(w, words(answer));
        return answer;
    }

   private:
    int me = -1;
    Counts hand{};
    vector<Meld> melds;
    int claimKind = -1;  // a PENG/GANG of mine on a discard, not yet known to have happened
    vector<string> claimAnswer;

    Meld *peng(int kind) {
        for (Meld &m : melds)
            if (m.kind == kind && m.size == 3) return &m;
        return NULL;
    }

    // My PENG/GANG on a discard happened unless the very next request is somebody's HU on that tile.
    void settleClaim(const vector<string> &w) {
        if (claimKind < 0) return;
        int kind = claimKind;
        claimKind = -1;
        if (w.size() == 4 && w[0] == "3" && w[2] == "HU" && tileIndex(w[3]) == kind) return;
        if (claimAnswer[0] == "GANG" && peng(kind) != NULL) {
            peng(kind)->size = 4;  // the discard joined my PENG
            return;
        }
        hand[kind] -= 2;
        if (claimAnswer[0] == "PENG") {
            melds.push_back({kind, 3});
            hand[tileIndex(claimAnswer[1])]--;
        } else {
            hand[kind]--;
            melds.push_back({kind, 4});
        }
    }

    void did(const vector<string> &w, const vector<string> &answer) {
        if (answer.empty()) return;
        if (w[0] == "2" && answer.size() == 2) {
            int kind = tileIndex(answer[1]);
            if (answer[0] == "PLAY") {
                hand[kind]--;
            } else if (answer[0] == "GANG" && peng(kind) != NULL) {
                peng(kind)->size = 4;
                hand[kind]--;
            } else if (answer[0] == "GANG") {
                hand[kind] -= 4;
                melds.push_back({kind, 4});
            }
        } else if (w.size() == 4 && w[0] == "3" && w[2] == "PLAY" && (answer[0] == "PENG" || answer[0] == "GANG")) {
            claimKind = tileIndex(w[3]);
            claimAnswer = answer;
        }
    }

    int laid() const { return (int)melds.size(); }

    bool wins() { return isComplete(hand, 4 - laid(), true); }

    // The best discard (and the shanten after it), or -1 if there is none besides `avoid`.
    pair<int, int> bestDiscard(int avoid) {
        array<int, 3> best{};
        int choice = -1;
        for (int k = 0; k < KINDS; k++) {
            if (hand[k] == 0 || k == avoid) continue;
            hand[k]--;
            array<int, 3> value = {shanten(hand, laid()), isolation(hand, k), -abs(k % 9 - 4)};
            hand[k]++;
            if (choice < 0 || value < best) choice = k, best = value;
        }
        return make_pair(best[0], choice);
    }

    string turn() {
        if (wins()) return "HU";
        for (const Meld &m : melds)
            if (m.size == 3 && hand[m.kind]) return "GANG " + tileName(m.kind);  // useless otherwise
        int now = shanten(hand, laid());
        for (int k = 0; k < KINDS; k++) {
            if (hand[k] != 4) continue;
            hand[k] = 0;
            int after = shanten(hand, laid() + 1);
            hand[k] = 4;
            if (after <= now) return "GANG " + tileName(k);
        }
        return "PLAY " + tileName(bestDiscard(-1).second);
    }

    string react(int kind) {
        hand[kind]++;
        bool winning = wins();
        hand[kind]--;
        if (winning) return "HU";
        if (peng(kind) != NULL) return "GANG";  // the discard makes my PENG a kong: same hand, one more draw
        if (hand[kind] < 2) return "PASS";
        int now = shanten(hand, laid());
        if (hand[kind] == 3) {
            hand[kind] = 0;
            int after = shanten(hand, laid() + 1);
            hand[kind] = 3;
            if (after <= now) return "GANG";
        }
        hand[kind] -= 2;
        melds.push_back({kind, 3});
        pair<int, int> choice = bestDiscard(kind);
        melds.pop_back();
        hand[kind] += 2;
        if (choice.second >= 0 && choice.first < now) return "PENG " + tileName(choice.second);
        return "PASS";
    }

    // A winning shape (my melds, 4 - melds more sets, a pair) sharing as many tiles with my hand as found.
    string target() {
        vector<array<int, 3>> sets;
        for (int k = 0; k < KINDS; k++) sets.push_back({k, k, k});
        for (int k = 0; k < KINDS; k++)
            if (k % 9 <= 6) sets.push_back({k, k + 1, k + 2});
        vector<int> fixed;
        for (const Meld &m : melds) fixed.insert(fixed.end(), m.size, m.kind);
        int bestOverlap = -1;
        vector<int> best;
        for (int pair = 0; pair < KINDS; pair++) {
            Counts used{};
            for (int k : fixed) used[k]++;
            used[pair] += 2;
            if (*max_element(used.begin(), used.end()) > 4) continue;
            Counts left = hand;
            int overlap = min(left[pair], 2);
            left[pair] -= overlap;
            vector<int> chosen;
            for (int s = laid(); s < 4; s++) {
                int pickGain = -1;
                array<int, 3> pick{};
                Counts pickLeft{};
                for (const array<int, 3> &set : sets) {
                    Counts need{};
                    bool fits = true;
                    for (int k : set) need[k]++;
                    for (int k : set) fits = fits && used[k] + need[k] <= 4;
                    if (!fits) continue;
                    Counts spare = left;
                    int gain = 0;
                    for (int k : set)
                        if (spare[k]) spare[k]--, gain++;
                    if (gain > pickGain) pickGain = gain, pick = set, pickLeft = spare;
                }
                overlap += pickGain;
                left = pickLeft;
                for (int k : pick) used[k]++, chosen.push_back(k);
            }
            if (overlap > bestOverlap) {
                bestOverlap = overlap;
                sort(chosen.begin(), chosen.end());
                best = fixed;
                best.insert(best.end(), chosen.begin(), chosen.end());
                best.push_back(pair);
                best.push_back(pair);
            }
        }
        string out;
        for (int k : best) out += (out.empty() ? "" : " ") + tileName(k);
        return out;
    }
};

int main() {
    string line;
    getline(cin, line);  // ONE line: the judge does not close standard input
    JsonReader reader{line, 0};
    vector<string> requests, responses;
    if (!reader.stringArray("requests", requests) || !reader.stringArray("responses", responses) ||
        requests.size() != responses.size() + 1) {
        cerr << "bot.cpp: the input is not the judge's JSON" << endl;
        return 1;
    }
    Table table;
    for (size_t t = 0; t < responses.size(); t++) table.feed(requests[t], &responses[t]);
    cout << "{\"response\": \"" << table.decide(requests.back()) << "\", \"data\": \"\"}" << endl;
    return 0;
}
