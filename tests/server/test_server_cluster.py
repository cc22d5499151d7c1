"""Several server processes sharing tables through PostgreSQL and Redis (server/cluster.py).

Real ``cardtable serve --redis`` processes (the same :func:`cardtable.server.serve`, on
loopback ports, a fresh PostgreSQL database and a Redis key prefix per test) and
scripted players over real WebSockets, each connecting to any process and reconnecting
to any other when its connection is lost or closed with 1012, resending its unanswered
move with the same id. Skipped, saying why, only when PostgreSQL or Redis does not
answer.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_cluster import REDIS_URL, Node, Player, fresh_database, services_missing
from server_helpers import Client
from sqlalchemy import create_engine, text

from cardtable.games.registry import find_game
from cardtable.server.cluster import preferred
from cardtable.server.storage import Storage, database_url
from cardtable.table import Status

MISSING = services_missing()
pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    # Three server processes each: these tests (and the proxy's) run one after another
    # on one test worker (`make test` passes --dist loadgroup), not side by side.
    pytest.mark.xdist_group("server_processes"),
]


@pytest.fixture
def cluster_db() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def start_nodes(db: str, count: int, **options: Any) -> list[Node]:
    """``count`` processes on one database and one Redis prefix, each started with
    ``options`` (:class:`Node`: its lease, its orphan wait)."""
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    first = Node(db, prefix, "n0-0", **options).start()  # migrates the fresh database
    others = [Node(db, prefix, f"n{i}-0", **options).start(wait=False) for i in range(1, count)]
    deadline = time.monotonic() + 120  # a guard against a hang, not a speed goal
    for node in others:
        while not node.healthy():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{node.name} did not start")
            time.sleep(0.05)
    return [first, *others]


def stop_all(nodes: list[Node]) -> None:
    """Stop every process; print its cluster log first (pytest shows what a test printed
    only when it fails: who took, released or dropped which table, and when)."""
    for node in nodes:
        node.stop()
        print(node.log_tail())
        node.remove_logs()


def live_bases(nodes: list[Node]) -> list[str]:
    return [n.base for n in nodes if n.proc is not None and n.proc.poll() is None]


def post(nodes: list[Node], rng: random.Random, path: str, body: dict[str, Any]) -> httpx.Response:
    """POST to any process that answers (one may be starting again after a kill, or
    its table's owner may have just died: 503 until another took the table over)."""
    deadline = time.monotonic() + 120  # a guard against a hang, not a speed goal
    while True:
        bases = live_bases(nodes)
        try:
            response = httpx.post(rng.choice(bases) + path, json=body, timeout=5)
        except httpx.HTTPError:
            response = None
        if response is not None and response.status_code != 503:
            return response
        assert time.monotonic() < deadline, "no process answered"
        time.sleep(0.1)


def new_table(
    nodes: list[Node], game: str, rng: random.Random, length: int = 2
) -> tuple[str, list[Player]]:
    """A table created on one process and its seats taken through others (the join is
    forwarded to the owner), of ``length`` deals or rounds."""
    if game == "candidate":
        seats: list[dict[str, Any]] = [{"type": "open"}, {"type": "open"}]
        options = {"deals": length}
    else:
        seats = [{"type": "open"}, {"type": "open"}, {"type": "bot", "level": "easy"}]
        options = {"rounds": 2 * length}
    created = post(nodes, rng, "/api/tables", {"game": game, "seats": seats, "options": options})
    assert created.status_code == 201, created.text
    body = created.json()
    table_id = body["table"]["id"]
    players = []
    for invite in body["invites"]:
        joined = post(
            nodes,
            rng,
            f"/api/tables/{table_id}/join",
            {"invite": invite["code"], "name": f"P{invite['seat']}"},
        )
        assert joined.status_code == 200, joined.text
        seated = joined.json()
        players.append(
            Player(
                table_id,
                seated["seat"],
                seated["token"],
                lambda: live_bases(nodes),
                random.Random(rng.random()),
            )
        )
    return table_id, players


def owners(engine: Any, finished: bool = False) -> dict[str, str]:
    """Unfinished table (or any, with ``finished``) -> the process holding its lease now."""
    which = "" if finished else "t.status != 'finished' AND "
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT l.table_id, l.owner FROM table_leases l JOIN tables t "
                f"ON t.id = l.table_id WHERE {which}l.owner IS NOT NULL "
                "AND l.expires_at > :now"
            ),
            {"now": time.time()},
        ).all()
    return {row[0]: row[1] for row in rows}


