"""Candidate's legal-move tables: which ids a position allows, computed from bit masks.

The state machine (:mod:`~cardtable.games.candidate.state`) asks these tables for its
legal actions. A hand is also kept as a bit mask of card kinds (bit k: kind k held,
:func:`kind_bits`), so the plays that continue the lobby (C7, C8, C12) come from a few
integer operations per first card (:func:`legal_plays`) instead of a search over the
hand. The `lobby X`, `draw X` and `deal X` choices come ready-made per mask of non-empty
piles. Rules: ``docs/rules/candidate.en.md``; ids: :mod:`~cardtable.games.candidate.actions`.

>>> from cardtable.cards import parse_card_kind
>>> hand = [parse_card_kind(t) for t in ("9S", "10S", "9H")]
>>> from cardtable.games.candidate.actions import action_to_text
>>> [action_to_text(a) for a in legal_plays(hand, kind_bits(hand), True, -1, -1, False, [])]
['play 9S', 'play 9S 10S', 'play 9S 9H', 'play 10S', 'play 9H', 'play 9H 10S', 'play 9H 9S']
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.candidate.actions import (
    DEAL_BASE,
    DRAW_BASE,
    LOBBY_BASE,
    PASS,
    PLAY_BASE,
    PLAY_STRIDE,
    RUN_OFFSET,
    SEQ_OFFSET,
    SET_OFFSET,
)

__all__ = [
    "DEAL_ACTIONS",
    "DRAW_BY_MASK",
    "LOBBY_BY_MASK",
    "ONLY_PASS",
    "RANK_KINDS",
    "RANK_OF",
    "kind_bits",
    "legal_plays",
    "one_deck_leads",
    "one_deck_plays",
    "trick_plays",
]

#: Legal `lobby X` / `draw X` ids for each mask of non-empty piles (bit X set: pile X).
LOBBY_BY_MASK = tuple(
    tuple(LOBBY_BASE + x for x in range(4) if mask >> x & 1) for mask in range(16)
)
DRAW_BY_MASK = tuple(tuple(DRAW_BASE + x for x in range(4) if mask >> x & 1) for mask in range(16))
#: C4: the dealer deals from any of the four full piles.
DEAL_ACTIONS = tuple(DEAL_BASE + x for x in range(4))
#: C8: the only move when no card of the hand continues the lobby.
ONLY_PASS = (PASS,)
#: RANK_KINDS[r]: the kind bits of the four cards of rank index r (0 = 2 … 12 = A);
#: index 13 (past the ace) and -1 (no rank) give 0.
RANK_KINDS = (*(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)), 0)
#: RANK_OF[k]: the rank index of kind k (``k % 13``), a table for the hot loops.
RANK_OF = tuple(kind % 13 for kind in range(52))


def kind_bits(hand: Sequence[int]) -> int:
    """The bit mask of the kinds in ``hand`` (bit k set: kind k is held)."""
    bits = 0
    for kind in hand:
        bits |= 1 << kind
    return bits


def _suit_list(at_rank: int) -> tuple[int, ...]:
    return tuple(s for s in range(4) if at_rank >> s & 1)


def _set_tails(suits: Sequence[int]) -> tuple[int, ...]:
    """Id offsets (within a first card's sets) of every ordered choice of 1–4 of
    ``suits`` (a multiset of suit indexes) to follow the first card of a set."""
    found: set[int] = set()

    def grow(left: list[int], length: int, digits: int) -> None:
        for i, suit in enumerate(left):
            code = digits * 4 + suit
            found.add(SEQ_OFFSET[length + 1] + code)
            if length + 1 < 4:
                grow(left[:i] + left[i + 1 :], length + 1, code)

    grow(list(suits), 0, 0)
    return tuple(sorted(found))


# Suits present at one rank, by 4-bit mask (bit s: suit s); the set continuations
# offered by the other suits of a rank in a one-deck hand, by the same mask.
_SUITS_BY_MASK = tuple(_suit_list(mask) for mask in range(16))
_SET_TAILS_BY_MASK = tuple(_set_tails(_SUITS_BY_MASK[mask]) for mask in range(16))


def _suit_mask(kinds: int, rank: int) -> int:
    """The 4-bit mask of suits of rank index ``rank`` in a kind bit mask."""
    return (
        (kinds >> rank & 1)
        | (kinds >> (12 + rank) & 2)
        | (kinds >> (24 + rank) & 4)
        | (kinds >> (36 + rank) & 8)
    )


def legal_plays(
    hand: list[int],
    kinds: int,
    lobby_empty: bool,
    run_need: int,
    set_need: int,
    multi: bool,
    out: list[int],
    only: int = 0,
) -> list[int]:
    """C7, C12: add every play from ``hand`` onto the lobby to ``out``; return it sorted.

    ``kinds``: the bit mask of kinds in hand. ``run_need``/``set_need``: the rank index a
    card must have to continue the lobby as a run/set (-1: that shape cannot continue
    it); with an empty lobby any card starts. ``multi``: several decks (copies).

    ``only``, when not 0, is the bit of the one first card to consider, and
    ``run_need``/``set_need`` then say whether runs/sets start from its rank (its rank:
    yes, -1: no); :func:`one_deck_plays` uses it.

    Runs are built rank by rank from bit masks (a run never reuses a card, so copies do
    not matter); one-deck sets come from a table by the other suits of the rank.
    """
    if only:
        starts = only
    else:
        starts = kinds if lobby_empty else kinds & (RANK_KINDS[run_need] | RANK_KINDS[set_need])
    while starts:
        low = starts & -starts
        starts ^= low
        first = low.bit_length() - 1
        rank = first % 13
        base = PLAY_BASE + first * PLAY_STRIDE
        out.append(base)
        if lobby_empty or rank == run_need:
            # A run: one rank up per card; `tail` while each rank has one suit.
            tails: list[int] | None = None
            tail = level = 0
            above = rank
            while above < 12 and level < 4:
                above += 1
                mask = (
                    (kinds >> above & 1)
                    | (kinds >> (12 + above) & 2)
                    | (kinds >> (24 + above) & 4)
                    | (kinds >> (36 + above) & 8)
                )
                if not mask:
                    break
                level += 1
                suits = _SUITS_BY_MASK[mask]
                offset = base + RUN_OFFSET + SEQ_OFFSET[level]
                if tails is None and len(suits) == 1:
                    tail = tail * 4 + suits[0]
                    out.append(offset + tail)
                else:
                    tails = [t * 4 + s for t in (tails or [tail]) for s in suits]
                    out.extend([offset + t for t in tails])
        if lobby_empty or rank == set_need:
            # A set: the other cards of this rank, in any order.
            if multi:
                suits_left = [k // 13 for k in hand if k % 13 == rank]
                suits_left.remove(first // 13)
                if suits_left:
                    offset = base + SET_OFFSET
                    out.extend([offset + t for t in _set_tails(suits_left)])
            else:
                others = kinds & RANK_KINDS[rank] & ~low
                if others:
                    offset = base + SET_OFFSET
                    out.extend([offset + t for t in _SET_TAILS_BY_MASK[_suit_mask(others, rank)]])
    out.sort()
    return out


#: WINDOWS[shape][r], shape = 2·run + set: the kind bits a play whose first card has
#: rank r can use: runs the ranks r+1…r+4 (capped at the ace: a run climbs at most four
#: ranks, C4, C7), sets rank r (C7), in every suit.
WINDOWS = tuple(
    tuple(
        sum(
            1 << (s * 13 + q)
            for s in range(4)
            for q in range(r, min(r + 5, 13))
            if (shape & 2 and q > r) or (shape & 1 and q == r)
        )
        for r in range(13)
    )
    for shape in range(4)
)
#: Plays by first card, worked out once: ``(first, shape, kinds & WINDOWS[shape][rank])``
#: -> the sorted ids of the plays from that card (runs when ``shape & 2``, sets when
#: ``shape & 1``).
_FIRST_PLAYS: dict[tuple[int, int, int], tuple[int, ...]] = {}
#: The same plays keyed by the cards they can really use: the window cut at the first
#: rank above the first card that the hand lacks (a run stops there, C7). Many windows
#: share one cut, so a window not yet seen is mostly answered from here.
_CUT_PLAYS: dict[tuple[int, int, int], tuple[int, ...]] = {}
#: The most entries kept per table (about 200 bytes each); past it the table starts over.
FIRST_PLAYS_LIMIT = 100_000


def _plays_from_first(first: int, shape: int, window: int) -> tuple[int, ...]:
    """The plays from card ``first`` with the hand's cards ``window`` around it (a key
    of :data:`_FIRST_PLAYS` not yet there): from :data:`_CUT_PLAYS`, else worked out."""
    rank = first % 13
    cut = window & RANK_KINDS[rank]  # the set's cards (none unless shape & 1)
    if shape & 2:
        above = rank + 1
        while above < 13:
            level = window & RANK_KINDS[above]
            if not level:
                break
            cut |= level
            above += 1
    key = (first, shape, cut)
    plays = _CUT_PLAYS.get(key)
    if plays is None:
        if len(_CUT_PLAYS) >= FIRST_PLAYS_LIMIT:
            _CUT_PLAYS.clear()
        low = 1 << first
        plays = _CUT_PLAYS[key] = tuple(
            legal_plays(
                [],
                cut | low,
                False,
                rank if shape & 2 else -1,
                rank if shape & 1 else -1,
                False,
                [],
                only=low,
            )
        )
    return plays


def one_deck_plays(
    kinds: int, lobby_empty: bool, run_need: int, set_need: int, out: list[int]
) -> list[int]:
    """:func:`legal_plays` for a one-deck hand (no copies), the same list, faster.

    A play from one first card depends only on the hand's cards within a few ranks of it
    (:data:`WINDOWS`), so each first card's plays are worked out once for those cards and
    looked up afterwards. The ids come out sorted: first cards ascend, and each first
    card's plays ascend (its one-card play, runs, sets).
    """
    starts = kinds if lobby_empty else kinds & (RANK_KINDS[run_need] | RANK_KINDS[set_need])
    table = _FIRST_PLAYS
    while starts:
        low = starts & -starts
        starts ^= low
        first = low.bit_length() - 1
        rank = first % 13
        shape = 3 if lobby_empty else 2 if rank == run_need else 1
        key = (first, shape, kinds & WINDOWS[shape][rank])
        plays = table.get(key)
        if plays is None:
            if len(table) >= FIRST_PLAYS_LIMIT:
                table.clear()
            plays = table[key] = _plays_from_first(first, shape, key[2])
        out += plays
    return out


#: Every play from a whole one-deck hand onto an empty lobby (C12), by the hand's kind
#: bits: a lead from hand at the end of a deal, looked up once worked out.
_LEADS: dict[int, tuple[int, ...]] = {}


def one_deck_leads(kinds: int) -> tuple[int, ...]:
    """``one_deck_plays(kinds, True, -1, -1, [])`` as a tuple, kept per hand (C12)."""
    leads = _LEADS.get(kinds)
    if leads is None:
        if len(_LEADS) >= FIRST_PLAYS_LIMIT:
            _LEADS.clear()
        leads = _LEADS[kinds] = tuple(one_deck_plays(kinds, True, -1, -1, []))
    return leads


def trick_plays(
    hand: list[int], kinds: int, run_need: int, set_need: int, multi: bool
) -> tuple[int, ...] | list[int]:
    """C7, C8: the legal moves in a trick: pass, or plays from ``hand`` (kind bits
    ``kinds``) that continue the lobby; ``multi``: several decks. Fast paths from bit
    masks: no card fits (only `pass`), or only one-card plays fit."""
    starts = kinds & (RANK_KINDS[run_need] | RANK_KINDS[set_need])
    if not starts:
        return ONLY_PASS
    if (not starts & RANK_KINDS[run_need] or not kinds & RANK_KINDS[run_need + 1]) and (
        not starts & RANK_KINDS[set_need] or (not multi and starts.bit_count() == 1)
    ):
        # No second card can follow: one-card plays, in kind (= id) order.
        if not starts & (starts - 1):  # a single card
            return (PASS, PLAY_BASE + (starts.bit_length() - 1) * PLAY_STRIDE)
        plays = [PASS]
        while starts:
            low = starts & -starts
            plays.append(PLAY_BASE + (low.bit_length() - 1) * PLAY_STRIDE)
            starts ^= low
        return plays
    if multi:
        return legal_plays(hand, kinds, False, run_need, set_need, True, [PASS])
    return one_deck_plays(kinds, False, run_need, set_need, [PASS])
