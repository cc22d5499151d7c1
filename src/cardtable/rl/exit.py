"""Expert iteration for Candidate: the search teaches the network, the network guides
the search (``cardtable train candidate --method exit``; ``docs/rl.md``).

Each iteration:

1. **Self-play** (:func:`cardtable.rl.exit_play.self_play`): ``games`` one-deal
   matches, the expert in both seats — ``ismcts`` with random playouts in the first
   iteration, then ``alpha`` (PUCT over information sets with the current network as
   prior and leaf value). Each decision gives the seat's encoded view, its legal moves,
   the root visits and, at the deal's end, the value target. The games run on the
   ``runner`` the caller hands in (the arena's backends: this process, local worker
   processes, Ray), a task per few games.
2. **Training**: the network (:class:`cardtable.bots.learned_net.PolicyValue`) fits the
   last ``window`` samples: cross-entropy of its softmax over the legal moves against
   the visit shares, plus the squared error of its value, with Adam; ``epochs`` passes
   over the new samples' worth of batches, each batch under a random renaming of the
   suits (:mod:`cardtable.rl.symmetry`: C7, suits never matter, so a sample stands for
   24).
3. **Evaluation** on held-out duplicate pairs (seeds from a stream self-play never
   draws): the policy alone against ``greedy``, and with ``eval_search`` > 0 the
   search with the network (``alpha:eval_search``) against ``greedy``.
4. **Checkpoint**: ``policy.pt`` (the network: ``learned:DIR`` plays its policy,
   ``alpha:N:DIR`` searches with it), ``trainer.pt`` (the optimiser),
   ``window.npz`` (the sample window), ``progress.json`` (iterations, games, minutes,
   the curve) and ``curve.png``.

``--resume`` continues from the checkpoint: the network, the optimiser, the curve and
the sample window (``window.npz``). A run stops
after ``minutes`` of wall clock (the iteration in play then trains on the games
finished, is evaluated and saved) or after ``iterations`` iterations, whichever comes
first. PyTorch picks the device: a GPU when there is one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np
import torch

from cardtable.bots.base import stable_seed
from cardtable.bots.candidate_context import CONTEXT_FEATURES
from cardtable.bots.learned_net import (
    PolicyValue,
    build_actor,
    candidate_action_features,
    evaluator_of,
    load_checkpoint,
    save_checkpoint,
)
from cardtable.errors import BadOptions
from cardtable.fairplay.history import wilson_interval
from cardtable.games.candidate import NUM_ACTIONS
from cardtable.rl.exit_play import PairTask, Player, Samples, SelfPlayTask, play_pairs, self_play
from cardtable.rl.plots import curve_png
from cardtable.rl.symmetry import RENAMINGS, SuitSymmetry

__all__ = ["ExitConfig", "ExitPoint", "ExitProgress", "ExitTrainer", "Runner", "plot_exit"]

T = TypeVar("T")
R = TypeVar("R")
#: Maps a module-level function over picklable tasks, results in any order.
Runner = Callable[[Callable[[T], R], list[T]], Iterable[R]]

_OPTIONS = {"decks": 1}
#: The first iteration's expert (``ismcts``, no network yet) takes this many times the
#: simulations: a random-playout simulation costs about a quarter of a network one.
ISMCTS_FACTOR = 4
#: Games per self-play task and pairs per evaluation task (the unit sent to a worker).
_GAMES_PER_TASK = 4
_PAIRS_PER_TASK = 5


def _inline(function: Callable[[T], R], tasks: list[T]) -> Iterator[R]:
    return map(function, tasks)


@dataclass(frozen=True)
class ExitConfig:
    """What an expert-iteration run was asked for."""

    seed: int = 0
    minutes: float = 20.0
    #: Iterations in this run (None: as many as the minutes allow).
    iterations: int | None = None
    games: int = 200
    simulations: int = 100
    #: The trunk's widths (a new run's network; a resumed one keeps its own).
    hidden: tuple[int, ...] = (256, 256)
    window: int = 60_000
    epochs: int = 4
    batch: int = 256
    learning_rate: float = 1e-3
    eval_pairs: int = 100
    #: Simulations of the ``alpha`` search at each evaluation (0: the policy alone).
    eval_search: int = 0
    #: Iterations whose expert is plain ``ismcts`` (random playouts, ``ISMCTS_FACTOR``
    #: times the simulations) before the network joins the search: at least the first,
    #: which has no network yet; more distil a strong search into the network first.
    ismcts_iterations: int = 1
    #: Move-context numbers the network's head weighs (a new run's network;
    #: :mod:`cardtable.bots.candidate_context`); 0: the fixed move features alone.
    context: int = CONTEXT_FEATURES
    #: Each batch under a random renaming of the suits (:mod:`.symmetry`; C7).
    rename_suits: bool = True
    #: A new run's window starts as this run folder's ``window.npz`` (its samples
    #: teach a new network, of another width for instance).
    samples_from: Path | None = None
    #: Passes over the window the run starts with (resumed or ``samples_from``), trained
    #: before the first self-play.
    window_passes: int = 0


@dataclass
class ExitPoint:
    """One iteration: how far training has come and the held-out results."""

    iteration: int
    games: int
    samples: int
    minutes: float
    policy_loss: float
    value_loss: float
    policy_won: int
    policy_decided: int
    search_won: int = 0
    search_decided: int = 0

    @property
    def policy_share(self) -> float:
        """The policy's share of decided pairs against greedy."""
        return self.policy_won / self.policy_decided if self.policy_decided else 0.0


