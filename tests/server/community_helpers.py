"""Signed-in players of the community tests: their HTTP calls and their ``/ws/me``."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from server_helpers import GUARD, Client
from websockets.sync.client import ClientConnection, connect


class Person:
    """An account: registered (bearer token), its requests, its per-account socket."""

    def __init__(self, base: str, name: str, *, register: bool = True) -> None:
        self.base = base
        self.name = name
        answer = httpx.post(
            f"{base}/api/account/{'register' if register else 'login'}",
            json={"name": name, "password": "a long password", "bearer": True},
            headers={"X-Cardtable-Client": "1"},
            timeout=30,
        )
        assert answer.status_code in (200, 201), answer.text
        self.token = str(answer.json()["token"])
        self.http = httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {self.token}"}, timeout=30
        )
        self.socket: ClientConnection | None = None
        self._stack = contextlib.ExitStack()
        self.heard: list[dict[str, Any]] = []

    def at(self, base: str) -> Person:
        """The same session, its requests sent to another process ``base``."""
        self.base = base
        self.http = httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {self.token}"}, timeout=30
        )
        return self

    def call(self, method: str, path: str, status: int, **body: Any) -> Any:
        """A request answered with ``status`` (its JSON, if any)."""
        answer = self.http.request(method, path, json=body if body else None)
        assert answer.status_code == status, (answer.status_code, answer.text)
        return answer.json() if answer.content else None

    def refused(self, method: str, path: str, status: int, code: str, **body: Any) -> None:
        """A request refused with ``status`` and the server's ``code``."""
        detail = self.call(method, path, status, **body)["detail"]
        assert detail["code"] == code, detail
        assert detail["message"], detail

    def listen(self) -> dict[str, Any]:
        """Open ``/ws/me``; its hello."""
        url = self.base.replace("http", "ws", 1) + "/ws/me"
        self.socket = self._stack.enter_context(
            connect(
                url,
                additional_headers={"Authorization": f"Bearer {self.token}"},
                open_timeout=GUARD,
            )
        )
        hello = self.next()
        assert hello["type"] == "hello", hello
        return hello

    def next(self, timeout: float = GUARD) -> dict[str, Any]:
        assert self.socket is not None
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        self.heard.append(message)
        return message

    def notice(self, kind: str) -> dict[str, Any]:
        """The next notice of ``kind`` on the socket (others before it are kept)."""
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline:
            message = self.next(timeout=deadline - time.monotonic())
            if message["type"] == "notice" and message["notice"]["kind"] == kind:
                return message
        raise TimeoutError(f"no {kind} notice")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()
        self.http.close()


def challenge(by: Person, to: Person, status: int = 201, **extra: Any) -> Any:
    """``by`` challenges ``to`` (a fake game of one card each, no clock by default)."""
    body = {"name": to.name, "game": "fake", "options": {"hand": 1}, **extra}
    return by.call("POST", "/api/challenges", status, **body)


def token_of(play_url: str) -> str:
    return play_url.split("token=", 1)[1]


def play_out(players: list[Client], until: Callable[[dict[str, Any]], bool] | None = None) -> None:
    """Each in turn plays its first legal move until the match is over (or ``until``
    holds): after each move every player waits for the update it made."""
    done = until or (lambda state: state["status"] == "finished")
    for client in players:
        client.hello()
    version = max(client.state["version"] for client in players if client.state is not None)
    for _ in range(200):  # a guard: the fake match is over in a few moves
        for client in players:
            client.wait_state(lambda s, v=version: s["version"] >= v)
        state = players[0].state
        assert state is not None
        if done(state):
            return
        mover = next(c for c in players if c.state is not None and c.state["legal_moves"])
        assert mover.state is not None
        answer = mover.move(mover.state["legal_moves"][0])
        assert answer["type"] == "ack", answer
        version = answer["move_version"]
    raise AssertionError("the match did not end")


def swiss_for(org: Person, players: list[Person]) -> str:
    """``org`` makes a one-round Candidate Swiss, ``players`` register and open their
    sockets, and ``org`` starts it; its id."""
    body = {
        "name": "Evening Swiss",
        "game": "candidate",
        "format": "swiss",
        "rounds": 1,
        "start_in": 3600,
        "checkin_seconds": 0,
    }
    tid = str(org.call("POST", "/api/tournaments", 201, **body)["id"])
    for player in players:
        player.call("POST", f"/api/tournaments/{tid}/register", 200)
        player.listen()
    org.call("POST", f"/api/tournaments/{tid}/start", 200)
    return tid
