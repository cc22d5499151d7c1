/* Dealing a round in C (included by _core.c): deal.py's seeded deal and Position.deal.
 *
 * The reference is deal.py (S2, S2a) and Position.deal (S3): a round's generator is the
 * counter-mode stream of BLAKE2b-256 digests of `cardtable/spy/{seed}/{round}/{n}`, read
 * as big-endian numbers; a deck is shuffled by the digits of one number below 52! in the
 * factorial number system (numbers at or above the largest multiple of 52! below 2**256
 * are redrawn). BLAKE2b is RFC 7693's, unkeyed, 32-byte digests; the hashing is
 * specified bit for bit, so the C deal gives the very cards the pure one gives
 * (tests/spy/test_spy_compiled.py deals both ways and compares, the digests with hashlib's).
 */
#ifndef CARDTABLE_SPY_DEAL_H
#define CARDTABLE_SPY_DEAL_H

#define DECK 52
#define DIGEST 32 /* bytes: 256-bit numbers */

/* ---- BLAKE2b (RFC 7693) -------------------------------------------------------------- */

static const uint64_t B2_IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
    0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
    0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static const uint8_t B2_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

#define B2_G(a, b, c, d, x, y)                                                           \
    do {                                                                                 \
        v[a] = v[a] + v[b] + (x);                                                        \
        v[d] = rotr64(v[d] ^ v[a], 32);                                                  \
        v[c] = v[c] + v[d];                                                              \
        v[b] = rotr64(v[b] ^ v[c], 24);                                                  \
        v[a] = v[a] + v[b] + (y);                                                        \
        v[d] = rotr64(v[d] ^ v[a], 16);                                                  \
        v[c] = v[c] + v[d];                                                              \
        v[b] = rotr64(v[b] ^ v[c], 63);                                                  \
    } while (0)

/* One 128-byte block into the chain `h`; `bytes` counted so far, `last` for the end. */
static void b2_compress(uint64_t *h, const uint8_t *block, uint64_t bytes, int last)
{
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--) w = w << 8 | block[8 * i + k]; /* little-endian */
        m[i] = w;
    }
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = B2_IV[i];
    }
    v[12] ^= bytes; /* messages here are far below 2**64 bytes: the high word stays 0 */
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = B2_SIGMA[r];
        B2_G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        B2_G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        B2_G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        B2_G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        B2_G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        B2_G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        B2_G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        B2_G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

