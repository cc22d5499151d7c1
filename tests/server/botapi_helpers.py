"""Bot accounts of the Bot API tests: a person who makes tokens, and the token's calls."""

from __future__ import annotations

import asyncio
import copy
import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from community_helpers import Person
from server_helpers import GUARD, Client

from cardtable.botclient.client import BotClient
from cardtable.botclient.players import read_roster


class Bot(Person):
    """An account with a personal API token (``scopes``); made a bot when ``upgrade``.
    Its calls go with the token; :attr:`person`'s with the account's session."""

    def __init__(
        self,
        base: str,
        name: str,
        *,
        scopes: tuple[str, ...] = ("bot:play",),
        upgrade: bool = True,
    ) -> None:
        super().__init__(base, name)
        self.person = copy.copy(self)  # the session's calls
        made = self.person.call(
            "POST", "/api/account/tokens", 201, name="engine", scopes=list(scopes)
        )
        self.token_id = str(made["id"])
        self.token = str(made["token"])
        self.http = httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {self.token}"}, timeout=30
        )
        if upgrade:
            self.call("POST", "/api/bot/account/upgrade", 204)

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The objects of an NDJSON stream (keepalive lines skipped), until it ends."""
        with self.http.stream("GET", path, timeout=httpx.Timeout(30, read=60)) as answer:
            assert answer.status_code == 200, answer.read()
            for text in answer.iter_lines():
                if text.strip():
                    yield json.loads(text)


#: The streams open now (a fixture closes them after each test).
OPEN: list[Lines] = []


class Lines:
    """An NDJSON stream read on a thread: its objects in a queue, waited on by condition."""

    def __init__(self, bot: Bot, path: str) -> None:
        self.queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.ended = False
        self.http = httpx.Client(
            base_url=str(bot.http.base_url), headers=dict(bot.http.headers), timeout=30
        )
        self._thread = threading.Thread(target=self._read, args=(path,), daemon=True)
        self._thread.start()
        OPEN.append(self)

    def _read(self, path: str) -> None:
        try:
            with self.http.stream("GET", path, timeout=httpx.Timeout(30, read=60)) as answer:
                assert answer.status_code == 200, answer.read()
                for text in answer.iter_lines():
                    if text.strip():
                        self.queue.put(json.loads(text))
        except (httpx.HTTPError, RuntimeError):
            pass  # closed by :meth:`close`
        finally:
            self.queue.put(None)

    def close(self) -> None:
        """Hang up (the server sees the client leave)."""
        self.http.close()
        if self in OPEN:
            OPEN.remove(self)

    def next(
        self, until: Callable[[dict[str, Any]], bool] = lambda _: True, timeout: float = GUARD
    ) -> dict[str, Any]:
        """The first object from now on for which ``until`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            if item is None:
                self.ended = True
                raise AssertionError("the stream ended")
            self.seen.append(item)
            if until(item):
                return item

    def end(self, timeout: float = GUARD) -> None:
        """Wait until the stream ends."""
        while not self.ended:
            item = self.queue.get(timeout=timeout)
            if item is None:
                self.ended = True
            else:
                self.seen.append(item)


class Connected:
    """``cardtable connect``'s client for a bot, run on its own thread and event loop."""

    def __init__(
        self,
        bot: Bot,
        specs: list[str],
        log_dir: Path,
        seed: int,
        tournaments: tuple[str, ...] = (),
    ) -> None:
        self.client = BotClient(
            str(bot.http.base_url),
            bot.token,
            read_roster(specs),
            log_dir=log_dir,
            seed=seed,
            tournaments=tournaments,
        )
        self.error: BaseException | None = None
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self.client.run())
        except BaseException as exc:
            self.error = exc

    def wait_finished(self, table: str, timeout: float = 300.0) -> dict[str, Any]:
        """The result once the client has seen the game ``table`` end."""
        deadline = time.monotonic() + timeout
        while table not in self.client.finished:
            assert self.thread.is_alive(), self.error
            assert time.monotonic() < deadline, f"game {table} did not end"
            self.thread.join(0.05)  # waits on the condition, checked twenty times a second
        return self.client.finished[table]

    def stop(self, timeout: float = GUARD) -> None:
        """Stop the client and wait for its thread."""
        self.loop.call_soon_threadsafe(self.client.stop)
        self.thread.join(timeout)


def answered(person: Person, challenge: str, timeout: float = GUARD) -> dict[str, Any]:
    """The challenge as ``person`` sees it once answered (a client answers it: waited
    for, up to ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        found: dict[str, Any] = getattr(person, "person", person).call(
            "GET", f"/api/challenges/{challenge}", 200
        )
        if found["status"] not in ("pending", "accepting"):  # accepting: its table is made
            return found
        assert time.monotonic() < deadline, f"the challenge {challenge} was never answered"
        time.sleep(0.05)  # polls the condition; the client answers within a tick


def table_of(person: Person, challenge: str, timeout: float = GUARD) -> str:
    """The table of a challenge once accepted (waited for, as :func:`answered`)."""
    found = answered(person, challenge, timeout)
    assert found["table"] is not None, found
    return str(found["table"])


def play_seat(person: Client) -> dict[str, Any]:
    """A person plays its seat through its WebSocket, the first legal move whenever it
    has one, until the match is over; the last state."""
    person.hello()
    version = 0  # the version the person's last move made: older states are stale
    for _ in range(5000):  # a guard: a one-deal match is over in far fewer moves
        state = person.wait_state(
            lambda s, v=version: (
                s["version"] >= v and (s["status"] == "finished" or bool(s["legal_moves"]))
            )
        )
        if state["status"] == "finished":
            return state
        answer = person.move(state["legal_moves"][0])
        assert answer["type"] == "ack", answer
        version = answer["move_version"]
    raise AssertionError("the match did not end")
