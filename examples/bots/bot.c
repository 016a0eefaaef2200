/* An example NOI 2014 mahjong bot in C, restart mode: the judge starts it for every request.
 *
 * Build and run as the contest does:  gcc -o bot bot.c -lm   then   ./bot
 * Standard library only; copy it and improve the strategy.
 *
 * Each run reads ONE line of JSON from standard input,
 *   {"requests": [...], "responses": [...], "data": "...", "time_limit": "...", "memory_limit": "..."}
 * (every request of the game so far, and this bot's answers to all but the last one), rebuilds the table from
 * that history, prints ONE line {"response": "...", "data": ""} answering the last request, and exits.
 * docs/contestants.md and README.md in this folder list the requests and the answers.
 *
 * Strategy (the same in every example bot): HU whenever the hand wins; discard the tile whose loss keeps the
 * hand closest to winning (an isolated tile, a terminal first); PENG or a kong of three in hand only when it
 * brings the hand closer (or no further) to winning; GANG a discard or a drawn tile onto an own PENG always;
 * at "4" a winning-shaped target as close to the hand as a greedy search finds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KINDS 27
#define MAX_TEXT 64

/* ---- tiles: index = 9 * suit + rank - 1; W1..W9 = 0..8, B1..B9 = 9..17, T1..T9 = 18..26 ---- */

static int tile_index(const char *name) {
    const char *suits = "WBT";
    const char *at = strchr(suits, name[0] & ~32); /* upper case */
    if (at == NULL || name[0] == 0 || name[1] < '1' || name[1] > '9') return -1;
    return (int)(at - suits) * 9 + name[1] - '1';
}

static void tile_name(int index, char *out) {
    out[0] = "WBT"[index / 9];
    out[1] = (char)('1' + index % 9);
    out[2] = 0;
}

/* ---- a small JSON reader: just what the judge sends (an object with arrays of strings) ---- */

/* Reads the JSON string starting at *p (which points at its opening quote) into out (at most size - 1 bytes);
 * leaves *p after the closing quote.  Returns 0 if there is no well-formed string there. */
static int read_string(const char **p, char *out, size_t size) {
    const char *s = *p;
    size_t n = 0;
    if (*s != '"') return 0;
    for (s++; *s && *s != '"'; s++) {
        char c = *s;
        if (c == '\\') {
            s++;
            if (*s == 0) return 0;
            c = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
            if (*s == 'u') { /* \uXXXX: the protocol never needs one; keep a placeholder */
                if (strlen(s) < 5) return 0;
                s += 4;
                c = '?';
            }
        }
        if (n + 1 < size) out[n++] = c;
    }
    if (*s != '"') return 0;
    out[n] = 0;
    *p = s + 1;
    return 1;
}

static const char *skip_space(const char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    return s;
}

/* Finds "key": [ ... ] in the object and reads its strings into items; returns how many (-1 if missing). */
static int read_string_array(const char *json, const char *key, char (*items)[MAX_TEXT], int capacity) {
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *s = strstr(json, quoted);
    if (s == NULL) return -1;
    s = skip_space(s + strlen(quoted));
    if (*s != ':') return -1;
    s = skip_space(s + 1);
    if (*s != '[') return -1;
    int count = 0;
    for (s = skip_space(s + 1); *s != ']'; s = skip_space(s)) {
        if (count == capacity || !read_string(&s, items[count], MAX_TEXT)) return -1;
        count++;
        s = skip_space(s);
        if (*s == ',') s++;
        else if (*s != ']') return -1;
    }
    return count;
}

/* ---- hand analysis ---- */

/* Whether the counts split into exactly `sets` sets and (if need_pair) one pair. */
static int is_complete(int *c, int sets, int need_pair) {
    int first = 0;
    while (first < KINDS && c[first] == 0) first++;
    if (first == KINDS) return sets == 0 && !need_pair;
    if (need_pair && c[first] >= 2) {
        c[first] -= 2;
        int ok = is_complete(c, sets, 0);
        c[first] += 2;
        if (ok) return 1;
    }
    if (sets == 0) return 0;
    if (c[first] >= 3) {
        c[first] -= 3;
        int ok = is_complete(c, sets - 1, need_pair);
        c[first] += 3;
        if (ok) return 1;
    }
    if (first % 9 <= 6 && c[first + 1] && c[first + 2]) {
        c[first]--, c[first + 1]--, c[first + 2]--;
        int ok = is_complete(c, sets - 1, need_pair);
        c[first]++, c[first + 1]++, c[first + 2]++;
        return ok;
    }
    return 0;
}

