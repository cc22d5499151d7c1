"""State shared by several server processes through Redis (``serve --redis``): the "play
now" queues pair once across processes, and the limits on logins, hints and analyses
count every process's requests. Against the real Redis on 127.0.0.1:6379, a fresh key
prefix per test (skipped when no Redis answers)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_fakegame import fake_bots, fake_games
from server_helpers import (
    GUARD,
    Api,
    ServerThread,
    StepClock,
    clients,
    fast_settings,
    play_first_moves,
)

from cardtable.bots.review import ReviewBudget
from cardtable.messages import CATALOG, LANGS, render
from cardtable.server import analysis as analysis_module
from cardtable.server.analysis import AnalysisRunner
from cardtable.server.app import create_app
from cardtable.server.limits import SharedBuckets, SharedLoginLimits
from cardtable.server.rematch_store import tie_rematch
from cardtable.server.routes.accounts import CSRF_HEADER
from cardtable.server.runtime import HubError
from cardtable.server.seeks import Seek, Seeks, SharedSeeks
from cardtable.server.shared import LockLost, LockTimeout, Shared, open_shared
from cardtable.server.storage import Storage
from cardtable.table import Table, TimeControl

REDIS_URL = os.environ.get("CARDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
WINDOW, BOTS_AFTER, HEARTBEAT = 0.6, 0.5, 30.0  # no seek expires here


def redis_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except redis.RedisError:
        return False


pytestmark = pytest.mark.skipif(not redis_up(), reason=f"no Redis answers at {REDIS_URL}")


def forget(prefix: str) -> None:
    """Delete every key of a test's prefix."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of this test's own."""
    name = f"cardtable-test-{uuid.uuid4().hex[:12]}:"
    yield name
    forget(name)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def lapsed(shared: Shared, name: str) -> None:
    """Wait until the lease of the lock ``name`` has run out (Redis dropped its key)."""
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while await shared.redis.exists(shared.lock_key(name)):
        assert time.monotonic() < deadline, f"the lease of {name!r} never ran out"
        await asyncio.sleep(0.02)


async def earlier(shared: Shared, key: str, seconds: float) -> None:
    """Move the times Redis recorded under ``key`` (a bucket's ``when``, the times of
    failed logins) back by ``seconds``: as if that much time had passed on Redis's
    clock, which the limits' scripts read, without waiting for it."""
    kind = await shared.redis.type(key)
    if kind == "hash":
        when = float(await shared.redis.hget(key, "when"))
        await shared.redis.hset(key, "when", f"{when - seconds:.6f}")
    else:
        assert kind == "zset", (key, kind)
        entries = await shared.redis.zrange(key, 0, -1, withscores=True)
        await shared.redis.zadd(key, {member: score - seconds for member, score in entries})


@pytest.fixture
def pair(tmp_path: Path, prefix: str) -> Iterator[tuple[ServerThread, ServerThread]]:
    """Two server applications (as two processes would be) on one database and one Redis
    prefix; their seek timings short, and their seeks on one step clock (as the machines of
    one site keep theirs in step) that moves only when a test moves it."""
    servers = []
    clock = StepClock(time.time())
    for _ in range(2):
        settings = fast_settings()
        settings.redis_url, settings.redis_prefix = REDIS_URL, prefix
        settings.grace_seconds = 30.0  # no stand-in plays the seated tables meanwhile
        app = create_app(
            f"sqlite:///{tmp_path / 'shared.db'}",
            games=fake_games(),
            bots=fake_bots,
            settings=settings,
            static_dir=None,
        )
        # Behind HAProxy on this machine, as docs/deploy.md runs them.
        servers.append(ServerThread(app, trusted_proxies=["127.0.0.1"]).start())
    for server in servers:
        api = Api(server.base)
        assert api.http.get("/api/seeks").status_code == 200  # made on first use
        seeks: Seeks = server.app.state.seeks
        seeks.window, seeks.bots_after, seeks.heartbeat = WINDOW, BOTS_AFTER, HEARTBEAT
        seeks.clock = clock
    yield servers[0], servers[1]
    for server in servers:
        server.stop()


