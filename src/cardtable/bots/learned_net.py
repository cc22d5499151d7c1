"""The networks of the learned bots and their checkpoint files (needs PyTorch).

Only :mod:`cardtable.bots.learned` (lazily, when a learned bot first thinks) and the
trainer (:mod:`cardtable.rl.training`) import this module, so nothing else in cardtable
imports torch.

**The Candidate policy** reads the observation vector of
:mod:`cardtable.games.candidate.encoding` (the one the PettingZoo environment gives)
and scores each *legal* move. The 35,425 action ids are sparse (a position offers about
two), so instead of one output weight row per id the head is *factored* through fixed
features of the move (:func:`candidate_action_features`: kind of move, pile, the cards
a play spends, run or set, their points): ``logit(a) = (W·h + b) · features(a)``, with
``h`` the trunk's output. Moves that spend similar cards share what is learned, only
the legal moves are scored, and the whole network is about 300 KB.

**The Spy policy** reads a seat's 117 floats (:mod:`cardtable.games.spy.encoding`) and
has one output per local move (17).

Both scale the observation by the largest value each index can take, so every input is
in 0–1.

**Checkpoint file** (``policy.pt``, written by ``cardtable train``, read with
``torch.load(weights_only=True)``, so loading runs no code from the file): a dict with
``format`` = :data:`FORMAT`, ``version`` = :data:`FORMAT_VERSION`, ``game``,
``encoding_version`` (the observation encoding it was trained on), ``hidden`` (trunk
widths), ``options`` (the rule options trained on), ``steps`` (training decisions), ``value``
(true for a :class:`PolicyValue` network, which has a value head; absent in older
files), ``context`` (the move-context numbers its head also weighs,
:mod:`cardtable.bots.candidate_context`; 0 or absent: none) and ``weights`` (the
actor's ``state_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import torch
from torch import nn

from cardtable.bots.alpha_net import NetEvaluator
from cardtable.errors import BadOptions, IllegalMove
from cardtable.games.candidate import CandidateOptions, card_points
from cardtable.games.candidate import encoding as candidate_encoding
from cardtable.games.candidate.actions import PASS, play_cards
from cardtable.games.spy import encoding as spy_encoding
from cardtable.games.spy.race import DEFAULT_MOVE_LIMIT

__all__ = [
    "CANDIDATE_FEATURES",
    "FORMAT",
    "FORMAT_VERSION",
    "Actor",
    "PolicyValue",
    "build_actor",
    "candidate_action_features",
    "evaluator_of",
    "load_checkpoint",
    "observation_scale",
    "save_checkpoint",
    "sparse_features",
]

FORMAT = "cardtable-learned-policy"
FORMAT_VERSION = 1
#: Spy's local moves (the race's action space) and the race's move limit.
SPY_ACTIONS = 17
SPY_MOVE_LIMIT = DEFAULT_MOVE_LIMIT

# Move features (indexes of one row of candidate_action_features).
_TYPE, _PILE, _RANKS, _SUITS, _COUNT, _POINTS, _RUN, _SET, _KINDS, _FIRST, _ONE = (
    0,
    5,
    9,
    22,
    26,
    27,
    28,
    29,
    30,
    82,
    134,
)
#: Features per Candidate move: type (deal, lobby, draw, pass, play), pile suit, ranks
#: and suits spent, cards spent, their points, run, set, kinds spent, first kind, 1.
CANDIDATE_FEATURES = 135


def candidate_action_features(actions: Sequence[int]) -> torch.Tensor:
    """A ``(len(actions), 135)`` matrix: the fixed features of those action ids (ids
    that name no move, such as runs past the ace, have only the constant 1)."""
    return torch.tensor([_features(action) for action in actions], dtype=torch.float32)


@lru_cache(maxsize=65536)
def _features(action: int) -> list[float]:
    row = [0.0] * CANDIDATE_FEATURES
    row[_ONE] = 1.0
    if action < PASS:
        row[_TYPE + action // 4] = 1.0  # deal, lobby, draw
        row[_PILE + action % 4] = 1.0
        return row
    if action == PASS:
        row[_TYPE + 3] = 1.0
        return row
    try:
        kinds = play_cards(action)
    except IllegalMove:  # an id that names no play
        return row
    row[_TYPE + 4] = 1.0
    for kind in kinds:
        row[_RANKS + kind % 13] += 1.0
        row[_SUITS + kind // 13] += 1.0
        row[_KINDS + kind] += 1.0
    row[_COUNT] = len(kinds) / 5.0
    row[_POINTS] = sum(card_points(k) for k in kinds) / 20.0
    if len(kinds) > 1:
        row[_RUN if len({k % 13 for k in kinds}) == len(kinds) else _SET] = 1.0
    row[_FIRST + kinds[0]] = 1.0
    return row


def sparse_features(action: int) -> tuple[tuple[int, float], ...]:
    """The non-zero features of ``action`` as (index, value) pairs: a search scores a
    move against a node's feature weights without building a tensor."""
    return _sparse(action)


