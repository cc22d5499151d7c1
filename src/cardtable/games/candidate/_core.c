/* The compiled core of Candidate: the hot paths of a one-deck deal in C.
 *
 * The pure-Python engine (state.py, plays.py, playout.py) is the reference; this file
 * does the same things faster and is proven equal by tests (tests/candidate/
 * test_candidate_compiled.py), never trusted. It works on the very CandidateState
 * objects of the pure engine: it reads their slots, plays moves on a C copy of the
 * deal (`Deal`) and writes the slots back, so every other method (views, records,
 * explanations, the checked `apply`) keeps working unchanged. Rules: C4-C15 of
 * docs/rules/candidate.en.md; action ids: actions.py.
 *
 * Covered: legal moves, the unchecked `apply_action`, a search's tree step
 * (`advance`) and both random playouts, for a one-deck deal already dealt. Anything
 * else (several decks, the deal move itself, a checked move that makes events) goes to
 * the pure-Python functions handed to `bind`.
 *
 * The random playouts draw exactly the numbers the pure ones draw: a move is
 * legal[(int)(uniform() * n)] among the n legal moves in id order, a forced move draws
 * nothing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <structmember.h>

#include "../_corekit.h"

enum { PHASE_DEAL, PHASE_LOBBY, PHASE_PLAY, PHASE_DRAW, PHASE_OVER };

#define LOBBY_BASE 4
#define DRAW_BASE 8
#define PASS 12
#define PLAY_BASE 13
#define PLAY_STRIDE 681
#define RUN_OFFSET 1
#define SET_OFFSET 341
#define HAND_SIZE 5
/* Room kept in C; a state that does not fit goes to the pure engine. */
#define MAX_HAND 16
#define MAX_LOBBY 64
#define MAX_LEGAL 2048

static const int SEQ_OFFSET[6] = {0, 0, 4, 20, 84, 340};

/* The slots of CandidateState read and written here, found by name in `bind`. */
enum {
    S_PHASE, S_PLAYER, S_LEFT, S_MASK, S_RUN, S_SET, S_PLACER, S_PASSES, S_LEADER,
    S_PILE_SIZE, S_DEAL_INDEX, S_TOPS, S_PILES, S_HANDS, S_KINDS, S_LOBBY, S_SCORES,
    S_CAPTURES, S_DISCARDS, S_MOVES, S_DRAWERS, S_LEGAL, S_SINK, S_MULTI, N_SLOTS
};
static const char *const SLOT_NAMES[N_SLOTS] = {
    "_phase", "_player", "_left", "_mask", "_run_need", "_set_need", "_placer",
    "_passes", "_leader", "_pile_size", "_deal_index", "_tops", "_piles", "_hands",
    "_kinds", "_lobby", "_scores", "_captures", "_discards", "_moves", "_drawers",
    "_legal", "_sink", "_multi"};
static Py_ssize_t OFFSET[N_SLOTS];
static PyTypeObject *BOUND = NULL;
/* The pure-Python versions, for what the core does not cover. */
static PyObject *PURE_APPLY = NULL, *PURE_LEGAL = NULL, *PURE_ADVANCE = NULL,
                *PURE_RANDOM = NULL, *PURE_MARGIN = NULL;
static PyObject *STR_END_DEAL = NULL;

#define SLOT(o, i) (*(PyObject **)((char *)(o) + OFFSET[i]))

static inline void set_slot(PyObject *o, int i, PyObject *value) /* steals value */
{
    PyObject *old = SLOT(o, i);
    SLOT(o, i) = value;
    Py_XDECREF(old);
}

static inline int card_points(int kind) { return kind % 13 >= 9 ? 2 : 1; } /* C14 */

static inline uint64_t rank_kinds(int rank) /* the four cards of a rank index */
{
    if (rank < 0 || rank > 12) return 0;
    return (1ULL << rank) | (1ULL << (13 + rank)) | (1ULL << (26 + rank)) |
           (1ULL << (39 + rank));
}

/* ---- one deal in C ------------------------------------------------------------ */