def seek(api: Api, game: str, name: str, **extra: Any) -> dict[str, Any]:
    answer = api.http.post("/api/seeks", json={"game": game, "name": name, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def poll(api: Api, made: dict[str, Any]) -> dict[str, Any]:
    answer = api.http.post(f"/api/seeks/{made['seek']['id']}/poll", json={"secret": made["secret"]})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_a_seek_made_on_one_process_pairs_with_one_on_another(
    pair: tuple[ServerThread, ServerThread],
) -> None:
    a, b = (Api(s.base) for s in pair)
    ann = seek(a, "fake", "Ann", time_control={"initial": 60})
    assert ann["status"] == "waiting"
    # Both processes show the same lobby, and the owner may poll through either.
    assert [s["name"] for s in b.http.get("/api/seeks").json()] == ["Ann"]
    assert poll(b, ann)["status"] == "waiting"
    others = [seek(b, "fake", name, time_control={"initial": 60}) for name in ("Bob", "Cid")]
    assert others[0]["status"] == "waiting"
    assert others[0]["in_queue"] == 2
    dot = seek(a, "fake", "Dot", time_control={"initial": 60})  # the fourth: seated at once
    assert dot["status"] == "seated"
    answers = [poll(api, made) for api, made in ((b, ann), (a, others[0]), (b, others[1]))]
    seated = [x["seated"] for x in [*answers, dot]]
    assert all(x is not None for x in seated)
    assert len({x["table"]["id"] for x in seated}) == 1
    assert sorted(x["seat"] for x in seated) == [0, 1, 2, 3]
    assert len({x["token"] for x in seated}) == 4
    assert a.http.get("/api/seeks").json() == b.http.get("/api/seeks").json() == []
    # The process that paired holds the table; each token opens its seat there.
    table_id = seated[0]["table"]["id"]
    (holder,) = [s for s in pair if table_id in s.app.state.hub.tables]
    tokens = [x["token"] for x in sorted(seated, key=lambda x: x["seat"])]
    with clients(holder.base, table_id, tokens) as players:
        assert [p.hello()["type"] for p in players] == ["welcome"] * 4


def test_seeks_arriving_at_once_on_two_processes_pair_once_each(
    pair: tuple[ServerThread, ServerThread], tmp_path: Path
) -> None:
    apis = [Api(s.base) for s in pair]
    names = [f"P{i}" for i in range(16)]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda i: seek(apis[i % 2], "fakerace", names[i]), range(16)))
    clock: StepClock = pair[0].app.state.seeks.clock
    clock.advance(WINDOW + 0.1)  # any queue left gathering starts now
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        polled = list(pool.map(lambda i: poll(apis[(i + 1) % 2], made[i]), range(16)))
    assert all(p["status"] == "seated" for p in polled), polled
    tables: dict[str, list[int]] = {}
    for p in polled:
        tables.setdefault(p["seated"]["table"]["id"], []).append(p["seated"]["seat"])
    # fakerace seats 2 to 4: sixteen people at once make tables of four, nobody twice.
    assert sorted(len(seats) for seats in tables.values()) == [4, 4, 4, 4]
    assert all(sorted(seats) == [0, 1, 2, 3] for seats in tables.values())
    with sqlite3.connect(tmp_path / "shared.db") as db:
        stored = [row[0] for row in db.execute("SELECT id FROM tables")]
    assert sorted(stored) == sorted(tables)  # each table made once, by one process


def test_failed_logins_count_across_processes(pair: tuple[ServerThread, ServerThread]) -> None:
    name = f"Lim{uuid.uuid4().hex[:8]}"
    statuses = []
    for i in range(6):
        api = Api(pair[i % 2].base)
        answer = api.http.post(
            "/api/account/login",
            json={"name": name, "password": "not the password"},
            headers={CSRF_HEADER: "web"},
        )
        statuses.append(answer.status_code)
    assert statuses == [401] * 5 + [429]
    assert 1 <= int(answer.headers["Retry-After"]) <= 900


