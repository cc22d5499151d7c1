"""Candidate ``random``: a uniformly random legal move."""

from __future__ import annotations

from cardtable.bots.base import Analysis, MoveValue, decision_rng
from cardtable.games.candidate.info import CandidateInfo

__all__ = ["RandomBot"]


class RandomBot:
    """Every legal move equally likely; seeded per decision."""

    name = "random"
    game = "candidate"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, info: CandidateInfo) -> int:
        """A uniformly random legal move."""
        return decision_rng(self.seed, info.key).choice(info.legal)

    def analyse(self, info: CandidateInfo) -> Analysis:
        """All moves are worth the same to it."""
        return Analysis.ranked(
            (MoveValue(a, info.text(a), 0.0) for a in info.legal), "none (uniform)"
        )