/* The unkeyed 32-byte BLAKE2b digest of `data` (hashlib.blake2b(data, digest_size=32)). */
static void blake2b_256(const uint8_t *data, size_t size, uint8_t *out)
{
    uint64_t h[8];
    memcpy(h, B2_IV, sizeof h);
    h[0] ^= 0x01010000ULL ^ DIGEST; /* fan-out 1, depth 1, no key, 32-byte digest */
    size_t done = 0;
    while (size - done > 128) {
        done += 128;
        b2_compress(h, data + done - 128, done, 0);
    }
    uint8_t last[128] = {0};
    memcpy(last, data + done, size - done);
    b2_compress(h, last, size, 1);
    for (int i = 0; i < DIGEST; i++) out[i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
}

/* ---- the shuffle ----------------------------------------------------------------------- */

/* deal.py's _ACCEPT_BELOW, 2**256 // 52! * 52!, big-endian (a test compares it). */
static const uint8_t ACCEPT_BELOW[DIGEST] = {
    0xff, 0xff, 0xff, 0xff, 0x18, 0x79, 0x78, 0x90, 0x35, 0xae, 0x6c, 0xe8,
    0x1d, 0xe8, 0xf3, 0x9c, 0x5f, 0x32, 0xee, 0x20, 0x8a, 0xdb, 0x1b, 0xda,
    0x74, 0x24, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

/* The Fisher-Yates steps of deal.py's _shuffled_deck as divisors of the number, in
 * order: step s < 25 takes the digit pair of radices r and r - 1 (r = 52 - 2s, one
 * division by r(r - 1)), the last step the digit of radix 2. */
#define STEPS 26

static uint32_t step_divisor(int s) { return s < STEPS - 1 ? (uint32_t)((52 - 2 * s) * (51 - 2 * s)) : 2; }

/* Divide the big-endian 32-bit limbs [from, 8) of a 256-bit number by `d` in place;
 * the remainder. */
static uint32_t divide(uint32_t *limbs, int from, uint32_t d)
{
    uint64_t rest = 0;
    for (int i = from; i < DIGEST / 4; i++) {
        uint64_t cur = rest << 32 | limbs[i];
        limbs[i] = (uint32_t)(cur / d);
        rest = cur % d;
    }
    return (uint32_t)rest;
}

static inline void swap(int *deck, int a, int b)
{
    int t = deck[a];
    deck[a] = deck[b];
    deck[b] = t;
}

/* deal.py's _shuffled_deck from one accepted number: the deck (kinds 0..51, top first).
 * Mixed-radix digits are taken the same in any grouping, so several steps' divisors
 * go into one division of the big number while their product fits in 32 bits, and
 * the leading zero limbs are skipped as the number shrinks. */
static void shuffle_from(const uint8_t *number, int *deck)
{
    uint32_t limbs[DIGEST / 4];
    for (int i = 0; i < DIGEST / 4; i++)
        limbs[i] = (uint32_t)number[4 * i] << 24 | (uint32_t)number[4 * i + 1] << 16 |
                   (uint32_t)number[4 * i + 2] << 8 | number[4 * i + 3];
    for (int k = 0; k < DECK; k++) deck[k] = k;
    int from = 0, s = 0;
    while (s < STEPS) {
        uint64_t group = 1;
        int end = s;
        while (end < STEPS && group * step_divisor(end) <= UINT32_MAX) group *= step_divisor(end++);
        while (from < DIGEST / 4 - 1 && limbs[from] == 0) from++;
        uint32_t digits = divide(limbs, from, (uint32_t)group);
        for (; s < end; s++) {
            uint32_t d = step_divisor(s), digit = digits % d;
            digits /= d;
            if (s < STEPS - 1) { /* positions r - 1 and r - 2, radices r and r - 1 */
                int r = 52 - 2 * s;
                swap(deck, r - 1, (int)(digit % (uint32_t)r));
                swap(deck, r - 2, (int)(digit / (uint32_t)r));
            } else { /* position 1, radix 2 */
                swap(deck, 1, (int)digit);
            }
        }
    }
}

/* A round's generator: the key `cardtable/spy/{seed}/{round}` and the next counter. */
typedef struct {
    char *text; /* the key, then room for "/{counter}" */
    size_t size;
    long counter;
} RoundStream;

/* The next accepted number's deck (S2): draws until a number falls below ACCEPT_BELOW. */
static void next_deck(RoundStream *rng, int *deck)
{
    uint8_t number[DIGEST];
    do {
        int extra = snprintf(rng->text + rng->size, 24, "/%ld", rng->counter++);
        blake2b_256((const uint8_t *)rng->text, rng->size + (size_t)extra, number);
    } while (memcmp(number, ACCEPT_BELOW, DIGEST) >= 0);
    shuffle_from(number, deck);
}

static PyObject *ints_tuple(const int *values, int n)
{
    PyObject *list = ints_list(values, n);
    if (list == NULL) return NULL;
    PyObject *tuple = PyList_AsTuple(list);
    Py_DECREF(list);
    return tuple;
}

/* deal.deal_cards: every player's cards, top first (S2, S2a). `seed` is formatted as
 * the f-string formats it. */
static PyObject *deal(PyObject *seed_obj, long round_number, long players, int full_decks,
                      int same_deal)
{
    if (players < 1) return PyErr_Format(PyExc_ValueError, "players must be positive");
    PyObject *empty = PyUnicode_FromStringAndSize(NULL, 0);
    PyObject *seed = empty == NULL ? NULL : PyObject_Format(seed_obj, empty);
    Py_XDECREF(empty);
    if (seed == NULL) return NULL;
    Py_ssize_t seed_size;
    const char *seed_text = PyUnicode_AsUTF8AndSize(seed, &seed_size);
    if (seed_text == NULL) {
        Py_DECREF(seed);
        return NULL;
    }
    RoundStream rng = {NULL, 0, 0};
    rng.text = PyMem_Malloc((size_t)seed_size + 64);
    if (rng.text == NULL) {
        Py_DECREF(seed);
        return PyErr_NoMemory();
    }
    memcpy(rng.text, "cardtable/spy/", 14);
    memcpy(rng.text + 14, seed_text, (size_t)seed_size);
    rng.size = 14 + (size_t)seed_size;
    rng.size += (size_t)snprintf(rng.text + rng.size, 24, "/%ld", round_number);
    Py_DECREF(seed);

    int deck[DECK];
    PyObject *hands = PyTuple_New(players);
    if (hands == NULL) goto fail;
    if (same_deal || (players == 2 && !full_decks)) {
        next_deck(&rng, deck);
        PyObject *whole = same_deal ? ints_tuple(deck, DECK) : NULL;
        for (long p = 0; p < players; p++) {
            PyObject *hand = whole;
            if (same_deal)
                Py_XINCREF(hand);
            else /* S2: two players split one deck, the first half to player 0 */
                hand = ints_tuple(deck + p * (DECK / 2), DECK / 2);
            if (hand == NULL) {
                Py_XDECREF(whole);
                goto fail;
            }
            PyTuple_SET_ITEM(hands, p, hand);
        }
        Py_XDECREF(whole);
    } else { /* each player's own deck, shuffled in seat order */
        for (long p = 0; p < players; p++) {
            next_deck(&rng, deck);
            PyObject *hand = ints_tuple(deck, DECK);
            if (hand == NULL) goto fail;
            PyTuple_SET_ITEM(hands, p, hand);
        }
    }
    PyMem_Free(rng.text);
    return hands;
fail:
    PyMem_Free(rng.text);
    Py_XDECREF(hands);
    return NULL;
}

/* deal_cards(seed, round_number, players, full_decks, same_deal): deal.deal_cards. */
static PyObject *core_deal_cards(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "deal_cards(seed, round_number, players, full_decks, same_deal)");
        return NULL;
    }
    long round_number = PyLong_AsLong(args[1]), players = PyLong_AsLong(args[2]);
    int full_decks = PyObject_IsTrue(args[3]), same_deal = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || full_decks < 0 || same_deal < 0) return NULL;
    return deal(args[0], round_number, players, full_decks, same_deal);
}

