"""Analysis of finished games on the server: the work behind the analysis board.

``POST /api/games/{id}/analysis`` starts the analysis of a finished game
(:func:`cardtable.bots.review.analyse_record` on its record) and ``GET`` polls it: the
moves analysed so far, then the result. Once done the result is stored with the game
(``analyses``), so every later request is served from storage and nothing is worked
out twice.

The analysis must never slow a live table, so it runs

- on an executor of its own (``analysis_workers`` worker processes, spawned, at a lower
  CPU priority — ``nice`` 10 — or threads when the bots think in threads), never on the
  bots' or the hints' executor;
- at most ``analysis_waiting`` at a time on the whole server (queued or running; more:
  503 with Retry-After), at most one per player (409), and within token buckets
  (:func:`~.limits.token_buckets`): per account, or per address for a guest (429 with
  Retry-After).

With several processes (``serve --redis``) the buckets live in Redis, so a player's
allowance is the same whichever process the proxy sends them to, and so does the "one
per player": a lock per requester in Redis (:meth:`.Shared.hold`), held while the
analysis runs (its lease renewed, so a crashed process frees it within
:data:`HOLD_SECONDS`). The bound of ``analysis_waiting`` stays per process: it guards
the process's own CPU and workers.

Progress comes back from the workers on a queue given to every worker when it starts:
``(table id, moves done, moves in all)`` after each analysed move. At shutdown an event
tells every running analysis to stop at its next move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from cardtable.bots.review import ReviewBudget, analyse_record
from cardtable.server.limits import TokenBuckets, token_buckets
from cardtable.server.models import AnalysisRow
from cardtable.server.settings import Settings
from cardtable.server.shared import Shared
from cardtable.server.storage import Storage

__all__ = ["AnalysisJob", "AnalysisRunner", "load_analysis"]

log = logging.getLogger("cardtable.server")

#: CPU priority an analysis worker process lowers itself by (``os.nice``).
NICENESS = 10

#: Lease (seconds) of a requester's hold in Redis, renewed every third of it while the
#: analysis runs: a process that dies mid-analysis frees its player this long after.
HOLD_SECONDS = 60.0

# A worker's channels back to the server, set by :func:`_start_worker`.
_progress: Any = None
_stop: Any = None


class AnalysisStopped(Exception):
    """The server is stopping: the analysis gives up at its next move."""


def _start_worker(progress: Any, stop: Any, lower: bool) -> None:
    """A worker's first act: keep the channels, and (a process) lower its priority."""
    global _progress, _stop
    _progress, _stop = progress, stop
    if lower:
        with contextlib.suppress(OSError):
            os.nice(NICENESS)


def _analyse(
    table_id: str, game: str, record: Mapping[str, Any], budget: ReviewBudget
) -> tuple[dict[str, Any], float]:
    """In a worker: the analysis of one record and the seconds it took."""
    started = time.monotonic()

    def report(done: int, total: int) -> None:
        if _stop is not None and _stop.is_set():
            raise AnalysisStopped
        if _progress is not None:
            _progress.put((table_id, done, total))

    result = analyse_record(game, record, budget, report)
    return result, time.monotonic() - started


@dataclass
class AnalysisJob:
    """An analysis under way (or failed) for one game, asked for by ``requester``."""

    table_id: str
    game: str
    requester: str
    total: int
    done: int = 0
    error: str | None = None
    started: float = field(default_factory=time.monotonic)

    @property
    def running(self) -> bool:
        return self.error is None

    def status(self) -> dict[str, Any]:
        """The answer of ``GET …/analysis`` while it runs (or after it failed)."""
        percent = 100 * self.done // self.total if self.total else 0
        return {
            "status": "running" if self.error is None else "failed",
            "done": self.done,
            "total": self.total,
            "percent": percent,
            "error": self.error,
            "result": None,
        }


def stored_status(row: Mapping[str, Any]) -> dict[str, Any]:
    """The answer of ``GET …/analysis`` for a stored analysis."""
    result = row["result"]
    moves = _moves(result)
    return {
        "status": "done",
        "done": moves,
        "total": moves,
        "percent": 100,
        "error": None,
        "seconds": round(row["seconds"], 2),
        "result": result,
    }


def _moves(result: Mapping[str, Any]) -> int:
    if "decisions" in result:
        return len(result["decisions"])
    return sum(len(race["moves"]) for race in result.get("races", []))


def _hold_name(requester: str) -> str:
    """The name of a requester's hold in Redis (:meth:`.Shared.hold`)."""
    return f"analysis:{requester}"


def load_analysis(table_id: str) -> Callable[[Session], dict[str, Any] | None]:
    """A read of the stored analysis of a table, or ``None``."""

    def run(session: Session) -> dict[str, Any] | None:
        row = session.get(AnalysisRow, table_id)
        if row is None:
            return None
        return {"result": row.result, "seconds": row.seconds, "budget": row.budget}

    return run


def _store(
    table_id: str, game: str, budget: ReviewBudget, result: dict[str, Any], seconds: float
) -> Callable[[Session], None]:
    def run(session: Session) -> None:
        session.merge(
            AnalysisRow(
                table_id=table_id,
                game=game,
                budget=budget.to_dict(),
                result=result,
                seconds=seconds,
                created_at=datetime.now(UTC),
            )
        )

    return run


