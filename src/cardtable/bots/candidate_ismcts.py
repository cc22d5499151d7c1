"""Candidate ``ismcts``: single-observer information-set Monte Carlo tree search
(Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search").

One tree is grown for the deciding seat's information set. Each iteration:

1. **Determinise**: draw one full state consistent with everything the seat may see
   (:meth:`CandidateInfo.determinize`: the engine redeals the unseen cards — the
   opponent's hand and the piles — uniformly, each pile keeping its suit and size and
   the opponent's hand its public count per suit).
2. **Select** down the tree with UCB1, among the children whose moves are legal in
   this determinisation only; each child counts how often it was *available*, and
   that count replaces the parent's visits in its exploration term (the ISMCTS form
   of UCB that keeps rarely-legal moves from being over-explored).
3. **Expand** one move not yet in the tree, legal in this determinisation.
4. **Simulate** with uniformly random legal moves (the engine's unchecked fast
   path) to the end of the deal or for at most :data:`ROLLOUT_DEPTH` moves, whichever
   comes first; a cut-off deal is judged by its scores so far (captures are the only
   scores, C15, so the margin so far is an unbiased-in-sign, cheap estimate). Random
   playouts to the end take about a hundred moves from mid-deal; the cut keeps the
   search fast enough to run thousands of simulations a move.
5. **Back up** the result from each node's mover's point of view.

The reward of a finished deal for a player is ``sign(margin) * (1 - MARGIN_WEIGHT) +
MARGIN_WEIGHT * margin / (|margin| + 10)`` where ``margin`` is their deal score minus
the opponent's (C15): winning the deal matters most, and a bigger win a little more.

The decision is the most visited root move. :meth:`IsmctsBot.analyse` reports every
legal move's mean reward and visits. With an iteration budget (the default) the bot
is deterministic: its generator is seeded from its seed and the information-state key.
"""

from __future__ import annotations

import math
import time

from cardtable.bots.base import Analysis, Budget, MoveValue, decision_rng
from cardtable.games.candidate.info import CandidateInfo

__all__ = ["EXPLORATION", "MARGIN_WEIGHT", "ROLLOUT_DEPTH", "IsmctsBot", "Node"]

#: UCB1 exploration constant (rewards lie in [-1, 1]).
EXPLORATION = 0.7
#: Random moves per simulation before the deal is judged by the scores so far.
ROLLOUT_DEPTH = 12
#: How much the size of a deal's margin weighs beside winning it.
MARGIN_WEIGHT = 0.2


class Node:
    """A tree node: the move that led here, who made it, and its statistics."""

    __slots__ = ("action", "availability", "children", "mover", "total", "visits")

    def __init__(self, action: int, mover: int) -> None:
        self.action = action
        self.mover = mover
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.availability = 0
        self.total = 0.0


def _reward(margin: int) -> float:
    if margin == 0:
        return 0.0
    sign = 1.0 if margin > 0 else -1.0
    return sign * (1.0 - MARGIN_WEIGHT) + MARGIN_WEIGHT * margin / (abs(margin) + 10)


class IsmctsBot:
    """SO-ISMCTS with random playouts to the end of the deal (module docstring)."""

    name = "ismcts"
    game = "candidate"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 1000,
        seconds: float | None = None,
        rollout_depth: int = ROLLOUT_DEPTH,
    ) -> None:
        self.seed = seed
        self.budget = Budget(iterations, seconds)
        self.rollout_depth = rollout_depth

    def search(self, info: CandidateInfo) -> Node:
        """Grow the tree for ``info`` within the budget; return its root."""
        rng = decision_rng(self.seed, info.key)
        root = Node(-1, 1 - info.player)
        legal = info.legal
        if len(legal) == 1:
            root.children[legal[0]] = Node(legal[0], info.player)
            root.children[legal[0]].visits = 1
            return root
        deadline = (
            None if self.budget.seconds is None else time.perf_counter() + self.budget.seconds
        )
        choice = rng.choice
        log = math.log
        sqrt = math.sqrt
        for iteration in range(self.budget.iterations):
            if deadline is not None and iteration % 16 == 0 and time.perf_counter() > deadline:
                break
            state = info.determinize(rng)
            deal = state.deal_number
            base = state.totals()
            node = root
            path = [root]
            # Selection and expansion.
            while not state.is_terminal() and state.deal_number == deal:
                moves = state.legal_actions()
                player = state.current_player
                children = node.children
                untried = [a for a in moves if a not in children]
                if untried:
                    action = choice(untried)
                    child = Node(action, player)
                    children[action] = child
                    for a in moves:
                        if a in children:
                            children[a].availability += 1
                    state.apply_action(action)
                    path.append(child)
                    break
                best = None
                best_score = -math.inf
                for a in moves:
                    c = children[a]
                    c.availability += 1
                for a in moves:
                    c = children[a]
                    score = c.total / c.visits + EXPLORATION * sqrt(log(c.availability) / c.visits)
                    if score > best_score:
                        best_score = score
                        best = c
                assert best is not None
                state.apply_action(best.action)
                node = best
                path.append(node)
            # Simulation: uniformly random, to the end of the deal or the depth cap.
            apply = state.apply_action
            legal_actions = state.legal_actions
            for _ in range(self.rollout_depth):
                if state.is_terminal() or state.deal_number != deal:
                    break
                apply(choice(legal_actions()))
            totals = state.totals()
            margin0 = (totals[0] - base[0]) - (totals[1] - base[1])
            reward0 = _reward(margin0)
            for n in path[1:]:
                n.visits += 1
                n.total += reward0 if n.mover == 0 else -reward0
            root.visits += 1
        return root

    def analyse(self, info: CandidateInfo) -> Analysis:
        """Every legal move: its mean reward at the root (−1…1) and its visits."""
        root = self.search(info)
        moves = []
        for action in info.legal:
            child = root.children.get(action)
            if child is None or child.visits == 0:
                moves.append(MoveValue(action, info.text(action), -math.inf, 0))
            else:
                moves.append(
                    MoveValue(action, info.text(action), child.total / child.visits, child.visits)
                )
        ordered = sorted(moves, key=lambda m: (-m.visits, -m.value, m.action))
        return Analysis(
            tuple(ordered), "mean reward (−1 lose … 1 win the deal); best = most visits"
        )

    def choose(self, info: CandidateInfo) -> int:
        """The most visited root move."""
        return self.analyse(info).best.action