def leases(engine: Any) -> dict[str, tuple[str, str | None]]:
    """Every table -> its status and the process holding its lease now (None: nobody)."""
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT t.id, t.status, l.owner, l.expires_at FROM tables t "
                "LEFT JOIN table_leases l ON t.id = l.table_id"
            )
        ).all()
    now = time.time()
    return {
        row[0]: (row[1], row[2] if row[3] is not None and row[3] > now else None) for row in rows
    }


def stuck(engine: Any, tables: dict[str, list[Player]], ids: list[str]) -> list[Any]:
    """What a table still playing at the end looks like, to say why."""
    rows = leases(engine)
    return [
        (
            t,
            rows.get(t),
            [
                (
                    p.seat,
                    p.greeted,
                    p.pending,
                    p.closes[-3:],
                    p.state and (p.state["version"], p.state["status"], p.state["to_move"]),
                )
                for p in tables[t]
            ],
        )
        for t in ids
    ]


def verify(db: str, tables: dict[str, list[Player]]) -> int:
    """Every table finished; every acknowledged move stored once at its version; no move
    id stored twice; every move a player sent was answered; each player's last view is
    the view of the stored record replayed. Returns the moves stored."""
    storage = Storage(db)
    total = 0
    try:
        for table_id, players in tables.items():
            stored = storage.read(lambda s, t=table_id: Storage.load(s, t))
            assert stored is not None
            row = stored.row
            assert row["status"] == Status.FINISHED.value, table_id
            ids = [(m.seat, m.move_id) for m in stored.moves if m.move_id is not None]
            assert len(ids) == len(set(ids)), "a move id stored twice"
            by_id = {(m.seat, m.move_id): m for m in stored.moves}
            total += len(stored.moves)
            table = stored.restore(find_game(row["game"]), now=0.0)
            for player in players:
                assert player.pending is None
                assert set(player.sent) == player.answered, "a move was never answered"
                for move_id, (version, move) in player.acked.items():
                    entry = by_id.get((player.seat, move_id))
                    assert entry is not None, f"acknowledged move {move_id} not stored"
                    assert (entry.version, entry.move) == (version, move)
                assert player.state is not None
                # It saw the last move (presence changes after it may bump the version).
                assert player.state["version"] >= stored.moves[-1].version
                replayed = json.loads(json.dumps(table.snapshot(player.seat, 0.0)))
                assert player.state["view"] == replayed["view"]
                assert player.state["result"] == replayed["result"]
    finally:
        storage.close()
    return total


#: SIGKILLs in the kill test: a fixed number, however slowly the machine runs.
KILLS = 20

#: A guard against a hang, not a speed goal: the kill test fails only when nothing at
#: all happened (no move acknowledged, no kill, no takeover done) for this long.
STALL_SECONDS = 180.0


