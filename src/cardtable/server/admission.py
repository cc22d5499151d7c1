"""Admission control: a busy process turns new work away and keeps serving its tables.

A process counts its *work in flight*: HTTP requests being answered and table messages
being handled (bots have their own bound: :mod:`.thinking` degrades them); and it
watches its event loop's *lag* (how late a 0.1 s timer wakes up — on a CPU-starved host
every request waits that long before it even starts). Past ``admission_in_flight`` units
of work, or with the loop ``admission_lag_seconds`` late, requests that *start*
something — a new table (``POST /api/tables``), a seat (``…/join``), a rematch
(``…/rematch``), a seek (``POST /api/seeks``) — are answered at once with 503,
``Retry-After`` and a JSON ``detail`` (code ``busy``, message id ``server.busy``), and counted
in ``cardtable_admission_rejections_total{kind}``. Moves, chat, hints, reads and
everything else about a table already played are always served: the people already
playing come first; newcomers are told to come back in a moment, not left to wait. A
proxy spreads the retry over the other processes.

Requests forwarded by another process (:mod:`.cluster`) were admitted there and pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardtable.server.metrics import Metrics
from cardtable.server.settings import Settings

__all__ = ["Admission", "kind_of"]

#: Seconds between two looks at the event loop's lag.
LAG_PERIOD = 0.1

#: Header of a request forwarded by another process of a cluster (admitted there).
_FORWARDED = "x-cardtable-forwarded"

_KINDS = (
    ("table", re.compile(r"^/api/tables/?$")),
    ("join", re.compile(r"^/api/tables/[^/]+/join$")),
    ("rematch", re.compile(r"^/api/tables/[^/]+/rematch$")),
    ("seek", re.compile(r"^/api/seeks/?$")),
)


def kind_of(method: str, path: str) -> str | None:
    """Which new work a request starts (None: it is not refused when busy).

    >>> kind_of("POST", "/api/tables"), kind_of("POST", "/api/tables/x/join")
    ('table', 'join')
    >>> kind_of("GET", "/api/tables"), kind_of("POST", "/api/tables/x/hint")
    (None, None)
    """
    if method != "POST":
        return None
    for kind, pattern in _KINDS:
        if pattern.match(path):
            return kind
    return None


class Admission:
    """One process's door (module docstring). ``others`` counts the work in flight
    that is not HTTP (table messages being handled)."""

    def __init__(
        self, settings: Settings, metrics: Metrics, others: Callable[[], int] = lambda: 0
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.others = others
        #: HTTP requests being answered now.
        self.requests = 0
        #: The event loop's lag, seconds (rises at once, falls gradually).
        self.lag = 0.0
        self._watch: asyncio.Task[None] | None = None
        metrics.in_flight.set_function(lambda: self.in_flight)

    @property
    def in_flight(self) -> int:
        """Work in flight now: HTTP requests and the rest."""
        return self.requests + self.others()

    def busy(self) -> str | None:
        """Why new work is turned away now, or None."""
        if self.in_flight >= self.settings.admission_in_flight:
            return f"{self.in_flight} requests and moves in progress"
        limit = self.settings.admission_lag_seconds
        if limit is not None and self.lag >= limit:
            return f"every request waits {self.lag:.2f} s for the processor"
        return None

    def refusal(self, kind: str) -> JSONResponse | None:
        """The 503 for new work of ``kind`` when busy (counted), else None."""
        reason = self.busy()
        if reason is None:
            return None
        self.metrics.admission_rejections.labels(kind).inc()
        self.metrics.refused("busy")
        retry = self.settings.admission_retry_seconds
        return JSONResponse(
            {
                "detail": {
                    "code": "busy",
                    "message": f"the server is busy ({reason}): try again in {retry} s",
                    "message_id": "server.busy",
                    "params": {"retry_after": retry},
                }
            },
            503,
            headers={"Retry-After": str(retry)},
        )

    async def middleware(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """HTTP middleware: count the request; turn new work away when busy."""
        if _FORWARDED not in request.headers:
            kind = kind_of(request.method, request.url.path)
            if kind is not None:
                refused = self.refusal(kind)
                if refused is not None:
                    return refused
        self.requests += 1
        try:
            return await call_next(request)
        finally:
            self.requests -= 1

    # ------------------------------------------------------------------- lag
    def start(self) -> None:
        """Start watching the event loop's lag."""
        self._watch = asyncio.get_running_loop().create_task(self._watch_lag())

    async def stop(self) -> None:
        """Stop watching."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch

    async def _watch_lag(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(LAG_PERIOD)
            self.note_lag(time.monotonic() - before - LAG_PERIOD)

    def note_lag(self, sample: float) -> None:
        """One look at the lag: a rise is taken at once, a fall a third at a time (one
        quick wake-up does not open the door while the loop is still behind)."""
        sample = max(0.0, sample)
        self.lag = sample if sample > self.lag else self.lag + (sample - self.lag) / 3
        self.metrics.loop_lag_seconds.set(self.lag)
