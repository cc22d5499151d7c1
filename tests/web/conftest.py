"""Fixtures: a real server with the real games, and a headless chromium (skipped without)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, GuardedBrowser, WebServer, failing_on_bot_errors

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing


@pytest.fixture(autouse=True)
def _no_bot_errors() -> Iterator[None]:
    """Every browser test fails if a bot raised meanwhile (no move is invented for it)."""
    with failing_on_bot_errors():
        yield


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """The server with Candidate and Spy, its client at /, quick bots."""
    db = tmp_path_factory.mktemp("webdb") / "web.db"
    settings = Settings(
        grace_seconds=30.0,
        pacing=Pacing(
            level_speeds={"easy": 1.5, "medium": 3.0, "hard": 6.0},
            turn_delay=0.05,
            segment_pause=0.0,
            start_count=0.0,
        ),
        keep_finished_seconds=60.0,
        allow_client_seeds=True,  # tests replay known deals (unrated tables only)
    )
    server = WebServer(create_app(f"sqlite:///{db}", settings=settings)).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless (never a downloaded browser); its pages wait as long
    as a busy machine needs (:class:`web_helpers.GuardedBrowser`)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium to run the browser tests")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    sync_playwright = sync_api.sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield GuardedBrowser(chromium)
        chromium.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $CARDTABLE_SCREENSHOTS (e.g. out/) or a pytest tmp dir."""
    chosen = os.environ.get("CARDTABLE_SCREENSHOTS")
    if chosen:
        path = Path(chosen)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("screenshots")
