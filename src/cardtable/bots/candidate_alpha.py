"""Candidate ``alpha``: PUCT search over the seat's information set, guided by a
policy-and-value network (expert iteration; ``docs/rl.md``).

The search is :class:`~cardtable.bots.candidate_ismcts.IsmctsBot`'s — the same
determinisation (a full state drawn per simulation from the seat's information set),
the same availability counts, budget and decision (the most visited root move) — with
another tree policy and another leaf evaluation (:meth:`AlphaBot.simulation`):

- **Priors.** A node evaluated by the network keeps the 135 move-feature weights the
  network gave for it (:mod:`cardtable.bots.learned_net`: a move's logit is those
  weights times the move's fixed features), so a move first met in a later
  determinisation (the opponent's moves depend on its drawn hand) gets its logit
  without another network call. The prior of a move is the softmax of the logits over
  the moves legal *in this determinisation*.
- **Selection** (PUCT, as in AlphaZero, with the ISMCTS availability count in place of
  the parent's visits): ``Q + PUCT · P · sqrt(available) / (1 + visits)``, ``Q`` the
  child's mean reward for its mover (0 before its first visit).
- **Leaf evaluation.** A node reached for the first time is encoded from the view of
  the player to move there in the drawn state
  (:func:`~cardtable.games.candidate.encoding.encode_view`: the same 342 floats the
  seat's own decision is encoded with) and the network's value judges it; with ``mix``
  > 0 it is blended with the reward of a random playout cut at ``rollout_depth`` moves
  (AlphaGo's mixed evaluation; the playout is the ``ismcts`` one). A deal the tree's
  moves end is judged by its final margin.

Rewards are ``ismcts``'s margin reward of the deal's final margin (−1…1; the value
the network learns). Every network call sees one seat's view of a drawn state, and the
draws are seeded from the bot's seed and the information-state key, so the decision
depends on nothing hidden from the seat (tests/bots). The network is read from a file
of ``cardtable train candidate --method exit`` (``alpha:N:PATH``) or the one shipped in
the package (``alpha:N``) and loaded once per process; the bot keeps only its seed,
budget and path, so it pickles.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from cardtable.bots.alpha_net import NetEvaluator
from cardtable.bots.candidate_context import context_of_state
from cardtable.bots.candidate_ismcts import (
    ROLLOUT_DEPTH,
    IsmctsBot,
    Node,
    back_up,
    deal_margin,
    margin_reward,
)
from cardtable.bots.candidate_policy import move_logit, policy_choice, policy_logits
from cardtable.errors import BadOptions
from cardtable.games.candidate.encoding import encode_view
from cardtable.games.candidate.engine import search_functions
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.state import CandidateState

__all__ = ["MIX", "PUCT", "AlphaBot", "PriorNode", "policy_choice", "policy_logits"]

#: The PUCT exploration constant.
PUCT = 1.5
#: The share of a leaf's value taken from a cut random playout (0: the network alone).
MIX = 0.5


class PriorNode(Node):
    """A tree node with its move's logit and, once evaluated, the network's move-feature
    weights for the position it leads to (None before)."""

    __slots__ = ("logit", "weights")

    def __init__(self, action: int, mover: int, logit: float) -> None:
        super().__init__(action, mover)
        self.logit = logit
        self.weights: list[float] | None = None


class AlphaBot(IsmctsBot):
    """PUCT over information sets with a policy-and-value network (module docstring).

    ``path``: a network file or training folder (None: the shipped network);
    ``evaluator``: a network given directly (training's self-play), which wins over
    ``path``.
    """

    name = "alpha"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 200,
        seconds: float | None = None,
        path: str | None = None,
        evaluator: NetEvaluator | None = None,
        mix: float = MIX,
        puct: float = PUCT,
        rollout_depth: int = ROLLOUT_DEPTH,
    ) -> None:
        super().__init__(seed, iterations, seconds, rollout_depth=rollout_depth)
        if not 0.0 <= mix <= 1.0:
            raise BadOptions(f"mix must be within 0-1, got {mix}")
        self.path = path
        self.evaluator = evaluator
        self.mix = mix
        self.puct = puct

    def network(self) -> NetEvaluator:
        """The network this bot searches with (loaded once per process and file)."""
        if self.evaluator is not None:
            return self.evaluator
        from cardtable.bots.learned import load_evaluator, shipped_network

        path = self.path
        if path is None:
            shipped = shipped_network()
            if shipped is None:
                raise BadOptions(
                    "no alpha network is shipped: write alpha:N:PATH (a network of "
                    "`cardtable train candidate --method exit`)"
                )
            path = str(shipped)
        return load_evaluator(path)

    def simulation(
        self, info: CandidateInfo, root: Node, rng: random.Random
    ) -> Callable[[CandidateState], None]:
        """One PUCT simulation on a drawn state (module docstring)."""
        net = self.network()
        legal = info.legal
        uniform = rng.random
        step, playout = search_functions()
        depth = self.rollout_depth
        mix = self.mix
        puct = self.puct
        exp = math.exp
        sqrt = math.sqrt
        judge = margin_reward
        weighs_context = bool(net.context)
        # The root is the seat's own position: its priors come from its own view.
        root_weights = net(encode_view(info.view, info.player))[0]
        deal = 0

        def simulate(state: CandidateState) -> None:
            nonlocal deal
            if not deal:
                deal = state.deal_number
            node = root
            weights = root_weights
            path: list[Node] = []
            moves: Sequence[int] = legal
            while True:
                children = node.children
                mover = state.current_player
                kids: list[PriorNode] = []
                # The move context is public or the mover's own: the same in every
                # state drawn at this node, so a late child's logit is computed here.
                context = None
                for a in moves:
                    child = children.get(a)
                    if child is None:
                        if weighs_context and context is None:
                            context = context_of_state(state)
                        logit = move_logit(weights, a, context)
                        child = children[a] = PriorNode(a, mover, logit)
                    kids.append(child)  # type: ignore[arg-type]  # the tree holds PriorNodes
                best = kids[0]
                if len(kids) == 1:  # one legal move (often a forced pass): no choice
                    best.availability += 1
                else:
                    top = max(k.logit for k in kids)
                    priors = [exp(k.logit - top) for k in kids]
                    scale = puct / sum(priors)
                    best_score = -math.inf
                    for k, prior in zip(kids, priors, strict=True):
                        k.availability = available = k.availability + 1
                        visits = k.visits
                        q = k.total / visits if visits else 0.0
                        score = q + scale * prior * sqrt(available) / (1 + visits)
                        if score > best_score:
                            best_score = score
                            best = k
                moves = step(state, best.action)
                path.append(best)
                node = best
                if not moves:  # the tree's moves ended the deal
                    reward0 = judge(deal_margin(state, deal))
                    break
                if best.weights is None:  # a new leaf: the network judges it
                    player = state.current_player
                    best.weights, value = net(encode_view(state.view(player), player))
                    reward0 = value if player == 0 else -value
                    if mix:
                        played = judge(playout(state, uniform, depth))
                        reward0 = (1.0 - mix) * reward0 + mix * played
                    break
                weights = best.weights
            back_up(path, reward0)

        return simulate
