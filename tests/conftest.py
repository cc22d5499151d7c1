"""What every test shares: HTTP calls in tests wait as long as a busy machine needs.

httpx gives up on a read after 5 s by default. A test's request is not a speed goal,
so unless a test sets its own timeout, every httpx call and client made by the tests
waits up to :data:`HTTP_GUARD` seconds: a guard against a hang, never a measure of how
fast the server answers (the suite must pass beside a CPU hog, ``make test-busy``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import httpx

#: Seconds a test's HTTP call may wait for an answer before it counts as a hang.
HTTP_GUARD = 120.0


def _guarded(call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", HTTP_GUARD)
        return call(*args, **kwargs)

    return wrapper


for _name in ("request", "stream", "get", "options", "head", "post", "put", "patch", "delete"):
    setattr(httpx, _name, _guarded(getattr(httpx, _name)))
for _client in (httpx.Client, httpx.AsyncClient):
    _client.__init__ = _guarded(_client.__init__)  # type: ignore[method-assign]
