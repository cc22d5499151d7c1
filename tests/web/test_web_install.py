"""The site installs as an app: a web app manifest with home-screen icons, a service
worker that takes control, Chromium's installability check with nothing to object, and
an offline page (in the player's language first) when a page cannot load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from web_helpers import WebServer


def test_the_manifest_names_the_app_and_icons_the_server_serves(web_server: WebServer) -> None:
    base = web_server.base
    answer = httpx.get(f"{base}/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["short_name"] == "cardtable"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes  # what a phone's home screen asks for
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        image = httpx.get(f"{base}{icon['src']}")
        assert image.status_code == 200, icon["src"]
        assert image.headers["content-type"].startswith(icon["type"]), icon["src"]
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            # The PNG's own width and height (bytes 16-24 of its header) match the claim.
            assert int.from_bytes(image.content[16:20]) == side
            assert int.from_bytes(image.content[20:24]) == side
    worker = httpx.get(f"{base}/sw.js")
    assert worker.status_code == 200
    assert "javascript" in worker.headers["content-type"]
    page = httpx.get(f"{base}/")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.text


def test_the_service_worker_takes_control_and_shows_the_offline_page(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    errors: list[str] = []
    context = browser.new_context(
        service_workers="allow", viewport={"width": 390, "height": 844}, is_mobile=True
    )
    context.add_init_script("localStorage.setItem('cardtable.lang', 'uk')")
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/")
    page.wait_for_selector("#main form.create")
    # The worker installs (caching the offline page) and takes control of the page.
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{base}/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # Chromium's own check of what an installable app needs: nothing missing.
    cdp = context.new_cdp_session(page)
    found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # (A Playwright context is private, which Chromium names but which no user sees.)
    assert [e["errorId"] for e in found if e["errorId"] != "in-incognito"] == []
    # Offline, a page load answers with the offline page, Ukrainian first.
    context.set_offline(True)
    page.goto(f"{base}/play/no-such-table")
    first = page.wait_for_selector("main section")
    assert first.get_attribute("lang") == "uk"
    assert "Немає з’єднання" in first.inner_text()
    assert page.evaluate("document.documentElement.lang") == "uk"
    page.screenshot(path=str(shots / "offline-uk-phone.png"))
    # Back online, "Try again" brings the app back.
    context.set_offline(False)
    first.query_selector("button[data-retry]").click()
    page.wait_for_selector("#main[data-missing], #main [data-missing], #main .missing")
    assert errors == []
    context.close()
