"""The tournament director's life of a tournament, driven by a fake clock on the real
hub and storage (SQLite and PostgreSQL): registration, check-in, the start, seats
claimed by their players, a forfeit after the time-out, a bye, a withdrawal mid-event,
a late joiner, pause and resume, a removal, ending early, a round never paired twice,
and a restart that carries on from storage."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from server_helpers import fast_settings

from cardtable.server.account_store import Account
from cardtable.server.leases import Fenced
from cardtable.server.runtime import Hub, HubError
from cardtable.server.settings import Settings
from cardtable.server.storage import Storage
from cardtable.server.tournaments import Tournaments, commands, store, views
from cardtable.table import Source, Status
from cardtable.tournament import TournamentSpec
from cardtable.tournament.pairing import pair_round

SPEC = TournamentSpec(game="candidate", format="swiss", rounds=3, options={"deals": 1})
START = 1_000_000.0


class FakeClock:
    """Unix seconds the test moves by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def account(name: str) -> Account:
    return Account(id=f"id-{name}", name=name)


ORGANISER = account("org")


def run(
    db_url: str,
    body: Callable[[Hub, Tournaments, FakeClock], Awaitable[None]],
    settings: Settings | None = None,
) -> None:
    """Run ``body`` with a hub (``settings``, or :func:`fast_settings`) and a director
    (not started: the test steps it)."""

    async def main() -> None:
        storage = Storage(db_url)
        hub = Hub(storage, settings=settings or fast_settings())
        await hub.start()
        clock = FakeClock()
        service = Tournaments(hub, clock)
        try:
            await body(hub, service, clock)
        finally:
            await service.stop()
            await hub.stop()
            storage.close()

    asyncio.run(main())


async def undirect(service: Tournaments) -> None:
    """Stop the directors :func:`commands.create` started, so the test alone steps its
    tournaments. Their tasks are cancelled and awaited, not only forgotten: a forgotten
    director still ran, and once the test moved the clock past the start it could pair
    the round beside the test's own step (seen on a busy machine)."""
    tasks = [d.task for d in service.directed.values() if d.task is not None]
    service.directed.clear()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def new_tournament(service: Tournaments, **settings: Any) -> str:
    chosen = {"checkin_seconds": 600, "forfeit_seconds": 60, "late_join": True, **settings}
    tournament_id, _code = await commands.create(
        service,
        ORGANISER,
        name="Club night",
        spec=SPEC,
        settings=chosen,
        starts_at=START + 3600,
        invite=False,
    )
    await undirect(service)  # the test steps it by hand
    return tournament_id


async def play_out(hub: Hub, table_id: str) -> None:
    """Play a table to its end with each seat's first legal move."""
    live = hub.tables[table_id]
    while live.table.status is Status.PLAYING:
        for seat in range(len(live.table.seats)):
            moves = live.table.legal_moves(seat)
            if moves and live.table.status is Status.PLAYING:
                answer = await hub.submit(
                    live, seat, moves[0], version=None, move_id=None, source=Source.PLAYER
                )
                assert answer.outcome == "accepted", answer
    assert live.table.status is Status.FINISHED


async def claim_all(service: Tournaments, tournament_id: str, names: list[str]) -> dict[str, str]:
    """Each named player opens their page: their seat is claimed; table id by name."""
    snap = await service.load(tournament_id)
    tables = {}
    for name in names:
        seat = await service.seat_of(snap, account(name))
        if seat is not None:
            assert seat["play_url"].startswith(f"/play/{seat['table_id']}?token=")
            tables[name] = seat["table_id"]
    return tables


