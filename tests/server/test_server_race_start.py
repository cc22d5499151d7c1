"""A race's shared start over real WebSockets (S17): every client gets the 3-2-1 count,
a move before it ends is refused with ``table.counting``, a ``go`` update starts the race
for everyone, and the race time is the server's (a client that says hello again gets
it, not zero). The pause carries the engine's account of the round (docs/protocol.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from server_helpers import Api, ServerThread, clients

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing

COUNT = 1.5


@pytest.fixture(scope="module")
def counting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(
        grace_seconds=30.0,
        pacing=Pacing(turn_delay=0.0, segment_pause=60.0, start_count=COUNT),
        bot_processes=0,
    )
    path = tmp_path_factory.mktemp("count") / "count.db"
    server = ServerThread(create_app(f"sqlite:///{path}", settings=settings, static_dir=None))
    yield server.start()
    server.stop()


def test_everyone_starts_together_after_the_servers_count_s17(counting: ServerThread) -> None:
    api = Api(counting.base)
    table_id, tokens = api.seat_players("spy", ["Ann", "Bob"], options={"rounds": 2})
    with clients(counting.base, table_id, [*tokens, None]) as (ann, bob, eve):
        greeted = [c.hello()["state"] for c in (ann, bob, eve)]
        for state in greeted:
            assert state["count"] is not None
            assert 0 < state["count"]["seconds"] <= COUNT
            assert state["legal_moves"] == []
            assert state["race"] == {"elapsed": 0.0, "times": []}
        refused = ann.move("turn")
        assert refused["type"] == "error"
        assert refused["code"] == "counting"
        assert refused["message_id"] == "table.counting"
        assert 1 <= refused["params"]["seconds"] <= 2
        for c in (ann, bob, eve):
            go = c.wait_for(lambda m: m["type"] == "update" and m["event"]["type"] == "go")
            assert go["state"]["count"] is None
        assert ann.move("turn")["type"] == "ack"
        # The race time is the server's: a second hello (a reloaded page) gets it.
        time.sleep(0.4)
        with clients(counting.base, table_id, [tokens[0]]) as (again,):
            state = again.hello()["state"]
            assert state["race"]["elapsed"] >= 0.3
        # Both resign (S13): the pause says how round 1 ended, with its race time.
        assert ann.move("resign")["type"] == "ack"
        assert bob.move("resign")["type"] == "ack"
        paused = eve.wait_for(lambda m: m["type"] == "update" and m["state"]["pause"])
        segment = paused["state"]["pause"]["segment"]
        assert segment == {
            "number": 1,
            "scores": [0, 0],
            "totals": [0, 0],
            "ending": "resigned",
            "ended_by": None,
        }
        assert paused["state"]["segments"] == [segment]
        assert len(paused["state"]["race"]["times"]) == 1
        # Ready from both: round 2 counts again before anyone may move.
        ann.send({"type": "ready", "token": tokens[0]})
        bob.send({"type": "ready", "token": tokens[1]})
        resumed = eve.wait_for(lambda m: m["type"] == "update" and m["event"]["type"] == "resume")
        assert resumed["state"]["count"] is not None
        assert resumed["state"]["view"]["round"] == 2
        eve.wait_for(lambda m: m["type"] == "update" and m["event"]["type"] == "go")
