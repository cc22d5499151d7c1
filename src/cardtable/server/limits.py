"""Rate limits of the HTTP routes that cost the server work: token buckets by key.

A bucket holds up to ``burst`` tokens and regains one every ``seconds``; a request
takes one. An empty bucket refuses with the time until its next token (the
``Retry-After`` of a 429). Buckets are kept per key (a seat, an address) and the
full ones are forgotten, so the memory stays bounded by the keys recently active.

With several server processes (``serve --redis``) the buckets and the counts of failed
logins live in Redis instead (:class:`SharedBuckets`, :class:`SharedLoginLimits`), so a
client cannot multiply its allowance by the number of processes the proxy spreads it
over. Each is one Lua script, atomic in Redis, on Redis's own clock (the processes'
clocks never meet). The routes use the asynchronous face (:class:`TokenBuckets`,
:class:`LoginLimits`) that both kinds offer; :func:`token_buckets` picks the kind.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable
from typing import Protocol

from cardtable.server.accounts import LoginLimiter, name_key
from cardtable.server.shared import Shared

__all__ = [
    "Buckets",
    "LocalLoginLimits",
    "LoginLimits",
    "SharedBuckets",
    "SharedLoginLimits",
    "TokenBuckets",
    "token_buckets",
]


class TokenBuckets(Protocol):
    """Token buckets by key, as the routes use them."""

    async def acquire(self, key: str) -> int:
        """Take a token for ``key``: 0 when granted, else the whole seconds to wait."""
        ...


class LoginLimits(Protocol):
    """The limits on failed logins, as the login route uses them."""

    async def wait(self, name: str, address: str) -> float:
        """Seconds until a login for ``name`` from ``address`` may be tried (0: now)."""
        ...

    async def failed(self, name: str, address: str) -> None:
        """Count a failed login."""
        ...

    async def succeeded(self, name: str, address: str) -> None:
        """A correct password clears the failures of the name from that address."""
        ...


class Buckets:
    """Token buckets by key: ``burst`` tokens each, one regained every ``seconds``.

    >>> now = [0.0]
    >>> buckets = Buckets(burst=2, seconds=10.0, clock=lambda: now[0])
    >>> [buckets.take("a"), buckets.take("a"), buckets.take("a"), buckets.take("b")]
    [0, 0, 10, 0]
    >>> now[0] = 4.0
    >>> buckets.take("a")
    6
    """

    def __init__(
        self, *, burst: int, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.seconds = seconds
        self.clock = clock
        #: key → (tokens then, when)
        self._buckets: dict[str, tuple[float, float]] = {}

    async def acquire(self, key: str) -> int:
        """:meth:`take` for the routes (:class:`TokenBuckets`)."""
        return self.take(key)

    def take(self, key: str) -> int:
        """Take a token for ``key``: 0 when granted, else the whole seconds to wait."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) / self.seconds)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, now)
            self._forget_full(now)
            return 0
        self._buckets[key] = (tokens, now)
        return max(1, math.ceil((1 - tokens) * self.seconds))

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again (they hold nothing to remember)."""
        if len(self._buckets) < 1024:
            return
        full = self.burst * self.seconds
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full}


#: One token bucket (hash ``tokens``, ``when``) on Redis's clock; answers the seconds to
#: wait (0: granted). The key expires once the bucket would be full again.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local burst, per = tonumber(ARGV[1]), tonumber(ARGV[2])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'when')
local tokens = tonumber(saved[1]) or burst
local when = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - when) / per)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.max(1, math.ceil((1 - tokens) * per))
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens),
           'when', string.format('%.6f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * per * 1000) + 1000)
return wait
"""


