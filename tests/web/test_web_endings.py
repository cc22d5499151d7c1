"""Resign, abort and takeback in the browser, and Spy's scoring said where it counts.

A Candidate player against a bot takes a move back, then resigns (after a confirmation):
the result says who resigned and who won. Another aborts before moving: the result says
the game was aborted. A Spy round's pause and a match's end say how Spy scores and that
the lowest total wins (S14, S16), in English on a desktop and in Ukrainian on a phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import WebServer, create_table, join_as

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing

BOT_SEATS = [{"type": "open"}, {"type": "bot", "level": "easy"}]


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A long pause (the players' Ready ends it) and a hard bot that races fast."""
    db = tmp_path_factory.mktemp("endingsweb") / "web.db"
    settings = Settings(
        pacing=Pacing(
            level_speeds={"easy": 1.5, "medium": 3.0, "hard": 40.0},
            turn_delay=0.05,
            segment_pause=60.0,
            start_count=0.0,
        ),
        bot_processes=0,
        allow_client_seeds=True,  # a known deal (unrated tables only)
    )
    server = WebServer(create_app(f"sqlite:///{db}", settings=settings)).start()
    yield server
    server.stop()


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def leave_round(page: Any) -> None:
    """Resign the Spy round (S13) unless it is over already (the bot races fast)."""
    page.wait_for_function(
        "document.querySelector('.pausepanel:not([hidden]), .result:not([hidden])')"
        " || (b => Boolean(b && !b.disabled && (b.click(), true)))"
        "(document.querySelector(\".board.spy button[data-key='resign']\"))"
    )


def legal(page: Any) -> list[str]:
    return page.evaluate("JSON.parse(document.querySelector('.board.candidate').dataset.legal)")  # type: ignore[no-any-return]


