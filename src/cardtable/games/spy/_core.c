/* The compiled core of Spy vs Spy: the hot paths of a race in C.
 *
 * The pure-Python engine (position.py, state.py, playout.py, race.py and the searches of
 * bots/spy_search.py) is the reference; this file does the same things faster and is
 * proven equal by tests (tests/spy/test_spy_compiled.py), never trusted. Rules: S3-S17
 * of docs/rules/spy.en.md; action ids: actions.py (local moves 0..16 per player).
 *
 * Three kinds of work:
 * - on the engine's own objects (their slots, found by name in `bind`): a position's
 *   `play`, the match's unchecked `apply_action` and `legal_actions`, and the recorded
 *   random playout. The lists are changed in place exactly as the pure methods change
 *   them, so every other method (views, records, the checked `apply`) is unchanged;
 * - on a C copy of one player's cards, by rank only (S6: suits never matter): the race
 *   runner's greedy race, the greedy race to the call, and the two exact searches
 *   (`race_moves`, the planner's A* over steps; `shortest_race`, the oracle's A* over
 *   single moves). Both searches pop their frontiers in the very order of the pure
 *   ones (each entry's sort key is unique), so they expand the same positions and
 *   return the same results;
 * - dealing a round (`_deal.h`): the seeded deal of deal.py (S2, S2a) and the positions
 *   of Position.deal (S3), on the match's `_seeded_cards` and `_lay_out`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <structmember.h>

#include "../_corekit.h"

enum { TURN = 0, PLACE_POINTS = 1, PLACE_WASTE = 7, OPEN_POINTS = 13, OPEN_WASTE = 14,
       CALL = 15, RESIGN = 16, ACTIONS_PER_PLAYER = 17 };
#define MAX_PILES 6
#define MAX_CARDS 52 /* one player holds at most a deck (S2) */
#define MAX_LEGAL 18
#define FAR (1 << 30)

static int FITS[13]; /* S6: bit s set when rank s may go on rank r (cyclic) */
static uint8_t COVER[1 << 13];

/* ---- the engine's objects: slots found by name ------------------------------------ */

enum { P_BASE, P_BLOCKED, P_CALLED, P_COUNTS, P_DECK, P_LEGAL, P_LIMIT, P_MOVES, P_NEED,
       P_PILES, P_PLAYER, P_POINTS, P_RESIGNED, P_TOPS, P_WASTE, N_PSLOTS };
static const char *const PSLOT_NAMES[N_PSLOTS] = {
    "base", "blocked", "called", "counts", "deck", "legal", "limit", "moves", "need",
    "piles", "player", "points", "resigned", "tops", "waste"};
enum { S_SEATS, S_LOG, S_ACTIVE, S_PHASE, N_SSLOTS };
static const char *const SSLOT_NAMES[N_SSLOTS] = {"seats", "_log", "_active", "phase"};
static Py_ssize_t POFF[N_PSLOTS], SOFF[N_SSLOTS];
static PyTypeObject *POSITION = NULL, *STATE = NULL;
static PyObject *PURE_RANDOM = NULL; /* for states of a subclass */
static PyObject *STR_END_ROUND = NULL, *STR_PLAYING = NULL;

#define PSLOT(o, i) (*(PyObject **)((char *)(o) + POFF[i]))
#define SSLOT(o, i) (*(PyObject **)((char *)(o) + SOFF[i]))

static inline int set_slot(PyObject **slot, PyObject *value) /* steals value */
{
    if (value == NULL) return -1;
    PyObject *old = *slot;
    *slot = value;
    Py_XDECREF(old);
    return 0;
}

static inline int set_long(PyObject **slot, long value)
{
    return set_slot(slot, PyLong_FromLong(value));
}

static inline int set_bool(PyObject **slot, int value)
{
    return set_slot(slot, PyBool_FromLong(value));
}

static inline long as_long(PyObject *o) { return o == NULL ? -1 : PyLong_AsLong(o); }

static inline int top_rank(PyObject *list) /* rank of a non-empty stack's top */
{
    return (int)(PyLong_AsLong(PyList_GET_ITEM(list, PyList_GET_SIZE(list) - 1)) % 13);
}

