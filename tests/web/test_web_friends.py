"""Friends in the browser: two accounts follow each other, one challenges the other
from the friends list, the challenge appears live on the other's page, they play the
Candidate game it made; then a correspondence challenge from a profile, each moving on
another (simulated) day with "your turn" in the header. English on a desktop,
Ukrainian on a phone, with screenshots of every community page."""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path
from typing import Any

from test_web_accounts import context, sign_up
from test_web_candidate import choose, legal_moves, make_move, version
from web_helpers import GUARD, StepClock, WebServer


def follow(page: Any, base: str, name: str) -> None:
    page.goto(base + "/friends")
    page.fill("[data-page=friends] input[name=name]", name)
    page.click("[data-page=friends] form.row button[type=submit]")
    page.wait_for_selector(f"[data-friend='{name}']")


def play_to_the_end(ann: Any, bob: Any, table_id: str) -> int:
    """Both play through their pages until the match is over; the moves made."""
    played = 0
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    for page in (ann, bob):
        page.wait_for_url(f"**/play/{table_id}*")
        page.wait_for_selector(".board.candidate")
    while ann.get_attribute("#main", "data-status") != "finished":
        assert time.monotonic() < deadline, f"the game did not finish ({played} moves)"
        mover = next((p for p in (ann, bob) if legal_moves(p)), None)
        if mover is None:
            ann.wait_for_timeout(30)
            continue
        before = version(mover)
        make_move(mover, choose(legal_moves(mover), played))
        mover.wait_for_function(
            f"Number(document.querySelector('#main').dataset.version) > {before}"
        )
        played += 1
    return played


