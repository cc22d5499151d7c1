"""Accounts in the browser: sign up, sign out, sign in, a rated game shows on the profile
(rating chart, replay link), and a guest is refused at a rated table — in English and
Ukrainian, on a desktop and a phone."""

from __future__ import annotations

import random
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Client  # the table protocol, as a non-browser client
from test_web_candidate import choose, legal_moves, make_move, version
from web_helpers import GUARD, WebServer

DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}
PASSWORD = "a long enough secret"


def context(browser: Any, lang: str = "en", phone: bool = False) -> Any:
    made = browser.new_context(viewport=PHONE if phone else DESKTOP, is_mobile=phone)
    made.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    return made


def bearer_login(base: str, name: str) -> dict[str, str]:
    """The Authorization header of a session for ``name`` (a non-browser client)."""
    answer = httpx.post(
        base + "/api/account/login",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers={"X-Cardtable-Client": "test"},
    )
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def rated_game_against_a_bot(base: str, auth: dict[str, str]) -> str:
    """A rated one-deal Candidate of the account against an easy bot, played out with
    random legal moves; returns the table id."""
    created = httpx.post(
        base + "/api/tables",
        json={
            "game": "candidate",
            "options": {"deals": 1},
            "seats": [{"type": "open"}, {"type": "bot", "level": "easy"}],
            "rated": True,
        },
        headers=auth,
    ).json()
    table_id: str = created["table"]["id"]
    seated = httpx.post(
        f"{base}/api/tables/{table_id}/join",
        json={"invite": created["invites"][0]["code"], "name": "ignored"},
        headers=auth,
    ).json()
    player = Client(base, table_id, seated["token"])
    rng = random.Random(7)
    try:
        player.hello()
        deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
        while time.monotonic() < deadline:
            player.drain(0.02)
            state = player.state
            assert state is not None
            if state["status"] == "finished":
                return table_id
            if state["legal_moves"]:
                player.move(rng.choice(state["legal_moves"]))
        raise AssertionError("the rated game did not finish")
    finally:
        player.close()


