""" "Play now" in the browser: two browsers press it for Candidate and land at the same
table and play; a waiting seek shows in another lobby and vanishes when cancelled; a
lone player is offered bots after the time-out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from test_web_candidate import legal_moves, make_move, version
from web_helpers import WebServer

from cardtable.server.seeks import Seeks

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}


def lobby_page(browser: Any, base: str, lang: str, phone: bool) -> Any:
    """A new browser in ``lang`` (a phone at 390×844, or a desktop) at the lobby."""
    context = browser.new_context(viewport=PHONE if phone else DESKTOP, is_mobile=phone)
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.page_errors = errors
    page.goto(base + "/")
    page.wait_for_selector("#playnow form.seekform")
    return page


def play_now(page: Any, name: str, game: str = "candidate") -> None:
    page.fill("input[name=seek-name]", name)
    page.select_option("select[name=seek-game]", game)
    page.click("button[data-action=play-now]")


def lobbies(server: WebServer, browser: Any, bots_after: float) -> tuple[str, Any, Any]:
    """The server's address and two lobbies: a desktop in English, a phone in Ukrainian;
    the queues offer bots after ``bots_after`` seconds."""
    assert httpx.get(server.base + "/api/seeks").status_code == 200  # made on first use
    seeks: Seeks = server.app.state.seeks
    seeks.bots_after = bots_after
    desktop = lobby_page(browser, server.base, "en", phone=False)
    return server.base, desktop, lobby_page(browser, server.base, "uk", phone=True)


def test_two_browsers_press_play_now_and_play_at_the_same_table(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base, ann, bob = lobbies(web_server, browser, bots_after=20.0)
    play_now(ann, "Ann")
    ann.wait_for_selector(".seekstatus .seekline")
    assert "Looking for players" in ann.inner_text(".seekstatus")
    ann.screenshot(path=str(shots / "seek-waiting.png"), full_page=True)
    # Bob's lobby lists Ann's seek (its refresh comes every 5 s; a reload is at once).
    bob.reload()
    bob.wait_for_selector(".seeklist li[data-seek]")
    assert "Ann" in bob.inner_text(".seeklist")
    assert "Гравці, що шукають гру" in bob.inner_text(".seeklist")
    bob.screenshot(path=str(shots / "seek-list-uk-phone.png"), full_page=True)
    bob.fill("input[name=seek-name]", "Богдан")
    bob.click(".seeklist li[data-seek] button")  # the same queue as Ann's
    for page in (ann, bob):
        page.wait_for_url("**/play/*")
        page.wait_for_selector("#main[data-status=playing]")
    assert ann.url.split("/play/")[1] == bob.url.split("/play/")[1]
    table = httpx.get(f"{base}/api/tables/{ann.url.split('/play/')[1]}").json()
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Богдан"]
    # One move through the interface, seen by the other browser.
    ann.wait_for_function("document.querySelector('.board.candidate') !== null")
    bob.wait_for_function("document.querySelector('.board.candidate') !== null")
    mover, other = (ann, bob) if legal_moves(ann) else (bob, ann)
    assert legal_moves(mover)
    before = version(other)
    make_move(mover, legal_moves(mover)[0])
    other.wait_for_function(f"Number(document.querySelector('#main').dataset.version) > {before}")
    bob.wait_for_timeout(800)  # the card's flight is over (a screenshot, not a check)
    bob.screenshot(path=str(shots / "seek-table-uk-phone.png"))
    assert httpx.get(base + "/api/seeks").json() == []
    assert ann.page_errors == []
    assert bob.page_errors == []


def test_a_cancelled_seek_vanishes_and_a_lone_player_is_offered_bots(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base, dan, cat = lobbies(web_server, browser, bots_after=2.0)
    play_now(cat, "Катря", game="spy")
    cat.wait_for_selector(".seekstatus .seekline")
    dan.reload()
    dan.wait_for_selector(".seeklist li[data-seek]")
    # The status clears at once; the cancel request is awaited before asking the server.
    with cat.expect_response(lambda r: r.url.endswith("/cancel")) as cancelled:
        cat.click("button[data-action=seek-cancel]")
    assert cancelled.value.status == 204
    assert httpx.get(base + "/api/seeks").json() == []
    dan.wait_for_function("document.querySelector('.seeklist li[data-seek]') === null")
    # Alone in the queue: after the time-out the offer to play against bots.
    play_now(cat, "Катря", game="spy")
    cat.wait_for_selector("button[data-action=seek-bots]")
    assert "Грати з ботами зараз" in cat.inner_text(".seekstatus")
    cat.screenshot(path=str(shots / "seek-bots-uk-phone.png"), full_page=True)
    cat.select_option("select[name=seek-seats]", "3")
    cat.wait_for_timeout(1300)  # the status is redrawn at each poll (1 s): the choice stays
    assert cat.input_value("select[name=seek-seats]") == "3"
    cat.click("button[data-action=seek-bots]")
    cat.wait_for_url("**/play/*")
    table = httpx.get(f"{base}/api/tables/{cat.url.split('/play/')[1]}").json()
    assert [s["role"] for s in table["seats"]].count("bot") == 2
    assert cat.page_errors == []
    assert dan.page_errors == []


def test_an_answer_to_a_poll_that_comes_after_the_cancel_draws_nothing(
    web_server: WebServer, browser: Any
) -> None:
    """The poll's answer is held on its way to the page (as on a slow network or a busy
    machine) while the player cancels: the late answer must not draw the seek back and
    hide the form for good."""
    base = web_server.base
    page = lobby_page(browser, base, "en", phone=False)
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        held.append((route, route.fetch()))  # the server answers now; the page later

    # Count the poll answers the page has read: a poll's answer is read once its body is
    # parsed and the code awaiting it has run (the next task after the parse).
    page.evaluate(
        """() => {
          const fetched = window.fetch;
          window.pollsRead = 0;
          window.fetch = async (...args) => {
            const response = await fetched(...args);
            if (String(args[0]).endsWith("/poll")) {
              const json = response.json.bind(response);
              response.json = () => json().finally(() => setTimeout(() => window.pollsRead++));
            }
            return response;
          };
        }"""
    )
    with page.expect_request("**/api/seeks/*/poll"):
        page.route("**/api/seeks/*/poll", hold)
        play_now(page, "Ann")
        page.wait_for_selector(".seekstatus .seekline")
    with page.expect_response(lambda r: r.url.endswith("/cancel")) as cancelled:
        page.click("button[data-action=seek-cancel]")
    assert cancelled.value.status == 204
    ((route, answer),) = held
    assert answer.status == 200  # the seek was still waiting when the server answered
    with page.expect_response("**/api/seeks/*/poll"):
        route.fulfill(response=answer)
    page.wait_for_function("window.pollsRead >= 1")  # the late answer was read
    assert page.query_selector(".seekstatus .seekline") is None
    assert page.is_visible("input[name=seek-name]")
    play_now(page, "Ann")  # the form works again
    page.wait_for_selector(".seekstatus .seekline")
    assert httpx.get(base + "/api/seeks").json()[0]["name"] == "Ann"
    assert page.page_errors == []
