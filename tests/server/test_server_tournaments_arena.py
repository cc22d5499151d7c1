"""The arena's life, driven by a fake clock on the real hub and storage (SQLite and
PostgreSQL): players paired again as soon as they are free, waves that overlap, a
withdrawal mid-arena, an absent player paused out, the end time that stops new games
while a game in play still counts, a Spy arena's gathering window, a bot for a player
left alone, and standings equal to a recomputation from the stored results."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import test_server_tournaments as tournaments
from server_helpers import fast_settings
from test_server_games import spy_choice
from test_server_tournaments import (
    ORGANISER,
    START,
    FakeClock,
    account,
    claim_all,
)

from cardtable.server.runtime import Hub, HubError
from cardtable.server.tournaments import Tournaments, commands, views
from cardtable.server.tournaments.arena import GATHER_SECONDS
from cardtable.server.tournaments.store import Snapshot
from cardtable.table import Source, Status
from cardtable.tournament import TournamentSpec
from cardtable.tournament.standings import ARENA_DRAW, ARENA_WIN, seat_ranks, standings

CANDIDATE = TournamentSpec(game="candidate", format="arena", minutes=10, options={"deals": 1})
SPY = TournamentSpec(game="spy", format="arena", minutes=10, table_size=3, options={"rounds": 1})
BEGIN = START + 3600
END = BEGIN + 600


def run(db_url: str, body: Callable[[Hub, Tournaments, FakeClock], Awaitable[None]]) -> None:
    """Run ``body`` with a hub and a director the test steps. The players' seats are
    claimed but nobody connects, so the grace before a stand-in bot plays for an absent
    player is longer than any test: only the test's moves change the tables."""
    tournaments.run(db_url, body, dataclasses.replace(fast_settings(), grace_seconds=3600.0))


async def new_arena(service: Tournaments, spec: TournamentSpec, **settings: Any) -> str:
    chosen = {"checkin_seconds": 0, "forfeit_seconds": 60, "late_join": True, **settings}
    tournament_id, _ = await commands.create(
        service,
        ORGANISER,
        name="Arena",
        spec=spec,
        settings=chosen,
        starts_at=BEGIN,
        invite=False,
    )
    await tournaments.undirect(service)  # the test steps it by hand
    return tournament_id


async def play_to_end(hub: Hub, table_id: str, race: bool = False) -> None:
    """Play a table to its end, each seat in turn (Spy: a greedy move). A move the
    table has made stale meanwhile (a race ended by its pacing) is refused, and the
    next look plays on from the new state."""
    live = hub.tables[table_id]
    for _ in range(100_000):  # a guard against a hang
        if live.table.status is not Status.PLAYING:
            break
        for seat in range(len(live.table.seats)):
            moves = live.table.legal_moves(seat)
            if moves and live.table.status is Status.PLAYING:
                move = spy_choice(moves) if race else moves[0]
                answer = await hub.submit(
                    live, seat, move, version=None, move_id=None, source=Source.PLAYER
                )
                assert answer.outcome in ("accepted", "refused"), answer
    assert live.table.status is Status.FINISHED


def playing(snap: Snapshot) -> list[dict[str, Any]]:
    return [g for g in snap.games if g["status"] == "playing"]


def busy(snap: Snapshot) -> list[str]:
    """Everyone at a table now (nobody twice: a player plays one game at a time)."""
    return [p for g in playing(snap) for p in g["seats"]]


def arena_points(snap: Snapshot, higher: bool) -> dict[str, float]:
    """Arena points recomputed here from the stored games, in each player's order of
    games: win 2, draw 1, doubled after two wins in a row; a forfeit is a loss."""
    points = {p["player"]: 0.0 for p in snap.players}
    streak = dict.fromkeys(points, 0)
    finished = [g for g in snap.games if g["totals"] is not None]
    for game in sorted(finished, key=lambda g: (g["round"], g["table_no"])):
        totals = [float(t) for t in game["totals"]]
        present = [
            (t if higher else -t)
            for p, t in zip(game["seats"], totals, strict=True)
            if p not in game["forfeited"]
        ]
        best = max(present) if present else None
        for player, total in zip(game["seats"], totals, strict=True):
            mine = total if higher else -total
            if player in game["forfeited"] or mine != best:
                streak[player] = 0
                continue
            won = present.count(best) == 1
            base = ARENA_WIN if won else ARENA_DRAW
            points[player] += 2 * base if streak[player] >= 2 else base
            streak[player] = streak[player] + 1 if won else 0
    return points


