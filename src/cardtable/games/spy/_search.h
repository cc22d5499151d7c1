/* The exact searches of the Spy core (included by _core.c): bots/spy_search.py's
 * `race_moves` (the planner's A* over "turn to a card, then play it" steps) and
 * `shortest_race` (the oracle's A* over single moves), by rank only (S6).
 *
 * Each frontier entry's sort key is unique (the pure searches never push one key twice
 * with the same cost, and the oracle numbers its pushes), so any priority queue pops
 * the entries in the pure heapq's order: the searches expand the same positions, count
 * the same nodes and return the same results. */

static inline int bit_length(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* A binary min-heap of `type` by `less` (on pointers): NAME_push and NAME_pop. */
#define DEFINE_HEAP(name, type, less)                                                     \
    typedef struct {                                                                      \
        type *items;                                                                      \
        size_t n, room;                                                                   \
    } name;                                                                               \
    static int name##_push(name *h, type item)                                            \
    {                                                                                     \
        if (h->n == h->room) {                                                            \
            size_t room = h->room ? 2 * h->room : 256;                                    \
            type *items = PyMem_Realloc(h->items, room * sizeof(type));                   \
            if (items == NULL) return -1;                                                 \
            h->items = items, h->room = room;                                             \
        }                                                                                 \
        size_t i = h->n++;                                                                \
        while (i > 0) {                                                                   \
            size_t up = (i - 1) / 2;                                                      \
            if (!less(&item, &h->items[up])) break;                                       \
            h->items[i] = h->items[up];                                                   \
            i = up;                                                                       \
        }                                                                                 \
        h->items[i] = item;                                                               \
        return 0;                                                                         \
    }                                                                                     \
    static type name##_pop(name *h)                                                       \
    {                                                                                     \
        type top = h->items[0], last = h->items[--h->n];                                  \
        size_t i = 0;                                                                     \
        for (;;) {                                                                        \
            size_t child = 2 * i + 1;                                                     \
            if (child >= h->n) break;                                                     \
            if (child + 1 < h->n && less(&h->items[child + 1], &h->items[child])) child++; \
            if (!less(&h->items[child], &last)) break;                                    \
            h->items[i] = h->items[child];                                                \
            i = child;                                                                    \
        }                                                                                 \
        if (h->n) h->items[i] = last;                                                     \
        return top;                                                                       \
    }

static void init_cover(void) /* spy_search._cover for every 13-bit rank mask */
{
    int cycle[13];
    for (int i = 0; i < 13; i++) cycle[i] = (2 * i) % 13;
    for (int ranks = 0; ranks < (1 << 13); ranks++) {
        if (ranks == (1 << 13) - 1) {
            COVER[ranks] = 7;
            continue;
        }
        int start = 0;
        while (ranks >> cycle[start] & 1) start++;
        int count = 0, run = 0;
        for (int step = 1; step < 14; step++) {
            if (ranks >> cycle[(start + step) % 13] & 1) run++;
            else count += (run + 1) / 2, run = 0;
        }
        COVER[ranks] = (uint8_t)count;
    }
}

static inline void sort_small(uint8_t *a, int n) /* insertion sort of <= 6 ranks */
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint8_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* ---- race_moves --------------------------------------------------------------------- */

typedef struct {
    int bound, g;
    uint8_t k, nt, q, tops[MAX_PILES];
    uint64_t mask;
} Step;

/* The pure heap tuple's order: (bound, -g, k, tops, mask, q). */
static int step_less(const Step *a, const Step *b)
{
    if (a->bound != b->bound) return a->bound < b->bound;
    if (a->g != b->g) return a->g > b->g;
    if (a->k != b->k) return a->k < b->k;
    int n = a->nt < b->nt ? a->nt : b->nt;
    for (int i = 0; i < n; i++)
        if (a->tops[i] != b->tops[i]) return a->tops[i] < b->tops[i];
    if (a->nt != b->nt) return a->nt < b->nt;
    if (a->mask != b->mask) return a->mask < b->mask;
    return a->q < b->q;
}

DEFINE_HEAP(StepHeap, Step, step_less)

/* The `seen` dict: (k, tops, mask, q) -> the least cost found. */
typedef struct {
    uint64_t mask, meta; /* meta: tops (4 bits each), their count, k, q; 0: empty slot */
    int g;
} Seen;

typedef struct {
    Seen *slots;
    size_t used, size;
} SeenTable;

static inline uint64_t step_meta(const Step *s)
{
    uint64_t meta = (uint64_t)s->nt | (uint64_t)s->k << 3 | (uint64_t)s->q << 10;
    for (int i = 0; i < s->nt; i++) meta |= (uint64_t)(s->tops[i] + 1) << (17 + 4 * i);
    return meta | 1ULL << 63;
}

static inline size_t seen_hash(uint64_t mask, uint64_t meta)
{
    uint64_t h = (mask ^ (meta * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
    return (size_t)(h ^ (h >> 31));
}

static Seen *seen_find(SeenTable *t, uint64_t mask, uint64_t meta)
{
    size_t i = seen_hash(mask, meta) & (t->size - 1);
    while (t->slots[i].meta && (t->slots[i].meta != meta || t->slots[i].mask != mask))
        i = (i + 1) & (t->size - 1);
    return &t->slots[i];
}

static int seen_grow(SeenTable *t)
{
    size_t size = t->size ? 2 * t->size : 1024;
    Seen *old = t->slots, *slots = PyMem_Calloc(size, sizeof(Seen));
    if (slots == NULL) return -1;
    size_t old_size = t->size;
    t->slots = slots, t->size = size;
    for (size_t i = 0; i < old_size; i++)
        if (old[i].meta) *seen_find(t, old[i].mask, old[i].meta) = old[i];
    PyMem_Free(old);
    return 0;
}

typedef struct {
    const uint8_t *points, *seq;
    int total;
    uint64_t near[13];
    StepHeap heap;
    SeenTable seen;
} StepSearch;

/* Waste cards that must still be played (spy_search.race_moves's `extra`). */
static int extra(const StepSearch *s, int k, int need, int free)
{
    int lonely = 0, earlier = need;
    for (int m = k; m < s->total; m++) {
        int rank = s->points[m];
        if (!(earlier >> rank & 1)) lonely |= 1 << rank;
        earlier |= FITS[rank];
    }
    int cover = COVER[lonely];
    return cover > free ? cover - free : 0;
}

static inline int need_of(const uint8_t *tops, int nt)
{
    int need = 0;
    for (int i = 0; i < nt; i++) need |= FITS[tops[i]];
    return need;
}

/* spy_search.race_moves's `push`; -1 on error. */
static int step_push(StepSearch *s, int g, int k, const uint8_t *tops, int nt, uint64_t mask,
                     int q)
{
    Step st = {0, g, (uint8_t)k, (uint8_t)nt, (uint8_t)q, {0}, mask};
    memcpy(st.tops, tops, nt);
    sort_small(st.tops, nt);
    if (2 * (s->seen.used + 1) > s->seen.size && seen_grow(&s->seen) < 0) return -1;
    uint64_t meta = step_meta(&st);
    Seen *slot = seen_find(&s->seen, mask, meta);
    if (slot->meta) {
        if (slot->g <= g) return 0;
    } else {
        slot->meta = meta, slot->mask = mask;
        s->seen.used++;
    }
    slot->g = g;
    if (k == s->total) {
        st.bound = g + 1;
        return StepHeap_push(&s->heap, st);
    }
    int rank = s->points[k], need = need_of(st.tops, nt);
    if (!(need >> rank & 1) && nt == MAX_PILES && !(s->near[rank] & mask)) return 0;
    st.bound = g + s->total - k + 1 + extra(s, k, need, MAX_PILES - nt);
    return StepHeap_push(&s->heap, st);
}

/* Push the moves that put rank `card` onto each distinct fitting top, and onto a new
 * pile when one may be opened. */
static int push_card(StepSearch *s, int cost, int k, const Step *at, int card, uint64_t mask,
                     int q)
{
    int need = need_of(at->tops, at->nt);
    uint8_t tops[MAX_PILES];
    if (need >> card & 1) {
        int done = 0;
        for (int i = 0; i < at->nt; i++) {
            int top = at->tops[i];
            if (FITS[top] >> card & 1 && !(done >> top & 1)) {
                done |= 1 << top;
                memcpy(tops, at->tops, at->nt);
                tops[i] = (uint8_t)card;
                if (step_push(s, cost, k, tops, at->nt, mask, q) < 0) return -1;
            }
        }
    }
    if (at->nt < MAX_PILES) {
        memcpy(tops, at->tops, at->nt);
        tops[at->nt] = (uint8_t)card;
        if (step_push(s, cost, k, tops, at->nt + 1, mask, q) < 0) return -1;
    }
    return 0;
}

/* 0 with (*moves, *proven, *bound) set; -1 on error. */
static int race_moves(StepSearch *s, const uint8_t *tops0, int nt0, int nseq, int waste_count,
                      long node_limit, long *moves, int *proven, long *bound)
{
    uint64_t present = nseq ? (~0ULL >> (64 - nseq)) : 0;
    int q0 = bit_length(present & (waste_count >= 64 ? ~0ULL : (1ULL << waste_count) - 1));
    for (int j = 0; j < nseq; j++) {
        s->near[(s->seq[j] + 1) % 13] |= 1ULL << j;
        s->near[(s->seq[j] + 12) % 13] |= 1ULL << j;
    }
    if (step_push(s, 0, 0, tops0, nt0, present, q0) < 0) return -1;
    int start_bound = s->heap.n ? s->heap.items[0].bound : 0;
    long nodes = 0;
    while (s->heap.n) {
        Step at = StepHeap_pop(&s->heap);
        int g = at.g;
        if (seen_find(&s->seen, at.mask, step_meta(&at))->g < g) continue;
        if (at.k == s->total) {
            *moves = g + 1, *proven = 1, *bound = g + 1;
            return 0;
        }
        if (nodes >= node_limit) {
            *moves = -1, *proven = 0, *bound = at.bound > start_bound ? at.bound : start_bound;
            return 0;
        }
        nodes++;
        int need = need_of(at.tops, at.nt), free = at.nt < MAX_PILES, rank = s->points[at.k];
        /* Play the points-pile top: onto each distinct fitting top, or a new pile. */
        if (push_card(s, g + 1, at.k + 1, &at, rank, at.mask, at.q) < 0) return -1;
        if (!at.mask) continue;
        /* Turn to stock card j and play it: the waste top (no turn), the deck's cards,
         * then from the stock's first card again. */
        uint64_t low_q = (1ULL << at.q) - 1, below = at.mask & low_q, above = at.mask & ~low_q;
        int order[64], n = 0;
        if (below) order[n++] = bit_length(below) - 1;
        for (uint64_t bits = above; bits; bits &= bits - 1) order[n++] = __builtin_ctzll(bits);
        uint64_t rest_below = below ? below & ~(1ULL << (bit_length(below) - 1)) : 0;
        for (uint64_t bits = rest_below; bits; bits &= bits - 1)
            order[n++] = __builtin_ctzll(bits);
        int turns = below ? 0 : 1;
        for (int i = 0; i < n; i++, turns++) {
            int j = order[i], card = s->seq[j];
            if (!(need >> card & 1 || free)) continue;
            uint64_t rest = at.mask & ~(1ULL << j);
            int nq = bit_length(rest & ((1ULL << j) - 1));
            if (push_card(s, g + turns + 1, at.k, &at, card, rest, nq) < 0) return -1;
        }
    }
    *moves = -1, *proven = 1, *bound = FAR;
    return 0;
}

static int tuple_ranks(PyObject *t, uint8_t *out, int room, const char *what)
{
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) > room) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of at most %d ranks", what, room);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (v < 0 || v > 12) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: ranks are 0..12", what);
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    return (int)PyTuple_GET_SIZE(t);
}

