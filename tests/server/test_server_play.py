"""Whole games over real WebSockets against a real server on loopback."""

from __future__ import annotations

from server_helpers import Api, ServerThread, clients


def test_full_turn_based_game_between_two_clients(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 3})
    with clients(fake_server.base, table_id, tokens) as (ann, bob):
        for c in (ann, bob):
            welcome = c.hello()
            assert welcome["type"] == "welcome"
            assert welcome["state"]["status"] == "playing"
        acked = []
        while True:
            ann.drain()
            bob.drain()
            state = ann.state
            assert state is not None
            if state["status"] == "finished":
                break
            mover = ann if state["to_move"] == 0 else bob
            assert mover.state is not None
            move = mover.state["legal_moves"][0]
            answer = mover.move(move)
            assert answer["type"] == "ack", answer
            acked.append(move)
        assert len(acked) == 6
        bob.drain()
        assert bob.state is not None
        assert bob.state["status"] == "finished"
        assert bob.state["result"]["totals"] == ann.state["result"]["totals"]
        record = api.http.get(f"/api/tables/{table_id}/record").json()
        assert record["moves"] == acked
        assert api.table(table_id)["status"] == "finished"
