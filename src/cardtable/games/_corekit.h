/* What the games' compiled cores share (included by each games/<game>/_core.c): a list
 * of C ints as a Python list, the offsets of a class's slots found by name, and the
 * module function `method` that makes a core function bind as a method. */
#ifndef CARDTABLE_COREKIT_H
#define CARDTABLE_COREKIT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

static PyObject *ints_list(const int *values, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

/* The offsets of the `__slots__` `names` of `cls` (object slots), into `offsets`. */
static int find_slots(PyObject *cls, const char *const *names, int n, Py_ssize_t *offsets)
{
    for (int i = 0; i < n; i++) {
        PyObject *descr = PyObject_GetAttrString(cls, names[i]);
        if (descr == NULL) return -1;
        int ok = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
        if (ok) offsets[i] = ((PyMemberDescrObject *)descr)->d_member->offset;
        Py_DECREF(descr);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "%s is not a slot of %R", names[i], cls);
            return -1;
        }
    }
    return 0;
}

static PyObject *corekit_method(PyObject *module, PyObject *func)
{
    return PyInstanceMethod_New(func);
}

/* The entry of `method` in a core's method table. */
#define COREKIT_METHOD                                                                   \
    {"method", corekit_method, METH_O,                                                   \
     "method(function): the function as a method (bound to the instance it is read from)."}

#endif
