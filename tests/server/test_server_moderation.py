"""Moderation over the real routes and sockets: the role given by ``cardtable admin``,
reports with their chat lines and games, a mute that refuses the next chat line, a ban
that ends sessions and connections and leaves the leaderboard, renames, and every
action in the log with who and why."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerThread, fake_server_thread, fast_settings
from sqlalchemy import select
from sqlalchemy.orm import Session
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed

from cardtable.cli import app as cli
from cardtable.server.models import AccountRow, RatingRow
from cardtable.server.runtime import BANNED

WEB = {"X-Cardtable-Client": "test"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'moderation.db'}"


@pytest.fixture(scope="module")
def server(db_url: str) -> Iterator[ServerThread]:
    settings = fast_settings()
    # Seats stay their people's while a test connects them, however busy the machine:
    # with half a second, stand-ins could finish and drop a table before its hello.
    settings.grace_seconds = 60.0
    started = fake_server_thread(Path(db_url.removeprefix("sqlite:///")), settings)
    yield started
    started.stop()


def register(base: str, prefix: str = "Ann") -> tuple[str, dict[str, str]]:
    """A new account: its name and bearer headers."""
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    made = httpx.post(
        f"{base}/api/account/register",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=WEB,
    )
    assert made.status_code == 201, made.text
    return name, {**WEB, "Authorization": f"Bearer {made.json()['token']}"}


def admin(db_url: str, *args: str) -> Any:
    """``cardtable admin ARGS --db DB``, run as on the command line."""
    return CliRunner().invoke(cli, ["admin", *args, "--db", db_url])


def moderator(base: str, db_url: str) -> tuple[str, dict[str, str]]:
    """A new account made a moderator by the command line."""
    name, auth = register(base, "Mod")
    done = admin(db_url, "grant-moderator", name)
    assert done.exit_code == 0, done.output
    return name, auth


def act(base: str, auth: dict[str, str], **body: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/moderation/actions", json=body, headers=auth)


def seated_pair(base: str) -> tuple[str, list[tuple[str, dict[str, str], str]]]:
    """A table of the test game with two signed-in players: the table id and per seat
    (name, bearer headers, seat token)."""
    made = httpx.post(
        f"{base}/api/tables",
        json={"game": "fake", "seats": [{"type": "open"}, {"type": "open"}]},
    ).json()
    seats = []
    for invite in made["invites"]:
        name, auth = register(base)
        joined = httpx.post(
            f"{base}/api/tables/{made['table']['id']}/join",
            json={"invite": invite["code"], "name": "ignored"},
            headers=auth,
        )
        assert joined.status_code == 200, joined.text
        seats.append((name, auth, joined.json()["token"]))
    return made["table"]["id"], seats


def rated(name: str, mu: float) -> Callable[[Session], None]:
    """A write that gives the account ``name`` a settled rating in the test game."""

    def run(session: Session) -> None:
        account = session.scalar(select(AccountRow.id).where(AccountRow.name == name))
        session.add(
            RatingRow(
                game="fake",
                player=f"account:{account}",
                account_id=account,
                name=name,
                mu=mu,
                sigma=3.0,
                games=12,
                wins=6,
                losses=6,
                updated_at=datetime.now(UTC),
            )
        )

    return run


def leaderboard(base: str) -> list[str]:
    """The names on the test game's leaderboard."""
    answer = httpx.get(f"{base}/api/ratings?game=fake&limit=500").json()
    return [entry["name"] for entry in answer["entries"]]


def login(base: str, name: str) -> httpx.Response:
    return httpx.post(
        f"{base}/api/account/login", json={"name": name, "password": PASSWORD}, headers=WEB
    )


def say(client: Client, text: str) -> dict[str, Any]:
    client.send({"type": "chat", "text": text})
    return client.wait_for(lambda m: m["type"] in ("chat", "error"))