typedef struct {
    int phase, player, left, mask, run_need, set_need, placer, passes, leader, pile_size;
    int tops[4];
    PyObject *piles; /* borrowed: four tuples of kinds, top first */
    uint64_t kinds[2];
    int hand[2][MAX_HAND], hlen[2];
    int lobby[MAX_LOBBY], lsize, points;
    int scores[2];
    int ended; /* C13: both hands and the piles are empty */
    int dirty_hand[2], dirty_lobby;
    /* Recording (borrowed lists, NULL: the score-only playout). */
    PyObject *moves, *drawers, *captures, *discards;
} Deal;

static long int_slot(PyObject *st, int i)
{
    PyObject *v = SLOT(st, i);
    if (v == NULL) {
        PyErr_Format(PyExc_AttributeError, "state has no %s", SLOT_NAMES[i]);
        return -1;
    }
    return PyLong_AsLong(v);
}

static int read_ints(PyObject *list, int *out, Py_ssize_t want)
{
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != want) {
        PyErr_SetString(PyExc_TypeError, "unexpected state layout");
        return -1;
    }
    for (Py_ssize_t i = 0; i < want; i++) out[i] = (int)PyLong_AsLong(PyList_GET_ITEM(list, i));
    return 0;
}

/* Load the state into `d`. Returns 0, 1 when the state does not fit (pure engine), -1
 * on error. */
static int load(Deal *d, PyObject *st, int record)
{
    d->phase = (int)int_slot(st, S_PHASE);
    d->player = (int)int_slot(st, S_PLAYER);
    d->left = (int)int_slot(st, S_LEFT);
    d->mask = (int)int_slot(st, S_MASK);
    d->run_need = (int)int_slot(st, S_RUN);
    d->set_need = (int)int_slot(st, S_SET);
    d->placer = (int)int_slot(st, S_PLACER);
    d->passes = (int)int_slot(st, S_PASSES);
    d->leader = (int)int_slot(st, S_LEADER);
    d->pile_size = (int)int_slot(st, S_PILE_SIZE);
    if (PyErr_Occurred()) return -1;
    if (read_ints(SLOT(st, S_TOPS), d->tops, 4) < 0) return -1;
    if (read_ints(SLOT(st, S_SCORES), d->scores, 2) < 0) return -1;
    d->piles = SLOT(st, S_PILES);
    PyObject *hands = SLOT(st, S_HANDS), *kinds = SLOT(st, S_KINDS), *lobby = SLOT(st, S_LOBBY);
    if (!PyList_Check(hands) || !PyList_Check(kinds) || !PyList_Check(lobby) ||
        !PyTuple_Check(d->piles)) {
        PyErr_SetString(PyExc_TypeError, "unexpected state layout");
        return -1;
    }
    for (int p = 0; p < 2; p++) {
        PyObject *hand = PyList_GET_ITEM(hands, p);
        Py_ssize_t n = PyList_GET_SIZE(hand);
        if (n > MAX_HAND) return 1;
        d->hlen[p] = (int)n;
        if (read_ints(hand, d->hand[p], n) < 0) return -1;
        d->kinds[p] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(kinds, p));
        d->dirty_hand[p] = 0;
    }
    Py_ssize_t n = PyList_GET_SIZE(lobby);
    if (n > MAX_LOBBY) return 1;
    d->lsize = (int)n;
    if (read_ints(lobby, d->lobby, n) < 0) return -1;
    d->points = 0;
    for (int i = 0; i < d->lsize; i++) d->points += card_points(d->lobby[i]);
    d->dirty_lobby = 0;
    d->ended = 0;
    if (record) {
        d->moves = SLOT(st, S_MOVES);
        d->drawers = SLOT(st, S_DRAWERS);
        d->captures = SLOT(st, S_CAPTURES);
        d->discards = SLOT(st, S_DISCARDS);
    } else {
        d->moves = d->drawers = d->captures = d->discards = NULL;
    }
    if (PyErr_Occurred()) return -1;
    return 0;
}

static int set_int_item(PyObject *list, Py_ssize_t i, long value)
{
    PyObject *v = PyLong_FromLong(value);
    return v == NULL ? -1 : PyList_SetItem(list, i, v);
}

