"""Notices by email, through a local SMTP server (aiosmtpd): "your turn" in a
correspondence game and a tournament starting reach the players who chose them,
at their verified address and in their language; nobody else is mailed."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from community_helpers import Person, challenge, swiss_for
from server_fakegame import fake_bots, fake_games
from server_helpers import GUARD, ServerThread, StepClock, fast_settings
from sqlalchemy import select
from test_server_correspondence import DAY, games, move_once, turn_passed

pytest.importorskip("aiosmtpd", reason="aiosmtpd (the test extra) runs the local SMTP server")

from server_mail import Inbox, body, link_token, smtp_server

from cardtable.server.app import create_app
from cardtable.server.models import AccountRow

SITE = "https://cards.example.org"


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    with smtp_server() as server:
        yield server


def start(url: str, inbox: Inbox, clock: StepClock, **kw: Any) -> ServerThread:
    """A server on the database ``url`` mailing through ``inbox``, its community on
    ``clock``."""
    settings = fast_settings()
    settings.smtp_url = inbox.url
    settings.public_url = SITE
    app = create_app(url, settings=settings, static_dir=None, **kw)
    server = ServerThread(app).start()
    server.app.state.community.clock = clock
    return server


def with_address(person: Person, inbox: Inbox, lang: str) -> str:
    """Give ``person`` a verified address (through its emailed link); the address."""
    email = f"{person.name.lower()}@example.org"
    added = person.call(
        "POST", "/api/account/email", 202, email=email, password="a long password", lang=lang
    )
    assert added["pending"] == email
    token = link_token(inbox.wait(email), "verify-email")
    person.call("POST", "/api/account/email/verify", 200, token=token)
    return email


def settled(server: ServerThread) -> None:
    """Every mail queued so far has been delivered (or given up)."""
    server.app.state.recovery.settle_from_thread(GUARD)


def test_your_turn_is_mailed_to_the_player_who_chose_it(db_url: str, inbox: Inbox) -> None:
    clock = StepClock(1_800_000_000.0)  # SQLite and PostgreSQL (the choices are rows)
    server = start(db_url, inbox, clock, games=fake_games(), bots=fake_bots)
    tail = secrets.token_hex(3)
    ann, bob = Person(server.base, f"ann{tail}"), Person(server.base, f"bob{tail}")
    try:
        ann_mail, bob_mail = with_address(ann, inbox, "en"), with_address(bob, inbox, "uk")
        assert ann.call("GET", "/api/notices/mail", 200) == {
            "your_turn": False,
            "tournament_round": False,
            "address": True,
        }
        chosen = ann.call("PUT", "/api/notices/mail", 200, your_turn=True)
        assert chosen == {"your_turn": True, "tournament_round": False, "address": True}
        bob.call("PUT", "/api/notices/mail", 200, your_turn=True, tournament_round=True)
        chosen = bob.call("PUT", "/api/notices/mail", 200, your_turn=False)  # not after all
        assert chosen == {"your_turn": False, "tournament_round": True, "address": True}
        for wrong in ({"your_turn": "often"}, {"challenge": True}):
            assert ann.call("PUT", "/api/notices/mail", 422, **wrong)["detail"]
        for person in (ann, bob):
            person.listen()

        made = challenge(ann, bob, clock={"days": 1}, options={"hand": 1})
        bob.call("POST", f"/api/challenges/{made['id']}/accept", 200)
        turns = 0
        while listed := games(ann):  # each moves on another day until the match is over
            (game,) = listed
            mover = ann if game["your_turn"] else bob
            told = mover.notice("your_turn")["notice"]["params"]
            if mover is ann:
                turns += 1
                mail = inbox.wait(ann_mail, count=1 + turns)  # the verification first
                assert mail["Subject"] == f"Your move against {bob.name} on cardtable"
                text = body(mail)
                until = datetime.fromtimestamp(told["deadline"], UTC)
                assert f"before {until:%Y-%m-%d %H:%M} (UTC)" in text
                assert f"{SITE}/games" in text
                assert "token" not in text  # a mail plays no seat
            else:
                settled(server)
                assert len(inbox.to(bob_mail)) == 1  # his verification only
            clock.advance(0.7 * DAY)
            move_once(server, mover)
            turn_passed(mover)
        assert turns >= 1
        settled(server)
        assert len(inbox.to(ann_mail)) == 1 + turns
        assert len(inbox.to(bob_mail)) == 1
    finally:
        for person in (ann, bob):
            person.close()
        server.stop()


def test_a_tournament_start_is_mailed_in_the_players_language(tmp_path: Path, inbox: Inbox) -> None:
    server = start(f"sqlite:///{tmp_path / 't.db'}", inbox, StepClock(1_800_000_000.0))
    tail = secrets.token_hex(3)
    org, ann, bob = (Person(server.base, f"{p}{tail}") for p in ("org", "ann", "bob"))
    try:
        ann_mail = with_address(ann, inbox, "uk")
        bob_mail = with_address(bob, inbox, "en")
        ann.call("PUT", "/api/notices/mail", 200, tournament_round=True)
        tid = swiss_for(org, [ann, bob])
        for player in (ann, bob):
            player.notice("tournament_round")
        mail = inbox.wait(ann_mail, count=2)
        assert mail["Subject"] == "Турнір Evening Swiss почався"
        assert f"{SITE}/tournament/{tid}" in body(mail)
        # A later round (an arena's next wave, say) is told on the page, never mailed.
        community = server.app.state.community
        ann_id = server.app.state.hub.storage.read(
            lambda s: s.scalar(select(AccountRow.id).where(AccountRow.name == ann.name))
        )
        later = {"tournament": tid, "name": "Evening Swiss", "round": 2}
        told = community.notifier.notify(ann_id, "tournament_round", later)
        asyncio.run_coroutine_threadsafe(told, community.loop).result(GUARD)
        assert ann.notice("tournament_round")["notice"]["params"]["round"] == 2
        settled(server)
        assert len(inbox.to(ann_mail)) == 2  # her confirmation and the start
        assert len(inbox.to(bob_mail)) == 1  # he did not choose it
    finally:
        for person in (org, ann, bob):
            person.close()
        server.stop()
