"""How a policy-and-value network scores Candidate moves: the search's priors
(:func:`move_logit`, :mod:`cardtable.bots.candidate_alpha`) and the policy alone
(:func:`policy_logits`, :func:`policy_choice`: what ``learned`` plays on such a
network), in one place.

A move's logit is the network's weights (:class:`~cardtable.bots.alpha_net.NetEvaluator`)
times the move's fixed features (:func:`cardtable.bots.learned_net.sparse_features`)
and, for a network that weighs them, its move-context numbers
(:mod:`cardtable.bots.candidate_context`).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.bots.alpha_net import NetEvaluator
from cardtable.bots.candidate_context import Context, context_of_info, move_context
from cardtable.games.candidate.encoding import encode_view
from cardtable.games.candidate.info import CandidateInfo

__all__ = ["move_logit", "policy_choice", "policy_logits"]


def move_logit(weights: Sequence[float], action: int, context: Context | None = None) -> float:
    """The move's logit: the network's weights times the move's fixed features and,
    for a network that weighs them (``context`` given), its move-context numbers."""
    from cardtable.bots.learned_net import CANDIDATE_FEATURES, sparse_features

    logit = sum(weights[i] * v for i, v in sparse_features(action))
    if context is not None:
        numbers = move_context(context, action)
        logit += sum(w * v for w, v in zip(weights[CANDIDATE_FEATURES:], numbers, strict=True))
    return logit


def policy_logits(net: NetEvaluator, info: CandidateInfo) -> list[float]:
    """The network's logit of each legal move of ``info`` (in ``info.legal``'s order)."""
    weights = net(encode_view(info.view, info.player))[0]
    context = context_of_info(info) if net.context else None
    return [move_logit(weights, a, context) for a in info.legal]


def policy_choice(net: NetEvaluator, info: CandidateInfo) -> int:
    """The network's most likely legal move in ``info`` (the first on a tie): its
    policy alone, as the ``learned`` bot plays it, without search."""
    legal = info.legal
    if len(legal) == 1:
        return legal[0]
    logits = policy_logits(net, info)
    return legal[max(range(len(legal)), key=lambda i: (logits[i], -i))]