static int best_shanten;

static void shanten_search(int *c, int i, int sets, int partials, int pair) {
    while (i < KINDS && c[i] == 0) i++;
    int useful = partials < 4 - sets ? partials : 4 - sets;
    int now = 8 - 2 * sets - useful - pair;
    if (i == KINDS) {
        if (now < best_shanten) best_shanten = now;
        return;
    }
    int left = 0;
    for (int k = i; k < KINDS; k++) left += c[k];
    int bound = now - (2 * left + 2) / 3;
    if ((bound < -1 ? -1 : bound) >= best_shanten) return; /* even the best use of the rest cannot improve */
    if (c[i] >= 3) {
        c[i] -= 3;
        shanten_search(c, i, sets + 1, partials, pair);
        c[i] += 3;
    }
    if (i % 9 <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        shanten_search(c, i, sets + 1, partials, pair);
        c[i]++, c[i + 1]++, c[i + 2]++;
    }
    if (c[i] >= 2) {
        c[i] -= 2;
        if (!pair) shanten_search(c, i, sets, partials, 1);
        shanten_search(c, i, sets, partials + 1, pair);
        c[i] += 2;
    }
    for (int gap = 1; gap <= 2; gap++) {
        if (i % 9 + gap <= 8 && c[i + gap]) {
            c[i]--, c[i + gap]--;
            shanten_search(c, i, sets, partials + 1, pair);
            c[i]++, c[i + gap]++;
        }
    }
    c[i]--;
    shanten_search(c, i, sets, partials, pair);
    c[i]++;
}

/* How many tiles away from a winning hand (-1: it wins); `melds` sets are already laid down. */
static int shanten(int *c, int melds) {
    best_shanten = 8;
    shanten_search(c, 0, melds, 0, 0);
    return best_shanten;
}

/* Lower is more isolated: neighbours within two ranks in the same suit; terminals count less. */
static int isolation(const int *c, int i) {
    int rank = i % 9, near = 0;
    for (int d = -2; d <= 2; d++)
        if (d != 0 && rank + d >= 0 && rank + d <= 8) near += c[i + d];
    return 3 * (c[i] - 1) + 2 * near + (rank == 0 || rank == 8 ? 0 : 1);
}

/* ---- what this bot knows ---- */

static int me = -1;
static int hand[KINDS];
static int meld_kind[4], meld_size[4], melds; /* laid sets: size 3 (PENG) or 4 (GANG) */
static int claim_kind = -1;                    /* a PENG/GANG of mine on a discard, not yet known to happen */
static char claim_answer[MAX_TEXT];

static int find_peng(int kind) {
    for (int m = 0; m < melds; m++)
        if (meld_kind[m] == kind && meld_size[m] == 3) return m;
    return -1;
}

static void add_meld(int kind, int size) {
    meld_kind[melds] = kind;
    meld_size[melds] = size;
    melds++;
}

static int split_words(const char *text, char words[][MAX_TEXT], int capacity) {
    int n = 0;
    char copy[MAX_TEXT];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *w = strtok(copy, " "); w != NULL && n < capacity; w = strtok(NULL, " "))
        snprintf(words[n++], MAX_TEXT, "%s", w);
    return n;
}

/* My PENG/GANG on a discard happened unless the very next request is somebody's HU on that tile. */
static void settle_claim(char words[][MAX_TEXT], int n) {
    if (claim_kind < 0) return;
    int kind = claim_kind;
    claim_kind = -1;
    if (n == 4 && strcmp(words[0], "3") == 0 && strcmp(words[2], "HU") == 0 && tile_index(words[3]) == kind) return;
    int peng = find_peng(kind);
    if (strncmp(claim_answer, "GANG", 4) == 0 && peng >= 0) {
        meld_size[peng] = 4; /* the discard joined my PENG */
        return;
    }
    hand[kind] -= 2;
    if (strncmp(claim_answer, "PENG", 4) == 0) {
        add_meld(kind, 3);
        hand[tile_index(claim_answer + 5)]--;
    } else {
        hand[kind]--;
        add_meld(kind, 4);
    }
}

