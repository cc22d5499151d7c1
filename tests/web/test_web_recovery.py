"""Reload mid-game and carry on; lost connections and refusals; hints; languages."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
from web_helpers import GUARD, WebServer, create_table, join_by_invite

UK_RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"}


def start_against_bot(base: str, page: Any) -> str:
    created = create_table(
        base, "candidate", {"deals": 2}, [{"type": "open"}, {"type": "bot", "level": "easy"}]
    )
    join_by_invite(page, base, created["invites"][0]["link"], "Ann")
    page.wait_for_selector(".board.candidate")
    return str(created["table"]["id"])


def my_moves(page: Any) -> list[str]:
    return list(json.loads(page.get_attribute(".board.candidate", "data-legal") or "[]"))


def wait_my_turn(page: Any) -> list[str]:
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('.board.candidate').dataset.legal || '[]')"
        ".length > 0"
    )
    return my_moves(page)


def move_once(page: Any) -> str:
    """Make a move through the interface (first legal one: a pile, a pass, or a play)."""
    moves = wait_my_turn(page)
    move = moves[0]
    words = move.split()
    before = int(page.get_attribute("#main", "data-version") or 0)
    if words[0] in ("deal", "lobby", "draw"):
        page.click(f"button.pile[data-pile='{words[1]}']")
    elif words[0] == "pass":
        page.click("#pass-button")
    else:
        for card in words[1:]:
            page.click(f".hand.mine button[data-card='{card}'].playable:not(.chosen)")
        page.click("#play-button")
    page.wait_for_function(f"Number(document.querySelector('#main').dataset.version) > {before}")
    return move


def test_reload_mid_game_and_carry_on(web_server: WebServer, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    table_id = start_against_bot(web_server.base, page)
    for _ in range(4):
        move_once(page)
    version = int(page.get_attribute("#main", "data-version") or 0)
    page.reload()
    page.wait_for_selector(".board.candidate")
    # The saved seat token brings the same seat back, with the whole state.
    assert "(you)" in page.inner_text(".seatsbar .me")
    assert int(page.get_attribute("#main", "data-version") or 0) >= version
    for _ in range(3):
        move_once(page)
    info = httpx.get(f"{web_server.base}/api/tables/{table_id}").json()
    assert info["seats"][0]["name"] == "Ann"
    assert info["version"] > version
    context.close()


def test_lost_connection_and_refusals_recover_by_themselves(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    context = browser.new_context()
    page = context.new_page()
    start_against_bot(web_server.base, page)
    wait_my_turn(page)

    # The connection drops: a clear message, then the client reconnects by itself.
    page.evaluate("window.cardtableConnection.drop()")
    page.wait_for_selector(".banner.warn:not([hidden])")
    assert "Connection lost" in page.inner_text(".banner")
    page.screenshot(path=str(shots / "reconnecting.png"), full_page=True)
    page.wait_for_selector(".banner", state="hidden")
    page.wait_for_selector(".toast.info:not([hidden])")
    assert "Reconnected" in page.inner_text("#toast")

    # An illegal move is refused with the engine's reason, and the table resyncs.
    wait_my_turn(page)
    page.evaluate("window.cardtableConnection.move('play ZZ')")
    page.wait_for_selector(".toast.error:not([hidden])")
    assert "not allowed" in page.inner_text("#toast")
    assert "ZZ" in page.inner_text("#toast")
    assert wait_my_turn(page)

    # A stale move (made against an old version) gets a resync and a message.
    page.evaluate(
        """() => {
            const c = window.cardtableConnection;
            c.pending = {id: 'stale-1', move: c.state.legal_moves[0], version: 0,
                         acked: false, ackVersion: 0};
            c.sendPending();
        }"""
    )
    page.wait_for_function(
        "() => document.querySelector('#toast').textContent.includes('moved on')"
    )
    assert wait_my_turn(page)

    # The hint button shows the bot's suggestion, one of the legal moves.
    legal = wait_my_turn(page)
    page.click("#hint-button")
    page.wait_for_selector(".hinttext")
    assert any(m.split()[0] in page.inner_text(".hinttext") for m in legal)
    context.close()


def test_switch_language(web_server: WebServer, browser: Any, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    start_against_bot(web_server.base, page)
    while not page.locator(".hand.mine .card").count():
        move_once(page)
    page.click("button[data-lang='uk']")
    page.wait_for_selector(".board.candidate")
    assert page.get_attribute("html", "lang") == "uk"
    assert "Лобі" in page.inner_text("header nav")
    assert "Роздача 1 з 2" in page.inner_text(".dealinfo")
    ranks = set(page.locator(".card .rank").all_inner_texts())
    assert ranks
    assert ranks <= UK_RANKS
    page.screenshot(path=str(shots / "candidate-uk.png"), full_page=True)

    # The rules page comes in the chosen language, rendered from Markdown.
    page.click("header nav a[href='/rules/candidate']")
    page.wait_for_selector("article.rules h2")
    assert "Кандидат" in page.inner_text("article.rules h2")
    assert page.locator("article.rules table").count() >= 1
    page.screenshot(path=str(shots / "rules-uk.png"))

    # Back to English: the page and the cards follow; the choice survives a reload.
    page.click("button[data-lang='en']")
    page.wait_for_selector("article.rules h2")
    assert "Candidate" in page.inner_text("article.rules h2")
    page.reload()
    page.wait_for_selector("article.rules h2")
    assert page.get_attribute("html", "lang") == "en"
    context.close()


def test_close_code_1012_reconnects_at_once_and_the_game_goes_on(
    web_server: WebServer, browser: Any
) -> None:
    """A server process that stops, or a table moving to another process, closes the
    socket with 1012 ("service restart", docs/protocol.md): the page connects again at
    once, without the "connection lost" banner, and the game goes on."""
    context = browser.new_context()
    page = context.new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    table_id = start_against_bot(web_server.base, page)
    wait_my_turn(page)
    opened = len(sockets)
    page.evaluate(
        """() => {
            window.bannerShown = false;
            new MutationObserver(() => {
                if (document.querySelector('.banner.warn:not([hidden])')) window.bannerShown = true;
            }).observe(document.body, {subtree: true, attributes: true, childList: true});
        }"""
    )
    hub = web_server.app.state.hub
    live = hub.tables[table_id]
    conns = list(live.connections)
    loop = conns[0]._sender.get_loop()
    for conn in conns:
        asyncio.run_coroutine_threadsafe(conn.close(1012, "server restarting"), loop).result(5)
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while len(sockets) <= opened:
        assert time.monotonic() < deadline, "no new socket after 1012"
        page.wait_for_timeout(50)
    move_once(page)
    assert page.evaluate("window.bannerShown") is False  # never "connection lost"
    context.close()
