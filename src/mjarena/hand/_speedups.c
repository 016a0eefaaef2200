/* Optional C accelerator of the hand analysis; every function here has a pure-Python reference that the tests
 * compare it with, and the package works the same (slower) without it.
 *
 * scan(counts, live_end) -> (m, p, s, h, tiles, pairs) or None            (mjarena.hand.wild)
 * standard_distance(counts, melds) -> int or None                         (mjarena.hand.standard)
 * batch_distance(counts, melds, per_row, out, group, weight, live, tables..., sizes...) -> -1 or a bad row
 *                                                                          (mjarena.hand.batch)
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
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "Optional C accelerator of mjarena.hand.", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