def test_shared_buckets_and_login_limits(prefix: str) -> None:
    async def check() -> None:
        shared = await open_shared(REDIS_URL, prefix)
        try:
            # Periods of an hour and waits of a minute or more: the bounds below hold
            # however long the machine stalls between two steps (up to half a minute);
            # time passes only where the test moves the recorded times back.
            hour = 3600.0
            buckets = SharedBuckets(shared, "t", burst=2, seconds=hour)
            other = SharedBuckets(shared, "t", burst=2, seconds=hour)  # another process's
            assert [await buckets.acquire("a"), await other.acquire("a")] == [0, 0]
            assert hour - 30 <= await buckets.acquire("a") <= hour
            assert await other.acquire("b") == 0
            # An hour later the bucket has regained one token, not two.
            await earlier(shared, shared.key("bucket", "t", "a"), hour)
            assert await other.acquire("a") == 0
            assert 0 < await buckets.acquire("a") <= hour
            limits = SharedLoginLimits(
                shared, per_pair=2, per_address=3, step=60.0, pair_cap=90.0, address_cap=90.0
            )  # failures are remembered for an hour (the window)
            await limits.failed("Ann", "10.0.0.1")
            assert await limits.wait("ann", "10.0.0.1") == 0
            await limits.failed("ANN", "10.0.0.1")  # the name counts by its key
            assert 30 < await limits.wait("Ann", "10.0.0.1") <= 60
            assert await limits.wait("Ann", "10.0.0.2") == 0  # never the name alone
            await limits.failed("Bob", "10.0.0.1")  # the address's third
            assert 30 < await limits.wait("Cid", "10.0.0.1") <= 60
            assert await limits.wait("Cid", "10.0.0.9") == 0
            await limits.failed("Ann", "10.0.0.1")  # the pair's third: a longer wait
            assert 60 < await limits.wait("Ann", "10.0.0.1") <= 90
            await limits.succeeded("ann", "10.0.0.1")  # clears the pair, not the address
            assert 60 < await limits.wait("Bob", "10.0.0.1") <= 90
            # Once the window is over the address's failures are forgotten.
            await earlier(shared, shared.key("login", "addr", "10.0.0.1"), hour)
            assert await limits.wait("Bob", "10.0.0.1") == 0
        finally:
            await shared.close()

    run(check())


def test_the_shared_lock_is_held_alone_and_a_lapsed_lease_frees_nobody_else(
    prefix: str,
) -> None:
    async def check() -> None:
        first, second = await open_shared(REDIS_URL, prefix), await open_shared(REDIS_URL, prefix)
        try:
            inside: list[str] = []

            async def hold(shared: Shared, who: str) -> None:
                async with shared.locked("x", wait=GUARD):
                    inside.append(who)
                    await asyncio.sleep(0.05)
                    assert inside[-1] == who  # nobody else came in meanwhile
                    inside.append(who)

            await asyncio.gather(*(hold(s, str(i)) for i, s in enumerate([first, second] * 3)))
            assert len(inside) == 12
            assert all(inside[i] == inside[i + 1] for i in range(0, 12, 2))
            # A holder whose lease ran out: the next one gets in, and the late release
            # leaves the new holder's lock alone.
            late = first.locked("y", lease=0.1)
            await late.__aenter__()
            await lapsed(first, "y")
            now = second.locked("y", lease=GUARD, wait=GUARD)
            token = await now.__aenter__()
            await late.__aexit__(None, None, None)
            assert await second.redis.get(second.lock_key("y")) == token
            await now.__aexit__(None, None, None)
            assert await second.redis.get(second.lock_key("y")) is None
            with pytest.raises(LockTimeout):
                async with first.locked("z", lease=GUARD), second.locked("z", wait=0.1):
                    pass
        finally:
            await first.close()
            await second.close()

    run(check())


def test_seeks_changed_after_their_lease_ran_out_are_not_written(prefix: str) -> None:
    async def check() -> None:
        shared = await open_shared(REDIS_URL, prefix)
        try:
            store = SharedSeeks(shared)
            store.lease = 0.1

            async def slow_change() -> None:
                async with store.holding() as seeks:
                    seeks["x"] = Seek("x", "h", ("fake", False, None, None), "Ann", None, 1.0, 1.0)
                    await lapsed(shared, "seeks")

            with pytest.raises(HubError) as refused:  # a 503 the client may retry
                await slow_change()
            assert refused.value.status == 503
            assert isinstance(refused.value.__context__, LockLost)
            assert await store.peek() == {}
            store.lease = GUARD
            async with store.holding() as seeks:
                seeks["x"] = Seek(
                    "x", "h", ("fake", False, TimeControl(1000, 0), None), "A", None, 1, 1
                )
            (kept,) = (await store.peek()).values()
            assert kept.queue == ("fake", False, TimeControl(1000, 0), None)
        finally:
            await shared.close()

    run(check())


