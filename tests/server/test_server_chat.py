"""Table chat over real WebSockets: who said it, the two channels, the limits, storage."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from server_helpers import (
    Api,
    Client,
    ServerProcess,
    ServerThread,
    StepClock,
    clients,
    fake_server_thread,
    fast_settings,
)
from test_server_accounts import PASSWORD, WEB, fresh_name
from websockets.sync.client import connect

from cardtable.server.chat import BURST, KEEP, MAX_CHARS, SECONDS, ChatRoom, clean
from cardtable.server.core import Peer
from cardtable.server.protocol import SERVER_MESSAGE, ChatLine


@pytest.fixture(scope="module")
def chat_clock() -> StepClock:
    """The chat server's clock: a bucket fills when a test moves it, never because the
    machine was slow (or fast)."""
    return StepClock()


@pytest.fixture(scope="module")
def fake_server(
    tmp_path_factory: pytest.TempPathFactory, chat_clock: StepClock
) -> Iterator[ServerThread]:
    """The test games on a server whose tables' time is :func:`chat_clock`."""
    db = tmp_path_factory.mktemp("db") / "chat.db"
    server = fake_server_thread(db, fast_settings(), clock=chat_clock)
    yield server
    server.stop()


def say(client: Client, text: str, **extra: Any) -> dict[str, Any]:
    """Send a chat line; the server's answer to it (its own line back, or an error)."""
    client.drain(0.05)  # lines others said before
    client.send({"type": "chat", "text": text, **extra})
    return client.wait_for(lambda m: m["type"] in ("chat", "error"))


def heard(client: Client) -> list[dict[str, Any]]:
    """The chat lines ``client`` has received so far (after draining)."""
    client.drain(0.1)
    return [m["line"] for m in client.received if m["type"] == "chat"]


def test_the_server_stamps_who_said_it_and_keeps_the_channels_apart(api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 6})
    with clients(api.base, table_id, [*tokens, None, None]) as (ann, bob, eve, cy):
        for c in (ann, bob, eve, cy):
            c.hello()
        line = say(ann, "good luck")["line"]
        assert (line["channel"], line["seat"], line["name"], line["text"]) == (
            "players",
            0,
            "Ann",
            "good luck",
        )
        # A client cannot name itself: extra fields are refused, the name is the seat's.
        assert say(bob, "hi", name="Ann")["code"] == "bad_message"
        assert say(bob, "hi", seat=0)["code"] == "bad_message"
        # Another seat's token does not make the connection that seat.
        assert say(bob, "as Ann", token=tokens[0])["code"] == "bad_token"
        assert say(eve, "as Ann", token=tokens[0])["code"] == "bad_token"
        spoken = say(eve, "go Bob!")["line"]
        assert (spoken["channel"], spoken["seat"], spoken["name"]) == (
            "spectators",
            None,
            "spectator 1",
        )
        assert spoken["spectator"] == 1
        assert not spoken["signed_in"]
        assert say(cy, "agreed")["line"]["name"] == "spectator 2"
        assert say(eve, "again")["line"]["name"] == "spectator 1"  # the same connection
        # Everyone reads the players' chat; only spectators read the spectators'.
        for player in (ann, bob):
            assert [x["text"] for x in heard(player)] == ["good luck"]
        for spectator in (eve, cy):
            assert [x["text"] for x in heard(spectator)] == [
                "good luck",
                "go Bob!",
                "agreed",
                "again",
            ]
        # A welcome carries the chat its connection reads.
        with clients(api.base, table_id, [tokens[1], None]) as (bob2, dan):
            assert [x["text"] for x in bob2.hello()["chat"]] == ["good luck"]
            assert len(dan.hello()["chat"]) == 4


def test_a_line_is_length_limited_cleaned_and_kept_as_text(api: Api, chat_clock: StepClock) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 6})
    with clients(api.base, table_id, [tokens[0]]) as (ann,):
        ann.send({"type": "chat", "text": "too early"})
        assert ann.wait_for(lambda m: m["type"] == "error")["code"] == "no_hello"
        ann.hello()
        long = say(ann, "x" * (MAX_CHARS + 1))
        assert long["code"] == "chat_too_long"
        assert long["message_id"] == "server.chat_too_long"
        assert long["params"] == {"limit": MAX_CHARS, "length": MAX_CHARS + 1}
        assert say(ann, "x" * MAX_CHARS)["line"]["text"] == "x" * MAX_CHARS
        chat_clock.advance(SECONDS)  # one more line in the bucket
        assert say(ann, "\x00\x07 \u202e\x1b")["code"] == "chat_empty"
        chat_clock.advance(SECONDS)
        markup = '<script>alert("x")</script>\x00\u202e &amp;\nok'
        assert say(ann, markup)["line"]["text"] == '<script>alert("x")</script> &amp; ok'
        assert clean(markup) == '<script>alert("x")</script> &amp; ok'


