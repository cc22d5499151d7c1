"""Bots in the browser: the account page's API tokens, and the BOT mark on a profile."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from botapi_helpers import Bot, Connected
from test_web_candidate import choose, legal_moves, make_move, version
from web_helpers import GUARD, WebServer

from cardtable.record import read_record_file, replay

WEB = {"X-Cardtable-Client": "test"}


def register(base: str, name: str) -> str:
    """A new account's session token."""
    answer = httpx.post(
        base + "/api/account/register",
        json={"name": name, "password": "a long enough secret", "bearer": True},
        headers=WEB,
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def signed_in_page(browser: Any, base: str, session: str) -> Any:
    context = browser.new_context()
    host = urlsplit(base).hostname
    context.add_cookies(
        [{"name": "cardtable_session", "value": session, "domain": host, "path": "/"}]
    )
    return context.new_page()


def test_tokens_made_and_revoked_and_the_bot_marked(web_server: WebServer, browser: Any) -> None:
    base = web_server.base
    page = signed_in_page(browser, base, register(base, "Webbot"))
    page.goto(base + "/account")
    page.wait_for_selector("form[data-api-tokens] [data-tokens] li:has-text('No tokens.')")
    page.fill("#token-name", "engine")
    page.click("form[data-api-tokens] button[type=submit]")
    shown = page.wait_for_selector("[data-new-token]:not([hidden])")
    token = (shown.text_content() or "").rsplit(" ", 1)[-1]
    assert token.startswith("ctp_")
    page.wait_for_selector("[data-tokens] li[data-token] strong:has-text('engine')")
    upgraded = httpx.post(
        base + "/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"}
    )
    assert upgraded.status_code == 204, upgraded.text
    page.click("[data-tokens] button[data-revoke]")
    page.wait_for_selector("[data-tokens] li:has-text('No tokens.')")
    refused = httpx.get(base + "/api/bot/account", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 401
    page.goto(base + "/player/Webbot")
    badge = page.wait_for_selector(".profile h1 [data-bot]")
    assert badge.text_content() == "BOT"
    page.context.close()


def test_a_person_in_a_browser_plays_a_whole_game_against_a_connected_bot(
    web_server: WebServer, browser: Any, tmp_path: Path
) -> None:
    """A person challenges a bot account run by ``cardtable connect``'s client (ISMCTS),
    plays the whole Candidate game in the browser, and the record replays."""
    base = web_server.base
    bot = Bot(base, "Browser Foe")
    engine = Connected(bot, ["candidate=ismcts:20"], tmp_path, seed=8)
    session = register(base, "Browser Person")
    page = signed_in_page(browser, base, session)
    try:
        made = httpx.post(
            base + "/api/challenges",
            json={"name": "Browser Foe", "game": "candidate", "options": {"deals": 1}},
            headers={"Authorization": f"Bearer {session}"},
        )
        assert made.status_code == 201, made.text
        deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
        mine: dict[str, Any] = {}
        while mine.get("play_url") is None:
            assert time.monotonic() < deadline, "the bot never accepted"
            mine = httpx.get(
                f"{base}/api/challenges/{made.json()['id']}",
                headers={"Authorization": f"Bearer {session}"},
            ).json()
            page.wait_for_timeout(30)
        page.goto(base + mine["play_url"])
        page.wait_for_selector("#main[data-status]")
        page.wait_for_selector(".seatsbar [data-bot]")  # the BOT mark at the table
        played = 0
        while page.get_attribute("#main", "data-status") != "finished":
            assert time.monotonic() < deadline + 300, f"the game did not end ({played} moves)"
            moves = legal_moves(page)
            if not moves:
                page.wait_for_timeout(30)
                continue
            before = version(page)
            make_move(page, choose(moves, played))
            page.wait_for_function(
                f"Number(document.querySelector('#main').dataset.version) > {before}"
            )
            played += 1
        table = str(mine["table"])
        engine.wait_finished(table)
    finally:
        engine.stop()
        page.context.close()
    assert replay(read_record_file(tmp_path / f"{table}.json")).summary()["complete"] is True
