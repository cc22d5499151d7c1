"""Fixtures: a real server on a loopback port, with the test game or the real ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_fakegame import fake_bots, fake_games
from server_helpers import (
    PG_URL,
    Api,
    ServerThread,
    failing_on_bot_errors,
    fast_settings,
    fresh_database,
    pg_admin,
)

from cardtable.server.app import create_app


@pytest.fixture(autouse=True)
def _no_bot_errors() -> Iterator[None]:
    """Every server test fails if a bot raised meanwhile (no move is invented for it)."""
    with failing_on_bot_errors():
        yield


@pytest.fixture(scope="module")
def fake_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The server hosting the test games (``fake`` by turns, ``fakerace`` a race)."""
    db = tmp_path_factory.mktemp("db") / "fake.db"
    app = create_app(
        f"sqlite:///{db}",
        games=fake_games(),
        bots=fake_bots,
        settings=fast_settings(),
        static_dir=None,
    )
    server = ServerThread(app).start()
    yield server
    server.stop()


@pytest.fixture
def api(fake_server: ServerThread) -> Api:
    return Api(fake_server.base)


@pytest.fixture(scope="session")
def pg_available() -> bool:
    try:
        with pg_admin():
            return True
    except Exception:
        return False


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_available: bool) -> Iterator[str]:
    """A fresh empty database: a SQLite file, or a new PostgreSQL database per test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'cardtable.db'}"
        return
    if not pg_available:
        pytest.skip(f"no PostgreSQL answers at {PG_URL} (set CARDTABLE_TEST_PG_URL)")
    with fresh_database() as url:
        yield url


@pytest.fixture(scope="module")
def real_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The server hosting the real games (Candidate and Spy) with their bots."""
    db = tmp_path_factory.mktemp("db") / "real.db"
    settings = fast_settings()
    settings.rate_per_second, settings.rate_burst = 1000.0, 1000.0  # scripted players are fast
    settings.bot_processes = 1  # the engine's bots think in a worker process, as in production
    app = create_app(f"sqlite:///{db}", settings=settings, static_dir=None)
    server = ServerThread(app).start()
    yield server
    server.stop()