class SharedBuckets:
    """:class:`Buckets` kept in Redis, one hash per key under ``name``."""

    def __init__(self, shared: Shared, name: str, *, burst: int, seconds: float) -> None:
        self.shared = shared
        self.name = name
        self.burst = burst
        self.seconds = seconds
        self._take = shared.script(_TAKE)

    async def acquire(self, key: str) -> int:
        """Take a token for ``key``: 0 when granted, else the whole seconds to wait."""
        wait = await self._take(
            keys=[self.shared.key("bucket", self.name, key)], args=[self.burst, self.seconds]
        )
        return int(wait)


def token_buckets(shared: Shared | None, name: str, *, burst: int, seconds: float) -> TokenBuckets:
    """The buckets ``name`` of a limit: in this process's memory (:class:`Buckets`), or
    with several processes (``shared``) in Redis (:class:`SharedBuckets`), the same
    buckets on every process."""
    if shared is None:
        return Buckets(burst=burst, seconds=seconds)
    return SharedBuckets(shared, name, burst=burst, seconds=seconds)


class LocalLoginLimits:
    """:class:`~.accounts.LoginLimiter` of one process, as :class:`LoginLimits`."""

    def __init__(self, limiter: LoginLimiter | None = None) -> None:
        self.limiter = limiter or LoginLimiter()

    async def wait(self, name: str, address: str) -> float:
        return self.limiter.retry_after(name, address)

    async def failed(self, name: str, address: str) -> None:
        self.limiter.failed(name, address)

    async def succeeded(self, name: str, address: str) -> None:
        self.limiter.succeeded(name, address)


#: Seconds until a login may be tried: for each key ((name, address), then address), drop
#: the failures older than the window; past the key's free failures, wait from the latest
#: one for ``step`` doubled per further failure, at most the key's cap
#: (:func:`~.accounts.login_delay`). ARGV: free pair, free address, step, pair cap,
#: address cap, window.
_LOGIN_WAIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local step, window = tonumber(ARGV[3]), tonumber(ARGV[6])
local wait = 0
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[i])
  local free, cap = tonumber(ARGV[i]), tonumber(ARGV[i + 3])
  if count >= free then
    local latest = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
    local delay = math.min(cap, step * 2 ^ math.min(count - free, 32))
    wait = math.max(wait, tonumber(latest[2]) + delay - now)
  end
end
return string.format('%.3f', wait)
"""

#: Count a failure under each key (a sorted set of times; members unique by a nonce).
_LOGIN_FAILED = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now, ARGV[2] .. ':' .. i)
  redis.call('PEXPIRE', KEYS[i], math.ceil(tonumber(ARGV[1]) * 1000))
end
return 1
"""


class SharedLoginLimits:
    """:class:`~.accounts.LoginLimiter`'s counts kept in Redis: the failures of a name
    from an address, and of an address, count across every process."""

    def __init__(
        self,
        shared: Shared,
        *,
        per_pair: int = 5,
        per_address: int = 20,
        step: float = 60.0,
        pair_cap: float = 900.0,
        address_cap: float = 3600.0,
        window: float = 3600.0,
    ) -> None:
        self.shared = shared
        self.args = [per_pair, per_address, step, pair_cap, address_cap, window]
        self.window = window
        self._wait = shared.script(_LOGIN_WAIT)
        self._failed = shared.script(_LOGIN_FAILED)

    def _keys(self, name: str, address: str) -> list[str]:
        return [
            self.shared.key("login", "pair", f"{name_key(name)}@{address}"),
            self.shared.key("login", "addr", address),
        ]

    async def wait(self, name: str, address: str) -> float:
        """Seconds until a login for ``name`` from ``address`` may be tried (0: now)."""
        answer = await self._wait(keys=self._keys(name, address), args=self.args)
        return float(answer)

    async def failed(self, name: str, address: str) -> None:
        """Count a failed login."""
        await self._failed(keys=self._keys(name, address), args=[self.window, secrets.token_hex(8)])

    async def succeeded(self, name: str, address: str) -> None:
        """A correct password clears the failures of the name from that address."""
        await self.shared.redis.delete(self._keys(name, address)[0])
