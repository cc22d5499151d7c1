"""Training a learned bot: MaskablePPO (sb3-contrib) on the games' observations.

Used by ``cardtable train candidate`` and ``cardtable train spy``; needs the ``train``
extra (PyTorch, stable-baselines3, sb3-contrib). See ``docs/rl.md`` for why this
learner and this opponent.

**Candidate**: the agent takes one seat of a one-deal match (seat drawn per episode);
the other seat is played by ``greedy`` (2 episodes in 3) or ``random`` (1 in 3). The
observation is the 342-float vector of :mod:`cardtable.games.candidate.encoding` from
the agent's own view (as the PettingZoo environment gives it) with the legal-move mask.
Forced moves (one legal move) are made for the agent without asking. The reward comes
at the deal's end: the agent's score minus the opponent's, divided by 100 — the
duplicate pairs that judge the agent are decided by summed scores, not by wins.

**Spy**: the one-seat race of ``cardtable/Spy-v0`` (−1 a move, giving up costs the
clock), as the Gymnasium environment gives it.

**Evaluation** (every ``eval_every`` decisions): held-out duplicate deals (seeds drawn
from a stream that training never uses), the agent taking its most likely legal move.
Candidate: each deal is played twice with the seats swapped against ``random`` and
against ``greedy``; a pair goes to whoever scored more over its two games; the point
is the agent's share of the decided pairs. Spy: the agent's race and the bot's race on
the same deal; a deal goes to the shorter race to the call (a race that never calls
counts as the move limit); the point is the agent's share of the decided deals.

**Files** in the output directory: ``policy.pt`` (the bot: ``learned:DIR``),
``model.zip`` (the whole learner with its optimiser, for ``--resume``),
``progress.json`` (decisions so far, minutes, the curve) and ``curve.png``.

**Budget**: a run trains for ``minutes`` of wall clock, or, given ``steps``, for that many
decisions whatever the time (rounded up to whole rollouts of ``envs * n_steps``), so the
same seed and steps give the same policy on a quiet machine and on a busy one.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

from cardtable.bots.base import stable_seed
from cardtable.bots.candidate_greedy import GreedyBot as CandidateGreedy
from cardtable.bots.candidate_random import RandomBot as CandidateRandom
from cardtable.bots.learned_net import (
    CANDIDATE_FEATURES,
    SPY_MOVE_LIMIT,
    Actor,
    ScaleObservation,
    build_actor,
    candidate_action_features,
    observation_scale,
    save_checkpoint,
    trunk,
)
from cardtable.errors import BadOptions
from cardtable.games.candidate import NUM_ACTIONS, CandidateOptions, CandidateState
from cardtable.games.candidate.encoding import OBSERVATION_SIZE, encode_view
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER
from cardtable.games.spy.encoding import SEAT_SIZE, encode_seat
from cardtable.games.spy.race import GreedyPolicy, RandomPolicy
from cardtable.games.spy.views import SeatWindow
from cardtable.rl.plots import curve_png
from cardtable.rl.spy_v0 import SpyRaceEnv

__all__ = [
    "GAMES",
    "CurvePoint",
    "TrainConfig",
    "Trainer",
    "evaluate_candidate",
    "plot_curve",
]

GAMES = ("candidate", "spy")
#: The rule options each game is trained under (what the policy file records).
_OPTIONS: dict[str, dict[str, Any]] = {"candidate": {"decks": 1}, "spy": {}}
HIDDEN = (128, 128)
#: Candidate's training opponents and how often each sits (per episode).
OPPONENTS = (("greedy", 2 / 3), ("random", 1 / 3))
#: The learning rate falls linearly over each run's budget, from the first to the second.
LEARNING_RATE = (3e-4, 3e-5)
REWARD_SCALE = 100.0
#: Legal moves offered to the agent at most (a one-deck position has had at most 65).
SLOTS = 128
_SEED_BOUND = 2**63


@dataclass(frozen=True)
class TrainConfig:
    """What a training run was asked for."""

    game: str
    seed: int = 0
    minutes: float = 30.0
    #: Decisions to train in this run instead of ``minutes`` (None: train for the minutes).
    steps: int | None = None
    eval_every: int = 20_000
    eval_pairs: int = 50
    envs: int = 8
    n_steps: int = 128


@dataclass
class CurvePoint:
    """One evaluation: decisions trained so far and the shares of decided pairs."""

    steps: int
    minutes: float
    vs_random: float
    vs_greedy: float
    decided_random: int
    decided_greedy: int


@dataclass
class Progress:
    """``progress.json``: how far a run has come."""

    game: str
    seed: int
    steps: int = 0
    minutes: float = 0.0
    curve: list[CurvePoint] = field(default_factory=list)

    def to_json(self) -> str:
        """The file's text."""
        return json.dumps(asdict(self), indent=2)

    @classmethod
    def read(cls, path: Path) -> Progress:
        """Read ``progress.json``."""
        data = json.loads(path.read_text(encoding="utf-8"))
        curve = [CurvePoint(**p) for p in data.pop("curve")]
        return cls(curve=curve, **data)


