/* Optional C accelerator of the hand analysis; every function here has a pure-Python reference that the tests
 * compare it with, and the package works the same (slower) without it.
 *
 * scan(counts, live_end) -> (m, p, s, h, tiles, pairs) or None            (mjarena.hand.wild)
 * standard_distance(counts, melds) -> int or None                         (mjarena.hand.standard)
 * batch_distance(counts, melds, per_row, out, group, weight, live, tables..., sizes...) -> -1 or a bad row
 *                                                                          (mjarena.hand.batch)
 * arranger(groups, numbers, order, Arrangement, ..., rules...) -> Arranger; Arranger.arrangements(counts, melds)
 *     -> list of Arrangement or None                                      (mjarena.hand.wild)
 *
 * scan:
 *
 * ``counts`` must be a list or tuple of 38 ints, kinds 0..36 holding 0..4 and kind 37 (the wildcard) 0..8;
 * anything else gives None and the caller explains what is wrong (the pure-Python scan is the reference and
 * the fallback: mjarena.hand.wild._scan_python).  m, p, s, h are the base-5 group keys of kinds 0-8, 9-17,
 * 18-26, 27-33; ``tiles`` the number of tiles; ``pairs`` is 64 x pairs + odd counts over kinds < live_end
 * (four of a kind is two pairs).  Built by setup.py as an optional extension: without a compiler the package
 * works the same, slower.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NUM_KINDS 38
#define WILD 37

static PyObject *
scan(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "scan(counts, live_end) takes two arguments");
        return NULL;
    }
    PyObject *counts = args[0];
    Py_ssize_t live_end = PyLong_AsSsize_t(args[1]);
    if (live_end == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (live_end < 0 || live_end > WILD) {
        PyErr_SetString(PyExc_ValueError, "live_end must be 0..37");
        return NULL;
    }
    PyObject **items;
    if (PyList_CheckExact(counts) && PyList_GET_SIZE(counts) == NUM_KINDS) {
        items = ((PyListObject *)counts)->ob_item;
    } else if (PyTuple_CheckExact(counts) && PyTuple_GET_SIZE(counts) == NUM_KINDS) {
        items = ((PyTupleObject *)counts)->ob_item;
    } else {
        Py_RETURN_NONE;
    }
    long c[NUM_KINDS];
    for (int kind = 0; kind < NUM_KINDS; kind++) {
        PyObject *item = items[kind];
        if (!PyLong_CheckExact(item)) {
            Py_RETURN_NONE;
        }
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || value < 0 || value > (kind == WILD ? 8 : 4)) {
            Py_RETURN_NONE;
        }
        c[kind] = value;
    }
    long keys[4] = {0, 0, 0, 0};
    for (int group = 0; group < 4; group++) {
        int first = 9 * group, last = group < 3 ? first + 9 : first + 7;
        long key = 0;
        for (int kind = last - 1; kind >= first; kind--) {
            key = key * 5 + c[kind];
        }
        keys[group] = key;
    }
    long tiles = 0, doubles = 0, singles = 0;
    for (int kind = 0; kind < NUM_KINDS; kind++) {
        tiles += c[kind];
        if (kind < live_end) {
            doubles += c[kind] >> 1;
            singles += c[kind] & 1;
        }
    }
    long values[6] = {keys[0], keys[1], keys[2], keys[3], tiles, 64 * doubles + singles};
    PyObject *result = PyTuple_New(6);
    if (result == NULL) {
        return NULL;
    }
    for (int i = 0; i < 6; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, value);
    }
    return result;
}

/* ------------------------------------------------------------------------------------------ the standard form */

/* The tables of mjarena.hand.tables, installed once by mjarena.hand.standard (references held for good). */
static Py_buffer std_suit, std_honour, std_pair, std_triple, std_final;
static long std_suit_classes, std_honour_classes;
static int std_ready = 0;

static PyObject *
install_standard_tables(PyObject *module, PyObject *args)
{
    if (std_ready) {
        Py_RETURN_NONE;
    }
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*ll", &std_suit, &std_honour, &std_pair, &std_triple, &std_final,
                          &std_suit_classes, &std_honour_classes)) {
        return NULL;
    }
    if (std_pair.len % 2 || std_triple.len % 2 || std_suit.len != 1953125 || std_honour.len != 78125) {
        PyErr_SetString(PyExc_ValueError, "install_standard_tables: tables of the wrong size");
        return NULL;
    }
    std_ready = 1;
    Py_RETURN_NONE;
}

/* standard_distance(counts, melds): the distance of mjarena.hand.standard, or None when the input is anything
 * but a list or tuple of at least 34 exact ints 0..4 with 13 - 3 melds or 14 - 3 melds tiles (melds 0..4): the
 * caller's pure-Python path then explains what is wrong. */
static PyObject *
standard_distance(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !std_ready) {
        Py_RETURN_NONE;
    }
    PyObject *counts = args[0];
    PyObject **items;
    Py_ssize_t size;
    if (PyList_CheckExact(counts)) {
        items = ((PyListObject *)counts)->ob_item;
        size = PyList_GET_SIZE(counts);
    } else if (PyTuple_CheckExact(counts)) {
        items = ((PyTupleObject *)counts)->ob_item;
        size = PyTuple_GET_SIZE(counts);
    } else {
        Py_RETURN_NONE;
    }
    if (size < 34 || !PyLong_CheckExact(args[1])) {
        Py_RETURN_NONE;
    }
    long melds = PyLong_AsLong(args[1]);
    if (melds < 0 || melds > 4) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    long keys[4] = {0, 0, 0, 0};
    long tiles = 0;
    for (Py_ssize_t kind = size - 1; kind >= 0; kind--) {
        PyObject *item = items[kind];
        if (!PyLong_CheckExact(item)) {
            Py_RETURN_NONE;
        }
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || value < 0 || value > 4) {
            Py_RETURN_NONE;
        }
        tiles += value;
        if (kind < 34) {
            int group = kind < 27 ? (int)(kind / 9) : 3;
            keys[group] = keys[group] * 5 + value;
        }
    }
    if (tiles != 14 - 3 * melds && tiles != 13 - 3 * melds) {
        Py_RETURN_NONE;
    }
    const unsigned char *suit = std_suit.buf, *honour = std_honour.buf, *final = std_final.buf;
    const unsigned short *pair = std_pair.buf, *triple = std_triple.buf;
    long p = pair[suit[keys[0]] * std_suit_classes + suit[keys[1]]];
    long t = triple[p * std_suit_classes + suit[keys[2]]];
    return PyLong_FromLong(final[(t * std_honour_classes + honour[keys[3]]) * 5 + melds]);
}