def test_life_of_a_swiss(db_url: str) -> None:
    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service)
        names = ["ann", "bob", "cat", "dan", "eve", "fay"]
        for name in names:
            await commands.register(service, tid, account(name), None)
        with pytest.raises(HubError) as twice:
            await commands.register(service, tid, account("ann"), None)
        assert twice.value.status == 409
        # Check-in opens 600 s before the start.
        with pytest.raises(HubError) as early:
            await commands.checkin(service, tid, account("ann"))
        assert early.value.code == "checkin_closed"
        clock.now = START + 3600 - 300
        for name in names[:5]:  # fay never checks in
            await commands.checkin(service, tid, account(name))
        with pytest.raises(HubError) as stranger:
            await commands.start_now(service, tid, account("ann"))
        assert stranger.value.status == 403
        alive, deadline = await service.step(tid)
        assert alive
        assert deadline == START + 3600  # wakes at the start

        # The start: fay is withdrawn; five play, so round 1 has a bye.
        clock.now = START + 3600
        alive, deadline = await service.step(tid)
        assert alive
        assert deadline == clock.now + 60  # the forfeit time-out
        snap = await service.load(tid)
        assert snap.row["status"] == "running"
        assert snap.player("fay")["status"] == "withdrawn"
        plan = snap.plans()[0]
        assert len(plan.byes) == 1
        assert len(plan.tables) == 2
        seated = [p for t in plan.tables for p in t]
        assert "fay" not in seated
        absent = seated[-1]  # never opens their page
        present = [p for p in seated if p != absent]
        tables = await claim_all(service, tid, present)
        games = snap.round_games(1)
        full, partial = games[0]["table_id"], games[1]["table_id"]
        assert hub.tables[full].table.status is Status.PLAYING
        assert hub.tables[partial].table.status is Status.WAITING  # no bot plays the absent
        assert tables[present[0]] == full

        # Mid-round: a withdrawal, a late joiner, a pause.
        leaver = plan.tables[0][0]
        await commands.withdraw(service, tid, account(leaver))
        await commands.register(service, tid, account("gus"), None)
        await commands.pause(service, tid, ORGANISER)
        await play_out(hub, full)
        alive, deadline = await service.step(tid)
        assert deadline == START + 3600 + 60  # the partial table still waits
        # The time-out: the absent player forfeits; their table is closed.
        clock.now = START + 3600 + 61
        alive, deadline = await service.step(tid)
        assert alive
        assert deadline is None  # paused: round 2 waits for resume
        snap = await service.load(tid)
        forfeit = snap.round_games(1)[1]
        assert forfeit["status"] == "forfeit"
        assert forfeit["forfeited"] == [absent]
        assert partial not in hub.tables
        assert snap.round_games(1)[0]["totals"] is not None
        assert [r["round"] for r in snap.rounds] == [1]

        await commands.resume(service, tid, ORGANISER)
        alive, deadline = await service.step(tid)
        snap = await service.load(tid)
        plan2 = snap.plans()[1]
        seated2 = {p for t in plan2.tables for p in t} | set(plan2.byes)
        assert leaver not in seated2
        assert "gus" in seated2
        assert snap.player("gus")["joined"] == 2

        # A round is paired once: a second try fails on its key and changes nothing.
        await service._open_round(snap, 2, clock.now, None)
        again = await service.load(tid)
        assert len(again.rounds) == 2
        assert len(again.games) == len(snap.games)

        # Remove a player, then end early during round 2.
        removed = plan2.tables[0][0]
        await commands.remove(service, tid, ORGANISER, removed)
        await commands.end(service, tid, ORGANISER)
        alive, _ = await service.step(tid)
        assert not alive
        final = await service.load(tid)
        assert final.row["status"] == "finished"
        assert final.player(removed)["status"] == "removed"
        with pytest.raises(HubError) as over:
            await commands.register(service, tid, account("hal"), None)
        assert over.value.code == "finished"

    run(db_url, body)


