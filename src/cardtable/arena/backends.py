"""Where arena games run: this process, local worker processes, or a Ray cluster.

A backend takes the configuration and the jobs and yields results as they finish,
in any order; the tournament sorts them by job index, so the order never changes a
figure. Jobs travel in small chunks to keep the transport cost low while progress
stays smooth.

Ctrl-C: worker processes ignore SIGINT, so only the main process sees it; the
backend's generator is closed, pending work is cancelled and the caller reports
what finished.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from typing import Any

from cardtable.arena.play import play_jobs
from cardtable.arena.schedule import Job
from cardtable.arena.work import ArenaConfig, GameResult
from cardtable.errors import BadOptions

__all__ = ["BACKENDS", "chunked", "default_workers", "ray_available", "run_jobs"]

BACKENDS = ("local", "ray")


def default_workers() -> int:
    """One worker per available core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def chunked(jobs: list[Job], workers: int, target: int = 8) -> list[list[Job]]:
    """Jobs in chunks of at most ``target``, and small enough to spread over the
    workers (at least four chunks per worker when there are enough jobs).

    >>> [len(c) for c in chunked([None] * 10, workers=2, target=3)]  # type: ignore[list-item]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    size = max(1, min(target, len(jobs) // max(1, 4 * workers)))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_inline(config: ArenaConfig, jobs: list[Job]) -> Iterator[GameResult]:
    for chunk in chunked(jobs, 1, target=1):
        yield from play_jobs(config, chunk)


def _play_chunk(task: tuple[ArenaConfig, list[Job]]) -> list[GameResult]:
    return play_jobs(*task)


def _run_processes(config: ArenaConfig, jobs: list[Job], workers: int) -> Iterator[GameResult]:
    # A multiprocessing pool (not concurrent.futures) so that an interrupted arena can
    # terminate its workers at once instead of waiting for their current games.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers, initializer=_ignore_sigint)
    try:
        tasks = [(config, chunk) for chunk in chunked(jobs, workers)]
        for results in pool.imap_unordered(_play_chunk, tasks):
            yield from results
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def ray_available() -> bool:
    """Whether the optional Ray backend can be used (``pip install cardtable[ray]``)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_ray(
    config: ArenaConfig, jobs: list[Job], workers: int, address: str | None
) -> Iterator[GameResult]:
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        ray.init(
            address=address,
            num_cpus=None if address else workers,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    remote_play: Any = ray.remote(play_jobs)
    config_ref = ray.put(config)
    pending = [remote_play.remote(config_ref, chunk) for chunk in chunked(jobs, workers)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield from ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()


def run_jobs(
    config: ArenaConfig,
    jobs: list[Job],
    *,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> Iterator[GameResult]:
    """Play ``jobs`` on ``backend`` with ``workers`` processes; yield results as they end.

    ``local`` with one worker plays in this process (no start-up cost, easy to
    profile); ``ray`` connects to ``address`` (a running cluster) or starts a local one.
    """
    if workers < 1:
        raise BadOptions(f"--workers must be at least 1, got {workers}")
    if backend == "local":
        if workers == 1:
            return _run_inline(config, jobs)
        return _run_processes(config, jobs, workers)
    if backend == "ray":
        if not ray_available():
            raise BadOptions(
                "the ray backend needs Ray: pip install 'cardtable[ray]' (or use --backend local)"
            )
        return _run_ray(config, jobs, workers, address)
    raise BadOptions(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