/* ---------------------------------------------------------------------------------------------- the batch API */

/* batch_distance(counts, melds, per_row, out, group, weight, live, suit, honour, pair, triple, final,
 *                suit_classes, honour_classes, excess, wild_kind, seven_pairs, win_check) -> -1, or the first bad row
 *
 * counts: N x 38 int8, C order; melds: int64 (N of them, or one when per_row is 0); out: N int32, written.
 * group/weight: per kind, the key it adds to (0-3, or 255 for none) and its base-5 weight (int32 x 38); live:
 * per kind 1 if it counts for seven pairs.  The tables are int32 arrays as mjarena.hand.batch makes them.
 * With win_check, out holds 1 where the row wins (14 - 3n tiles and distance 0) and 0 elsewhere instead.
 * The same computation as mjarena.hand.batch._distance, row by row; a row that is not a hand (counts outside
 * 0..4, wildcards outside 0..8, melds outside 0..4, not 13 - 3n or 14 - 3n tiles) stops it: the caller explains.
 */
static PyObject *
batch_distance(PyObject *module, PyObject *args)
{
    Py_buffer counts, melds, out, group, weight, live, suit, honour, pair, triple, final;
    int per_row, excess, wild_kind, seven, win_check;
    long suit_classes, honour_classes;
    if (!PyArg_ParseTuple(args, "y*y*pw*y*y*y*y*y*y*y*y*lliiip", &counts, &melds, &per_row, &out, &group,
                          &weight, &live, &suit, &honour, &pair, &triple, &final, &suit_classes, &honour_classes,
                          &excess, &wild_kind, &seven, &win_check)) {
        return NULL;
    }
    Py_buffer *views[] = {&counts, &melds, &out, &group, &weight, &live, &suit, &honour, &pair, &triple, &final};
    Py_ssize_t rows = counts.len / NUM_KINDS, bad = -1;
    if (counts.len % NUM_KINDS || out.len != rows * 4 || melds.len != (per_row ? rows : 1) * 8
        || group.len != NUM_KINDS || weight.len != NUM_KINDS * 4 || live.len != NUM_KINDS || excess < 1
        || wild_kind >= NUM_KINDS) {
        PyErr_SetString(PyExc_ValueError, "batch_distance: arrays of the wrong size");
        for (int i = 0; i < 11; i++) {
            PyBuffer_Release(views[i]);
        }
        return NULL;
    }
    const signed char *c = counts.buf;
    const long long *m = melds.buf;
    int *result = out.buf;
    const unsigned char *groups = group.buf;
    const unsigned char *lives = live.buf;
    const int *weights = weight.buf, *suits = suit.buf, *honours = honour.buf, *pairs = pair.buf;
    const int *triples = triple.buf, *finals = final.buf;
    Py_ssize_t suit_len = suit.len / 4, honour_len = honour.len / 4, pair_len = pair.len / 4;
    Py_ssize_t triple_len = triple.len / 4, final_len = final.len / 4;
    /* per kind: its weight in its group's key (0: not keyed), the most copies a hand holds, all ones if live */
    int key_weight[NUM_KINDS], top[NUM_KINDS], live_mask[NUM_KINDS];
    for (int kind = 0; kind < NUM_KINDS; kind++) {
        int expected = kind < 27 ? kind / 9 : (kind < 34 ? 3 : 255);
        key_weight[kind] = groups[kind] == expected ? weights[kind] : 0;
        top[kind] = kind == WILD ? 8 : 4;
        live_mask[kind] = lives[kind] ? -1 : 0;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t row = 0; row < rows; row++, c += NUM_KINDS) {
        long long meld = m[per_row ? row : 0];
        int keys[4] = {0, 0, 0, 0};
        int tiles = 0, live_tiles = 0, singles = 0, over = 0;
        for (int kind = 0; kind < 9; kind++) {
            keys[0] += key_weight[kind] * c[kind];
            keys[1] += key_weight[9 + kind] * c[9 + kind];
            keys[2] += key_weight[18 + kind] * c[18 + kind];
        }
        for (int kind = 27; kind < 34; kind++) {
            keys[3] += key_weight[kind] * c[kind];
        }
        for (int kind = 0; kind < NUM_KINDS; kind++) {
            int value = c[kind];
            over |= (unsigned)value > (unsigned)top[kind];
            tiles += value;
            live_tiles += value & live_mask[kind];
            singles += value & live_mask[kind] & 1;
        }
        if (over || meld < 0 || meld > 4 || (tiles != 14 - 3 * meld && tiles != 13 - 3 * meld)
            || keys[0] >= suit_len || keys[1] >= suit_len || keys[2] >= suit_len || keys[3] >= honour_len) {
            bad = row;
            break;
        }
        int wilds = wild_kind >= 0 ? c[wild_kind] : 0;
        Py_ssize_t index = suits[keys[0]] * suit_classes + suits[keys[1]];
        Py_ssize_t p = index < pair_len ? pairs[index] : 0;
        index = p * suit_classes + suits[keys[2]];
        Py_ssize_t t = index < triple_len ? triples[index] : 0;
        index = (t * honour_classes + honours[keys[3]]) * 5 + meld;
        if (excess > 1) {
            index = index * excess + (wilds < excess - 1 ? wilds : excess - 1);
        }
        int distance = (index < final_len ? finals[index] : 0) - wilds;
        if (seven && meld == 0) {
            int doubles = (live_tiles - singles) >> 1;
            if (doubles > 7) {
                doubles = 7;
            }
            int seven_distance = 14 - wilds - 2 * doubles - (singles < 7 - doubles ? singles : 7 - doubles);
            if (seven_distance < distance) {
                distance = seven_distance;
            }
        }
        result[row] = win_check ? (distance == 0 && tiles == 14 - 3 * meld) : distance;
    }
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 11; i++) {
        PyBuffer_Release(views[i]);
    }
    return PyLong_FromSsize_t(bad);
}

