"""Fixtures: a real server on a loopback port, with the test game or the real ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_fakegame import fake_games
from server_helpers import Api, ServerThread

from cardtable.server.app import create_app
from cardtable.server.bots import BotBook
from cardtable.server.runtime import Settings

#: Fast bots and short absences, so tests run in seconds.
FAST = {
    "grace_seconds": 0.5,
    "bot_turn_delay": 0.0,
    "bot_speeds": {"easy": 20.0, "medium": 40.0, "hard": 80.0},
}


@pytest.fixture(scope="module")
def fake_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The server hosting the test games (``fake`` by turns, ``fakerace`` a race)."""
    db = tmp_path_factory.mktemp("db") / "fake.db"
    app = create_app(
        f"sqlite:///{db}", games=fake_games(), bots=BotBook(), settings=Settings(**FAST),
        static_dir=None,
    )
    server = ServerThread(app).start()
    yield server
    server.stop()


@pytest.fixture
def api(fake_server: ServerThread) -> Api:
    return Api(fake_server.base)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "cardtable.db"