/* Write `d` back into the state (the deal's end through the state's own _end_deal). */
static int store(Deal *d, PyObject *st)
{
    const int values[] = {d->phase, d->player, d->left, d->mask, d->run_need,
                          d->set_need, d->placer, d->passes, d->leader};
    const int slots[] = {S_PHASE, S_PLAYER, S_LEFT, S_MASK, S_RUN,
                         S_SET, S_PLACER, S_PASSES, S_LEADER};
    for (int i = 0; i < 9; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL) return -1;
        set_slot(st, slots[i], v);
    }
    PyObject *tops = SLOT(st, S_TOPS), *scores = SLOT(st, S_SCORES);
    for (int x = 0; x < 4; x++)
        if (set_int_item(tops, x, d->tops[x]) < 0) return -1;
    for (int p = 0; p < 2; p++) {
        if (set_int_item(scores, p, d->scores[p]) < 0) return -1;
        PyObject *kind_bits = PyLong_FromUnsignedLongLong(d->kinds[p]);
        if (kind_bits == NULL || PyList_SetItem(SLOT(st, S_KINDS), p, kind_bits) < 0) return -1;
        if (d->dirty_hand[p]) {
            PyObject *hand = ints_list(d->hand[p], d->hlen[p]);
            if (hand == NULL || PyList_SetItem(SLOT(st, S_HANDS), p, hand) < 0) return -1;
        }
    }
    if (d->dirty_lobby) {
        PyObject *lobby = ints_list(d->lobby, d->lsize);
        if (lobby == NULL) return -1;
        set_slot(st, S_LOBBY, lobby);
    }
    Py_INCREF(Py_None);
    set_slot(st, S_LEGAL, Py_None);
    if (d->ended) {
        PyObject *r = PyObject_CallMethodNoArgs(st, STR_END_DEAL);
        if (r == NULL) return -1;
        Py_DECREF(r);
    }
    return 0;
}

static int append_int(PyObject *list, long value)
{
    PyObject *v = PyLong_FromLong(value);
    if (v == NULL) return -1;
    int r = PyList_Append(list, v);
    Py_DECREF(v);
    return r;
}

/* ---- legal moves (C7, C8, C10-C12), in id order ----------------------------------- */

static void run_tails(uint64_t kinds, int id0, int rank, int level, int digits, int *out, int *n)
{
    int above = rank + level + 1; /* the rank the next card of the run must have */
    if (level == 4 || above > 12) return;
    for (int s = 0; s < 4; s++) {
        if (!(kinds >> (s * 13 + above) & 1)) continue;
        int code = digits * 4 + s;
        out[(*n)++] = id0 + RUN_OFFSET + SEQ_OFFSET[level + 1] + code;
        run_tails(kinds, id0, rank, level + 1, code, out, n);
    }
}

static void set_tails(int suits, int id0, int level, int digits, int *out, int *n)
{
    if (level == 4) return;
    for (int s = 0; s < 4; s++) {
        if (!(suits >> s & 1)) continue;
        int code = digits * 4 + s;
        out[(*n)++] = id0 + SET_OFFSET + SEQ_OFFSET[level + 1] + code;
        set_tails(suits & ~(1 << s), id0, level + 1, code, out, n);
    }
}

/* Every play from a one-deck hand onto the lobby (as plays.one_deck_plays), sorted. */
static int plays(uint64_t kinds, int lobby_empty, int run_need, int set_need, int *out)
{
    int n = 0;
    uint64_t starts = lobby_empty ? kinds : kinds & (rank_kinds(run_need) | rank_kinds(set_need));
    while (starts) {
        int first = __builtin_ctzll(starts);
        starts &= starts - 1;
        int rank = first % 13, id0 = PLAY_BASE + first * PLAY_STRIDE, from = n;
        out[n++] = id0;
        if (lobby_empty || rank == run_need) run_tails(kinds, id0, rank, 0, 0, out, &n);
        if (lobby_empty || rank == set_need) {
            int suits = 0;
            for (int s = 0; s < 4; s++)
                if (s != first / 13 && (kinds >> (s * 13 + rank) & 1)) suits |= 1 << s;
            set_tails(suits, id0, 0, 0, out, &n);
        }
        for (int i = from + 1; i < n; i++) { /* one first card's plays, in id order */
            int v = out[i], j = i - 1;
            while (j >= from && out[j] > v) {
                out[j + 1] = out[j];
                j--;
            }
            out[j + 1] = v;
        }
    }
    return n;
}