/* ------------------------------------------------------------------------------------------------ arrangements */

/* arranger(groups, numbers, order, arrangement_type, standard, seven_pairs, cap, wild_kind, seven_pairs_on,
 *          pair_258, live) -> an Arranger for one HandRules; its arrangements(counts, melds) is
 * mjarena.hand.wild.arrangements: the list of Arrangement objects, or None for anything but a list or tuple of
 * 38 exact ints that is a hand with ``melds`` (0..4) melds (the caller's pure-Python path then explains what
 * is wrong).  The pure-Python enumerator, mjarena.hand.wild._arrangements_python, is the reference the tests
 * compare it with; the search is the same (see the comment above it in wild.py), the output identical.
 *
 * Group ids, what the search handles: kind * 12 + slot for kinds 0..33, slot 0-2 the triplet with 0-2 wild
 * members, 3-4 the pair with 0-1 wild members, 5-11 the runs by RUN_COST's shapes; ANY_SET_ID and ANY_PAIR_ID
 * the groups of wildcards only.  ``numbers`` (uint16 per id) gives a group's number, its index in ``groups`` (the
 * tuple of Group objects in Group order, shared by every result); ``order`` (uint16 per id) a set's rank in
 * (kinds, wild) order, the order of the sets within an arrangement.  The arrangements of each form are sorted by
 * their tuples of numbers, which is the order of their tuples of groups. */

#define GROUP_IDS 410
#define ANY_SET_ID 408
#define ANY_PAIR_ID 409
#define NO_NUMBER 0xFFFF
#define MAX_SETS 4
#define MAX_GROUPS 7
#define SIGNATURES 90 /* (wildcards 0..8, sets 0..4, pairs 0..1) */

typedef struct {
    PyObject_HEAD
    PyObject *groups, *type, *form_descr, *groups_descr, *standard, *seven;
    unsigned short number[GROUP_IDS], order[GROUP_IDS];
    int cap, wild_kind, seven_pairs, live[4], pair_mask[4];
} Arranger;

/* One decomposition of one suit: wildcards used, sets (ids, in (kinds, wild) order) and at most one pair. */
typedef struct {
    unsigned char used, sets, paired;
    unsigned short set[MAX_SETS], pair;
} Option;

/* One arrangement: the numbers of its groups (sets first), 9 bits each, the first in the highest bits, left-aligned
 * to MAX_GROUPS groups: comparing keys compares the tuples of numbers (all of one form have the same length). */
typedef uint64_t Found;
#define NUMBER_BITS 9
#define NUMBER_MASK 511

/* A growing array that starts in a buffer of the caller's (on the stack) and moves to the heap if it outgrows it. */
typedef struct {
    char *data;
    Py_ssize_t len, cap;
    int heap;
} Vec;

#define VEC_ON(buffer) ((Vec){(char *)(buffer), 0, (Py_ssize_t)(sizeof(buffer) / sizeof((buffer)[0])), 0})

static void *
vec_push(Vec *vec, size_t item)
{
    if (vec->len == vec->cap) {
        Py_ssize_t cap = 2 * vec->cap;
        char *data = vec->heap ? PyMem_Realloc(vec->data, (size_t)cap * item) : PyMem_Malloc((size_t)cap * item);
        if (data == NULL) {
            return NULL;
        }
        if (!vec->heap) {
            memcpy(data, vec->data, (size_t)vec->len * item);
        }
        vec->data = data;
        vec->cap = cap;
        vec->heap = 1;
    }
    return vec->data + item * (size_t)vec->len++;
}

static void
vec_free(Vec *vec)
{
    if (vec->heap) {
        PyMem_Free(vec->data);
    }
}

/* Runs by which members are real, lowest first: (1,1,1) (1,1,0) (1,0,1) (1,0,0) (0,1,1) (0,1,0) (0,0,1).  The
 * first four hold a real lowest tile.  Their wildcards, and the real tiles they ask of the next two ranks. */
static const int RUN_COST[7] = {0, 1, 1, 2, 1, 2, 2};
static const int RUN_ASK1[7] = {1, 1, 0, 0, 1, 1, 0};
static const int RUN_ASK2[7] = {1, 0, 1, 0, 1, 0, 1};

typedef struct {
    const Arranger *arranger;
    int base, size, last, suited, pair_mask, budget, sets_needed, failed;
    int real[9];
    unsigned short stack[MAX_SETS], pair;
    int depth, paired;
    Vec *options;
} SuitSearch;

/* What the runs starting at one rank may take: the real tiles left at the next two ranks, what the runs from
 * below ask of the next rank and cover there, the wildcards left, the runs with a real lowest tile, the room
 * left for runs with a wild lowest tile. */
typedef struct {
    int rank, above, above2, ask2, cov2, budget, low, spare;
} Frame;

static void suit_search(SuitSearch *s, int rank, int ask1, int ask2, int cov1, int cov2, int budget);

static void
suit_emit(SuitSearch *s, int budget)
{
    Option *option = vec_push(s->options, sizeof(Option));
    if (option == NULL) {
        s->failed = 1;
        return;
    }
    const unsigned short *order = s->arranger->order;
    option->used = (unsigned char)(s->budget - budget);
    option->sets = (unsigned char)s->depth;
    option->paired = (unsigned char)s->paired;
    option->pair = s->pair;
    for (int i = 0; i < s->depth; i++) { /* insertion sort by (kinds, wild) */
        unsigned short id = s->stack[i];
        int j = i;
        while (j > 0 && order[option->set[j - 1]] > order[id]) {
            option->set[j] = option->set[j - 1];
            j--;
        }
        option->set[j] = id;
    }
}

