"""A ban on one process ends the account's sessions and connections on another (real
``cardtable serve --redis`` processes on one PostgreSQL database and one Redis)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_cluster import REDIS_URL, Node, fresh_database, services_missing
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardtable.server.moderation.admin import set_role
from cardtable.server.runtime import BANNED

MISSING = services_missing()
pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.xdist_group("server_processes"),
]

WEB = {"X-Cardtable-Client": "test"}
PASSWORD = "correct horse battery"
GUARD = 120.0  # seconds: a guard against a hang, not a speed goal


@pytest.fixture
def nodes() -> Iterator[list[Node]]:
    with fresh_database() as db:
        prefix = f"m{uuid.uuid4().hex[:10]}:"
        first = Node(db, prefix, "a").start()  # migrates the fresh database
        second = Node(db, prefix, "b").start()
        try:
            yield [first, second]
        finally:
            for node in (first, second):
                node.stop()
                node.remove_logs()


def bearer(base: str, name: str, register: bool) -> dict[str, str]:
    route = "register" if register else "login"
    made = httpx.post(
        f"{base}/api/account/{route}",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=WEB,
    )
    assert made.status_code in (200, 201), made.text
    return {**WEB, "Authorization": f"Bearer {made.json()['token']}"}


def drain(socket: Any) -> None:
    """Read the socket until it closes (then the library raises ConnectionClosed)."""
    while True:
        socket.recv(timeout=GUARD)


def test_a_ban_on_one_process_ends_sessions_and_sockets_on_another(nodes: list[Node]) -> None:
    a, b = nodes
    assert REDIS_URL
    eve = f"Eve{uuid.uuid4().hex[:6]}"
    mod = f"Mod{uuid.uuid4().hex[:6]}"
    eve_on_b = bearer(b.base, eve, register=True)
    mod_on_b = bearer(b.base, mod, register=True)
    assert set_role(b.db, mod, True) == mod
    # Eve watches, signed in, a table process a made and owns, through process b (which
    # relays her socket to a); the moderator bans her on b: a hears of it and closes her
    # connection there, and b's relay ends with it.
    made = httpx.post(
        f"{a.base}/api/tables",
        json={"game": "candidate", "seats": [{"type": "open"}, {"type": "bot", "level": "easy"}]},
    ).json()
    url = b.base.replace("http", "ws", 1) + f"/ws/tables/{made['table']['id']}"
    with connect(url, additional_headers=eve_on_b, open_timeout=GUARD) as socket:
        socket.send(json.dumps({"type": "hello"}))
        welcome = json.loads(socket.recv(timeout=GUARD))
        assert welcome["type"] == "welcome"
        socket.send(json.dumps({"type": "chat", "text": "hi from b"}))
        said = json.loads(socket.recv(timeout=GUARD))
        assert said["line"]["name"] == eve
        banned = httpx.post(
            f"{b.base}/api/moderation/actions",
            json={"name": eve, "action": "ban", "reason": "abuse"},
            headers=mod_on_b,
        )
        assert banned.status_code == 200, banned.text
        with pytest.raises(ConnectionClosed) as closed:
            drain(socket)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == BANNED
    for node in (a, b):
        assert httpx.get(f"{node.base}/api/account", headers=eve_on_b).status_code == 401
    refused = httpx.post(
        f"{b.base}/api/account/login", json={"name": eve, "password": PASSWORD}, headers=WEB
    )
    assert refused.json()["detail"]["code"] == "account_banned"
