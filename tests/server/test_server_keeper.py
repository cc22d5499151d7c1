"""Ownership that survives a slow owner (server/cluster/keeper.py, node.py, forward.py):
leases renewed on their own thread while the event loop is blocked, fencing kept after
a real loss, a SIGTERM hand-over to a named successor that never waits for an expiry,
and requests re-sent to the table's owner instead of a 404."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from typing import Any

import pytest
from server_cluster import REDIS_URL, services_missing
from server_fakegame import fake_bots, fake_games
from server_helpers import fast_settings, fresh_database
from starlette.requests import Request
from test_server_leases import move
from test_server_storage import seated_table

from cardtable.server import leases
from cardtable.server.cluster import Cluster, LeaseKeeper
from cardtable.server.cluster.forward import FORWARD_TRIES, Forwarding
from cardtable.server.leases import Fence, Fenced
from cardtable.server.runtime import Hub
from cardtable.server.settings import Settings
from cardtable.server.storage import Storage
from cardtable.table import Table

MISSING = services_missing()
needs_services = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def cluster_settings(instance: str, prefix: str, lease: float, every: float) -> Settings:
    settings = fast_settings()
    settings.redis_url, settings.redis_prefix, settings.instance = REDIS_URL, prefix, instance
    settings.lease_seconds, settings.renew_seconds = lease, every
    return settings


async def start_node(storage: Storage, settings: Settings) -> tuple[Hub, Cluster]:
    hub = Hub(storage, fake_games(), fake_bots, settings)
    cluster = Cluster(hub, settings)
    hub.cluster = cluster
    await hub.start()
    return hub, cluster


async def new_table(hub: Hub) -> Table:
    return await hub.create_table(
        game="fake",
        options={"hand": 4},
        bot_levels=[None, None],
        time_control=None,
        rated=False,
        seed=3,
    )


@needs_services
def test_leases_are_renewed_while_the_event_loop_is_blocked(db_url: str) -> None:
    """The owner's event loop is stuck in a synchronous busy section for three lease
    times (a CPU-starved process); its lease thread keeps renewing, so another process
    trying to claim the table all along never gets it, and nothing is dropped."""
    lease, every = 1.5, 0.1

    async def run() -> None:
        storage = Storage(db_url)
        hub, cluster = await start_node(
            storage, cluster_settings("a", f"k{uuid.uuid4().hex[:10]}:", lease, every)
        )
        try:
            table = await new_table(hub)
            won: list[Fence] = []
            stop = threading.Event()

            def rival() -> None:  # another process, trying to take the table
                while not stop.is_set():
                    now = time.time()
                    fence = storage.write(leases.claim(table.id, "b", now, now + lease)).result(10)
                    if fence is not None:
                        won.append(fence)
                        return
                    stop.wait(0.01)

            thread = threading.Thread(target=rival)
            thread.start()
            # Block the loop until the keeper has renewed through three lease times.
            start = cluster.keeper.renewals
            periods = round(3 * lease / every)
            while cluster.keeper.renewals < start + periods:
                pass
            stop.set()
            thread.join()
            assert won == [], (
                f"margin {cluster.keeper.min_margin}, renewals {cluster.keeper.renewals}"
            )
            found = storage.read(leases.lease_of(table.id))
            assert found is not None
            assert (found.owner, found.token) == ("a", 1)
            await asyncio.sleep(0)  # anything the keeper reported reaches the loop
            assert table.id in hub.tables
            assert not hub.tables[table.id].gone
            assert cluster.keeper.min_margin is not None
            assert cluster.keeper.min_margin > 0
            text = hub.metrics.render().decode()
            assert 'cardtable_lease_changes_total{reason="lost"} 0.0' in text
        finally:
            await hub.stop()
            storage.close()

    asyncio.run(run())


def test_a_lease_lost_while_frozen_is_reported_and_the_old_owners_writes_refused(
    db_url: str,
) -> None:
    """Fencing is unchanged: a process frozen past its lease (its thread too) loses the
    table to another; its writes are refused, and its next renewal reports the loss."""
    storage = Storage(db_url)
    try:
        table = seated_table("t1")
        storage.write(Storage.insert_table(table, ("a", 50.0))).result(timeout=10)
        clock = [50.0]
        lost: list[dict[str, Fence]] = []
        keeper = LeaseKeeper(
            lease_seconds=3.0,
            every=1.0,
            renew=lambda ids, until: storage.write(leases.renew("a", ids, until)).result(10),
            heartbeat=lambda now: None,
            lost=lost.append,
            clock=lambda: clock[0],
        )
        keeper.hold("t1", Fence("a", 1))
        keeper.step()
        renewed = storage.read(leases.lease_of("t1"))
        assert renewed is not None
        assert renewed.expires_at == pytest.approx(53.0)
        clock[0] = 52.5
        keeper.step()
        assert keeper.min_margin == pytest.approx(0.5)  # 0.5 s were left at this renewal
        # Frozen past the lease: b takes the table; a's writes are refused.
        assert storage.write(leases.claim("t1", "b", 60.0, 63.0)).result(10) == Fence("b", 2)
        with pytest.raises(Fenced):
            move(storage, table, "late", Fence("a", 1))
        clock[0] = 61.0
        keeper.step()
        assert lost == [{"t1": Fence("a", 1)}]
        assert keeper.held() == {}
    finally:
        storage.close()


@needs_services
def test_a_sigterm_hand_over_names_a_successor_that_claims_at_once() -> None:
    """Leases of 30 s and renewals every 5 s: a successor that waited for an expiry, an
    orphan scan or the broadcast ``free`` would take seconds; the named successor is
    told ``take`` and owns every table (token 2) long before any of those."""
    lease, every = 30.0, 5.0

    async def run(url: str) -> None:
        prefix = f"h{uuid.uuid4().hex[:10]}:"
        storage_a, storage_b = Storage(url), Storage(url)
        hub_a, cluster_a = await start_node(storage_a, cluster_settings("a", prefix, lease, every))
        hub_b, _ = await start_node(storage_b, cluster_settings("b", prefix, lease, every))
        try:
            tables = [await new_table(hub_a) for _ in range(3)]
            started = time.monotonic()
            await cluster_a.drain()
            while not all(t.id in hub_b.tables for t in tables):
                # Before the old lease could run out: a hand-over that waited for expiry
                # would take the whole lease (30 s), however busy the machine.
                assert time.monotonic() - started < lease, "not handed over"
                await asyncio.sleep(0.01)
            for table in tables:
                found = storage_b.read(leases.lease_of(table.id))
                assert found is not None
                assert (found.owner, found.token) == ("b", 2)
            assert hub_a.tables == {}
        finally:
            await hub_a.stop()
            await hub_b.stop()
            storage_a.close()
            storage_b.close()

    with fresh_database() as url:
        asyncio.run(run(url))


class ScriptedForwarding(Forwarding):
    """The forwarding middleware with the cluster around it scripted: who owns the
    table at each look, and what each process answers."""

    def __init__(self, owners: list[str | None], answers: list[tuple[int, bytes]]) -> None:
        self.me = "a"
        self.draining = False
        self._calls = {}
        self.owners = owners
        self.answers = answers
        self.asked: list[str] = []

    async def locate(self, table_id: str, *, any_age: bool = False) -> str | None:
        return self.owners.pop(0) if len(self.owners) > 1 else self.owners[0]

    async def _answer(self, where: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        self.asked.append(where)
        status, body = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return status, [(b"content-type", b"application/json")], body

    async def _run_request(self, payload: dict[str, Any]) -> tuple[int, list[Any], bytes]:
        return await self._answer(self.me)

    async def _call(
        self, owner: str, payload: dict[str, Any]
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        return await self._answer(owner)


def join_request() -> Request:
    body = json.dumps({"invite": "x", "name": "Ann"}).encode()
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/tables/t1/join",
        "query_string": b"",
        "headers": [(b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 1),
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(scope, receive)


NOT_HERE = json.dumps({"detail": {"code": "no_table", "message": "no live table"}}).encode()
MOVED = json.dumps({"detail": {"code": "moved", "message": "moved"}}).encode()


async def never(_request: Request) -> Any:
    raise AssertionError("a request about a table is never passed on unforwarded")


def test_a_request_reaching_a_process_that_lost_the_table_is_sent_on_not_404() -> None:
    """The process that owned the table when asked answers "not here" (it handed it
    over meanwhile): the owner is looked up again and the request run there."""
    forwarding = ScriptedForwarding(["a", "b"], [(404, NOT_HERE), (200, b'{"seat": 1}')])
    response = asyncio.run(forwarding.forward(join_request(), never))
    assert (response.status_code, response.body) == (200, b'{"seat": 1}')
    assert forwarding.asked == ["a", "b"]
    # An owner elsewhere that answers "moved" is asked again too.
    forwarding = ScriptedForwarding(["b", "c"], [(503, MOVED), (200, b"{}")])
    response = asyncio.run(forwarding.forward(join_request(), never))
    assert response.status_code == 200
    assert forwarding.asked == ["b", "c"]


def test_only_a_table_nobody_holds_is_a_404_and_a_table_always_moving_is_a_503() -> None:
    missing = ScriptedForwarding([None], [(404, NOT_HERE)])
    response = asyncio.run(missing.forward(join_request(), never))
    assert response.status_code == 404
    moving = ScriptedForwarding(["b"], [(404, NOT_HERE)])
    response = asyncio.run(moving.forward(join_request(), never))
    assert response.status_code == 503
    assert response.headers["retry-after"] == "1"
    assert json.loads(response.body)["detail"]["code"] == "owner_unreachable"
    assert len(moving.asked) == FORWARD_TRIES


def test_each_write_renews_the_lease_so_a_busy_table_is_never_claimed(db_url: str) -> None:
    """The lease thread skips a row a write has locked; that write's fence check renews
    the lease itself as it commits, and a claim waiting on the row then finds it held."""
    storage = Storage(db_url)
    try:
        table = seated_table("t1")
        now = time.time()
        storage.write(Storage.insert_table(table, ("a", now + 1.0))).result(timeout=10)
        move(storage, table, "m1", Fence("a", 1, lease_seconds=300.0))
        found = storage.read(leases.lease_of("t1"))
        assert found is not None
        assert found.expires_at >= now + 299.0
        # Past the lease as first granted, nobody may claim it: the write renewed it.
        assert storage.write(leases.claim("t1", "b", now + 2, now + 5)).result(10) is None
    finally:
        storage.close()
