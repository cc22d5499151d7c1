"""The cards of each deal of a Candidate match: dealt from a seed, or checked when given.

A deal is four suit piles (C3), each a tuple of card kinds (0..51) top first. Every deal
of a seeded match is dealt by its own generator (:func:`deal_piles`), the first dealer is
drawn by lot (:func:`first_dealer`), and piles given from outside — a record, a test — are
checked to be four suits of the match's decks (:func:`check_piles`). See
``docs/rules/candidate.en.md`` and ``docs/records.md``.

>>> piles = deal_piles(7, 0, decks=1)
>>> [len(p) for p in piles], sorted(piles[0]) == list(range(13))
([13, 13, 13, 13], True)
>>> check_piles(piles, decks=1) is None
True
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.cards import KIND_TEXT
from cardtable.errors import CardtableError
from cardtable.games.candidate.actions import PILE_LETTERS

__all__ = [
    "DealResult",
    "Piles",
    "check_piles",
    "checked_piles",
    "deal_piles",
    "first_dealer",
]

#: The four suit piles of a deal, each top card first, as card kinds.
Piles = tuple[tuple[int, ...], ...]


def deal_piles(seed: int | str, deal_index: int, decks: int) -> Piles:
    """C3: the four shuffled suit piles of deal ``deal_index`` (0-based) of a seeded match.

    Every deal has its own generator: the SHAKE-256 stream of the text
    ``cardtable/candidate/SEED/DEAL``, a standard function, so the cards are the same on
    every machine and do not depend on the moves. The stream gives each card of the deal
    a 64-bit key; each pile is ordered by its cards' keys (a uniform shuffle; two equal
    keys, below one chance in 10**16, keep deck order).
    """
    size = 13 * decks
    data = hashlib.shake_256(f"cardtable/candidate/{seed}/{deal_index}".encode()).digest(32 * size)
    keys = struct.unpack(f">{4 * size}Q", data)
    by_key = keys.__getitem__
    piles = []
    for suit in range(4):
        # Position g = suit*size + rank*decks + copy holds kind g // decks.
        order = sorted(range(suit * size, suit * size + size), key=by_key)
        piles.append(tuple(order) if decks == 1 else tuple([g // decks for g in order]))
    return tuple(piles)


def first_dealer(seed: int | str) -> int:
    """C2: the first dealer, chosen by lot from the seed: the low bit of the first byte
    of ``sha256("cardtable/candidate/SEED/lot")``."""
    return hashlib.sha256(f"cardtable/candidate/{seed}/lot".encode()).digest()[0] & 1


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal: what it was dealt from, every move, and what each player took."""

    dealer: int
    piles: Piles
    moves: tuple[int, ...]
    #: Who made each `draw` move, in order (lets the deal be re-walked cheaply).
    drawers: tuple[int, ...]
    captures: tuple[tuple[tuple[int, ...], ...], ...]
    scores: tuple[int, ...]
    discards: tuple[int, ...]


def check_piles(piles: Sequence[Sequence[int]], decks: int) -> str | None:
    """Why ``piles`` are not four suit piles of ``decks`` decks (C3), or None if they are."""
    if len(piles) != 4:
        return f"expected 4 piles, got {len(piles)}"
    for suit, pile in enumerate(piles):
        letter = PILE_LETTERS[suit]
        counts = Counter(pile)
        for kind in counts:
            if not 0 <= kind < 52 or kind // 13 != suit:
                return f"pile {letter}: {KIND_TEXT[kind]} is not of suit {letter}"
        for rank in range(13):
            have = counts.get(suit * 13 + rank, 0)
            if have != decks:
                text = KIND_TEXT[suit * 13 + rank]
                copies = "once" if decks == 1 else f"{decks} times"
                return (
                    f"pile {letter}: expected every {letter} card {copies} "
                    f"({13 * decks} cards), but {text} is there {have} times"
                )
    return None


def checked_piles(piles: Sequence[Sequence[int]], decks: int) -> Piles:
    """``piles`` as :data:`Piles`; raises :class:`CardtableError` saying why when they are
    not four suit piles of ``decks`` decks (C3)."""
    result = tuple(tuple(p) for p in piles)
    reason = check_piles(result, decks)
    if reason:
        raise CardtableError(reason)
    return result