def test_behind_the_proxy_the_limits_count_the_forwarded_address(
    pair: tuple[ServerThread, ServerThread],
) -> None:
    """HAProxy adds the player's address to X-Forwarded-For (deploy/haproxy.cfg); uvicorn
    takes the last address not of a trusted proxy (``--trusted-proxy 127.0.0.1``), so the
    address limit counts players, and a client cannot pass for another by sending the
    header itself."""
    for server in pair:
        limits = SharedLoginLimits(server.app.state.shared, per_pair=50, per_address=2)
        server.app.state.login_limits = limits

    def login(server: ServerThread, forwarded: str) -> int:
        answer = Api(server.base).http.post(
            "/api/account/login",
            json={"name": f"N{uuid.uuid4().hex[:8]}", "password": "not the password"},
            headers={CSRF_HEADER: "web", "X-Forwarded-For": forwarded},
        )
        return answer.status_code

    a, b = pair
    assert [login(a, "203.0.113.7"), login(b, "203.0.113.7")] == [401, 401]
    assert login(a, "203.0.113.7") == 429
    assert login(b, "198.51.100.1, 203.0.113.7") == 429  # a forged first hop changes nothing
    assert login(b, "203.0.113.8") == 401


@pytest.fixture
def real_pair(tmp_path: Path, prefix: str) -> Iterator[tuple[ServerThread, ServerThread]]:
    """Two server applications on one database and one Redis prefix, with the real games
    (the analysis board analyses only those) and the default analysis limits."""
    servers = []
    for _ in range(2):
        settings = fast_settings()
        settings.redis_url, settings.redis_prefix = REDIS_URL, prefix
        app = create_app(f"sqlite:///{tmp_path / 'real.db'}", settings=settings, static_dir=None)
        servers.append(ServerThread(app).start())
    yield servers[0], servers[1]
    for server in servers:
        server.stop()


def finished_game(api: Api, seed: int) -> str:
    """A Candidate table of two easy bots, played to its end; its id."""
    bots = [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}]
    table_id: str = api.create("candidate", bots, options={"deals": 1}, seed=seed)["table"]["id"]
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while api.table(table_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return table_id


def analysed(api: Api, table_id: str) -> dict[str, Any]:
    """Poll an analysis on the process that runs it until it is no longer running."""
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while True:
        answer: dict[str, Any] = api.http.get(f"/api/games/{table_id}/analysis").json()
        if answer["status"] != "running":
            return answer
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)


