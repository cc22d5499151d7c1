"""Close codes and reach as documented: a finished table answers ``hello`` for
``keep_finished_seconds`` even after a restart; a flooding socket is closed with 1008."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from server_helpers import (
    Api,
    Client,
    ServerThread,
    clients,
    fake_server_thread,
    play_first_moves,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardtable.server.settings import Settings


def server(db: Path, keep: float) -> ServerThread:
    return fake_server_thread(db, Settings(bot_processes=0, keep_finished_seconds=keep))


@pytest.fixture
def finished_table(tmp_path: Path) -> tuple[Path, str]:
    """A database holding one finished table (its server stopped again)."""
    db = tmp_path / "reach.db"
    first = server(db, 600.0)
    try:
        api = Api(first.base)
        table_id, tokens = api.seat_players("fake", ["Una", "Vic"], options={"hand": 1})
        with clients(first.base, table_id, tokens) as players:
            play_first_moves(players)
            players[0].wait_state(lambda s: s["status"] == "finished")
    finally:
        first.stop()
    return db, table_id


def test_a_finished_table_answers_hello_after_a_restart(
    finished_table: tuple[Path, str],
) -> None:
    db, table_id = finished_table
    again = server(db, 600.0)
    try:
        watcher = Client(again.base, table_id)
        try:
            welcome = watcher.hello()
        finally:
            watcher.close()
        assert welcome["type"] == "welcome"
        assert welcome["state"]["status"] == "finished"
    finally:
        again.stop()


def test_a_table_finished_longer_ago_than_kept_is_closed_with_4404(
    finished_table: tuple[Path, str],
) -> None:
    db, table_id = finished_table
    again = server(db, 0.0)
    try:
        with connect(again.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}") as ws:
            gone = json.loads(ws.recv(timeout=5))
            assert gone["code"] == "no_table"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 4404
    finally:
        again.stop()


@pytest.mark.parametrize("attempt", range(3))
def test_a_flooding_socket_is_closed_with_1008(
    fake_server: ServerThread, api: Api, attempt: int
) -> None:
    table_id = api.create("fake", [{"type": "open"}, {"type": "open"}])["table"]["id"]
    url = fake_server.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    with connect(url) as ws:
        with contextlib.suppress(ConnectionClosed):
            for _ in range(3000):  # far beyond 20 a second with bursts of 40
                ws.send('{"type": "ping"}')
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(ws)
    assert closed.value.rcvd is not None, "no close frame: the connection was reset"
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "too many messages")


def read_until_closed(ws: ClientConnection) -> None:
    """Read (and drop) messages until the connection closes."""
    while True:
        ws.recv(timeout=5)