/* Takes in one request (its words). */
static void see(char words[][MAX_TEXT], int n) {
    settle_claim(words, n);
    if (strcmp(words[0], "0") == 0 && n == 2) me = atoi(words[1]);
    else if (strcmp(words[0], "1") == 0)
        for (int w = 1; w < n; w++) hand[tile_index(words[w])]++;
    else if (strcmp(words[0], "2") == 0 && n == 2) hand[tile_index(words[1])]++;
}

/* Takes in my answer to a request. */
static void did(char words[][MAX_TEXT], int n, const char *answer) {
    if (strcmp(words[0], "2") == 0) {
        int kind = strlen(answer) >= 7 ? tile_index(answer + 5) : -1;
        if (strncmp(answer, "PLAY ", 5) == 0) hand[kind]--;
        else if (strncmp(answer, "GANG ", 5) == 0) {
            int peng = find_peng(kind);
            if (peng >= 0) {
                meld_size[peng] = 4;
                hand[kind]--;
            } else {
                hand[kind] -= 4;
                add_meld(kind, 4);
            }
        }
    } else if (strcmp(words[0], "3") == 0 && n == 4 && strcmp(words[2], "PLAY") == 0 &&
               (strncmp(answer, "PENG", 4) == 0 || strncmp(answer, "GANG", 4) == 0)) {
        claim_kind = tile_index(words[3]);
        snprintf(claim_answer, sizeof claim_answer, "%s", answer);
    }
}

/* ---- deciding ---- */

static int wins(void) { return is_complete(hand, 4 - melds, 1); }

static int lexically_less(const int *a, const int *b, int n) {
    for (int j = 0; j < n; j++)
        if (a[j] != b[j]) return a[j] < b[j];
    return 0;
}

/* The best discard (its shanten after in *after), or -1 if there is none besides `avoid`. */
static int best_discard(int avoid, int *after) {
    int best = -1, best_value[3] = {0, 0, 0};
    for (int k = 0; k < KINDS; k++) {
        if (hand[k] == 0 || k == avoid) continue;
        hand[k]--;
        int value[3] = {shanten(hand, melds), isolation(hand, k), -abs(k % 9 - 4)};
        hand[k]++;
        if (best < 0 || lexically_less(value, best_value, 3)) {
            best = k;
            memcpy(best_value, value, sizeof value);
        }
    }
    if (after != NULL) *after = best_value[0];
    return best;
}

static void turn(char *answer) {
    char name[3];
    if (wins()) {
        strcpy(answer, "HU");
        return;
    }
    for (int m = 0; m < melds; m++) {
        if (meld_size[m] == 3 && hand[meld_kind[m]]) { /* the fourth tile of my PENG is useless otherwise */
            tile_name(meld_kind[m], name);
            sprintf(answer, "GANG %s", name);
            return;
        }
    }
    int now = shanten(hand, melds);
    for (int k = 0; k < KINDS; k++) {
        if (hand[k] != 4) continue;
        hand[k] = 0;
        int after = shanten(hand, melds + 1);
        hand[k] = 4;
        if (after <= now) {
            tile_name(k, name);
            sprintf(answer, "GANG %s", name);
            return;
        }
    }
    tile_name(best_discard(-1, NULL), name);
    sprintf(answer, "PLAY %s", name);
}

static void react(int kind, char *answer) {
    hand[kind]++;
    int winning = wins();
    hand[kind]--;
    strcpy(answer, "PASS");
    if (winning) {
        strcpy(answer, "HU");
        return;
    }
    if (find_peng(kind) >= 0) { /* the discard makes my PENG a kong: the hand stays, and I draw again */
        strcpy(answer, "GANG");
        return;
    }
    if (hand[kind] < 2) return;
    int now = shanten(hand, melds);
    if (hand[kind] == 3) {
        hand[kind] = 0;
        int after = shanten(hand, melds + 1);
        hand[kind] = 3;
        if (after <= now) {
            strcpy(answer, "GANG");
            return;
        }
    }
    hand[kind] -= 2;
    melds++;
    int after, discard = best_discard(kind, &after);
    melds--;
    hand[kind] += 2;
    if (discard >= 0 && after < now) {
        char name[3];
        tile_name(discard, name);
        sprintf(answer, "PENG %s", name);
    }
}