static int legal(const Deal *d, int *out)
{
    int n = 0;
    switch (d->phase) {
    case PHASE_DEAL:
        for (int x = 0; x < 4; x++) out[n++] = x;
        break;
    case PHASE_LOBBY:
    case PHASE_DRAW: {
        int base = d->phase == PHASE_LOBBY ? LOBBY_BASE : DRAW_BASE;
        for (int x = 0; x < 4; x++)
            if (d->mask >> x & 1) out[n++] = base + x;
        break;
    }
    case PHASE_PLAY:
        if (d->lsize) { /* C7, C8: pass, or cards that continue the lobby */
            out[n++] = PASS;
            n += plays(d->kinds[d->player], 0, d->run_need, d->set_need, out + 1);
        } else if (!d->hlen[d->player]) { /* C12: a leader with no cards passes */
            out[n++] = PASS;
        } else { /* C12: start the lobby from hand */
            n = plays(d->kinds[d->player], 1, -1, -1, out);
        }
        break;
    default:
        break;
    }
    return n;
}

/* ---- moves (as CandidateState.apply_action) ------------------------------------- */

static void need_lobby(Deal *d) /* C11, C12, C13 */
{
    d->passes = 0;
    d->placer = -1;
    if (d->left) {
        d->phase = PHASE_LOBBY;
        d->player = 1 - d->leader;
    } else if (d->hlen[0] || d->hlen[1]) {
        d->phase = PHASE_PLAY;
        d->player = d->leader;
    } else {
        d->ended = 1;
    }
}

static int end_trick(Deal *d) /* C8, C9, C10, C15 */
{
    int taker = d->placer, count = d->lsize, points = d->points;
    d->lsize = d->points = 0;
    d->dirty_lobby = 1;
    if (taker < 0) { /* C9: nobody played onto the turned card */
        if (d->discards && append_int(d->discards, d->lobby[0]) < 0) return -1;
        need_lobby(d);
        return 0;
    }
    int score;
    if (count == 1)
        score = points;
    else if (d->lobby[0] % 13 == d->lobby[1] % 13)
        score = count * count; /* a set */
    else
        score = points * count; /* a run */
    if (d->captures) {
        PyObject *taken = PyTuple_New(count);
        if (taken == NULL) return -1;
        for (int i = 0; i < count; i++) {
            PyObject *v = PyLong_FromLong(d->lobby[i]);
            if (v == NULL) {
                Py_DECREF(taken);
                return -1;
            }
            PyTuple_SET_ITEM(taken, i, v);
        }
        int r = PyList_Append(PyList_GET_ITEM(d->captures, taker), taken);
        Py_DECREF(taken);
        if (r < 0) return -1;
    }
    d->scores[taker] += score;
    d->leader = taker;
    if (d->left) {
        if (d->hlen[taker] < HAND_SIZE) {
            d->phase = PHASE_DRAW;
            d->player = taker;
            return 0;
        }
        if (d->hlen[1 - taker] < HAND_SIZE) {
            d->phase = PHASE_DRAW;
            d->player = 1 - taker;
            return 0;
        }
    }
    need_lobby(d);
    return 0;
}

static void remove_card(Deal *d, int p, int kind)
{
    int *hand = d->hand[p];
    for (int i = 0; i < d->hlen[p]; i++) {
        if (hand[i] == kind) {
            for (int j = i + 1; j < d->hlen[p]; j++) hand[j - 1] = hand[j];
            d->hlen[p]--;
            break;
        }
    }
    d->kinds[p] &= ~(1ULL << kind);
    d->dirty_hand[p] = 1;
}

/* Take the top card of pile `pile`; -1 on error. */
static int take_top(Deal *d, int pile)
{
    int top = d->tops[pile]++;
    if (top + 1 == d->pile_size) d->mask &= ~(1 << pile);
    d->left--;
    PyObject *cards = PyTuple_GET_ITEM(d->piles, pile);
    if (top >= PyTuple_GET_SIZE(cards)) {
        PyErr_SetString(PyExc_ValueError, "the pile is empty");
        return -1;
    }
    return (int)PyLong_AsLong(PyTuple_GET_ITEM(cards, top));
}

