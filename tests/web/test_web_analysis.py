"""The analysis board in the browser: a finished game's replay analysed on the server,
its graph, the marks in the move list, the better move on the table, the Spy oracle's
race — in English and Ukrainian, on a desktop and a phone (390×844)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import GUARD, WebServer, create_table

from cardtable.bots.review import ReviewBudget
from cardtable.glossary import forbidden_words
from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing

#: Small enough for a test, big enough for the marks to mean something.
SMALL = ReviewBudget(samples=4, iterations=16, worlds=2, oracle_nodes=5000)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """The real games and client, quick bots, a small analysis budget."""
    db = tmp_path_factory.mktemp("webdb") / "analysis.db"
    settings = Settings(
        pacing=Pacing(
            level_speeds={"easy": 40.0, "medium": 40.0, "hard": 40.0},
            turn_delay=0.0,
            segment_pause=0.0,
            start_count=0.0,
        ),
        allow_client_seeds=True,
        analysis_budget=SMALL,
        analysis_guest_burst=20,
    )
    running = WebServer(create_app(f"sqlite:///{db}", settings=settings)).start()
    yield running
    running.stop()


def finished_game(base: str, game: str, options: dict[str, Any], seed: int) -> str:
    """Two easy bots play a game to its end; its id."""
    bots = [{"type": "bot", "level": "easy"}] * 2
    table_id: str = create_table(base, game, options, bots, seed=seed)["table"]["id"]
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while httpx.get(f"{base}/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return table_id


def open_page(browser: Any, lang: str, phone: bool) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1100, "height": 900}
    context = browser.new_context(viewport=size, is_mobile=phone)
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def analyse(page: Any, base: str, table_id: str) -> None:
    """Open the replay, press Analyse, wait for the graph."""
    page.goto(f"{base}/replay/{table_id}")
    page.wait_for_selector(".analysis[data-status='none']")
    page.click("button[data-key='analyse']")
    page.wait_for_selector(".analysis[data-status='done'] .evalgraph svg .line")


def test_candidate_analysis_board_graph_marks_and_better_move(
    server: WebServer, browser: Any, shots: Path
) -> None:
    base = server.base
    table_id = finished_game(base, "candidate", {"deals": 1}, seed=3)
    page = open_page(browser, "en", phone=False)
    analyse(page, base, table_id)
    result = httpx.get(f"{base}/api/games/{table_id}/analysis").json()["result"]
    labelled = [d for d in result["decisions"] if d["label"]]
    assert labelled, "easy bots make marked moves at this seed"
    # Every labelled decision is marked in the move list, with its words for the ear.
    marks = page.locator(".movelist .move .mark")
    assert marks.count() == len(labelled)
    first = labelled[0]
    item = page.locator(f".movelist .move[data-index='{first['step'] - 1}']")
    assert first["label"] in item.inner_text()
    # A click on the graph goes to that move, which the panel explains.
    page.click(f".evalgraph rect.hit[data-step='{first['step']}']", force=True)
    assert page.get_attribute("#main", "data-step") == str(first["step"])
    assert "Better:" in page.inner_text(".analysisdetail")
    page.screenshot(path=str(shots / "analysis-candidate.png"), full_page=True)
    # The better move on the table: the position before the move, the move marked.
    page.click(".analysisdetail button[data-key='better']")
    assert page.get_attribute("#main", "data-step") == str(first["step"] - 1)
    assert page.locator(".board .better").count() > 0
    assert "marked on the table" in page.inner_text(".analysisdetail")
    page.screenshot(path=str(shots / "analysis-better.png"), full_page=True)
    # A second visit is served from storage: the board is drawn at once, no button.
    page.goto(f"{base}/replay/{table_id}")
    page.wait_for_selector(".analysis[data-status='done'] .evalgraph svg .line")
    assert not page.is_visible("button[data-key='analyse']")
    assert not page.errors


def test_spy_analysis_board_in_ukrainian_on_a_phone(
    server: WebServer, browser: Any, shots: Path
) -> None:
    base = server.base
    table_id = finished_game(base, "spy", {"rounds": 1}, seed=6)
    page = open_page(browser, "uk", phone=True)
    # Before the analysis: what to expect for Spy, not a Candidate deal's minutes.
    page.goto(f"{base}/replay/{table_id}")
    before = page.wait_for_selector(".analysis[data-status='none']").inner_text()
    assert "Кандидата" not in before
    assert "тур займає кілька секунд" in before
    analyse(page, base, table_id)
    result = httpx.get(f"{base}/api/games/{table_id}/analysis").json()["result"]
    # The graph fits the phone, and nothing scrolls sideways.
    width = page.evaluate("document.querySelector('.evalgraph svg').getBoundingClientRect().right")
    assert width <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Each race beside the oracle's, in Ukrainian (folded on a phone: one tap opens it).
    races = page.locator(".spyrace")
    assert races.count() == len(result["races"])
    page.locator(".spyrace summary").last.click()
    assert page.locator(".spyrace .race.oracle li").count() > 0
    text = page.inner_text(".analysis")
    assert "Найкоротша гонка оракула" in text or "Найкраща знайдена гонка" in text
    assert not forbidden_words(text)
    marked = sorted(
        (m for race in result["races"] for m in race["moves"] if m["mark"]), key=lambda m: m["step"]
    )
    assert marked, "an easy bot lengthens its race at this seed"
    assert page.locator(".movelist .move .mark").count() == len(marked)
    page.locator(".markjump").first.click()
    assert page.get_attribute("#main", "data-step") == str(marked[0]["step"])
    assert "помилка" in page.inner_text(".analysisdetail")
    page.screenshot(path=str(shots / "analysis-spy-uk-phone.png"), full_page=True)
    # The oracle's better move, on the table before the move.
    page.click(".analysisdetail button[data-key='better']")
    assert page.get_attribute("#main", "data-step") == str(marked[0]["step"] - 1)
    assert page.locator(".board .better").count() > 0
    page.screenshot(path=str(shots / "analysis-spy-better-uk-phone.png"), full_page=True)
    assert not page.errors