def test_takeback_then_resign_against_a_bot(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(base, "candidate", {"deals": 1}, BOT_SEATS, seed=4)
    ann = join_as(browser, base, created["invites"][0]["link"], "Ann", lang="en", phone=False)
    ann.set_viewport_size({"width": 1280, "height": 800})
    errors = watch_errors(ann)
    ann.wait_for_function(
        "JSON.parse(document.querySelector('.board.candidate')?.dataset.legal || '[]').length"
    )
    assert ann.locator("#abort-button").is_visible()  # nobody has moved yet
    assert ann.locator("#takeback-button").count() == 0  # nothing to take back
    before = legal(ann)
    version = int(ann.get_attribute("#main", "data-version") or 0)
    ann.evaluate("(move) => window.cardtableConnection.move(move)", before[0])
    # Her move (and the bot's reply, if any): Take back appears, Abort goes.
    ann.wait_for_selector("#takeback-button")
    assert ann.locator("#abort-button").count() == 0
    ann.click("#takeback-button")
    ann.wait_for_function(
        f"Number(document.querySelector('#main').dataset.version) > {version + 1}"
        " && document.querySelector('.board.candidate').dataset.legal !== '[]'"
    )
    assert legal(ann) == before  # the very position she moved from
    # A few moves more, so the result below is of a game under way.
    for _ in range(6):
        ann.wait_for_function(
            "document.querySelector('#main').dataset.status !== 'playing'"
            " || document.querySelector('.board.candidate').dataset.legal !== '[]'"
        )
        if ann.get_attribute("#main", "data-status") != "playing":
            break
        mark = int(ann.get_attribute("#main", "data-version") or 0)
        ann.evaluate("(move) => window.cardtableConnection.move(move)", legal(ann)[-1])
        ann.wait_for_function(f"Number(document.querySelector('#main').dataset.version) > {mark}")
    # Resign asks first; Cancel keeps playing.
    ann.click("#resign-button")
    assert "It counts as a loss" in ann.inner_text(".matchbuttons.confirm")
    ann.click(".matchbuttons button[data-key='resign-no']")
    assert ann.get_attribute("#main", "data-status") == "playing"
    ann.click("#resign-button")
    ann.click("#resign-yes")
    ann.wait_for_selector(".result:not([hidden]) .winners[data-ending='resigned']")
    assert ann.inner_text(".result .winners") == "Ann resigned: Bot (easy) won"
    assert ann.locator(".matchbuttons").count() == 0
    assert ann.locator("#play-button").count() == 0  # no dock once it is over
    ann.locator(".result").scroll_into_view_if_needed()
    ann.screenshot(path=str(shots / "candidate-resigned.png"))
    # The replay's last step says how the game ended.
    ann.goto(f"{base}/replay/{created['table']['id']}")
    ann.click("button[data-step='end']")
    ann.wait_for_function(
        "document.querySelector('.replaymove')?.textContent.includes('Ann resigned')"
    )
    assert ann.inner_text(".replaymove").endswith(". Ann resigned: Bot (easy) won")
    assert errors == []
    ann.context.close()


def test_resign_on_a_ukrainian_phone(web_server: WebServer, browser: Any, shots: Path) -> None:
    base = web_server.base
    created = create_table(base, "candidate", {"deals": 1}, BOT_SEATS, seed=6)
    bob = join_as(browser, base, created["invites"][0]["link"], "Богдан", lang="uk", phone=True)
    errors = watch_errors(bob)
    bob.click("#resign-button")
    assert "поразку" in bob.inner_text(".matchbuttons.confirm")
    bob.screenshot(path=str(shots / "candidate-resign-confirm-uk-phone.png"))
    bob.click("#resign-yes")
    bob.wait_for_selector(".result:not([hidden]) .winners[data-ending='resigned']")
    assert bob.inner_text(".result .winners").startswith("Богдан здається: перемога — ")
    bob.locator(".result").scroll_into_view_if_needed()
    bob.screenshot(path=str(shots / "candidate-resigned-uk-phone.png"))
    assert errors == []
    bob.context.close()


def test_abort_before_the_first_move(web_server: WebServer, browser: Any) -> None:
    base = web_server.base
    created = create_table(base, "candidate", {"deals": 1}, BOT_SEATS, seed=8)
    cat = join_as(browser, base, created["invites"][0]["link"], "Cat", lang="en", phone=False)
    errors = watch_errors(cat)
    cat.click("#abort-button")
    cat.wait_for_selector(".result:not([hidden]) .winners[data-ending='aborted']")
    assert cat.inner_text(".result h2") == "The game was aborted"
    assert "aborted the game before the first move: no result" in cat.inner_text(".result")
    assert errors == []
    cat.context.close()


def test_spy_says_how_it_scores_in_the_pause_and_at_the_end(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    """Ann leaves round 1 (S13); the hard bot races on to its end: the pause says what
    the scores mean; after round 2 the match's end says it again (S14, S16)."""
    base = web_server.base
    seats = [{"type": "open"}, {"type": "bot", "level": "hard"}]
    created = create_table(base, "spy", {"rounds": 2}, seats, seed=5)
    ann = join_as(browser, base, created["invites"][0]["link"], "Ann", lang="en", phone=False)
    ann.set_viewport_size({"width": 1280, "height": 800})
    errors = watch_errors(ann)
    leave_round(ann)
    ann.wait_for_selector(".pausepanel:not([hidden]) .scoring")
    text = ann.inner_text(".pausepanel .scoring")
    assert "the first to call «finished» scores −20 for the round" in text
    assert "every other player +20" in text
    assert "The lowest total wins the match" in text
    ann.screenshot(path=str(shots / "spy-scoring-pause.png"))
    ann.click(".pausepanel button[data-key='ready']")
    ann.wait_for_selector(".pausepanel", state="hidden")
    leave_round(ann)
    ann.wait_for_selector(".result:not([hidden]) .scoring")
    assert "The lowest total wins the match" in ann.inner_text(".result .scoring")
    assert errors == []
    ann.context.close()


def test_spy_scoring_in_ukrainian_on_a_phone(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    seats = [{"type": "open"}, {"type": "bot", "level": "hard"}]
    created = create_table(base, "spy", {"rounds": 1}, seats, seed=7)
    bob = join_as(browser, base, created["invites"][0]["link"], "Богдан", lang="uk", phone=True)
    errors = watch_errors(bob)
    leave_round(bob)
    bob.wait_for_selector(".result:not([hidden]) .scoring")
    text = bob.inner_text(".result .scoring")
    assert "хто першим оголосить «закінчив», отримує за раунд −20" in text
    assert "Матч виграє найменша сума" in text
    bob.locator(".result .scoring").scroll_into_view_if_needed()
    bob.screenshot(path=str(shots / "spy-scoring-uk-phone.png"))
    assert errors == []
    bob.context.close()
