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

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any

from cardtable.arena.play import play_jobs
from cardtable.arena.raycluster import RayPlace, local_cluster, loopback_driver
from cardtable.arena.schedule import Job
from cardtable.arena.work import ArenaConfig, GameResult
from cardtable.errors import BadOptions

__all__ = [
    "BACKENDS",
    "RayPlace",
    "chunked",
    "default_workers",
    "ray_available",
    "ray_init_kwargs",
    "run_jobs",
]

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
    import importlib.util

    # Found, not imported: Ray reads its settings when first imported (see _run_ray).
    return importlib.util.find_spec("ray") is not None


def _run_ray(
    config: ArenaConfig, jobs: list[Job], workers: int, place: RayPlace
) -> Iterator[GameResult]:
    imported = sys.modules.get("ray")
    if imported is not None and imported.is_initialized():  # the caller's own connection
        yield from _play_on_ray(config, jobs, workers)
        return
    with contextlib.ExitStack() as stack:
        address = place.address
        if address is None:
            address = stack.enter_context(local_cluster(place, workers))
        loopback_driver(address)
        import ray  # after loopback_driver: Ray reads its mode when first imported

        ray.init(**ray_init_kwargs(address))
        stack.callback(ray.shutdown)
        yield from _play_on_ray(config, jobs, workers)


def ray_init_kwargs(address: str) -> dict[str, Any]:
    """What ``ray.init`` is given: always a cluster's address (a running one, or the
    local one :func:`.raycluster.local_cluster` started), never a cluster to start.

    >>> ray_init_kwargs("127.0.0.1:6380")
    {'address': '127.0.0.1:6380', 'log_to_driver': False, 'configure_logging': False}
    """
    return {"address": address, "log_to_driver": False, "configure_logging": False}


def _play_on_ray(config: ArenaConfig, jobs: list[Job], workers: int) -> Iterator[GameResult]:
    import ray

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


def run_jobs(
    config: ArenaConfig,
    jobs: list[Job],
    *,
    backend: str = "local",
    workers: int = 1,
    ray_place: RayPlace | None = None,
) -> Iterator[GameResult]:
    """Play ``jobs`` on ``backend`` with ``workers`` processes; yield results as they end.

    ``local`` with one worker plays in this process (no start-up cost, easy to
    profile); ``ray`` joins a running cluster (``ray_place.address``) or starts a local
    one on loopback (:mod:`.raycluster`: ``ray_place.host`` and ``ray_place.port``).
    """
    place = ray_place or RayPlace()
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
        place.check(workers)
        return _run_ray(config, jobs, workers, place)
    raise BadOptions(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
