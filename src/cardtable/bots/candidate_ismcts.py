"""Candidate ``ismcts``: single-observer information-set Monte Carlo tree search
(Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search").

One tree is grown for the deciding seat's information set. Each iteration:

1. **Determinise**: draw one full state consistent with everything the seat may see
   (:meth:`CandidateInfo.sampler`: the engine deals the unseen cards — the opponent's
   hand and the piles — anew, uniformly, each pile keeping its suit and size and the
   opponent's hand its public count per suit; what does not change between draws is
   worked out once per search).
2. **Select** down the tree with UCB1, among the children whose moves are legal in
   this determinisation only; each child counts how often it was *available*, and
   that count replaces the parent's visits in its exploration term (the ISMCTS form
   of UCB that keeps rarely-legal moves from being over-explored).
3. **Expand** one move not yet in the tree, legal in this determinisation.
4. **Simulate** with uniformly random legal moves (the engine's
   ``playout_margin``, the compiled core's when it is built: ``random_playout``'s moves
   on the unchecked fast path, keeping only the deal's score, since the drawn state is
   thrown away) to the end of the deal, or — with a ``rollout_depth`` — for at most
   that many moves; a cut-off deal is judged by its scores so far (captures are the
   only scores, C15, so the margin so far is a cheap estimate, unbiased in sign).
   Random playouts to the end take about a hundred moves from mid-deal; the default
   cut of :data:`ROLLOUT_DEPTH` moves keeps the search fast enough for thousands of
   simulations a move (its strength against ``greedy`` is measured in
   ``docs/bots.md``).
5. **Back up** the result from each node's mover's point of view.

The reward of a deal for a player, with ``margin`` their deal score minus the
opponent's (C15), is ``"margin"`` (the default): ``sign(margin) * (1 - MARGIN_WEIGHT) +
MARGIN_WEIGHT * margin / (|margin| + 10)`` — winning the deal matters most, and a
bigger win a little more; or ``"win"``: ``sign(margin)``, win or loss only (in a
one-deal match, OpenSpiel's return).

The decision is the most visited root move. :meth:`IsmctsBot.analyse` reports every
legal move's mean reward and visits. With an iteration budget (the default) the bot
is deterministic: its generator is seeded from its seed and the information-state key.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.bots.base import Analysis, Budget, MoveValue, decision_rng
from cardtable.games.candidate.engine import (
    COMPILED,
    ENGINES,
    available,
    engine_in_use,
    search_core,
    search_functions,
    using,
)
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.state import CandidateState

__all__ = [
    "EXPLORATION",
    "MARGIN_WEIGHT",
    "REWARDS",
    "ROLLOUT_DEPTH",
    "DealIsmctsBot",
    "IsmctsBot",
    "Node",
    "back_up",
    "deal_margin",
    "margin_reward",
]

#: UCB1 exploration constant (rewards lie in [-1, 1]).
EXPLORATION = 0.7
#: Random moves per simulation before the deal is judged by the scores so far.
ROLLOUT_DEPTH = 12
#: How much the size of a deal's margin weighs beside winning it.
MARGIN_WEIGHT = 0.2
#: The rewards a search can back up (module docstring).
REWARDS = ("margin", "win")


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


def _tree_node(data: tuple[int, int, int, int, float, list[Any]]) -> Node:
    """A node and its subtree from the compiled core's tree."""
    action, mover, visits, availability, total, children = data
    node = Node(action, mover)
    node.visits = visits
    node.availability = availability
    node.total = total
    for child in children:
        built = _tree_node(child)
        node.children[built.action] = built
    return node


def margin_reward(margin: int) -> float:
    """The "margin" reward of a deal margin for the player it is counted for (module
    docstring): −1…1, the sign of the margin weighing most."""
    if margin == 0:
        return 0.0
    sign = 1.0 if margin > 0 else -1.0
    return sign * (1.0 - MARGIN_WEIGHT) + MARGIN_WEIGHT * margin / (abs(margin) + 10)


def _win(margin: int) -> float:
    return 0.0 if margin == 0 else 1.0 if margin > 0 else -1.0


def deal_margin(state: CandidateState, deal: int) -> int:
    """Player 0's score minus player 1's in deal number ``deal`` (from 1), once the
    tree's moves have ended it (C15)."""
    final = state.history[deal - 1].scores
    return final[0] - final[1]


def back_up(path: Sequence[Node], reward0: float) -> None:
    """Add one visit and the reward (``reward0``: player 0's) to every node of
    ``path``, each from its mover's point of view."""
    rewards = (reward0, -reward0)
    for n in path:
        n.visits += 1
        n.total += rewards[n.mover]