@dataclass
class ExitProgress:
    """``progress.json``: iterations so far and the curve."""

    seed: int
    iterations: int = 0
    games: int = 0
    minutes: float = 0.0
    curve: list[ExitPoint] = field(default_factory=list)

    def to_json(self) -> str:
        """The file's text."""
        return json.dumps({"method": "exit", **asdict(self)}, indent=2)

    @classmethod
    def read(cls, path: Path) -> ExitProgress:
        """Read ``progress.json`` (of an expert-iteration run)."""
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.pop("method", None) != "exit":
            raise BadOptions(f"{path} is not an expert-iteration run (--method exit)")
        curve = [ExitPoint(**p) for p in data.pop("curve")]
        return cls(curve=curve, **data)


class Batch(NamedTuple):
    """Training samples as tensors (rows: decisions; columns: legal moves)."""

    obs: torch.Tensor
    ids: torch.Tensor
    context: torch.Tensor
    shares: torch.Tensor
    value: torch.Tensor

    def pick(self, rows: torch.Tensor) -> Batch:
        """These rows."""
        return Batch(*(t[rows] for t in self))


class _Window:
    """The last ``size`` samples, as arrays ready for batches."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.parts: list[Samples] = []

    def add(self, samples: Samples) -> None:
        self.parts.append(samples)
        while sum(len(p) for p in self.parts[1:]) >= self.size:
            self.parts.pop(0)

    def save(self, path: Path) -> None:
        """Write the window as one part (``np.savez_compressed``: no pickled objects,
        and the padding of the move columns compresses away)."""
        batch = self.arrays()
        visits = [v for p in self.parts for v in p.visits]
        counts = np.zeros(tuple(batch.ids.shape), dtype=np.int64)
        for row, row_visits in enumerate(visits):
            counts[row, : len(row_visits)] = row_visits
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                obs=batch.obs.numpy(),
                ids=batch.ids.numpy(),
                context=batch.context.numpy(),
                visits=counts,
                value=batch.value.numpy(),
            )

    def load(self, path: Path) -> None:
        """Read a window :meth:`save` wrote (its samples become one part)."""
        with np.load(path, allow_pickle=False) as data:
            ids, visits, context = data["ids"], data["visits"], data["context"]
            widths = (ids >= 0).sum(axis=1)
            legal = [tuple(int(a) for a in row[:w]) for row, w in zip(ids, widths, strict=True)]
            self.parts = [
                Samples(
                    data["obs"].astype(np.float32),
                    legal,
                    [
                        tuple(tuple(float(x) for x in c) for c in row[:w])
                        for row, w in zip(context, widths, strict=True)
                    ],
                    [tuple(int(v) for v in row[:w]) for row, w in zip(visits, widths, strict=True)],
                    data["value"].astype(np.float32),
                    0,
                )
            ]

    def arrays(self) -> Batch:
        """Observations, legal ids (−1 padded), their move context (0 padded), visit
        shares (0 padded), values."""
        legal = [m for p in self.parts for m in p.legal]
        visits = [v for p in self.parts for v in p.visits]
        contexts = [c for p in self.parts for c in p.context]
        width = max(len(m) for m in legal)
        ids = np.full((len(legal), width), -1, dtype=np.int64)
        context = np.zeros((len(legal), width, CONTEXT_FEATURES), dtype=np.float32)
        shares = np.zeros((len(legal), width), dtype=np.float32)
        for row, (moves, counts, numbers) in enumerate(zip(legal, visits, contexts, strict=True)):
            ids[row, : len(moves)] = moves
            context[row, : len(moves)] = numbers
            total = sum(counts)
            shares[row, : len(counts)] = [c / total for c in counts]
        obs = np.concatenate([p.obs for p in self.parts])
        value = np.concatenate([p.value for p in self.parts])
        return Batch(
            torch.from_numpy(obs),
            torch.from_numpy(ids),
            torch.from_numpy(context),
            torch.from_numpy(shares),
            torch.from_numpy(value),
        )


class ExitTrainer:
    """One expert-iteration run (or its continuation): the module docstring."""

    def __init__(
        self,
        config: ExitConfig,
        out: Path,
        *,
        resume: bool = False,
        runner: Runner[Any, Any] | None = None,
        on_progress: Callable[[str, ExitProgress], None] | None = None,
    ) -> None:
        if config.minutes <= 0:
            raise BadOptions(f"--minutes must be positive, got {config.minutes}")
        if config.iterations is not None and config.iterations < 1:
            raise BadOptions(f"--iterations must be at least 1, got {config.iterations}")
        if config.games < 1 or config.simulations < 1 or config.eval_pairs < 1:
            raise BadOptions("--games, --simulations and --eval-pairs must be at least 1")
        self.config = config
        self.out = out
        self.runner: Runner[Any, Any] = runner or _inline
        self.on_progress = on_progress or (lambda _stage, _progress: None)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        if self.device.type == "cpu":
            torch.set_num_threads(1)  # a shared machine: threads wait more than they work
        torch.manual_seed(config.seed)
        policy, trainer, progress = out / "policy.pt", out / "trainer.pt", out / "progress.json"
        if resume:
            if not (policy.is_file() and trainer.is_file() and progress.is_file()):
                raise BadOptions(f"nothing to resume in {out}: no policy.pt, trainer.pt, progress")
            self.progress = ExitProgress.read(progress)
            net, meta = load_checkpoint(policy, "candidate")
            if not isinstance(net, PolicyValue):
                raise BadOptions(f"{policy} has no value head: not an expert-iteration run")
            self.net: PolicyValue = net
            self.hidden = tuple(meta["hidden"])
        else:
            if policy.exists() or progress.exists():
                raise BadOptions(f"{out} already holds a run: add --resume or pick another --out")
            self.progress = ExitProgress(config.seed)
            fresh = build_actor(
                "candidate", config.hidden, _OPTIONS, value=True, context=config.context
            )
            assert isinstance(fresh, PolicyValue)
            self.net = fresh
            self.hidden = config.hidden
        self.net.to(self.device)
        self.optimiser = torch.optim.Adam(
            self.net.parameters(), lr=config.learning_rate, weight_decay=1e-4
        )
        if resume:
            self.optimiser.load_state_dict(torch.load(trainer, weights_only=True))
        self.window = _Window(config.window)
        start = out if resume else config.samples_from
        if start is not None:
            if not (start / "window.npz").is_file():
                if not resume:
                    raise BadOptions(f"--samples-from {start}: no window.npz there")
            else:
                self.window.load(start / "window.npz")
        self.symmetry = SuitSymmetry() if config.rename_suits else None
        self._features = candidate_action_features(range(NUM_ACTIONS)).to(self.device)

    def run(self) -> ExitProgress:
        """Iterate until the minutes or the iterations are up (module docstring)."""
        self.out.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        before = self.progress.minutes
        deadline = started + self.config.minutes * 60.0
        done = 0
        if self.config.window_passes and self.window.parts:
            self.on_progress("train", self.progress)
            size = sum(len(p) for p in self.window.parts)
            self._train(size * self.config.window_passes // self.config.epochs)
        while self.config.iterations is None or done < self.config.iterations:
            iteration = self.progress.iterations
            samples = self._self_play(iteration, deadline)
            self.window.add(samples)
            self.on_progress("train", self.progress)
            policy_loss, value_loss = self._train(len(samples))
            self.progress.iterations += 1
            self.progress.games += samples.games
            self.progress.minutes = round(before + (time.monotonic() - started) / 60.0, 2)
            self.on_progress("evaluate", self.progress)
            point = self._evaluate(iteration + 1, policy_loss, value_loss)
            point.minutes = self.progress.minutes = round(
                before + (time.monotonic() - started) / 60.0, 2
            )
            self.progress.curve.append(point)
            self.save()
            self.on_progress("done", self.progress)
            done += 1
            if time.monotonic() >= deadline:
                break
        return self.progress

    def evaluator(self) -> Any:
        """The network as the search reads it (NumPy, picklable)."""
        self.net.cpu()
        evaluator = evaluator_of(self.net)
        self.net.to(self.device)
        return evaluator

    def _self_play(self, iteration: int, deadline: float) -> Samples:
        """The iteration's games; once the run's time is up, only those finished."""
        config = self.config
        # The first iterations (at least the first: no network yet) have plain ismcts
        # as the expert.
        distil = self.progress.iterations < max(1, config.ismcts_iterations)
        evaluator = None if distil else self.evaluator()
        seeds = [
            stable_seed("cardtable-exit", config.seed, iteration, g) for g in range(config.games)
        ]
        tasks = [
            SelfPlayTask(
                tuple(seeds[i : i + _GAMES_PER_TASK]),
                stable_seed("cardtable-exit-bot", config.seed, iteration, i),
                config.simulations * (1 if evaluator else ISMCTS_FACTOR),
                evaluator,
            )
            for i in range(0, len(seeds), _GAMES_PER_TASK)
        ]
        parts: list[Samples] = []
        results = iter(self.runner(self_play, tasks))
        for part in results:
            parts.append(part)
            self.on_progress("self-play", self.progress)
            if time.monotonic() >= deadline:
                close = getattr(results, "close", None)
                if close is not None:
                    close()  # stops the workers' pending games
                break
        return Samples(
            np.concatenate([p.obs for p in parts]),
            [m for p in parts for m in p.legal],
            [c for p in parts for c in p.context],
            [v for p in parts for v in p.visits],
            np.concatenate([p.value for p in parts]),
            sum(p.games for p in parts),
        )

    def _train(self, new: int) -> tuple[float, float]:
        """Batches of the window worth ``epochs`` passes over the ``new`` samples; the
        mean policy and value losses of the last pass."""
        config = self.config
        samples = self.window.arrays()
        steps = max(1, config.epochs * new // config.batch)
        generator = torch.Generator().manual_seed(
            stable_seed(config.seed, self.progress.iterations)
        )
        self.net.train()
        losses: list[tuple[float, float]] = []
        for _ in range(steps):
            pick = torch.randint(len(samples.obs), (config.batch,), generator=generator)
            batch = samples.pick(pick)
            if self.symmetry is not None:
                which = int(torch.randint(len(RENAMINGS), (1,), generator=generator))
                obs, ids = self.symmetry.rename(which, batch.obs, batch.ids)
                batch = batch._replace(obs=obs, ids=ids)
            policy_loss, value_loss = self._losses(batch)
            self.optimiser.zero_grad()
            (policy_loss + value_loss).backward()  # type: ignore[no-untyped-call]
            self.optimiser.step()
            losses.append((policy_loss.item(), value_loss.item()))
        self.net.eval()
        last = losses[-max(1, len(losses) // config.epochs) :]
        return (
            sum(p for p, _ in last) / len(last),
            sum(v for _, v in last) / len(last),
        )

    def _losses(self, batch: Batch) -> tuple[torch.Tensor, torch.Tensor]:
        obs, ids, context, shares, value = (t.to(self.device) for t in batch)
        weights, predicted = self.net.both(obs)
        legal = ids >= 0
        features = self._features[ids.clamp(min=0)]  # (batch, moves, 135)
        fixed = weights[:, : features.shape[-1]]
        logits = torch.einsum("bf,bkf->bk", fixed, features)
        if self.net.context:  # the head's last weights weigh the move context
            logits = logits + torch.einsum("bc,bkc->bk", weights[:, fixed.shape[1] :], context)
        logits = logits.masked_fill(~legal, -1e9)
        policy_loss = -(shares * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        value_loss = torch.mean((predicted - value) ** 2)
        return policy_loss, value_loss

    def _evaluate(self, iteration: int, policy_loss: float, value_loss: float) -> ExitPoint:
        config = self.config
        evaluator = self.evaluator()
        greedy = Player("greedy")
        won, decided = self._pairs(Player("policy", 0, evaluator), greedy)
        point = ExitPoint(
            iteration,
            self.progress.games,
            sum(len(p) for p in self.window.parts),
            0.0,
            round(policy_loss, 4),
            round(value_loss, 4),
            won,
            decided,
        )
        if config.eval_search:
            search = Player("alpha", config.eval_search, evaluator)
            point.search_won, point.search_decided = self._pairs(search, greedy)
        return point

    def _pairs(self, player: Player, opponent: Player) -> tuple[int, int]:
        """(pairs won, pairs decided) on the held-out deals."""
        config = self.config
        seeds = [
            stable_seed("cardtable-exit-eval", config.seed, p) for p in range(config.eval_pairs)
        ]
        tasks = [
            PairTask(tuple(seeds[i : i + _PAIRS_PER_TASK]), config.seed, player, opponent)
            for i in range(0, len(seeds), _PAIRS_PER_TASK)
        ]
        margins = [m for part in self.runner(play_pairs, tasks) for m in part]
        return sum(m > 0 for m in margins), sum(m != 0 for m in margins)

    def save(self) -> None:
        """Write the network, the optimiser, the sample window, the progress and the
        curve, each aside first and then moved in place (a run stopped while saving
        keeps the last checkpoint whole)."""
        self.net.cpu()
        policy = self.out / "policy.pt.tmp"
        save_checkpoint(
            policy,
            self.net,
            game="candidate",
            hidden=self.hidden,
            options=_OPTIONS,
            steps=self.progress.games,
        )
        self.net.to(self.device)
        trainer = self.out / "trainer.pt.tmp"
        torch.save(self.optimiser.state_dict(), trainer)
        window = self.out / "window.npz.tmp"
        self.window.save(window)
        progress = self.out / "progress.json.tmp"
        progress.write_text(self.progress.to_json() + "\n", encoding="utf-8")
        os.replace(policy, self.out / "policy.pt")
        os.replace(trainer, self.out / "trainer.pt")
        os.replace(window, self.out / "window.npz")
        os.replace(progress, self.out / "progress.json")
        plot_exit(self.progress, self.out / "curve.png")


def plot_exit(progress: ExitProgress, path: Path) -> None:
    """The curve as a PNG: share of decided held-out pairs against greedy, with 95 %
    Wilson intervals, for the policy alone (and the search, when measured)."""
    series = [("policy alone", "policy_won", "policy_decided")]
    if any(p.search_decided for p in progress.curve):
        series.append(("search with the network", "search_won", "search_decided"))

    def draw(ax: Any) -> None:
        for label, won_name, decided_name in series:
            points = [p for p in progress.curve if getattr(p, decided_name)]
            shares, low, high = [], [], []
            for p in points:
                won, decided = getattr(p, won_name), getattr(p, decided_name)
                a, b = wilson_interval(won, decided)
                shares.append(100 * won / decided)
                low.append(100 * (won / decided - a))
                high.append(100 * (b - won / decided))
            xs = [p.games for p in points]
            ax.errorbar(xs, shares, yerr=[low, high], marker="o", capsize=3, label=label)

    curve_png(
        path,
        "self-play games",
        "% of decided pairs won vs greedy",
        f"candidate: expert iteration, {progress.minutes:.0f} min",
        draw,
    )
