"""Spy ``random``: a uniformly random legal move.

It resigns only when it must: when blocked (S12) or when resigning is its only move
(a move limit reached); otherwise it picks among the other legal moves at random. It
may turn for ever; races give every player a move limit (S13 note to S12).
"""

from __future__ import annotations

from cardtable.bots.base import Analysis, MoveValue, decision_rng
from cardtable.games.spy.actions import RESIGN
from cardtable.games.spy.info import SpyInfo

__all__ = ["RandomBot"]


class RandomBot:
    """Uniformly random among the legal moves other than resigning."""

    name = "random"
    game = "spy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def _choices(self, info: SpyInfo) -> list[int]:
        base_resign = info.action(RESIGN)
        if info.blocked:
            return [base_resign]
        others = [a for a in info.legal if a != base_resign]
        return others or list(info.legal)

    def choose(self, info: SpyInfo) -> int:
        """A random legal move (see the module docstring)."""
        return decision_rng(self.seed, info.key).choice(self._choices(info))

    def analyse(self, info: SpyInfo) -> Analysis:
        """Every move it might make is worth the same to it."""
        choices = set(self._choices(info))
        return Analysis.ranked(
            (MoveValue(a, info.text(a), 1.0 if a in choices else 0.0) for a in info.legal),
            "chance of being chosen (relative)",
        )
