"""The pause between Spy rounds over real WebSockets: sent to every client, moves refused
while it lasts, ended by everyone's ``ready`` or by its time running out (S16: a match is
several rounds; the pause is the table's, docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Api, Client, ServerThread, clients

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing


def spy_server(path: Path, pause: float) -> ServerThread:
    settings = Settings(
        grace_seconds=30.0,
        pacing=Pacing(turn_delay=0.0, segment_pause=pause, start_count=0.0),
        bot_processes=0,
    )
    app = create_app(f"sqlite:///{path}", settings=settings, static_dir=None)
    return ServerThread(app).start()


@pytest.fixture(scope="module")
def long_pause(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A pause far longer than the test: only the players' ``ready`` ends it."""
    server = spy_server(tmp_path_factory.mktemp("pause") / "long.db", pause=60.0)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def short_pause(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    server = spy_server(tmp_path_factory.mktemp("pause") / "short.db", pause=0.6)
    yield server
    server.stop()


def end_round(ann: Client, bob: Client) -> dict[str, Any]:
    """Both resign (S13): round 1 ends with no winner; the update that ends it."""
    assert ann.move("resign")["type"] == "ack"
    assert bob.move("resign")["type"] == "ack"
    return ann.wait_for(lambda m: m["type"] == "update" and m["state"]["pause"] is not None)


def test_the_pause_between_spy_rounds_ends_when_both_players_are_ready(
    long_pause: ServerThread,
) -> None:
    api = Api(long_pause.base)
    table_id, tokens = api.seat_players("spy", ["Ann", "Bob"], options={"rounds": 2})
    with clients(long_pause.base, table_id, [*tokens, None]) as (ann, bob, eve):
        for c in (ann, bob, eve):
            assert c.hello()["state"]["pause"] is None
        ended = end_round(ann, bob)
        pause = ended["state"]["pause"]
        assert 55 < pause["seconds"] <= 60
        assert pause["ready"] == []
        assert ended["state"]["legal_moves"] == []
        assert ended["state"]["view"]["round"] == 2
        assert ended["state"]["view"]["round_scores"] == [[0, 0]]
        watched = eve.wait_for(lambda m: m["type"] == "update" and m["state"]["pause"])
        assert watched["state"]["seat"] is None  # spectators see the pause too
        # A move during the pause is refused, with what a client needs to say why.
        refused = ann.move("turn")
        assert refused["type"] == "error"
        assert refused["code"] == "paused"
        assert refused["message_id"] == "table.paused_round"
        assert 50 < refused["params"]["seconds"] <= 60
        assert "round is over" in refused["message"]
        # Ann is ready: the pause goes on for Bob, and everyone sees who is ready.
        ann.send({"type": "ready", "token": tokens[0]})
        seen = bob.wait_for(lambda m: m["type"] == "update" and m["event"]["type"] == "ready")
        assert seen["event"]["seat"] == 0
        assert seen["state"]["pause"]["ready"] == [0]
        # Bob is ready too: the next round starts at once.
        bob.send({"type": "ready", "token": tokens[1]})
        resumed = ann.wait_for(lambda m: m["type"] == "update" and m["event"]["type"] == "resume")
        assert resumed["state"]["pause"] is None
        assert resumed["state"]["legal_moves"]
        assert ann.move("turn")["type"] == "ack"
        # Out of a pause, ready is refused (a client's late click), and it changes nothing.
        ann.send({"type": "ready", "token": tokens[0]})
        late = ann.wait_for(lambda m: m["type"] == "error")
        assert late["code"] == "not_paused"
        # A spectator's ready is not a seat's.
        eve.send({"type": "ready", "token": tokens[0]})
        assert eve.wait_for(lambda m: m["type"] == "error")["code"] == "bad_token"


def test_the_pause_ends_by_itself_when_its_time_is_up(short_pause: ServerThread) -> None:
    api = Api(short_pause.base)
    table_id, tokens = api.seat_players("spy", ["Ann", "Bob"], options={"rounds": 2})
    with clients(short_pause.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        end_round(ann, bob)
        # Nobody says ready: the server wakes up when the pause is over.
        resumed = bob.wait_for(lambda m: m["type"] == "update" and m["event"]["type"] == "resume")
        assert resumed["state"]["pause"] is None
        assert resumed["state"]["view"]["round"] == 2
        assert bob.move("turn")["type"] == "ack"
