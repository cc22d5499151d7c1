"""Rate limits of the HTTP routes that cost the server work: token buckets by key.

A bucket holds up to ``burst`` tokens and regains one every ``seconds``; a request
takes one. An empty bucket refuses with the time until its next token (the
``Retry-After`` of a 429). Buckets are kept per key (a seat, an address) and the
full ones are forgotten, so the memory stays bounded by the keys recently active.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

__all__ = ["Buckets"]


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