/* The multiset of runs starting at f->rank, shape by shape: n runs of ``shape``, then the next shapes.
 * low_left: runs with a real lowest tile still to place (shapes 0-3 must place exactly f->low of them);
 * wild: runs with a wild lowest tile placed; a1, a2: real tiles asked of rank + 1, rank + 2; cost: wildcards. */
static void
suit_runs(SuitSearch *s, const Frame *f, int shape, int low_left, int wild, int a1, int a2, int cost)
{
    if (shape == 7) {
        int started = f->low + wild;
        if (f->cov2 + started <= s->arranger->cap) {
            suit_search(s, f->rank + 1, f->ask2 + a1, a2, f->cov2 + started, started, f->budget - cost);
        }
        return;
    }
    /* the most runs of this shape that fit: the runs still to place, the room, the wildcards, the real tiles
     * above, the sets; shapes that do not fit once are skipped without a call */
    int most;
    for (;;) {
        most = shape < 4 ? low_left : f->spare - wild;
        if (RUN_COST[shape] && (f->budget - cost) / RUN_COST[shape] < most) {
            most = (f->budget - cost) / RUN_COST[shape];
        }
        if (RUN_ASK1[shape] && f->above - a1 < most) {
            most = f->above - a1;
        }
        if (RUN_ASK2[shape] && f->above2 - a2 < most) {
            most = f->above2 - a2;
        }
        if (s->sets_needed - s->depth < most) {
            most = s->sets_needed - s->depth;
        }
        if (shape == 3 && most < low_left) {
            return; /* the runs with a real lowest tile that are left do not fit */
        }
        if (most > 0 || shape == 6) {
            break;
        }
        if (++shape == 7) {
            suit_runs(s, f, 7, low_left, wild, a1, a2, cost);
            return;
        }
    }
    unsigned short id = (unsigned short)((s->base + f->rank) * 12 + 5 + shape);
    int depth = s->depth;
    int first = shape == 3 ? low_left : 0;
    for (int n = 0; n <= most; n++) {
        if (n > 0) {
            s->stack[s->depth++] = id;
        }
        if (n >= first) {
            suit_runs(s, f, shape + 1, shape < 4 ? low_left - n : low_left, shape < 4 ? wild : wild + n,
                      a1 + n * RUN_ASK1[shape], a2 + n * RUN_ASK2[shape], cost + n * RUN_COST[shape]);
        }
    }
    s->depth = depth;
}

/* The decompositions of ranks ``rank`` and up: ask1 real tiles of this rank and ask2 of the next are taken by
 * runs from below, which represent this kind cov1 times and the next cov2 times; ``budget`` wildcards left. */
static void
suit_search(SuitSearch *s, int rank, int ask1, int ask2, int cov1, int cov2, int budget)
{
    if (s->failed) {
        return;
    }
    if (rank > s->last) { /* nothing real is left (runs never ask more than there is) */
        suit_emit(s, budget);
        return;
    }
    int here = s->real[rank] - ask1;
    if (here < 0) {
        return;
    }
    int runs_ok = s->suited && rank + 2 < s->size;
    int pair_ok = !s->paired && (s->pair_mask >> rank & 1);
    int kind = s->base + rank, depth = s->depth;
    Frame f;
    f.rank = rank;
    f.above = rank + 1 < s->size ? s->real[rank + 1] - ask2 : 0;
    f.above2 = rank + 2 < s->size ? s->real[rank + 2] : 0;
    f.ask2 = ask2;
    f.cov2 = cov2;
    f.budget = budget;
    for (int t = 0; t <= 3 && t <= here; t++) { /* real tiles of the triplet here; 0: none */
        for (int p = 0; p <= (pair_ok ? 2 : 0) && t + p <= here; p++) { /* real tiles of the pair here */
            int cost = (t ? 3 - t : 0) + (p ? 2 - p : 0);
            int low = here - t - p; /* runs holding a real tile of this kind */
            int spare = s->arranger->cap - cov1 - (t ? 3 : 0) - (p ? 2 : 0) - low;
            if (spare < 0 || cost > budget || (low && !runs_ok) || depth + (t != 0) + low > s->sets_needed) {
                continue;
            }
            s->depth = depth;
            if (t) {
                s->stack[s->depth++] = (unsigned short)(kind * 12 + 3 - t);
            }
            if (p) {
                s->paired = 1;
                s->pair = (unsigned short)(kind * 12 + 5 - p);
            }
            f.low = low;
            f.spare = runs_ok ? spare : 0;
            suit_runs(s, &f, 0, low, 0, 0, 0, cost);
            if (p) {
                s->paired = 0;
            }
        }
    }
    s->depth = depth;
}

/* suit_search without wildcards (a suit whose budget is 0): at each rank a real triplet or none, the real pair or
 * none, and the rest of the rank's tiles start real runs.  Nothing is represented more than its real count, so
 * the cap never binds. */
static void
suit_plain(SuitSearch *s, int rank, int ask1, int ask2)
{
    if (s->failed) {
        return;
    }
    if (rank > s->last) {
        suit_emit(s, 0);
        return;
    }
    int here = s->real[rank] - ask1;
    if (here < 0) {
        return;
    }
    int runs_ok = s->suited && rank + 2 < s->size;
    int above = runs_ok ? s->real[rank + 1] - ask2 : 0, above2 = runs_ok ? s->real[rank + 2] : 0;
    int pair_ok = !s->paired && (s->pair_mask >> rank & 1);
    int kind = s->base + rank, depth = s->depth;
    for (int t = 0; t <= 3 && t <= here; t += 3) {
        for (int p = 0; p <= (pair_ok ? 2 : 0) && t + p <= here; p += 2) {
            int low = here - t - p;
            if (low > above || low > above2 || depth + (t != 0) + low > s->sets_needed) {
                continue;
            }
            s->depth = depth;
            if (t) {
                s->stack[s->depth++] = (unsigned short)(kind * 12);
            }
            for (int n = 0; n < low; n++) {
                s->stack[s->depth++] = (unsigned short)(kind * 12 + 5);
            }
            if (p) {
                s->paired = 1;
                s->pair = (unsigned short)(kind * 12 + 3);
            }
            suit_plain(s, rank + 1, ask2 + low, low);
            if (p) {
                s->paired = 0;
            }
        }
    }
    s->depth = depth;
}

