"""A correspondence game in the browser, told by email: two players with confirmed
addresses choose on their notices page to get "your turn" by email, one challenges the
other at a day per move, and on each simulated day the player whose turn it is gets
the mail the local SMTP server catches, opens its link, sees "your turn" and moves.
English on a desktop, Ukrainian on a phone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_candidate import choose, legal_moves, make_move, version
from test_web_friends import table_of
from web_helpers import GUARD, StepClock, WebServer

pytest.importorskip("aiosmtpd", reason="aiosmtpd (the test extra) runs the local SMTP server")

from server_mail import Inbox, body, link_token  # the server suite's helpers
from test_web_moderation import (  # its local SMTP server and site, made anew here
    PASSWORD,
    WEB,
    db_url,
    fits,
    inbox,
    register,
    shoot,
    signed_in,
    site,
)

__all__ = ["db_url", "inbox", "site"]  # the fixtures this module uses

DAY = 86400.0


def confirmed(base: str, inbox: Inbox, name: str, lang: str) -> str:
    """Give ``name`` a confirmed address, its mails in ``lang``, through the emailed
    link; the address."""
    email = f"{name.lower()}@example.org"
    auth = httpx.post(
        f"{base}/api/account/login",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=WEB,
    ).json()["token"]
    headers = {"Authorization": f"Bearer {auth}"}
    added = httpx.post(
        f"{base}/api/account/email",
        json={"email": email, "password": PASSWORD, "lang": lang},
        headers=headers,
    )
    assert added.status_code == 202, added.text
    token = link_token(inbox.wait(email), "verify-email")
    done = httpx.post(f"{base}/api/account/email/verify", json={"token": token}, headers=WEB)
    assert done.status_code == 200, done.text
    return email


def choose_mail(page: Any, base: str, label: str) -> None:
    """On the notices page, ask for "your turn" by email (the box labelled ``label``)."""
    page.goto(f"{base}/notices")
    form = "[data-page=notices] form[data-mail-choices]"
    page.wait_for_selector(f"{form} [data-mail-address=yes]")
    assert label in page.inner_text(form)
    page.check(f"{form} input[name=your_turn]")
    page.wait_for_function(
        "fetch('/api/notices/mail').then((r) => r.json()).then((c) => c.your_turn)"
    )


def test_a_correspondence_game_day_by_day_with_your_turn_by_email(
    site: WebServer, inbox: Inbox, browser: Any, shots: Path
) -> None:
    base = site.base
    clock = StepClock(time.time())
    site.app.state.community.clock = clock
    ann_name, bob_name = register(base, "Ann"), register(base, "Bob", lang="uk")
    emails = {ann_name: confirmed(base, inbox, ann_name, "en")}
    emails[bob_name] = confirmed(base, inbox, bob_name, "uk")
    ann = signed_in(browser, base, ann_name, "en", phone=False)
    bob = signed_in(browser, base, bob_name, "uk", phone=True)
    choose_mail(ann, base, "Your turn in a correspondence game")
    shoot(ann, shots, "notices-mail-desktop")
    choose_mail(bob, base, "Ваш хід у грі листуванням")
    fits(bob)
    shoot(bob, shots, "notices-mail-uk-phone")

    # Bob challenges Ann from her profile: one deal of Candidate at a day per move.
    bob.goto(f"{base}/player/{ann_name}")
    bob.click("[data-relation] button[data-action=challenge]")
    bob.select_option("form[data-challenge-form] select[name=clock]", "d1")
    bob.fill("form[data-challenge-form] input[name=deals]", "1")
    bob.click("form[data-challenge-form] button[type=submit]")
    ann.wait_for_selector("#challengebox:not([hidden])")  # on her notices page
    ann.click("#challengebox button[data-action=accept-challenge]")
    ann.wait_for_url("**/play/*")
    table_id = table_of(ann.url)

    # Each day the player whose turn it is gets the mail, opens its link and moves.
    pages = {ann_name: ann, bob_name: bob}
    mails = {ann_name: 1, bob_name: 1}  # the confirmations came first
    subjects = {
        ann_name: f"Your move against {bob_name} on cardtable",
        bob_name: f"Ваш хід проти {ann_name} у cardtable",
    }
    movers = []
    for day in range(3):
        clock.advance(0.8 * DAY)  # a new day: the previous deadline is still ahead
        mover = next(n for n, p in pages.items() if your_turn(p, table_id))
        movers.append(mover)
        mails[mover] += 1
        mail = inbox.wait(emails[mover], count=mails[mover])
        assert mail["Subject"] == subjects[mover]
        address = f"{base}/games"
        assert address in body(mail)
        page = pages[mover]
        page.goto(address)
        page.wait_for_selector(".noticecorner .badge[data-your-turn='1']")
        row = f"li[data-table='{table_id}'][data-your-turn=yes]"
        page.wait_for_selector(row)
        if day < 2:
            shoot(page, shots, f"games-your-turn-{'desktop' if mover == ann_name else 'uk-phone'}")
        page.click(f"{row} a")
        page.wait_for_url(f"**/play/{table_id}*")
        page.wait_for_function(
            "JSON.parse(document.querySelector('.board.candidate')?.dataset.legal || '[]')"
            ".length > 0"
        )
        turn = 0
        deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
        # A turn may be a draw and then a play: it lasts while the table says this side
        # is to move. (The page offers no move while one waits for its answer, which may
        # come after the table's update: that is not the end of the turn.)
        while page.query_selector(".board.candidate .side.mine.tomove"):
            assert time.monotonic() < deadline
            page.wait_for_function(
                "JSON.parse(document.querySelector('.board.candidate')?.dataset.legal"
                " || '[]').length > 0"
            )
            before = version(page)
            make_move(page, choose(legal_moves(page), day + turn))
            page.wait_for_function(
                f"Number(document.querySelector('#main').dataset.version) > {before}"
            )
            turn += 1
        while your_turn(page, table_id):  # the game's row follows the move just after
            assert time.monotonic() < deadline
    assert set(movers) == {ann_name, bob_name}  # each moved, on days of their own
    for page in (ann, bob):
        assert page.errors == []
        page.context.close()


def your_turn(page: Any, table_id: str) -> bool:
    """Whether it is ``page``'s player's turn in the game (their list of games)."""
    games = page.evaluate("fetch('/api/correspondence').then((r) => r.json())")
    return any(g["table"] == table_id and g["your_turn"] for g in games)
