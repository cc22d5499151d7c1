"""Correspondence games over real HTTP and WebSockets, on a simulated clock: each
player moves on another day, "your turn" follows the moves, the game survives a
restart, no bot ever stands in, and a mover whose days ran out loses on time."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import time
from pathlib import Path
from typing import Any

from community_helpers import Person, challenge, token_of
from server_helpers import (
    GUARD,
    ServerThread,
    StepClock,
    clients,
    fake_server_thread,
    fast_settings,
)

DAY = 86400.0


def start(db: Path, clock: StepClock) -> ServerThread:
    """A server of the fake games whose community runs on ``clock``."""
    server = fake_server_thread(db, fast_settings())
    server.app.state.community.clock = clock
    return server


def sweep(server: ServerThread) -> int:
    """Run one look for run-out deadlines on the server's own loop."""
    community = server.app.state.community
    done = asyncio.run_coroutine_threadsafe(community.correspondence.sweep(), community.loop)
    return int(done.result(timeout=60))


def games(person: Person) -> list[dict[str, Any]]:
    return list(person.call("GET", "/api/correspondence", 200))


def move_once(server: ServerThread, person: Person) -> None:
    """``person`` opens their correspondence game's page, makes one move and leaves."""
    (game,) = games(person)
    assert game["your_turn"] is True
    with clients(server.base, game["table"], [token_of(game["play_url"])]) as (seat,):
        seat.hello()
        assert seat.state is not None
        assert seat.move(seat.state["legal_moves"][0])["type"] == "ack"


def turn_passed(person: Person) -> None:
    """Wait until ``person``'s move has passed the turn (or ended the game): the game's
    row is written just after the move's answer."""
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while (left := games(person)) and left[0]["your_turn"]:
        assert time.monotonic() < deadline, "the turn never passed"


def test_each_moves_on_another_day_and_the_game_survives_a_restart(tmp_path: Path) -> None:
    clock = StepClock(1_800_000_000.0)
    server = start(tmp_path / "c.db", clock)
    tail = secrets.token_hex(3)
    ann, bob = Person(server.base, f"ann{tail}"), Person(server.base, f"bob{tail}")
    for person in (ann, bob):
        person.listen()
    made = challenge(ann, bob, clock={"days": 1}, options={"hand": 1})
    assert made["clock"] == {"days": 1}
    bob.call("POST", f"/api/challenges/{made['id']}/accept", 200)
    (first,) = games(ann)
    mover, other = (ann, bob) if first["your_turn"] else (bob, ann)
    told = mover.notice("your_turn")["notice"]["params"]
    assert told["table"] == first["table"]
    assert told["deadline"] == clock.now + DAY
    assert games(other)[0]["your_turn"] is False
    live = server.app.state.hub.tables[first["table"]]
    assert live.table.stand_ins is False

    clock.advance(0.6 * DAY)  # day 1: the first move
    move_once(server, mover)
    told = other.notice("your_turn")["notice"]["params"]
    assert told["deadline"] == clock.now + DAY
    assert games(mover)[0]["your_turn"] is False
    assert games(other)[0]["your_turn"] is True
    for person in (ann, bob):
        person.close()

    server.stop()  # the server restarts between the two days
    server = start(tmp_path / "c.db", clock)
    ann, bob = (Person(server.base, p.name, register=False) for p in (ann, bob))
    other = bob if other.name == bob.name else ann
    clock.advance(0.9 * DAY)  # day 2, within the day the first move gave
    assert sweep(server) == 0
    (game,) = games(other)
    assert game["your_turn"] is True
    move_once(server, other)
    table = ann.call("GET", f"/api/tables/{game['table']}", 200)
    assert table["status"] == "finished"
    assert all(seat["role"] == "human" for seat in table["seats"])
    assert games(ann) == games(bob) == []
    # Both moves were the players' own: no bot stood in for the one away for days.
    with sqlite3.connect(tmp_path / "c.db") as db:
        sources = db.execute(
            "SELECT source FROM moves WHERE table_id = ? ORDER BY version", (game["table"],)
        ).fetchall()
    assert sources == [("player",), ("player",)]
    for person in (ann, bob):
        person.close()
    server.stop()


