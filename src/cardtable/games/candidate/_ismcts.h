/* The ISMCTS search's iterations in C (included by _core.c): bots/candidate_ismcts.py's
 * selection, expansion, simulation and back-up for one drawn state, on a tree kept in C.
 *
 * The pure search is the reference; this does the same arithmetic in the same order
 * (UCB1 with the availability counts, the rewards, the back-up) and draws the same
 * random numbers (`choice` among the untried moves in their legal order, the playout's
 * `uniform`), so the tree — every node's visits, availability and total — is the same
 * (tests/bots/test_bots_ismcts_pinned.py holds the root's visits and values). The drawn
 * state is read once and played on a C copy (`Deal`), never written back: the search
 * throws it away. */

typedef struct {
    int action, mover, visits, availability, first, next; /* children: a linked list */
    double total;
} TreeNode;

typedef struct {
    TreeNode *nodes;
    int n, room;
} Tree;

static const char *TREE_NAME = "cardtable.candidate.ismcts_tree";

static void tree_free(PyObject *capsule)
{
    Tree *t = PyCapsule_GetPointer(capsule, TREE_NAME);
    if (t != NULL) {
        PyMem_Free(t->nodes);
        PyMem_Free(t);
    }
}

/* A new node (its id), appended to `parent`'s children; -1 without memory. */
static int tree_add(Tree *t, int parent, int action, int mover)
{
    if (t->n == t->room) {
        int room = t->room ? 2 * t->room : 1024;
        TreeNode *nodes = PyMem_Realloc(t->nodes, (size_t)room * sizeof(TreeNode));
        if (nodes == NULL) return -1;
        t->nodes = nodes, t->room = room;
    }
    int id = t->n++;
    t->nodes[id] = (TreeNode){action, mover, 0, 0, -1, -1, 0.0};
    if (parent >= 0) { /* keep the children in creation order, as the pure dict does */
        int *link = &t->nodes[parent].first;
        while (*link >= 0) link = &t->nodes[*link].next;
        *link = id;
    }
    return id;
}

