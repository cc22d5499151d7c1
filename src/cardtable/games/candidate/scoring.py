"""Scoring of captured sequences (C14–C16 in
``docs/rules/candidate.en.md``) and the match result (C17).

>>> from cardtable.cards import parse_cards
>>> capture_score([c.kind for c in parse_cards("♦ В, ♠ Д, ♣ К, ♠ Т")])
32
>>> capture_score([c.kind for c in parse_cards("♥ Д, ♠ Д, ♣ Д, ♦ Д")])
16
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["CARD_POINTS", "capture_score", "card_points", "winners"]

#: C14: card points by kind (0..51): 2–10 are worth 1, J Q K A are worth 2.
CARD_POINTS: tuple[int, ...] = tuple(1 if kind % 13 <= 8 else 2 for kind in range(52))


def card_points(kind: int) -> int:
    """C14: the points of one card (by kind)."""
    return CARD_POINTS[kind]


def capture_score(kinds: Sequence[int]) -> int:
    """C15: the score of a captured sequence (card kinds in the order placed).

    A run of n cards scores the sum of its card points times n; a set of n cards scores
    n × n (every card of a set counts 1, as the seed's examples show, C16); a single
    card scores its card points.
    """
    count = len(kinds)
    if count == 1:
        return CARD_POINTS[kinds[0]]
    if kinds[0] % 13 == kinds[1] % 13:  # a set: every card has the same rank
        return count * count
    return sum(CARD_POINTS[k] for k in kinds) * count


def winners(totals: Sequence[int]) -> list[int]:
    """C17: the players with the highest total, in increasing order (several on a tie)."""
    best = max(totals)
    return [p for p, total in enumerate(totals) if total == best]
