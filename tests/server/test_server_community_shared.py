"""Notices and presence across processes: two server applications (as two processes
would be) on one database and one Redis prefix. A player's page socket on one process
hears what another process decided (a challenge made there, its answer); a friend
online through one process shows so on the other. Against the real Redis on
127.0.0.1:6379 (skipped when none answers)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from community_helpers import Person, challenge, token_of
from server_fakegame import fake_bots, fake_games
from server_helpers import GUARD, ServerThread, clients, fast_settings
from test_server_shared import REDIS_URL, forget, redis_up

from cardtable.server.app import create_app

pytestmark = pytest.mark.skipif(not redis_up(), reason=f"no Redis answers at {REDIS_URL}")


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[ServerThread, ServerThread]]:
    with two_processes(tmp_path) as servers:
        yield servers


@contextmanager
def two_processes(
    tmp_path: Path, smtp_url: str | None = None
) -> Iterator[tuple[ServerThread, ServerThread]]:
    """Two servers of the fake games on one database and one Redis prefix (mailing
    through ``smtp_url`` when given)."""
    prefix = f"cardtable-test-{secrets.token_hex(6)}:"
    servers = []
    for _ in range(2):
        settings = fast_settings()
        settings.redis_url, settings.redis_prefix = REDIS_URL, prefix
        settings.smtp_url = smtp_url
        app = create_app(
            f"sqlite:///{tmp_path / 'shared.db'}",
            games=fake_games(),
            bots=fake_bots,
            settings=settings,
            static_dir=None,
        )
        servers.append(ServerThread(app).start())
    yield servers[0], servers[1]
    for server in servers:
        server.stop()
    forget(prefix)


def until(check: object, what: str) -> None:
    """Ask again until ``check()`` holds (another process publishes in the background)."""
    deadline = time.monotonic() + GUARD
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what


def test_notices_reach_the_socket_on_the_other_process(
    pair: tuple[ServerThread, ServerThread],
) -> None:
    a, b = pair
    tail = secrets.token_hex(3)
    ann = Person(a.base, f"ann{tail}")
    bob = Person(a.base, f"bob{tail}").at(b.base)  # Bob's pages are served by B
    bob.listen()
    ann.call("POST", f"/api/friends/{bob.name}", 204)
    until(
        lambda: ann.call("GET", "/api/friends", 200)["following"][0]["online"],
        "Bob online through B never showed on A",
    )
    ann.listen()  # Ann's page on A

    made = challenge(ann, bob)  # decided on A
    heard = bob.notice("challenge")  # on B's socket
    assert heard["notice"]["params"]["challenge"] == made["id"]
    assert heard["unread"] == 1
    accepted = bob.call("POST", f"/api/challenges/{made['id']}/accept", 200)  # on B
    told = ann.notice("challenge_accepted")  # on A's socket
    assert told["notice"]["params"]["table"] == accepted["table"]

    # Seated through B, Bob shows at his table on A's list too.
    with clients(b.base, accepted["table"], [token_of(accepted["play_url"])]) as (seat,):
        seat.hello()
        until(
            lambda: (
                ann.call("GET", "/api/friends", 200)["following"][0]["tables"]
                == [accepted["table"]]
            ),
            "Bob's table never showed on A",
        )
    # The other way: a notice made on B reaches a socket on A.
    bob.call("POST", f"/api/friends/{ann.name}", 204)
    again = challenge(bob, ann)
    assert ann.notice("challenge")["notice"]["params"]["challenge"] == again["id"]
    for person in (ann, bob):
        person.close()


def test_each_turn_is_mailed_once_whichever_process_the_players_are_on(
    tmp_path: Path,
) -> None:
    pytest.importorskip("aiosmtpd", reason="aiosmtpd runs the local SMTP server")
    from server_mail import smtp_server
    from test_server_community_mail import with_address
    from test_server_correspondence import games, move_once, turn_passed

    with smtp_server() as inbox, two_processes(tmp_path, inbox.url) as (a, b):
        tail = secrets.token_hex(3)
        ann = Person(a.base, f"ann{tail}")  # Ann on A
        bob = Person(a.base, f"bob{tail}").at(b.base)  # Bob on B
        emails = {
            ann.name: with_address(ann, inbox, "en"),
            bob.name: with_address(bob, inbox, "uk"),
        }
        for person in (ann, bob):
            person.call("PUT", "/api/notices/mail", 200, your_turn=True)
            person.listen()
        made = challenge(ann, bob, clock={"days": 1}, options={"hand": 1})
        bob.call("POST", f"/api/challenges/{made['id']}/accept", 200)
        told = {ann.name: 0, bob.name: 0}
        while listed := games(ann):
            (game,) = listed
            mover = ann if game["your_turn"] else bob
            mover.notice("your_turn")
            told[mover.name] += 1
            inbox.wait(emails[mover.name], count=1 + told[mover.name])
            move_once(a if mover is ann else b, mover)  # through the mover's own process
            turn_passed(mover)
        for server in (a, b):
            server.app.state.recovery.settle_from_thread(GUARD)
        for name, email in emails.items():
            assert len(inbox.to(email)) == 1 + told[name]  # the confirmation, then a turn each
        assert sum(told.values()) >= 2
        for person in (ann, bob):
            person.close()
