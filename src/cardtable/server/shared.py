"""State shared by several server processes through Redis (``serve --redis URL``).

Without Redis one process holds everything in its memory; with it, the state that every
process must see alike — the "play now" queues (:mod:`.seeks`), the limits on logins and
hints (:mod:`.limits`) — lives in Redis, under one key prefix per site (a test or a
benchmark run takes its own prefix, so runs never meet; pub/sub channels ignore the
database number, the prefix does not).

:class:`Shared` is the one client of a process, its key prefix and a lock that holds
across processes (:meth:`Shared.locked`): a lease with a random token, so a process whose
lease ran out (a long pause, a crash) can neither release nor write under another's lock
(:meth:`Shared.guarded` scripts check the token before they write).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the redis package comes with the server extra
    from redis.asyncio import Redis
    from redis.commands.core import AsyncScript

__all__ = ["LockLost", "LockTimeout", "Shared", "open_shared"]

#: Releases a lock only while it is still the caller's (its token).
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""

#: Extends a lock's lease only while it is still the caller's (its token).
_EXTEND = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""


class LockTimeout(Exception):
    """Another process held a shared lock for longer than the caller would wait."""


class LockLost(Exception):
    """A write under a shared lock was refused: the lock's lease ran out meanwhile."""


class Shared:
    """A process's Redis client, its key prefix and its cross-process locks."""

    def __init__(self, redis: Redis, prefix: str = "cardtable:") -> None:
        self.redis = redis
        self.prefix = prefix
        self._release = redis.register_script(_RELEASE)
        self._extend = redis.register_script(_EXTEND)

    def key(self, *parts: str) -> str:
        """The full name of a key: the prefix, then ``parts`` joined by ``:``."""
        return self.prefix + ":".join(parts)

    def script(self, source: str) -> AsyncScript:
        """A Lua script run by its digest (loaded on first use)."""
        return self.redis.register_script(source)

    @contextlib.asynccontextmanager
    async def locked(
        self, name: str, *, lease: float = 15.0, wait: float = 10.0
    ) -> AsyncIterator[str]:
        """Hold the lock ``name`` across processes; yields the lock's token.

        The lease (seconds) bounds how long a crashed holder blocks the others; a write
        that must not happen after the lease ran out checks the token in its script
        (see :meth:`guarded`). Raises :class:`LockTimeout` after ``wait`` seconds.
        """
        deadline = time.monotonic() + wait
        pause = 0.002
        while (token := await self.hold(name, lease=lease)) is None:
            if time.monotonic() > deadline:
                raise LockTimeout(f"the shared lock {name!r} stayed taken for {wait:g} s")
            await asyncio.sleep(pause)
            pause = min(0.05, pause * 2)
        try:
            yield token
        finally:
            await self.release(name, token)

    async def hold(self, name: str, *, lease: float) -> str | None:
        """Take the lock ``name`` if nobody holds it, without waiting: its token, or
        ``None`` when another holds it. The lease (seconds) frees it after a crash;
        :meth:`extend` keeps it longer, :meth:`release` gives it up."""
        token = secrets.token_hex(16)
        taken = await self.redis.set(self.lock_key(name), token, nx=True, px=round(lease * 1000))
        return token if taken else None

    async def extend(self, name: str, token: str, *, lease: float) -> bool:
        """Give the lock ``name`` a new lease of ``lease`` seconds from now, if it is
        still the holder's (``token``); False when it ran out and was lost."""
        kept = await self._extend(keys=[self.lock_key(name)], args=[token, round(lease * 1000)])
        return bool(kept)

    async def release(self, name: str, token: str) -> None:
        """Give up the lock ``name`` if it is still the holder's (``token``): a holder
        whose lease ran out leaves the next holder's lock alone."""
        await self._release(keys=[self.lock_key(name)], args=[token])

    def lock_key(self, name: str) -> str:
        """The key of the lock ``name`` (for scripts that check its token)."""
        return self.key(name, "lock")

    async def close(self) -> None:
        """Close the client's connections."""
        await self.redis.aclose()


async def open_shared(url: str, prefix: str = "cardtable:") -> Shared:
    """A :class:`Shared` on the Redis at ``url`` (``redis://HOST:PORT/DB``), checked with a
    PING so a server that cannot reach Redis fails at start, not at the first request."""
    from redis.asyncio import Redis

    client = Redis.from_url(url, decode_responses=True, health_check_interval=30)
    try:
        await client.ping()
    except Exception:
        await client.aclose()
        raise
    return Shared(client, prefix)