/* Pop a list's last item (a new reference). */
static PyObject *list_pop(PyObject *list)
{
    Py_ssize_t n = PyList_GET_SIZE(list);
    PyObject *item = PyList_GET_ITEM(list, n - 1);
    Py_INCREF(item);
    if (PyList_SetSlice(list, n - 1, n, NULL) < 0) {
        Py_DECREF(item);
        return NULL;
    }
    return item;
}

/* The legal local moves of a player still racing, in id order (Position.refresh): turn
 * (S9), the points top and the waste top onto each pile they fit (S6-S7), open a pile
 * (S8), call (S10), resign (S13). A rank of -1 means the stack is empty. */
static int legal_locals(int stock, int points, int waste, const int *tops, int ntops,
                        int need, int *out)
{
    int n = 0;
    if (stock) out[n++] = TURN;
    if (points >= 0 && need >> points & 1)
        for (int i = 0; i < ntops; i++)
            if (FITS[points] >> tops[i] & 1) out[n++] = PLACE_POINTS + i;
    if (waste >= 0 && need >> waste & 1)
        for (int i = 0; i < ntops; i++)
            if (FITS[waste] >> tops[i] & 1) out[n++] = PLACE_WASTE + i;
    if (ntops < MAX_PILES) {
        if (points >= 0) out[n++] = OPEN_POINTS;
        if (waste >= 0) out[n++] = OPEN_WASTE;
    }
    if (points < 0) out[n++] = CALL;
    out[n++] = RESIGN;
    return n;
}

/* ---- Position.play on the engine's object ----------------------------------------- */

/* S12 on the object (Position.is_blocked): the rank counts are made when first needed. */
static int obj_is_blocked(PyObject *pos, PyObject *tops, int need)
{
    PyObject *points = PSLOT(pos, P_POINTS);
    if (PyList_GET_SIZE(points) == 0 || PyList_GET_SIZE(tops) < MAX_PILES) return 0;
    if (need >> top_rank(points) & 1) return 0;
    PyObject *counts = PSLOT(pos, P_COUNTS);
    int c[13] = {0};
    if (counts == Py_None) {
        PyObject *stacks[2] = {PSLOT(pos, P_DECK), PSLOT(pos, P_WASTE)};
        for (int s = 0; s < 2; s++)
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(stacks[s]); i++)
                c[PyLong_AsLong(PyList_GET_ITEM(stacks[s], i)) % 13]++;
        if (set_slot(&PSLOT(pos, P_COUNTS), ints_list(c, 13)) < 0) return -1;
    } else {
        for (int r = 0; r < 13; r++) c[r] = (int)PyLong_AsLong(PyList_GET_ITEM(counts, r));
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(tops); i++) {
        int t = (int)PyLong_AsLong(PyList_GET_ITEM(tops, i));
        if (c[(t + 1) % 13] || c[(t + 12) % 13]) return 0;
    }
    return 1;
}

static int uncount(PyObject *pos, int rank) /* a waste card leaves deck + waste */
{
    PyObject *counts = PSLOT(pos, P_COUNTS);
    if (counts == Py_None) return 0;
    long v = PyLong_AsLong(PyList_GET_ITEM(counts, rank));
    PyObject *nv = PyLong_FromLong(v - 1);
    if (nv == NULL) return -1;
    return PyList_SetItem(counts, rank, nv);
}

