"""Helpers of the cluster tests: server processes sharing PostgreSQL and Redis, and
scripted players that reconnect to any process and resend their unanswered move with
the same id, as the web client does."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from server_helpers import PG_URL, free_port, pg_admin, wait_healthy
from server_helpers import fresh_database as helpers_fresh_database
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

HERE = Path(__file__).parent
REDIS_URL = os.environ.get("CARDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def services_missing() -> str | None:
    """Why the cluster tests cannot run here (no PostgreSQL or no Redis), or None."""
    try:
        with pg_admin():
            pass
    except Exception as exc:
        return f"no PostgreSQL answers at {PG_URL} (set CARDTABLE_TEST_PG_URL): {exc}"
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except Exception as exc:
        return f"no Redis answers at {REDIS_URL} (set CARDTABLE_TEST_REDIS_URL): {exc}"
    return None


def fresh_database() -> contextlib.AbstractContextManager[str]:
    """A new PostgreSQL database for a cluster, dropped afterwards."""
    return helpers_fresh_database("cardtable_cluster")


class Node:
    """One server process of the cluster (``server_cluster_launch.py``)."""

    def __init__(
        self,
        db: str,
        prefix: str,
        name: str,
        *,
        lease: float = 1.5,
        orphan_wait: int | None = None,
    ) -> None:
        self.db = db
        self.prefix = prefix
        self.name = name
        #: Its lease (seconds), and the renewal periods an orphan waits for the process
        #: ``preferred`` names (None: the server's own ``ORPHAN_WAIT``).
        self.lease = lease
        self.orphan_wait = orphan_wait
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        #: The cluster log of each start (who took, released or dropped which table).
        self.logs: list[Path] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: bool = True) -> Node:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(HERE) + os.pathsep + env.get("PYTHONPATH", "")
        env["CARDTABLE_TEST_LEASE_SECONDS"] = str(self.lease)
        if self.orphan_wait is not None:
            env["CARDTABLE_TEST_ORPHAN_WAIT"] = str(self.orphan_wait)
        self.logs.append(Path(tempfile.mkdtemp(prefix="cardtable-node-")) / f"{self.name}.log")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "server_cluster_launch.py"),
                self.db,
                str(self.port),
                REDIS_URL,
                self.prefix,
                self.name,
                str(self.logs[-1]),
            ],
            env=env,
        )
        if wait:
            wait_healthy(self.base, proc=self.proc)
        return self

    def log_tail(self, lines: int = 40) -> str:
        """The last cluster log lines of each start of this node, for a failure to show."""
        parts = []
        for path in self.logs:
            text = path.read_text(errors="replace") if path.exists() else ""
            parts.append(f"--- {path.name}\n" + "\n".join(text.splitlines()[-lines:]))
        return "\n".join(parts)

    def remove_logs(self) -> None:
        """Delete this node's log files."""
        for path in self.logs:
            shutil.rmtree(path.parent, ignore_errors=True)

    def healthy(self) -> bool:
        if self.proc is None or self.proc.poll() is not None:
            return False
        try:
            return httpx.get(self.base + "/api/health", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


class Player:
    """A scripted person at one seat: connects to a random live process, says hello,
    moves when it may (a random legal move, after a short think), and on any lost
    connection (a killed process, a 1012 "reconnect") connects again elsewhere and
    resends its unanswered move with the same id."""

    def __init__(
        self,
        table_id: str,
        seat: int,
        token: str,
        bases: Callable[[], Sequence[str]],
        rng: random.Random,
        think: tuple[float, float] = (0.02, 0.08),
    ) -> None:
        self.table_id = table_id
        self.seat = seat
        self.token = token
        self.bases = bases
        self.rng = rng
        self.think = think
        self.ws: ClientConnection | None = None
        self.greeted = False
        self.since = 0.0
        self.state: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None
        self.sent: dict[str, dict[str, Any]] = {}
        #: move id -> (version it made, move text), from each ack.
        self.acked: dict[str, tuple[int, str]] = {}
        self.answered: set[str] = set()
        self.reconnects = 0
        self.closes: list[int | None] = []
        #: Times no welcome came within 5 s (a busy machine) and the client tried again.
        self.gave_up = 0
        self.next_move = 0.0
        self.count = 0

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state["status"] == "finished"

    def _connect(self) -> None:
        for base in self.rng.sample(list(self.bases()), k=len(self.bases())):
            url = base.replace("http", "ws", 1) + f"/ws/tables/{self.table_id}"
            try:
                self.ws = contextlib.ExitStack().enter_context(
                    connect(url, max_size=2**22, open_timeout=2)
                )
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                continue
            try:
                self.ws.send(json.dumps({"type": "hello", "token": self.token}))
            except ConnectionClosed as exc:  # a stopping process sends it on at once
                self._drop(exc.rcvd.code if exc.rcvd is not None else None)
                continue
            self.greeted = False
            self.since = time.monotonic()
            return
        self.ws = None

    def _drop(self, code: int | None, *, closed_by_server: bool = True) -> None:
        if closed_by_server:
            self.closes.append(code)
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
        self.ws = None
        self.greeted = False
        self.reconnects += 1

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
        self.ws = None

    def step(self) -> None:
        """Read what arrived, reconnect if needed, move if it is time."""
        if self.ws is None:
            self._connect()
            if self.ws is None:
                return
        try:
            while True:
                text = self.ws.recv(timeout=0)
                assert isinstance(text, str)
                self._receive(json.loads(text))
        except TimeoutError:
            pass
        except ConnectionClosed as exc:
            self._drop(exc.rcvd.code if exc.rcvd is not None else None)
            return
        if not self.greeted:
            if time.monotonic() - self.since > 5:  # no welcome: try elsewhere
                # The client's own choice, not a close the server sent: not a code.
                self.gave_up += 1
                self._drop(None, closed_by_server=False)
            return
        self._act()

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        state = message.get("state")
        if state is not None and (self.state is None or state["version"] >= self.state["version"]):
            self.state = state
        if kind == "welcome":
            self.greeted = True
            if self.pending is not None:  # unanswered: the same id again
                assert self.ws is not None
                self.ws.send(json.dumps(self.pending))
        move_id = message.get("move_id")
        if self.pending is not None and move_id == self.pending["move_id"]:
            if kind == "ack":
                self.acked[move_id] = (message["move_version"], self.pending["move"])
                self.answered.add(move_id)
                self.pending = None
            elif kind == "resync":
                self.answered.add(move_id)
                self.pending = None
            elif kind == "error":
                # Refused by the rules (the match ended meanwhile, say), never for a
                # broken protocol, nor as "not stored" (a move caught in a hand-over
                # is sent again to the new owner, not refused).
                assert message["code"] not in (
                    "storage",
                    "internal",
                    "bad_token",
                    "bad_message",
                    "no_hello",
                    "rate_limited",
                ), message
                self.answered.add(move_id)
                self.pending = None

    def _act(self) -> None:
        state = self.state
        now = time.monotonic()
        if self.pending is not None or state is None or state["status"] != "playing":
            return
        moves = state["legal_moves"]
        if not moves or now < self.next_move:
            return
        if state["to_move"] not in ("anyone", self.seat):
            return
        self.count += 1
        move_id = f"{self.seat}-{self.count}"
        self.pending = {
            "type": "move",
            "token": self.token,
            "version": state["version"],
            "move_id": move_id,
            "move": self.rng.choice(moves),
        }
        self.sent[move_id] = self.pending
        self.next_move = now + self.rng.uniform(*self.think)
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(self.pending))
        except ConnectionClosed as exc:
            self._drop(exc.rcvd.code if exc.rcvd is not None else None)