class IsmctsBot:
    """SO-ISMCTS with random playouts (module docstring). ``rollout_depth`` None plays
    each playout to the end of the deal; ``reward`` is one of :data:`REWARDS`.

    ``engine`` (``"compiled"`` or ``"pure"``; None: the engine in use) makes this bot
    search on that engine whatever the process runs, so two bots on different engines
    can play each other in one process (``benchmarks/bench_engine_match.py``). The
    engine is process-wide (:mod:`cardtable.games.engines`): the bot switches it for
    the length of its search and puts the one before back, so it must not search while
    another thread plays on the other engine. Raises ValueError for an unknown engine,
    or for ``"compiled"`` when the core was not built.
    """

    name = "ismcts"
    game = "candidate"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 1000,
        seconds: float | None = None,
        rollout_depth: int | None = ROLLOUT_DEPTH,
        reward: str = "margin",
        *,
        engine: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}: expected one of {', '.join(REWARDS)}")
        if engine is not None and engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")
        if engine == COMPILED and not available():
            raise ValueError("the compiled core was not built (no C compiler at install?)")
        self.seed = seed
        self.budget = Budget(iterations, seconds)
        self.rollout_depth = rollout_depth
        self.reward = reward
        self.engine = engine

    def search(self, info: CandidateInfo) -> Node:
        """Grow the tree for ``info`` within the budget, on the bot's engine; return
        its root."""
        if self.engine is None or self.engine == engine_in_use():
            return self._search(info)
        with using(self.engine):
            return self._search(info)

    def _search(self, info: CandidateInfo) -> Node:
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
        draw = info.sampler().draw
        # With the compiled core, whole iterations of this search run in it on a tree
        # kept in C (the same arithmetic and the same draws: the same tree), read back at
        # the end. A search with its own simulation (alpha) runs here.
        core = search_core() if type(self).simulation is IsmctsBot.simulation else None
        tree = core.ismcts_tree(root.mover) if core is not None else None
        simulate: Callable[[CandidateState], None] | None = None
        base = 0  # the public score margin, the same in every draw: read from the first
        for iteration in range(self.budget.iterations):
            if deadline is not None and iteration % 16 == 0 and time.perf_counter() > deadline:
                break
            state = draw(rng)
            if core is not None and tree is not None:
                if iteration == 0:
                    scores = state.deal_scores
                    base = scores[0] - scores[1]
                if core.ismcts_iterate(
                    tree,
                    state,
                    legal,
                    rng.choice,
                    rng.random,
                    self.rollout_depth,
                    self.reward == "win",
                    base,
                    EXPLORATION,
                    MARGIN_WEIGHT,
                ):
                    continue
                if iteration:  # every draw has the first one's decks and phase
                    raise RuntimeError("the compiled core stopped covering the search's draws")
                tree = None  # not covered (several decks): the search runs here
            if simulate is None:
                simulate = self.simulation(info, root, rng)
            simulate(state)
            root.visits += 1
        if core is not None and tree is not None:
            return _tree_node(core.ismcts_nodes(tree))
        return root

    def simulation(
        self, info: CandidateInfo, root: Node, rng: random.Random
    ) -> Callable[[CandidateState], None]:
        """One simulation from ``root`` on a drawn state (selection, expansion,
        playout, back-up: the module docstring). A search with another tree policy or
        leaf evaluation (``bots/candidate_alpha.py``) overrides this, and keeps the
        determinisation, the budget and the decision."""
        legal = info.legal
        choice = rng.choice
        uniform = rng.random
        depth = self.rollout_depth
        judge = _win if self.reward == "win" else margin_reward
        step, playout = search_functions()  # the compiled core's, when it runs
        log = math.log
        sqrt = math.sqrt
        exploration = EXPLORATION
        # Every draw keeps the public scores and deal: read them from the first.
        base: int | None = None
        deal = 0

        def simulate(state: CandidateState) -> None:
            nonlocal base, deal
            if base is None:
                scores = state.deal_scores
                base = scores[0] - scores[1]
                deal = state.deal_number
            node = root
            path = []
            # Selection and expansion. The root's moves are the seat's own, the same in
            # every draw.
            moves: Sequence[int] = legal
            while True:
                children = node.children
                get = children.get
                # None marks a move not yet in the tree (typed as nodes: read as such
                # only once none is None).
                known: list[Node] = [get(a) for a in moves]  # type: ignore[misc]
                if None in known:
                    action = choice([a for a, c in zip(moves, known, strict=True) if c is None])
                    child = Node(action, state.current_player)
                    children[action] = child
                    child.availability = 1
                    for c in known:
                        if c is not None:
                            c.availability += 1
                    state.apply_action(action)
                    path.append(child)
                    break
                best = known[0]
                if len(known) == 1:  # one legal move (often a forced pass): no choice
                    best.availability += 1
                else:
                    best_score = -math.inf
                    for c in known:
                        c.availability = available = c.availability + 1
                        visits = c.visits
                        score = c.total / visits + exploration * sqrt(log(available) / visits)
                        if score > best_score:
                            best_score = score
                            best = c
                # The move, then the next legal moves (none: the deal is over).
                moves = step(state, best.action)
                node = best
                path.append(node)
                if not moves:
                    break
            # Simulation: uniformly random, to the end of the deal or the depth cap (the
            # drawn state is thrown away, so the playout keeps only the score).
            if state.deal_number == deal:
                margin = playout(state, uniform, depth)
            else:  # the tree's moves ended the deal
                margin = deal_margin(state, deal)
            back_up(path, judge(margin - base))

        return simulate

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


class DealIsmctsBot(IsmctsBot):
    """``ismcts-deal``: :class:`IsmctsBot` with every playout played to the end of the
    deal (no cut), the search timed like for like against OpenSpiel's ``ISMCTSBot``
    (``docs/benchmarks.md``). Slower a simulation than the 12-move cut of ``ismcts``;
    each one's strength against ``greedy`` is measured in ``docs/bots.md``."""

    name = "ismcts-deal"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 1000,
        seconds: float | None = None,
        reward: str = "margin",
        *,
        engine: str | None = None,
    ) -> None:
        super().__init__(
            seed, iterations, seconds, rollout_depth=None, reward=reward, engine=engine
        )