def test_each_connection_is_rate_limited(api: Api, chat_clock: StepClock) -> None:
    """BURST lines at once, then one per SECONDS: the clock stands still while the lines
    go, so the last is refused however slowly they are sent."""
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 6})
    with clients(api.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        answers = [say(ann, f"line {i}") for i in range(BURST + 1)]
        assert [a["type"] for a in answers] == ["chat"] * BURST + ["error"]
        refused = answers[-1]
        assert refused["code"] == "chat_rate_limited"
        assert refused["message_id"] == "server.chat_rate_limited"
        assert refused["params"]["seconds"] >= 1
        # Another connection has its own bucket; the table and its moves go on.
        assert say(bob, "me too")["type"] == "chat"
        assert bob.state is not None
        if bob.state["to_move"] == 1:
            assert bob.move(bob.state["legal_moves"][0])["type"] == "ack"
        # The refused line reached nobody.
        assert "line 5" not in [x["text"] for x in heard(bob)]
        chat_clock.advance(SECONDS / 2)  # half a line in the bucket
        assert say(ann, "not yet")["code"] == "chat_rate_limited"
        chat_clock.advance(SECONDS / 2)
        assert say(ann, "after a pause")["type"] == "chat"


def test_a_signed_in_spectator_speaks_under_the_account_name(
    fake_server: ServerThread, api: Api
) -> None:
    name = fresh_name("Watcher")
    made = httpx.post(
        f"{fake_server.base}/api/account/register",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=WEB,
    )
    assert made.status_code == 201, made.text
    table_id, _tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 6})
    url = fake_server.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    headers = {"Authorization": f"Bearer {made.json()['token']}"}
    with connect(url, additional_headers=headers, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "chat", "text": "hello all"}))
        answer = json.loads(ws.recv(timeout=10))
        SERVER_MESSAGE.validate_python(answer)
        assert answer["line"]["name"] == name
        assert answer["line"]["signed_in"] is True
        assert answer["line"]["spectator"] is None


def test_chat_is_stored_with_the_game_and_comes_back_after_a_restart(db_url: str) -> None:
    server = ServerProcess(db_url).start()
    try:
        api = Api(server.base)
        table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 6})
        with clients(server.base, table_id, [*tokens, None]) as (ann, bob, eve):
            for c in (ann, bob, eve):
                c.hello()
            say(ann, "<b>hi</b> Bob")
            say(eve, "from the rail")
            say(bob, "hi Ann")
        server.kill()
        server.start()
        with clients(server.base, table_id, [tokens[0], None]) as (ann, eve):
            players = ann.hello()["chat"]
            assert [(x["name"], x["text"]) for x in players] == [
                ("Ann", "<b>hi</b> Bob"),
                ("Bob", "hi Ann"),
            ]
            everything = eve.hello()["chat"]
            assert [x["text"] for x in everything] == ["<b>hi</b> Bob", "from the rail", "hi Ann"]
            assert [x["number"] for x in everything] == [1, 2, 3]
            # Numbering goes on after the stored lines.
            assert say(ann, "still here")["line"]["number"] == 4
    finally:
        server.stop()


def test_the_room_keeps_what_a_welcome_carries_and_numbers_spectators_after_the_stored() -> None:
    table: Any = SimpleNamespace(version=1, seats=[])
    room = ChatRoom()
    stored = say_as_spectators(ChatRoom(), table, 3)
    room.load(stored)
    peer = Peer(greeted=True)
    line = room.post(peer, table, "after the restart", now=0.0)
    assert isinstance(line, ChatLine)
    assert line.name == "spectator 4"  # not a second "spectator 1"
    assert line.number == 4
    # A connection's bucket: BURST lines at once, then one every SECONDS.
    answers = [room.post(peer, table, "x", now=0.0) for _ in range(BURST)]
    assert [isinstance(a, ChatLine) for a in answers] == [True] * (BURST - 1) + [False]
    assert isinstance(room.post(peer, table, "x", now=SECONDS), ChatLine)
    # However long the table talks, memory holds what a welcome carries.
    for n in range(10 * KEEP):
        assert isinstance(room.post(Peer(greeted=True), table, f"line {n}", now=0.0), ChatLine)
    assert len(room.lines) <= 4 * KEEP
    assert len(room.history(None)) == KEEP
    assert room.history(None)[-1].text == f"line {10 * KEEP - 1}"
    assert room.history(0) == []  # a seat does not read the spectators' chat


def say_as_spectators(room: ChatRoom, table: Any, count: int) -> list[ChatLine]:
    """``count`` lines, each from another anonymous spectator."""
    lines = []
    for n in range(count):
        line = room.post(Peer(greeted=True), table, f"line {n}", now=0.0)
        assert isinstance(line, ChatLine)
        lines.append(line)
    return lines
