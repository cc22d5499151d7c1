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
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

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
    "map_tasks",
    "ray_available",
    "ray_init_kwargs",
    "run_jobs",
]

BACKENDS = ("local", "ray")

T = TypeVar("T")
R = TypeVar("R")


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


def _run_processes(function: Callable[[T], R], tasks: list[T], workers: int) -> Iterator[R]:
    # A multiprocessing pool (not concurrent.futures) so that an interrupted arena can
    # terminate its workers at once instead of waiting for their current games.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers, initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(function, tasks)
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
    function: Callable[[T], R], tasks: list[T], workers: int, place: RayPlace
) -> Iterator[R]:
    imported = sys.modules.get("ray")
    if imported is not None and imported.is_initialized():  # the caller's own connection
        yield from _map_on_ray(function, tasks)
        return
    with contextlib.ExitStack() as stack:
        address = place.address
        if address is None:
            address = stack.enter_context(local_cluster(place, workers))
        loopback_driver(address)
        import ray  # after loopback_driver: Ray reads its mode when first imported

        ray.init(**ray_init_kwargs(address))
        stack.callback(ray.shutdown)
        yield from _map_on_ray(function, tasks)


def ray_init_kwargs(address: str) -> dict[str, Any]:
    """What ``ray.init`` is given: always a cluster's address (a running one, or the
    local one :func:`.raycluster.local_cluster` started), never a cluster to start.

    >>> ray_init_kwargs("127.0.0.1:6380")
    {'address': '127.0.0.1:6380', 'log_to_driver': False, 'configure_logging': False}
    """
    return {"address": address, "log_to_driver": False, "configure_logging": False}


def _map_on_ray(function: Callable[[T], R], tasks: list[T]) -> Iterator[R]:
    import ray

    remote: Any = ray.remote(function)
    pending = [remote.remote(task) for task in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def map_tasks(
    function: Callable[[T], R],
    tasks: list[T],
    *,
    backend: str = "local",
    workers: int = 1,
    ray_place: RayPlace | None = None,
) -> Iterator[R]:
    """``function`` applied to every task on ``backend`` with ``workers`` processes; the
    results come as they finish, in any order. ``function`` must be a module-level
    function and the tasks picklable (they travel to worker processes or Ray).

    ``local`` with one worker runs in this process (no start-up cost, easy to profile);
    ``ray`` joins a running cluster (``ray_place.address``) or starts a local one on
    loopback (:mod:`.raycluster`: ``ray_place.host`` and ``ray_place.port``). Arena
    games go through it (:func:`run_jobs`), and so does any other batch of work that
    should scale past one machine the same way (self-play for training).
    """
    place = ray_place or RayPlace()
    if workers < 1:
        raise BadOptions(f"--workers must be at least 1, got {workers}")
    if backend == "local":
        if workers == 1:
            return map(function, tasks)
        return _run_processes(function, tasks, workers)
    if backend == "ray":
        if not ray_available():
            raise BadOptions(
                "the ray backend needs Ray: pip install 'cardtable[ray]' (or use --backend local)"
            )
        place.check(workers)
        return _run_ray(function, tasks, workers, place)
    raise BadOptions(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")


def run_jobs(
    config: ArenaConfig,
    jobs: list[Job],
    *,
    backend: str = "local",
    workers: int = 1,
    ray_place: RayPlace | None = None,
) -> Iterator[GameResult]:
    """Play ``jobs`` on ``backend`` with ``workers`` processes (:func:`map_tasks`);
    yield results as they end. Jobs travel in chunks; in this process, one at a time."""
    if backend == "local" and workers == 1:
        return _run_inline(config, jobs)
    chunks = [(config, chunk) for chunk in chunked(jobs, workers)]
    done = map_tasks(_play_chunk, chunks, backend=backend, workers=workers, ray_place=ray_place)
    return (result for results in done for result in results)
