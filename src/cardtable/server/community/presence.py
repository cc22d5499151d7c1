"""Who is online, and at which tables: what a player's friends list shows.

An account is *online* while a page of theirs holds the per-account socket
(:class:`~.notices.PageChannel`) or they are connected to a seat of a table that is
not finished; their *tables* are the latter. One process knows this of its own
sockets and tables (a table's owner sees every connection of its seats, relayed ones
too). Several processes (``--redis``) publish what each knows in one Redis hash per
account (``presence:<account>``: a field per process, with the time it holds until),
written again every :attr:`Presence.every` seconds and at once when a socket of a
page opens or closes; a field past its time (a process that died) is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from cardtable.server.community.notices import PageChannel
from cardtable.server.runtime import Hub
from cardtable.server.shared import Shared
from cardtable.table import Status

__all__ = ["Presence"]

log = logging.getLogger("cardtable.server.community")


class Presence:
    """Online accounts and their tables, this process's and (with Redis) everyone's."""

    def __init__(
        self,
        hub: Hub,
        pages: PageChannel,
        shared: Shared | None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.hub = hub
        self.pages = pages
        self.shared = shared
        self.clock = clock
        #: Seconds between two publications; a field lives three times as long.
        self.every = 5.0
        self.me = hub.cluster.me if hub.cluster is not None else "local"
        self._published: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self._soon: asyncio.Task[None] | None = None
        pages.on_change.append(self.publish_soon)

    def local(self) -> dict[str, list[str]]:
        """The accounts online through this process, each with its tables."""
        found: dict[str, list[str]] = {account: [] for account in self.pages.sockets}
        for live in list(self.hub.tables.values()):
            table = live.table
            if table.status is Status.FINISHED or live.gone:
                continue
            for seat in table.seats:
                if seat.account is not None and seat.connected:
                    found.setdefault(seat.account, []).append(table.id)
        return found

    async def where(self, accounts: list[str]) -> dict[str, list[str] | None]:
        """For each account: ``None`` when offline, else its tables (maybe none)."""
        here = self.local()
        answer: dict[str, list[str] | None] = {a: here.get(a) for a in accounts}
        if self.shared is None or not accounts:
            return answer
        pipe = self.shared.redis.pipeline(transaction=False)
        for account in accounts:
            pipe.hgetall(self.shared.key("presence", account))
        now = self.clock()
        for account, fields in zip(accounts, await pipe.execute(), strict=True):
            for instance, text in fields.items():
                data = json.loads(text)
                if instance == self.me or data["until"] < now:
                    continue
                tables = answer.get(account) or []
                answer[account] = sorted({*tables, *data["tables"]})
        return answer

    # ------------------------------------------------------------- publishing
    def start(self) -> None:
        """Publish every :attr:`every` seconds (with Redis only)."""
        if self.shared is not None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Stop publishing and take this process's fields away."""
        for task in (self._task, self._soon):
            if task is not None:
                task.cancel()
        if self.shared is not None:
            with contextlib.suppress(Exception):
                await self._write({})

    def publish_soon(self) -> None:
        """Publish now (a page's socket opened or closed), in the background."""
        if self.shared is None:
            return
        with contextlib.suppress(RuntimeError):  # no loop: a process shutting down
            self._soon = asyncio.get_running_loop().create_task(self.publish())

    async def publish(self) -> None:
        """Write what this process knows (and remove what it no longer does)."""
        try:
            await self._write(self.local())
        except Exception:
            log.exception("cannot publish who is online")

    async def _write(self, online: dict[str, list[str]]) -> None:
        assert self.shared is not None
        until = self.clock() + 3 * self.every
        pipe = self.shared.redis.pipeline(transaction=False)
        for account, tables in online.items():
            key = self.shared.key("presence", account)
            pipe.hset(key, self.me, json.dumps({"until": until, "tables": tables}))
            pipe.expire(key, round(3 * self.every) + 1)
        for account in self._published - set(online):
            pipe.hdel(self.shared.key("presence", account), self.me)
        await pipe.execute()
        self._published = set(online)

    async def _loop(self) -> None:
        while True:
            await self.publish()
            await asyncio.sleep(self.every)


def describe(tables: list[str] | None) -> dict[str, Any]:
    """What a friends list says of one account's presence."""
    return {"online": tables is not None, "tables": tables or []}