def test_restart_carries_on(db_url: str) -> None:
    """A new process (hub and director) on the same storage finds the round in play,
    plays it on and pairs the next round once."""
    state: dict[str, Any] = {}

    async def first(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service, checkin_seconds=0)
        for name in ["ann", "bob", "cat", "dan"]:
            await commands.register(service, tid, account(name), None)
        clock.now = START + 3600
        await service.step(tid)
        await claim_all(service, tid, ["ann", "bob", "cat", "dan"])
        state["tid"] = tid

    async def second(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = state["tid"]
        clock.now = START + 3600 + 5
        snap = await service.load(tid)
        for game in snap.round_games(1):
            assert hub.tables[game["table_id"]].table.status is Status.PLAYING
            await play_out(hub, game["table_id"])
        await service.step(tid)
        snap = await service.load(tid)
        assert [r["round"] for r in snap.rounds] == [1, 2]
        assert all(g["status"] == "finished" for g in snap.round_games(1))

    run(db_url, first)
    run(db_url, second)


def test_refusals(db_url: str) -> None:
    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        with pytest.raises(HubError) as wrong:
            await commands.create(
                service,
                ORGANISER,
                name="x",
                spec=TournamentSpec(game="spy", format="swiss", rounds=2),
                settings={},
                starts_at=START + 60,
                invite=False,
            )
        assert wrong.value.code == "format_game"
        tid, code = await commands.create(
            service,
            ORGANISER,
            name="Invite only",
            spec=SPEC,
            settings={"checkin_seconds": 0},
            starts_at=START + 60,
            invite=True,
        )
        await undirect(service)
        assert code
        with pytest.raises(HubError) as bad:
            await commands.register(service, tid, account("ann"), "nope")
        assert bad.value.status == 403
        await commands.register(service, tid, account("ann"), code)
        # Fewer than two players at the start: it ends without a round.
        clock.now = START + 60
        alive, _ = await service.step(tid)
        assert not alive
        snap = await service.load(tid)
        assert snap.row["status"] == "finished"
        assert snap.rounds == []
        assert await hub.storage.aread(store.load("nope")) is None

    run(db_url, body)


def test_bots_fill_an_odd_swiss_and_rated_tables(db_url: str) -> None:
    """With bots allowed, an odd Swiss gets one marked bot entrant instead of a bye; a
    rated tournament's tables are rated tables."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service, checkin_seconds=0, bots_allowed=True, rated=True)
        for name in ["ann", "bob", "cat"]:
            await commands.register(service, tid, account(name), None)
        clock.now = START + 3600
        await service.step(tid)
        snap = await service.load(tid)
        bots = [p for p in snap.players if p["bot_level"] is not None]
        assert [b["player"] for b in bots] == ["Bot (medium)"]
        plan = snap.plans()[0]
        assert plan.byes == ()
        assert len(plan.tables) == 2
        for game in snap.round_games(1):
            table = hub.tables[game["table_id"]].table
            assert table.rated
            for name, seat in zip(game["seats"], table.seats, strict=True):
                assert seat.is_bot == (name == "Bot (medium)")

    run(db_url, body)


def test_one_director_per_tournament(db_url: str) -> None:
    """The lease: one process holds a tournament; another takes it only once the lease
    runs out, and the first one's writes are then refused (fenced)."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service)
        storage = hub.storage
        first = await storage.awrite(store.claim_lease(tid, "a", 100.0, 103.0))
        assert first is not None
        assert await storage.awrite(store.claim_lease(tid, "b", 101.0, 104.0)) is None
        assert await storage.awrite(store.claim_lease(tid, "a", 102.0, 105.0)) == first
        assert tid not in await storage.aread(store.free_tournaments(104.0))
        assert tid in await storage.aread(store.free_tournaments(106.0))
        second = await storage.awrite(store.claim_lease(tid, "b", 106.0, 109.0))
        assert second is not None
        assert second.token == first.token + 1
        with pytest.raises(Fenced):
            await storage.awrite(store.change(tid, {"paused": True}, fence=first))
        assert await storage.awrite(store.change(tid, {"paused": True}, fence=second))

    run(db_url, body)


def test_a_round_stored_but_not_opened_gets_its_tables(db_url: str) -> None:
    """A crash between storing a round and creating its tables: the next step creates
    each table once, with the stored id, and pairs nothing again."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service, checkin_seconds=0)
        for name in ["ann", "bob", "cat", "dan"]:
            await commands.register(service, tid, account(name), None)
        clock.now = START + 3600
        await service.step(tid)
        snap = await service.load(tid)
        ids = [g["table_id"] for g in snap.round_games(1)]
        for table_id in ids:  # as if the process died before making them
            assert await hub.discard_waiting(table_id)
        assert not set(ids) & set(hub.tables)
        alive, deadline = await service.step(tid)
        assert alive
        assert deadline is not None
        assert set(ids) <= set(hub.tables)
        again = await service.load(tid)
        assert [g["table_id"] for g in again.round_games(1)] == ids
        assert len(again.rounds) == 1

    run(db_url, body)


def test_the_break_between_rounds_counts_down_and_then_pairs(db_url: str) -> None:
    """With ``break_seconds``, the next round is paired that long after the last game of
    the round ended (not before, whatever wakes the director), the page shows when;
    after the last round the tournament finishes at once."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service, checkin_seconds=0, break_seconds=90)
        names = ["ann", "bob", "cat", "dan"]
        for name in names:
            await commands.register(service, tid, account(name), None)
        clock.now = START + 3600
        await service.step(tid)
        for number in (1, 2, 3):
            await claim_all(service, tid, names)
            snap = await service.load(tid)
            assert views.next_round_at(snap) is None  # a round in play: no countdown
            for game in snap.round_games(number):
                await play_out(hub, game["table_id"])
            clock.now += 7
            ended = clock.now
            alive, deadline = await service.step(tid)
            snap = await service.load(tid)
            if number == 3:
                assert not alive
                assert snap.row["status"] == "finished"
                assert views.detail(snap, clock.now)["next_round_at"] is None
                break
            assert alive
            assert deadline == ended + 90
            page = views.detail(snap, clock.now)
            assert page["next_round_at"] == views.iso_seconds(ended + 90)
            assert page["break_seconds"] == 90
            # Woken during the break (a page, a registration): nothing is paired.
            clock.now = ended + 89
            assert await service.step(tid) == (True, ended + 90)
            assert [r["round"] for r in (await service.load(tid)).rounds] == list(
                range(1, number + 1)
            )
            clock.now = ended + 90
            await service.step(tid)
            snap = await service.load(tid)
            assert [r["round"] for r in snap.rounds] == list(range(1, number + 2))
            assert views.next_round_at(snap) is None

    run(db_url, body)


def test_a_round_paired_as_the_organiser_ends_the_tournament_is_not_stored(db_url: str) -> None:
    """The organiser's end lands between the pairing of a round and its storing: the
    round is not stored and no table is made (the tournament stays finished)."""

    async def body(hub: Hub, service: Tournaments, clock: FakeClock) -> None:
        tid = await new_tournament(service, checkin_seconds=0)
        for name in ["ann", "bob", "cat", "dan"]:
            await commands.register(service, tid, account(name), None)
        clock.now = START + 3600
        await service.step(tid)
        snap = await service.load(tid)
        for game in snap.round_games(1):
            await claim_all(service, tid, ["ann", "bob", "cat", "dan"])
            await play_out(hub, game["table_id"])
        await service.step(tid)  # round 2 paired
        snap = await service.load(tid)
        plan = pair_round(snap.spec, snap.entrants(), snap.results(), snap.plans(), 3)
        tables_before = set(hub.tables)
        await commands.end(service, tid, ORGANISER)
        assert await service.open_plan(snap, plan, clock.now, None) is None
        snap = await service.load(tid)
        assert snap.row["status"] == "finished"
        assert [r["round"] for r in snap.rounds] == [1, 2]
        assert snap.round_games(3) == []
        # No table made; one may have left memory meanwhile (a finished one after its
        # keep time, on a busy machine).
        assert set(hub.tables) <= tables_before

    run(db_url, body)
