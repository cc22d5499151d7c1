"""Playing one scheduled game: the arena's unit of work.

:func:`play_job` is a pure function of the arena configuration and the job (all
randomness comes from their seeds), so any backend — this process, a process pool, a
Ray cluster — gives the same :class:`GameResult` for the same job.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from cardtable.arena.schedule import Job
from cardtable.bots.registry import BotSpec

__all__ = ["DRIVERS", "ArenaConfig", "GameResult", "play_job", "play_jobs", "ranks_of"]


@dataclass(frozen=True)
class ArenaConfig:
    """Everything a worker needs besides the job: game, bots, seed and rule options."""

    game: str
    bots: tuple[BotSpec, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        """Distinct report names of the bots (a repeated spec gets ``#2``, ``#3`` …)."""
        seen: dict[str, int] = {}
        labels = []
        for spec in self.bots:
            seen[spec.label] = seen.get(spec.label, 0) + 1
            count = seen[spec.label]
            labels.append(spec.label if count == 1 else f"{spec.label}#{count}")
        return labels


@dataclass(frozen=True)
class GameResult:
    """The outcome of one job, seat by seat.

    ``scores`` are the game's own scores (Candidate: points, higher better; Spy: the
    round score S14, lower better); ``ranks`` put them in order, 1 best, equal ranks
    tie. ``metrics`` holds per-seat measurements (e.g. Spy ``moves`` to the call) and
    ``facts`` game-level ones (e.g. the dealer seat, a blocked round).
    """

    index: int
    deal: int
    group: int
    seats: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    metrics: tuple[Mapping[str, float], ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (for saved arena runs)."""
        return {
            "index": self.index,
            "deal": self.deal,
            "group": self.group,
            "seats": list(self.seats),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "metrics": [dict(m) for m in self.metrics],
            "facts": dict(self.facts),
        }


def ranks_of(scores: tuple[float, ...], higher_is_better: bool) -> tuple[int, ...]:
    """Competition ranks (1 best; ties share the better rank).

    >>> ranks_of((5.0, 9.0, 5.0), higher_is_better=True)
    (2, 1, 2)
    >>> ranks_of((-20.0, 20.0, 20.0), higher_is_better=False)
    (1, 2, 2)
    """
    sign = -1 if higher_is_better else 1
    keys = [sign * s for s in scores]
    return tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)


Driver = Callable[[ArenaConfig, Job], GameResult]

#: ``module:function`` of each game's driver, imported on first use.
DRIVERS: dict[str, str] = {
    "candidate": "cardtable.arena.candidate_games:play_candidate",
    "spy": "cardtable.arena.spy_races:play_spy",
}


def _driver(game: str) -> Driver:
    module_name, _, name = DRIVERS[game].partition(":")
    return cast(Driver, getattr(importlib.import_module(module_name), name))


def play_job(config: ArenaConfig, job: Job) -> GameResult:
    """Play one job to the end and time it."""
    start = time.perf_counter()
    result = _driver(config.game)(config, job)
    return GameResult(
        result.index,
        result.deal,
        result.group,
        result.seats,
        result.scores,
        result.ranks,
        result.metrics,
        result.facts,
        time.perf_counter() - start,
    )


def play_jobs(config: ArenaConfig, jobs: list[Job]) -> list[GameResult]:
    """Play a chunk of jobs in order (a worker's unit of transport)."""
    return [play_job(config, job) for job in jobs]