def test_a_mover_whose_days_ran_out_loses_on_time(tmp_path: Path) -> None:
    clock = StepClock(1_800_000_000.0)
    server = start(tmp_path / "t.db", clock)
    tail = secrets.token_hex(3)
    ann, bob = Person(server.base, f"ann{tail}"), Person(server.base, f"bob{tail}")
    made = challenge(ann, bob, clock={"days": 2}, options={"hand": 1})
    accepted = bob.call("POST", f"/api/challenges/{made['id']}/accept", 200)
    (game,) = games(ann)
    loser = ann if game["your_turn"] else bob
    watcher_token = token_of(accepted["play_url"])
    with clients(server.base, accepted["table"], [watcher_token]) as (seat,):
        seat.hello()
        clock.advance(2 * DAY - 1)
        assert sweep(server) == 0  # a second left
        clock.advance(2)
        assert sweep(server) == 1
        ended = seat.wait_state(lambda s: s["status"] == "finished")
    result = ended["result"]
    assert result["ending"] == "timeout"
    lost = game["seat"] if loser is ann else 1 - game["seat"]
    assert result["ended_by"] == lost
    assert result["winners"] == [1 - lost]
    assert sweep(server) == 0  # ended once
    assert games(ann) == games(bob) == []
    for person in (ann, bob):
        person.close()
    server.stop()


def test_play_now_at_days_per_move_pairs_a_correspondence_game(tmp_path: Path) -> None:
    clock = StepClock(1_800_000_000.0)
    server = start(tmp_path / "s.db", clock)
    tail = secrets.token_hex(3)
    ann, bob = Person(server.base, f"ann{tail}"), Person(server.base, f"bob{tail}")
    assert ann.http.get("/api/seeks").status_code == 200  # the queues, made on first use
    seeks = server.app.state.seeks
    seeks.window, seeks.bots_after = 0.0, 0.0
    waiting = ann.call("POST", "/api/seeks", 201, game="fake", days=3)
    assert waiting["seek"]["days"] == 3
    ann.refused(
        "POST",
        f"/api/seeks/{waiting['seek']['id']}/bots",
        409,
        "seek_days_bots",
        secret=waiting["secret"],
    )
    # A live queue of the same game is another queue.
    live = bob.call("POST", "/api/seeks", 201, game="fake", name="x")
    assert live["status"] == "waiting"
    bob.call("POST", f"/api/seeks/{live['seek']['id']}/cancel", 204, secret=live["secret"])
    seated = bob.call("POST", "/api/seeks", 201, game="fake", days=3)
    assert seated["status"] == "seated"
    (game,) = games(bob)
    assert game["days"] == 3
    assert game["table"] == seated["seated"]["table"]["id"]
    assert token_of(game["play_url"]) == seated["seated"]["token"]
    assert games(ann)[0]["your_turn"] != game["your_turn"]
    assert server.app.state.hub.tables[game["table"]].table.stand_ins is False

    import httpx

    guest = httpx.post(f"{server.base}/api/seeks", json={"game": "fake", "name": "g", "days": 1})
    assert guest.status_code == 403
    assert guest.json()["detail"]["code"] == "seek_days_account"
    ann.refused("POST", "/api/seeks", 422, "days_realtime", game="fakerace", days=1)
    ann.refused(
        "POST",
        "/api/seeks",
        422,
        "seek_days_clock",
        game="fake",
        days=1,
        time_control={"initial": 60},
    )
    assert ann.http.post("/api/seeks", json={"game": "fake", "days": 4}).status_code == 422
    for person in (ann, bob):
        person.close()
    server.stop()


def test_a_player_has_several_correspondence_games_at_once(tmp_path: Path) -> None:
    clock = StepClock(1_800_000_000.0)
    server = start(tmp_path / "m.db", clock)
    tail = secrets.token_hex(3)
    ann, bob, cid = (Person(server.base, f"{p}{tail}") for p in ("ann", "bob", "cid"))
    for other, days in ((bob, 1), (cid, 7), (bob, 2)):  # two with Bob, one after the other
        made = challenge(ann, other, clock={"days": days}, options={"hand": 1})
        other.call("POST", f"/api/challenges/{made['id']}/accept", 200)
    mine = games(ann)
    assert sorted(g["days"] for g in mine) == [1, 2, 7]
    assert len({g["table"] for g in mine}) == 3
    waiting = [g for g in mine if g["your_turn"]]
    assert mine[: len(waiting)] == waiting  # those waiting for her first
    for game in mine:
        assert game["deadline"] == clock.now + game["days"] * DAY
    assert (len(games(bob)), len(games(cid))) == (2, 1)
    # Past one day and before two: only the one-day game is decided on time.
    clock.advance(1.5 * DAY)
    assert sweep(server) == 1
    deadline = time.monotonic() + GUARD  # the row is marked just after the game's end
    while len(left := games(ann)) == 3:
        assert time.monotonic() < deadline, "the game out of time stayed listed"
    assert sorted(g["days"] for g in left) == [2, 7]
    assert all(g["deadline"] > clock.now for g in left)
    for person in (ann, bob, cid):
        person.close()
    server.stop()
