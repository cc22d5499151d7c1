"""Playing one scheduled game: the arena's unit of work.

:func:`play_job` is a pure function of the arena configuration and the job (all
randomness comes from their seeds), so any backend — this process, a process pool, a
Ray cluster — gives the same :class:`~cardtable.arena.work.GameResult` for the same job.

The drivers (one per game, in :data:`DRIVERS`) are imported by name on first use; they
build on :mod:`cardtable.arena.work`, never on this module, so the dispatch closes no
import cycle.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import cast

from cardtable.arena.schedule import Job
from cardtable.arena.work import ArenaConfig, GameResult

__all__ = ["DRIVERS", "play_job", "play_jobs"]


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