@pytest.mark.slow
def test_killed_owners_tables_go_on_elsewhere_with_no_move_lost_or_doubled(
    cluster_db: str,
) -> None:
    """Three processes; 20 times, at random moments of the play (after a random number
    of acknowledged moves), SIGKILL a process that owns live Candidate and Spy tables:
    every table goes on on another process; every acknowledged move is stored, none
    twice, and each player's final view is the stored record replayed. A busy machine
    makes it slower, never makes it fail: the kills are counted, not timed."""
    rng = random.Random(15)
    nodes = start_nodes(cluster_db, 3)
    engine = create_engine(database_url(cluster_db))
    tables: dict[str, list[Player]] = {}
    live: list[str] = []
    takeovers: list[float] = []
    waiting: list[tuple[float, str]] = []  # kill time, victim
    lock = threading.Lock()
    stop = threading.Event()

    def watch() -> None:
        """Time each takeover (reported, not judged): from the SIGKILL until every
        unfinished table the victim held has a live lease of another process."""
        while not stop.wait(0.02):
            with lock:
                if not waiting:
                    continue
            rows = leases(engine)
            now = time.monotonic()
            with lock:
                for item in list(waiting):
                    killed_at, victim = item
                    if not any(
                        status != "finished" and owner in (None, victim)
                        for status, owner in rows.values()
                    ):
                        takeovers.append(now - killed_at)
                        waiting.remove(item)

    def acknowledged() -> int:
        return sum(len(p.acked) for ps in tables.values() for p in ps)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    kills = 0
    try:
        for index in range(6):
            table_id, players = new_table(nodes, ("candidate", "spy")[index % 2], rng)
            tables[table_id] = players
            live.append(table_id)
        next_kill = acknowledged() + rng.randint(2, 8)
        progress: tuple[int, ...] = ()
        moved = time.monotonic()
        while True:
            for table_id in list(live):
                for player in tables[table_id]:
                    player.step()
                if all(p.finished and p.pending is None for p in tables[table_id]):
                    live.remove(table_id)
                    if kills < KILLS:  # keep six tables going while processes die
                        game = rng.choice(("candidate", "spy"))
                        new_id, players = new_table(nodes, game, rng)
                        tables[new_id] = players
                        live.append(new_id)
            if kills < KILLS and acknowledged() >= next_kill:
                held = {o for status, o in leases(engine).values() if status != "finished"}
                up = [n for n in nodes if n.healthy()]
                # The owner of live tables, while another process serves to take them.
                targets = [n for n in up if n.name in held]
                if targets and len(up) >= 2:
                    victim = rng.choice(targets)
                    victim.kill()
                    with lock:
                        waiting.append((time.monotonic(), victim.name))
                    kills += 1
                    next_kill = acknowledged() + rng.randint(3, 12)
                    head, _, count = victim.name.rpartition("-")
                    victim.name = f"{head}-{int(count) + 1}"  # a new process, a new id
                    victim.start(wait=False)
            with lock:
                settled = not waiting
                done = len(takeovers)
            if kills >= KILLS and not live and settled:
                break
            now = (acknowledged(), kills, done, len(tables) - len(live))
            if now != progress:
                progress, moved = now, time.monotonic()
            assert time.monotonic() - moved < STALL_SECONDS, (
                f"nothing happened for {STALL_SECONDS} s after {kills} kills: "
                f"{stuck(engine, tables, live)}"
            )
            time.sleep(0.005)
        assert kills == KILLS
        moves = verify(cluster_db, tables)
        reconnects = sum(p.reconnects for ps in tables.values() for p in ps)
        print(
            f"\n{len(tables)} tables, {moves} moves, {kills} kills, {reconnects} reconnects; "
            f"takeover after SIGKILL: median {statistics.median(takeovers):.2f} s, "
            f"max {max(takeovers):.2f} s (lease 1.5 s, renewal 0.25 s; load average "
            f"{os.getloadavg()[0]:.1f})"
        )
        assert len(takeovers) == kills  # every victim's tables went on elsewhere
    finally:
        stop.set()
        for ps in tables.values():
            for player in ps:
                player.close()
        stop_all(nodes)
        engine.dispose()


#: The lease of the SIGTERM test: a hand-over that waited for it to run out would take
#: a minute, however fast the machine.
HANDOVER_LEASE = 60.0

#: What a stopping process logs for each table it hands over (``runtime.Hub.hand_over``).
HANDED = re.compile(r"handed table (\S+) \(token (\d+)\) to (\S+)")


def handed_over(node: Node) -> dict[str, str]:
    """Table -> the successor the last run of ``node`` handed it to, from its log."""
    text = node.logs[-1].read_text(errors="replace")
    return {m.group(1): m.group(3) for m in HANDED.finditer(text)}


