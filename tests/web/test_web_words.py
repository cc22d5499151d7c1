"""The games' words in the browser: the one glossary (served as /js/glossary.js), bot
seats named in the player's language, and the rules pages with their nested lists."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from web_helpers import GUARD, WebServer, create_table, join_by_invite

from cardtable.catalogue import words as catalogue_words
from cardtable.glossary import forbidden_words, glossary_js


def test_glossary_module_is_served_to_the_client(web_server: WebServer) -> None:
    response = httpx.get(web_server.base + "/js/glossary.js")
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]
    assert response.text == glossary_js()


def test_client_words_module_is_served_from_the_catalogues(web_server: WebServer) -> None:
    response = httpx.get(web_server.base + "/js/words.js")
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]
    assert response.text.startswith("//")
    words = json.loads(response.text[response.text.index("{") : response.text.rindex(";")])
    assert words["uk"]["navLobby"] == catalogue_words("web", "uk")["navLobby"]
    assert len(words["uk"]["seekStarting"]) == 3  # one, few, many
    again = httpx.get(
        web_server.base + "/js/words.js", headers={"If-None-Match": response.headers["etag"]}
    )
    assert again.status_code == 304
    assert not again.content


def test_rules_come_with_html_whose_nested_lists_stay_lists(web_server: WebServer) -> None:
    rules = httpx.get(f"{web_server.base}/api/rules/candidate?lang=uk").json()
    html = rules["html"]
    assert html.startswith("<h2>Кандидат")
    # C7: the two kinds of the sequence are a list inside the rule's list item.
    c7 = html[html.index("<strong>C7</strong>") :]
    assert c7.index("<ul>") < c7.index("</li>")
    assert "<strong>сходинки</strong>" in c7
    assert "<script" not in html


def _ukrainian_page(browser: Any, **context: Any) -> Any:
    ctx = browser.new_context(**context)
    ctx.add_init_script("localStorage.setItem('cardtable.lang', 'uk')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def test_ukrainian_rules_page_shows_nested_lists(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    page = _ukrainian_page(browser, viewport={"width": 1000, "height": 900})
    page.goto(web_server.base + "/rules/candidate")
    page.wait_for_selector("article.rules h2")
    nested = page.locator("article.rules li ul li")
    assert nested.count() >= 2
    assert "сходинки" in nested.first.inner_text()
    text = page.inner_text("body")
    assert not forbidden_words(text)
    page.locator("article.rules li ul").first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "rules-nested-uk.png"))
    assert not page.errors


def test_ukrainian_table_uses_the_glossary_and_names_the_bot_in_ukrainian(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(
        base,
        "candidate",
        {"deals": 1},
        [{"type": "open"}, {"type": "bot", "level": "easy"}],
        seed=3,
    )
    page = _ukrainian_page(browser, viewport={"width": 1100, "height": 900})
    join_by_invite(page, base, created["invites"][0]["link"], "Оксана")
    page.wait_for_selector("[data-pile]:not([disabled])")
    assert "Оберіть стопку, з якої роздавати" in page.inner_text("body")
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while not page.locator("[data-key^=hand-]").count():
        assert time.monotonic() < deadline, "no hand came"
        buttons = page.locator("[data-pile]:not([disabled])")
        if buttons.count():
            buttons.first.click()
        page.wait_for_timeout(100)
    text = page.inner_text("body")
    assert "Бот (легкий)" in text
    assert "Bot (easy)" not in text
    assert page.inner_text("button[data-key=clear]") == "Зняти вибір"
    assert not forbidden_words(text)
    labels = page.eval_on_selector_all("[aria-label]", "els => els.map(e => e.ariaLabel)")
    assert any("стопка" in label.lower() for label in labels), labels
    assert not any(forbidden_words(label) for label in labels)
    page.screenshot(path=str(shots / "candidate-table-uk.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "candidate-table-uk-phone.png"), full_page=True)
    assert not page.errors


def test_ukrainian_replay_names_the_bots_in_ukrainian(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    """A record keeps a bot seat's server name ("Bot (easy)"); the replay says it in
    the reader's language."""
    base = web_server.base
    bots = [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}]
    created = create_table(base, "candidate", {"deals": 1}, bots, seed=4)
    table_id = created["table"]["id"]
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while httpx.get(f"{base}/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' deal did not finish"
        time.sleep(0.2)
    page = _ukrainian_page(browser, viewport={"width": 1000, "height": 800})
    page.goto(f"{base}/replay/{table_id}")
    page.wait_for_selector("#main .replay, #main [data-key=next], #main button")
    page.wait_for_timeout(300)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    text = page.inner_text("body")
    assert "Бот (легкий)" in text
    assert "Bot (easy)" not in text
    assert not forbidden_words(text)
    assert not page.errors


def test_ukrainian_spy_moves_say_zi_stopky(web_server: WebServer, browser: Any) -> None:
    """A Spy move from the points pile reads «зі стопки очок» (not «з стопки»), and one
    from the waste «з відбою»: the source's preposition goes with its word."""
    page = _ukrainian_page(browser)
    page.goto(web_server.base + "/")
    said = page.evaluate(
        """async () => {
          const { t } = await import('/js/i18n.js');
          return ['points', 'waste'].flatMap((s) => {
            const source = t(`src_${s}`);
            return [t('mv_place', { name: 'Оля', card: '8♦', source, pile: 2 }),
                    t('mv_openBare', { name: 'Оля', source })];
          });
        }"""
    )
    assert said[0] == "Оля кладе 8♦ зі стопки очок на стопку 2"
    assert said[3] == "Оля починає нову стопку з відбою"
    assert not any(forbidden_words(text) for text in said), said
    assert not page.errors
