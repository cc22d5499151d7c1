"""A real server on a loopback port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import sys
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
#: Flags for a headless chromium without a sandbox, GPU or background traffic.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# The server suite's loopback runner serves here too (the web client is part of the app).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerThread as WebServer  # noqa: E402
from server_helpers import failing_on_bot_errors, free_port  # noqa: E402

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "WebServer", "failing_on_bot_errors", "free_port"]
