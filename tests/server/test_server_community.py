"""The community over real HTTP and WebSockets: follows, challenges answered into
tables, blocks (no challenge, no chat, no pairing), and the bad requests' 4xx.

Notices are read on each player's own socket (``/ws/me``) as a page would."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from community_helpers import Person, challenge, play_out, swiss_for, token_of
from server_fakegame import fake_bots, fake_games
from server_helpers import ServerThread, clients, fast_settings
from sqlalchemy import func, select

from cardtable.server.app import create_app
from cardtable.server.community.models import NoticeMailRow


def start_server(db_url: str) -> ServerThread:
    """A server of the fake games on ``db_url``."""
    app = create_app(
        db_url, games=fake_games(), bots=fake_bots, settings=fast_settings(), static_dir=None
    )
    return ServerThread(app).start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    started = start_server(f"sqlite:///{tmp_path / 'community.db'}")
    yield started
    started.stop()


def people(base: str, *names: str) -> list[Person]:
    """New accounts with names of their own (one test's players never meet another's)."""
    tail = secrets.token_hex(3)
    return [Person(base, f"{name}{tail}") for name in names]


def test_a_followed_player_is_challenged_accepts_and_both_play_the_table(db_url: str) -> None:
    server = start_server(db_url)
    try:
        ann, bob = people(server.base, "ann", "bob")
        assert bob.listen()["unread"] == 0
        ann.call("POST", f"/api/friends/{bob.name}", 204)
        bob.call("POST", f"/api/friends/{ann.name}", 204)
        friends = ann.call("GET", "/api/friends", 200)
        assert friends["following"] == [
            {"name": bob.name, "follows_you": True, "online": True, "tables": []}
        ]
        relation = bob.call("GET", f"/api/players/{ann.name}/relation", 200)
        assert relation["following"]
        assert not relation["blocked"]

        made = challenge(ann, bob, rated=False)
        heard = bob.notice("challenge")
        assert heard["unread"] == 1
        assert heard["notice"]["params"]["from"] == ann.name
        assert heard["notice"]["params"]["challenge"] == made["id"]
        ann.listen()
        accepted = bob.call("POST", f"/api/challenges/{made['id']}/accept", 200)
        assert accepted["status"] == "accepted"
        assert accepted["play_url"]
        told = ann.notice("challenge_accepted")["notice"]["params"]
        assert told == {"challenge": made["id"], "by": bob.name, "table": accepted["table"]}
        mine = ann.call("GET", f"/api/challenges/{made['id']}", 200)
        assert mine["table"] == accepted["table"]
        assert {mine["seat"], accepted["seat"]} == {0, 1}
        # Each side reads only its own token.
        assert token_of(mine["play_url"]) != token_of(accepted["play_url"])

        table = ann.call("GET", f"/api/tables/{accepted['table']}", 200)
        names = {s["name"] for s in table["seats"]}
        assert names == {ann.name, bob.name}
        assert table["status"] == "playing"
        assert table["rated"] is False
        tokens = [token_of(mine["play_url"]), token_of(accepted["play_url"])]
        with clients(server.base, accepted["table"], tokens) as players:
            play_out(players)
        # While seated, each showed on the other's list at that table; the game over,
        # the friends list shows no table.
        assert ann.call("GET", "/api/friends", 200)["following"][0]["tables"] == []
        assert bob.call("GET", "/api/notices", 200)["unread"] == 1
        assert bob.call("POST", "/api/notices/read", 200)["unread"] == 0
        for person in (ann, bob):
            person.close()
    finally:
        server.stop()


def test_a_friend_at_a_table_is_shown_there(server: ServerThread) -> None:
    ann, bob = people(server.base, "ann", "bob")
    ann.call("POST", f"/api/friends/{bob.name}", 204)
    made = challenge(bob, ann)
    accepted = ann.call("POST", f"/api/challenges/{made['id']}/accept", 200)
    theirs = bob.call("GET", f"/api/challenges/{made['id']}", 200)
    with clients(server.base, accepted["table"], [token_of(theirs["play_url"])]) as (seat,):
        seat.hello()
        shown = ann.call("GET", "/api/friends", 200)["following"][0]
        assert shown["online"] is True
        assert shown["tables"] == [accepted["table"]]
    ann.close()
    bob.close()


def test_bad_requests_are_refused_with_a_clear_4xx(server: ServerThread) -> None:
    ann, bob = people(server.base, "ann", "bob")
    guest = server.base + "/api/challenges"
    import httpx

    answer = httpx.post(guest, json={"name": bob.name, "game": "fake"})
    assert answer.status_code == 401
    assert answer.json()["detail"]["code"] == "signed_out"
    body = {"game": "fake"}
    ann.refused("POST", "/api/challenges", 422, "challenge_self", name=ann.name, **body)
    ann.refused("POST", "/api/challenges", 404, "no_player", name="nobody-at-all", **body)
    ann.refused("POST", "/api/challenges", 422, "unknown_game", name=bob.name, game="chess")
    ann.refused(
        "POST",
        "/api/challenges",
        422,
        "challenge_options",
        name=bob.name,
        game="fake",
        options={"hand": 99},
    )
    ann.refused(
        "POST",
        "/api/challenges",
        422,
        "days_realtime",
        name=bob.name,
        game="fakerace",
        clock={"days": 1},
    )
    answer = ann.http.post(
        "/api/challenges", json={"name": bob.name, "game": "fake", "clock": {"days": 5}}
    )
    assert answer.status_code == 422  # only 1, 2, 3 or 7 days
    made = challenge(ann, bob)
    ann.refused("POST", "/api/challenges", 409, "challenge_pending", name=bob.name, **body)
    ann.refused("POST", f"/api/challenges/{made['id']}/accept", 403, "not_your_challenge")
    bob.refused("POST", f"/api/challenges/{made['id']}/cancel", 403, "not_challenger")
    bob.call("POST", f"/api/challenges/{made['id']}/decline", 204)
    bob.refused("POST", f"/api/challenges/{made['id']}/accept", 409, "challenge_answered")
    bob.refused("GET", "/api/challenges/unknown-id", 404, "no_challenge")
    ann.refused("POST", f"/api/friends/{ann.name}", 422, "follow_self")
    ann.refused("POST", f"/api/blocks/{ann.name}", 422, "block_self")
    ann.refused("POST", "/api/friends/nobody-at-all", 404, "no_player")
    ann.refused(
        "POST", "/api/invites/send", 404, "no_invite", name=bob.name, table="abcd", invite="abcd"
    )
    ann.close()
    bob.close()


def test_a_challenge_expires(server: ServerThread) -> None:
    ann, bob = people(server.base, "ann", "bob")
    community = server.app.state.community
    now = [community.now()]
    community.clock = lambda: now[0]
    made = challenge(ann, bob)
    now[0] += 599
    assert bob.call("GET", f"/api/challenges/{made['id']}", 200)["status"] == "pending"
    now[0] += 2
    assert bob.call("GET", f"/api/challenges/{made['id']}", 200)["status"] == "expired"
    bob.refused("POST", f"/api/challenges/{made['id']}/accept", 409, "challenge_answered")
    ann.close()
    bob.close()


def test_a_blocked_player_cannot_challenge_chat_or_be_paired(server: ServerThread) -> None:
    ann, bob, cid = people(server.base, "ann", "bob", "cid")
    pending = challenge(ann, bob)
    bob.call("POST", f"/api/blocks/{ann.name}", 204)
    assert bob.call("GET", "/api/friends", 200)["blocked"] == [ann.name]
    # The block cancelled the pending challenge; no new one either way.
    assert ann.call("GET", f"/api/challenges/{pending['id']}", 200)["status"] == "cancelled"
    ann.refused("POST", "/api/challenges", 403, "blocked_you", name=bob.name, game="fake")
    bob.refused("POST", "/api/challenges", 403, "you_blocked", name=ann.name, game="fake")
    ann.refused("POST", f"/api/friends/{bob.name}", 403, "blocked_you")
    assert ann.call("GET", f"/api/players/{bob.name}/relation", 200)["blocked_you"] is True

    # Play now: Ann and Bob wait in one queue and are never seated together; Cid
    # coming makes a table with the oldest one who may sit with him.
    assert ann.http.get("/api/seeks").status_code == 200  # the queues, made on first use
    server.app.state.seeks.window = 0.0
    waits = [p.call("POST", "/api/seeks", 201, game="fake") for p in (ann, bob)]
    assert [w["status"] for w in waits] == ["waiting", "waiting"]
    third = cid.call("POST", "/api/seeks", 201, game="fake")
    assert third["status"] == "seated"
    polled = [
        p.call("POST", f"/api/seeks/{w['seek']['id']}/poll", 200, secret=w["secret"])
        for p, w in zip((ann, bob), waits, strict=True)
    ]
    assert polled[0]["status"] == "seated"
    assert polled[1]["status"] == "waiting"
    assert polled[0]["seated"]["table"]["id"] == third["seated"]["table"]["id"]
    bob.call("POST", f"/api/seeks/{waits[1]['seek']['id']}/cancel", 204, secret=waits[1]["secret"])

    # Chat at a table they share (an open seat's invite): Ann's lines do not reach Bob.
    bob.call("DELETE", f"/api/blocks/{ann.name}", 204)
    made = challenge(ann, bob)
    accepted = bob.call("POST", f"/api/challenges/{made['id']}/accept", 200)
    theirs = ann.call("GET", f"/api/challenges/{made['id']}", 200)
    bob.call("POST", f"/api/blocks/{ann.name}", 204)
    tokens = [token_of(theirs["play_url"]), token_of(accepted["play_url"])]
    with clients(server.base, accepted["table"], tokens) as (ann_seat, bob_seat):
        for seat in (ann_seat, bob_seat):
            seat.hello()
        ann_seat.send({"type": "chat", "text": "hidden from bob"})
        ann_seat.wait_for(lambda m: m["type"] == "chat" and m["line"]["text"] == "hidden from bob")
        bob_seat.send({"type": "chat", "text": "bob speaks"})
        bob_seat.wait_for(lambda m: m["type"] == "chat" and m["line"]["text"] == "bob speaks")
        ann_seat.wait_for(lambda m: m["type"] == "chat" and m["line"]["text"] == "bob speaks")
        lines = [m["line"]["text"] for m in bob_seat.received if m["type"] == "chat"]
        assert lines == ["bob speaks"]
    for person in (ann, bob, cid):
        person.close()


def test_a_tournament_round_starting_is_told_to_its_players(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", settings=fast_settings(), static_dir=None)
    server = ServerThread(app).start()
    try:
        org, ann, bob = people(server.base, "org", "ann", "bob")
        tid = swiss_for(org, [ann, bob])
        for player in (ann, bob):
            told = player.notice("tournament_round")["notice"]["params"]
            assert told == {"tournament": tid, "name": "Evening Swiss", "round": 1}
        assert org.call("GET", "/api/notices", 200)["notices"] == []  # not playing
        for person in (org, ann, bob):
            person.close()
    finally:
        server.stop()


def test_a_friend_is_invited_to_an_open_seat(server: ServerThread) -> None:
    ann, bob = people(server.base, "ann", "bob")
    bob.listen()
    made = ann.call(
        "POST", "/api/tables", 201, game="fake", seats=[{"type": "open"}, {"type": "open"}]
    )
    table_id, invite = made["table"]["id"], made["invites"][1]["code"]
    ann.call("POST", "/api/invites/send", 204, name=bob.name, table=table_id, invite=invite)
    told = bob.notice("invite")["notice"]["params"]
    assert told == {"from": ann.name, "table": table_id, "url": f"/play/{table_id}?invite={invite}"}
    # Taken, the seat is no longer to be offered.
    bob.call("POST", f"/api/tables/{table_id}/join", 200, invite=invite, name=bob.name)
    ann.refused(
        "POST", "/api/invites/send", 404, "no_invite", name=bob.name, table=table_id, invite=invite
    )
    bob.call("POST", f"/api/blocks/{ann.name}", 204)
    other = made["invites"][0]["code"]
    ann.refused(
        "POST", "/api/invites/send", 403, "blocked_you", name=bob.name, table=table_id, invite=other
    )
    ann.close()
    bob.close()


def test_a_deleted_account_leaves_no_follow_challenge_or_notice(server: ServerThread) -> None:
    ann, bob = people(server.base, "ann", "bob")
    ann.call("POST", f"/api/friends/{bob.name}", 204)
    bob.call("POST", f"/api/friends/{ann.name}", 204)
    made = challenge(ann, bob)
    bob.call("POST", f"/api/blocks/{ann.name}", 204)
    bob.call("PUT", "/api/notices/mail", 200, your_turn=True)
    storage = server.app.state.hub.storage
    mail_rows = select(func.count()).select_from(NoticeMailRow)
    assert storage.read(lambda s: s.scalar(mail_rows)) == 1
    bob.call("POST", "/api/account/delete", 204, password="a long password")
    assert storage.read(lambda s: s.scalar(mail_rows)) == 0
    assert ann.call("GET", "/api/friends", 200) == {"following": [], "blocked": []}
    ann.refused("GET", f"/api/challenges/{made['id']}", 404, "no_challenge")
    ann.refused("POST", f"/api/friends/{bob.name}", 404, "no_player")
    ann.close()
    bob.close()


def test_challenges_waiting_at_once_are_bounded(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable.server.community import challenges as challenges_module

    monkeypatch.setattr(challenges_module, "MAX_PENDING", 1)
    ann, bob, cid = people(server.base, "ann", "bob", "cid")
    made = challenge(ann, bob)
    ann.refused("POST", "/api/challenges", 429, "challenges_limit", name=cid.name, game="fake")
    ann.call("POST", f"/api/challenges/{made['id']}/cancel", 204)
    challenge(ann, cid)  # one waits again
    for person in (ann, bob, cid):
        person.close()