def test_friends_challenge_and_play_then_a_correspondence_game(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    tail = uuid.uuid4().hex[:5]
    ann_name, bob_name = f"Ann{tail}", f"Bob{tail}"
    ann_ctx, bob_ctx = context(browser), context(browser, "uk", phone=True)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(ann, base, ann_name)
    sign_up(bob, base, bob_name)

    follow(ann, base, bob_name)
    follow(bob, base, ann_name)
    ann.reload()
    row = ann.wait_for_selector(f"[data-friend='{bob_name}'][data-online=yes]")
    assert "follows you" in row.inner_text()
    bob.wait_for_selector(f"[data-friend='{ann_name}'][data-online=yes]")
    assert "стежить за вами" in bob.inner_text(f"[data-friend='{ann_name}']")

    # Ann challenges Bob from her friends list: one deal of Candidate, no clock.
    ann.click(f"[data-friend='{bob_name}'] button[data-action=challenge]")
    form = f"form[data-challenge-form='{bob_name}']"
    ann.wait_for_selector(form)
    ann.fill(f"{form} input[name=deals]", "1")
    ann.screenshot(path=str(shots / "friends-challenge-form.png"), full_page=True)
    ann.click(f"{form} button[type=submit]")
    # Bob, on his friends page, sees it at once in the banner, in Ukrainian.
    box = bob.wait_for_selector("#challengebox:not([hidden])")
    assert ann_name in box.inner_text()
    assert "викликає вас" in box.inner_text()
    bob.wait_for_selector(".noticecorner .badge[data-unread='1']")
    bob.screenshot(path=str(shots / "friends-challenge-uk-phone.png"))
    ann.wait_for_selector("[data-challenge][data-status=pending]")
    ann.screenshot(path=str(shots / "friends-desktop.png"), full_page=True)
    bob.click("#challengebox button[data-action=accept-challenge]")
    bob.wait_for_url("**/play/*")
    table_id = table_of(bob.url)
    assert play_to_the_end(ann, bob, table_id) > 10
    for page in (ann, bob):
        page.wait_for_selector(".result:not([hidden])")

    # A correspondence game: Bob challenges Ann from her profile, a day per move.
    clock = StepClock(time.time())
    web_server.app.state.community.clock = clock
    bob.goto(f"{base}/player/{ann_name}")
    bob.wait_for_selector("[data-relation=following] button[data-action=challenge]")
    bob.click("[data-relation] button[data-action=challenge]")
    bob.select_option("form[data-challenge-form] select[name=clock]", "d1")
    bob.fill("form[data-challenge-form] input[name=deals]", "1")
    bob.screenshot(path=str(shots / "friends-profile-challenge-uk-phone.png"), full_page=True)
    bob.click("form[data-challenge-form] button[type=submit]")
    ann.wait_for_selector("#challengebox:not([hidden])")
    assert "1 day per move" in ann.inner_text("#challengebox")
    ann.click("#challengebox button[data-action=accept-challenge]")
    first = table_id
    ann.wait_for_url(lambda url: "/play/" in url and first not in url)
    table_id = table_of(ann.url)
    bob.goto(base + "/games")
    bob.wait_for_selector(f"[data-page=games] li[data-table='{table_id}']")

    # Day by day: whoever's turn it is sees the badge, opens the game and moves once.
    for day in range(2):
        clock.advance(0.7 * 86400)
        mover, other = (ann, bob) if legal_moves_of(ann, base, table_id) else (bob, ann)
        mover.goto(base + "/games")
        mover.wait_for_selector(".noticecorner .badge[data-your-turn='1']")
        mover.wait_for_selector(f"li[data-table='{table_id}'][data-your-turn=yes]")
        shot = "friends-games-en.png" if mover is ann else "friends-games-uk-phone.png"
        mover.screenshot(path=str(shots / shot))
        mover.click(f"li[data-table='{table_id}'] a")
        mover.wait_for_url(f"**/play/{table_id}*")
        mover.wait_for_function(
            "JSON.parse(document.querySelector('.board.candidate')?.dataset.legal || '[]')"
            ".length > 0"
        )
        # A turn may take several moves (draw, then play): the player makes them all,
        # while the table shows their side to move (the page offers no move while one
        # waits for its answer, which may come after the table's update).
        turn = 0
        while mover.query_selector(".board.candidate .side.mine.tomove"):
            mover.wait_for_function(
                "JSON.parse(document.querySelector('.board.candidate')?.dataset.legal"
                " || '[]').length > 0"
            )
            before = version(mover)
            make_move(mover, choose(legal_moves(mover), day + turn))
            mover.wait_for_function(
                f"Number(document.querySelector('#main').dataset.version) > {before}"
            )
            turn += 1
        other.goto(base + "/games")
        other.wait_for_selector(f"li[data-table='{table_id}'][data-your-turn=yes]")
        other.wait_for_selector(".noticecorner .badge[data-your-turn='1']")
    # A friend's invite: Ann makes a table in the lobby and sends its open seat to Bob.
    ann.goto(base + "/")
    ann.select_option("select[name=seat1]", "open")
    ann.click("form.create button[type=submit]")
    invite = "li[data-invite-seat='1'] .invite-friend:not([hidden])"
    ann.wait_for_selector(invite)
    ann.select_option(f"{invite} select", bob_name)
    ann.click(f"{invite} button[data-action=invite-friend]")
    bob.goto(base + "/notices")
    bob.wait_for_selector("[data-page=notices] li[data-kind=invite]")
    assert ann_name in bob.inner_text("[data-page=notices] li[data-kind=invite]")
    ann.goto(base + "/notices")
    ann.wait_for_selector("[data-page=notices] li[data-kind=your_turn]")
    ann.screenshot(path=str(shots / "friends-notices-desktop.png"), full_page=True)
    bob.goto(base + "/notices")
    bob.wait_for_selector("[data-page=notices] li[data-kind=challenge]")
    bob.screenshot(path=str(shots / "friends-notices-uk-phone.png"), full_page=True)
    bob.goto(base + "/friends")
    bob.wait_for_selector(f"[data-friend='{ann_name}']")
    bob.screenshot(path=str(shots / "friends-uk-phone.png"), full_page=True)
    # The other two of each page: English on a phone, Ukrainian on a desktop.
    ann.set_viewport_size({"width": 390, "height": 844})
    bob.set_viewport_size({"width": 1200, "height": 900})
    for page, tail in ((ann, "en-phone"), (bob, "uk-desktop")):
        for path in ("friends", "games", "notices"):
            page.goto(f"{base}/{path}")
            page.wait_for_selector(f"[data-page={path}] li")
            page.screenshot(path=str(shots / f"community-{path}-{tail}.png"), full_page=True)
    assert errors == []
    ann_ctx.close()
    bob_ctx.close()


def table_of(url: str) -> str:
    """The table id of a play page's address (its ``?token=`` left out)."""
    found = re.search(r"/play/([\w-]+)", url)
    assert found is not None, url
    return found.group(1)


def legal_moves_of(page: Any, base: str, table_id: str) -> bool:
    """Whether it is ``page``'s player's turn in the correspondence game (their list)."""
    games = page.evaluate("fetch('/api/correspondence').then((r) => r.json())")
    return any(g["table"] == table_id and g["your_turn"] for g in games)
