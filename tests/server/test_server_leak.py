"""Leak property: no socket ever receives a card hidden from its recipient.

Random games are played by real clients (every seat and a spectator); afterwards each
message is checked against the engine's hidden cards at the version it carries, found by
replaying the table's moves up to that version.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from server_helpers import Api, Client, ServerThread, clients

from cardtable.table import Table


def strings(value: Any) -> set[str]:
    """Every string anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def check_no_leak(table: Table, client: Client, seat: int | None, hidden: Any) -> int:
    """Replay ``table`` alongside ``client``'s messages; return how many were checked."""
    match = table.game.new_match(
        seed=table.seed, players=[s.name or "" for s in table.seats], options=table.options
    )
    moves = iter(table.moves)
    pending = next(moves, None)
    checked = 0
    for message in sorted(client.received, key=lambda m: m["version"] or 0):
        version = message["version"] or 0
        while pending is not None and pending.version <= version:
            match.apply(pending.seat, pending.move)
            pending = next(moves, None)
        secret = hidden(match, seat)
        leaked = strings(message) & secret
        assert not leaked, f"seat {seat} received hidden {leaked} in {message['type']}"
        checked += 1
    return checked


def fake_hidden(match: Any, seat: int | None) -> set[str]:
    return match.hidden_from(seat)  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", ["fake", "fakerace"])
def test_no_message_ever_holds_a_hidden_card(
    fake_server: ServerThread, api: Api, game: str
) -> None:
    hub = fake_server.app.state.hub
    rng = random.Random(7)
    total = 0
    for _ in range(12):
        table_id, tokens = api.seat_players(game, ["A", "B", "C"], options={"hand": 5})
        with clients(fake_server.base, table_id, [*tokens, None]) as conns:
            for c in conns:
                c.hello()
            players = conns[:3]
            while True:
                for c in conns:
                    c.drain(0.005)
                state = conns[3].state
                assert state is not None
                if state["status"] == "finished":
                    break
                movers = [c for c in players if c.state and c.state["legal_moves"]]
                if not movers:
                    continue
                mover = rng.choice(movers)
                assert mover.state is not None
                mover.move(rng.choice(mover.state["legal_moves"]))
            for c in conns:
                c.drain(0.02)
        table = hub.tables[table_id].table
        for seat, c in enumerate(conns):
            total += check_no_leak(table, c, seat if seat < 3 else None, fake_hidden)
    assert total > 12 * 4 * 15  # every client saw every move