/* One suit's decompositions, bucketed by signature. */
typedef struct {
    Option buffer[64];
    Vec options;
    Option *sorted; /* the options, sorted by signature */
    int signatures, used[SIGNATURES], sets[SIGNATURES], paired[SIGNATURES];
    Py_ssize_t start[SIGNATURES], end[SIGNATURES];
} SuitOptions;

#define SIGNATURE(option) (((option).used * 5 + (option).sets) * 2 + (option).paired)

/* Sort a suit's options by signature (in place: few options by insertion, many by counting) and list the
 * signatures with their ranges. */
static int
bucket(SuitOptions *suit)
{
    Option *options = (Option *)suit->options.data;
    Py_ssize_t n = suit->options.len;
    if (n <= 32) {
        for (Py_ssize_t i = 1; i < n; i++) {
            Option option = options[i];
            int key = SIGNATURE(option);
            Py_ssize_t j = i;
            while (j > 0 && SIGNATURE(options[j - 1]) > key) {
                options[j] = options[j - 1];
                j--;
            }
            options[j] = option;
        }
    } else {
        Py_ssize_t count[SIGNATURES] = {0}, at[SIGNATURES], total = 0;
        Option *sorted = PyMem_Malloc((size_t)n * sizeof(Option)); /* n > 32 */
        if (sorted == NULL) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            count[SIGNATURE(options[i])]++;
        }
        for (int key = 0; key < SIGNATURES; key++) {
            at[key] = total;
            total += count[key];
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            sorted[at[SIGNATURE(options[i])]++] = options[i];
        }
        memcpy(options, sorted, (size_t)n * sizeof(Option));
        PyMem_Free(sorted);
    }
    suit->sorted = options;
    suit->signatures = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i == 0 || SIGNATURE(options[i]) != SIGNATURE(options[i - 1])) {
            int g = suit->signatures++;
            suit->used[g] = options[i].used;
            suit->sets[g] = options[i].sets;
            suit->paired[g] = options[i].paired;
            suit->start[g] = i;
            if (g > 0) {
                suit->end[g - 1] = i;
            }
        }
    }
    if (suit->signatures) {
        suit->end[suit->signatures - 1] = n;
    }
    return 0;
}

typedef struct {
    const Arranger *arranger;
    SuitOptions *suits;
    int suit_count, wilds, sets_needed, failed;
    int chosen[4];
    Vec *found;
} Combine;

/* Every choice of one decomposition per suit along the chosen signatures, completed by wildcard-only groups. */
static void
product(Combine *c, int free_sets)
{
    Py_ssize_t at[4];
    const unsigned short *number = c->arranger->number;
    for (int i = 0; i < c->suit_count; i++) {
        at[i] = c->suits[i].start[c->chosen[i]];
    }
    for (;;) {
        Found *found = vec_push(c->found, sizeof(Found));
        if (found == NULL) {
            c->failed = 1;
            return;
        }
        Found key = 0;
        unsigned short pair = ANY_PAIR_ID;
        for (int i = 0; i < c->suit_count; i++) {
            const Option *option = &c->suits[i].sorted[at[i]];
            for (int k = 0; k < option->sets; k++) {
                key = key << NUMBER_BITS | number[option->set[k]];
            }
            if (option->paired) {
                pair = option->pair;
            }
        }
        for (int k = 0; k < free_sets; k++) {
            key = key << NUMBER_BITS | number[ANY_SET_ID];
        }
        key = key << NUMBER_BITS | number[pair];
        *found = key << NUMBER_BITS * (MAX_GROUPS - 1 - c->sets_needed); /* sets_needed sets and the pair */
        int i = c->suit_count - 1;
        for (; i >= 0; i--) {
            if (++at[i] < c->suits[i].end[c->chosen[i]]) {
                break;
            }
            at[i] = c->suits[i].start[c->chosen[i]];
        }
        if (i < 0) {
            return;
        }
    }
}

static void
combine(Combine *c, int index, int used, int sets, int pairs)
{
    if (c->failed) {
        return;
    }
    if (index == c->suit_count) {
        int free_sets = c->sets_needed - sets, free_pairs = 1 - pairs;
        if (c->wilds - used == 3 * free_sets + 2 * free_pairs) {
            product(c, free_sets);
        }
        return;
    }
    const SuitOptions *suit = &c->suits[index];
    for (int g = 0; g < suit->signatures; g++) {
        if (used + suit->used[g] <= c->wilds && sets + suit->sets[g] <= c->sets_needed
            && pairs + suit->paired[g] <= 1) {
            c->chosen[index] = g;
            combine(c, index + 1, used + suit->used[g], sets + suit->sets[g], pairs + suit->paired[g]);
        }
    }
}

static const int GROUP_BASE[4] = {0, 9, 18, 27}, GROUP_SIZE[4] = {9, 9, 9, 7};