static int obj_legal(PyObject *pos) /* Position.refresh for a player still racing */
{
    long base = as_long(PSLOT(pos, P_BASE));
    if (PyObject_RichCompareBool(PSLOT(pos, P_MOVES), PSLOT(pos, P_LIMIT), Py_GE)) {
        int resign = (int)base + RESIGN;
        return set_slot(&PSLOT(pos, P_LEGAL), ints_list(&resign, 1));
    }
    PyObject *points = PSLOT(pos, P_POINTS), *waste = PSLOT(pos, P_WASTE);
    PyObject *tops = PSLOT(pos, P_TOPS);
    int t[MAX_PILES + 1], nt = (int)PyList_GET_SIZE(tops), out[MAX_LEGAL];
    if (nt > MAX_PILES) nt = MAX_PILES;
    for (int i = 0; i < nt; i++) t[i] = (int)PyLong_AsLong(PyList_GET_ITEM(tops, i));
    int stock = PyList_GET_SIZE(waste) > 0 || PyList_GET_SIZE(PSLOT(pos, P_DECK)) > 0;
    int n = legal_locals(stock, PyList_GET_SIZE(points) ? top_rank(points) : -1,
                         PyList_GET_SIZE(waste) ? top_rank(waste) : -1, t, nt,
                         (int)as_long(PSLOT(pos, P_NEED)), out);
    for (int i = 0; i < n; i++) out[i] += (int)base;
    return set_slot(&PSLOT(pos, P_LEGAL), ints_list(out, n));
}

/* Position.play: 1 when the move takes the player out without a call, 0, -1 on error. */
static int obj_play(PyObject *pos, int local)
{
    if (set_long(&PSLOT(pos, P_MOVES), as_long(PSLOT(pos, P_MOVES)) + 1) < 0) return -1;
    PyObject *points = PSLOT(pos, P_POINTS), *waste = PSLOT(pos, P_WASTE);
    PyObject *tops = PSLOT(pos, P_TOPS);
    int blocked = 0;
    if (local == TURN) { /* S9 */
        PyObject *deck = PSLOT(pos, P_DECK);
        if (PyList_GET_SIZE(deck)) {
            PyObject *card = list_pop(deck);
            if (card == NULL) return -1;
            int r = PyList_Append(waste, card);
            Py_DECREF(card);
            if (r < 0) return -1;
        } else { /* the waste turned over is the new racing deck */
            if (PyList_Reverse(waste) < 0) return -1;
            Py_INCREF(waste);
            set_slot(&PSLOT(pos, P_DECK), waste);
            PyObject *card = list_pop(waste);
            if (card == NULL) return -1;
            PyObject *fresh = PyList_New(1);
            if (fresh == NULL) {
                Py_DECREF(card);
                return -1;
            }
            PyList_SET_ITEM(fresh, 0, card);
            set_slot(&PSLOT(pos, P_WASTE), fresh);
        }
    } else if (local < CALL) {
        int from_points = local < PLACE_WASTE || local == OPEN_POINTS;
        PyObject *card = list_pop(from_points ? points : waste);
        if (card == NULL) return -1;
        int rank = (int)(PyLong_AsLong(card) % 13);
        if (!from_points && uncount(pos, rank) < 0) goto fail;
        PyObject *piles = PSLOT(pos, P_PILES), *r = PyLong_FromLong(rank);
        if (r == NULL) goto fail;
        int need;
        if (local < OPEN_POINTS) { /* S6-S7: onto pile `index` */
            int index = local - (local < PLACE_WASTE ? PLACE_POINTS : PLACE_WASTE);
            if (PyList_Append(PyList_GET_ITEM(piles, index), card) < 0 ||
                PyList_SetItem(tops, index, r) < 0)
                goto fail;
            need = 0;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(tops); i++)
                need |= FITS[PyLong_AsLong(PyList_GET_ITEM(tops, i))];
        } else { /* S8: a new pile */
            PyObject *pile = PyList_New(1);
            if (pile == NULL) {
                Py_DECREF(r);
                goto fail;
            }
            Py_INCREF(card);
            PyList_SET_ITEM(pile, 0, card);
            int bad = PyList_Append(piles, pile) < 0 || PyList_Append(tops, r) < 0;
            Py_DECREF(pile);
            Py_DECREF(r);
            if (bad) goto fail;
            need = (int)as_long(PSLOT(pos, P_NEED)) | FITS[rank];
        }
        Py_DECREF(card);
        if (set_long(&PSLOT(pos, P_NEED), need) < 0) return -1;
        /* S11: cards on piles never move again, so only these moves can block (S12). */
        if (PyList_GET_SIZE(tops) == MAX_PILES) {
            blocked = obj_is_blocked(pos, tops, need);
            if (blocked < 0 || set_bool(&PSLOT(pos, P_BLOCKED), blocked) < 0) return -1;
        }
        goto legal;
    fail:
        Py_DECREF(card);
        return -1;
    } else { /* S10 call, S13 resign */
        int out = 0;
        if (local == CALL) {
            if (set_bool(&PSLOT(pos, P_CALLED), 1) < 0) return -1;
        } else {
            if (set_bool(&PSLOT(pos, P_RESIGNED), 1) < 0) return -1;
            out = !PyObject_IsTrue(PSLOT(pos, P_BLOCKED));
        }
        if (set_slot(&PSLOT(pos, P_LEGAL), PyList_New(0)) < 0) return -1;
        return out;
    }