static PyObject *core_race_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "race_moves(points, tops, stock, waste_count, node_limit)");
        return NULL;
    }
    uint8_t points[MAX_CARDS], tops[MAX_PILES], seq[63];
    int total = tuple_ranks(args[0], points, MAX_CARDS, "points");
    int nt = total < 0 ? -1 : tuple_ranks(args[1], tops, MAX_PILES, "tops");
    int nseq = nt < 0 ? -1 : tuple_ranks(args[2], seq, 63, "stock");
    long waste_count = PyLong_AsLong(args[3]), node_limit = PyLong_AsLong(args[4]);
    if (nseq < 0 || PyErr_Occurred()) return NULL;
    if (waste_count < 0) waste_count = 0;
    StepSearch s = {points, seq, total, {0}, {NULL, 0, 0}, {NULL, 0, 0}};
    long moves, bound;
    int proven;
    int r = seen_grow(&s.seen) < 0 ? -1
            : race_moves(&s, tops, nt, nseq, (int)waste_count, node_limit, &moves, &proven,
                         &bound);
    PyMem_Free(s.heap.items);
    PyMem_Free(s.seen.slots);
    if (r < 0) return PyErr_NoMemory();
    if (moves < 0) return Py_BuildValue("(OOl)", Py_None, proven ? Py_True : Py_False, bound);
    return Py_BuildValue("(lOl)", moves, proven ? Py_True : Py_False, bound);
}

