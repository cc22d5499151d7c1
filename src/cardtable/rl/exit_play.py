"""Expert iteration's work units: self-play games and held-out duplicate pairs.

Both are module-level functions of one picklable task, so any backend that maps a
function over tasks — this process, local worker processes, a Ray cluster (the arena's
:func:`cardtable.arena.backends.map_tasks`, which ``cardtable train`` hands to the
trainer) — runs them and gives the same results for the same tasks. Neither imports
PyTorch: the network travels as a :class:`~cardtable.bots.alpha_net.NetEvaluator`
(NumPy arrays).

**Self-play** (:func:`self_play`): one-deal Candidate matches, the expert in both seats:
``ismcts`` (random playouts) while there is no network yet (or while the run distils
it), then ``alpha`` (PUCT with the network as prior and leaf value). At every decision
with more than one legal move the sample is what the seat knew — its encoded view (the
342 floats of :mod:`cardtable.games.candidate.encoding`), its legal moves and their
move-context numbers (:mod:`cardtable.bots.candidate_context`) — and the search's root
visits; the expert then plays its most visited move. When the deal ends each sample
gets its value target: ``ismcts``'s margin reward of the deal's final margin from the
deciding seat's side (−1…1).

**Evaluation** (:func:`play_pairs`): duplicate pairs on held-out deals (each deal
twice, the seats swapped); a pair's margin is the player's summed score minus the
opponent's over its two games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.bots.alpha_net import NetEvaluator
from cardtable.bots.base import Analysis
from cardtable.bots.candidate_alpha import AlphaBot, policy_choice
from cardtable.bots.candidate_context import context_of_info, move_context
from cardtable.bots.candidate_greedy import GreedyBot
from cardtable.bots.candidate_ismcts import IsmctsBot, margin_reward
from cardtable.bots.candidate_random import RandomBot
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.encoding import encode_view
from cardtable.games.candidate.info import CandidateInfo

__all__ = ["PairTask", "Player", "Samples", "SelfPlayTask", "play_pairs", "self_play"]

_OPTIONS = CandidateOptions(decks=1, deals=1)


@dataclass(frozen=True)
class Samples:
    """Decisions of self-play: encoded views ``(n, 342)``, each decision's legal moves,
    their move-context numbers and root visits (same order), and the value targets
    ``(n,)``."""

    obs: npt.NDArray[np.float32]
    legal: list[tuple[int, ...]]
    context: list[tuple[tuple[float, ...], ...]]
    visits: list[tuple[int, ...]]
    value: npt.NDArray[np.float32]
    games: int

    def __len__(self) -> int:
        return len(self.legal)


@dataclass(frozen=True)
class SelfPlayTask:
    """Deals to play (their seeds) and the expert: ``simulations`` per move, with the
    network ``evaluator`` (``alpha``) or without (``ismcts``)."""

    deal_seeds: tuple[int, ...]
    seed: int
    simulations: int
    evaluator: NetEvaluator | None = None


def _expert(task: SelfPlayTask) -> IsmctsBot:
    if task.evaluator is None:
        return IsmctsBot(task.seed, iterations=task.simulations)
    return AlphaBot(task.seed, iterations=task.simulations, evaluator=task.evaluator)


def self_play(task: SelfPlayTask) -> Samples:
    """Play the task's deals with the expert in both seats (module docstring)."""
    expert = _expert(task)
    obs: list[list[float]] = []
    legal: list[tuple[int, ...]] = []
    context: list[tuple[tuple[float, ...], ...]] = []
    visits: list[tuple[int, ...]] = []
    value: list[float] = []
    for deal_seed in task.deal_seeds:
        state = CandidateState.new(deal_seed, _OPTIONS)
        seats: list[int] = []
        while not state.is_terminal():
            player = state.current_player
            info = CandidateInfo.of(state, player)
            moves = info.legal
            if len(moves) == 1:
                state.apply_action(moves[0])
                continue
            analysis: Analysis = expert.analyse(info)
            counts = {m.action: m.visits for m in analysis.moves}
            obs.append(encode_view(info.view, player))
            legal.append(moves)
            position = context_of_info(info)
            context.append(tuple(move_context(position, a) for a in moves))
            visits.append(tuple(counts[a] for a in moves))
            seats.append(player)
            state.apply_action(analysis.best.action)
        totals = state.totals()
        margin = totals[0] - totals[1]
        value.extend(margin_reward(margin if seat == 0 else -margin) for seat in seats)
    return Samples(
        np.asarray(obs, dtype=np.float32).reshape(len(obs), -1),
        legal,
        context,
        visits,
        np.asarray(value, dtype=np.float32),
        len(task.deal_seeds),
    )


@dataclass(frozen=True)
class Player:
    """A player of the evaluation: ``policy`` (the network's most likely move),
    ``alpha`` (the search with the network), ``ismcts``, ``greedy`` or ``random``;
    ``simulations`` for the searches."""

    kind: str
    simulations: int = 0
    evaluator: NetEvaluator | None = None

    @property
    def label(self) -> str:
        """``policy``, ``alpha:200``, ``greedy`` …"""
        return f"{self.kind}:{self.simulations}" if self.simulations else self.kind

    def bot(self, seed: int) -> Any:
        """A fresh bot (anything with ``choose(info)``)."""
        if self.kind == "policy":
            assert self.evaluator is not None
            return _PolicyPlayer(self.evaluator)
        if self.kind == "alpha":
            return AlphaBot(seed, iterations=self.simulations, evaluator=self.evaluator)
        if self.kind == "ismcts":
            return IsmctsBot(seed, iterations=self.simulations)
        return GreedyBot(seed) if self.kind == "greedy" else RandomBot(seed)


class _PolicyPlayer:
    """The network's policy alone: its most likely legal move (as ``learned`` plays)."""

    def __init__(self, evaluator: NetEvaluator) -> None:
        self.evaluator = evaluator

    def choose(self, info: CandidateInfo) -> int:
        return policy_choice(self.evaluator, info)


@dataclass(frozen=True)
class PairTask:
    """Held-out deals (their seeds) for ``player`` against ``opponent``."""

    deal_seeds: tuple[int, ...]
    seed: int
    player: Player
    opponent: Player


def play_pairs(task: PairTask) -> list[int]:
    """Each deal twice, the seats swapped: the player's margin over each pair."""
    margins = []
    for deal_seed in task.deal_seeds:
        margin = 0
        for me in (0, 1):
            bots: Sequence[Any] = (task.player.bot(task.seed), task.opponent.bot(task.seed))
            seated = (bots[0], bots[1]) if me == 0 else (bots[1], bots[0])
            state = CandidateState.new(deal_seed, _OPTIONS)
            while not state.is_terminal():
                player = state.current_player
                state.apply_action(seated[player].choose(CandidateInfo.of(state, player)))
            totals = state.totals()
            margin += totals[me] - totals[1 - me]
        margins.append(margin)
    return margins