/* seeded_cards(state, number): SpyState._seeded_cards, round `number` of the state's
 * seed, players and options. */
static PyObject *core_seeded_cards(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "seeded_cards(state, number)");
        return NULL;
    }
    long number = PyLong_AsLong(args[1]);
    if (number == -1 && PyErr_Occurred()) return NULL;
    PyObject *seed = PyObject_GetAttrString(args[0], "seed");
    PyObject *names = PyObject_GetAttrString(args[0], "names");
    PyObject *options = PyObject_GetAttrString(args[0], "options");
    PyObject *full = options ? PyObject_GetAttrString(options, "full_decks") : NULL;
    PyObject *same = options ? PyObject_GetAttrString(options, "same_deal") : NULL;
    PyObject *hands = NULL;
    if (seed && names && full && same) {
        Py_ssize_t players = PyObject_Length(names);
        int full_decks = PyObject_IsTrue(full), same_deal = PyObject_IsTrue(same);
        if (players >= 0 && full_decks >= 0 && same_deal >= 0)
            hands = deal(seed, number, (long)players, full_decks, same_deal);
    }
    Py_XDECREF(seed);
    Py_XDECREF(names);
    Py_XDECREF(options);
    Py_XDECREF(full);
    Py_XDECREF(same);
    return hands;
}

/* shuffle_number(number) -> list | None: the deck one 32-byte big-endian number gives,
 * None when it would be redrawn (for the tests of the shuffle's edges). */
static PyObject *core_shuffle_number(PyObject *module, PyObject *arg)
{
    char *bytes;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(arg, &bytes, &size) < 0) return NULL;
    if (size != DIGEST) return PyErr_Format(PyExc_ValueError, "expected %d bytes", DIGEST);
    if (memcmp(bytes, ACCEPT_BELOW, DIGEST) >= 0) Py_RETURN_NONE;
    int deck[DECK];
    shuffle_from((const uint8_t *)bytes, deck);
    return ints_list(deck, DECK);
}

/* blake2b_256(data) -> bytes (for the tests: the same digest as hashlib's). */
static PyObject *core_blake2b_256(PyObject *module, PyObject *arg)
{
    char *bytes;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(arg, &bytes, &size) < 0) return NULL;
    uint8_t out[DIGEST];
    blake2b_256((const uint8_t *)bytes, (size_t)size, out);
    return PyBytes_FromStringAndSize((const char *)out, DIGEST);
}