/* One move (not the deal, C4); 0 or -1 on error. */
static int step(Deal *d, int action)
{
    if (d->moves && append_int(d->moves, action) < 0) return -1;
    int player = d->player;
    if (action == PASS) {
        if (!d->lsize) { /* C12: a leader with no cards passes; the opponent leads */
            d->leader = d->player = 1 - player;
        } else if (d->passes) {
            return end_trick(d); /* C8: two passes in a row end the trick */
        } else {
            d->passes = 1;
            d->player = 1 - player;
        }
        return 0;
    }
    if (action >= PLAY_BASE) { /* C6, C7, C12: cards from hand onto the lobby */
        int index = action - PLAY_BASE, first = index / PLAY_STRIDE;
        int offset = index % PLAY_STRIDE, rank = first % 13, climb = 0, length = 0, digits = 0;
        if (offset >= SET_OFFSET) {
            offset -= SET_OFFSET;
        } else if (offset >= RUN_OFFSET) {
            offset -= RUN_OFFSET;
            climb = 1;
        } else {
            offset = -1;
        }
        if (offset >= 0) {
            length = 1;
            while (offset >= SEQ_OFFSET[length + 1]) length++;
            digits = offset - SEQ_OFFSET[length];
        }
        int cards[5], count = length + 1;
        cards[0] = first;
        for (int j = 1; j <= length; j++) {
            int suit = (digits >> (2 * (length - j))) & 3;
            cards[j] = suit * 13 + rank + climb * j;
        }
        if (d->lsize + count > MAX_LOBBY) {
            PyErr_SetString(PyExc_ValueError, "lobby too long");
            return -1;
        }
        for (int j = 0; j < count; j++) {
            remove_card(d, player, cards[j]);
            d->lobby[d->lsize++] = cards[j];
            d->points += card_points(cards[j]);
        }
        d->dirty_lobby = 1;
        int last = cards[count - 1] % 13, after = last < 12 ? last + 1 : -1;
        if (length && climb) { /* a run: the next card one rank up (none after A) */
            d->run_need = after;
            d->set_need = -1;
        } else if (length) { /* a set: every card of this rank */
            d->run_need = -1;
            d->set_need = last;
        } else if (d->lsize == 1) { /* C12: a one-card start leaves the shape open */
            d->run_need = after;
            d->set_need = last;
        } else if (last == d->set_need) { /* C7: one card of the lobby's rank: a set */
            d->run_need = -1;
        } else { /* C7: one card a rank up: a run */
            d->run_need = after;
            d->set_need = -1;
        }
        d->placer = player;
        d->passes = 0;
        d->player = 1 - player;
        return 0;
    }
    /* `lobby X` and `draw X` both take the top card of pile X. */
    int pile = action & 3, kind = take_top(d, pile);
    if (kind < 0) return -1;
    if (action < DRAW_BASE) { /* C5, C11: the card turned starts the lobby */
        d->lobby[0] = kind;
        d->lsize = 1;
        d->points = card_points(kind);
        d->dirty_lobby = 1;
        int rank = kind % 13;
        d->run_need = rank < 12 ? rank + 1 : -1;
        d->set_need = rank;
        d->phase = PHASE_PLAY;
        d->player = d->leader;
        return 0;
    }
    /* C10: one card at a time from the pile the drawer chooses. */
    if (d->hlen[player] >= MAX_HAND) {
        PyErr_SetString(PyExc_ValueError, "hand too large");
        return -1;
    }
    d->hand[player][d->hlen[player]++] = kind;
    d->kinds[player] |= 1ULL << kind;
    d->dirty_hand[player] = 1;
    if (d->drawers && append_int(d->drawers, player) < 0) return -1;
    if (!d->left)
        need_lobby(d); /* the piles ran out: drawing stops */
    else if (d->hlen[player] < HAND_SIZE)
        ;
    else if (player == d->leader && d->hlen[1 - player] < HAND_SIZE)
        d->player = 1 - player;
    else
        need_lobby(d);
    return 0;
}