/* A winning shape (my melds, 4 - melds more sets, a pair) sharing as many tiles with my hand as found. */
static void target(char *answer) {
    int best_overlap = -1, best_tiles[18], best_count = 0;
    for (int pair = 0; pair < KINDS; pair++) {
        int used[KINDS] = {0}, tiles[18], count = 0, ok = 1;
        for (int m = 0; m < melds; m++)
            for (int j = 0; j < meld_size[m]; j++) tiles[count++] = meld_kind[m], used[meld_kind[m]]++;
        used[pair] += 2;
        for (int k = 0; k < KINDS; k++) ok &= used[k] <= 4;
        if (!ok) continue;
        int left[KINDS];
        memcpy(left, hand, sizeof left);
        int overlap = left[pair] < 2 ? left[pair] : 2;
        left[pair] -= overlap;
        for (int s = melds; s < 4; s++) {
            int pick_gain = -1, pick[3] = {0, 0, 0};
            for (int form = 0; form < 2; form++) { /* triplets, then runs */
                for (int k = 0; k < KINDS; k++) {
                    int set[3] = {k, k + form, k + 2 * form};
                    if (form == 1 && k % 9 > 6) continue;
                    int need[KINDS] = {0}, fits = 1, gain = 0, spare[KINDS];
                    for (int j = 0; j < 3; j++) need[set[j]]++;
                    for (int j = 0; j < 3; j++) fits &= used[set[j]] + need[set[j]] <= 4;
                    if (!fits) continue;
                    memcpy(spare, left, sizeof spare);
                    for (int j = 0; j < 3; j++)
                        if (spare[set[j]]) spare[set[j]]--, gain++;
                    if (gain > pick_gain) pick_gain = gain, memcpy(pick, set, sizeof pick);
                }
            }
            overlap += pick_gain;
            for (int j = 0; j < 3; j++) {
                if (left[pick[j]]) left[pick[j]]--;
                used[pick[j]]++;
                tiles[count++] = pick[j];
            }
        }
        tiles[count++] = pair;
        tiles[count++] = pair;
        if (overlap > best_overlap) {
            best_overlap = overlap;
            best_count = count;
            memcpy(best_tiles, tiles, sizeof tiles);
        }
    }
    answer[0] = 0;
    for (int j = 0; j < best_count; j++) {
        char name[3];
        tile_name(best_tiles[j], name);
        strcat(answer, j ? " " : "");
        strcat(answer, name);
    }
}

static void decide(const char *request, char *answer) {
    char words[16][MAX_TEXT];
    int n = split_words(request, words, 16);
    see(words, n);
    if (n == 2 && strcmp(words[0], "2") == 0) turn(answer);
    else if (n == 4 && strcmp(words[0], "3") == 0 && strcmp(words[2], "PLAY") == 0 && atoi(words[1]) != me)
        react(tile_index(words[3]), answer);
    else if (n == 1 && strcmp(words[0], "4") == 0) target(answer);
    else strcpy(answer, "PASS");
}

/* ---- one turn ---- */

#define MAX_TURNS 512

static char requests[MAX_TURNS][MAX_TEXT], responses[MAX_TURNS][MAX_TEXT];

/* One whole line of standard input, however long (the history grows with the game); NULL at end of input. */
static char *read_line(void) {
    size_t size = 1 << 16, length = 0;
    char *line = malloc(size);
    int c;
    while (line != NULL && (c = getchar()) != EOF && c != '\n') {
        if (length + 1 == size) line = realloc(line, size *= 2);
        if (line != NULL) line[length++] = (char)c;
    }
    if (line != NULL) line[length] = 0;
    return line;
}

int main(void) {
    char *input = read_line();
    int n_requests = input ? read_string_array(input, "requests", requests, MAX_TURNS) : -1;
    int n_responses = input ? read_string_array(input, "responses", responses, MAX_TURNS) : -1;
    if (n_requests < 1 || n_responses != n_requests - 1) {
        fprintf(stderr, "bot.c: not the judge's JSON (requests %d, responses %d)\n", n_requests, n_responses);
        return 1;
    }
    char answer[128];
    for (int t = 0; t < n_responses; t++) {
        char words[16][MAX_TEXT];
        int n = split_words(requests[t], words, 16);
        see(words, n);
        did(words, n, responses[t]);
    }
    decide(requests[n_requests - 1], answer);
    printf("{\"response\": \"%s\", \"data\": \"\"}\n", answer);
    free(input);
    return 0;
}