def test_sigterm_hands_tables_over_and_no_client_loses_a_move(cluster_db: str) -> None:
    """A rolling restart: each of three processes in turn gets SIGTERM while tables play
    on it; each of its tables is written over to the successor it names (never left to
    lapse: with a minute's lease, the new owner holds it long before the old lease could
    have run out), its sockets close with 1012, it exits cleanly, and every move goes
    on."""
    rng = random.Random(16)
    nodes = start_nodes(cluster_db, 3, lease=HANDOVER_LEASE)
    engine = create_engine(database_url(cluster_db))
    tables: dict[str, list[Player]] = {}
    handovers: list[float] = []
    handed = 0
    try:
        for index in range(4):
            table_id, players = new_table(nodes, ("candidate", "spy")[index % 2], rng, 3)
            tables[table_id] = players
        everyone = [p for ps in tables.values() for p in ps]

        def play(seconds: float) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                for player in everyone:
                    player.step()
                time.sleep(0.005)

        play(1.0)
        for node in nodes:
            mine = {t for t, o in owners(engine, finished=True).items() if o == node.name}
            node.signal(signal.SIGTERM)
            stopped = time.monotonic()
            while True:  # the players catch up afterwards (their moves wait)
                held = owners(engine, finished=True)
                if all(held.get(t) not in (None, node.name) for t in mine):
                    break
                # Half the lease: a bound only a hand-over that waited for the lease
                # to run out must exceed, not a speed goal.
                if time.monotonic() - stopped > HANDOVER_LEASE / 2:
                    with engine.connect() as connection:
                        rows = connection.execute(text("SELECT * FROM table_leases")).all()
                    health = [
                        (n.name, n.proc.poll() if n.proc else None, n.healthy()) for n in nodes
                    ]
                    raise AssertionError(
                        f"not handed over in time: {node.name} {mine} {rows} {health} {time.time()}"
                    )
                time.sleep(0.01)
            handovers.append(time.monotonic() - stopped)
            assert node.proc is not None
            while node.proc.poll() is None:
                for player in everyone:
                    player.step()
                time.sleep(0.005)
                if time.monotonic() - stopped > 30:
                    node.signal(signal.SIGUSR1)  # it prints where it is stuck
                    time.sleep(1.0)
                    raise AssertionError(f"{node.name} did not exit within 30 s of SIGTERM")
            # Handed over and closed cleanly; uvicorn then re-raises the SIGTERM.
            assert node.proc.returncode in (0, -signal.SIGTERM)
            # Each table went to the successor it named, not to whoever claimed it.
            heirs = handed_over(node)
            assert {t: heirs.get(t) for t in mine} == {t: held[t] for t in mine}, heirs
            handed += len(mine)
            head, _, count = node.name.rpartition("-")
            node.name = f"{head}-{int(count) + 1}"
            node.start(wait=False)
            while not node.healthy():  # the next one stops once this one serves
                assert time.monotonic() - stopped < 60
                play(0.1)
            play(0.5)
        end = time.monotonic() + 120
        while not all(p.finished and p.pending is None for p in everyone):
            assert time.monotonic() < end, "tables did not finish: " + "; ".join(
                f"{p.table_id}/{p.seat}: {p.state and p.state['status']} v"
                f"{p.state and p.state['version']} pending={p.pending and p.pending['move_id']} "
                f"greeted={p.greeted} open={p.ws is not None} closes={p.closes}"
                for p in everyone
                if not (p.finished and p.pending is None)
            )
            for player in everyone:
                player.step()
            time.sleep(0.005)
        verify(cluster_db, tables)
        closes = [code for p in everyone for code in p.closes]
        assert closes
        assert set(closes) <= {1012}, closes
        assert handed > 0  # some process stopped while holding tables (one always does)
        print(
            f"\n{handed} tables handed over; after SIGTERM: "
            f"{', '.join(f'{h:.2f} s' for h in handovers)}"
        )
    finally:
        for player in (p for ps in tables.values() for p in ps):
            player.close()
        stop_all(nodes)
        engine.dispose()