def test_sign_up_sign_out_sign_in_and_see_the_profile(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    name = f"Olena{uuid.uuid4().hex[:6]}"
    ctx = context(browser)
    page = ctx.new_page()
    page.goto(web_server.base + "/")
    page.click("header a[href='/signup']")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.screenshot(path=str(shots / "account-signup.png"))
    page.click("form[data-account=signup] button[type=submit]")
    page.wait_for_selector(f"header [data-who='{name}']")
    assert page.url == web_server.base + "/"
    # A game with a bot is not rated; between people a signed-in player may rate it.
    assert not page.is_enabled("input[name=rated]")
    assert page.is_visible("[data-bots-unrated]")
    page.select_option("select[name=seat1]", "open")
    assert page.is_enabled("input[name=rated]")
    assert page.is_checked("input[name=rated]")
    assert not page.is_enabled("input[name=hints]")
    # Sign out on the account page, then sign in again with the form.
    page.click(f"header [data-who='{name}'] a[href='/account']")
    page.wait_for_selector("[data-logout]")
    page.click("[data-logout]")
    page.wait_for_selector("header [data-who=''] a[href='/signin']")
    assert not page.is_enabled("input[name=rated]")
    assert page.is_visible("[data-rated-hint]")
    page.click("header a[href='/signin']")
    page.fill("#account-name", name.upper())  # names match whatever their case
    page.fill("#account-password", "not the password")
    page.click("form[data-account=signin] button[type=submit]")
    alert = page.wait_for_selector("form[data-account=signin] [role=alert]:not([hidden])")
    assert alert.text_content() == "wrong user name or password"
    page.fill("#account-password", PASSWORD)
    page.click("form[data-account=signin] button[type=submit]")
    page.wait_for_selector(f"header [data-who='{name}']")
    # A "rated" game against a bot (played by a non-browser client of the same account)
    # rates nobody: the profile lists the game with its replay link, and no rating.
    table_id = rated_game_against_a_bot(web_server.base, bearer_login(web_server.base, name))
    page.goto(f"{web_server.base}/player/{name}")
    page.wait_for_selector(f"[data-profile] tr[data-table='{table_id}']")
    assert not page.query_selector(".ratingcard")
    assert "No rated games yet." in page.inner_text("[data-profile]")
    page.screenshot(path=str(shots / "account-profile-bots-only.png"), full_page=True)
    page.click(f"tr[data-table='{table_id}'] a")
    page.wait_for_url(f"**/replay/{table_id}")
    # The profile in Ukrainian on a phone.
    phone = context(browser, "uk", phone=True).new_page()
    phone.goto(f"{web_server.base}/player/{name}")
    phone.wait_for_selector(f"[data-profile] tr[data-table='{table_id}']")
    assert "Рейтингових ігор ще немає." in phone.inner_text("[data-profile]")
    phone.goto(f"{web_server.base}/signup")
    phone.wait_for_selector("form[data-account=signup]")
    assert "Зареєструватися" in phone.inner_text("form[data-account=signup] h1")
    phone.screenshot(path=str(shots / "account-signup-uk-phone.png"))
    phone.context.close()
    ctx.close()


def test_a_guest_is_refused_at_a_rated_table(web_server: WebServer, browser: Any) -> None:
    owner = f"Taras{uuid.uuid4().hex[:6]}"
    made = httpx.post(
        web_server.base + "/api/account/register",
        json={"name": owner, "password": PASSWORD, "bearer": True},
        headers={"X-Cardtable-Client": "test"},
    )
    assert made.status_code == 201, made.text
    auth = {"Authorization": f"Bearer {made.json()['token']}"}
    created = httpx.post(
        web_server.base + "/api/tables",
        json={"game": "candidate", "seats": [{"type": "open"}] * 2, "rated": True},
        headers=auth,
    ).json()
    link = created["invites"][1]["link"]
    for lang, words in (
        ("en", "rated tables are for signed-in players"),
        ("uk", "рейтингові столи — лише для тих, хто увійшов"),
    ):
        ctx = context(browser, lang)
        page = ctx.new_page()
        page.goto(web_server.base + link)
        page.fill("#join-name", "Guest")
        page.click("form.joinform button[type=submit]")
        toast = page.wait_for_selector(".toast:not([hidden])")
        assert words in (toast.text_content() or "")
        ctx.close()
    seats = httpx.get(f"{web_server.base}/api/tables/{created['table']['id']}").json()["seats"]
    assert [s["role"] for s in seats] == ["open", "open"]


def sign_up(page: Any, base: str, name: str) -> None:
    """Create an account through the sign-up page; the header then names it."""
    page.goto(base + "/signup")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("form[data-account=signup] button[type=submit]")
    page.wait_for_selector(f"header [data-who='{name}']")


def test_two_accounts_play_a_rated_deal_in_their_browsers(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    names = [f"Ivanna{uuid.uuid4().hex[:6]}", f"Marko{uuid.uuid4().hex[:6]}"]
    contexts = [context(browser), context(browser, "uk", phone=True)]
    pages = [ctx.new_page() for ctx in contexts]
    errors: list[str] = []
    for page, name in zip(pages, names, strict=True):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, base, name)
    # The first creates the rated table with her session (the browser's cookie).
    created = pages[0].request.post(
        base + "/api/tables",
        data={
            "game": "candidate",
            "options": {"deals": 1, "decks": 1},
            "seats": [{"type": "open"}, {"type": "open"}],
            "rated": True,
        },
        headers={"X-Cardtable-Client": "web"},
    )
    assert created.status == 201, created.text()
    table = created.json()
    for page, invite, name in zip(pages, table["invites"], names, strict=True):
        page.goto(base + invite["link"])
        assert page.input_value("#join-name") == name  # the account's name, fixed
        page.click("form.joinform button[type=submit]")
        page.wait_for_selector("#main[data-status]")
    pages[1].wait_for_selector(".seatchip .flags:has-text('обліковий запис')")
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    played = 0
    while pages[0].get_attribute("#main", "data-status") != "finished":
        assert time.monotonic() < deadline, f"the rated deal did not finish ({played} moves)"
        mover = next((p for p in pages if legal_moves(p)), None)
        if mover is None:
            pages[0].wait_for_timeout(30)
            continue
        before = version(mover)
        make_move(mover, choose(legal_moves(mover), played))
        mover.wait_for_function(
            f"Number(document.querySelector('#main').dataset.version) > {before}"
        )
        played += 1
        if played == 6:
            pages[1].screenshot(path=str(shots / "account-rated-table-uk-phone.png"))
    board = httpx.get(base + "/api/ratings", params={"game": "candidate", "limit": 500}).json()
    rated = {e["name"]: e for e in board["entries"]}
    assert all(rated[n]["games"] == 1 and rated[n]["account"] for n in names)
    pages[1].goto(f"{base}/player/{names[1]}")
    pages[1].wait_for_selector(f"tr[data-table='{table['table']['id']}']")
    # Between people the game rates: the profile shows the one number the leaderboard
    # shows ("1523?": provisional after one game), its chart, the win/loss line.
    card = pages[1].wait_for_selector(".ratingcard[data-game=candidate]")
    label = rated[names[1]]["label"]
    assert card.query_selector(f"[data-rating='{label}']")
    assert label.endswith("?")
    assert card.query_selector_all("svg.ratingchart circle")
    assert "1 рейтингова гра" in (card.text_content() or "")
    pages[1].screenshot(path=str(shots / "account-profile-uk-phone.png"), full_page=True)
    pages[0].goto(f"{base}/player/{names[0]}")
    pages[0].wait_for_selector(".ratingcard[data-game=candidate] svg.ratingchart circle")
    pages[0].screenshot(path=str(shots / "account-profile.png"), full_page=True)
    assert not errors
    for ctx in contexts:
        ctx.close()
