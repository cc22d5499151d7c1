"""Spy ``planner``: the move with the fewest expected moves to the call.

The player does not know the cards under the points-pile top nor, before the first
time the waste is turned over, the racing deck's order (S4-S5). The planner samples
``iterations`` complete worlds consistent with what it knows
(:meth:`SpyInfo.sample_world`), and in each world measures, for every candidate move,
the shortest race to the call after it (A*, :mod:`cardtable.bots.spy_search`). A move's
value is minus the expected number of moves to the call, the move itself included;
every move is judged on the same sampled worlds, so their differences are not blurred
by sampling noise. A world where no call can be reached counts as
:data:`NO_CALL_PENALTY` moves.

Forced situations need no search: a call is made at once; a single sensible move is
made at once; a blocked player resigns (S12).
"""

from __future__ import annotations

import math

from cardtable.bots.base import Analysis, Budget, MoveValue, decision_rng
from cardtable.bots.spy_common import PREFERENCE, SpyInfo
from cardtable.bots.spy_greedy import _public_position
from cardtable.bots.spy_search import greedy_local, greedy_race, shortest_race
from cardtable.games.spy.actions import CALL, RESIGN

__all__ = ["NO_CALL_PENALTY", "PlannerBot"]

#: What a world without any way to the call costs, in moves: a round lost.
NO_CALL_PENALTY = 60

#: How many moves another move must be expected to save to be preferred to greedy's.
MARGIN = 0.5


class PlannerBot:
    """Look-ahead over sampled racing-deck orders (module docstring)."""

    name = "planner"
    game = "spy"

    def __init__(self, seed: int = 0, iterations: int = 8, node_limit: int = 4000) -> None:
        self.seed = seed
        self.budget = Budget(iterations)
        self.node_limit = node_limit

    def _candidates(self, info: SpyInfo) -> list[int]:
        locals_ = info.locals
        if info.blocked or locals_ == [RESIGN]:
            return [RESIGN]
        if CALL in locals_:
            return [CALL]
        return [m for m in locals_ if m != RESIGN]

    def analyse(self, info: SpyInfo) -> Analysis:
        """Minus the expected moves to the call of each legal move (resigning, and
        moves not searched when a call is possible, get −∞ … shown as a large cost)."""
        candidates = self._candidates(info)
        costs: dict[int, float] = {}
        visits = 0
        if len(candidates) == 1:
            costs[candidates[0]] = 1.0 if candidates[0] == CALL else 0.0
        else:
            rng = decision_rng(self.seed, info.key)
            totals = dict.fromkeys(candidates, 0.0)
            for _ in range(self.budget.iterations):
                world = info.sample_world(rng)
                for local in candidates:
                    child = world.copy()
                    child.play(local)
                    if child.blocked:
                        totals[local] += NO_CALL_PENALTY
                        continue
                    if self.node_limit:
                        found = shortest_race(child, self.node_limit)
                        moves = found.moves
                    else:
                        moves = greedy_race(child)
                    totals[local] += 1 + (NO_CALL_PENALTY if moves is None else moves)
            visits = self.budget.iterations
            costs = {m: t / visits for m, t in totals.items()}
        order = {local: i for i, local in enumerate(PREFERENCE)}
        values = []
        for local in info.locals:
            cost = costs.get(local, math.inf)
            value = -cost if cost != math.inf else -float(NO_CALL_PENALTY + 1 + order[local])
            values.append(
                MoveValue(info.action(local), info.text(info.action(local)), value, visits)
            )
        ranked = sorted(values, key=lambda m: (-m.value, order[m.action - info.action(0)]))
        return Analysis(tuple(ranked), "minus the expected moves to the call")

    def choose(self, info: SpyInfo) -> int:
        """The move with the fewest expected moves to the call; the greedy move unless
        another is expected to save at least :data:`MARGIN` moves (sampling noise
        must not talk it out of a sound move)."""
        analysis = self.analyse(info)
        default = info.action(greedy_local(_public_position(info), info.stalled))
        by_action = {m.action: m.value for m in analysis.moves}
        if analysis.best.value - by_action.get(default, -math.inf) < MARGIN:
            return default
        return analysis.best.action