/* The standard form: each suit's decompositions, combined along the signatures that add up to a whole hand. */
static int
arrange_standard(const Arranger *self, int real[4][9], const int *total, int wilds, int melds, Vec *found)
{
    SuitOptions suits[4];
    int groups[4], n = 0, result = 0;
    for (int g = 0; g < 4; g++) {
        if (total[g]) {
            groups[n] = g;
            suits[n].options = VEC_ON(suits[n].buffer);
            suits[n].sorted = NULL;
            n++;
        }
    }
    /* A suit of r real tiles needs at least (-r) % 3 wildcards, or (2 - r) % 3 holding the pair (one suit at
     * most): a suit's search stops at what the others leave it. */
    int alone[4], paired[4];
    for (int i = 0; i < n; i++) {
        int r = total[groups[i]];
        alone[i] = (3 - r % 3) % 3;
        paired[i] = self->pair_mask[groups[i]] ? ((2 - r) % 3 + 3) % 3 : alone[i];
    }
    for (int i = 0; i < n; i++) {
        int least = 0, saving = 0;
        for (int j = 0; j < n; j++) {
            if (j != i) {
                least += alone[j];
                saving = alone[j] - paired[j] > saving ? alone[j] - paired[j] : saving;
            }
        }
        least -= saving;
        if (least > wilds) {
            goto done;
        }
        int g = groups[i];
        SuitSearch s;
        s.arranger = self;
        s.base = GROUP_BASE[g];
        s.size = GROUP_SIZE[g];
        s.suited = g < 3;
        s.pair_mask = self->pair_mask[g];
        s.budget = wilds - least;
        s.sets_needed = 4 - melds;
        s.failed = 0;
        s.depth = 0;
        s.paired = 0;
        s.pair = 0;
        s.options = &suits[i].options;
        int first = -1;
        for (int rank = 0; rank < s.size; rank++) {
            s.real[rank] = real[g][rank];
            if (s.real[rank]) {
                s.last = rank;
                if (first < 0) {
                    first = rank;
                }
            }
        }
        if (s.budget == 0) {
            suit_plain(&s, first, 0, 0);
        } else { /* a run may start with wildcards below the first real tile */
            suit_search(&s, s.suited && first >= 2 ? first - 2 : (s.suited ? 0 : first), 0, 0, 0, 0, s.budget);
        }
        if (s.failed || (suits[i].options.len && bucket(&suits[i]) < 0)) {
            result = -1;
            goto done;
        }
        if (!suits[i].options.len) {
            goto done;
        }
    }
    Combine c;
    c.arranger = self;
    c.suits = suits;
    c.suit_count = n;
    c.wilds = wilds;
    c.sets_needed = 4 - melds;
    c.failed = 0;
    c.found = found;
    combine(&c, 0, 0, 0, 0);
    result = c.failed ? -1 : 0;
done:
    for (int i = 0; i < n; i++) {
        vec_free(&suits[i].options); /* suits[i].sorted points into it */
    }
    return result;
}

typedef struct {
    const Arranger *arranger;
    int kinds[NUM_KINDS], counts[NUM_KINDS], kind_count, wilds, failed;
    unsigned short stack[MAX_GROUPS];
    Vec *found;
} SevenSearch;

/* Seven pairs, kind by kind: count 1 pairs with a wildcard, 2 is a pair or two pairs with wildcards, 3 a pair
 * and a pair with a wildcard, 4 two pairs; wildcards left over pair with each other. */
static void
seven_search(SevenSearch *s, int index, int used, int n)
{
    if (s->failed) {
        return;
    }
    if (index == s->kind_count) {
        int left = s->wilds - used;
        if (left % 2 || n + left / 2 > MAX_GROUPS) {
            return;
        }
        Found *found = vec_push(s->found, sizeof(Found));
        if (found == NULL) {
            s->failed = 1;
            return;
        }
        Found key = 0;
        for (int k = 0; k < n; k++) {
            key = key << NUMBER_BITS | s->stack[k];
        }
        for (int k = 0; k < left / 2; k++) {
            key = key << NUMBER_BITS | s->arranger->number[ANY_PAIR_ID];
        }
        *found = key; /* seven pairs: MAX_GROUPS groups */
        return;
    }
    int kind = s->kinds[index];
    unsigned short real = s->arranger->number[kind * 12 + 3], mixed = s->arranger->number[kind * 12 + 4];
    switch (s->counts[index]) {
    case 1:
        if (used < s->wilds && n < MAX_GROUPS) {
            s->stack[n] = mixed;
            seven_search(s, index + 1, used + 1, n + 1);
        }
        break;
    case 2:
        if (n < MAX_GROUPS) {
            s->stack[n] = real;
            seven_search(s, index + 1, used, n + 1);
        }
        if (used + 2 <= s->wilds && n + 2 <= MAX_GROUPS) {
            s->stack[n] = s->stack[n + 1] = mixed;
            seven_search(s, index + 1, used + 2, n + 2);
        }
        break;
    case 3:
        if (used < s->wilds && n + 2 <= MAX_GROUPS) {
            s->stack[n] = real;
            s->stack[n + 1] = mixed;
            seven_search(s, index + 1, used + 1, n + 2);
        }
        break;
    default: /* 4 */
        if (n + 2 <= MAX_GROUPS) {
            s->stack[n] = s->stack[n + 1] = real;
            seven_search(s, index + 1, used, n + 2);
        }
        break;
    }
}

/* Sort keys: by insertion in runs of 16, then merged bottom-up through ``spare`` (room for n keys). */
static void
sort_keys(Found *keys, Py_ssize_t n, Found *spare)
{
    const Py_ssize_t run = 16;
    for (Py_ssize_t start = 0; start < n; start += run) {
        Py_ssize_t end = start + run < n ? start + run : n;
        for (Py_ssize_t i = start + 1; i < end; i++) {
            Found key = keys[i];
            Py_ssize_t j = i;
            while (j > start && keys[j - 1] > key) {
                keys[j] = keys[j - 1];
                j--;
            }
            keys[j] = key;
        }
    }
    Found *from = keys, *to = spare;
    for (Py_ssize_t width = run; width < n; width *= 2) {
        for (Py_ssize_t left = 0; left < n; left += 2 * width) {
            Py_ssize_t middle = left + width < n ? left + width : n, right = left + 2 * width < n ? left + 2 * width : n;
            Py_ssize_t i = left, j = middle, k = left;
            while (i < middle && j < right) {
                to[k++] = from[j] < from[i] ? from[j++] : from[i++];
            }
            while (i < middle) {
                to[k++] = from[i++];
            }
            while (j < right) {
                to[k++] = from[j++];
            }
        }
        Found *swap = from;
        from = to;
        to = swap;
    }
    if (from != keys) {
        memcpy(keys, from, (size_t)n * sizeof(Found));
    }
}

