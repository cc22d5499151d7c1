"""A real server on a loopback port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from cardtable.server.protocol import MAX_MESSAGE_BYTES

CHROMIUM = Path("/usr/bin/chromium")
#: Flags for a headless chromium without a sandbox, GPU or background traffic.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebServer:
    """uvicorn serving ``app`` (with the browser client) in a thread of this process."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.port = free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=MAX_MESSAGE_BYTES * 4,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> WebServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not become healthy")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
