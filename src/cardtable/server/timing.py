"""The server's own time per move, measured inside the process (for benchmarks).

Off by default. With ``Settings.time_moves`` (or ``CARDTABLE_TIME_MOVES=1`` in the
server's environment) the WebSocket route times every ``move`` message from the moment
it is read off the socket to the moment the last message it caused (the answer, the
updates to every connection of the table) has been written to its socket — storing the
move included. ``GET /api/timing`` reports the figures. The clock is wall time: on a
busy machine it includes the CPU time the process waited for, which the load benchmark
reports beside it (``benchmarks/bench_server.py``).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Iterable

from pydantic import BaseModel

from cardtable.server.connection import Connection

__all__ = ["MoveTimes", "MoveTiming", "is_move"]

#: Seconds a move's messages may take to be written before it is left out (a reader
#: that stopped reading).
GIVE_UP_SECONDS = 30.0


class MoveTimes(BaseModel):
    """What ``GET /api/timing`` answers: milliseconds from a move in to its last send out."""

    moves: int
    unfinished: int
    p50_ms: float | None
    p99_ms: float | None
    max_ms: float | None


def is_move(raw: str | bytes | None) -> bool:
    """Whether a frame is a ``move`` message (only called while timing is on)."""
    try:
        message = json.loads(raw or b"")
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "move"


class MoveTiming:
    """The recorded times of one server process."""

    def __init__(self, limit: int = 1_000_000) -> None:
        self.limit = limit
        self.seconds: list[float] = []
        self.unfinished = 0
        self._tasks: set[asyncio.Task[None]] = set()

    def finish(self, start: float, connections: Iterable[Connection]) -> None:
        """The move read at ``start`` (``time.perf_counter``) has been handled: record
        its time once every message queued on ``connections`` so far is written."""
        waits = [w for w in (c.written(c.queued) for c in connections) if w is not None]
        if not waits:
            self._record(time.perf_counter() - start)
            return
        task = asyncio.get_running_loop().create_task(self._wait(start, waits))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _wait(self, start: float, waits: list[asyncio.Future[float]]) -> None:
        done, pending = await asyncio.wait(waits, timeout=GIVE_UP_SECONDS)
        if pending or any(w.cancelled() for w in done):
            self.unfinished += 1
            for wait in pending:
                wait.cancel()
            return
        self._record(max(w.result() for w in done) - start)

    def _record(self, seconds: float) -> None:
        if len(self.seconds) < self.limit:
            self.seconds.append(seconds)

    def report(self) -> MoveTimes:
        """The count, median, 99th percentile and maximum so far."""
        times = sorted(self.seconds)
        if not times:
            return MoveTimes(
                moves=0, unfinished=self.unfinished, p50_ms=None, p99_ms=None, max_ms=None
            )
        return MoveTimes(
            moves=len(times),
            unfinished=self.unfinished,
            p50_ms=round(1000 * statistics.median(times), 3),
            p99_ms=round(1000 * times[min(len(times) - 1, int(0.99 * len(times)))], 3),
            max_ms=round(1000 * times[-1], 3),
        )
