"""The Spy race's flow in two browsers (S17): the server's 3-2-1 start count, keys by
physical position (a Ukrainian layout), the hint, the others' waste tops, a race time
that survives a reload, the pause's account of the round, and the match's end screen.

The server's tables run on a clock the test moves (:class:`web_helpers.StepClock`): a
count lasts until the test ends it and a race takes the seconds the test gives it, so
a slow browser on a busy machine sees every stage it checks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import StepClock, WebServer, create_table, join_as

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing

COUNT = 4.0
#: The tables' clock: it moves only when the test moves it.
CLOCK = StepClock(1000.0)


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A start count that lasts until the test ends it and a pause the players' Ready
    ends."""
    db = tmp_path_factory.mktemp("raceweb") / "web.db"
    settings = Settings(
        pacing=Pacing(turn_delay=0.05, segment_pause=60.0, start_count=COUNT),
        bot_processes=0,
        allow_client_seeds=True,  # a known deal (unrated tables only)
    )
    app = create_app(f"sqlite:///{db}", settings=settings, clock=CLOCK)
    server = WebServer(app).start()
    yield server
    server.stop()


def legal(page: Any) -> str:
    return str(page.get_attribute(".board.spy", "data-legal"))


def race_seconds(page: Any) -> int:
    text = page.inner_text(".board.spy .racetime")
    found = re.search(r"(\d+):(\d\d)", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def wait_racing(page: Any) -> None:
    """Wait until the page races (the count over, the deck's turn offered); the table's
    driver sees a count the test ended within one count's length of real time."""
    page.wait_for_selector(".board.spy .startcount", state="detached")
    page.wait_for_function(
        "JSON.parse(document.querySelector('.board.spy').dataset.legal).includes('turn')"
    )


def ukrainian_key(page: Any, key: str, code: str, vk: int) -> None:
    """Press a key the way a Ukrainian layout sends it: the Cyrillic letter as ``key``
    and the physical key as ``code`` (through the browser's own input pipeline)."""
    cdp = page.context.new_cdp_session(page)
    event = {"key": key, "code": code, "text": key, "windowsVirtualKeyCode": vk}
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", **event})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **event})


def my_moves(page: Any, player: int) -> int:
    return int(
        page.evaluate(
            "p => window.cardtableConnection.state.view.seats.find(s => s.player === p).moves",
            player,
        )
    )


def test_spy_race_flow_in_two_browsers_s17(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(base, "spy", {"rounds": 2}, [{"type": "open"}, {"type": "open"}], seed=5)
    table_id = created["table"]["id"]
    ann = join_as(browser, base, created["invites"][0]["link"], "Ann", lang="en", phone=False)
    errors: list[str] = []
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    bob = join_as(browser, base, created["invites"][1]["link"], "Bob", lang="uk", phone=True)
    bob.on("pageerror", lambda exc: errors.append(str(exc)))

    # The count: both see it, nobody may move until it ends.
    for page in (ann, bob):
        page.wait_for_selector(".board.spy .startcount")
        assert legal(page) == "[]"
    assert "everyone starts together" in ann.inner_text(".startcount")
    assert "усі починають разом" in bob.inner_text(".startcount")
    assert re.fullmatch(r"[1-4]", ann.inner_text(".startcount .number"))
    ann.keyboard.press("t")  # too early: the page says why nothing happens
    ann.wait_for_selector("#toast:not([hidden])")
    assert "everyone starts together" in ann.inner_text("#toast")
    ann.screenshot(path=str(shots / "spy-count.png"))
    bob.screenshot(path=str(shots / "spy-count-phone-uk.png"))
    CLOCK.advance(COUNT)
    for page in (ann, bob):
        wait_racing(page)

    # Keys by position: Bob's layout is Ukrainian, so T sends "е" and C sends "с".
    ukrainian_key(bob, "е", "KeyT", 84)
    bob.wait_for_function("window.cardtableConnection.state.view.seats[1].moves === 1")
    assert "Е (T)" in bob.inner_text(".board.spy .shortcuts")
    ukrainian_key(bob, "е", "KeyT", 84)
    bob.wait_for_function("window.cardtableConnection.state.view.seats[1].moves === 2")

    # Ann sees Bob's waste top (public: S4-S5 hide only the deck and the points cards).
    ann.wait_for_selector(".otherseat[data-player='1'] .miniwaste .card")
    label = ann.get_attribute(".otherseat[data-player='1'] .miniwaste", "aria-label") or ""
    assert label.startswith("Waste: ")
    assert "2 cards" in label

    # The hint: the strongest bot's move for Ann, shown and marked on the table.
    ann.click("button[data-key='hint']")
    ann.wait_for_selector(".board.spy .hinttext")
    assert ann.inner_text(".board.spy .hinttext").startswith("Hint: ")
    assert ann.locator(".board.spy .hinted").count() >= 1

    # The race time is the server's: a reload shows it going on, not from 0:00. The page
    # counts the seconds on its own meanwhile.
    ann.wait_for_function(
        "/0:0[2-9]/.test(document.querySelector('.board.spy .racetime').textContent)"
    )
    CLOCK.advance(3.0)
    ann.reload()
    ann.wait_for_selector(".board.spy .spyseat")
    assert race_seconds(ann) >= 3

    # Both resign (S13): the pause says how the round ended, with scores and totals.
    for page in (ann, bob):
        page.click("button[data-key='resign']")
    for page in (ann, bob):
        page.wait_for_selector(".pausepanel:not([hidden])")
    panel = ann.inner_text(".pausepanel")
    assert "Round 1 is over" in panel
    assert "Everyone left the round: nobody wins it." in panel
    assert re.search(r"The race took 0:03\.", panel)
    assert "Усі вийшли з раунду" in bob.inner_text(".pausepanel")
    ann.screenshot(path=str(shots / "spy-round-over.png"), full_page=True)
    bob.screenshot(path=str(shots / "spy-round-over-phone-uk.png"))
    ann.click(".pausepanel button[data-key='ready']")
    bob.wait_for_selector(".pausepanel .readylist")
    bob.click(".pausepanel button[data-key='ready']")
    # Round 2 starts with its own count.
    for page in (ann, bob):
        page.wait_for_selector(".board.spy .startcount")
        assert page.get_attribute(".board.spy", "data-round") == "2"
    CLOCK.advance(COUNT)
    for page in (ann, bob):
        wait_racing(page)
    ann.wait_for_function(
        "/0:0[1-9]/.test(document.querySelector('.board.spy .racetime').textContent)"
    )
    CLOCK.advance(2.0)
    for page in (ann, bob):
        page.click("button[data-key='resign']")

    # The end: no empty heading, the last race's time, each round's time by its scores.
    ann.wait_for_selector(".result:not([hidden])")
    headings = ann.locator("h2").all_inner_texts()
    assert all(text.strip() for text in headings), headings
    assert race_seconds(ann) == 5  # both rounds together
    assert "Race time, all rounds" in ann.inner_text(".board.spy .racetime")
    scores = ann.inner_text(".roundscores")
    assert "Race time" in scores
    assert "Ann" in scores
    assert "Bob" in scores
    ann.screenshot(path=str(shots / "spy-match-over.png"), full_page=True)
    assert table_id in ann.url
    assert errors == []
    ann.context.close()
    bob.context.close()
