"""Choosing a language in the browser, and the pages in the languages added after English
and Ukrainian (German, Spanish, Polish): a first visit follows the browser's languages (its
Accept-Language), the menu lists every shipped language in its own name, the choice is
remembered on the device and by the account; the lobby, a Candidate table and a Spy race
in each of them, with screenshots looked at for overflow."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import WebServer, create_table, join_as

from cardtable.catalogue import words

PHONE = {"width": 390, "height": 844}


def page_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def assert_no_placeholders(text: str) -> None:
    """No ``{name}`` left unfilled and no id shown for a missing word."""
    assert not re.search(r"\{[@^\w.]+\}", text), text


def overflowing(page: Any) -> list[str]:
    """Elements whose text is wider than their box (a cut or spilling word)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, h1, h2, h3, label, a, th, td')]
            .filter((el) => el.offsetParent && el.scrollWidth > el.clientWidth + 1
                    && getComputedStyle(el).overflow !== 'visible')
            .map((el) => el.textContent.trim())"""
    )
    return found


def look_at(page: Any, shots: Path, name: str, then: dict[str, int]) -> None:
    """Check the page as it is and at the size ``then`` (no unfilled placeholder, no
    word spilling out of its box) and keep a screenshot of each: ``name.png`` and
    ``name-phone.png`` (whichever of the two is the phone)."""
    for size in (None, then):
        if size is not None:
            page.set_viewport_size(size)
        assert_no_placeholders(page.inner_text("body"))
        assert overflowing(page) == []
        phone = page.viewport_size["width"] < 600
        page.screenshot(path=str(shots / f"{name}{'-phone' if phone else ''}.png"), full_page=True)


#: The languages whose pages are looked at here: each with its browser locale and how its
#: tables name an easy bot.
LANGUAGES = {
    "de": ("de-DE", "Bot (leicht)"),
    "es": ("es-ES", "Bot (fácil)"),
    "pl": ("pl-PL", "Bot (łatwy)"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_first_visit_follows_the_browsers_language_and_the_choice_is_kept(
    web_server: WebServer, browser: Any, shots: Path, lang: str
) -> None:
    locale = LANGUAGES[lang][0]
    context = browser.new_context(locale=locale, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors = page_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("header .langs button")
    assert page.evaluate("document.documentElement.lang") == lang
    assert words("web", lang)["navLobby"] in page.inner_text("header")
    names = page.eval_on_selector_all("header .langs button", "els => els.map(e => e.ariaLabel)")
    assert names == ["English", "Deutsch", "Español", "Polski", "Українська"]
    look_at(page, shots, f"lobby-{lang}", then=PHONE)
    # The choice is the device's from now on, whatever the browser says.
    page.click("header .langs button[data-lang='en']")
    page.reload()
    page.wait_for_selector("header .langs button")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("game", "options", "phone", "ready", "word"),
    [
        ("candidate", {"deals": 1}, False, "[data-pile]:not([disabled])", "web:chooseDeal"),
        ("spy", {"rounds": 1}, True, "[data-key='deck']", "term:game_title.spy"),
    ],
)
def test_a_table_in_another_language(
    web_server: WebServer,
    browser: Any,
    shots: Path,
    game: str,
    options: dict[str, int],
    phone: bool,
    ready: str,
    word: str,
    lang: str,
) -> None:
    """A Candidate table on a desktop and a Spy race on a phone, then the other size."""
    base = web_server.base
    seats = [{"type": "open"}, {"type": "bot", "level": "easy"}]
    created = create_table(base, game, options, seats, seed=3)
    page = join_as(browser, base, created["invites"][0]["link"], "Jörg", lang=lang, phone=phone)
    errors = page_errors(page)
    page.wait_for_selector(ready)
    text = page.inner_text("body")
    area, _, key = word.partition(":")
    assert words(area, lang)[key] in text
    assert LANGUAGES[lang][1] in text
    name = f"candidate-table-{lang}" if game == "candidate" else f"spy-race-{lang}"
    look_at(page, shots, name, then={"width": 1280, "height": 800} if phone else PHONE)
    assert errors == []
    page.context.close()


def test_signing_in_on_a_new_device_brings_the_accounts_language(
    web_server: WebServer, browser: Any
) -> None:
    """The account chose German; a browser in English that has chosen nothing yet
    switches to German on signing in, and keeps it."""
    name = f"Greta{uuid.uuid4().hex[:6]}"
    made = httpx.post(
        web_server.base + "/api/account/register",
        json={"name": name, "password": "ein langes Geheimnis", "bearer": True, "lang": "de"},
        headers={"X-Cardtable-Client": "test"},
    )
    assert made.status_code == 201, made.text
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    errors = page_errors(page)
    page.goto(web_server.base + "/signin")
    page.wait_for_selector("#account-name")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.fill("#account-name", name)
    page.fill("#account-password", "ein langes Geheimnis")
    page.click("form button[type=submit]")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.reload()
    page.wait_for_selector("header .langs button")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert errors == []
    context.close()
