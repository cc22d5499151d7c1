"""Resign, abort and takeback over real WebSockets, stored so a restarted server resumes.

A resignation ends the match at once for everyone, is stored with its result and record
(the record says ``ended``), and a rated one is a loss for the resigner. An abort before
any person moved ends the table with no result. A takeback rewinds a casual game against
a bot to the position the person moved from, and a restarted server replays only the
moves kept. Every refusal carries a ``table.<code>`` message id said in both languages.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from server_helpers import Api, Client, ServerThread, clients, fast_settings
from test_server_fairplay import rated_pair
from test_server_tournaments import START, FakeClock, claim_all, new_tournament, run
from test_server_tournaments import account as tournament_account

from cardtable.messages import render
from cardtable.record import replay
from cardtable.server.app import create_app
from cardtable.server.core import Peer, Send
from cardtable.server.protocol import CLIENT_MESSAGE
from cardtable.server.routes.accounts import CSRF_HEADER
from cardtable.server.runtime import Hub
from cardtable.server.tournaments import Tournaments, commands, views
from cardtable.table import Status

WEB = {CSRF_HEADER: "web"}


def send(client: Client, kind: str) -> None:
    """A resign, abort or takeback from the client's seat."""
    client.send({"type": kind, "token": client.token})


def refused(client: Client, code: str) -> dict[str, Any]:
    """The error the client gets next, which must be ``code``, in both languages."""
    error = client.wait_for(lambda m: m["type"] == "error")
    assert error["code"] == code, error
    assert error["message_id"] == f"table.{code}"
    assert render(error["message_id"], error["params"], "en") == error["message"]
    assert render(error["message_id"], error["params"], "uk") != error["message"]
    return error


def ended(client: Client, kind: str) -> dict[str, Any]:
    """The update that tells ``client`` of a resign, abort or takeback."""
    update = client.wait_for(lambda m: m["type"] == "update" and m["event"]["type"] == kind)
    client.state = update["state"]
    return update


def test_a_resignation_ends_the_match_for_everyone_and_is_stored(
    real_server: ServerThread,
) -> None:
    api = Api(real_server.base)
    table_id, tokens = api.seat_players("candidate", ["Ann", "Bob"], options={"deals": 2})
    with clients(real_server.base, table_id, [*tokens, None]) as (ann, bob, eve):
        for c in (ann, bob, eve):
            c.hello()
        assert ann.state is not None
        assert ann.state["may"] == {"resign": True, "abort": True, "takeback": False}
        assert eve.state is not None
        assert eve.state["may"] == {"resign": False, "abort": False, "takeback": False}
        send(ann, "resign")
        for c in (ann, bob, eve):
            update = ended(c, "resign")
            assert update["event"]["seat"] == 0
            result = update["state"]["result"]
            assert update["state"]["status"] == "finished"
            assert (result["ending"], result["ended_by"], result["winners"]) == ("resigned", 0, [1])
        send(bob, "resign")
        refused(bob, "finished")
    assert api.table(table_id)["status"] == "finished"
    record = api.http.get(f"/api/tables/{table_id}/record").json()
    assert record["ended"] == {"how": "resigned", "seat": 0}
    summary = replay(record).summary()
    assert (summary["complete"], summary["winners"], summary["ending"]) == (True, [1], "resigned")


def test_a_rated_resignation_is_a_loss_for_the_resigner(real_server: ServerThread) -> None:
    api = Api(real_server.base)
    table_id, tokens, (ada_name, ben_name) = rated_pair(
        api, real_server.base, game="candidate", options={}
    )
    with clients(real_server.base, table_id, tokens) as (ada, ben):
        ada.hello()
        ben.hello()
        send(ada, "takeback")
        refused(ada, "takeback_rated")
        send(ben, "resign")
        ended(ada, "resign")
    (ada_rating,) = api.http.get(f"/api/players/{ada_name}").json()["ratings"]
    (ben_rating,) = api.http.get(f"/api/players/{ben_name}").json()["ratings"]
    assert (ada_rating["wins"], ada_rating["losses"]) == (1, 0)
    assert (ben_rating["wins"], ben_rating["losses"]) == (0, 1)
    assert ada_rating["mu"] > ben_rating["mu"]


def test_an_aborted_rated_game_rates_nobody(real_server: ServerThread) -> None:
    api = Api(real_server.base)
    table_id, tokens, names = rated_pair(api, real_server.base, game="candidate", options={})
    with clients(real_server.base, table_id, tokens) as (ada, ben):
        ada.hello()
        ben.hello()
        send(ada, "abort")
        assert ended(ben, "abort")["state"]["result"]["ending"] == "aborted"
    record = api.http.get(f"/api/tables/{table_id}/record").json()
    assert record["ended"] == {"how": "aborted", "seat": 0}
    for name in names:
        assert api.http.get(f"/api/players/{name}").json()["ratings"] == []