/* ---- shortest_race -------------------------------------------------------------------- */

typedef struct {
    int parent, g;
    uint8_t local, np, nd, nw, nt, blocked, tops[MAX_PILES];
    uint8_t cards[MAX_CARDS]; /* points, deck, waste: ranks, each top last */
    int need;
} Node;

typedef struct {
    int f, g, node, goal; /* goal: the entry is `node` then the call */
    long counter;
} Entry;

static inline int entry_less(const Entry *a, const Entry *b) /* (f, -g, counter) */
{
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g > b->g;
    return a->counter < b->counter;
}

DEFINE_HEAP(EntryHeap, Entry, entry_less)

typedef struct {
    Node *nodes;
    size_t nn, nroom;
    EntryHeap heap;
    int *slots; /* best_g: node ids + 1 (0: empty) keyed by the node's search key */
    int *best;  /* best_g values, by slot */
    size_t used, size;
} Oracle;

static void node_pack(Node *n, const Race *r)
{
    n->np = (uint8_t)r->np, n->nd = (uint8_t)r->nd, n->nw = (uint8_t)r->nw;
    n->nt = (uint8_t)r->nt, n->blocked = (uint8_t)r->blocked, n->need = r->need;
    for (int i = 0; i < r->nt; i++) n->tops[i] = (uint8_t)r->tops[i];
    memcpy(n->cards, r->points, r->np);
    memcpy(n->cards + r->np, r->deck, r->nd);
    memcpy(n->cards + r->np + r->nd, r->waste, r->nw);
}

