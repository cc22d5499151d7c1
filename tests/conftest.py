"""What every test shares: HTTP calls in tests wait as long as a busy machine needs, and
the fixtures that run a Candidate or a Spy test on both engines.

httpx gives up on a read after 5 s by default. A test's request is not a speed goal,
so unless a test sets its own timeout, every httpx call and client made by the tests
waits up to :data:`HTTP_GUARD` seconds: a guard against a hang, never a measure of how
fast the server answers (the suite must pass beside a CPU hog, ``make test-busy``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

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


def _on_engine(engine: Any, name: str) -> Iterator[str]:
    """Run the test on engine ``name`` of a game's engine module; skipped for the core
    when it was not built."""
    if name == engine.COMPILED and not engine.available():
        pytest.skip("the compiled core was not built")
    with engine.using(name):
        yield name


@pytest.fixture(params=["pure", "compiled"])
def candidate_engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a Candidate test once on each engine: the pure-Python reference and the
    compiled core (``games/candidate/engine.py``)."""
    from cardtable.games.candidate import engine

    yield from _on_engine(engine, request.param)


@pytest.fixture(params=["pure", "compiled"])
def spy_engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a Spy test once on each engine: the pure-Python reference and the compiled
    core (``games/spy/engine.py``)."""
    from cardtable.games.spy import engine

    yield from _on_engine(engine, request.param)
