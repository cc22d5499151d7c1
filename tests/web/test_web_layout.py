"""The page around the game on a phone and when the connection drops: a two-line header
that leaves "Play now" in view on a Ukrainian phone, every header link still reachable,
and the "connection lost" banner in view wherever the player has scrolled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_recovery import start_against_bot, wait_my_turn
from web_helpers import WebServer

PHONE = {"width": 390, "height": 844}

#: Where the connection banner was, the first time it showed (set by a watcher).
WATCH_BANNER = """() => {
  window.bannerRect = null;
  new MutationObserver(() => {
    const banner = document.querySelector('.banner.connbanner.warn:not([hidden])');
    if (banner && !window.bannerRect) {
      const r = banner.getBoundingClientRect();
      window.bannerRect = {top: r.top, bottom: r.bottom, height: window.innerHeight,
                           scrolled: window.scrollY};
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""


def test_the_phone_header_is_two_lines_and_play_now_is_in_view(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script("localStorage.setItem('cardtable.lang', 'uk')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/")
    page.wait_for_selector("#playnow button[type=submit]")
    header = page.locator("#header").bounding_box()
    assert header is not None
    assert header["height"] <= 80, header  # two short lines (it took ~130 px before)
    button = page.locator("#playnow button[type=submit]").bounding_box()
    assert button is not None
    assert button["y"] + button["height"] <= PHONE["height"], button
    # The languages by their two letters, named in full for screen readers.
    assert page.inner_text("button[data-lang='uk']").strip() == "УК"
    assert page.get_attribute("button[data-lang='en']", "aria-label") == "English"
    page.screenshot(path=str(shots / "lobby-uk-phone.png"))
    # Every page of the header can be reached: the line scrolls sideways.
    page.click("header nav a[href='/rules/spy']")
    page.wait_for_selector(".rules")
    page.click("header a[href='/signin']")
    page.wait_for_url(f"{base}/signin")
    assert errors == []
    context.close()


def test_the_connection_banner_stays_in_view_wherever_the_page_is_scrolled(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 600})
    page = context.new_page()
    start_against_bot(web_server.base, page)
    wait_my_turn(page)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")
    page.evaluate(WATCH_BANNER)
    page.evaluate("window.cardtableConnection.drop()")
    page.wait_for_function("() => window.bannerRect !== null")
    rect = page.evaluate("window.bannerRect")
    assert rect["scrolled"] > 0  # the page was still scrolled down when it showed
    assert rect["top"] >= 0
    assert rect["bottom"] <= rect["height"]
    page.wait_for_selector(".banner.connbanner", state="hidden")
    context.close()
