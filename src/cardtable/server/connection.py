"""One client's WebSocket as the runtime keeps it: a send queue and a rate limit.

Each connection has a bounded send queue drained by its own task, so a reader too slow
to keep up is disconnected instead of slowing the table or the other connections, and a
token bucket that refuses (and, far beyond it, closes) a connection sending too much.
What the connection may see is its :class:`~.core.Peer` (greeted yet, which seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol

from cardtable.server.core import Peer
from cardtable.server.protocol import ServerMessage
from cardtable.server.settings import Settings

__all__ = ["Connection", "Socket"]


class Socket(Protocol):
    """The part of a WebSocket the runtime uses (Starlette's fits)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Connection:
    """One client's WebSocket: its peer, send queue and rate limit."""

    def __init__(self, socket: Socket, settings: Settings) -> None:
        self.socket = socket
        self.peer = Peer()
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=settings.send_queue)
        self._rate = settings.rate_per_second
        self._burst = settings.rate_burst
        self._tokens = settings.rate_burst
        self._stamp = time.monotonic()
        self._warned = False
        #: Messages queued and written so far (the move timing waits on them).
        self.queued = 0
        self.sent = 0
        self._waiters: list[tuple[int, asyncio.Future[float]]] = []
        self._sender = asyncio.create_task(self._send_loop())

    def allow(self) -> bool:
        """Token bucket: may this connection send one more message now?"""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            self._warned = False
            return True
        self._tokens -= 0.1  # keep hammering and wait longer
        return False

    def warn_once(self) -> bool:
        """True for the first message refused since the connection was last within its
        rate: a flood is told ``rate_limited`` once, not once per message (which would
        fill its send queue and close it as a slow reader instead of with 1008)."""
        if self._warned:
            return False
        self._warned = True
        return True

    @property
    def abusive(self) -> bool:
        """Far over its rate: the connection is closed."""
        return self._tokens < -self._burst

    def send(self, message: ServerMessage | str) -> None:
        """Queue a message (or its JSON text); a reader too slow to keep up is disconnected."""
        if self.closed:
            return
        text = message if isinstance(message, str) else message.model_dump_json()
        try:
            self._queue.put_nowait(text)
            self.queued += 1
        except asyncio.QueueFull:
            self.closed = True
            self._sender.cancel()
            asyncio.get_running_loop().create_task(self._close(1013, "too slow to keep up"))

    async def _send_loop(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            try:
                await self.socket.send_text(text)
            except Exception:
                self.closed = True
                return
            self.sent += 1
            if self._waiters:
                self._wake()

    def written(self, count: int) -> asyncio.Future[float] | None:
        """None when ``count`` messages have been written (or never will be: closed),
        else a future of the ``time.perf_counter`` at which they are."""
        if self.sent >= count or self.closed:
            return None
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiters.append((count, waiter))
        return waiter

    def _wake(self) -> None:
        now = time.perf_counter()
        waiting = []
        for count, waiter in self._waiters:
            if waiter.done():
                continue
            if count <= self.sent:
                waiter.set_result(now)
            else:
                waiting.append((count, waiter))
        self._waiters = waiting

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.socket.close(code=code, reason=reason)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Flush what is queued, then close."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, 2)
            await self._close(code, reason)
        self._sender.cancel()
