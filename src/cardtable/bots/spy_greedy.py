"""Spy ``greedy``: the documented one-move heuristic.

In order: call when the points pile is empty (S10); place the points-pile top on the
first pile it fits (S6-S7); open a pile with it (S8); place the waste top on the first
pile it fits (it changes a top, which may make the next points card fit); open a pile
with the waste top while at least two pile slots are free (the last one is kept for a
points card); else turn (S9). It resigns only when blocked (S12) or when nothing else
is legal. See :func:`cardtable.bots.spy_search.greedy_local`.
"""

from __future__ import annotations

from cardtable.bots.base import Analysis, MoveValue
from cardtable.bots.spy_common import PREFERENCE
from cardtable.bots.spy_search import greedy_local
from cardtable.games.spy.info import SpyInfo
from cardtable.games.spy.position import Position

__all__ = ["GreedyBot"]


class GreedyBot:
    """The greedy heuristic; deterministic (the seed is accepted for uniformity)."""

    name = "greedy"
    game = "spy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, info: SpyInfo) -> int:
        """The greedy move (module docstring)."""
        return info.action(greedy_local(_public_position(info), info.stalled))

    def analyse(self, info: SpyInfo) -> Analysis:
        """The greedy move first, the rest in the heuristic's order of preference."""
        best = self.choose(info)
        order = {info.action(local): i for i, local in enumerate(PREFERENCE)}
        return Analysis.ranked(
            (
                MoveValue(a, info.text(a), 1.0 if a == best else -float(order.get(a, 99)))
                for a in info.legal
            ),
            "preference (the chosen move 1, others by rank)",
        )


def _public_position(info: SpyInfo) -> Position:
    """A position with the player's public cards only (hidden cards left out): enough
    for the greedy rules, which look at tops and sizes alone."""
    pos = Position.from_parts(
        info.player,
        points=[] if info.points_top is None else [info.points_top],
        piles=[[top] for top in info.tops],
        deck=[],
        waste=list(reversed(info.waste)),
    )
    # The real legal moves and block flag come from the information set.
    pos.legal = list(info.legal)
    pos.blocked = info.blocked
    return pos