static PyObject *core_ismcts_tree(PyObject *module, PyObject *root_mover)
{
    long mover = PyLong_AsLong(root_mover);
    if (mover == -1 && PyErr_Occurred()) return NULL;
    Tree *t = PyMem_Calloc(1, sizeof(Tree));
    if (t == NULL) return PyErr_NoMemory();
    if (tree_add(t, -1, -1, (int)mover) < 0) {
        PyMem_Free(t);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(t, TREE_NAME, tree_free);
    if (capsule == NULL) {
        PyMem_Free(t->nodes);
        PyMem_Free(t);
    }
    return capsule;
}

static int child_of(const Tree *t, int node, int action)
{
    for (int c = t->nodes[node].first; c >= 0; c = t->nodes[c].next)
        if (t->nodes[c].action == action) return c;
    return -1;
}

static double ismcts_reward(int margin, int win, double weight) /* margin_reward, _win */
{
    if (margin == 0) return 0.0;
    double sign = margin > 0 ? 1.0 : -1.0;
    if (win) return sign;
    return sign * (1.0 - weight) + weight * margin / (abs(margin) + 10);
}

/* One iteration; 0 done, 1 the state is not covered (nothing done), -1 error. */
static int ismcts_iterate(Tree *t, PyObject *st, const int *root_moves, int nroot,
                          PyObject *choice, PyObject *uniform, long depth, int win, int base,
                          double exploration, double weight)
{
    if (SLOT(st, S_SINK) != Py_None || !covered(st)) return 1;
    Deal d;
    int r = load(&d, st, 0);
    if (r != 0) return r;
    int path[4096], known[MAX_LEGAL], buffer[MAX_LEGAL];
    int npath = 0, node = 0, n = nroot;
    const int *moves = root_moves;
    for (;;) {
        int unknown = 0;
        for (int i = 0; i < n; i++) {
            known[i] = child_of(t, node, moves[i]);
            unknown += known[i] < 0;
        }
        if (unknown) { /* expand one untried move, drawn as the pure `choice` draws it */
            PyObject *untried = PyList_New(unknown);
            if (untried == NULL) return -1;
            for (int i = 0, j = 0; i < n; i++)
                if (known[i] < 0) PyList_SET_ITEM(untried, j++, PyLong_FromLong(moves[i]));
            PyObject *picked = PyObject_CallOneArg(choice, untried);
            Py_DECREF(untried);
            long action = picked == NULL ? -1 : PyLong_AsLong(picked);
            Py_XDECREF(picked);
            if (action == -1 && PyErr_Occurred()) return -1;
            int child = tree_add(t, node, (int)action, d.player);
            if (child < 0) {
                PyErr_NoMemory();
                return -1;
            }
            t->nodes[child].availability = 1;
            for (int i = 0; i < n; i++)
                if (known[i] >= 0) t->nodes[known[i]].availability++;
            if (step(&d, (int)action) < 0) return -1;
            path[npath++] = child;
            break;
        }
        int best = known[0];
        if (n == 1) {
            t->nodes[best].availability++;
        } else {
            double best_score = -Py_HUGE_VAL;
            for (int i = 0; i < n; i++) {
                TreeNode *c = &t->nodes[known[i]];
                int available = ++c->availability;
                double score = c->total / c->visits +
                               exploration * sqrt(log((double)available) / c->visits);
                if (score > best_score) best_score = score, best = known[i];
            }
        }
        if (step(&d, t->nodes[best].action) < 0) return -1;
        node = best;
        if (npath < 4096) path[npath++] = node;
        if (d.ended) break;
        n = legal(&d, buffer);
        moves = buffer;
    }
    /* Simulation, unless the tree's moves ended the deal: its scores then. */
    if (!d.ended && play_out(&d, uniform, depth) < 0) return -1;
    double reward0 = ismcts_reward(d.scores[0] - d.scores[1] - base, win, weight);
    for (int i = 0; i < npath; i++) {
        TreeNode *p = &t->nodes[path[i]];
        p->visits++;
        p->total += p->mover == 0 ? reward0 : -reward0;
    }
    t->nodes[0].visits++;
    return 0;
}

/* ismcts_iterate(tree, state, legal, choice, uniform, depth, win, base, exploration,
 * weight) -> bool: False when the core does not cover the state (nothing done). */
static PyObject *core_ismcts_iterate(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError,
                        "ismcts_iterate(tree, state, legal, choice, uniform, depth, win, base, "
                        "exploration, weight)");
        return NULL;
    }
    Tree *t = PyCapsule_GetPointer(args[0], TREE_NAME);
    if (t == NULL || check_state(args[1]) < 0) return NULL;
    PyObject *legal_seq = PySequence_Fast(args[2], "legal: a sequence of action ids");
    if (legal_seq == NULL) return NULL;
    Py_ssize_t nroot = PySequence_Fast_GET_SIZE(legal_seq);
    int root[MAX_LEGAL];
    if (nroot < 1 || nroot > MAX_LEGAL) {
        Py_DECREF(legal_seq);
        PyErr_SetString(PyExc_ValueError, "legal: 1 to 2048 action ids");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nroot; i++)
        root[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(legal_seq, i));
    Py_DECREF(legal_seq);
    long depth = args[5] == Py_None ? -1 : PyLong_AsLong(args[5]);
    int win = PyObject_IsTrue(args[6]);
    long base = PyLong_AsLong(args[7]);
    double exploration = PyFloat_AsDouble(args[8]), weight = PyFloat_AsDouble(args[9]);
    if (PyErr_Occurred()) return NULL;
    int r = ismcts_iterate(t, args[1], root, (int)nroot, args[3], args[4], depth, win,
                           (int)base, exploration, weight);
    if (r < 0) return NULL;
    return PyBool_FromLong(r == 0);
}

static PyObject *node_tuple(const Tree *t, int id) /* (action, mover, visits, availability,
                                                      total, children) */
{
    const TreeNode *p = &t->nodes[id];
    PyObject *children = PyList_New(0);
    if (children == NULL) return NULL;
    for (int c = p->first; c >= 0; c = t->nodes[c].next) {
        PyObject *child = node_tuple(t, c);
        if (child == NULL || PyList_Append(children, child) < 0) {
            Py_XDECREF(child);
            Py_DECREF(children);
            return NULL;
        }
        Py_DECREF(child);
    }
    return Py_BuildValue("(iiiidN)", p->action, p->mover, p->visits, p->availability,
                         p->total, children);
}

static PyObject *core_ismcts_nodes(PyObject *module, PyObject *capsule)
{
    Tree *t = PyCapsule_GetPointer(capsule, TREE_NAME);
    return t == NULL ? NULL : node_tuple(t, 0);
}
