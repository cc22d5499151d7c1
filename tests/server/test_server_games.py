"""The real games on the server: a Candidate deal, a Spy race against a bot, no leaks."""

from __future__ import annotations

import os
import random
import signal
import time
from typing import Any

import pytest
from server_helpers import GUARD, Api, Client, ServerThread, clients
from test_server_leak import check_no_leak

from cardtable.cards import KIND_TEXT
from cardtable.games.candidate.match import CandidateMatch
from cardtable.games.spy.match import SpyMatch
from cardtable.record import replay

SPY_ORDER = ("call", "place points", "place waste", "open points", "turn")


def candidate_hidden(match: CandidateMatch, seat: int | None) -> set[str]:
    """Face-down cards: the other hand(s) and every pile (one deck: texts are unique)."""
    state = match.state
    hidden = {KIND_TEXT[k] for p in (0, 1) if p != seat for k in state.hand(p)}
    hidden |= {KIND_TEXT[k] for suit in range(4) for k in state.pile(suit)}
    return hidden


def spy_hidden(match: SpyMatch, seat: int | None) -> set[str]:
    """S4-S5: racing decks and points piles under the top, hidden from everyone."""
    state = match.state
    if state.round_over:
        return set()
    hidden: set[str] = set()
    for player in range(state.num_players):
        position = state.position(player)
        hidden |= {KIND_TEXT[k] for k in position.deck}
        hidden |= {KIND_TEXT[k] for k in position.points[:-1]}
    return hidden


def spy_choice(legal: list[str]) -> str:
    for prefix in SPY_ORDER:
        for move in legal:
            if move.split(" ", 1)[1].startswith(prefix):
                return move
    return legal[-1]


#: What a race refuses a move for that came after another player ended the round.
RACE_LATE = ("finished", "paused", "counting")


def play_out(players: list[Client], watcher: Client, rng: random.Random, race: bool) -> int:
    """Random (Candidate) or greedy (Spy) moves by every client until the match ends."""
    moves = 0
    for _ in range(5000):
        for c in [*players, watcher]:
            c.drain(0.002)
        state = watcher.state
        assert state is not None
        if state["status"] == "finished":
            return moves
        movers = [c for c in players if c.state and c.state["legal_moves"]]
        if not movers:
            continue
        mover = rng.choice(movers)
        assert mover.state is not None
        legal = mover.state["legal_moves"]
        move = spy_choice(legal) if race else rng.choice(legal)
        answer = mover.move(move)
        if race and answer["type"] == "error":
            # The bot called first and the round (here the match) ended between the
            # state the player read and its move: too late, never illegal.
            assert answer["code"] in RACE_LATE, answer
            continue
        assert answer["type"] in ("ack", "resync"), answer
        moves += answer["type"] == "ack"
    raise AssertionError("the match did not finish")


def test_full_candidate_deal_between_two_clients(real_server: ServerThread) -> None:
    api = Api(real_server.base)
    table_id, tokens = api.seat_players("candidate", ["Ann", "Bob"], options={"deals": 1})
    with clients(real_server.base, table_id, [*tokens, None]) as (ann, bob, eve):
        for c in (ann, bob, eve):
            c.hello()
        moves = play_out([ann, bob], eve, random.Random(3), race=False)
        assert moves > 10
    record = api.http.get(f"/api/tables/{table_id}/record").json()
    summary = replay(record).summary()
    assert summary["complete"] is True
    assert summary["totals"] == eve.state["result"]["totals"]  # type: ignore[index]
    assert sum(len(d["moves"]) for d in record["deals"]) == moves


def test_spy_race_against_a_bot(real_server: ServerThread) -> None:
    api = Api(real_server.base)
    table_id, tokens = api.seat_players(
        "spy", ["Ann"], bots=["easy"], options={"rounds": 1, "full_decks": True}
    )
    with clients(real_server.base, table_id, [*tokens, None]) as (ann, eve):
        ann.hello()
        eve.hello()
        # The bot is off as soon as the table starts; Ann sets off once she sees it move.
        eve.wait_for(lambda m: m["type"] == "update" and m["event"].get("seat") == 1)
        play_out([ann], eve, random.Random(4), race=True)
        bot_moves = [
            m
            for m in eve.received
            if m["type"] == "update" and m["event"]["type"] == "move" and m["event"]["seat"] == 1
        ]
        assert bot_moves, "the bot raced"
        assert all(m["event"]["source"] == "bot" for m in bot_moves)
        # Ann saw the bot's public progress live: its move counter in her views grew.
        counts = [
            m["state"]["view"]["seats"][1]["moves"]
            for m in ann.received
            if m["type"] == "update" and m["state"]["view"]["seats"]
        ]
        assert max(counts) > 0
    record = api.http.get(f"/api/tables/{table_id}/record").json()
    assert replay(record).summary()["complete"] is True