/* The playout loop: 0, or -1 on error. */
static int play_out(Deal *d, PyObject *uniform, long budget)
{
    int out[MAX_LEGAL];
    while (budget && !d->ended) {
        int n = legal(d, out), pick = 0;
        if (n > 1) {
            PyObject *r = PyObject_CallNoArgs(uniform);
            if (r == NULL) return -1;
            double u = PyFloat_AsDouble(r);
            Py_DECREF(r);
            if (u == -1.0 && PyErr_Occurred()) return -1;
            pick = (int)(u * (double)n);
            if (pick < 0 || pick >= n) {
                PyErr_SetString(PyExc_ValueError, "uniform() must give a float in [0, 1)");
                return -1;
            }
        }
        if (step(d, out[pick]) < 0) return -1;
        if (budget > 0) budget--;
    }
    return 0;
}

/* ---- the functions the engine binds ------------------------------------------------ */

static int check_state(PyObject *st)
{
    if (BOUND == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the core is not bound to a state class");
        return -1;
    }
    if (!PyObject_TypeCheck(st, BOUND)) {
        PyErr_SetString(PyExc_TypeError, "expected a CandidateState");
        return -1;
    }
    return 0;
}

/* Whether the core covers the state's deal: one deck, dealt, not over. */
static int covered(PyObject *st)
{
    if (PyObject_IsTrue(SLOT(st, S_MULTI))) return 0;
    long phase = PyLong_AsLong(SLOT(st, S_PHASE));
    return phase != PHASE_DEAL && phase != PHASE_OVER;
}

static PyObject *core_legal_actions(PyObject *module, PyObject *st)
{
    if (check_state(st) < 0) return NULL;
    if (!covered(st)) return PyObject_CallOneArg(PURE_LEGAL, st);
    Deal d;
    int r = load(&d, st, 0);
    if (r < 0) return NULL;
    if (r > 0) return PyObject_CallOneArg(PURE_LEGAL, st);
    int out[MAX_LEGAL];
    return ints_list(out, legal(&d, out));
}

/* apply_action without the pure fallback; 1: not covered. */
static int apply_one(PyObject *st, int action)
{
    if (SLOT(st, S_SINK) != Py_None || !covered(st)) return 1;
    Deal d;
    int r = load(&d, st, 1);
    if (r != 0) return r;
    if (step(&d, action) < 0) return -1;
    return store(&d, st);
}

static PyObject *core_apply_action(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply_action(state, action)");
        return NULL;
    }
    PyObject *st = args[0];
    if (check_state(st) < 0) return NULL;
    long action = PyLong_AsLong(args[1]);
    if (action == -1 && PyErr_Occurred()) return NULL;
    int r = apply_one(st, (int)action);
    if (r < 0) return NULL;
    if (r > 0) return PyObject_Vectorcall(PURE_APPLY, args, 2, NULL);
    Py_RETURN_NONE;
}

static PyObject *core_advance(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "advance(state, action)");
        return NULL;
    }
    PyObject *st = args[0];
    if (check_state(st) < 0) return NULL;
    long action = PyLong_AsLong(args[1]);
    if (action == -1 && PyErr_Occurred()) return NULL;
    if (SLOT(st, S_SINK) != Py_None || !covered(st))
        return PyObject_Vectorcall(PURE_ADVANCE, args, 2, NULL);
    Deal d;
    int r = load(&d, st, 1);
    if (r < 0) return NULL;
    if (r > 0) return PyObject_Vectorcall(PURE_ADVANCE, args, 2, NULL);
    if (step(&d, (int)action) < 0 || store(&d, st) < 0) return NULL;
    if (d.ended) return PyTuple_New(0); /* the deal (or the match) is over */
    int out[MAX_LEGAL];
    return ints_list(out, legal(&d, out));
}

static int playout_args(PyObject *const *args, Py_ssize_t nargs, long *budget)
{
    if (nargs < 2 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "expected (state, uniform, moves=None)");
        return -1;
    }
    if (check_state(args[0]) < 0) return -1;
    *budget = -1;
    if (nargs == 3 && args[2] != Py_None) {
        *budget = PyLong_AsLong(args[2]);
        if (*budget == -1 && PyErr_Occurred()) return -1;
        if (*budget < 0) {
            PyErr_SetString(PyExc_ValueError, "moves must not be negative");
            return -1;
        }
    }
    return 0;
}

