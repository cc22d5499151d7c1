"""The HTTP side: creating, listing, joining, rematches, records, the leaderboard."""

from __future__ import annotations

import time

from server_helpers import GUARD, Api, ServerThread, clients, play_first_moves


def test_create_validates_game_options_and_seats(api: Api) -> None:
    bad = [
        ({"game": "chess", "seats": [{}, {}]}, "unknown_game"),
        ({"game": "fake", "seats": [{}]}, "bad_table"),
        ({"game": "fake", "seats": [{}, {}], "options": {"hand": 99}}, "bad_options"),
    ]
    for body, code in bad:
        response = api.http.post("/api/tables", json=body)
        assert response.status_code == 422
        assert response.json()["detail"]["code"] == code
    response = api.http.post("/api/tables", json={"game": "fake", "seats": [{"type": "x"}]})
    assert response.status_code == 422  # pydantic: a clear field error


def test_tables_are_listed_and_a_seat_cannot_be_taken_twice(api: Api) -> None:
    created = api.create("fake", [{"type": "open"}, {"type": "bot", "level": "easy"}])
    table_id = created["table"]["id"]
    assert created["table"]["status"] == "waiting"
    assert [i["seat"] for i in created["invites"]] == [0]
    waiting = api.http.get("/api/tables", params={"status": "waiting"}).json()
    assert table_id in {t["id"] for t in waiting}
    invite = created["invites"][0]["code"]
    seated = api.join(table_id, invite, "Ann")
    assert seated["seat"] == 0
    assert len(seated["token"]) >= 16
    assert seated["table"]["status"] == "playing"
    again = api.http.post(f"/api/tables/{table_id}/join", json={"invite": invite, "name": "Eve"})
    assert again.status_code == 409
    assert again.json()["detail"]["code"] == "seat_taken"
    info = api.table(table_id)
    assert "token" not in str(info)
    assert "invite" not in str(info)


def test_record_only_once_finished_then_rematch_and_ratings(
    fake_server: ServerThread, api: Api
) -> None:
    table_id, tokens = api.seat_players("fake", ["Rita", "Sam"], options={"hand": 1})
    assert api.http.get(f"/api/tables/{table_id}/record").status_code == 409
    with clients(fake_server.base, table_id, tokens) as (rita, sam):
        rita.hello()
        sam.hello()
        assert rita.state is not None
        assert rita.move(rita.state["legal_moves"][0])["type"] == "ack"
        sam.drain()
        assert sam.state is not None
        assert sam.move(sam.state["legal_moves"][0])["type"] == "ack"
        record = api.http.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200
        assert record.json()["players"] == ["Rita", "Sam"]
        assert "attachment" in record.headers["content-disposition"]
        board = api.http.get("/api/ratings", params={"game": "fake"}).json()
        # Guests play unrated: their names never reach the leaderboard.
        assert not {"Rita", "Sam"} & {e["name"] for e in board["entries"]}
        # Rematch: both ask with their old tokens and sit at the same seats again.
        first = api.http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
        assert first.status_code == 200, first.text
        second = api.http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
        new_id = first.json()["table"]["id"]
        assert second.json()["table"]["id"] == new_id
        assert (first.json()["seat"], second.json()["seat"]) == (1, 0)
        assert second.json()["table"]["status"] == "playing"
        rita.wait_for(lambda m: m.get("state", {}).get("rematch") == new_id)
        assert api.table(table_id)["rematch"] == new_id
        assert api.table(new_id)["rematch_of"] == table_id
        wrong = api.http.post(f"/api/tables/{table_id}/rematch", json={"token": "z" * 20})
        assert wrong.status_code == 403


def test_health_and_openapi_document_every_route(api: Api) -> None:
    health = api.http.get("/api/health").json()
    assert health["status"] == "ok"
    assert "fake" in health["games"]
    spec = api.http.get("/openapi.json").json()
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            assert operation.get("summary"), (path, method)
            assert operation.get("description"), (path, method)


def test_finished_tables_leave_memory_but_not_storage(fake_server: ServerThread, api: Api) -> None:
    hub = fake_server.app.state.hub
    table_id, tokens = api.seat_players("fake", ["Una", "Vic"], options={"hand": 1})
    with clients(fake_server.base, table_id, tokens) as players:
        play_first_moves(players)
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while table_id in hub.tables and time.monotonic() < deadline:
        time.sleep(0.1)
    assert table_id not in hub.tables
    assert api.table(table_id)["status"] == "finished"
    assert api.http.get(f"/api/tables/{table_id}/record").status_code == 200
    listed = api.http.get("/api/tables", params={"status": "finished", "game": "fake"}).json()
    assert table_id in {t["id"] for t in listed}
    # A late rematch loads the finished table back from storage.
    late = api.http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
    assert late.status_code == 200, late.text
    assert late.json()["table"]["rematch_of"] == table_id


def test_oversized_and_malformed_requests_are_refused(api: Api) -> None:
    huge = {"game": "fake", "seats": [{}, {}], "options": {"x": "y" * 100_000}}
    response = api.http.post("/api/tables", json=huge)
    assert response.status_code == 413
    assert response.json()["detail"]["code"] == "too_large"
    garbage = api.http.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert garbage.status_code == 422
    assert api.http.get("/api/health").status_code == 200
