"""The messages between the processes of a group, on Redis pub/sub.

:class:`Bus` is the part of :class:`~.node.Cluster` that every other part uses: the
names of keys and channels, one publisher sending queued messages in order (many per
round trip), one subscriber handing each message to :meth:`Bus._dispatch`. A message is
``<op> <id> <payload>`` in one text; channels start with ``redis_prefix``:
``i:<instance>`` for one process, ``all`` for every one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

from redis.asyncio import Redis

from cardtable.server.ownership import Tables

__all__ = ["Bus"]

log = logging.getLogger("cardtable.server.cluster")


class Bus:
    """Names, publishing and listening; the state is set by :class:`~.node.Cluster`."""

    hub: Tables
    prefix: str
    me: str
    every: float
    draining: bool
    redis: Redis | None
    _outbox: asyncio.Queue[tuple[str, str]]
    _spawned: set[asyncio.Task[Any]]

    # ------------------------------------------------------------------ names
    def key(self, *parts: str) -> str:
        """A Redis key or channel of this group."""
        return self.prefix + ":".join(parts)

    def channel(self, instance: str) -> str:
        """The channel of one process."""
        return self.key("i", instance)

    async def _flush(self) -> None:
        """Wait until every queued message is published."""
        while not self._outbox.empty():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the last batch's round trip

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # ------------------------------------------------------------- messaging
    def send(self, instance: str, op: str, ident: str, payload: str) -> None:
        """Queue a message to one process (sent in order by one publisher)."""
        self._outbox.put_nowait((self.channel(instance), f"{op} {ident} {payload}"))

    def announce(self, op: str, table_id: str) -> None:
        """Tell every process about a table: ``own`` (this process owns it now) or
        ``free`` (it is released: claim it)."""
        self._outbox.put_nowait((self.key("all"), f"{op} {table_id} {self.me}"))

    async def _publish(self) -> None:
        """Publish queued messages in order, many per round trip."""
        assert self.redis is not None
        while True:
            first = await self._outbox.get()
            batch = [first]
            while len(batch) < 512 and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, text in batch:
                    pipe.publish(channel, text)
                await pipe.execute()
            except Exception:
                log.exception("cannot publish %d messages", len(batch))
                await asyncio.sleep(0.2)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the Redis subscription; subscribing again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel(self.me), self.key("all"))

    def _dispatch(self, data: str) -> None:
        """Act on one message (:class:`~.node.Cluster`)."""
        raise NotImplementedError

    async def locate(self, table_id: str, *, any_age: bool = False) -> str | None:
        """The owner of ``table_id`` (:class:`~.node.Cluster`)."""
        raise NotImplementedError
