"""The server's own time per move (``GET /api/timing``), for the load benchmark."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_fakegame import fake_bots, fake_games
from server_helpers import Api, ServerThread, clients, fast_settings

from cardtable.server.app import create_app


@pytest.fixture(scope="module")
def timed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The test games on a server that times moves."""
    db: Path = tmp_path_factory.mktemp("db") / "timed.db"
    settings = dataclasses.replace(fast_settings(), time_moves=True)
    app = create_app(
        f"sqlite:///{db}", games=fake_games(), bots=fake_bots, settings=settings, static_dir=None
    )
    server = ServerThread(app).start()
    yield server
    server.stop()


def test_every_move_is_timed_from_in_to_its_last_send(timed_server: ServerThread) -> None:
    api = Api(timed_server.base)
    assert api.http.get("/api/timing").json()["moves"] == 0
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 3})
    moves = 4
    with clients(timed_server.base, table_id, tokens) as seats:
        for seat in seats:
            seat.hello()
        for _ in range(moves):
            for seat in seats:
                seat.drain()
            turn = seats[0].state
            assert turn is not None
            mover = seats[turn["to_move"]]
            assert mover.state is not None
            assert mover.move(mover.state["legal_moves"][0])["type"] == "ack"
    report = api.http.get("/api/timing").json()
    assert report["moves"] == moves  # hello and the other messages are not moves
    assert report["unfinished"] == 0
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"] < 10_000


def test_a_server_that_does_not_time_moves_says_so(fake_server: ServerThread, api: Api) -> None:
    answer = api.http.get("/api/timing")
    assert answer.status_code == 404
    assert answer.json()["detail"]["code"] == "no_timing"
