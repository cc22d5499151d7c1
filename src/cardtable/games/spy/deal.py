"""Dealing a round: from a seed (S2, S3) or checked from explicit cards
(``docs/records.md``).

A player's cards are listed top first, as in a record's ``cards[p]``: ``[0:5]`` is the
points pile (``[0]`` on top), ``[5:9]`` are piles 1-4, the rest is the racing deck
(its first card on top).

All randomness of a round comes from one generator seeded with the text
``cardtable/spy/{seed}/{round}`` (round counted from 1): a counter-mode stream of
256-bit numbers, the n-th being the BLAKE2b digest of ``cardtable/spy/{seed}/{round}/{n}``.
Hashing is specified bit for bit, so a deal is the same on every machine and every
Python version, and it costs a fraction of seeding :class:`random.Random`.

>>> cards = deal_cards(seed=7, round_number=1, players=2, full_decks=False)
>>> [len(c) for c in cards]
[26, 26]
>>> sorted(cards[0] + cards[1]) == list(range(52))
True
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from cardtable.cards import KIND_TEXT, NUM_KINDS
from cardtable.messages import make_refusal

__all__ = [
    "POINTS_PILE_SIZE",
    "SQUARE",
    "RoundGenerator",
    "cards_per_player",
    "check_cards",
    "deal_cards",
]

#: S3: five cards face-down as the points pile, four face-up as piles 1-4.
POINTS_PILE_SIZE = 5
SQUARE = 4

_FACTORIAL = math.factorial(NUM_KINDS)
_BITS = 256
# Largest multiple of 52! below 2**256: draws at or above it are redrawn, so every
# order of the deck is exactly equally likely.
_ACCEPT_BELOW = (1 << _BITS) // _FACTORIAL * _FACTORIAL


def cards_per_player(players: int, full_decks: bool) -> int:
    """S2: 26 cards each for two players sharing a deck, else a full deck of 52."""
    return NUM_KINDS // 2 if players == 2 and not full_decks else NUM_KINDS


class RoundGenerator:
    """The seeded stream of uniform 256-bit numbers that deals one round.

    >>> RoundGenerator("cardtable/spy/7/1").next_number() == RoundGenerator(
    ...     "cardtable/spy/7/1").next_number()
    True
    """

    __slots__ = ("_counter", "_key")

    def __init__(self, key: str) -> None:
        self._key = key
        self._counter = 0

    def next_number(self) -> int:
        """The next uniform number in [0, 2**256)."""
        digest = hashlib.blake2b(
            f"{self._key}/{self._counter}".encode(), digest_size=_BITS // 8
        ).digest()
        self._counter += 1
        return int.from_bytes(digest, "big")


def _pair_tables() -> tuple[tuple[int, tuple[tuple[int, int], ...], int, int], ...]:
    """Digit pairs of the factorial number system, for :func:`_shuffled_deck`.

    Each entry covers two Fisher-Yates steps, at deck positions ``i`` and ``i - 1``
    with radices ``r = i + 1`` and ``i`` (r = 52, 50, …, 4; the last step, radix 2,
    is done alone): ``(r * (r - 1), table, i, i - 1)`` where ``table[m]`` is
    ``(m % r, m // r)``: one big-number division gives two swaps.
    """
    tables = []
    for radix in range(NUM_KINDS, 3, -2):
        lower = radix - 1
        table = tuple((m % radix, m // radix) for m in range(radix * lower))
        tables.append((radix * lower, table, radix - 1, radix - 2))
    return tuple(tables)


_PAIRS = _pair_tables()


def _shuffled_deck(rng: RoundGenerator) -> list[int]:
    """One deck (kinds 0..51) in a uniformly random order, top first.

    A Fisher-Yates shuffle whose choices are the digits of one uniform number below
    52! in the factorial number system (numbers at or above the largest multiple of
    52! are redrawn, so every order is exactly equally likely). Digits are taken two
    at a time through :data:`_PAIRS`.
    """
    number = rng.next_number()
    while number >= _ACCEPT_BELOW:
        number = rng.next_number()
    deck = list(range(NUM_KINDS))
    for product, table, i, h in _PAIRS:
        number, digits = divmod(number, product)
        j, k = table[digits]
        deck[i], deck[j] = deck[j], deck[i]
        deck[h], deck[k] = deck[k], deck[h]
    # the last step, position 1, radix 2
    j = number % 2
    deck[1], deck[j] = deck[j], deck[1]
    return deck


def deal_cards(
    *, seed: int, round_number: int, players: int, full_decks: bool, same_deal: bool = False
) -> tuple[tuple[int, ...], ...]:
    """Every player's cards (kinds, top first) for round ``round_number`` (from 1).

    S2: two players without ``full_decks`` split one shuffled deck (the first 26 cards
    to player 0); otherwise each player's own deck is shuffled in seat order. S2a
    (option ``same_deal``): every player gets a full deck of their own in one and the
    same shuffled order — the first shuffle of the round's generator, whatever the
    number of players, so every table dealt from one seed races the same cards.

    >>> same = deal_cards(seed=7, round_number=1, players=3, full_decks=False, same_deal=True)
    >>> same[0] == same[1] == same[2], len(same[0])
    (True, 52)
    >>> deal_cards(seed=7, round_number=1, players=5, full_decks=True, same_deal=True)[4] == same[0]
    True
    """
    rng = RoundGenerator(f"cardtable/spy/{seed}/{round_number}")
    if same_deal:
        order = tuple(_shuffled_deck(rng))
        return tuple(order for _ in range(players))
    if cards_per_player(players, full_decks) < NUM_KINDS:
        deck = _shuffled_deck(rng)
        half = NUM_KINDS // 2
        return (tuple(deck[:half]), tuple(deck[half:]))
    return tuple(tuple(_shuffled_deck(rng)) for _ in range(players))


def check_cards(
    cards: Sequence[Sequence[int]],
    players: int,
    full_decks: bool,
    field: str,
    *,
    same_deal: bool = False,
) -> None:
    """Raise :class:`BadRecord` unless ``cards`` are exactly the right deck(s) (S2).

    Two players without ``full_decks`` hold 26 cards each, together exactly one deck;
    otherwise each player holds exactly one full deck. With ``same_deal`` (S2a) every
    player holds a full deck, all in the same order.
    """
    full_decks = full_decks or same_deal
    if len(cards) != players:
        raise make_refusal("spy.cards_of_players", players=players, count=len(cards)).bad_record(
            field
        )
    size = cards_per_player(players, full_decks)
    for p, hand in enumerate(cards):
        if len(hand) != size:
            what = "term.half_deck" if size < NUM_KINDS else "term.full_deck"
            raise make_refusal(
                "spy.hand_size", size=size, what_term=what, count=len(hand)
            ).bad_record(f"{field}[{p}]")
    if size < NUM_KINDS:
        _check_one_deck([k for hand in cards for k in hand], field, "term.both_players_cards")
    else:
        for p, hand in enumerate(cards):
            _check_one_deck(hand, f"{field}[{p}]", "term.player_cards")
    if same_deal:
        for p, hand in enumerate(cards):
            if list(hand) != list(cards[0]):
                raise make_refusal("spy.same_deal_differs", player=p + 1).bad_record(
                    f"{field}[{p}]"
                )


def _check_one_deck(kinds: Sequence[int], field: str, whose: str) -> None:
    """``kinds`` (exactly 52 of them, as checked before) must be one deck: then a card
    there twice always comes with one missing, so the message names both."""
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    twice = [KIND_TEXT[k] for k in range(NUM_KINDS) if counts[k] > 1]
    missing = [KIND_TEXT[k] for k in range(NUM_KINDS) if counts[k] == 0]
    if twice or missing:
        raise make_refusal(
            "spy.not_one_deck",
            whose_term=whose,
            twice_cards=" ".join(twice),
            missing_cards=" ".join(missing),
        ).bad_record(field)
