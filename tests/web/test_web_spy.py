"""A Spy race in the browser against a bot, to the call: clicks, drags and keys."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import GUARD, WebServer, create_table, join_by_invite

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """The server with a slow easy bot: our scripted player must reach the call first
    however busy the machine is, so that what the race exercises (clicks, a drag, keys)
    does not depend on timing. The bot still moves, and its progress shows live."""
    db = tmp_path_factory.mktemp("spyweb") / "web.db"
    settings = Settings(
        grace_seconds=30.0,
        pacing=Pacing(
            level_speeds={"easy": 0.25, "medium": 0.25, "hard": 0.25},
            turn_delay=0.05,
            segment_pause=0.0,
            start_count=0.0,
        ),
        keep_finished_seconds=60.0,
        allow_client_seeds=True,  # a known deal (unrated tables only)
    )
    server = WebServer(create_app(f"sqlite:///{db}", settings=settings)).start()
    yield server
    server.stop()


def legal(page: Any) -> set[str]:
    return set(json.loads(page.get_attribute(".board.spy", "data-legal") or "[]"))


def wait_answered(page: Any, before: int) -> None:
    """Until our move is answered and the table has moved past ``before``."""
    page.wait_for_function(
        "v => window.cardtableConnection.ready"
        " && Number(document.querySelector('#main').dataset.version) > v",
        arg=before,
    )


def test_spy_race_against_a_bot_to_the_call(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(
        base, "spy", {"rounds": 1}, [{"type": "open"}, {"type": "bot", "level": "easy"}], seed=7
    )
    table_id = created["table"]["id"]
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    join_by_invite(page, base, created["invites"][0]["link"], "Ann")
    page.wait_for_selector(".board.spy .spyseat")

    used = {"click": 0, "drag": 0, "keys": 0}
    moves = 0
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while page.get_attribute("#main", "data-status") != "finished":
        assert time.monotonic() < deadline, f"the race did not end ({moves} moves)"
        options = legal(page)
        if not options:
            page.wait_for_timeout(30)
            continue
        before = int(page.get_attribute("#main", "data-version") or 0)
        points = sorted(m for m in options if m.startswith("place points"))
        waste = sorted(m for m in options if m.startswith("place waste"))
        if "call" in options:
            page.keyboard.press("c")
            used["keys"] += 1
        elif points:
            page.click("button[data-source='points']")
            page.click(f"button[data-pile='{points[0].split()[-1]}']")
            used["click"] += 1
        elif "open points" in options:
            page.keyboard.press("p")
            page.keyboard.press("n")
            used["keys"] += 1
        elif waste:
            target = f"button[data-pile='{waste[0].split()[-1]}']"
            page.drag_and_drop("button[data-source='waste']", target)
            used["drag"] += 1
        elif "turn" in options:
            page.keyboard.press("t")
            used["keys"] += 1
        else:
            page.click("button[data-key='resign']")
        moves += 1
        wait_answered(page, before)
        if moves == 4:
            page.screenshot(path=str(shots / "spy-table.png"), full_page=True)

    page.wait_for_selector(".result:not([hidden])")
    summary = httpx.get(f"{base}/api/tables/{table_id}/summary").json()
    assert summary["complete"]
    assert summary["rounds"][0]["finisher"] is not None  # somebody called
    assert used["click"]
    assert used["drag"]
    assert used["keys"]
    assert "called «finished» first" in page.inner_text(".roundscores")
    page.screenshot(path=str(shots / "spy-finished.png"), full_page=True)
    assert errors == []
    context.close()


def test_spy_keys_that_can_do_nothing_say_why(web_server: WebServer, browser: Any) -> None:
    """S6, S10: a key that cannot move says the engine's reason instead of doing nothing
    (c with cards in the points pile, a pile that is not there, an empty waste)."""
    base = web_server.base
    created = create_table(
        base, "spy", {"rounds": 1}, [{"type": "open"}, {"type": "bot", "level": "easy"}], seed=7
    )
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    join_by_invite(page, base, created["invites"][0]["link"], "Ann")
    page.wait_for_function("document.querySelector('.board.spy').dataset.legal.length > 2")
    for key, said in (
        ("c", "call only when it is empty"),
        ("Digit6", "there is no pile 6"),
        ("w", "the waste is empty"),
    ):
        page.keyboard.press(key)
        page.wait_for_function(
            "s => document.querySelector('#toast').textContent.includes(s)", arg=said
        )
    # The hint is said in words, not in the record's notation ("place points 4").
    page.keyboard.press("h")
    hint = page.inner_text(".board.spy .hinttext")
    assert hint.startswith("Hint: Ann "), hint
    assert not re.search(r"(place|open) (points|waste)", hint), hint
    page.close()