def test_the_command_line_grants_and_revokes_the_role_and_logs_it(
    server: ServerThread, db_url: str
) -> None:
    base = server.base
    unknown = admin(db_url, "grant-moderator", "Nobody here")
    assert unknown.exit_code == 1
    assert "no account is called 'Nobody here'" in unknown.output
    name, auth = register(base, "Mod")
    assert httpx.get(f"{base}/api/moderation/reports", headers=auth).status_code == 403
    granted = admin(db_url, "grant-moderator", name.lower())  # any case finds the name
    assert granted.exit_code == 0
    assert f"{name} is now a moderator" in granted.output
    assert httpx.get(f"{base}/api/account", headers=auth).json()["moderator"] is True
    assert httpx.get(f"{base}/api/moderation/reports", headers=auth).status_code == 200
    log = httpx.get(f"{base}/api/moderation/log", headers=auth).json()
    assert (log[0]["action"], log[0]["target"], log[0]["moderator"]) == (
        "grant",
        name,
        "cardtable admin",
    )
    revoked = admin(db_url, "revoke-moderator", name)
    assert revoked.exit_code == 0
    refused = httpx.get(f"{base}/api/moderation/log", headers=auth)
    assert (refused.status_code, refused.json()["detail"]["code"]) == (403, "not_moderator")


def test_a_chat_report_is_judged_and_a_mute_refuses_the_next_line(
    server: ServerThread, db_url: str
) -> None:
    base = server.base
    table_id, [(ann, ann_auth, ann_token), (bob, bob_auth, bob_token)] = seated_pair(base)
    mod, mod_auth = moderator(base, db_url)
    with contextlib.ExitStack() as stack:
        a = Client(base, table_id, ann_token)
        b = Client(base, table_id, bob_token)
        stack.callback(a.close)
        stack.callback(b.close)
        a.hello()
        b.hello()
        rude = say(b, "you play like a potato")
        assert rude["type"] == "chat"
        line = rude["line"]["number"]
        filed = httpx.post(
            f"{base}/api/reports",
            json={
                "name": bob,
                "category": "chat",
                "reason": "insults",
                "table": table_id,
                "line": line,
            },
            headers=ann_auth,
        )
        assert filed.status_code == 201, filed.text
        (report,) = [
            r
            for r in httpx.get(f"{base}/api/moderation/reports", headers=mod_auth).json()
            if r["id"] == filed.json()["id"]
        ]
        assert (report["reporter"], report["target"]["name"], report["category"]) == (
            ann,
            bob,
            "chat",
        )
        assert [(c["text"], c["reported"]) for c in report["chat"]] == [
            ("you play like a potato", True)
        ]
        game = report["games"][0]  # (its status: the stand-in bots may have finished it)
        assert (game["table"], game["game"], game["players"], game["reported"]) == (
            table_id,
            "fake",
            [ann, bob],
            True,
        )
        muted = act(
            base,
            mod_auth,
            name=bob,
            action="mute",
            minutes=10,
            reason="insults",
            report=report["id"],
        )
        assert muted.status_code == 200, muted.text
        refused = say(b, "sorry")
        assert (refused["type"], refused["code"], refused["params"]["minutes"]) == (
            "error",
            "chat_muted",
            10,
        )
        assert refused["message_id"] == "server.chat_muted"
        assert say(a, "thanks")["type"] == "chat"  # the other player still chats
        open_ids = [
            r["id"] for r in httpx.get(f"{base}/api/moderation/reports", headers=mod_auth).json()
        ]
        assert report["id"] not in open_ids  # the action closed the report
        (notice,) = httpx.get(f"{base}/api/account/notices", headers=bob_auth).json()
        assert (notice["action"], notice["reason"], notice["details"]["minutes"]) == (
            "mute",
            "insults",
            10,
        )
        # The same, in the player's one list of notices (the bell): no moderator named.
        (told,) = httpx.get(f"{base}/api/notices", headers=bob_auth).json()["notices"]
        assert told["kind"] == "moderation"
        assert told["params"]["action"] == "mute"
        assert told["params"]["reason"] == "insults"
        assert told["params"]["until"] == notice["details"]["until"]
        assert mod not in str(told)
        assert act(base, mod_auth, name=bob, action="unmute", reason="served").status_code == 200
        assert say(b, "sorry")["type"] == "chat"
    log = httpx.get(f"{base}/api/moderation/log", headers=mod_auth).json()
    assert [(x["action"], x["target"], x["moderator"], x["reason"]) for x in log[:2]] == [
        ("unmute", bob, mod, "served"),
        ("mute", bob, mod, "insults"),
    ]
    assert log[1]["report"] == report["id"]