legal:
    if (obj_legal(pos) < 0) return -1;
    return blocked;
}

static int check_type(PyObject *o, PyTypeObject *type, const char *what)
{
    if (type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the core is not bound to the engine's classes");
        return -1;
    }
    if (!PyObject_TypeCheck(o, type)) {
        PyErr_Format(PyExc_TypeError, "expected a %s", what);
        return -1;
    }
    return 0;
}

static int local_arg(PyObject *o, int *local)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= ACTIONS_PER_PLAYER) {
        PyErr_Format(PyExc_ValueError, "no local move %ld", v);
        return -1;
    }
    *local = (int)v;
    return 0;
}

static PyObject *core_play(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int local;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play(position, local)");
        return NULL;
    }
    if (check_type(args[0], POSITION, "Position") < 0 || local_arg(args[1], &local) < 0)
        return NULL;
    int r = obj_play(args[0], local);
    if (r < 0) return NULL;
    return PyBool_FromLong(r);
}

/* ---- the match: apply_action, legal_actions, the random playout ------------------- */

static int playing(PyObject *st)
{
    PyObject *phase = SSLOT(st, S_PHASE);
    return phase == STR_PLAYING || PyUnicode_Compare(phase, STR_PLAYING) == 0;
}

/* SpyState.apply_action. */
static int state_apply(PyObject *st, long action)
{
    PyObject *seats = SSLOT(st, S_SEATS);
    long player = action / ACTIONS_PER_PLAYER;
    int local = (int)(action % ACTIONS_PER_PLAYER);
    if (action < 0 || player >= PyList_GET_SIZE(seats)) {
        PyErr_Format(PyExc_ValueError, "no action %ld at this table", action);
        return -1;
    }
    PyObject *seat = PyList_GET_ITEM(seats, player);
    PyObject *a = PyLong_FromLong(action);
    if (a == NULL) return -1;
    PyObject *log = PyTuple_Pack(2, a, SSLOT(st, S_LOG));
    Py_DECREF(a);
    if (set_slot(&SSLOT(st, S_LOG), log) < 0) return -1;
    Py_INCREF(seat);
    int out = obj_play(seat, local);
    PyObject *ended = Py_None;
    Py_INCREF(ended);
    if (out > 0) { /* S12-S13: out of the race; nobody left racing ends the round */
        long active = as_long(SSLOT(st, S_ACTIVE)) - 1;
        if (set_long(&SSLOT(st, S_ACTIVE), active) < 0) out = -1;
        else if (!active)
            Py_SETREF(ended, PyObject_CallMethodOneArg(st, STR_END_ROUND, Py_None));
    } else if (out == 0 && local == CALL) { /* S10: the first call ends the round */
        Py_SETREF(ended, PyObject_CallMethodOneArg(st, STR_END_ROUND, PSLOT(seat, P_PLAYER)));
    }
    Py_DECREF(seat);
    if (ended == NULL) return -1;
    Py_DECREF(ended);
    return out < 0 ? -1 : 0;
}

static PyObject *core_apply_action(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply_action(state, action)");
        return NULL;
    }
    if (check_type(args[0], STATE, "SpyState") < 0) return NULL;
    long action = PyLong_AsLong(args[1]);
    if (action == -1 && PyErr_Occurred()) return NULL;
    if (state_apply(args[0], action) < 0) return NULL;
    Py_RETURN_NONE;
}