def test_abort_before_the_first_move_and_not_after(real_server: ServerThread) -> None:
    api = Api(real_server.base)
    table_id, tokens = api.seat_players("candidate", ["Ann", "Bob"])
    with clients(real_server.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        send(bob, "abort")
        result = ended(ann, "abort")["state"]["result"]
        assert (result["ending"], result["ended_by"], result["winners"]) == ("aborted", 1, [])
    later_id, tokens = api.seat_players("candidate", ["Ann", "Bob"])
    with clients(real_server.base, later_id, tokens) as players:
        for c in players:
            c.hello()
        mover = next(c for c in players if c.state and c.state["legal_moves"])
        assert mover.move(mover.state["legal_moves"][0])["type"] == "ack"  # type: ignore[index]
        other = next(c for c in players if c is not mover)
        other.wait_state(lambda s: not s["may"]["abort"])
        send(other, "abort")
        refused(other, "abort_late")
        send(other, "takeback")
        refused(other, "takeback_people")


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[tuple[str, list[ServerThread]]]:
    """A real server on its own SQLite file, which a test may stop and start again."""
    url = f"sqlite:///{tmp_path / 'own.db'}"
    running: list[ServerThread] = []
    yield url, running
    for server in running:
        server.stop()


def start(url: str, running: list[ServerThread]) -> ServerThread:
    settings = fast_settings()
    settings.rate_per_second, settings.rate_burst = 1000.0, 1000.0
    server = ServerThread(create_app(url, settings=settings, static_dir=None)).start()
    running.append(server)
    return server


def test_takeback_rewinds_a_game_against_a_bot_and_survives_a_restart(
    own_server: tuple[str, list[ServerThread]],
) -> None:
    url, running = own_server
    server = start(url, running)
    api = Api(server.base)
    created = api.create(
        "candidate", [{"type": "open"}, {"type": "bot", "level": "easy"}], sit="Ann", seed=5
    )
    table_id = created["table"]["id"]
    token = created["seated"]["token"]
    with clients(server.base, table_id, [token]) as (ann,):
        ann.hello()
        ann.wait_state(lambda s: bool(s["legal_moves"]))
        assert ann.state is not None
        assert not ann.state["may"]["takeback"]  # nothing of hers to take back yet
        before = ann.state
        assert ann.move(before["legal_moves"][0])["type"] == "ack"
        # Her move and the bot's replies, until it is her turn again.
        after = ann.wait_state(lambda s: s["may"]["takeback"] and bool(s["legal_moves"]))
        assert after["version"] > before["version"] + 1
        send(ann, "takeback")
        rewound = ended(ann, "takeback")["state"]
        assert rewound["view"] == before["view"]
        assert rewound["legal_moves"] == before["legal_moves"]
        assert rewound["version"] > after["version"]
    server.stop()
    running.remove(server)
    again = start(url, running)
    with clients(again.base, table_id, [token]) as (ann,):
        welcome = ann.hello()
        assert welcome["state"]["view"] == before["view"]
        assert welcome["state"]["legal_moves"] == before["legal_moves"]
        assert len(welcome["history"]) == sum(1 for m in welcome["history"] if m["seat"] == 1), (
            "only the bot's moves before hers are kept"
        )
        assert welcome["state"]["may"]["resign"]
        send(ann, "resign")
        result = ended(ann, "resign")["state"]["result"]
        assert (result["ending"], result["winners"]) == ("resigned", [1])


def test_a_tournament_counts_a_resignation_as_a_loss_and_refuses_an_abort(db_url: str) -> None:
    """The director reads the finished table's result: the resigner loses the pairing
    (and is stored as having resigned); the table refused to be aborted first."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service, checkin_seconds=0)
        for name in ["ann", "bob"]:
            await commands.register(service, tid, tournament_account(name), None)
        clock.now = START + 3600
        await service.step(tid)
        snap = await service.load(tid)
        (game,) = snap.round_games(1)
        resigner = game["seats"][0]
        seat = await service.seat_of(snap, tournament_account(resigner))
        assert seat is not None
        token = parse_qs(urlsplit(seat["play_url"]).query)["token"][0]
        await claim_all(service, tid, [game["seats"][1]])
        live = hub.tables[game["table_id"]]
        table = live.table
        assert table.tournament
        assert table.status is Status.PLAYING
        peer = Peer(seat=0, greeted=True)
        for kind, code in (("abort", "abort_tournament"), ("takeback", "takeback_tournament")):
            message = CLIENT_MESSAGE.validate_python({"type": kind, "token": token})
            (refusal,) = live.core.receive(peer, message, clock.now)
            assert isinstance(refusal, Send)
            assert getattr(refusal.message, "code", None) == code
        effects = live.core.receive(
            peer, CLIENT_MESSAGE.validate_python({"type": "resign", "token": token}), clock.now
        )
        async with live.lock:
            assert await hub._carry(live, None, effects)
        await service.step(tid)
        snap = await service.load(tid)
        (game,) = snap.round_games(1)
        assert game["status"] == "finished"
        assert game["resigned"] == [resigner]
        table_points = {s.player: s.points for s in views.table_standings(snap)}
        assert table_points[resigner] == 0.0
        assert table_points[game["seats"][1]] == 1.0

    run(db_url, body)