def test_a_ban_ends_sessions_and_connections_and_leaves_the_leaderboard(
    server: ServerThread, db_url: str
) -> None:
    base = server.base
    table_id, [(ann, _ann_auth, _), (bob, bob_auth, bob_token)] = seated_pair(base)
    _mod, mod_auth = moderator(base, db_url)
    storage = server.app.state.hub.storage
    for name, mu in ((ann, 26.0), (bob, 30.0)):
        storage.write(rated(name, mu)).result(timeout=30)
    assert {ann, bob} <= set(leaderboard(base))
    b = Client(base, table_id, bob_token)
    try:
        b.hello()
        banned = act(base, mod_auth, name=bob, action="ban", reason="cheating")
        assert banned.status_code == 200, banned.text
        with pytest.raises(ConnectionClosed) as closed:
            b.wait_for(lambda m: False)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == BANNED
    finally:
        b.close()
    assert httpx.get(f"{base}/api/account", headers=bob_auth).status_code == 401
    signed = login(base, bob)
    assert (signed.status_code, signed.json()["detail"]["code"]) == (403, "account_banned")
    again = Client(base, table_id, bob_token)  # the seat's token does not bring them back
    try:
        refused = again.hello()
        assert (refused["type"], refused["code"]) == ("error", "account_banned")
    finally:
        again.close()
    board = leaderboard(base)
    assert bob not in board
    assert ann in board  # the games Bob played stay in Ann's rating
    assert act(base, mod_auth, name=bob, action="unban", reason="appeal").status_code == 200
    signed = login(base, bob)
    assert signed.status_code == 200
    assert bob in leaderboard(base)


def test_a_rename_changes_the_name_everywhere_and_is_logged(
    server: ServerThread, db_url: str
) -> None:
    base = server.base
    rude, _ = register(base, "Rude")
    other, _ = register(base, "Kind")
    mod, mod_auth = moderator(base, db_url)
    taken = act(base, mod_auth, name=rude, action="rename", new_name=other.upper(), reason="x")
    assert (taken.status_code, taken.json()["detail"]["code"]) == (409, "name_taken")
    bad = act(base, mod_auth, name=rude, action="rename", new_name="Bot Smith", reason="x")
    assert (bad.status_code, bad.json()["detail"]["code"]) == (422, "name_reserved")
    fresh = f"Player{uuid.uuid4().hex[:6]}"
    done = act(base, mod_auth, name=rude, action="rename", new_name=fresh, reason="offensive")
    assert done.json() == {
        "action": "rename",
        "name": fresh,
        "details": {"from": rude, "to": fresh},
    }
    signed = login(base, fresh)
    assert signed.status_code == 200
    assert httpx.get(f"{base}/api/players/{rude}").status_code == 404
    line = httpx.get(f"{base}/api/moderation/log", headers=mod_auth).json()[0]
    assert (line["action"], line["target"], line["reason"]) == ("rename", rude, "offensive")
    assert (
        act(base, mod_auth, name=mod, action="warn", reason="x").json()["detail"]["code"]
        == "act_self"
    )


def test_reports_are_refused_for_yourself_strangers_and_past_the_hourly_limit(
    server: ServerThread,
) -> None:
    base = server.base
    ann, auth = register(base)
    bob, _ = register(base, "Bob")

    def report(name: str) -> httpx.Response:
        return httpx.post(
            f"{base}/api/reports",
            json={"name": name, "category": "name", "reason": "rude name"},
            headers=auth,
        )

    assert report(ann).json()["detail"]["code"] == "report_self"
    assert report("Nobody at all").status_code == 404
    assert [report(bob).status_code for _ in range(11)] == [201] * 10 + [429]
    signed_out = httpx.post(
        f"{base}/api/reports", json={"name": bob, "category": "play", "reason": "x"}, headers=WEB
    )
    assert signed_out.status_code == 401
