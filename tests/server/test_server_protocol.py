"""The WebSocket protocol: stale and repeated moves, reconnects, hostile input, a fuzz."""

from __future__ import annotations

import contextlib
import json
import time

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Api, Client, ServerThread, clients
from websockets.exceptions import ConnectionClosed


def test_stale_move_gets_a_resync_and_is_not_applied(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        ann.drain()
        assert ann.state is not None
        old = ann.state["version"]
        assert ann.move(ann.state["legal_moves"][0])["type"] == "ack"
        bob.drain()
        assert bob.state is not None
        assert ann.move(
            ann.state["legal_moves"][0] if ann.state["legal_moves"] else "play 2S", version=old
        )["type"] in ("resync", "error")
        answer = bob.move(bob.state["legal_moves"][0], version=old)
        assert answer["type"] == "resync"
        assert answer["state"]["version"] == old + 1
        assert answer["state"]["to_move"] == 1  # still Bob's turn: nothing was applied


def test_repeated_move_id_gets_the_same_ack_and_is_applied_once(
    fake_server: ServerThread, api: Api
) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        ann.drain()
        assert ann.state is not None
        move, version = ann.state["legal_moves"][0], ann.state["version"]
        first = ann.move(move, version=version, move_id="same")
        second = ann.move(move, version=version, move_id="same")
        assert first["type"] == second["type"] == "ack"
        assert first["move_version"] == second["move_version"] == version + 1
        bob.drain()
        assert bob.state is not None
        assert bob.state["version"] == version + 1
        assert sum(bob.state["view"]["counts"]) == 5


def test_reconnect_resyncs_and_the_game_goes_on(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        assert ann.state is not None
        ann.move(ann.state["legal_moves"][0])
        hand_before = ann.state["view"]["hand"]
        ann.close()
        again = Client(fake_server.base, table_id, tokens[0])
        try:
            welcome = again.hello()
            assert welcome["state"]["view"]["hand"] == hand_before
            again.send({"type": "sync", "token": tokens[0]})
            resync = again.wait_for(lambda m: m["type"] == "resync")
            assert resync["state"]["version"] >= welcome["state"]["version"]
            assert resync["state"]["view"]["hand"] == hand_before
            bob.drain()
            assert bob.state is not None
            assert bob.move(bob.state["legal_moves"][0])["type"] == "ack"
            again.drain()
            assert again.state is not None
            assert again.state["to_move"] == 0
        finally:
            again.close()


def test_token_is_checked_on_every_message(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, [tokens[0], None]) as (ann, eve):
        assert ann.hello()["type"] == "welcome"
        spectator = eve.hello()
        assert spectator["seat"] is None
        assert spectator["state"]["view"]["hand"] is None
        assert ann.state is not None
        ann.token = tokens[1]  # Bob's token on Ann's connection
        answer = ann.move(ann.state["legal_moves"][0])
        assert answer["type"] == "error"
        assert answer["code"] == "bad_token"
        eve.token = "x" * 20
        eve.state = ann.state
        assert eve.move("play 2S")["code"] == "bad_token"
        bad = Client(fake_server.base, table_id, "not-a-real-token")
        try:
            assert bad.hello()["code"] == "bad_token"
        finally:
            bad.close()


def test_bad_messages_get_clear_errors(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, [tokens[0]]) as (ann,):
        for text, code in [
            ("not json", "bad_message"),
            ('{"type": "move"}', "bad_message"),
            ('{"type": "launch"}', "bad_message"),
            ("[1, 2]", "bad_message"),
            ('{"type": "sync"}', "no_hello"),
            (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
        ]:
            ann.send(text)
            reply = ann.wait_for(lambda m: m["type"] == "error")
            assert reply["code"] == code, (text, reply)
            assert reply["message"]
        ann.ws.send(b"\x00\x01")
        assert ann.wait_for(lambda m: m["type"] == "error")["code"] == "bad_message"
        assert ann.hello()["type"] == "welcome"  # the connection still works


def read_all(client: Client, quiet: float) -> tuple[list[str | None], bool]:
    """Error codes received until ``quiet`` seconds pass, and whether the server closed."""
    codes: list[str | None] = []
    try:
        while True:
            codes.append(client.recv(timeout=quiet).get("code"))
    except TimeoutError:
        return codes, False
    except ConnectionClosed:
        return codes, True


def test_rate_limit_per_connection_does_not_disturb_others(
    fake_server: ServerThread, api: Api
) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, tokens) as (ann, bob):
        bob.hello()
        for _ in range(150):  # fewer than the send queue holds: Ann reads afterwards
            ann.send({"type": "ping"})
        # The burst is answered with pongs; over the rate the pings are dropped and Ann
        # is told once (not once per ping, which would only feed a flood).
        ann.drain(0.5)
        codes = [m.get("code") for m in ann.received]
        assert codes.count("rate_limited") == 1
        assert codes.count(None) >= 40  # the burst was served
        assert len(codes) < 150
        bob.send({"type": "ping"})
        assert bob.wait_for(lambda m: m["type"] == "pong")["version"] >= 0


def test_a_flood_closes_only_the_flooding_connection(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, tokens) as (ann, bob):
        bob.hello()
        with contextlib.suppress(ConnectionClosed):
            for _ in range(2000):
                ann.send({"type": "ping"})
                time.sleep(0)
        _codes, closed = read_all(ann, quiet=2)
        assert closed
        bob.send({"type": "ping"})
        assert bob.wait_for(lambda m: m["type"] == "pong")
        assert httpx.get(fake_server.base + "/api/health").status_code == 200


def test_unknown_table_is_an_error_then_a_close(fake_server: ServerThread) -> None:
    client = Client(fake_server.base, "no-such-table")
    try:
        message = client.recv()
        assert message["type"] == "error"
        assert message["code"] == "no_table"
        with pytest.raises(ConnectionClosed):
            client.recv(timeout=5)
    finally:
        client.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
messages = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["hello", "move", "sync", "ping", "welcome", "ack"])},
        optional={
            "token": json_values,
            "version": json_values,
            "move_id": json_values,
            "move": st.text(max_size=70) | json_values,
        },
    ).map(json.dumps),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batch=st.lists(messages, min_size=1, max_size=5))
def test_fuzzed_messages_get_only_error_replies(
    fake_server: ServerThread, api: Api, batch: list[str]
) -> None:
    """Hypothesis fuzz: anything a client sends gets a reply or an error, never a crash."""
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"])
    with clients(fake_server.base, table_id, [tokens[0]]) as (ann,):
        for text in batch:
            ann.send(text)
        ann.send({"type": "ping"})
        ann.wait_for(lambda m: m["type"] == "pong")  # replies come in order: all are in
        for message in ann.received:
            assert message["type"] in ("error", "welcome", "pong", "resync", "update", "ack")
            if message["type"] == "error":
                assert message["code"] != "internal"
    assert httpx.get(fake_server.base + "/api/health").status_code == 200