@lru_cache(maxsize=65536)
def _sparse(action: int) -> tuple[tuple[int, float], ...]:
    return tuple((i, v) for i, v in enumerate(_features(action)) if v)


class ScaleObservation(nn.Module):
    """Divides each observation index by the largest value it can take."""

    scale: torch.Tensor

    def __init__(self, high: Sequence[float]) -> None:
        super().__init__()
        scale = torch.tensor([1.0 / h if h > 0 else 1.0 for h in high])
        self.register_buffer("scale", scale, persistent=False)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """The scaled observation."""
        return obs * self.scale


def trunk(inputs: int, hidden: Sequence[int]) -> nn.Sequential:
    """Linear layers with ReLU between: the shared shape of actor and critic."""
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(inputs, width), nn.ReLU()]
        inputs = width
    return nn.Sequential(*layers)


class Actor(nn.Module):
    """A policy: an observation and its legal moves → a logit for each legal move.

    Candidate's head gives the weights of the move features (module docstring), and
    only the legal moves' features are built;
    Spy's head gives one logit per local move.
    """

    def __init__(
        self, game: str, scale: ScaleObservation, body: nn.Sequential, head: nn.Linear
    ) -> None:
        super().__init__()
        self.game = game
        self.scale = scale
        self.body = body
        self.head = head

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """``(batch, observation)`` → ``(batch, head outputs)``."""
        out: torch.Tensor = self.head(self.body(self.scale(obs)))
        return out

    def legal_logits(self, obs: Sequence[float], legal: Sequence[int]) -> torch.Tensor:
        """The logit of each move of ``legal`` (engine ids; Spy: local moves) in ``obs``."""
        with torch.no_grad():
            out = self(torch.tensor([list(obs)], dtype=torch.float32))[0]
            if self.game == "candidate":
                logits: torch.Tensor = candidate_action_features(legal) @ out
                return logits
            picked: torch.Tensor = out[torch.tensor(list(legal))]
            return picked