def check_standings(snap: Snapshot, higher: bool) -> None:
    """The page's standings are the module's standings of the stored results, and
    their points those recomputed here."""
    shown = views.detail(snap, END)["standings"]
    entrants = [p for p in snap.entrants() if p.left is None or p.left >= p.joined]
    again = standings(snap.spec, entrants, snap.results(), snap.plans())
    assert shown == [s.to_dict() for s in again]
    expected = arena_points(snap, higher)
    assert {s["player"]: s["points"] for s in shown} == {
        s["player"]: expected[s["player"]] for s in shown
    }
    assert sum(s["points"] for s in shown) > 0
    for game in snap.results():
        assert seat_ranks(game, higher)  # every stored result is a ranked table


def test_life_of_a_candidate_arena(db_url: str) -> None:
    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_arena(service, CANDIDATE)
        names = ["ann", "bob", "cat", "dan", "eve"]
        for name in names:
            await commands.register(service, tid, account(name), None)
        alive, deadline = await service.step(tid)
        assert alive
        assert deadline == BEGIN

        # The start: four are paired at once, the fifth waits.
        clock.now = BEGIN
        alive, deadline = await service.step(tid)
        assert alive
        assert deadline == BEGIN + 60  # the forfeit time-out of wave 1
        snap = await service.load(tid)
        assert snap.row["status"] == "running"
        assert [r["round"] for r in snap.rounds] == [1]
        assert len(snap.round_games(1)) == 2
        assert all(len(g["seats"]) == 2 for g in snap.games)
        (idle,) = set(names) - set(busy(snap))
        detail = views.detail(snap, clock.now)
        assert detail["ends_at"] == "1970-01-12T14:56:40+00:00"  # BEGIN + 10 min
        assert detail["format"] == "arena"
        tables = await claim_all(service, tid, names)
        assert idle not in tables
        first, second = (g["table_id"] for g in snap.round_games(1))
        assert hub.tables[first].table.status is Status.PLAYING

        # The first table ends: its two players and the idle one are free; two of them
        # are paired at once in wave 2 while wave 1's other table plays on.
        clock.now = BEGIN + 30
        await play_to_end(hub, first)
        alive, deadline = await service.step(tid)
        snap = await service.load(tid)
        assert [r["round"] for r in snap.rounds] == [1, 2]
        assert [r["finished"] for r in snap.rounds] == [False, False]
        assert len(snap.round_games(2)) == 1
        assert snap.round_games(1)[0]["status"] == "finished"
        assert sorted(busy(snap)) == sorted(set(busy(snap)))
        assert len(busy(snap)) == 4
        assert deadline == BEGIN + 30 + 60
        # A wave is stored once: pairing wave 2 again (a crash, another process)
        # fails on its key and changes nothing.
        again = await service.open_plan(snap, snap.plans()[1], clock.now, None)
        assert again == clock.now
        assert len((await service.load(tid)).games) == len(snap.games)
        # Each player is sent to their own next table (any wave's).
        tables = await claim_all(service, tid, names)
        assert set(tables) == set(busy(snap))
        assert tables[snap.round_games(2)[0]["seats"][0]] == snap.round_games(2)[0]["table_id"]

        # A player at the second table withdraws: their game counts, they are not
        # paired again.
        leaver = snap.round_games(1)[1]["seats"][0]
        await commands.withdraw(service, tid, account(leaver))
        clock.now = BEGIN + 60
        await play_to_end(hub, second)
        await service.step(tid)
        snap = await service.load(tid)
        assert snap.rounds[0]["finished"]
        assert snap.round_games(1)[1]["status"] == "finished"
        assert leaver not in busy(snap)
        assert len(snap.rounds) == 3  # wave 3: the free players other than the leaver
        assert len(busy(snap)) == 4

        # Play on until the end time passes with a game in play.
        last_games = 0
        while clock.now < END - 60:
            clock.now += 60
            snap = await service.load(tid)
            await claim_all(service, tid, names)
            live = playing(snap)
            assert live
            await play_to_end(hub, live[0]["table_id"])
            await service.step(tid)
            snap = await service.load(tid)
            assert leaver not in busy(snap)
            last_games = len(snap.games)
        assert len(snap.rounds) >= 6
        await claim_all(service, tid, names)
        snap = await service.load(tid)
        in_play = playing(snap)
        assert in_play
        clock.now = END + 1
        alive, deadline = await service.step(tid)
        assert alive  # games in play at the end still finish
        snap = await service.load(tid)
        assert len(snap.games) == last_games  # no new game after the end
        for game in in_play:
            await play_to_end(hub, game["table_id"])
        alive, deadline = await service.step(tid)
        assert not alive
        snap = await service.load(tid)
        assert snap.row["status"] == "finished"
        assert len(snap.games) == last_games
        assert all(g["status"] == "finished" for g in snap.games)
        assert all(r["finished"] for r in snap.rounds)
        counted = {(r.round, r.table) for r in snap.results()}
        assert {(g["round"], g["table_no"]) for g in in_play} <= counted
        check_standings(snap, higher=True)
        line = next(s for s in views.detail(snap, END)["standings"] if s["player"] == leaver)
        assert line["games"] >= 1  # the leaver's finished games count

    run(db_url, body)