static int
sort_found(Vec *found)
{
    Found spare[256], *room = spare;
    if (found->len <= 16) {
        sort_keys((Found *)found->data, found->len, spare);
        return 0;
    }
    if (found->len > 256 && (room = PyMem_Malloc((size_t)found->len * sizeof(Found))) == NULL) {
        return -1;
    }
    sort_keys((Found *)found->data, found->len, room);
    if (room != spare) {
        PyMem_Free(room);
    }
    return 0;
}

/* Fill list[at:at + count] with Arrangement(form, groups) objects, allocated and set as dataclasses.replace
 * would (object.__setattr__ through the slots' descriptors: the frozen __setattr__ is not involved). */
static int
build(const Arranger *self, PyObject *list, Py_ssize_t at, const Found *found, Py_ssize_t count, int groups_each,
      PyObject *form)
{
    PyTypeObject *type = (PyTypeObject *)self->type;
    descrsetfunc set_form = Py_TYPE(self->form_descr)->tp_descr_set;
    descrsetfunc set_groups = Py_TYPE(self->groups_descr)->tp_descr_set;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *groups = PyTuple_New(groups_each);
        if (groups == NULL) {
            return -1;
        }
        for (int k = 0; k < groups_each; k++) {
            int number = (int)(found[i] >> NUMBER_BITS * (MAX_GROUPS - 1 - k) & NUMBER_MASK);
            PyObject *group = PyTuple_GET_ITEM(self->groups, number);
            Py_INCREF(group);
            PyTuple_SET_ITEM(groups, k, group);
        }
        PyObject *arrangement = type->tp_alloc(type, 0);
        if (arrangement == NULL || set_form(self->form_descr, arrangement, form) < 0
            || set_groups(self->groups_descr, arrangement, groups) < 0) {
            Py_XDECREF(arrangement);
            Py_DECREF(groups);
            return -1;
        }
        Py_DECREF(groups);
        PyList_SET_ITEM(list, at + i, arrangement);
    }
    return 0;
}

static PyObject *
arranger_arrangements(Arranger *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "arrangements(counts, melds) takes two arguments");
        return NULL;
    }
    PyObject *counts = args[0];
    PyObject **items;
    if (PyList_CheckExact(counts) && PyList_GET_SIZE(counts) == NUM_KINDS) {
        items = ((PyListObject *)counts)->ob_item;
    } else if (PyTuple_CheckExact(counts) && PyTuple_GET_SIZE(counts) == NUM_KINDS) {
        items = ((PyTupleObject *)counts)->ob_item;
    } else {
        Py_RETURN_NONE;
    }
    if (!PyLong_CheckExact(args[1])) {
        Py_RETURN_NONE;
    }
    int overflow = 0;
    long melds = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (overflow || melds < 0 || melds > 4) {
        Py_RETURN_NONE;
    }
    int c[NUM_KINDS], tiles = 0;
    for (int kind = 0; kind < NUM_KINDS; kind++) {
        PyObject *item = items[kind];
        if (!PyLong_CheckExact(item)) {
            Py_RETURN_NONE;
        }
        long value = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || value < 0 || value > (kind == WILD ? 8 : 4)) {
            Py_RETURN_NONE;
        }
        c[kind] = (int)value;
        tiles += (int)value;
    }
    if (tiles != 14 - 3 * melds) {
        if (tiles == 13 - 3 * melds) {
            return PyList_New(0); /* never wins */
        }
        Py_RETURN_NONE; /* the wrong number of tiles: the caller explains */
    }
    int wild_kind = self->wild_kind, wilds = wild_kind >= 0 ? c[wild_kind] : 0;
    for (int kind = 34; kind < NUM_KINDS; kind++) {
        if (kind != wild_kind && c[kind]) {
            return PyList_New(0); /* a dead tile */
        }
    }
    int real[4][9], total[4] = {0, 0, 0, 0};
    for (int g = 0; g < 4; g++) {
        for (int rank = 0; rank < GROUP_SIZE[g]; rank++) {
            int kind = GROUP_BASE[g] + rank;
            real[g][rank] = kind == wild_kind ? 0 : c[kind];
            total[g] += real[g][rank];
        }
        if (total[g] && !self->live[g]) {
            return PyList_New(0); /* tiles of kinds that do not exist */
        }
    }
    Found standard_buffer[128], seven_buffer[32];
    Vec standard = VEC_ON(standard_buffer), seven = VEC_ON(seven_buffer);
    PyObject *list = NULL;
    if (arrange_standard(self, real, total, wilds, (int)melds, &standard) < 0) {
        goto error;
    }
    if (self->seven_pairs && melds == 0) {
        SevenSearch s;
        s.arranger = self;
        s.kind_count = 0;
        s.wilds = wilds;
        s.failed = 0;
        s.found = &seven;
        for (int kind = 0; kind < 34; kind++) {
            if (kind != wild_kind && c[kind]) {
                s.kinds[s.kind_count] = kind;
                s.counts[s.kind_count++] = c[kind];
            }
        }
        seven_search(&s, 0, 0, 0);
        if (s.failed) {
            goto error;
        }
    }
    if (sort_found(&standard) < 0 || sort_found(&seven) < 0) {
        goto error;
    }
    list = PyList_New(standard.len + seven.len);
    if (list == NULL
        || build(self, list, 0, (Found *)standard.data, standard.len, 5 - (int)melds, self->standard) < 0
        || build(self, list, standard.len, (Found *)seven.data, seven.len, MAX_GROUPS, self->seven) < 0) {
        Py_CLEAR(list);
    }
    vec_free(&standard);
    vec_free(&seven);
    return list;
error:
    vec_free(&standard);
    vec_free(&seven);
    return PyErr_NoMemory();
}

static int
arranger_traverse(Arranger *self, visitproc visit, void *arg)
{
    Py_VISIT(self->groups);
    Py_VISIT(self->type);
    Py_VISIT(self->form_descr);
    Py_VISIT(self->groups_descr);
    Py_VISIT(self->standard);
    Py_VISIT(self->seven);
    return 0;
}

static int
arranger_clear(Arranger *self)
{
    Py_CLEAR(self->groups);
    Py_CLEAR(self->type);
    Py_CLEAR(self->form_descr);
    Py_CLEAR(self->groups_descr);
    Py_CLEAR(self->standard);
    Py_CLEAR(self->seven);
    return 0;
}

