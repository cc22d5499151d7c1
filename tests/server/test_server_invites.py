"""The lobby's side of the HTTP API: invites for the table's creator only, codes pasted
in the lobby, the open-table list, and the next game of a finished table announced to
everyone at it."""

from __future__ import annotations

from server_fakegame import fake_games
from server_helpers import Api, ServerThread, clients, play_first_moves

from cardtable.table import Status, Table, hash_token


def test_only_the_creator_gets_the_open_seats_invites_until_each_is_taken(api: Api) -> None:
    created = api.create("fake", [{"type": "open"}, {"type": "open"}, {"type": "bot"}])
    table_id = created["table"]["id"]
    host = created["host_token"]
    assert len(host) >= 16
    assert host not in str(api.table(table_id))
    again = api.http.post(f"/api/tables/{table_id}/invites", json={"token": host})
    assert again.status_code == 200, again.text
    assert again.json()["invites"] == created["invites"]
    assert [i["seat"] for i in again.json()["invites"]] == [0, 1]
    # Anyone else is refused, a seated player too: the invites are the creator's to hand out.
    seated = api.join(table_id, created["invites"][0]["code"], "Ann")
    for token in (seated["token"], "x" * 24):
        refused = api.http.post(f"/api/tables/{table_id}/invites", json={"token": token})
        assert refused.status_code == 403
        assert refused.json()["detail"]["code"] == "not_host"
        assert refused.json()["detail"]["message_id"] == "server.not_host"
    # A taken seat's invite is gone; the seat's token is never in the answer.
    left = api.http.post(f"/api/tables/{table_id}/invites", json={"token": host}).json()
    assert [i["seat"] for i in left["invites"]] == [1]
    assert seated["token"] not in str(left)
    api.join(table_id, created["invites"][1]["code"], "Bob")
    done = api.http.post(f"/api/tables/{table_id}/invites", json={"token": host}).json()
    assert done["invites"] == []
    missing = api.http.post("/api/tables/nosuchtable1/invites", json={"token": host})
    assert missing.status_code == 404


def test_a_code_is_a_table_id_or_an_open_seats_invite(api: Api) -> None:
    created = api.create("fake", [{"type": "open"}, {"type": "open"}])
    table_id = created["table"]["id"]
    invite = created["invites"][1]["code"]
    as_table = api.http.get(f"/api/codes/{table_id}").json()
    assert (as_table["target"], as_table["table"]["id"], as_table["seat"]) == (
        "table",
        table_id,
        None,
    )
    as_invite = api.http.get(f"/api/codes/{invite}").json()
    assert (as_invite["target"], as_invite["table"]["id"], as_invite["seat"]) == (
        "invite",
        table_id,
        1,
    )
    unknown = api.http.get("/api/codes/abcdefghijkl")
    assert unknown.status_code == 404
    assert unknown.json()["detail"]["message_id"] == "server.no_code"
    assert api.http.get("/api/codes/bad%20code!").status_code == 422
    api.join(table_id, invite, "Ann")
    taken = api.http.get(f"/api/codes/{invite}")
    assert taken.status_code == 409
    assert taken.json()["detail"]["code"] == "seat_taken"


def test_open_tables_never_list_a_finished_game(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Una", "Vic"], options={"hand": 1})
    waiting = api.create("fake", [{"type": "open"}, {"type": "open"}])["table"]["id"]
    with clients(fake_server.base, table_id, tokens) as players:
        play_first_moves(players)
        assert api.table(table_id)["status"] == "finished"
        assert table_id in fake_server.app.state.hub.tables  # still in memory
        live = {t["id"]: t["status"] for t in api.http.get("/api/tables").json()}
        assert table_id not in live
        assert live[waiting] == "waiting"
        assert "finished" not in live.values()


def test_a_new_game_with_the_same_seats_is_announced_to_the_old_table(
    fake_server: ServerThread, api: Api
) -> None:
    table_id, tokens = api.seat_players("fake", ["Rita", "Sam"], bots=["hard"], options={"hand": 1})
    with clients(fake_server.base, table_id, [*tokens, None]) as (rita, sam, watcher):
        for client in (rita, sam, watcher):
            client.hello()
        for client in (rita, sam):
            client.wait_for(lambda m: bool(m.get("state", {}).get("legal_moves")))
            assert client.state is not None
            client.move(client.state["legal_moves"][0])
        rita.wait_state(lambda s: s["status"] == "finished")
        # The deal is the server's: a client cannot name a seed.
        seeded = api.http.post(
            f"/api/tables/{table_id}/rematch", json={"token": tokens[1], "seed": 7}
        )
        assert seeded.status_code == 422
        unknown = api.http.post(
            f"/api/tables/{table_id}/rematch", json={"token": tokens[1], "game": "chess"}
        )
        assert unknown.status_code == 422
        assert unknown.json()["detail"]["code"] == "unknown_game"
        assert api.table(table_id)["rematch"] is None
        # Sam asks for a new game with other options; the server deals it.
        first = api.http.post(
            f"/api/tables/{table_id}/rematch",
            json={"token": tokens[1], "game": "fake", "options": {"hand": 2}},
        )
        assert first.status_code == 200, first.text
        new = first.json()["table"]
        assert (new["options"]["hand"], new["rematch_of"], first.json()["seat"]) == (2, table_id, 1)
        # Everyone at the old table hears of it, with the seat that asked.
        for client in (rita, watcher):
            told = client.wait_for(
                lambda m: m.get("type") == "update" and m["event"]["type"] == "rematch"
            )
            assert told["event"]["seat"] == 1
            assert told["state"]["rematch"] == new["id"]
        # Rita joins the same table at her own seat; the bot kept its level and name.
        second = api.http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
        assert second.json()["table"]["id"] == new["id"]
        assert second.json()["seat"] == 0
        seats = second.json()["table"]["seats"]
        assert [s["name"] for s in seats] == ["Rita", "Sam", "Bot (hard)"]
        assert seats[2]["level"] == "hard"
    bad = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 1})
    refused = api.http.post(f"/api/tables/{bad[0]}/rematch", json={"token": bad[1][0]})
    assert refused.status_code == 409
    assert refused.json()["detail"]["code"] == "not_finished"


def test_the_host_token_is_stored_only_as_its_digest_and_survives_a_restart() -> None:
    game = fake_games()["fake"]
    table = Table.create(
        table_id="t1",
        game=game,
        options={},
        seed=1,
        bot_levels=[None, None],
        invites=["a" * 16, "b" * 16],
    )
    table.host_hash = hash_token("h" * 24)
    meta = table.meta()
    assert "h" * 24 not in str(meta)
    restored = Table.restore(
        table_id="t1",
        game=game,
        options=table.options,
        seed=1,
        time_control=None,
        rated=True,
        status=Status.WAITING,
        version=table.version,
        meta=meta,
        moves=[],
        rematch_of=None,
        now=0.0,
    )
    assert restored.is_host("h" * 24)
    assert not restored.is_host("x" * 24)
    assert not restored.is_host(None)
    assert restored.open_invites() == [(0, "a" * 16), (1, "b" * 16)]
