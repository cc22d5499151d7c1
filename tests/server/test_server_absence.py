"""Clocks, absent players and bots: a game never stalls."""

from __future__ import annotations

import time

import pytest
from server_helpers import GUARD, Api, Client, ServerThread, clients


def moves_by(client: Client, source: str) -> list[dict[str, object]]:
    return [
        m["event"]
        for m in client.received
        if m["type"] == "update" and m["event"]["type"] == "move" and m["event"]["source"] == source
    ]


def test_when_time_runs_out_a_bot_moves_for_the_player(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players(
        "fake", ["Ann", "Bob"], time_control={"initial": 0.3, "increment": 0}
    )
    with clients(fake_server.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        # Nobody moves: Ann's clock runs out, a bot plays for her, then Bob's runs out...
        bob.wait_for(
            lambda m: (
                m["type"] == "update"
                and m["event"].get("source") == "clock"
                and m["event"]["seat"] == 0
            ),
        )
        bob.wait_for(
            lambda m: (
                m["type"] == "update"
                and m["event"].get("source") == "clock"
                and m["event"]["seat"] == 1
            ),
        )
        assert bob.state is not None
        assert bob.state["clocks"] is not None
        assert all(0 <= c <= 1.0 for c in bob.state["clocks"])
        # Ann moves herself in time after all: accepted, and her clock gets no bot move.
        ann.drain()
        assert ann.state is not None
        if ann.state["legal_moves"]:
            assert ann.move(ann.state["legal_moves"][0])["type"] == "ack"


def test_absent_player_is_replaced_by_a_bot_and_takes_the_seat_back(
    fake_server: ServerThread, api: Api
) -> None:
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 4})
    with clients(fake_server.base, table_id, [tokens[1]]) as (bob,):
        bob.hello()
        # Ann never connects: after the grace period (0.5 s here) a bot sits in for her.
        seat_event = bob.wait_for(
            lambda m: m["type"] == "update" and m["state"]["seats"][0]["substituted"]
        )
        assert seat_event["event"]["type"] == "seat"
        bob.wait_for(lambda m: m["type"] == "update" and m["event"].get("source") == "substitute")
        assert bob.state is not None
        assert bob.state["to_move"] == 1
        assert bob.move(bob.state["legal_moves"][0])["type"] == "ack"
        bob.wait_for(lambda m: m["type"] == "update" and m["event"].get("source") == "substitute")
        # Ann comes back: the seat is hers again and the bot stops.
        ann = Client(fake_server.base, table_id, tokens[0])
        try:
            welcome = ann.hello()
            assert welcome["seat"] == 0
            bob.wait_for(
                lambda m: m["type"] == "update" and not m["state"]["seats"][0]["substituted"],
            )
            assert bob.state is not None
            assert bob.move(bob.state["legal_moves"][0])["type"] == "ack"
            ann.drain(0.3)
            assert ann.state is not None
            assert ann.state["to_move"] == 0  # the bot left Ann's move to her
            assert ann.move(ann.state["legal_moves"][0])["type"] == "ack"
            assert len(moves_by(bob, "substitute")) == 2
        finally:
            ann.close()


def test_race_against_a_bot_shows_its_progress_live(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens = api.seat_players("fakerace", ["Ann"], bots=["hard"], options={"hand": 5})
    with clients(fake_server.base, table_id, tokens) as (ann,):
        ann.hello()
        assert ann.state is not None
        assert ann.state["to_move"] == "anyone"
        # Ann races: her moves never go stale because of the bot's.
        version = ann.state["version"]
        for move in list(ann.state["legal_moves"]):
            answer = ann.move(move, version=version)
            assert answer["type"] == "ack", answer
            version = answer["move_version"]
        ann.wait_state(lambda s: s["status"] == "finished")
        # Ann saw the bot's moves live, one update per move (it may have made some before
        # her hello): the bot's played cards grow by one with each.
        seen = [
            len(m["state"]["view"]["played"][1])
            for m in ann.received
            if m["type"] == "update" and m["event"]["type"] == "move" and m["event"]["seat"] == 1
        ]
        assert seen, "no bot move reached Ann"
        assert seen == list(range(seen[0], 6))
        assert len(moves_by(ann, "bot")) == len(seen)


def mine(errors: list[str], table_id: str) -> list[str]:
    """The errors of one table (other tests' tables may still have stand-ins)."""
    return [e for e in errors if f"table {table_id} " in e]


class BrokenBot:
    """A bot with a bug: it raises instead of choosing."""

    def think(self, info: object) -> int:
        raise RuntimeError("the bot has a bug")


def test_a_failing_bot_is_logged_and_no_move_is_invented_for_it(
    fake_server: ServerThread, api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    hub = fake_server.app.state.hub
    before = len(hub.bot_errors)
    working = hub.bots.make
    hub.bots.make = lambda game, level, seed, seat: BrokenBot()
    try:
        table_id, tokens = api.seat_players("fake", ["Ann"], bots=["easy"])
        with clients(fake_server.base, table_id, tokens) as (ann,), caplog.at_level("ERROR"):
            ann.hello()
            assert ann.state is not None
            assert ann.move(ann.state["legal_moves"][0])["type"] == "ack"  # now the bot's turn
            deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
            while not mine(hub.bot_errors[before:], table_id) and time.monotonic() < deadline:
                time.sleep(0.02)
            (error,) = mine(hub.bot_errors[before:], table_id)
            assert "the bot has a bug" in error
            ann.drain(0.5)
            # No move was made for the bot, and it is not asked again and again at the
            # same position: the error is a bug to fix, not something to retry.
            assert len(mine(hub.bot_errors[before:], table_id)) == 1
            assert moves_by(ann, "bot") == []
            assert ann.state["to_move"] == 1
            failures = [r for r in caplog.records if "failed" in r.getMessage()]
            assert failures
            assert failures[0].exc_info is not None  # logged with its traceback
    finally:
        hub.bots.make = working
        del hub.bot_errors[before:]  # errors of the broken bot are expected here
