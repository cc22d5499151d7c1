"""Table leases and fencing (server/leases.py), on SQLite and PostgreSQL: one owner at a
time, a takeover bumps the token, and an old owner's writes are refused."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest
from server_fakegame import fake_bots, fake_games
from server_helpers import fast_settings
from test_server_storage import seated_table

from cardtable.server import leases
from cardtable.server.cluster import preferred
from cardtable.server.leases import Fence, Fenced
from cardtable.server.runtime import Hub
from cardtable.server.storage import Storage
from cardtable.table import Source, Table


def stored_moves(storage: Storage, table_id: str) -> list[str | None]:
    loaded = storage.read(lambda s: Storage.load(s, table_id))
    assert loaded is not None
    return [m.move_id for m in loaded.moves]


def move(storage: Storage, table: Table, move_id: str, fence: Fence | None) -> None:
    seat = table.match.to_move() if table.match else None
    assert isinstance(seat, int)
    answer = table.submit(
        seat, table.legal_moves(seat)[-1], version=table.version, move_id=move_id, now=1.0
    )
    assert answer.entry is not None
    storage.write(Storage.append_move(table, answer.entry, fence)).result(timeout=10)


def test_an_old_owners_move_is_refused_after_a_takeover(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        table = seated_table("t1")
        storage.write(Storage.insert_table(table, ("a", 100.0))).result(timeout=10)
        old = Fence("a", 1)
        move(storage, table, "m1", old)  # the owner writes
        # While a holds it, b cannot claim it.
        assert storage.write(leases.claim("t1", "b", 50.0, 53.0)).result(timeout=10) is None
        # a stops renewing; past its expiry b takes it over with the next token.
        new = storage.write(leases.claim("t1", "b", 101.0, 104.0)).result(timeout=10)
        assert new == Fence("b", 2)
        # a wakes up and writes: refused, in the same transaction, nothing stored.
        twin = storage.read(lambda s: Storage.load(s, "t1"))
        with pytest.raises(Fenced):
            move(storage, table, "m2", old)
        with pytest.raises(Fenced):
            storage.write(Storage.update_table(table, old)).result(timeout=10)
        assert stored_moves(storage, "t1") == ["m1"]
        after = storage.read(lambda s: Storage.load(s, "t1"))
        assert twin is not None
        assert after is not None
        assert after.row == twin.row
        # The new owner writes; a's renewal finds the table gone and its release fails.
        assert twin is not None
        restored = twin.restore(table.game, 2.0)
        move(storage, restored, "m2", new)
        assert stored_moves(storage, "t1") == ["m1", "m2"]
        assert storage.write(leases.renew("a", ["t1"], 200.0)).result(timeout=10) == set()
        assert storage.write(leases.renew("b", ["t1"], 200.0)).result(timeout=10) == {"t1"}
        assert storage.write(leases.release("t1", old)).result(timeout=10) is False
    finally:
        storage.close()


def test_a_released_table_is_claimed_at_once_and_by_one_process(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        for name in ("t1", "t2"):
            storage.write(Storage.insert_table(seated_table(name), ("a", 100.0))).result(10)
        assert storage.read(leases.orphans(50.0)) == []
        assert storage.write(leases.release("t1", Fence("a", 1))).result(timeout=10)
        assert storage.read(leases.orphans(50.0)) == ["t1"]  # free long before expiry
        # Two processes claim it at once: exactly one wins, with token 2.
        first = storage.write(leases.claim("t1", "b", 50.0, 53.0))
        second = storage.write(leases.claim("t1", "c", 50.0, 53.0))
        won = [f for f in (first.result(10), second.result(10)) if f is not None]
        assert won == [Fence("b", 2)]
        lease = storage.read(leases.lease_of("t1"))
        assert lease is not None
        assert (lease.owner, lease.token) == ("b", 2)
        # Claiming again as the owner keeps the token; a table without a lease (stored
        # before leases) is claimable; no table, no lease.
        assert storage.write(leases.claim("t1", "b", 51.0, 54.0)).result(10) == Fence("b", 2)
        storage.write(Storage.insert_table(seated_table("t3"))).result(timeout=10)
        assert "t3" in storage.read(leases.orphans(50.0))
        assert storage.write(leases.claim("t3", "c", 50.0, 53.0)).result(10) == Fence("c", 1)
        assert storage.write(leases.claim("nope", "c", 50.0, 53.0)).result(10) is None
        # Expired leases are orphans.
        assert set(storage.read(leases.orphans(200.0))) == {"t1", "t2", "t3"}
    finally:
        storage.close()


def test_an_owner_that_lost_its_lease_drops_the_table_and_stores_nothing(db_url: str) -> None:
    """The runtime's side: an owner stopped past its lease (another process took the
    table) refuses the move it is given, stores nothing and lets the table go."""

    async def run() -> None:
        storage = Storage(db_url)
        hub = Hub(storage, fake_games(), fake_bots, fast_settings())
        try:
            table = await hub.create_table(
                game="fake",
                options={"hand": 4},
                bot_levels=[None, None],
                time_control=None,
                rated=False,
                seed=3,
            )
            for seat, invite in table.open_invites():
                await hub.join(table.id, invite, f"P{seat}")
            now = time.time()
            live = hub.tables[table.id]
            live.fence = storage.write(leases.claim(table.id, "a", now, now + 1)).result(10)
            assert live.fence == Fence("a", 1)
            taken = storage.write(leases.claim(table.id, "b", now + 2, now + 5)).result(10)
            assert taken == Fence("b", 2)
            seat = table.match.to_move() if table.match else None
            assert isinstance(seat, int)
            answer = await hub.submit(
                live,
                seat,
                table.legal_moves(seat)[0],
                version=table.version,
                move_id="late",
                source=Source.PLAYER,
            )
            assert (answer.outcome, answer.code) == ("refused", "storage")
            await asyncio.sleep(0.05)
            assert table.id not in hub.tables  # dropped: the new owner has it
            assert stored_moves(storage, table.id) == []
        finally:
            await hub.stop()
            storage.close()

    asyncio.run(run())


def test_orphaned_tables_spread_evenly_and_each_process_decides_alone() -> None:
    """A dead process's tables go first to one live process each (rendezvous hashing,
    cluster.preferred): about a third each of three, the same answer whatever order the
    processes are listed in, and when one of them dies too only its share moves."""
    members = ["n0", "n1", "n2"]
    ids = [f"table{i}" for i in range(3000)]
    chosen = [preferred(t, members) for t in ids]
    counts = Counter(chosen)
    assert set(counts) == set(members)
    assert all(900 <= n <= 1100 for n in counts.values()), counts
    assert chosen == [preferred(t, list(reversed(members))) for t in ids]
    after = [preferred(t, ["n0", "n1"]) for t in ids]
    assert all(a == b for a, b in zip(chosen, after, strict=True) if a != "n2")