/* ---- Position.deal ---------------------------------------------------------------------- */

/* Position.deal(player, cards, limit) on the engine's class (S3): the first 5 cards the
 * points pile, the next 4 piles 1-4, the rest the racing deck. */
static PyObject *lay_out(long player, PyObject *cards, PyObject *limit)
{
    PyObject *seq = PySequence_Fast(cards, "cards must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 9) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "a player is dealt at least 9 cards, not %zd", n);
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *pos = POSITION->tp_alloc(POSITION, 0);
    PyObject *points = PyList_New(5), *piles = PyList_New(4), *deck = PyList_New(n - 9);
    int tops[4], need = 0;
    if (pos == NULL || points == NULL || piles == NULL || deck == NULL) goto fail;
    for (int i = 0; i < 5; i++) { /* top last: cards[0] is the points pile's top */
        Py_INCREF(items[4 - i]);
        PyList_SET_ITEM(points, i, items[4 - i]);
    }
    for (int i = 0; i < 4; i++) {
        PyObject *pile = PyList_New(1);
        if (pile == NULL) goto fail;
        Py_INCREF(items[5 + i]);
        PyList_SET_ITEM(pile, 0, items[5 + i]);
        PyList_SET_ITEM(piles, i, pile);
        tops[i] = (int)(PyLong_AsLong(items[5 + i]) % 13);
        need |= FITS[tops[i]];
    }
    for (Py_ssize_t i = 0; i < n - 9; i++) { /* top last: cards[9] is the deck's top */
        Py_INCREF(items[n - 1 - i]);
        PyList_SET_ITEM(deck, i, items[n - 1 - i]);
    }
    if (PyErr_Occurred()) goto fail;
    PyObject **slot;
#define SET(i, value)                                                                    \
    slot = &PSLOT(pos, i);                                                               \
    if (set_slot(slot, value) < 0) goto fail;
    SET(P_PLAYER, PyLong_FromLong(player));
    SET(P_BASE, PyLong_FromLong(player * ACTIONS_PER_PLAYER));
    SET(P_POINTS, points);
    points = NULL;
    SET(P_PILES, piles);
    piles = NULL;
    SET(P_TOPS, ints_list(tops, 4));
    SET(P_DECK, deck);
    deck = NULL;
    SET(P_WASTE, PyList_New(0));
    Py_INCREF(Py_None);
    SET(P_COUNTS, Py_None);
    SET(P_NEED, PyLong_FromLong(need));
    SET(P_RESIGNED, PyBool_FromLong(0));
    SET(P_CALLED, PyBool_FromLong(0));
    SET(P_BLOCKED, PyBool_FromLong(0)); /* fewer than 6 piles (S12) */
    SET(P_MOVES, PyLong_FromLong(0));
    Py_INCREF(limit);
    SET(P_LIMIT, limit);
#undef SET
    if (obj_legal(pos) < 0) goto fail; /* S9: the racing deck is full */
    Py_DECREF(seq);
    return pos;
fail:
    Py_DECREF(seq);
    Py_XDECREF(pos);
    Py_XDECREF(points);
    Py_XDECREF(piles);
    Py_XDECREF(deck);
    return NULL;
}

/* lay_out(state, kinds, limit) -> list[Position]: SpyState._lay_out, every player's
 * Position.deal (S3). */
static PyObject *core_lay_out(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "lay_out(state, kinds, limit)");
        return NULL;
    }
    PyObject *kinds = PySequence_Fast(args[1], "kinds must be a sequence");
    if (kinds == NULL) return NULL;
    Py_ssize_t players = PySequence_Fast_GET_SIZE(kinds);
    PyObject *seats = PyList_New(players);
    if (seats == NULL) {
        Py_DECREF(kinds);
        return NULL;
    }
    for (Py_ssize_t p = 0; p < players; p++) {
        PyObject *pos = lay_out((long)p, PySequence_Fast_GET_ITEM(kinds, p), args[2]);
        if (pos == NULL) {
            Py_DECREF(kinds);
            Py_DECREF(seats);
            return NULL;
        }
        PyList_SET_ITEM(seats, p, pos);
    }
    Py_DECREF(kinds);
    return seats;
}

#endif