static void node_unpack(const Node *n, Race *r)
{
    r->np = n->np, r->nd = n->nd, r->nw = n->nw, r->nt = n->nt;
    r->blocked = n->blocked, r->need = n->need, r->out = 0;
    r->moves = 0, r->limit = 1LL << 62;
    for (int i = 0; i < n->nt; i++) r->tops[i] = n->tops[i];
    memcpy(r->points, n->cards, n->np);
    memcpy(r->deck, n->cards + n->np, n->nd);
    memcpy(r->waste, n->cards + n->np + n->nd, n->nw);
}

/* spy_search._key: points, sorted tops, deck and waste, by rank. */
static size_t node_hash(const Node *n, uint8_t *sorted)
{
    memcpy(sorted, n->tops, n->nt);
    sort_small(sorted, n->nt);
    uint64_t h = 1469598103934665603ULL;
    uint8_t head[4] = {n->np, n->nd, n->nw, n->nt};
    for (int i = 0; i < 4; i++) h = (h ^ head[i]) * 1099511628211ULL;
    for (int i = 0; i < n->nt; i++) h = (h ^ sorted[i]) * 1099511628211ULL;
    for (int i = 0; i < n->np + n->nd + n->nw; i++) h = (h ^ n->cards[i]) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 29));
}

static int same_key(const Node *a, const uint8_t *sorted_a, const Node *b)
{
    if (a->np != b->np || a->nd != b->nd || a->nw != b->nw || a->nt != b->nt) return 0;
    uint8_t sorted_b[MAX_PILES];
    memcpy(sorted_b, b->tops, b->nt);
    sort_small(sorted_b, b->nt);
    return !memcmp(sorted_a, sorted_b, a->nt) &&
           !memcmp(a->cards, b->cards, a->np + a->nd + a->nw);
}

