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

from cardtable.games.candidate.actions import DRAW_BASE, LOBBY_BASE, PASS
from cardtable.games.candidate.deal import Piles

__all__ = ["public_past", "resample_deal"]


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
