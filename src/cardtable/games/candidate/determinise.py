"""Determinisation: a Candidate deal with the cards a player has not seen dealt anew.

Information-set search (ISMCTS) and the bots sample full states that a player cannot
tell from the true one (:meth:`CandidateState.resample_hidden
<cardtable.games.candidate.state.CandidateState.resample_hidden>`). Unseen are the
cards in the other hand and in the piles; everything else — the turned lobby cards, the
captures, each hand's count per suit (C3, C4, C10) — is public and kept. Rules:
``docs/rules/candidate.en.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.games.candidate.actions import DRAW_BASE, LOBBY_BASE, PASS
from cardtable.games.candidate.deal import Piles
from cardtable.games.candidate.plays import kind_bits

if TYPE_CHECKING:
    from cardtable.games.candidate.state import CandidateState

__all__ = ["HiddenSampler", "public_past", "resample_deal"]


def resample_deal(
    dealer: int,
    piles_dealt: Piles,
    tops: Sequence[int],
    hands: Sequence[Sequence[int]],
    moves: Sequence[int],
    drawers: Sequence[int],
    hidden: Sequence[int],
    rng: random.Random,
) -> tuple[Piles, dict[int, list[int]]]:
    """The deal's piles and the hands of the ``hidden`` players, their unseen cards
    dealt anew uniformly at random.

    ``piles_dealt`` are the deal's piles as dealt, ``tops`` the cards taken from each,
    ``hands`` both hands now, ``moves`` and ``drawers`` the deal's moves and who made
    each `draw`. Each suit's unseen cards are shuffled and split between the piles (a
    pile holds only its own suit) and the hidden hands, which keep their public suit
    counts. The past is rewritten to match: the hidden cards a player received and
    still holds are swapped in the returned piles, so a state with them replays from
    its own record.
    """
    piles = [list(p) for p in piles_dealt]
    owners = _pile_owners(dealer, piles_dealt, moves, drawers)
    new_hands: dict[int, list[int]] = {p: [] for p in hidden}
    for suit in range(4):
        top = tops[suit]
        pool = list(piles[suit][top:])
        held_at: dict[int, list[int]] = {}
        for p in hidden:
            held = Counter(k for k in hands[p] if k // 13 == suit)
            pool.extend(held.elements())
            # The cards still held sit at the latest positions of their kind that p
            # received; earlier copies are the ones p played (always consistent).
            positions = []
            for pos in range(top - 1, -1, -1):
                kind = piles[suit][pos]
                if owners[suit][pos] == p and held[kind] > 0:
                    held[kind] -= 1
                    positions.append(pos)
            held_at[p] = sorted(positions)
        # Sorted first, so the sample depends only on which cards are unseen, never on
        # their hidden order: a bot's decision cannot leak what it must not know.
        pool.sort()
        rng.shuffle(pool)
        for p in hidden:
            for pos in held_at[p]:
                kind = pool.pop()
                piles[suit][pos] = kind
                new_hands[p].append(kind)
        piles[suit][top:] = pool
    return tuple(tuple(p) for p in piles), new_hands


def _pile_owners(
    dealer: int, piles: Piles, moves: Sequence[int], drawers: Sequence[int]
) -> list[list[int]]:
    """For each pile position taken so far, the player who received it (-1: the lobby)."""
    owners = [[-1] * len(p) for p in piles]
    tops = [0, 0, 0, 0]
    draws = iter(drawers)
    for move in moves:
        if move < LOBBY_BASE:
            for pos in range(10):
                owners[move][pos] = (1 - dealer) if pos % 2 == 0 else dealer
            tops[move] = 10
        elif move < DRAW_BASE:
            tops[move - LOBBY_BASE] += 1
        elif move < PASS:
            pile = move - DRAW_BASE
            owners[pile][tops[pile]] = next(draws)
            tops[pile] += 1
    return owners


def public_past(
    dealer: int,
    piles: Piles,
    tops: Sequence[int],
    moves: Sequence[int],
    drawers: Sequence[int],
    hidden: Sequence[int],
) -> tuple[tuple[int, ...], ...]:
    """Each pile's taken part (positions below its top) with every card a ``hidden``
    player received replaced by the lowest kind of the suit: what the other seat may
    know of the piles' past. The masked cards are never read again in the deal."""
    owners = _pile_owners(dealer, piles, moves, drawers)
    return tuple(
        tuple(
            suit * 13 if owners[suit][pos] in hidden else piles[suit][pos]
            for pos in range(tops[suit])
        )
        for suit in range(4)
    )


class HiddenSampler:
    """Draws full states one seat cannot tell from the true one (see
    :meth:`CandidateState.hidden_sampler`)."""

    __slots__ = ("_base", "_counts", "_hidden", "_past", "_pools")

    def __init__(self, state: CandidateState, player: int) -> None:
        hidden = [p for p in (0, 1) if p != player]
        base = state.clone()
        base._legal = None
        for p in hidden:  # the true hidden hands are not kept
            base._hands[p] = []
            base._kinds[p] = 0
        self._base = base
        self._hidden = hidden
        tops = state._tops
        #: Per suit: the unseen cards (rest of the pile, the hidden hands' cards), sorted
        #: so a draw depends only on which cards are unseen, never on their order.
        self._pools: list[list[int]] = []
        #: Per suit, per hidden player: how many of the suit its hand holds (public).
        self._counts: list[list[int]] = []
        for suit in range(4):
            pool = list(state._piles[suit][tops[suit] :])
            counts = []
            for p in hidden:
                held = [k for k in state._hands[p] if k // 13 == suit]
                pool.extend(held)
                counts.append(len(held))
            pool.sort()
            self._pools.append(pool)
            self._counts.append(counts)
        #: Per suit, the pile's taken part with the cards others received masked.
        self._past = public_past(
            state._dealer, state._piles, tops, state._moves, state._drawers, hidden
        )

    def draw(self, rng: random.Random) -> CandidateState:
        """A fresh state: the unseen cards of every suit shuffled, the hidden hands
        dealt their public counts per suit, the rest back on the piles."""
        state = self._base.clone()
        uniform = rng.random

        def key(_: int) -> float:
            return uniform()

        past = self._past
        pools = self._pools
        counts = self._counts
        piles = []
        if len(self._hidden) == 1:  # a seat's draw: one hidden hand (the usual case)
            hidden = self._hidden[0]
            hand = state._hands[hidden]
            for suit in range(4):
                # Sorting by independent uniform keys is a uniform shuffle, and cheaper
                # in Python than random.shuffle's per-card integer draws.
                pool = sorted(pools[suit], key=key)
                count = counts[suit][0]
                if count:
                    hand += pool[:count]
                    piles.append(past[suit] + tuple(pool[count:]))
                else:
                    piles.append(past[suit] + tuple(pool))
            state._piles = tuple(piles)
            state._kinds[hidden] = kind_bits(hand)
            return state
        hands = [state._hands[p] for p in self._hidden]
        for suit in range(4):
            pool = sorted(pools[suit], key=key)
            taken = 0
            for hand, count in zip(hands, counts[suit], strict=True):
                if count:
                    hand.extend(pool[taken : taken + count])
                    taken += count
            piles.append(past[suit] + tuple(pool[taken:]))
        state._piles = tuple(piles)
        for p, hand in zip(self._hidden, hands, strict=True):
            state._kinds[p] = kind_bits(hand)
        return state
