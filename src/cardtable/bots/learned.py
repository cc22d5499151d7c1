"""``learned``: a policy trained with ``cardtable train candidate`` or ``train spy``.

The bot reads a policy file (``learned:PATH``: a ``policy.pt`` or the training folder
holding one; plain ``learned``: the policy shipped in the package, Candidate only, see
``docs/rl.md``) and plays the legal move the network likes best. It sees what every
bot sees: the seat's information set. Its input is that information encoded exactly
as the environments encode the seat's view, one encoding for training and play:

- Candidate (:class:`LearnedBot`): :func:`cardtable.games.candidate.encoding.encode_view`
  of the seat's view; the network scores the legal action ids.
- Spy (:class:`SpyLearnedBot`): :func:`cardtable.games.spy.encoding.encode_info` of the
  :class:`~cardtable.games.spy.info.SpyInfo` (the same 117 floats the race
  environment observes); the network scores the legal *local* moves (0-16, the race's
  actions), mapped back to the seat's action ids.

PyTorch is imported only when the bot first thinks (:mod:`cardtable.bots.learned_net`),
and the network is loaded once per process and file. The bot itself keeps only its
seed and the file's path, so it pickles (the server thinks in worker processes).

A network of expert iteration (``cardtable train candidate --method exit``: policy and
value) is a policy file too: ``learned:DIR`` plays its policy alone, and when the
package ships one (:data:`SHIPPED_NETWORK`) plain ``learned`` plays it instead of the
MaskablePPO policy. The ``alpha`` search reads the same file through
:func:`load_evaluator`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from cardtable.bots.base import Analysis, MoveValue
from cardtable.errors import BadOptions
from cardtable.games.candidate.encoding import encode_view
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.spy.encoding import encode_info
from cardtable.games.spy.info import SpyInfo

if TYPE_CHECKING:
    from cardtable.bots.alpha_net import NetEvaluator

__all__ = [
    "SHIPPED",
    "SHIPPED_NETWORK",
    "LearnedBot",
    "SpyLearnedBot",
    "check_policy",
    "load_evaluator",
    "shipped_network",
    "shipped_policy",
]

#: The policy files shipped in the package (``learned`` without a path), by game.
SHIPPED = {"candidate": "learned_candidate.pt"}
#: The policy-and-value network of expert iteration shipped in the package (the
#: ``alpha`` search's network; when present, plain ``learned`` plays its policy).
SHIPPED_NETWORK = "alpha_candidate.pt"


def shipped_network() -> Path | None:
    """The shipped policy-and-value network, or None when the package has none."""
    path = Path(str(resources.files("cardtable.bots").joinpath(SHIPPED_NETWORK)))
    return path if path.is_file() else None


def shipped_policy(game: str = "candidate") -> Path:
    """The path of the policy shipped for ``game`` (Candidate: the distilled policy of
    expert iteration when it is shipped, else the MaskablePPO one); :class:`BadOptions`
    when none is."""
    name = SHIPPED.get(game)
    if name is None:
        raise BadOptions(
            f"no {game} policy is shipped: write learned:PATH "
            f"(a policy file or training folder of `cardtable train {game}`)"
        )
    network = shipped_network() if game == "candidate" else None
    return network or Path(str(resources.files("cardtable.bots").joinpath(name)))


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


@lru_cache(maxsize=8)
def load_evaluator(path: str) -> NetEvaluator:
    """The NumPy evaluator of the policy-and-value network at ``path`` (once per process
    and file); :class:`BadOptions` when the file is a policy without a value head."""
    actor = _load("candidate", path)[0]
    from cardtable.bots import learned_net

    if not isinstance(actor, learned_net.PolicyValue):
        raise BadOptions(
            f"{path} is a policy without a value head: the alpha search needs a network "
            "of `cardtable train candidate --method exit`"
        )
    return learned_net.evaluator_of(actor)


def check_policy(game: str, path: str) -> dict[str, Any]:
    """The facts of the policy file at ``path`` (it loads, for ``game``), or
    :class:`BadOptions` saying why not (one line: missing, not a policy file, a policy
    of the other game, another encoding)."""
    return _load(game, path)[1]


class _Info(Protocol):
    """What the policy bots read of either game's information set."""

    @property
    def legal(self) -> tuple[int, ...]: ...

    def text(self, action: int) -> str: ...


InfoT = TypeVar("InfoT", bound=_Info)


class _PolicyBot(Generic[InfoT]):
    """A trained policy playing one game: each game says how its information set is
    encoded and which ids of its legal moves the network scores."""

    name = "learned"
    game = ""

    def __init__(self, seed: int = 0, path: str | None = None) -> None:
        self.seed = seed
        self.path = str(shipped_policy(self.game)) if path is None else path

    def _encode(self, info: InfoT) -> list[float]:
        raise NotImplementedError

    def _scored(self, info: InfoT) -> Sequence[int]:
        """The ids the network scores for ``info.legal``, in the same order."""
        return info.legal

    def _logits(self, info: InfoT) -> list[float]:
        actor = _load(self.game, self.path)[0]
        return [float(x) for x in actor.legal_logits(self._encode(info), self._scored(info))]

    def choose(self, info: InfoT) -> int:
        """The legal move with the highest logit (the first on a tie)."""
        legal = info.legal
        if len(legal) == 1:
            return legal[0]
        logits = self._logits(info)
        return legal[max(range(len(legal)), key=lambda i: (logits[i], -i))]

    def analyse(self, info: InfoT) -> Analysis:
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


class LearnedBot(_PolicyBot[CandidateInfo]):
    """A trained policy playing Candidate (module docstring); deterministic."""

    game = "candidate"

    def _encode(self, info: CandidateInfo) -> list[float]:
        return encode_view(info.view, info.player)

    def _logits(self, info: CandidateInfo) -> list[float]:
        from cardtable.bots import learned_net

        actor = _load(self.game, self.path)[0]
        if isinstance(actor, learned_net.PolicyValue):
            # A network of expert iteration scores moves as the alpha search does
            # (its head may weigh the move context, which the actor alone cannot).
            from cardtable.bots.candidate_policy import policy_logits

            return policy_logits(load_evaluator(self.path), info)
        return super()._logits(info)


class SpyLearnedBot(_PolicyBot[SpyInfo]):
    """A policy of ``cardtable train spy`` racing a Spy seat (module docstring);
    deterministic. It reads the seat's information set only (S4-S5: the public
    position the race environment observes)."""

    game = "spy"

    def _encode(self, info: SpyInfo) -> list[float]:
        return encode_info(info)

    def _scored(self, info: SpyInfo) -> Sequence[int]:
        return info.locals  # the race's actions: local moves, in the order of info.legal
