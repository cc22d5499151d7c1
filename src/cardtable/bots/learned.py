"""Candidate ``learned``: a policy trained with ``cardtable train candidate``.

The bot reads a policy file (``learned:PATH``: a ``policy.pt`` or the training folder
holding one; plain ``learned``: the policy shipped in the package, see ``docs/rl.md``)
and plays the legal move the network likes best. It sees what every bot sees: the
seat's information set. Its input is the seat's view encoded exactly as the
environments encode it (:func:`cardtable.games.candidate.encoding.encode_view`, one
encoding for training and play), and it scores only the seat's legal moves.

PyTorch is imported only when the bot first thinks (:mod:`cardtable.bots.learned_net`),
and the network is loaded once per process and file. The bot itself keeps only its
seed and the file's path, so it pickles (the server thinks in worker processes).
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from cardtable.bots.base import Analysis, MoveValue
from cardtable.errors import BadOptions
from cardtable.games.candidate.encoding import encode_view
from cardtable.games.candidate.info import CandidateInfo

__all__ = ["SHIPPED", "LearnedBot", "check_policy", "shipped_policy"]

#: The policy file shipped in the package (``learned`` without a path).
SHIPPED = "learned_candidate.pt"


def shipped_policy() -> Path:
    """The path of the shipped Candidate policy."""
    return Path(str(resources.files("cardtable.bots").joinpath(SHIPPED)))


@lru_cache(maxsize=8)
def _load(game: str, path: str) -> tuple[Any, dict[str, Any]]:
    """The actor of ``path`` (once per process and file)."""
    try:
        from cardtable.bots import learned_net
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise BadOptions(
            f"learned bots need the train extra: pip install 'cardtable[train]' "
            f"({exc.name} is missing)"
        ) from None
    import torch

    torch.set_num_threads(1)  # one move at a time: threads would only wait on each other
    return learned_net.load_checkpoint(Path(path), game)


def check_policy(game: str, path: str) -> dict[str, Any]:
    """The facts of the policy file at ``path`` (it loads, for ``game``), or
    :class:`BadOptions` saying why not."""
    return _load(game, path)[1]


class LearnedBot:
    """A trained policy playing Candidate (module docstring); deterministic."""

    name = "learned"
    game = "candidate"

    def __init__(self, seed: int = 0, path: str | None = None) -> None:
        self.seed = seed
        self.path = str(shipped_policy()) if path is None else path

    def _logits(self, info: CandidateInfo) -> list[float]:
        actor = _load(self.game, self.path)[0]
        encoded = encode_view(info.view, info.player)
        return [float(x) for x in actor.legal_logits(encoded, info.legal)]

    def choose(self, info: CandidateInfo) -> int:
        """The legal move with the highest logit (the first on a tie)."""
        legal = info.legal
        if len(legal) == 1:
            return legal[0]
        logits = self._logits(info)
        return legal[max(range(len(legal)), key=lambda i: (logits[i], -i))]

    def analyse(self, info: CandidateInfo) -> Analysis:
        """Every legal move with the policy's probability of playing it."""
        logits = self._logits(info)
        top = max(logits)
        weights = [math.exp(x - top) for x in logits]
        total = sum(weights)
        return Analysis.ranked(
            (
                MoveValue(a, info.text(a), w / total)
                for a, w in zip(info.legal, weights, strict=True)
            ),
            "policy probability",
        )
