"""The "play now" queue over HTTP: pairing, the gathering window, bots after a time-out,
seeks that vanish, rated seeks for accounts only, and tokens for their owners only."""

from __future__ import annotations

import random
import uuid
from typing import Any

import httpx
import pytest
from server_helpers import Api, ServerThread, StepClock, clients

from cardtable.server.routes.accounts import CSRF_HEADER
from cardtable.server.seeks import LocalSeeks, Seeks

#: Short timings (the server's are 10 s, 20 s and 10 s), on a clock the tests move.
WINDOW, BOTS_AFTER, HEARTBEAT = 0.6, 0.5, 1.0


def queues(server: ServerThread) -> Seeks:
    """The server's queues, with short timings, nobody waiting, and a clock that moves
    only when the test moves it (:func:`advance`): a window, a time-out or a heartbeat
    ends when the test says, never because the machine was slow."""
    assert httpx.get(f"{server.base}/api/seeks").status_code == 200  # made on first use
    seeks: Seeks = server.app.state.seeks
    seeks.window, seeks.bots_after, seeks.heartbeat = WINDOW, BOTS_AFTER, HEARTBEAT
    seeks.store = LocalSeeks()
    seeks.clock = StepClock()
    return seeks


def advance(seeks: Seeks, seconds: float) -> None:
    """Let ``seconds`` pass on the queues' clock (each request judges the seeks by it)."""
    clock = seeks.clock
    assert isinstance(clock, StepClock)
    clock.advance(seconds)


@pytest.fixture
def fake_seeks(fake_server: ServerThread) -> Seeks:
    return queues(fake_server)


