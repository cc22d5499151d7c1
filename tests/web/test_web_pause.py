"""The pause between Spy rounds in two browsers: the round's result, a countdown, Ready."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import WebServer, create_table, join_as

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A pause far longer than the test: the players' Ready ends it."""
    db = tmp_path_factory.mktemp("pauseweb") / "web.db"
    settings = Settings(
        pacing=Pacing(turn_delay=0.05, segment_pause=60.0),
        bot_processes=0,
        allow_client_seeds=True,  # a known deal (unrated tables only)
    )
    server = WebServer(create_app(f"sqlite:///{db}", settings=settings)).start()
    yield server
    server.stop()


def test_both_players_see_the_pause_and_ready_ends_it(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(base, "spy", {"rounds": 2}, [{"type": "open"}, {"type": "open"}], seed=5)
    ann = join_as(browser, base, created["invites"][0]["link"], "Ann", lang="en", phone=False)
    bob = join_as(browser, base, created["invites"][1]["link"], "Bob", lang="uk", phone=True)
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    # Both resign (S13): round 1 ends with no winner, and the table pauses.
    for page in (ann, bob):
        page.wait_for_selector(".board.spy .spyseat")
        page.wait_for_selector("button[data-key='resign']:not([disabled])")
        page.click("button[data-key='resign']")
    for page in (ann, bob):
        page.wait_for_selector(".pausepanel:not([hidden])")
    panel = ann.inner_text(".pausepanel")
    assert "Round 1 is over" in panel
    assert "Everyone left the round: nobody wins it" in panel  # the table's account, S13
    assert "The next round starts in" in panel
    assert ann.locator(".pausepanel button[data-key='ready']").inner_text() == "Ready"
    ukrainian = bob.inner_text(".pausepanel")
    assert "Раунд 1 завершено" in ukrainian
    assert "Наступний раунд через" in ukrainian
    assert "Усі вийшли з раунду: переможця немає" in ukrainian
    assert bob.locator(".pausepanel button[data-key='ready']").inner_text() == "Продовжити"
    assert bob.get_attribute(".board.spy", "data-legal") == "[]"  # no moves in the pause
    ann.screenshot(path=str(shots / "spy-pause.png"), full_page=True)
    bob.screenshot(path=str(shots / "spy-pause-phone-uk.png"))
    # Ann is ready: Bob sees it; then Bob is ready and round 2 starts for both.
    ann.click(".pausepanel button[data-key='ready']")
    bob.wait_for_selector(".pausepanel .readylist")
    assert "Ann" in bob.inner_text(".pausepanel .readylist")
    bob.click(".pausepanel button[data-key='ready']")
    for page in (ann, bob):
        page.wait_for_selector(".pausepanel", state="hidden")
        page.wait_for_function(
            "JSON.parse(document.querySelector('.board.spy').dataset.legal).includes('turn')"
        )
        assert page.get_attribute(".board.spy", "data-round") == "2"
    assert errors == []
    ann.context.close()
    bob.context.close()