/* Every racing player's legal ids into `out` (sorted: seats in order); -1 on error. */
static int all_legal(PyObject *st, int *out, int room)
{
    if (!playing(st)) return PyErr_Occurred() ? -1 : 0;
    PyObject *seats = SSLOT(st, S_SEATS);
    int n = 0;
    for (Py_ssize_t p = 0; p < PyList_GET_SIZE(seats); p++) {
        PyObject *legal = PSLOT(PyList_GET_ITEM(seats, p), P_LEGAL);
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(legal) && n < room; i++)
            out[n++] = (int)PyLong_AsLong(PyList_GET_ITEM(legal, i));
    }
    return n;
}

static PyObject *core_legal_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "legal_actions(state, player=None)");
        return NULL;
    }
    PyObject *st = args[0];
    if (check_type(st, STATE, "SpyState") < 0) return NULL;
    if (nargs == 2 && args[1] != Py_None) {
        if (!playing(st)) return PyErr_Occurred() ? NULL : PyList_New(0);
        PyObject *seat = PyList_GetItem(SSLOT(st, S_SEATS), PyLong_AsSsize_t(args[1]));
        if (seat == NULL) return NULL;
        PyObject *legal = PSLOT(seat, P_LEGAL);
        return PyList_GetSlice(legal, 0, PyList_GET_SIZE(legal));
    }
    int out[8 * MAX_LEGAL];
    int n = all_legal(st, out, 8 * MAX_LEGAL);
    return n < 0 ? NULL : ints_list(out, n);
}

/* The recorded random playout (playout.random_playout): every racing player's moves
 * in id order; a move is legal[(int)(uniform() * n)]; a forced move draws nothing. */
static PyObject *core_random_playout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "random_playout(state, uniform, moves=None)");
        return NULL;
    }
    PyObject *st = args[0], *uniform = args[1];
    if (check_type(st, STATE, "SpyState") < 0) return NULL;
    if (Py_TYPE(st) != STATE) /* a subclass may choose its moves otherwise */
        return PyObject_Vectorcall(PURE_RANDOM, args, nargs, NULL);
    long left = -1;
    if (nargs == 3 && args[2] != Py_None) {
        left = PyLong_AsLong(args[2]);
        if (left == -1 && PyErr_Occurred()) return NULL;
        if (left < 0) {
            PyErr_SetString(PyExc_ValueError, "moves must not be negative");
            return NULL;
        }
    }
    int out[8 * MAX_LEGAL];
    while (left != 0) {
        int n = all_legal(st, out, 8 * MAX_LEGAL);
        if (n < 0) return NULL;
        if (n == 0) break;
        int action = out[0];
        if (n > 1) {
            PyObject *u = PyObject_CallNoArgs(uniform);
            if (u == NULL) return NULL;
            double x = PyFloat_AsDouble(u);
            Py_DECREF(u);
            if (x == -1.0 && PyErr_Occurred()) return NULL;
            action = out[(int)(x * n)];
        }
        if (state_apply(st, action) < 0) return NULL;
        if (left > 0) left--;
    }
    Py_RETURN_NONE;
}

/* ---- one player's cards by rank, in C ---------------------------------------------- */

typedef struct {
    uint8_t points[MAX_CARDS], deck[MAX_CARDS], waste[MAX_CARDS]; /* ranks, top last */
    int np, nd, nw, nt, tops[MAX_PILES];
    int need, blocked, out; /* out: called or resigned (no legal moves) */
    long long moves, limit;
} Race;