/* The best_g slot of node `n`'s key (empty when the key is new). */
static size_t oracle_slot(const Oracle *o, const Node *n)
{
    uint8_t sorted[MAX_PILES];
    size_t i = node_hash(n, sorted) & (o->size - 1);
    while (o->slots[i] && !same_key(n, sorted, &o->nodes[o->slots[i] - 1]))
        i = (i + 1) & (o->size - 1);
    return i;
}

static int oracle_grow(Oracle *o)
{
    size_t old_size = o->size, size = old_size ? 2 * old_size : 4096;
    int *old_slots = o->slots, *old_best = o->best;
    o->slots = PyMem_Calloc(size, sizeof(int));
    o->best = PyMem_Calloc(size, sizeof(int));
    if (o->slots == NULL || o->best == NULL) {
        PyMem_Free(o->slots), PyMem_Free(o->best);
        o->slots = old_slots, o->best = old_best;
        return -1;
    }
    o->size = size;
    for (size_t i = 0; i < old_size; i++)
        if (old_slots[i]) {
            size_t j = oracle_slot(o, &o->nodes[old_slots[i] - 1]);
            o->slots[j] = old_slots[i], o->best[j] = old_best[i];
        }
    PyMem_Free(old_slots), PyMem_Free(old_best);
    return 0;
}

static int oracle_node(Oracle *o) /* room for one more node: its id, -1 on error */
{
    if (o->nn == o->nroom) {
        size_t room = o->nroom ? 2 * o->nroom : 1024;
        Node *nodes = PyMem_Realloc(o->nodes, room * sizeof(Node));
        if (nodes == NULL) return -1;
        o->nodes = nodes, o->nroom = room;
    }
    return (int)o->nn++;
}

static int heuristic(const Race *r) /* spy_search.heuristic */
{
    if (!r->np) return 1;
    int bound = r->np + 1;
    if (r->nt == MAX_PILES && !(r->need >> r->points[r->np - 1] & 1)) bound++;
    return bound;
}

static PyObject *path_of(const Oracle *o, int node, int call)
{
    int n = call;
    for (int i = node; o->nodes[i].parent >= 0; i = o->nodes[i].parent) n++;
    PyObject *path = PyTuple_New(n);
    if (path == NULL) return NULL;
    int at = n;
    if (call) PyTuple_SET_ITEM(path, --at, PyLong_FromLong(CALL));
    for (int i = node; o->nodes[i].parent >= 0; i = o->nodes[i].parent)
        PyTuple_SET_ITEM(path, --at, PyLong_FromLong(o->nodes[i].local));
    return path;
}