def test_candidate_against_a_searching_bot(real_server: ServerThread) -> None:
    api = Api(real_server.base)
    table_id, tokens = api.seat_players("candidate", ["Ann"], bots=["medium"], options={"deals": 1})
    with clients(real_server.base, table_id, [*tokens, None]) as (ann, eve):
        ann.hello()
        eve.hello()
        play_out([ann], eve, random.Random(5), race=False)
        assert eve.state is not None
        assert eve.state["seats"][1]["name"] == "Bot (medium)"
    record = api.http.get(f"/api/tables/{table_id}/record").json()
    assert replay(record).summary()["complete"] is True
    board = api.http.get("/api/ratings", params={"game": "candidate"}).json()["entries"]
    assert "Ann" not in {e["name"] for e in board}  # a guest's game is unrated


@pytest.mark.parametrize(
    ("game", "options", "hidden"),
    [
        ("candidate", {"deals": 1, "decks": 1}, candidate_hidden),
        ("spy", {"rounds": 2}, spy_hidden),
    ],
)
def test_no_message_of_a_real_game_holds_a_hidden_card(
    real_server: ServerThread, game: str, options: dict[str, Any], hidden: Any
) -> None:
    api = Api(real_server.base)
    hub = real_server.app.state.hub
    rng = random.Random(11)
    checked = 0
    for _ in range(3):
        table_id, tokens = api.seat_players(game, ["A", "B"], options=options)
        with clients(real_server.base, table_id, [*tokens, None]) as conns:
            for c in conns:
                c.hello()
            play_out(conns[:2], conns[2], rng, race=game == "spy")
            for c in conns:
                c.drain(0.02)
        table = hub.tables[table_id].table
        for seat, c in enumerate(conns):
            checked += check_no_leak(table, c, seat if seat < 2 else None, hidden)
    assert checked > 3 * 3 * 10


def test_a_killed_bot_worker_is_replaced_and_the_game_goes_on(real_server: ServerThread) -> None:
    api = Api(real_server.base)
    hub = real_server.app.state.hub
    table_id, tokens = api.seat_players("candidate", ["Ann"], bots=["easy"], options={"deals": 1})
    with clients(real_server.base, table_id, [*tokens, None]) as (ann, eve):
        ann.hello()
        eve.hello()

        def bot_moved() -> bool:
            return any(
                m["type"] == "update" and m["event"].get("source") == "bot" for m in eve.received
            )

        for _ in range(200):  # Ann plays until the bot has made a move
            ann.drain(0.02)
            eve.drain(0.02)
            if bot_moved():
                break
            if ann.state and ann.state["legal_moves"]:
                ann.move(ann.state["legal_moves"][0])
        assert bot_moved()
        workers = list(getattr(hub.bots.executor, "_processes", {}) or {})
        assert workers, "the bots think in worker processes"
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        play_out([ann], eve, random.Random(6), race=False)
        assert eve.state is not None
        assert eve.state["status"] == "finished"
    assert set(getattr(hub.bots.executor, "_processes", {}) or {}).isdisjoint(workers)


def test_a_stand_in_takes_over_a_spy_seat_whose_person_turned_the_deck_round(
    real_server: ServerThread,
) -> None:
    """A bot takes the seat at any moment from what the seat knows then (match.bot_info),
    here after its person went through the racing deck three times (S9) and left."""
    api = Api(real_server.base)
    table_id, tokens = api.seat_players(
        "spy", ["Ann", "Bob"], options={"rounds": 1}, seed=8, rated=False
    )
    with clients(real_server.base, table_id, tokens) as (ann, bob):
        ann.hello()
        bob.hello()
        assert ann.state is not None
        for _ in range(60):
            assert ann.move("turn")["type"] == "ack"
        ann.close()  # gone: after the grace period a bot plays her seat

        def stand_in_moves() -> int:
            return sum(
                1
                for m in bob.received
                if m["type"] == "update"
                and m["event"]["type"] == "move"
                and m["event"]["seat"] == 0
                and m["event"]["source"] == "substitute"
            )

        bob.wait_for(lambda m: m["type"] == "update" and m["state"]["seats"][0]["substituted"])
        deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
        while stand_in_moves() < 5 and time.monotonic() < deadline:
            bob.drain(0.05)
            if bob.state and bob.state["status"] == "finished":
                break
        assert stand_in_moves() >= 5 or bob.state["status"] == "finished"  # type: ignore[index]
    assert not [e for e in real_server.app.state.hub.bot_errors if table_id in e]
