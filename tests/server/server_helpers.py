"""Running a real server on loopback and talking to it as clients do."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy.engine import make_url
from websockets.sync.client import ClientConnection, connect

from cardtable.server import server_config
from cardtable.server.app import create_app
from cardtable.server.protocol import SERVER_MESSAGE
from cardtable.server.settings import Settings
from cardtable.server.storage import database_url
from cardtable.table import Pacing

HERE = Path(__file__).parent


class StepClock:
    """A server's clock (``create_app(clock=...)``, the Hub's) that moves only when the
    test moves it: the times a table records are the ones the test chose, however slowly
    the machine runs. Fit for tables whose bots and counts need no time to pass."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: Servers running in this process (their hubs are checked for bot errors).
RUNNING: list[ServerThread] = []


def bot_errors() -> dict[int, int]:
    """How many bot errors each running server's hub has recorded so far."""
    counts = {}
    for server in RUNNING:
        hub = getattr(server.app.state, "hub", None)
        counts[id(server)] = len(hub.bot_errors) if hub is not None else 0
    return counts


@contextlib.contextmanager
def failing_on_bot_errors() -> Iterator[None]:
    """Fail the test if any server in this process recorded a bot error meanwhile: a bot
    that raises is a bug (the server makes no move for it and logs it)."""
    before = bot_errors()
    yield
    for server in list(RUNNING):
        hub = getattr(server.app.state, "hub", None)
        if hub is None:
            continue
        new = hub.bot_errors[before.get(id(server), 0) :]
        if new:
            pytest.fail(f"a bot failed during the test: {new}")


class ServerThread:
    """uvicorn serving ``app`` in a thread of this process: on a free port, or on
    ``port`` (a server started again at the address of one that stopped); with
    ``graceful`` seconds, its stop cuts the requests still open after that long, as
    ``cardtable serve``'s does (the Bot API's streams never end by themselves)."""

    def __init__(
        self,
        app: Any,
        trusted_proxies: Sequence[str] = (),
        *,
        port: int | None = None,
        graceful: int | None = None,
    ) -> None:
        self.app = app
        self.port = port or free_port()
        # As ``cardtable serve`` configures uvicorn (X-Forwarded-For only from
        # ``trusted_proxies``).
        config = server_config(
            app,
            "127.0.0.1",
            self.port,
            log_level="warning",
            trusted_proxies=trusted_proxies,
            timeout_graceful_shutdown=graceful,
        )
        config.lifespan = "on"  # a failing start fails the test at once
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerThread:
        self.thread.start()
        wait_healthy(self.base)
        RUNNING.append(self)
        return self

    def stop(self) -> None:
        if self in RUNNING:
            RUNNING.remove(self)
        self.server.should_exit = True
        # Its shutdown writes what the tables hold: a test that starts another server on
        # the same database goes on only once this one has finished (GUARD: a hang).
        self.thread.join(timeout=GUARD)
        if self.thread.is_alive():
            raise RuntimeError("the server thread did not stop")