def test_an_absent_player_is_paused_out_and_a_bot_keeps_the_last_one_company(
    db_url: str,
) -> None:
    """A player who never comes to their table forfeits it and is not paired again;
    with bots allowed, a player who waits alone for the forfeit time gets a marked bot."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_arena(service, CANDIDATE, bots_allowed=True, bot_level="easy")
        for name in ["ann", "bob"]:
            await commands.register(service, tid, account(name), None)
        clock.now = BEGIN
        await service.step(tid)
        await claim_all(service, tid, ["ann"])  # bob never comes
        clock.now = BEGIN + 61
        alive, deadline = await service.step(tid)
        assert alive
        snap = await service.load(tid)
        game = snap.round_games(1)[0]
        assert game["status"] == "forfeit"
        assert game["forfeited"] == ["bob"]
        assert snap.player("bob")["status"] == "withdrawn"
        assert len(snap.rounds) == 1  # ann waits alone
        assert deadline == BEGIN + 61 + 60  # when a bot joins her
        clock.now = BEGIN + 121
        await service.step(tid)
        snap = await service.load(tid)
        bots = [p["player"] for p in snap.players if p["bot_level"] is not None]
        assert bots == ["Bot (easy)"]
        assert sorted(snap.round_games(2)[0]["seats"]) == ["Bot (easy)", "ann"]
        tables = await claim_all(service, tid, ["ann"])
        live = hub.tables[tables["ann"]].table
        assert live.status is Status.PLAYING
        seats = snap.round_games(2)[0]["seats"]
        assert [s.is_bot for s in live.seats] == [p == "Bot (easy)" for p in seats]
        # bob comes back by registering again and is paired once someone is free.
        await commands.register(service, tid, account("bob"), None)
        snap = await service.load(tid)
        assert snap.player("bob")["status"] == "checked_in"
        with pytest.raises(HubError):
            await commands.register(service, tid, account("bob"), None)

    run(db_url, body)


def test_life_of_a_spy_arena(db_url: str) -> None:
    """Races of up to three from those free: a lone pair waits GATHER_SECONDS for
    others before racing on its own."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_arena(service, SPY)
        names = ["ann", "bob", "cat", "dan", "eve"]
        for name in names:
            await commands.register(service, tid, account(name), None)
        clock.now = BEGIN
        await service.step(tid)
        snap = await service.load(tid)
        assert sorted(len(g["seats"]) for g in snap.round_games(1)) == [2, 3]
        await claim_all(service, tid, names)
        pair = next(g for g in snap.round_games(1) if len(g["seats"]) == 2)
        trio = next(g for g in snap.round_games(1) if len(g["seats"]) == 3)

        clock.now = BEGIN + 20
        await play_to_end(hub, pair["table_id"], race=True)
        alive, deadline = await service.step(tid)
        assert alive
        assert deadline == BEGIN + 20 + GATHER_SECONDS  # two free: they wait for more
        snap = await service.load(tid)
        assert len(snap.rounds) == 1
        await play_to_end(hub, trio["table_id"], race=True)
        await service.step(tid)  # five free: raced at once in tables of three and two
        snap = await service.load(tid)
        assert sorted(len(g["seats"]) for g in snap.round_games(2)) == [2, 3]
        assert snap.rounds[0]["finished"]
        await claim_all(service, tid, names)

        pair = next(g for g in snap.round_games(2) if len(g["seats"]) == 2)
        await play_to_end(hub, pair["table_id"], race=True)
        await service.step(tid)
        assert len((await service.load(tid)).rounds) == 2
        clock.now += GATHER_SECONDS
        await service.step(tid)  # the window has passed: the pair races again
        snap = await service.load(tid)
        assert [len(g["seats"]) for g in snap.round_games(3)] == [2]
        assert sorted(snap.round_games(3)[0]["seats"]) == sorted(pair["seats"])

        await claim_all(service, tid, names)
        clock.now = END
        for game in playing(snap):
            await play_to_end(hub, game["table_id"], race=True)
        alive, _ = await service.step(tid)
        assert not alive
        snap = await service.load(tid)
        assert snap.row["status"] == "finished"
        assert len(snap.results()) == 5
        check_standings(snap, higher=False)

    run(db_url, body)