# --- Candidate: the agent against a bot --------------------------------------------


class CandidateVsBot(gymnasium.Env[np.ndarray[Any, Any], int]):
    """One-deal Candidate matches, the agent in one seat and a bot in the other
    (module docstring). ``action_masks()`` gives MaskablePPO the legal moves."""

    def __init__(self, seed: int) -> None:
        self.options = CandidateOptions(decks=1, deals=1)
        self.observation_space = gymnasium.spaces.Box(
            -1.0, np.inf, (OBSERVATION_SIZE + SLOTS,), np.float32
        )
        self.action_space = cast(gymnasium.spaces.Space[int], gymnasium.spaces.Discrete(SLOTS))
        self._rng = random.Random(seed)
        self._bots: dict[str, Any] = {
            "greedy": CandidateGreedy(seed),
            "random": CandidateRandom(seed),
        }
        self._state = CandidateState.new(0, self.options)
        self._me = 0
        self._opponent = "greedy"
        self._mask = np.zeros(SLOTS, dtype=bool)
        self._legal: tuple[int, ...] = ()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """A new deal from the environment's own stream, seats and opponent drawn."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._state = CandidateState.new(self._rng.randrange(_SEED_BOUND), self.options)
        self._me = self._rng.randrange(2)
        names = [name for name, _ in OPPONENTS]
        weights = [share for _, share in OPPONENTS]
        self._opponent = self._rng.choices(names, weights)[0]
        self._advance()
        return self._observe(), {}

    def _advance(self) -> None:
        """Play the opponent's moves and the agent's forced ones until the agent has a
        choice or the deal is over."""
        state = self._state
        bot = self._bots[self._opponent]
        while not state.is_terminal():
            player = state.current_player
            if player != self._me:
                state.apply_action(bot.choose(CandidateInfo.of(state, player)))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                return
            state.apply_action(legal[0])

    def _observe(self) -> np.ndarray[Any, Any]:
        view = self._state.view(self._me)
        self._legal = view.legal_actions[:SLOTS]
        return slot_observation(encode_view(view, self._me), self._legal, self._mask)

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The agent's legal moves now."""
        return self._mask.copy()

    def step(self, action: int) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        """The agent's move (a slot: an index into its legal moves), then everyone
        else's until it decides again."""
        self._state.apply(self._legal[int(action)])
        self._advance()
        obs = self._observe()
        if not self._state.is_terminal():
            return obs, 0.0, False, False, {}
        totals = self._state.totals()
        margin = float(totals[self._me] - totals[1 - self._me])
        return obs, margin / REWARD_SCALE, True, False, {}


