/* Optional C accelerator for mjarena.hand.wild: one pass over a hand's 38 counts.
 *
 * scan(counts, live_end) -> (m, p, s, h, tiles, pairs) or None
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

static PyMethodDef methods[] = {
    {"scan", (PyCFunction)(void (*)(void))scan, METH_FASTCALL,
     "scan(counts, live_end) -> (m, p, s, h, tiles, pairs) or None: group keys and statistics of a hand."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "Optional C accelerator of mjarena.hand.wild.", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
