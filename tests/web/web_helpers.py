"""A real server on a loopback port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

CHROMIUM = Path("/usr/bin/chromium")
#: Flags for a headless chromium without a sandbox, GPU or background traffic.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: How long a browser test waits for a page (Playwright's waits, in ms) or for a game it
#: watches (:data:`GUARD`, in s) at most. Only a broken page or server takes this long;
#: a busy machine takes longer than a quiet one, so these are guards, never speed goals.
WAIT_MS = 120_000
GUARD = 300.0


class GuardedBrowser:
    """A Playwright browser whose every new context waits up to :data:`WAIT_MS` (not
    Playwright's 30 s) for a selector, a function, a navigation or a click.

    Service workers are blocked unless a test asks for them
    (``service_workers="allow"``): the site's worker (static/sw.js) only answers page
    loads when the network fails, and the install test proves it on its own."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        options.setdefault("service_workers", "block")
        context = self._browser.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        return context

    def new_page(self, **options: Any) -> Any:
        options.setdefault("service_workers", "block")
        page = self._browser.new_page(**options)
        page.set_default_timeout(WAIT_MS)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


# The server suite's loopback runner serves here too (the web client is part of the app).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerThread as WebServer  # noqa: E402
from server_helpers import StepClock, failing_on_bot_errors, free_port  # noqa: E402

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "GUARD",
    "WAIT_MS",
    "GuardedBrowser",
    "StepClock",
    "WebServer",
    "create_table",
    "failing_on_bot_errors",
    "free_port",
    "join_as",
    "join_by_invite",
]


def create_table(
    base: str,
    game: str,
    options: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    seed: int | None = None,
) -> dict[str, Any]:
    """A table made through the HTTP API: its ``table`` facts and the ``invites``; a
    known ``seed`` makes it unrated (the test server refuses a seeded rated table)."""
    body: dict[str, Any] = {"game": game, "options": dict(options), "seats": list(seats)}
    if seed is not None:
        body["seed"] = seed
        body["rated"] = False
    response = httpx.post(base + "/api/tables", json=body)
    response.raise_for_status()
    created: dict[str, Any] = response.json()
    return created


def join_by_invite(page: Any, base: str, link: str, name: str) -> None:
    """Take the seat of an invite link as ``name``, as a person does in the browser."""
    page.goto(base + link)
    page.fill("#join-name", name)
    page.click("form.joinform button[type=submit]")
    page.wait_for_selector("#main[data-status]")


def join_as(
    browser: Any, base: str, link: str, name: str, *, lang: str, phone: bool, **options: Any
) -> Any:
    """A new browser (a phone at 390×844, or a desktop) in ``lang`` taking the seat of an
    invite link as ``name``; its page. ``options`` go to the browser context (e.g.
    ``reduced_motion="reduce"``)."""
    size = {"width": 390, "height": 844} if phone else {"width": 1100, "height": 900}
    context = browser.new_context(viewport=size, is_mobile=phone, **options)
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    page = context.new_page()
    join_by_invite(page, base, link, name)
    return page