/* The search itself; the result (moves, path, proven, nodes) or NULL. */
static PyObject *shortest_race(Oracle *o, const Race *start, long node_limit)
{
    if (oracle_grow(o) < 0) return PyErr_NoMemory();
    int id = oracle_node(o);
    if (id < 0) return PyErr_NoMemory();
    Node *first = &o->nodes[id];
    node_pack(first, start);
    first->parent = -1, first->g = 0, first->local = 0;
    size_t slot = oracle_slot(o, first);
    o->slots[slot] = id + 1, o->best[slot] = 0, o->used = 1;
    long counter = 0, nodes = 0;
    if (EntryHeap_push(&o->heap, (Entry){heuristic(start), 0, id, 0, 0}) < 0) return PyErr_NoMemory();
    int limited = 0;
    while (o->heap.n) {
        Entry e = EntryHeap_pop(&o->heap);
        /* A goal entry is always stale here: its node's cost is below the goal's. */
        if (e.goal || o->best[oracle_slot(o, &o->nodes[e.node])] < e.g) continue;
        if (nodes >= node_limit) {
            /* As the pure search: out of expansions with the frontier just emptied by
             * this pop, it reports the search as finished. */
            limited = o->heap.n > 0;
            break;
        }
        nodes++;
        int g = e.g, legal[MAX_LEGAL];
        Race at;
        node_unpack(&o->nodes[e.node], &at);
        int n = race_legal(&at, legal);
        for (int i = 0; i < n; i++) {
            int local = legal[i];
            if (local == RESIGN) continue;
            if (local == CALL) {
                if (EntryHeap_push(&o->heap, (Entry){g + 1, g + 1, e.node, 1, ++counter}) < 0)
                    return PyErr_NoMemory();
                continue;
            }
            Race child = at;
            race_play(&child, local);
            if (child.blocked) continue;
            if (2 * (o->used + 1) > o->size && oracle_grow(o) < 0) return PyErr_NoMemory();
            int cid = oracle_node(o);
            if (cid < 0) return PyErr_NoMemory();
            Node *c = &o->nodes[cid];
            node_pack(c, &child);
            c->parent = e.node, c->g = g + 1, c->local = (uint8_t)local;
            slot = oracle_slot(o, c);
            if (o->slots[slot] && o->best[slot] <= g + 1) {
                o->nn--; /* not kept */
                continue;
            }
            if (!o->slots[slot]) o->used++;
            o->slots[slot] = cid + 1, o->best[slot] = g + 1;
            if (EntryHeap_push(&o->heap, (Entry){g + 1 + heuristic(&child), g + 1, cid, 0, ++counter}) < 0)
                return PyErr_NoMemory();
        }
        /* Goals are pushed with their full cost; pop order makes the first one optimal. */
        if (o->heap.n && o->heap.items[0].goal) {
            PyObject *path = path_of(o, o->heap.items[0].node, 1);
            if (path == NULL) return NULL;
            return Py_BuildValue("(iNOl)", o->heap.items[0].f, path, Py_True, nodes);
        }
    }
    if (limited) return Py_BuildValue("(O()Ol)", Py_None, Py_False, nodes);
    return Py_BuildValue("(O()Ol)", Py_None, Py_True, nodes);
}

static PyObject *core_shortest_race(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Race start;
    long node_limit;
    if (race_and_long(args, nargs, "shortest_race(position, node_limit)", &start, &node_limit) < 0)
        return NULL;
    start.out = 0, start.moves = 0, start.limit = 1LL << 62; /* as refresh() with no limit */
    Oracle o = {0};
    PyObject *found = shortest_race(&o, &start, node_limit);
    PyMem_Free(o.nodes), PyMem_Free(o.heap.items), PyMem_Free(o.slots), PyMem_Free(o.best);
    return found;
}