static int load_ranks(PyObject *list, uint8_t *out, int *n)
{
    Py_ssize_t size = PyList_GET_SIZE(list);
    if (size > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "a player holds at most 52 cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++)
        out[i] = (uint8_t)(PyLong_AsLong(PyList_GET_ITEM(list, i)) % 13);
    *n = (int)size;
    return 0;
}

static int load_race(Race *r, PyObject *pos)
{
    if (check_type(pos, POSITION, "Position") < 0) return -1;
    if (load_ranks(PSLOT(pos, P_POINTS), r->points, &r->np) < 0 ||
        load_ranks(PSLOT(pos, P_DECK), r->deck, &r->nd) < 0 ||
        load_ranks(PSLOT(pos, P_WASTE), r->waste, &r->nw) < 0)
        return -1;
    PyObject *tops = PSLOT(pos, P_TOPS);
    r->nt = (int)PyList_GET_SIZE(tops);
    if (r->nt > MAX_PILES) r->nt = MAX_PILES;
    for (int i = 0; i < r->nt; i++) r->tops[i] = (int)PyLong_AsLong(PyList_GET_ITEM(tops, i));
    r->need = (int)as_long(PSLOT(pos, P_NEED));
    r->blocked = PyObject_IsTrue(PSLOT(pos, P_BLOCKED));
    r->out = PyList_GET_SIZE(PSLOT(pos, P_LEGAL)) == 0;
    r->moves = PyLong_AsLongLong(PSLOT(pos, P_MOVES));
    r->limit = PyLong_AsLongLong(PSLOT(pos, P_LIMIT));
    return PyErr_Occurred() ? -1 : 0;
}

static int race_legal(const Race *r, int *out)
{
    if (r->out) return 0;
    if (r->moves >= r->limit) {
        out[0] = RESIGN;
        return 1;
    }
    return legal_locals(r->nd || r->nw, r->np ? r->points[r->np - 1] : -1,
                        r->nw ? r->waste[r->nw - 1] : -1, r->tops, r->nt, r->need, out);
}

static int race_is_blocked(const Race *r) /* S12 */
{
    if (!r->np || r->nt < MAX_PILES || r->need >> r->points[r->np - 1] & 1) return 0;
    int c[13] = {0};
    for (int i = 0; i < r->nd; i++) c[r->deck[i]]++;
    for (int i = 0; i < r->nw; i++) c[r->waste[i]]++;
    for (int i = 0; i < r->nt; i++)
        if (c[(r->tops[i] + 1) % 13] || c[(r->tops[i] + 12) % 13]) return 0;
    return 1;
}

/* Position.play on ranks (a legal move only); 1 when the move takes the player out
 * without a call. */
static int race_play(Race *r, int local)
{
    r->moves++;
    if (local == TURN) {
        if (r->nd) {
            r->waste[r->nw++] = r->deck[--r->nd];
        } else { /* S9: the waste turned over; its first-turned card is on top again */
            for (int i = 0; i < r->nw; i++) r->deck[i] = r->waste[r->nw - 1 - i];
            r->nd = r->nw - 1;
            r->waste[0] = r->deck[r->nd];
            r->nw = 1;
        }
        return 0;
    }
    if (local >= CALL) {
        r->out = 1;
        return local == RESIGN && !r->blocked;
    }
    int from_points = local < PLACE_WASTE || local == OPEN_POINTS;
    int rank = from_points ? r->points[--r->np] : r->waste[--r->nw];
    if (local < OPEN_POINTS) {
        r->tops[local - (local < PLACE_WASTE ? PLACE_POINTS : PLACE_WASTE)] = rank;
        r->need = 0;
        for (int i = 0; i < r->nt; i++) r->need |= FITS[r->tops[i]];
    } else {
        r->tops[r->nt++] = rank;
        r->need |= FITS[rank];
    }
    if (r->nt == MAX_PILES) r->blocked = race_is_blocked(r);
    return r->blocked;
}

static int has(const int *locals, int n, int local)
{
    for (int i = 0; i < n; i++)
        if (locals[i] == local) return 1;
    return 0;
}

/* bots/spy_search.greedy_local. */
static int greedy_local(const Race *r, int stalled)
{
    int legal[MAX_LEGAL];
    int n = race_legal(r, legal);
    if (r->blocked || !n) return RESIGN;
    if (has(legal, n, CALL)) return CALL;
    for (int i = 0; i < n; i++)
        if (legal[i] >= 1 && legal[i] <= 6) return legal[i];
    if (has(legal, n, OPEN_POINTS)) return OPEN_POINTS;
    if (r->nw) {
        int turn = has(legal, n, TURN);
        int bridge = !r->np || (FITS[r->waste[r->nw - 1]] >> r->points[r->np - 1] & 1);
        for (int i = 0; i < n; i++)
            if (legal[i] >= 7 && legal[i] <= 12 && (bridge || stalled || !turn)) return legal[i];
        if (has(legal, n, OPEN_WASTE) && (bridge || stalled) && r->nt <= MAX_PILES - 2)
            return OPEN_WASTE;
    }
    if (has(legal, n, TURN)) return TURN;
    return legal[0];
}

/* bots/spy_search.greedy_race: moves to the call, -1 for none. */
static long greedy_race(Race *r, long cap)
{
    long moves = 0, idle = 0;
    while (moves < cap) {
        int local = greedy_local(r, idle > r->nd + r->nw);
        if (local == RESIGN) return -1;
        moves++;
        if (local == CALL) return moves;
        idle = local == TURN ? idle + 1 : 0;
        race_play(r, local);
        if (r->blocked) return -1;
    }
    return -1;
}

/* Arguments (position, n): the position's C copy and n. */
static int race_and_long(PyObject *const *args, Py_ssize_t nargs, const char *usage, Race *r,
                         long *n)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (load_race(r, args[0]) < 0) return -1;
    *n = PyLong_AsLong(args[1]);
    return *n == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *core_greedy_race(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Race r;
    long cap;
    if (race_and_long(args, nargs, "greedy_race(position, cap)", &r, &cap) < 0) return NULL;
    long moves = greedy_race(&r, cap);
    if (moves < 0) Py_RETURN_NONE;
    return PyLong_FromLong(moves);
}

/* race.GreedyPolicy.choose on the C copy (local ids). */
static int policy_greedy(const Race *r)
{
    int legal[MAX_LEGAL];
    int n = race_legal(r, legal);
    if (r->blocked) return RESIGN;
    if (n > 1 && legal[n - 2] == CALL) return CALL;
    int turn = -1, open_points = -1, waste_place = -1;
    for (int i = 0; i < n; i++) {
        int local = legal[i];
        if (local == TURN) turn = local;
        else if (local < PLACE_WASTE) return local;
        else if (local < OPEN_POINTS) {
            if (waste_place < 0) waste_place = local;
        } else if (local == OPEN_POINTS) open_points = local;
    }
    if (waste_place >= 0) return waste_place;
    if (open_points >= 0) return open_points;
    if (turn >= 0) return turn;
    return RESIGN;
}

/* race._solo_race for GreedyPolicy and a fixed move time: (outcome, moves). */
static PyObject *core_greedy_solo_race(PyObject *module, PyObject *const *args,
                                       Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "greedy_solo_race(seat, priority, move_limit, cutoff, seconds)");
        return NULL;
    }
    Race r;
    if (load_race(&r, args[0]) < 0) return NULL;
    long base = as_long(PSLOT(args[0], P_BASE));
    long priority = PyLong_AsLong(args[1]);
    long long move_limit = PyLong_AsLongLong(args[2]);
    double seconds = PyFloat_AsDouble(args[4]);
    int has_cutoff = args[3] != Py_None;
    double c_clock = 0;
    long c_priority = 0, c_sequence = 0;
    if (has_cutoff && !PyArg_ParseTuple(args[3], "dll", &c_clock, &c_priority, &c_sequence))
        return NULL;
    if (PyErr_Occurred()) return NULL;
    PyObject *moves = PyList_New(0), *pr = PyLong_FromLong(priority);
    if (moves == NULL || pr == NULL) goto fail;
    const char *outcome;
    double clock = 0.0;
    long sequence = 0;
    for (;;) {
        if (r.blocked) {
            outcome = "blocked";
            break;
        }
        int local = r.moves >= move_limit ? RESIGN : policy_greedy(&r);
        clock += seconds;
        if (has_cutoff &&
            (clock > c_clock ||
             (clock == c_clock &&
              (priority > c_priority || (priority == c_priority && sequence > c_sequence))))) {
            outcome = "stopped";
            break;
        }
        PyObject *move = Py_BuildValue("(dOll)", clock, pr, sequence, base + local);
        if (move == NULL || PyList_Append(moves, move) < 0) {
            Py_XDECREF(move);
            goto fail;
        }
        Py_DECREF(move);
        sequence++;
        race_play(&r, local);
        if (local == CALL) {
            outcome = "called";
            break;
        }
        if (local == RESIGN) {
            outcome = "resigned";
            break;
        }
    }
    Py_DECREF(pr);
    return Py_BuildValue("(sN)", outcome, moves);