class ServerProcess:
    """``tests/server/server_launch.py`` in a subprocess (can be SIGKILLed)."""

    def __init__(self, db_url: str, *args: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.db_url = db_url
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Launch it and wait (up to ``timeout`` seconds) until it answers its health check."""
        env = dict(os.environ)
        env["PYTHONPATH"] = str(HERE) + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "server_launch.py"),
                self.db_url,
                str(self.port),
                *self.args,
            ],
            env=env,
        )
        wait_healthy(self.base, timeout=timeout, proc=self.proc)
        return self

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


#: How long a client waits for a message or a server to start at most: a guard that only
#: a broken server reaches (a busy machine is slow, never this slow).
GUARD = 120.0


def wait_healthy(base: str, timeout: float = GUARD, proc: Any = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            # A busy machine may take seconds to answer: the deadline bounds the wait.
            if httpx.get(base + "/api/health", timeout=10).status_code == 200:
                return
        time.sleep(0.05)
    raise TimeoutError("server did not become healthy")


_ids = itertools.count(1)


class Client:
    """One WebSocket client: remembers everything it received, validated."""

    def __init__(self, base: str, table_id: str, token: str | None = None) -> None:
        self.url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        self.token = token
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(self.url, max_size=2**22, open_timeout=GUARD)
        )
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = GUARD) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        SERVER_MESSAGE.validate_python(message)  # every message is well-formed
        self.received.append(message)
        state = message.get("state")
        if state is not None and (self.state is None or state["version"] >= self.state["version"]):
            self.state = state
        return message

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = GUARD
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            message = self.recv(timeout=left)
            if predicate(message):
                return message

    def wait_state(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = GUARD
    ) -> dict[str, Any]:
        """The newest state once it satisfies ``predicate``: the state already received
        counts (a move's answer may come after the update that ended the game, read
        while waiting for it), then each new one."""
        if self.state is not None and predicate(self.state):
            return self.state
        self.wait_for(lambda m: "state" in m and predicate(m["state"]), timeout)
        assert self.state is not None
        return self.state

    def drain(self, quiet: float = 0.05) -> None:
        """Read whatever has arrived until nothing comes for ``quiet`` seconds.

        It only takes what is already there (``timeout=0``) and sleeps in between: a
        blocking read with a tiny timeout, called thousands of times a game, once
        waited forever inside the client library's queue."""
        while True:
            with contextlib.suppress(TimeoutError):
                while True:
                    self.recv(timeout=0)
            time.sleep(quiet)
            try:
                self.recv(timeout=0)
            except TimeoutError:
                return

    def hello(self) -> dict[str, Any]:
        self.send({"type": "hello", "token": self.token})
        return self.wait_for(lambda m: m["type"] in ("welcome", "error"))

    def move(
        self, move: str, *, version: int | None = None, move_id: str | None = None
    ) -> dict[str, Any]:
        """Send a move and wait for its answer (ack, resync or error)."""
        assert self.token is not None
        assert self.state is not None
        move_id = move_id or f"m{next(_ids)}"
        self.send(
            {
                "type": "move",
                "token": self.token,
                "version": self.state["version"] if version is None else version,
                "move_id": move_id,
                "move": move,
            }
        )
        return self.wait_for(
            lambda m: m["type"] in ("ack", "resync", "error") and m.get("move_id") == move_id
        )


class Api:
    """The HTTP API."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=10)

    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        response = self.http.post("/api/tables", json={"game": game, "seats": seats, **extra})
        assert response.status_code == 201, response.text
        return response.json()  # type: ignore[no-any-return]

    def join(self, table_id: str, invite: str, name: str) -> dict[str, Any]:
        response = self.http.post(
            f"/api/tables/{table_id}/join", json={"invite": invite, "name": name}
        )
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]

    def table(self, table_id: str) -> dict[str, Any]:
        response = self.http.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]

    def seat_players(
        self, game: str, names: list[str], bots: list[str] | None = None, **extra: Any
    ) -> tuple[str, list[str]]:
        """A table with a seat per name (then a bot per level); returns id and tokens."""
        seats = [{"type": "open"} for _ in names] + [
            {"type": "bot", "level": level} for level in bots or []
        ]
        created = self.create(game, seats, **extra)
        table_id = created["table"]["id"]
        tokens = [
            self.join(table_id, invite["code"], name)["token"]
            for invite, name in zip(created["invites"], names, strict=True)
        ]
        return table_id, tokens


@contextlib.contextmanager
def clients(base: str, table_id: str, tokens: Sequence[str | None]) -> Iterator[list[Client]]:
    opened = [Client(base, table_id, token) for token in tokens]
    try:
        yield opened
    finally:
        for client in opened:
            client.close()


def play_first_moves(players: Sequence[Client]) -> None:
    """Each client in turn says hello and plays its first legal move (a one-card ``fake``
    match is over after that)."""
    for client in players:
        client.hello()
    for client in players:
        client.drain()
        assert client.state is not None
        client.move(client.state["legal_moves"][0])


def fake_server_thread(
    db: Path,
    settings: Settings,
    bots: Any = None,
    clock: Callable[[], float] = time.monotonic,
) -> ServerThread:
    """A started server on the SQLite file ``db`` hosting the fake games (their bots,
    or the bot maker ``bots``; its tables' time from ``clock``: a :class:`StepClock`
    for a test that moves time itself)."""
    from server_fakegame import fake_bots, fake_games

    app = create_app(
        f"sqlite:///{db}",
        games=fake_games(),
        bots=bots or fake_bots,
        settings=settings,
        static_dir=None,
        clock=clock,
    )
    return ServerThread(app).start()


#: Fast bots, no pause between deals or rounds, no start count (test_server_pause.py has
#: its own pause).
FAST_PACING = Pacing(
    level_speeds={"easy": 20.0, "medium": 40.0, "hard": 80.0},
    turn_delay=0.0,
    segment_pause=0.0,
    start_count=0.0,
)


def fast_settings() -> Settings:
    """Fast bots and short absences, so tests run in seconds."""
    return Settings(
        grace_seconds=0.5,
        pacing=FAST_PACING,
        keep_finished_seconds=1.0,
        bot_processes=0,
        allow_client_seeds=True,  # tests replay known deals (unrated tables only)
    )


#: The PostgreSQL server the storage and cluster tests use (a new database per test).
PG_URL = os.environ.get("CARDTABLE_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


def pg_admin() -> Any:
    """A connection to :data:`PG_URL` that may create and drop databases."""
    import psycopg

    return psycopg.connect(
        database_url(PG_URL).replace("+psycopg", ""), autocommit=True, connect_timeout=3
    )


@contextlib.contextmanager
def fresh_database(prefix: str = "cardtable_test") -> Iterator[str]:
    """A new empty PostgreSQL database on :data:`PG_URL`, dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with pg_admin() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = make_url(database_url(PG_URL)).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with pg_admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
