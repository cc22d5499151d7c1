"""The Spy table's move list in the browser: every player's moves in words in the
player's language, each with its race time, grouped by round, live and again after a
reload; the last move marked on the table; placements that slide (not under reduced
motion) and a card placed that is heard."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from web_helpers import GUARD, WebServer, create_table, join_as

MOVES = ".board.spy .movelist ol[role='log'] li.move"


def play_a_move(page: Any) -> bool:
    """One move by key (by physical key: S17 shortcuts): a points card on a pile when
    one fits, else turn a card; False when there is nothing to do now."""
    legal = json.loads(page.get_attribute(".board.spy", "data-legal") or "[]")
    places = sorted(m for m in legal if m.startswith("place points"))
    if places:
        page.keyboard.press(places[0].split()[-1])
    elif "turn" in legal:
        page.keyboard.press("t")
    else:
        return False
    return True


def listed(page: Any) -> list[str]:
    return [str(t) for t in page.locator(MOVES).all_inner_texts()]


def test_spy_move_list_live_and_after_a_reload_in_two_languages(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(
        base,
        "spy",
        {"rounds": 2},
        [{"type": "open"}, {"type": "open"}, {"type": "bot", "level": "easy"}],
        seed=3,
    )
    links = [invite["link"] for invite in created["invites"]]
    ann = join_as(browser, base, links[0], "Ann", lang="en", phone=False)
    olha = join_as(browser, base, links[1], "Оля", lang="uk", phone=True, reduced_motion="reduce")
    errors: list[str] = []
    for page in (ann, olha):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    for page in (ann, olha):
        page.wait_for_selector(".board.spy .spyseat")
        assert page.locator(".board.spy .movelist ol[role='log']").count() == 1

    # Both people move by keys while the bot races them; every move is listed for both.
    made = {"ann": 0, "olha": 0}
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while made["ann"] < 6 or made["olha"] < 4 or ann.locator(MOVES).count() < 14:
        assert time.monotonic() < deadline, f"too few moves: {made}"
        for who, page in (("ann", ann), ("olha", olha)):
            before = page.get_attribute("#main", "data-version")
            if play_a_move(page):
                made[who] += 1
                page.wait_for_function(
                    "v => document.querySelector('#main').dataset.version !== v", arg=before
                )
        ann.wait_for_timeout(150)
    ann.wait_for_function("window.cardtableConnection.state.status === 'playing'")

    live = listed(ann)
    assert len(live) >= 14
    card = r"(10|[2-9JQKA])[♠♥♦♣]"
    assert any(re.search(rf"^\d+\.\s*\d:\d\d Ann turns over {card}$", m) for m in live)
    assert any(re.search(rf"Ann puts {card} from the points pile on pile [1-6]$", m) for m in live)
    assert any(re.search(r"\d:\d\d Оля ", m) for m in live)  # another person's moves
    assert any(re.search(r"\d:\d\d Bot \(easy\) ", m) for m in live)  # and the bot's
    for text in live:  # each with its race time
        assert re.match(r"\d+\.\s*\d:\d\d ", text), text
    assert ann.inner_text(".board.spy .movelist li.segment").strip() == "Round 1"
    assert ann.locator(f"{MOVES}.last").count() == 1
    # The last move is marked on the table too: the card it put down and a line saying it.
    assert ann.locator(".board.spy .spytable .last").count() >= 1
    assert ann.inner_text(".board.spy .lastmove").startswith("Last move: ")

    # In Ukrainian: the same moves in Ukrainian words, ranks В Д К Т, never J Q K A.
    uk = listed(olha)
    assert len(uk) >= 14
    assert any("перевертає" in m for m in uk)
    assert any("Оля" in m for m in uk)
    assert not any(re.search(r"\b[JQKA][♠♥♦♣]", m) for m in uk), uk
    assert olha.inner_text(".board.spy .movelist li.segment").strip() == "Раунд 1"

    # A bot's placement slid in for Ann; nothing moved for Оля (reduced motion); the
    # animations are short; a card another player placed was heard.
    ann.wait_for_function("(window.cardtableMotions || 0) > 0")
    assert ann.evaluate("window.cardtableLongestMotion") <= 250
    assert not olha.evaluate("window.cardtableMotions || 0")
    assert "card" in ann.evaluate("window.cardtableSounds")

    ann.screenshot(path=str(shots / "spy-movelist.png"), full_page=True)
    olha.screenshot(path=str(shots / "spy-movelist-phone-uk-top.png"))
    olha.locator(".board.spy .movelist").scroll_into_view_if_needed()
    olha.screenshot(path=str(shots / "spy-movelist-phone-uk.png"))

    # A reload rebuilds the list from the server's history: the same moves with the same
    # race times (the server's, not the page's), and whatever came meanwhile.
    seen = len(ann.locator(MOVES).all())
    before_reload = listed(ann)
    ann.reload()
    ann.wait_for_selector(".board.spy .spyseat")
    ann.wait_for_function(f'document.querySelectorAll("{MOVES}").length >= {seen}')
    again = listed(ann)
    assert again[: len(before_reload)] == before_reload
    olha.reload()
    olha.wait_for_selector(".board.spy .spyseat")
    olha.wait_for_function(f'document.querySelectorAll("{MOVES}").length >= {len(uk)}')
    assert listed(olha)[: len(uk)] == uk

    for page in (ann, olha):
        page.click("button[data-key='resign']")
    assert not errors, errors
    for page in (ann, olha):
        page.context.close()