fail:
    Py_XDECREF(moves);
    Py_XDECREF(pr);
    return NULL;
}

#include "_search.h"
#include "_deal.h"

/* ---- binding ------------------------------------------------------------------------ */

static PyObject *core_bind(PyObject *module, PyObject *args)
{
    PyObject *position, *state, *random_fn;
    if (!PyArg_ParseTuple(args, "O!O!O:bind", &PyType_Type, &position, &PyType_Type, &state,
                          &random_fn))
        return NULL;
    Py_ssize_t poff[N_PSLOTS], soff[N_SSLOTS];
    if (find_slots(position, PSLOT_NAMES, N_PSLOTS, poff) < 0 ||
        find_slots(state, SSLOT_NAMES, N_SSLOTS, soff) < 0)
        return NULL;
    memcpy(POFF, poff, sizeof poff);
    memcpy(SOFF, soff, sizeof soff);
    Py_INCREF(position);
    Py_XSETREF(POSITION, (PyTypeObject *)position);
    Py_INCREF(state);
    Py_XSETREF(STATE, (PyTypeObject *)state);
    Py_INCREF(random_fn);
    Py_XSETREF(PURE_RANDOM, random_fn);
    Py_RETURN_NONE;
}

#define FAST(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

static PyMethodDef METHODS[] = {
    {"bind", core_bind, METH_VARARGS,
     "bind(Position, SpyState, random_playout): the classes whose slots the core reads, "
     "and the pure playout for states of a subclass."},
    {"play", FAST(core_play), "play(position, local) -> bool: Position.play."},
    {"apply_action", FAST(core_apply_action), "apply_action(state, action): the unchecked move."},
    {"legal_actions", FAST(core_legal_actions), "legal_actions(state, player=None) -> list[int]"},
    {"random_playout", FAST(core_random_playout),
     "random_playout(state, uniform, moves=None): the recorded random playout."},
    {"greedy_race", FAST(core_greedy_race),
     "greedy_race(position, cap) -> moves to the call by the greedy rule, or None."},
    {"greedy_solo_race", FAST(core_greedy_solo_race),
     "greedy_solo_race(seat, priority, move_limit, cutoff, seconds) -> (outcome, moves)."},
    {"race_moves", FAST(core_race_moves),
     "race_moves(points, tops, stock, waste_count, node_limit) -> (moves, proven, bound)."},
    {"shortest_race", FAST(core_shortest_race),
     "shortest_race(position, node_limit) -> (moves, path, proven, nodes); proven is "
     "False when the search ran out (the caller then races greedily)."},
    {"_seeded_cards", FAST(core_seeded_cards),
     "seeded_cards(state, number): SpyState._seeded_cards, round number's cards from the seed."},
    {"_lay_out", FAST(core_lay_out),
     "lay_out(state, kinds, limit) -> list[Position]: SpyState._lay_out (Position.deal)."},
    {"deal_cards", FAST(core_deal_cards),
     "deal_cards(seed, round_number, players, full_decks, same_deal): deal.deal_cards."},
    {"shuffle_number", core_shuffle_number, METH_O,
     "shuffle_number(number: bytes) -> list | None: the deck a 32-byte number gives."},
    {"blake2b_256", core_blake2b_256, METH_O, "blake2b_256(data) -> bytes: BLAKE2b-256."},
    COREKIT_METHOD,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled core of Spy vs Spy (see _core.c); the pure-Python engine is the reference.",
    -1, METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    for (int r = 0; r < 13; r++) FITS[r] = (1 << (r + 1) % 13) | (1 << (r + 12) % 13);
    init_cover();
    STR_END_ROUND = PyUnicode_InternFromString("_end_round");
    STR_PLAYING = PyUnicode_InternFromString("playing");
    if (STR_END_ROUND == NULL || STR_PLAYING == NULL) return NULL;
    return PyModule_Create(&MODULE);
}