def seek(api: Api, game: str, name: str | None, **extra: Any) -> dict[str, Any]:
    answer = api.http.post("/api/seeks", json={"game": game, "name": name, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def poll(api: Api, made: dict[str, Any]) -> dict[str, Any]:
    answer = api.http.post(f"/api/seeks/{made['seek']['id']}/poll", json={"secret": made["secret"]})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def lobby(api: Api) -> list[dict[str, Any]]:
    answer = api.http.get("/api/seeks")
    assert answer.status_code == 200
    return answer.json()  # type: ignore[no-any-return]


def test_two_candidate_seeks_pair_at_once_each_with_only_their_own_token(
    real_server: ServerThread,
) -> None:
    queues(real_server)
    api = Api(real_server.base)
    ann = seek(api, "candidate", "Ann")
    assert ann["status"] == "waiting"
    assert ann["seated"] is None
    shown = lobby(api)
    assert [(s["id"], s["name"], s["game"], s["rated"]) for s in shown] == [
        (ann["seek"]["id"], "Ann", "candidate", False)
    ]
    assert ann["secret"] not in str(shown)
    bob = seek(api, "candidate", "Bob")
    # The second seek completes the pair: seated in its own answer, the first at its poll.
    assert bob["status"] == "seated"
    ann_now = poll(api, ann)
    assert ann_now["status"] == "seated"
    a, b = ann_now["seated"], bob["seated"]
    assert a["table"]["id"] == b["table"]["id"]
    assert {a["seat"], b["seat"]} == {0, 1}
    assert a["token"] != b["token"]
    table = a["table"]
    assert table["status"] == "playing"
    assert not table["rated"]
    assert {table["seats"][a["seat"]]["name"], table["seats"][b["seat"]]["name"]} == {"Ann", "Bob"}
    # No one's answer holds the other's token or secret; the lobby holds none.
    assert b["token"] not in str(ann_now)
    assert bob["secret"] not in str(ann_now)
    assert a["token"] not in str(bob)
    assert ann["secret"] not in str(bob)
    assert lobby(api) == []
    assert a["token"] not in api.http.get(f"/api/tables/{table['id']}").text
    # Each token opens its own seat, and a move is played at the new table.
    with clients(real_server.base, table["id"], [a["token"], b["token"]]) as (ca, cb):
        assert ca.hello()["type"] == "welcome"
        assert cb.hello()["type"] == "welcome"
        ca.drain()
        cb.drain()
        assert ca.state is not None
        assert cb.state is not None
        assert (ca.state["seat"], cb.state["seat"]) == (a["seat"], b["seat"])
        mover = ca if ca.state["legal_moves"] else cb
        answer = mover.move(mover.state["legal_moves"][0])  # type: ignore[index]
        assert answer["type"] == "ack", answer


def test_seats_are_in_random_order(fake_server: ServerThread, fake_seeks: Seeks) -> None:
    fake_seeks._random = random.Random(3)  # a known shuffle, so the test cannot flake
    api = Api(fake_server.base)
    first_seats = set()
    for _ in range(8):
        first = seek(api, "fake", "First", time_control={"initial": 60, "increment": 1})
        others = [
            seek(api, "fake", f"P{i}", time_control={"initial": 60, "increment": 1})
            for i in range(3)
        ]
        assert others[-1]["status"] == "seated"  # the game's most players: at once
        first_seats.add(poll(api, first)["seated"]["seat"])
    assert len(first_seats) > 1


def test_a_race_gathers_for_a_window_after_the_second_player(
    fake_server: ServerThread, fake_seeks: Seeks
) -> None:
    api = Api(fake_server.base)
    ann = seek(api, "fakerace", "Ann")
    assert ann["starts_in"] is None  # one player: nothing to start
    bob = seek(api, "fakerace", "Bob")
    assert bob["status"] == "waiting"
    assert 0 < bob["starts_in"] <= WINDOW
    assert bob["in_queue"] == 2
    cid = seek(api, "fakerace", "Cid")
    assert cid["status"] == "waiting"
    assert cid["in_queue"] == 3
    advance(fake_seeks, WINDOW + 0.1)
    answers = [poll(api, made) for made in (ann, bob, cid)]
    assert all(a["status"] == "seated" for a in answers)
    tables = {a["seated"]["table"]["id"] for a in answers}
    assert len(tables) == 1
    table = api.table(tables.pop())
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Bob", "Cid"]
    assert len({a["seated"]["token"] for a in answers}) == 3
    # Another queue (another clock) is apart: a lone seek there still waits.
    alone = seek(api, "fakerace", "Dot", time_control={"initial": 30})
    assert poll(api, alone)["status"] == "waiting"


def test_bots_fill_the_table_after_the_time_out(
    fake_server: ServerThread, fake_seeks: Seeks
) -> None:
    api = Api(fake_server.base)
    # Asked at once, bots are refused (the queues' clock stands still meanwhile).
    ann = seek(api, "fakerace", "Ann")
    url = f"/api/seeks/{ann['seek']['id']}/bots"
    early = api.http.post(url, json={"secret": ann["secret"], "seats": 3})
    assert early.status_code == 409
    assert early.json()["detail"]["message_id"] == "server.seek_bots_later"
    advance(fake_seeks, BOTS_AFTER + 0.1)
    assert poll(api, ann)["bots_in"] == 0
    too_many = api.http.post(url, json={"secret": ann["secret"], "seats": 5})
    assert too_many.status_code == 422
    assert too_many.json()["detail"]["message_id"] == "server.seek_seats"
    filled = api.http.post(url, json={"secret": ann["secret"], "seats": 3, "level": "easy"})
    assert filled.status_code == 200, filled.text
    seated = filled.json()["seated"]
    table = seated["table"]
    assert table["status"] == "playing"
    assert [s["role"] == "bot" for s in table["seats"]].count(True) == 2
    assert table["seats"][seated["seat"]]["name"] == "Ann"
    assert lobby(api) == []


def test_a_seek_vanishes_when_cancelled_or_when_its_heartbeat_stops(
    fake_server: ServerThread, fake_seeks: Seeks
) -> None:
    api = Api(fake_server.base)
    ann = seek(api, "fake", "Ann", rated=False)
    assert [s["name"] for s in lobby(api)] == ["Ann"]
    wrong = api.http.post(f"/api/seeks/{ann['seek']['id']}/cancel", json={"secret": "x" * 32})
    assert wrong.status_code == 404
    assert wrong.json()["detail"]["message_id"] == "server.no_seek"
    gone = api.http.post(f"/api/seeks/{ann['seek']['id']}/cancel", json={"secret": ann["secret"]})
    assert gone.status_code == 204
    assert lobby(api) == []
    again = api.http.post(f"/api/seeks/{ann['seek']['id']}/poll", json={"secret": ann["secret"]})
    assert again.status_code == 404
    # A page closed without a word: no heartbeat for HEARTBEAT seconds, and it is gone.
    bob = seek(api, "fake", "Bob")
    advance(fake_seeks, HEARTBEAT / 2)
    assert poll(api, bob)["status"] == "waiting"  # the heartbeat keeps it
    advance(fake_seeks, HEARTBEAT / 2 + 0.2)
    assert [s["name"] for s in lobby(api)] == ["Bob"]
    advance(fake_seeks, HEARTBEAT / 2 + 0.2)
    assert lobby(api) == []
    # A later seek does not meet the vanished one.
    cid = seek(api, "fake", "Cid")
    assert cid["status"] == "waiting"
    assert cid["in_queue"] == 1


def test_a_rated_seek_needs_an_account_and_pairs_accounts(
    fake_server: ServerThread, fake_seeks: Seeks
) -> None:
    api = Api(fake_server.base)
    refused = api.http.post("/api/seeks", json={"game": "fake", "name": "Ann", "rated": True})
    assert refused.status_code == 403
    assert refused.json()["detail"]["message_id"] == "server.rated_needs_account"
    nameless = api.http.post("/api/seeks", json={"game": "fake"})
    assert nameless.status_code == 422
    assert nameless.json()["detail"]["message_id"] == "server.seek_name"
    unknown = api.http.post("/api/seeks", json={"game": "chess", "name": "Ann"})
    assert unknown.status_code == 422
    players = []
    for _ in range(2):
        name = f"Sam{uuid.uuid4().hex[:8]}"
        made = httpx.post(
            f"{fake_server.base}/api/account/register",
            json={"name": name, "password": "correct horse battery", "bearer": True},
            headers={CSRF_HEADER: "web"},
        )
        assert made.status_code == 201, made.text
        http = httpx.Client(
            base_url=fake_server.base,
            headers={"Authorization": f"Bearer {made.json()['token']}"},
            timeout=10,
        )
        # The account's name wins over any name the request gives.
        answer = http.post("/api/seeks", json={"game": "fakerace", "rated": True, "name": "X"})
        assert answer.status_code == 201, answer.text
        assert answer.json()["seek"]["name"] == name
        assert answer.json()["seek"]["signed_in"]
        # A second seek of the account replaces its first: one queue at a time.
        answer = http.post("/api/seeks", json={"game": "fakerace", "rated": True})
        players.append((name, answer.json()))
    assert len(lobby(api)) == 2
    advance(fake_seeks, WINDOW + 0.1)
    seated = poll(api, players[0][1])["seated"]
    assert seated["table"]["rated"]
    assert sorted(s["name"] for s in seated["table"]["seats"]) == sorted(n for n, _ in players)


def test_no_client_can_read_another_seeks_seat(
    fake_server: ServerThread, fake_seeks: Seeks
) -> None:
    api = Api(fake_server.base)
    ann = seek(api, "fake", "Ann")
    bob = seek(api, "fake", "Bob")
    advance(fake_seeks, WINDOW + 0.1)
    seated = poll(api, bob)
    assert seated["status"] == "seated"
    # Ann's id is public (the lobby showed it): with Bob's secret it is a 404, not Ann's seat.
    stolen = api.http.post(f"/api/seeks/{ann['seek']['id']}/poll", json={"secret": bob["secret"]})
    assert stolen.status_code == 404
    mine = poll(api, ann)["seated"]
    assert mine["token"] not in str(seated)
    assert seated["seated"]["token"] not in str(mine)
    # Ann's own token opens Ann's seat.
    with clients(fake_server.base, mine["table"]["id"], [mine["token"]]) as (client,):
        welcome = client.hello()
        assert welcome["type"] == "welcome"
        assert welcome["seat"] == mine["seat"]
