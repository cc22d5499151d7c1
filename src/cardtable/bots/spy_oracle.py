"""Spy ``oracle``: knows the true order of every card and races the shortest way.

The oracle is the limit of the race — what a player who could see through the backs
of the cards would do — and exists for analysis only: it reads the TRUE position
(hidden cards included), so it never takes a seat in a fair game (the registry and the
arena refuse it). ``cardtable analyse spy`` sets its shortest race beside each bot's.
Its search is exact A* (:mod:`cardtable.bots.spy_search`) up to ``iterations``
expanded positions; beyond that it follows the best race found.
"""

from __future__ import annotations

from cardtable.bots.base import Analysis, Budget, MoveValue
from cardtable.bots.spy_search import RaceSearch, shortest_race
from cardtable.games.spy.actions import action_to_text
from cardtable.games.spy.position import Position

__all__ = ["OracleBot"]


class OracleBot:
    """Chooses from the true position (analysis only; see the module docstring)."""

    name = "oracle"
    game = "spy"

    def __init__(self, seed: int = 0, iterations: int = 200_000) -> None:
        self.seed = seed
        self.budget = Budget(iterations)

    def race(self, position: Position) -> RaceSearch:
        """The shortest race from ``position`` to the call."""
        return shortest_race(position, self.budget.iterations)

    def choose_true(self, position: Position) -> int:
        """The first move of the shortest race (resign when none reaches the call)."""
        found = self.race(position)
        local = found.path[0] if found.path else 16
        return position.base + local

    def analyse_true(self, position: Position) -> Analysis:
        """Minus the exact moves to the call after each legal move."""
        moves = []
        for action in position.legal:
            local = action - position.base
            if local == 15:
                moves.append(MoveValue(action, action_to_text(action), -1.0, 1))
                continue
            if local == 16:
                moves.append(MoveValue(action, action_to_text(action), -1e9, 0))
                continue
            child = position.copy()
            child.play(local)
            found = self.race(child)
            cost = 1e9 if found.moves is None else 1 + found.moves
            moves.append(MoveValue(action, action_to_text(action), -float(cost), found.nodes))
        return Analysis.ranked(moves, "minus the exact moves to the call")