def slot_observation(
    encoded: list[float], legal: tuple[int, ...], mask: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """The encoded view followed by the legal action ids (−1 in the unused slots);
    ``mask`` is set to the used slots."""
    obs = np.full(OBSERVATION_SIZE + SLOTS, -1.0, dtype=np.float32)
    obs[:OBSERVATION_SIZE] = encoded
    obs[OBSERVATION_SIZE : OBSERVATION_SIZE + len(legal)] = legal
    mask[:] = False
    mask[: len(legal)] = True
    return obs


def _choose(actor: Actor, obs: list[float], legal: tuple[int, ...] | list[int]) -> int:
    """The actor's most likely move among ``legal``."""
    if len(legal) == 1:
        return int(legal[0])
    return int(legal[int(torch.argmax(actor.legal_logits(obs, legal)))])


def evaluate_candidate(actor: Actor, opponent: str, pairs: int, seed: int) -> tuple[int, int]:
    """Duplicate pairs on held-out deals against ``opponent``: (pairs the actor won,
    pairs decided)."""
    bot: Any = CandidateGreedy(seed) if opponent == "greedy" else CandidateRandom(seed)
    options = CandidateOptions(decks=1, deals=1)
    won = decided = 0
    for pair in range(pairs):
        deal_seed = stable_seed("cardtable-train-eval", seed, pair)
        margin = 0
        for me in (0, 1):
            state = CandidateState.new(deal_seed, options)
            while not state.is_terminal():
                player = state.current_player
                if player == me:
                    view = state.view(me)
                    action = _choose(actor, encode_view(view, me), view.legal_actions)
                else:
                    action = bot.choose(CandidateInfo.of(state, player))
                state.apply_action(action)
            totals = state.totals()
            margin += totals[me] - totals[1 - me]
        if margin:
            decided += 1
            won += margin > 0
    return won, decided


# --- Spy: one seat's race ------------------------------------------------------------


class SpyRace(gymnasium.Env[np.ndarray[Any, Any], int]):
    """``cardtable/Spy-v0`` with the observation vector alone and ``action_masks()``
    (what MaskablePPO reads) from the environment's own mask."""

    def __init__(self, seed: int) -> None:
        self.env = SpyRaceEnv(max_moves=SPY_MOVE_LIMIT)
        self.observation_space = cast(Any, self.env.observation_space)["observation"]
        self.action_space = cast(gymnasium.spaces.Space[int], self.env.action_space)
        self._mask = np.zeros(ACTIONS_PER_PLAYER, dtype=bool)
        self._seed: int | None = seed

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """A new deal (the first from the wrapper's seed, then the environment's stream)."""
        first, self._seed = self._seed, None
        obs, info = self.env.reset(seed=first if seed is None else seed, options=options)
        return self._unpack(obs), info

    def step(self, action: int) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        """Seat 0's move."""
        obs, reward, terminated, truncated, info = self.env.step(int(action))
        return self._unpack(obs), float(reward), terminated, truncated, info

    def _unpack(self, obs: dict[str, Any]) -> np.ndarray[Any, Any]:
        self._mask = obs["action_mask"].astype(bool)
        vector: np.ndarray[Any, Any] = obs["observation"]
        return vector

    def action_masks(self) -> np.ndarray[Any, Any]:
        """Seat 0's legal local moves now."""
        return self._mask.copy()


def _race_length(deal_seed: int, choose: Callable[[SpyRaceEnv], int]) -> int:
    """Moves seat 0 needs to call on the deal, or the move limit if it never calls."""
    env = SpyRaceEnv(max_moves=SPY_MOVE_LIMIT)
    env.reset(options={"deal_seed": deal_seed})
    while True:
        _, _, terminated, truncated, _ = env.step(choose(env))
        seat = env.state_now.position(0)
        if terminated or truncated:
            return seat.moves if seat.called else SPY_MOVE_LIMIT


class _Racer:
    """Chooses seat 0's moves in a race: the actor, or an engine policy (``greedy``,
    ``random``) started on the round with its own generator."""

    def __init__(self, actor: Actor | None, policy: Any = None, seed: int = 0) -> None:
        self.actor = actor
        self.policy = policy
        self.seed = seed
        self.started = False

    def __call__(self, env: SpyRaceEnv) -> int:
        state = env.state_now
        legal = state.legal_actions(0)
        window = SeatWindow(state.position(0))
        if self.actor is not None:
            return _choose(self.actor, encode_seat(window.view(state.names[0])), legal)
        if not self.started:
            self.policy.start_round(window, random.Random(self.seed))
            self.started = True
        return int(self.policy.choose(window, legal))


def evaluate_spy(actor: Actor, opponent: str, deals: int, seed: int) -> tuple[int, int]:
    """Held-out deals raced by the actor and by ``opponent`` (``greedy`` or ``random``)
    on the same cards: (deals the actor raced shorter, deals decided)."""
    won = decided = 0
    for index in range(deals):
        deal_seed = stable_seed("cardtable-train-eval-spy", seed, index)
        policy = GreedyPolicy() if opponent == "greedy" else RandomPolicy()
        mine = _race_length(deal_seed, _Racer(actor))
        theirs = _race_length(deal_seed, _Racer(None, policy, stable_seed(seed, index)))
        if mine != theirs:
            decided += 1
            won += mine < theirs
    return won, decided


# --- The policy: SB3's masked actor-critic with our actor's pieces --------------------


class _Extractor(nn.Module):
    """SB3's ``mlp_extractor``: the actor's latent is its trunk's output followed by
    the slots' action ids (for :class:`_SlotHead`); the critic's is its trunk's."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = ScaleObservation(observation_scale("candidate", {"decks": 1}))
        self.policy_net = trunk(OBSERVATION_SIZE, HIDDEN)
        self.value_net = trunk(OBSERVATION_SIZE, HIDDEN)
        self.latent_dim_pi = HIDDEN[-1] + SLOTS
        self.latent_dim_vf = HIDDEN[-1]

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        obs = self.scale(features[:, :OBSERVATION_SIZE])
        return torch.cat([self.policy_net(obs), features[:, OBSERVATION_SIZE:]], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.value_net(self.scale(features[:, :OBSERVATION_SIZE]))
        return out


class _SlotHead(nn.Module):
    """The logit of each slot: the move-feature weights (``proj`` of the trunk's
    output) times the features of the slot's action id (0 for an empty slot)."""

    features: torch.Tensor

    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(HIDDEN[-1], CANDIDATE_FEATURES)
        features = candidate_action_features(range(NUM_ACTIONS))
        padded = torch.cat([torch.zeros(1, CANDIDATE_FEATURES), features])
        self.register_buffer("features", padded, persistent=False)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        weights = self.proj(latent[:, : HIDDEN[-1]])
        ids = latent[:, HIDDEN[-1] :].long() + 1  # empty slots (−1) → the zero row
        out: torch.Tensor = torch.einsum("bf,bkf->bk", weights, self.features[ids])
        return out


class _ScaledSpy(BaseFeaturesExtractor):
    """Spy's features: the seat vector scaled to 0–1 (as the :class:`Actor` does)."""

    def __init__(self, observation_space: gymnasium.spaces.Box) -> None:
        super().__init__(observation_space, SEAT_SIZE)
        self.scale = ScaleObservation(observation_scale("spy", {}))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.scale(observations)
        return out


class CandidatePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic over slots: the actor scores each legal move by the
    features of its action id (:class:`~cardtable.bots.learned_net.Actor` is the same
    function), so no output layer the size of the action space is needed."""

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _Extractor()  # type: ignore[assignment]  # same interface

    def _build(self, lr_schedule: Callable[[float], float]) -> None:
        super()._build(lr_schedule)
        self.action_net = _SlotHead()
        self.optimizer = self.optimizer_class(  # type: ignore[call-arg]  # Adam takes lr
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


def export_actor(model: MaskablePPO, game: str) -> Actor:
    """The policy half of ``model`` as a standalone :class:`Actor` (what the bot runs)."""
    actor = build_actor(game, HIDDEN, _OPTIONS[game])
    policy = model.policy
    actor.body.load_state_dict(policy.mlp_extractor.policy_net.state_dict())
    if game == "candidate":
        actor.head.load_state_dict(cast(_SlotHead, policy.action_net).proj.state_dict())
    else:
        actor.head.load_state_dict(policy.action_net.state_dict())
    actor.eval()
    return actor


# --- The run -------------------------------------------------------------------------


class _Decay:
    """The learning rate: linear in :attr:`done`, the share of the run's budget gone
    (minutes or decisions; set by the trainer, as SB3's own progress knows no minutes)."""

    def __init__(self) -> None:
        self.done = 0.0

    def __call__(self, _progress_remaining: float) -> float:
        first, last = LEARNING_RATE
        return first + (last - first) * min(1.0, self.done)


def _env_maker(game: str, seed: int, index: int) -> Callable[[], gymnasium.Env[Any, Any]]:
    """A maker of the ``index``-th training environment of a run seeded ``seed``."""

    def make() -> gymnasium.Env[Any, Any]:
        env_seed = stable_seed("cardtable-train", game, seed, index)
        return CandidateVsBot(env_seed) if game == "candidate" else SpyRace(env_seed)

    return make


class _Stop(BaseCallback):
    """Stops at the time limit (a timed run) and evaluates every ``eval_every`` decisions."""

    def __init__(self, trainer: Trainer) -> None:
        super().__init__()
        self.trainer = trainer

    def _on_step(self) -> bool:
        return self.trainer.on_step(int(self.num_timesteps))


class Trainer:
    """One training run (or its continuation): see the module docstring."""

    def __init__(
        self,
        config: TrainConfig,
        out: Path,
        *,
        resume: bool = False,
        on_progress: Callable[[int, float, CurvePoint | None], None] | None = None,
    ) -> None:
        if config.game not in GAMES:
            raise BadOptions(f"unknown game {config.game!r}: expected one of {', '.join(GAMES)}")
        if config.minutes <= 0:
            raise BadOptions(f"--minutes must be positive, got {config.minutes}")
        if config.steps is not None and config.steps < 1:
            raise BadOptions(f"--steps must be at least 1 decision, got {config.steps}")
        if config.eval_every < 1 or config.eval_pairs < 1:
            raise BadOptions("--eval-every and --eval-pairs must be at least 1")
        self.config = config
        self.out = out
        self.on_progress = on_progress
        # One thread: on a shared machine more threads spin and wait more than they work.
        torch.set_num_threads(1)
        torch.manual_seed(config.seed)
        env = DummyVecEnv([_env_maker(config.game, config.seed, i) for i in range(config.envs)])
        model_path = out / "model.zip"
        progress_path = out / "progress.json"
        if resume:
            if not model_path.is_file() or not progress_path.is_file():
                raise BadOptions(f"nothing to resume in {out}: no model.zip and progress.json")
            self.progress = Progress.read(progress_path)
            if self.progress.game != config.game:
                raise BadOptions(f"{out} holds a {self.progress.game} run, not {config.game}")
            self.model = MaskablePPO.load(model_path, env=env, device="cpu")
        else:
            if model_path.exists():
                raise BadOptions(f"{out} already holds a run: add --resume or pick another --out")
            self.progress = Progress(config.game, config.seed)
            policy_kwargs: dict[str, Any] = {"net_arch": {"pi": list(HIDDEN), "vf": list(HIDDEN)}}
            if config.game == "spy":
                policy_kwargs["features_extractor_class"] = _ScaledSpy
                policy_kwargs["activation_fn"] = nn.ReLU
            self.model = MaskablePPO(
                CandidatePolicy if config.game == "candidate" else MaskableActorCriticPolicy,
                env,
                learning_rate=_Decay(),
                n_steps=config.n_steps,
                batch_size=256,
                n_epochs=4,
                gamma=1.0,
                gae_lambda=0.95,
                ent_coef=0.01,
                policy_kwargs=policy_kwargs,
                seed=config.seed,
                device="cpu",
            )
        self._decay = _Decay()
        self.model.lr_schedule = self._decay
        self._started = 0.0
        self._minutes_before = self.progress.minutes
        self._next_eval = (self.progress.steps // config.eval_every + 1) * config.eval_every
        self._deadline = 0.0
        self._first_step = 0  # the decisions made before this run: set by run()

    def minutes(self) -> float:
        """Training minutes so far, this run and the ones resumed."""
        return self._minutes_before + (time.monotonic() - self._started) / 60.0

    def run(self) -> Progress:
        """Train until the time or the steps are up; evaluate, save and plot on the way
        and at the end."""
        self.out.mkdir(parents=True, exist_ok=True)
        self._started = time.monotonic()
        self._deadline = self._started + self.config.minutes * 60.0
        self._first_step = int(self.model.num_timesteps)
        if not self.progress.curve:
            self.evaluate(self.progress.steps)
        # With a steps budget SB3 counts it (added to the decisions so far, as
        # reset_num_timesteps is off) and finishes the rollout it is in; a timed run stops
        # from the callback.
        self.model.learn(
            total_timesteps=10**12 if self.config.steps is None else self.config.steps,
            callback=_Stop(self),
            reset_num_timesteps=False,
            progress_bar=False,
        )
        steps = int(self.model.num_timesteps)
        if self.progress.curve[-1].steps != steps:
            self.evaluate(steps)
        self.save(steps)
        return self.progress

    def on_step(self, steps: int) -> bool:
        """After every vector step: evaluate when due; False stops at the time limit
        (never in a run with a steps budget, which SB3 ends)."""
        now = time.monotonic()
        if self.config.steps is not None:
            self._decay.done = (steps - self._first_step) / self.config.steps
        else:
            self._decay.done = (now - self._started) / (self._deadline - self._started)
        if steps >= self._next_eval:
            self._next_eval += self.config.eval_every
            self.evaluate(steps)
            self.save(steps)
        elif self.on_progress is not None and steps % 64 < self.config.envs:
            self.on_progress(steps, self.minutes(), None)
        return self.config.steps is not None or now < self._deadline

    def evaluate(self, steps: int) -> CurvePoint:
        """One point of the curve (module docstring)."""
        actor = export_actor(self.model, self.config.game)
        pairs, seed = self.config.eval_pairs, self.config.seed
        evaluate = evaluate_candidate if self.config.game == "candidate" else evaluate_spy
        won_r, decided_r = evaluate(actor, "random", pairs, seed)
        won_g, decided_g = evaluate(actor, "greedy", pairs, seed)
        point = CurvePoint(
            steps,
            round(self.minutes(), 2),
            won_r / decided_r if decided_r else 0.0,
            won_g / decided_g if decided_g else 0.0,
            decided_r,
            decided_g,
        )
        self.progress.curve.append(point)
        if self.on_progress is not None:
            self.on_progress(steps, self.minutes(), point)
        return point

    def save(self, steps: int) -> None:
        """Write the policy, the learner, the progress and the curve; each file is
        written aside and then moved in place, so a run stopped while saving leaves the
        previous checkpoint whole."""
        self.progress.steps = steps
        self.progress.minutes = round(self.minutes(), 2)
        actor = export_actor(self.model, self.config.game)
        policy = self.out / "policy.pt.tmp"
        save_checkpoint(
            policy,
            actor,
            game=self.config.game,
            hidden=HIDDEN,
            options=_OPTIONS[self.config.game],
            steps=steps,
        )
        model = self.out / "model.tmp.zip"
        self.model.save(model)
        progress = self.out / "progress.json.tmp"
        progress.write_text(self.progress.to_json() + "\n", encoding="utf-8")
        os.replace(model, self.out / "model.zip")
        os.replace(policy, self.out / "policy.pt")
        os.replace(progress, self.out / "progress.json")
        plot_curve(self.progress, self.out / "curve.png")


def plot_curve(progress: Progress, path: Path) -> None:
    """The learning curve as a PNG: share of decided pairs against each bot."""
    steps = [p.steps for p in progress.curve]

    def draw(ax: Any) -> None:
        ax.plot(steps, [100 * p.vs_random for p in progress.curve], marker="o", label="vs random")
        ax.plot(steps, [100 * p.vs_greedy for p in progress.curve], marker="o", label="vs greedy")

    curve_png(
        path,
        "training decisions",
        "% of decided duplicate pairs won",
        f"{progress.game}: learned policy, {progress.minutes:.0f} min",
        draw,
    )