static void
arranger_dealloc(Arranger *self)
{
    PyObject_GC_UnTrack(self);
    arranger_clear(self);
    PyObject_GC_Del(self);
}

static PyMethodDef arranger_methods[] = {
    {"arrangements", (PyCFunction)(void (*)(void))arranger_arrangements, METH_FASTCALL,
     "arrangements(counts, melds) -> list of Arrangement, or None for anything but a valid hand."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ArrangerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mjarena.hand._speedups.Arranger",
    .tp_basicsize = sizeof(Arranger),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The arrangement enumerator of one HandRules (made by arranger()).",
    .tp_dealloc = (destructor)arranger_dealloc,
    .tp_traverse = (traverseproc)arranger_traverse,
    .tp_clear = (inquiry)arranger_clear,
    .tp_methods = arranger_methods,
};

static PyObject *
make_arranger(PyObject *module, PyObject *args)
{
    PyObject *groups, *type, *standard, *seven;
    Py_buffer numbers, order;
    int cap, wild_kind, seven_pairs, pair_258, live;
    if (!PyArg_ParseTuple(args, "O!y*y*O!UUiippi", &PyTuple_Type, &groups, &numbers, &order, &PyType_Type, &type,
                          &standard, &seven, &cap, &wild_kind, &seven_pairs, &pair_258, &live)) {
        return NULL;
    }
    Arranger *self = NULL;
    PyObject *form_descr = NULL, *groups_descr = NULL;
    const char *problem = NULL;
    PyTypeObject *arrangement_type = (PyTypeObject *)type;
    if (numbers.len != GROUP_IDS * 2 || order.len != GROUP_IDS * 2) {
        problem = "arranger: numbers and order must hold 410 uint16 each";
    } else if (cap < 1 || cap > 5 || wild_kind < -1 || wild_kind >= NUM_KINDS || (wild_kind >= 34 && wild_kind != WILD)) {
        problem = "arranger: cap must be 1..5 and wild_kind -1, 0..33 or 37";
    } else if (arrangement_type->tp_itemsize != 0 || arrangement_type->tp_alloc == NULL) {
        problem = "arranger: the arrangement type must be a fixed-size class";
    }
    if (problem == NULL) {
        const unsigned short *number = numbers.buf;
        Py_ssize_t size = PyTuple_GET_SIZE(groups);
        for (int id = 0; id < GROUP_IDS && problem == NULL; id++) {
            int kind = id / 12, slot = id % 12;
            int used = id >= ANY_SET_ID || slot < 5 || (kind < 27 && kind % 9 <= 6); /* ids the search makes */
            if (number[id] == NO_NUMBER ? used : number[id] >= size || number[id] > NUMBER_MASK) {
                problem = "arranger: a group id without a group";
            }
        }
    }
    if (problem != NULL) {
        PyErr_SetString(PyExc_ValueError, problem);
        goto done;
    }
    form_descr = PyObject_GetAttrString(type, "form");
    groups_descr = PyObject_GetAttrString(type, "groups");
    if (form_descr == NULL || groups_descr == NULL) {
        goto done;
    }
    if (Py_TYPE(form_descr)->tp_descr_set == NULL || Py_TYPE(groups_descr)->tp_descr_set == NULL) {
        PyErr_SetString(PyExc_TypeError, "arranger: form and groups must be slots of the arrangement type");
        goto done;
    }
    self = PyObject_GC_New(Arranger, &ArrangerType);
    if (self == NULL) {
        goto done;
    }
    memcpy(self->number, numbers.buf, sizeof(self->number));
    memcpy(self->order, order.buf, sizeof(self->order));
    Py_INCREF(groups);
    Py_INCREF(type);
    Py_INCREF(standard);
    Py_INCREF(seven);
    self->groups = groups;
    self->type = type;
    self->standard = standard;
    self->seven = seven;
    self->form_descr = form_descr;
    self->groups_descr = groups_descr;
    form_descr = groups_descr = NULL;
    self->cap = cap;
    self->wild_kind = wild_kind;
    self->seven_pairs = seven_pairs;
    for (int g = 0; g < 4; g++) {
        self->live[g] = live >> g & 1;
        self->pair_mask[g] = !pair_258 ? (1 << GROUP_SIZE[g]) - 1 : (g < 3 ? (1 << 1 | 1 << 4 | 1 << 7) : 0);
    }
    PyObject_GC_Track(self);
done:
    Py_XDECREF(form_descr);
    Py_XDECREF(groups_descr);
    PyBuffer_Release(&numbers);
    PyBuffer_Release(&order);
    return (PyObject *)self;
}

static PyMethodDef methods[] = {
    {"scan", (PyCFunction)(void (*)(void))scan, METH_FASTCALL,
     "scan(counts, live_end) -> (m, p, s, h, tiles, pairs) or None: group keys and statistics of a hand."},
    {"install_standard_tables", install_standard_tables, METH_VARARGS,
     "install_standard_tables(suit, honour, pair, triple, final, suit_classes, honour_classes): once, at import."},
    {"standard_distance", (PyCFunction)(void (*)(void))standard_distance, METH_FASTCALL,
     "standard_distance(counts, melds) -> the standard-form distance, or None for anything but a valid hand."},
    {"batch_distance", batch_distance, METH_VARARGS,
     "batch_distance(counts, melds, per_row, out, group, weight, live, suit, honour, pair, triple, final, "
     "suit_classes, honour_classes, excess, wild_kind, seven_pairs, win_check) -> -1 or the first row that is not "
     "a hand."},
    {"arranger", make_arranger, METH_VARARGS,
     "arranger(groups, numbers, order, arrangement_type, standard, seven_pairs, cap, wild_kind, seven_pairs_on, "
     "pair_258, live) -> an Arranger whose arrangements(counts, melds) lists every arrangement of a hand."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "Optional C accelerator of mjarena.hand.", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&ArrangerType) < 0) {
        return NULL;
    }
    return PyModule_Create(&module);
}