static PyObject *core_random_playout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long budget;
    if (playout_args(args, nargs, &budget) < 0) return NULL;
    PyObject *st = args[0];
    if (!covered(st)) return PyObject_Vectorcall(PURE_RANDOM, args, nargs, NULL);
    Deal d;
    int r = load(&d, st, 1);
    if (r < 0) return NULL;
    if (r > 0) return PyObject_Vectorcall(PURE_RANDOM, args, nargs, NULL);
    if (play_out(&d, args[1], budget) < 0) {
        store(&d, st); /* keep the state whole as far as it got */
        return NULL;
    }
    if (store(&d, st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *core_playout_margin(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long budget;
    if (playout_args(args, nargs, &budget) < 0) return NULL;
    PyObject *st = args[0];
    if (!covered(st)) return PyObject_Vectorcall(PURE_MARGIN, args, nargs, NULL);
    Deal d;
    int r = load(&d, st, 0);
    if (r < 0) return NULL;
    if (r > 0) return PyObject_Vectorcall(PURE_MARGIN, args, nargs, NULL);
    if (play_out(&d, args[1], budget) < 0) return NULL;
    return PyLong_FromLong(d.scores[0] - d.scores[1]);
}

static PyObject *core_bind(PyObject *module, PyObject *args)
{
    PyObject *cls, *apply, *legal_fn, *advance, *random_fn, *margin;
    if (!PyArg_ParseTuple(args, "O!OOOOO:bind", &PyType_Type, &cls, &apply, &legal_fn,
                          &advance, &random_fn, &margin))
        return NULL;
    Py_ssize_t offsets[N_SLOTS];
    if (find_slots(cls, SLOT_NAMES, N_SLOTS, offsets) < 0) return NULL;
    memcpy(OFFSET, offsets, sizeof offsets);
    Py_INCREF(cls);
    Py_XSETREF(BOUND, (PyTypeObject *)cls);
    PyObject **keep[] = {&PURE_APPLY, &PURE_LEGAL, &PURE_ADVANCE, &PURE_RANDOM, &PURE_MARGIN};
    PyObject *given[] = {apply, legal_fn, advance, random_fn, margin};
    for (int i = 0; i < 5; i++) {
        Py_INCREF(given[i]);
        Py_XSETREF(*keep[i], given[i]);
    }
    Py_RETURN_NONE;
}

#include "_ismcts.h"

static PyMethodDef METHODS[] = {
    {"bind", core_bind, METH_VARARGS,
     "bind(cls, apply_action, legal_actions, advance, random_playout, playout_margin): the "
     "state class whose slots the core reads, and the pure-Python functions for what it "
     "does not cover."},
    {"legal_actions", core_legal_actions, METH_O, "legal_actions(state) -> list[int]"},
    {"apply_action", (PyCFunction)(void (*)(void))core_apply_action, METH_FASTCALL,
     "apply_action(state, action): the unchecked move."},
    {"advance", (PyCFunction)(void (*)(void))core_advance, METH_FASTCALL,
     "advance(state, action) -> the next legal moves of the deal, () when it ended."},
    {"random_playout", (PyCFunction)(void (*)(void))core_random_playout, METH_FASTCALL,
     "random_playout(state, uniform, moves=None): the recorded random playout."},
    {"playout_margin", (PyCFunction)(void (*)(void))core_playout_margin, METH_FASTCALL,
     "playout_margin(state, uniform, moves=None) -> the deal's margin (the state spent)."},
    {"ismcts_tree", core_ismcts_tree, METH_O,
     "ismcts_tree(root_mover) -> a new search tree (kept in C)."},
    {"ismcts_iterate", (PyCFunction)(void (*)(void))core_ismcts_iterate, METH_FASTCALL,
     "ismcts_iterate(tree, state, legal, choice, uniform, depth, win, base, exploration, "
     "weight) -> False when the state is not covered (nothing done)."},
    {"ismcts_nodes", core_ismcts_nodes, METH_O,
     "ismcts_nodes(tree) -> the root as (action, mover, visits, availability, total, "
     "children)."},
    COREKIT_METHOD,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled core of Candidate (see _core.c); the pure-Python engine is the reference.",
    -1, METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    STR_END_DEAL = PyUnicode_InternFromString("_end_deal");
    if (STR_END_DEAL == NULL) return NULL;
    return PyModule_Create(&MODULE);
}
