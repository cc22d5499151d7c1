"""A tournament's seat claims and forfeits across two processes, step by step.

Two hubs in one test, each with its real cluster layer (PostgreSQL and Redis, a Redis
key prefix of its own), stand for two server processes: the director steps on hub
``a`` with a fake clock, which creates the round's tables; the players' pages are
served by ``b``. A seat is claimed through ``b`` on the table's owner ``a`` (and again,
from either side: a claim is idempotent); a waiting table handed over to ``b`` is closed
by ``b`` when the director on ``a`` decides the forfeit. Skipped when PostgreSQL or
Redis does not answer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections.abc import Awaitable, Callable

import pytest
from server_cluster import REDIS_URL, fresh_database, services_missing
from server_helpers import fast_settings

from cardtable.server.account_store import Account
from cardtable.server.cluster import Cluster
from cardtable.server.leases import Fence
from cardtable.server.runtime import Hub
from cardtable.server.storage import Storage
from cardtable.server.tournaments import Tournaments, commands
from cardtable.table import Status
from cardtable.tournament import TournamentSpec

MISSING = services_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

START = 1_000_000.0
SPEC = TournamentSpec(game="candidate", format="swiss", rounds=2, options={"deals": 1})
NAMES = ["ann", "bob", "cat", "dan"]


def account(name: str) -> Account:
    return Account(id=f"id-{name}", name=name)


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


Body = Callable[[Hub, Hub, Tournaments, Tournaments, FakeClock], Awaitable[None]]


def two_processes(body: Body) -> None:
    """Run ``body`` with hubs ``a`` and ``b`` sharing a fresh database and a Redis prefix,
    and a tournament service on each (stepped by the test)."""

    async def main(db: str) -> None:
        prefix = f"t{uuid.uuid4().hex[:10]}:"
        hubs = []
        for name in ("a", "b"):
            settings = dataclasses.replace(
                fast_settings(),
                redis_url=REDIS_URL,
                redis_prefix=prefix,
                instance=name,
                lease_seconds=5.0,
                renew_seconds=0.25,
            )
            hub = Hub(Storage(db), settings=settings)
            hub.cluster = Cluster(hub, settings)
            await hub.start()
            hubs.append(hub)
        clock = FakeClock()
        services = [Tournaments(hub, clock) for hub in hubs]
        try:
            await body(hubs[0], hubs[1], services[0], services[1], clock)
        finally:
            for service, hub in zip(services, hubs, strict=True):
                await service.stop()
                await hub.stop()
                hub.storage.close()

    with fresh_database() as db:
        asyncio.run(main(db))


def test_seats_are_claimed_and_forfeits_closed_on_the_tables_owner() -> None:
    async def body(a: Hub, b: Hub, on_a: Tournaments, on_b: Tournaments, clock: FakeClock) -> None:
        tid, _code = await commands.create(
            on_b,
            account("org"),
            name="Across",
            spec=SPEC,
            settings={"checkin_seconds": 0, "forfeit_seconds": 60},
            starts_at=START + 60,
            invite=False,
        )
        for name in NAMES:
            await commands.register(on_b, tid, account(name), None)
        clock.now = START + 60
        await on_a.step(tid)  # the director, on a: round 1 and its tables, owned by a
        snap = await on_a.load(tid)
        first, second = snap.round_games(1)
        assert all(g["table_id"] in a.tables and g["table_id"] not in b.tables for g in snap.games)

        # Both players of the first table open their page on b: seated on a.
        for seat, name in enumerate(first["seats"]):
            mine = await on_b.seat_of(snap, account(name))
            assert mine is not None
            assert mine["table_id"] == first["table_id"]
            assert a.tables[first["table_id"]].table.seats[seat].account == f"id-{name}"
        assert a.tables[first["table_id"]].table.status is Status.PLAYING
        # Again, from either process: still theirs (idempotent).
        for service in (on_a, on_b):
            assert await service.seat_of(snap, account(first["seats"][0])) is not None

        # One player of the second table comes; its table then moves to b.
        present, absent = second["seats"]
        assert await on_b.seat_of(snap, account(present)) is not None
        table_id = second["table_id"]
        await a.hand_over(a.tables[table_id])
        assert b.cluster is not None
        assert await b.cluster.locate(table_id) == "b"
        assert table_id in b.tables
        assert table_id not in a.tables
        seat = b.tables[table_id].table.seats[1]
        assert seat.account is None
        assert not seat.filled

        # The time-out: the director on a closes the table on b; the absent forfeits.
        clock.now = START + 60 + 61
        await on_a.step(tid)
        assert table_id not in b.tables
        snap = await on_a.load(tid)
        game = next(g for g in snap.round_games(1) if g["table_id"] == table_id)
        assert game["status"] == "forfeit"
        assert game["forfeited"] == [absent]
        # A closed table's seat is not to be had any more.
        assert await on_b.seat_of(snap, account(absent)) is None

    two_processes(body)


def test_a_table_being_made_is_not_adopted_a_second_time() -> None:
    """A tournament's table id is known before its table is live: a claim on the process
    making it (whose lease row it finds its own) gets the table made, never a second
    copy loaded from storage that the first would then replace or lose."""

    async def body(a: Hub, b: Hub, on_a: Tournaments, on_b: Tournaments, clock: FakeClock) -> None:
        fence = Fence("a", 1)
        making = asyncio.get_running_loop().create_task(
            a.create_table(
                game="candidate",
                options={"deals": 1},
                bot_levels=[None, None],
                time_control=None,
                rated=False,
                seed=7,
                table_id="making-1",
            )
        )
        for _ in range(1000):  # a few turns of the loop: the insert is under way
            if "making-1" in a._making:
                break
            await asyncio.sleep(0)
        assert "making-1" in a._making
        adopted = await a.adopt("making-1", fence)
        await making
        live = a.tables["making-1"]
        assert adopted is live
        assert not live.gone
        # Asked again once it is live: still the same one.
        assert await a.adopt("making-1", fence) is live
        assert a.tables["making-1"] is live

    two_processes(body)