class PolicyValue(Actor):
    """A Candidate actor with a value head beside the move-feature head: the network of
    expert iteration (``cardtable train candidate --method exit``). The ``learned`` bot
    plays its policy and the ``alpha`` search also reads its value, the expected reward
    of the deal (−1…1) for the player to move.

    With ``context`` > 0 the head gives that many more weights, for the move-context
    numbers of :mod:`cardtable.bots.candidate_context` (what a move does to the lobby it
    joins), which depend on the position as well as the move: such a network scores
    moves through :func:`cardtable.bots.candidate_alpha.policy_logits`, which computes
    them, not through :meth:`Actor.legal_logits`.
    """

    def __init__(
        self,
        scale: ScaleObservation,
        body: nn.Sequential,
        head: nn.Linear,
        value: nn.Linear,
        context: int = 0,
    ) -> None:
        super().__init__("candidate", scale, body, head)
        self.value = value
        self.context = context

    def legal_logits(self, obs: Sequence[float], legal: Sequence[int]) -> torch.Tensor:
        """As :meth:`Actor.legal_logits`, for a network without move context."""
        if self.context:
            raise BadOptions("this network weighs move context: score it with policy_logits")
        return super().legal_logits(obs, legal)

    def both(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(batch, observation)`` → the head's weights ``(batch, 135 + context)`` and
        the values ``(batch,)``."""
        latent = self.body(self.scale(obs))
        return self.head(latent), torch.tanh(self.value(latent)).squeeze(-1)


def observation_scale(game: str, options: Mapping[str, Any]) -> list[float]:
    """The largest value of each observation index for ``game`` under ``options``."""
    if game == "candidate":
        return candidate_encoding.observation_high(
            CandidateOptions(decks=int(options.get("decks", 1)), deals=1)
        )
    return spy_encoding.seat_high(int(options.get("max_moves", SPY_MOVE_LIMIT)))


def build_actor(
    game: str,
    hidden: Sequence[int],
    options: Mapping[str, Any],
    *,
    value: bool = False,
    context: int = 0,
) -> Actor:
    """A fresh (untrained) actor for ``game``; with ``value`` (Candidate only) a
    :class:`PolicyValue`, its head weighing ``context`` move-context numbers too."""
    high = observation_scale(game, options)
    body = trunk(len(high), hidden)
    latent = hidden[-1] if hidden else len(high)
    outputs = CANDIDATE_FEATURES if game == "candidate" else SPY_ACTIONS
    if value and game == "candidate":
        head = nn.Linear(latent, outputs + context)
        return PolicyValue(ScaleObservation(high), body, head, nn.Linear(latent, 1), context)
    return Actor(game, ScaleObservation(high), body, nn.Linear(latent, outputs))


def encoding_version(game: str) -> int:
    """The observation encoding version a network of ``game`` reads."""
    module = candidate_encoding if game == "candidate" else spy_encoding
    return int(module.ENCODING_VERSION)


def save_checkpoint(
    path: Path,
    actor: Actor,
    *,
    game: str,
    hidden: Sequence[int],
    options: Mapping[str, Any],
    steps: int,
) -> None:
    """Write ``actor`` as a policy file (format in the module docstring)."""
    torch.save(
        {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": game,
            "encoding_version": encoding_version(game),
            "hidden": list(hidden),
            "options": dict(options),
            "steps": int(steps),
            "value": isinstance(actor, PolicyValue),
            "context": actor.context if isinstance(actor, PolicyValue) else 0,
            "weights": {k: v.detach().clone() for k, v in actor.state_dict().items()},
        },
        path,
    )


def load_checkpoint(path: Path, game: str) -> tuple[Actor, dict[str, Any]]:
    """The actor stored at ``path`` (a policy file, or a training directory holding
    ``policy.pt``) and the file's facts; :class:`BadOptions` with a one-line reason when
    it is missing, not a policy file, of another game or of another encoding."""
    if path.is_dir():
        path = path / "policy.pt"
    if not path.is_file():
        raise BadOptions(f"no checkpoint at {path}: train one with `cardtable train {game}`")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many kinds for a file it cannot read
        kind = exc.__class__.__name__
        raise BadOptions(f"{path} is not a cardtable policy file ({kind})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadOptions(f"{path} is not a cardtable policy file")
    if data.get("version") != FORMAT_VERSION:
        raise BadOptions(
            f"{path} is a policy file of version {data.get('version')}, "
            f"this cardtable reads version {FORMAT_VERSION}"
        )
    if data.get("game") != game:
        raise BadOptions(f"{path} holds a {data.get('game')} policy, not a {game} one")
    if data.get("encoding_version") != encoding_version(game):
        raise BadOptions(
            f"{path} was trained on {game} observation encoding {data.get('encoding_version')}, "
            f"this cardtable encodes version {encoding_version(game)}: train it again"
        )
    value = bool(data.get("value", False))
    context = int(data.get("context", 0))
    actor = build_actor(game, data["hidden"], data.get("options", {}), value=value, context=context)
    try:
        actor.load_state_dict(data["weights"])
    except (RuntimeError, KeyError) as exc:
        raise BadOptions(f"{path}: the weights do not fit the network ({exc})") from None
    actor.eval()
    meta = {k: v for k, v in data.items() if k != "weights"}
    return actor, meta


def evaluator_of(net: PolicyValue) -> NetEvaluator:
    """The NumPy evaluator (:mod:`cardtable.bots.alpha_net`) computing what ``net`` does."""

    def pair(layer: nn.Linear) -> tuple[Any, Any]:
        return (
            layer.weight.detach().numpy().astype("float32").copy(),
            layer.bias.detach().numpy().astype("float32").copy(),
        )

    layers = [pair(m) for m in net.body if isinstance(m, nn.Linear)]
    scale = net.scale.scale.numpy().astype("float32").copy()
    return NetEvaluator(scale, layers, pair(net.head), pair(net.value), net.context)