class AnalysisRunner:
    """The analyses of a server: its executor, the jobs under way, the limits."""

    def __init__(self, settings: Settings, storage: Storage, shared: Shared | None = None) -> None:
        self.settings = settings
        self.storage = storage
        self.shared = shared
        self.processes = settings.bot_processes > 0
        # The workers and their channels are made with the first analysis: most servers
        # (and every test server) never analyse, and a process queue holds semaphores.
        self._queue: Any = None
        self._stop: Any = None
        self._executor_made: Executor | None = None
        #: Jobs by table id: running, or failed (a new request starts it again).
        self.jobs: dict[str, AnalysisJob] = {}
        self.per_account: TokenBuckets = token_buckets(
            shared,
            "analysis-account",
            burst=settings.analysis_burst,
            seconds=settings.analysis_seconds,
        )
        self.per_guest: TokenBuckets = token_buckets(
            shared,
            "analysis-guest",
            burst=settings.analysis_guest_burst,
            seconds=settings.analysis_guest_seconds,
        )
        #: Requesters with an analysis claimed or running here → their hold's token in
        #: Redis ("" without Redis).
        self._holds: dict[str, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def executor(self) -> Executor:
        """The analyses' executor (made on first use, with the progress channels)."""
        if self._executor_made is None:
            if self.processes:
                context = multiprocessing.get_context("spawn")
                self._queue, self._stop = context.Queue(), context.Event()
            else:
                self._queue, self._stop = queue.SimpleQueue(), threading.Event()
            self._executor_made = self._executor()
        return self._executor_made

    def _executor(self) -> Executor:
        workers = max(1, self.settings.analysis_workers)
        args = (self._queue, self._stop, self.processes)
        if self.processes:
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(
                workers, mp_context=context, initializer=_start_worker, initargs=args
            )
        return ThreadPoolExecutor(
            workers, thread_name_prefix="analysis", initializer=_start_worker, initargs=args
        )

    # ---------------------------------------------------------------- progress
    def _drain(self) -> None:
        """Take every progress report that has arrived."""
        while self._queue is not None:
            try:
                table_id, done, total = self._queue.get_nowait()
            except queue.Empty:
                return
            job = self.jobs.get(table_id)
            if job is not None and job.running:
                job.done, job.total = max(job.done, done), total

    def job(self, table_id: str) -> AnalysisJob | None:
        """The job of a table, its progress brought up to date."""
        self._drain()
        return self.jobs.get(table_id)

    def running(self) -> list[AnalysisJob]:
        """The jobs queued or running now."""
        return [job for job in self.jobs.values() if job.running]

    async def claim(self, requester: str) -> bool:
        """Hold the requester's one analysis at a time: False when they have one
        claimed or running already — on this process, or (with Redis) on any."""
        if requester in self._holds:
            return False
        self._holds[requester] = ""  # taken here before Redis answers
        if self.shared is None:
            return True
        try:
            token = await self.shared.hold(_hold_name(requester), lease=HOLD_SECONDS)
        except BaseException:
            del self._holds[requester]
            raise
        if token is None:
            del self._holds[requester]
            return False
        self._holds[requester] = token
        return True

    async def release(self, requester: str) -> None:
        """Give up the requester's hold (their analysis ended, or was refused)."""
        token = self._holds.pop(requester, None)
        if token and self.shared is not None:
            await self.shared.release(_hold_name(requester), token)

    async def _keep(self, requester: str) -> None:
        """Renew the requester's hold in Redis while their analysis runs."""
        assert self.shared is not None
        while True:
            await asyncio.sleep(HOLD_SECONDS / 3)
            token = self._holds.get(requester)
            if not token:
                return
            with contextlib.suppress(Exception):  # Redis away a moment: the next try
                await self.shared.extend(_hold_name(requester), token, lease=HOLD_SECONDS)

    async def take(self, requester: str, signed_in: bool) -> int:
        """A token of the requester's bucket: 0, or the seconds to wait for one."""
        buckets = self.per_account if signed_in else self.per_guest
        return await buckets.acquire(requester)

    # -------------------------------------------------------------------- work
    def start(
        self, table_id: str, game: str, record: Mapping[str, Any], requester: str, total: int
    ) -> AnalysisJob:
        """Queue the analysis of ``record`` for ``requester``, who holds their claim
        (:meth:`claim`) until it ends (the other checks are the route's)."""
        job = AnalysisJob(table_id, game, requester, total)
        self.jobs[table_id] = job
        task = asyncio.get_running_loop().create_task(self._run(job, record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _run(self, job: AnalysisJob, record: Mapping[str, Any]) -> None:
        keep = None
        if self.shared is not None:
            keep = asyncio.get_running_loop().create_task(self._keep(job.requester))
        try:
            await self._analyse(job, record)
        finally:
            if keep is not None:
                keep.cancel()
            try:
                await self.release(job.requester)
            except Exception:  # its lease frees it soon anyway
                log.warning("could not release the analysis hold of %s", job.requester)

    async def _analyse(self, job: AnalysisJob, record: Mapping[str, Any]) -> None:
        budget = self.settings.analysis_budget
        loop = asyncio.get_running_loop()
        try:
            try:
                result, seconds = await loop.run_in_executor(
                    self.executor, _analyse, job.table_id, job.game, dict(record), budget
                )
            except BrokenExecutor:
                log.error("the analysis executor broke; starting a new one")
                self._executor_made = self._executor()
                raise
            await self.storage.awrite(_store(job.table_id, job.game, budget, result, seconds))
        except AnalysisStopped:
            job.error = "the server stopped"
        except Exception as exc:
            log.exception("analysis of table %s failed", job.table_id)
            job.error = f"the analysis failed: {type(exc).__name__}"
        else:
            log.info("analysed table %s in %.1f s", job.table_id, seconds)
            del self.jobs[job.table_id]  # stored: served from storage from now on

    async def shutdown(self) -> None:
        """Stop every analysis at its next move and the workers."""
        if self._executor_made is None:
            return
        self._stop.set()
        self._executor_made.shutdown(wait=False, cancel_futures=True)
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.processes:
            self._queue.close()