def test_a_guests_analyses_count_across_processes(
    real_pair: tuple[ServerThread, ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guest (one address) gets 2 analyses, then one per 30 minutes, and one at a time,
    whichever process the proxy sends each request to."""
    release = threading.Event()

    def held(game: str, record: Any, budget: ReviewBudget, progress: Any) -> dict[str, Any]:
        progress(1, 2)
        release.wait(20)
        return {"game": game, "decisions": []}  # what is stored does not matter here

    monkeypatch.setattr(analysis_module, "analyse_record", held)
    a, b = (Api(s.base) for s in real_pair)
    games = [finished_game(a, seed) for seed in (5, 6, 7)]
    try:
        assert a.http.post(f"/api/games/{games[0]}/analysis").status_code == 202
        busy = b.http.post(f"/api/games/{games[1]}/analysis")  # running on the other one
        assert busy.status_code == 409, busy.text
        assert busy.json()["detail"]["code"] == "analysis_one_at_a_time"
    finally:
        release.set()
    assert analysed(a, games[0])["status"] == "done"
    assert b.http.post(f"/api/games/{games[1]}/analysis").status_code == 202
    assert analysed(b, games[1])["status"] == "done"
    third = a.http.post(f"/api/games/{games[2]}/analysis")  # this process's first
    assert third.status_code == 429, third.text
    assert third.json()["detail"]["code"] == "analysis_rate_limited"
    assert 1 <= int(third.headers["Retry-After"]) <= 1800


def test_an_analysis_hold_is_one_per_requester_and_lapses_with_its_lease(prefix: str) -> None:
    async def check() -> None:
        shared = [await open_shared(REDIS_URL, prefix) for _ in range(2)]
        storage = Storage("sqlite://")
        first, second = (AnalysisRunner(fast_settings(), storage, s) for s in shared)
        try:
            assert await first.claim("account:1")
            assert not await first.claim("account:1")  # here
            assert not await second.claim("account:1")  # on another process
            assert await second.claim("account:2")
            await first.release("account:1")
            assert await second.claim("account:1")
            # A process that died holding it: the lease frees the requester.
            token = await shared[0].hold("x", lease=GUARD)
            assert token is not None
            assert await shared[1].hold("x", lease=GUARD) is None
            assert await shared[0].extend("x", token, lease=0.1)  # then it stops renewing
            await lapsed(shared[0], "x")
            assert not await shared[0].extend("x", token, lease=GUARD)
            assert await shared[1].hold("x", lease=GUARD) is not None
        finally:
            storage.close()
            for s in shared:
                await s.close()

    run(check())


def rematch_at_once(apis: list[Api], table_id: str, tokens: list[str]) -> list[Any]:
    """Each player asks for the rematch with their old token through their own process,
    at the same moment (both threads released together); the answers."""
    start = threading.Barrier(len(apis))

    def ask(i: int) -> Any:
        start.wait()
        return apis[i].http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[i]})

    with concurrent.futures.ThreadPoolExecutor(len(apis)) as pool:
        return list(pool.map(ask, range(len(apis))))


def one_rematch(
    pair: tuple[ServerThread, ServerThread], db: Path, table_id: str, answers: list[Any]
) -> str:
    """Both were seated at one new table, at their old seats; the old table names it on
    every process, and storage holds no other rematch of it."""
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    seated = [a.json() for a in answers]
    new_ids = {s["table"]["id"] for s in seated}
    assert len(new_ids) == 1, f"two rematch tables: {new_ids}"
    assert [s["seat"] for s in seated] == [0, 1]
    (new_id,) = new_ids
    for server in pair:
        api = Api(server.base)
        assert api.table(table_id)["rematch"] == new_id
        assert api.table(new_id)["rematch_of"] == table_id
        assert api.table(new_id)["status"] == "playing"  # both seats taken
    with sqlite3.connect(db) as stored:
        query = "SELECT id FROM tables WHERE rematch_of = ?"
        assert [row[0] for row in stored.execute(query, (table_id,))] == [new_id]
    for server, mine in zip(pair, seated, strict=True):  # each through their own process
        with clients(server.base, new_id, [mine["token"]]) as (player,):
            assert player.hello()["type"] == "welcome"
    return new_id


def test_a_rematch_asked_at_once_through_two_processes_is_one_table(
    pair: tuple[ServerThread, ServerThread], tmp_path: Path
) -> None:
    """The owner of the finished table (it still holds it: its players are connected)
    makes the rematch; the request on the other process is forwarded to it."""
    apis = [Api(s.base) for s in pair]
    for round_ in range(4):
        owner = pair[round_ % 2]
        table_id, tokens = Api(owner.base).seat_players("fake", ["Ann", "Bob"], options={"hand": 1})
        with clients(owner.base, table_id, tokens) as players:
            play_first_moves(players)
            answers = rematch_at_once(apis, table_id, tokens)
            new_id = one_rematch(pair, tmp_path / "shared.db", table_id, answers)
            for player in players:  # the old table's clients hear of it
                player.wait_for(lambda m, new=new_id: m.get("state", {}).get("rematch") == new)
        # The other process forwarded its request: it holds neither table itself.
        (elsewhere,) = [s for s in pair if s is not owner]
        assert {table_id, new_id}.isdisjoint(elsewhere.app.state.hub.tables)
        assert owner.app.state.hub.tables[new_id].fence is not None


#: A finished table asked for after it left its owner's memory (``keep_finished_seconds``)
#: runs on whichever process the request reached, on a copy loaded without a lease.
def test_a_late_rematch_asked_at_once_through_two_processes_is_one_table(
    pair: tuple[ServerThread, ServerThread], tmp_path: Path
) -> None:
    """A finished table that left its owner's memory (its lease released), asked for
    through both processes at once: one rematch, both seated."""
    apis = [Api(s.base) for s in pair]
    for round_ in range(4):
        owner = pair[round_ % 2]
        table_id, tokens = Api(owner.base).seat_players("fake", ["Ann", "Bob"], options={"hand": 1})
        with clients(owner.base, table_id, tokens) as players:
            play_first_moves(players)
        left_memory(pair, table_id)
        answers = rematch_at_once(apis, table_id, tokens)
        one_rematch(pair, tmp_path / "shared.db", table_id, answers)


def test_a_late_second_rematch_request_on_another_process_joins_the_owners_table(
    pair: tuple[ServerThread, ServerThread], tmp_path: Path
) -> None:
    """Ann asks for the rematch as soon as the game ends (on the owner); Bob asks after
    the finished table left memory, through the other process: he takes his seat at the
    table the owner holds, and his new token opens it there."""
    owner, other = pair
    table_id, tokens = Api(owner.base).seat_players("fake", ["Ann", "Bob"], options={"hand": 1})
    with clients(owner.base, table_id, tokens) as players:
        play_first_moves(players)
        first = Api(owner.base).http.post(
            f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}
        )
        assert first.status_code == 200, first.text
    left_memory(pair, table_id)
    late = Api(other.base).http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
    # Forwarded to the rematch table's owner, which seats him there (no unfenced copy of
    # either table on the other process).
    one_rematch(pair, tmp_path / "shared.db", table_id, [first, late])


def left_memory(pair: tuple[ServerThread, ServerThread], table_id: str) -> None:
    """Wait until no process holds the finished table (its owner evicted it)."""
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while any(table_id in s.app.state.hub.tables for s in pair):
        assert time.monotonic() < deadline, "the finished table stayed in memory"
        time.sleep(0.05)


def on_loop(server: ServerThread, coro: Any) -> concurrent.futures.Future[Any]:
    """Run ``coro`` on the event loop of ``server`` (as that process would)."""
    loop = server.app.state.cluster._loop
    return asyncio.run_coroutine_threadsafe(coro, loop)


def test_two_processes_each_holding_a_finished_table_make_one_rematch(
    pair: tuple[ServerThread, ServerThread], tmp_path: Path
) -> None:
    """The race behind a rare 500: process A took the finished table back (a late
    rematch), stalled past its lease, and B took it too; both make the rematch at
    once. Storage ties one new table to the old one (a compare-and-set): A's stale
    lease stores nothing and is told the table moved (503 with Retry-After, asked
    again through A it seats Ann at B's table), never a 500 nor a second table."""
    a, b = pair
    table_id, tokens = Api(a.base).seat_players("fake", ["Ann", "Bob"], options={"hand": 1})
    with clients(a.base, table_id, tokens) as players:
        play_first_moves(players)
    left_memory(pair, table_id)
    hub_a, hub_b = a.app.state.hub, b.app.state.hub
    stale = on_loop(a, hub_a._load(table_id)).result(GUARD)
    # A stalls: its lease is no longer renewed and runs out, and it does not hear
    # that B took the table (it still runs its copy under its old fence).
    a.app.state.cluster.let_go(table_id, stale.fence)
    a.app.state.cluster._owned_elsewhere = lambda table_id, owner: None
    db = tmp_path / "shared.db"
    with sqlite3.connect(db) as stored:
        stored.execute("UPDATE table_leases SET expires_at = 0 WHERE table_id = ?", (table_id,))
    taken = on_loop(b, hub_b._load(table_id)).result(GUARD)
    assert taken.fence.token == stale.fence.token + 1
    assert hub_a.tables[table_id] is stale  # both hold it now

    asks = [
        on_loop(server, hub.rematch(table_id, token))
        for server, hub, token in ((a, hub_a, tokens[0]), (b, hub_b, tokens[1]))
    ]
    with pytest.raises(HubError) as refused:
        asks[0].result(GUARD)
    assert (refused.value.status, refused.value.code) == (503, "moved")
    new, seat, _token = asks[1].result(GUARD)
    assert seat == 1
    assert table_id not in hub_a.tables  # A let its stale copy go
    with sqlite3.connect(db) as stored:
        query = "SELECT id FROM tables WHERE rematch_of = ?"
        assert [row[0] for row in stored.execute(query, (table_id,))] == [new.id]
    # Asked again over HTTP through A, Ann is forwarded to B's rematch and seated.
    again = Api(a.base).http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
    assert again.status_code == 200, again.text
    assert (again.json()["table"]["id"], again.json()["seat"]) == (new.id, 0)
    assert Api(a.base).table(new.id)["status"] == "playing"
    with clients(a.base, new.id, [again.json()["token"]]) as (ann,):
        assert ann.hello()["type"] == "welcome"
    with sqlite3.connect(db) as stored:
        assert [row[0] for row in stored.execute(query, (table_id,))] == [new.id]
        (meta,) = stored.execute("SELECT meta FROM tables WHERE id = ?", (table_id,)).fetchone()
    assert json.loads(meta)["rematch_id"] == new.id


def test_an_owners_unexpected_failure_is_a_503_with_its_reason_never_a_bare_500(
    pair: tuple[ServerThread, ServerThread],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A request about a table whose owner fails unexpectedly (a bug, a lost database
    connection): through the other process as through the owner, the client gets a 503
    with Retry-After and a JSON detail it can show (in English and Ukrainian), and the
    owner logs the failure with its traceback."""
    owner, other = pair
    table_id, _tokens = Api(owner.base).seat_players("fake", ["Ann", "Bob"], options={"hand": 1})
    live = owner.app.state.hub.tables[table_id]

    def broken() -> dict[str, Any]:
        raise RuntimeError("the owner failed here")

    monkeypatch.setattr(live.table, "info", broken)
    expected = {
        "code": "owner_failed",
        "message": render("server.owner_failed", {}),
        "message_id": "server.owner_failed",
        "params": {},
    }
    with caplog.at_level(logging.ERROR, logger="cardtable.server.cluster"):
        for server in (other, owner):  # forwarded to the owner, and run there
            answer = Api(server.base).http.get(f"/api/tables/{table_id}")
            assert answer.status_code == 503, answer.text
            assert answer.headers["Retry-After"] == "1"
            assert answer.json() == {"detail": expected}
    assert set(CATALOG["server.owner_failed"]) == set(LANGS)
    logged = [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], RuntimeError)]
    assert len(logged) == 2, [r.getMessage() for r in caplog.records]
    assert all(table_id in r.getMessage() for r in logged)
    assert table_id not in other.app.state.hub.tables  # the other process only forwarded
    monkeypatch.undo()
    assert Api(other.base).http.get(f"/api/tables/{table_id}").status_code == 200


def test_a_rematch_stored_at_once_by_two_writers_is_one_table(tmp_path: Path) -> None:
    """The compare-and-set itself: two processes' storages tie their own new table
    to one finished table at the same moment, many times; each time exactly one table
    is stored, and both writers are told that one."""
    url = f"sqlite:///{tmp_path / 'tie.db'}"
    storages = [Storage(url), Storage(url)]
    game = fake_games()["fake"]

    def table(table_id: str, rematch_of: str | None = None) -> Table:
        return Table.create(
            table_id=table_id,
            game=game,
            options={"hand": 1},
            seed=1,
            bot_levels=[None, None],
            invites=[f"{table_id}-a", f"{table_id}-b"],
            time_control=None,
            rated=False,
            rematch_of=rematch_of,
        )

    try:
        for round_ in range(20):
            old = f"old{round_}"
            storages[0].write(Storage.insert_table(table(old))).result(GUARD)
            start = threading.Barrier(2)

            def tie(i: int, old: str = old, start: threading.Barrier = start) -> Any:
                start.wait()
                write = tie_rematch(old, table(f"{old}-new{i}", rematch_of=old))
                return storages[i].write(write).result(GUARD)

            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                tied = list(pool.map(tie, range(2)))
            assert tied[0] is not None
            assert tied[1] is not None
            assert tied[0].rematch_id == tied[1].rematch_id
            assert tied[0].version == tied[1].version
            stored = storages[1].read(lambda s, old=old: Storage.load(s, old))
            assert stored is not None
            assert stored.row["meta"]["rematch_id"] == tied[0].rematch_id
            assert stored.row["version"] == tied[0].version
            with sqlite3.connect(tmp_path / "tie.db") as db:
                query = "SELECT id FROM tables WHERE rematch_of = ?"
                assert [r[0] for r in db.execute(query, (old,))] == [tied[0].rematch_id]
        assert storages[0].write(tie_rematch("nothing", table("n2"))).result(GUARD) is None
    finally:
        for storage in storages:
            storage.close()