def test_chat_and_each_seats_view_cross_processes(cluster_db: str) -> None:
    """Two processes: a table owned by one, a player and a spectator on the other. The
    players' chat reaches everyone wherever they are connected, the spectators' chat
    only spectators; each connection gets its own seat's view from the owner (the other
    seat's hand never in it)."""
    nodes = start_nodes(cluster_db, 2)
    owner, other = nodes
    opened: list[Client] = []
    try:
        created = httpx.post(
            owner.base + "/api/tables",
            json={"game": "candidate", "seats": [{"type": "open"}, {"type": "open"}]},
            timeout=10,
        ).json()
        table_id = created["table"]["id"]
        tokens = [
            httpx.post(
                other.base + f"/api/tables/{table_id}/join",
                json={"invite": invite["code"], "name": name},
                timeout=10,
            ).json()["token"]
            for invite, name in zip(created["invites"], ["Ann", "Bob"], strict=True)
        ]
        assert httpx.get(other.base + "/api/health").json()["owned"] == 0
        ann = Client(owner.base, table_id, tokens[0])
        bob = Client(other.base, table_id, tokens[1])
        eve = Client(other.base, table_id, None)
        joe = Client(owner.base, table_id, None)
        opened = [ann, bob, eve, joe]
        for client in opened:
            assert client.hello()["type"] == "welcome"
        bob.send({"type": "chat", "text": "hi from the other process"})
        eve.send({"type": "chat", "text": "from the rail"})
        for client in opened:
            client.drain(0.3)
        lines = {
            name: [m["line"]["text"] for m in c.received if m["type"] == "chat"]
            for name, c in (("ann", ann), ("bob", bob), ("eve", eve), ("joe", joe))
        }
        assert lines["ann"] == ["hi from the other process"]
        assert lines["bob"] == ["hi from the other process"]
        assert sorted(lines["eve"]) == sorted(lines["joe"])
        assert set(lines["eve"]) == {"hi from the other process", "from the rail"}
        # Each connection gets its own seat's view, relayed or not; a spectator no hand.
        views = [c.state["view"] if c.state else None for c in opened]
        assert [v["viewer"] if v else None for v in views] == [0, 1, None, None]
        assert views[2] is not None
        assert views[2]["hand"] is None
    finally:
        for client in opened:
            client.close()
        stop_all(nodes)


#: Renewal periods (a quarter second each) an orphan waits for its preferred process in
#: the spreading test: longer than the test may run, so no other process claims one.
PATIENT = 1_000_000


def test_a_dead_processs_tables_spread_over_the_others(cluster_db: str) -> None:
    """Twelve tables made on one of three processes, which is then killed: once its
    leases have run out, each table is taken by the survivor cluster.preferred names for
    it (rendezvous hashing spreads them), not by the first to notice it. The leases
    are a minute long and made to run out at once by hand, and no process claims
    another's preferred table however long it takes: a busy machine changes nothing."""
    nodes = start_nodes(cluster_db, 3, lease=60.0, orphan_wait=PATIENT)
    engine = create_engine(database_url(cluster_db))
    victim = nodes[0]
    try:
        ids = [
            httpx.post(
                victim.base + "/api/tables",
                json={"game": "candidate", "seats": [{"type": "open"}, {"type": "open"}]},
                timeout=10,
            ).json()["table"]["id"]
            for _ in range(12)
        ]
        assert set(owners(engine).values()) == {victim.name}
        victim.kill()
        killed = time.monotonic()
        # Its lease runs out now (as a minute later), and so does its membership.
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        client.zrem(f"{victim.prefix}members", victim.name)
        client.delete(f"{victim.prefix}alive:{victim.name}")
        client.close()
        with engine.begin() as connection:
            connection.execute(
                text("UPDATE table_leases SET expires_at = 0 WHERE owner = :victim"),
                {"victim": victim.name},
            )
        while True:
            held = owners(engine)
            if all(held.get(t) not in (None, victim.name) for t in ids):
                break
            assert time.monotonic() - killed < 120, f"not all taken over: {held}"  # a guard
            time.sleep(0.05)
        taken = {name: sum(1 for t in ids if held[t] == name) for name in set(held.values())}
        survivors = [nodes[1].name, nodes[2].name]
        print(f"taken in {time.monotonic() - killed:.2f} s: {taken}")
        # Each by the process preferred names (a first-come claim would match about half).
        assert {t: held[t] for t in ids} == {t: preferred(t, survivors) for t in ids}, taken
    finally:
        stop_all(nodes)
        engine.dispose()
