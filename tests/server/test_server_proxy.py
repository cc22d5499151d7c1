"""The deployment of docs/deploy.md, tested: Debian's HAProxy with the repository's
deploy/haproxy.cfg in front of three server processes on PostgreSQL and Redis
(benchmarks/cluster.py starts them all on loopback). Whole games of Candidate and Spy
(with a bot) are played through the proxy while the owner of live tables is killed
(SIGKILL) and another is stopped (SIGTERM); the clients reconnect through the proxy and
carry on with the same move ids."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from benchmarks.bench_server import choose_move
from benchmarks.cluster import (
    HAPROXY,
    HAPROXY_CONFIG,
    Cluster,
    postgres_available,
    redis_answers,
    render_haproxy,
)
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from cardtable.record import replay

HERE = Path(__file__).parent
REDIS_URL = os.environ.get("CARDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

# Several server processes and HAProxy: one after another with the cluster tests
# (`make test` passes --dist loadgroup).
pytestmark = pytest.mark.xdist_group("server_processes")

needs_services = pytest.mark.skipif(
    not (Path(HAPROXY).exists() and postgres_available() and redis_answers(REDIS_URL)),
    reason="needs haproxy, PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379",
)


def launcher(db: str, port: int, redis: str, prefix: str, instance: str) -> list[str]:
    """One cluster process with fast bots and no pauses (tests/server/server_cluster_launch.py)."""
    script = str(HERE / "server_cluster_launch.py")
    return [sys.executable, script, db, str(port), redis, prefix, instance]


@pytest.mark.skipif(not Path(HAPROXY).exists(), reason="needs Debian's haproxy")
def test_the_repository_config_is_valid_as_written_and_as_rendered(tmp_path: Path) -> None:
    rendered = tmp_path / "haproxy.cfg"
    text = render_haproxy(HAPROXY_CONFIG.read_text(), 18000, [18001, 18002], str(tmp_path / "s"))
    rendered.write_text(text)
    assert "    server s2 127.0.0.1:18002 check\n" in text
    assert "s3" not in text
    for config in (HAPROXY_CONFIG, rendered):
        checked = subprocess.run(
            [HAPROXY, "-c", "-f", str(config)], capture_output=True, text=True, check=False
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr


@dataclass
class Player:
    """A scripted player that reconnects through the proxy whenever its socket closes."""

    base: str
    table_id: str
    game: str
    seat: int
    token: str
    rng: random.Random
    acked: set[str] = field(default_factory=set)
    close_codes: list[int | None] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)  # HTTP statuses of failed upgrades
    final: dict[str, Any] | None = None
    counter: int = 0

    async def play(self, deadline: float) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{self.table_id}"
        in_flight: dict[str, Any] | None = None
        while time.monotonic() < deadline:
            try:
                async with connect(url, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    state = json.loads(await ws.recv())["state"]
                    if in_flight is not None:  # its answer was lost with the old socket
                        await ws.send(json.dumps(in_flight))
                    while time.monotonic() < deadline:
                        if state["status"] == "finished" and in_flight is None:
                            self.final = state
                            return
                        if in_flight is None and state["legal_moves"]:
                            await asyncio.sleep(self.rng.uniform(0.005, 0.03))
                            self.counter += 1
                            in_flight = {
                                "type": "move",
                                "token": self.token,
                                "version": state["version"],
                                "move_id": f"{self.seat}-{self.counter}",
                                "move": choose_move(self.game, state["legal_moves"], self.rng),
                            }
                            await ws.send(json.dumps(in_flight))
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if in_flight is not None and message.get("move_id") == in_flight["move_id"]:
                            if message["type"] == "ack":
                                self.acked.add(in_flight["move_id"])
                            in_flight = None  # ack, or resync/error: not applied
                        if "state" in message:
                            state = message["state"]
            except InvalidStatus as exc:
                # The proxy answers 502 when the process it chose dies (or closes for a
                # hand-over) between accepting the connection and answering the upgrade,
                # and 503 while no process is up: a browser sees a closed socket and tries
                # again, and so does this player. Any other status is a fault.
                if exc.response.status_code not in (502, 503):
                    raise
                self.refused.append(exc.response.status_code)
                await asyncio.sleep(self.rng.uniform(0.05, 0.3))
            except (ConnectionClosed, OSError, TimeoutError) as exc:
                code = exc.rcvd.code if isinstance(exc, ConnectionClosed) and exc.rcvd else None
                self.close_codes.append(code)
                await asyncio.sleep(self.rng.uniform(0.05, 0.3))


def bare(move: str) -> str:
    """A move's text without a seat number in front (records of Spy carry one)."""
    head, _, rest = move.partition(" ")
    return rest if head.isdigit() else move


def owned(cluster: Cluster) -> list[int]:
    """The unfinished tables each process owns now (0 for one that does not answer)."""
    counts = []
    for server in cluster.servers:
        health = server.health()
        counts.append(int(health.get("owned", 0)) if health else 0)
    return counts


@pytest.mark.slow
@needs_services
def test_games_go_on_through_the_proxy_while_processes_are_killed_and_stopped() -> None:
    with Cluster(processes=3, redis_url=REDIS_URL, launch=launcher) as cluster:
        try:
            play_through_kills(cluster)
        except BaseException:
            print(cluster.logs())  # the run's directory goes with the cluster
            raise


def play_through_kills(cluster: Cluster) -> None:
    """The body of the test above, on a started cluster."""
    http = httpx.Client(base_url=cluster.base, timeout=20)
    players: list[Player] = []
    rng = random.Random(15)
    games = [("candidate", {"deals": 1}, 2)] * 3 + [("spy", {"rounds": 1}, 3)] * 3
    made_tables = []  # all made first: the proxy sends each to the next process in turn
    for game, options, size in games:
        seats: list[dict[str, str]] = [{"type": "open"}, {"type": "open"}]
        seats += [{"type": "bot", "level": "easy"}] * (size - 2)
        made = http.post("/api/tables", json={"game": game, "seats": seats, "options": options})
        assert made.status_code == 201, made.text
        made_tables.append((game, made.json()))
    assert max(owned(cluster)) < len(games), owned(cluster)  # spread, not all on one
    for game, answer in made_tables:
        table_id = answer["table"]["id"]
        for invite, name in zip(answer["invites"], ("Petro", "Olha"), strict=False):
            joined = http.post(
                f"/api/tables/{table_id}/join", json={"invite": invite["code"], "name": name}
            )
            assert joined.status_code == 200, joined.text
            players.append(
                Player(
                    cluster.base,
                    table_id,
                    game,
                    invite["seat"],
                    joined.json()["token"],
                    random.Random(rng.random()),
                )
            )
    events: list[str] = []

    def kill_and_stop() -> None:
        # SIGKILL the owner of the most tables; while it restarts and the others take
        # its tables over, SIGTERM the owner of the most tables then; restart both.
        restarts = []
        for pause, signum in ((1.0, signal.SIGKILL), (2.5, signal.SIGTERM)):
            time.sleep(pause)
            counts = owned(cluster)
            victim = max(range(len(counts)), key=counts.__getitem__)
            events.append(f"{signum.name} s{victim + 1} owning {counts[victim]} of {counts}")
            assert counts[victim] > 0, "no live table to take over"
            cluster.kill(victim, signum)
            restart = threading.Thread(target=cluster.restart, args=(victim,))
            restart.start()
            restarts.append(restart)
        for restart in restarts:
            restart.join(60)

    async def run() -> None:
        deadline = time.monotonic() + 120  # about 30 s on a quiet machine
        killer = asyncio.create_task(asyncio.to_thread(kill_and_stop))
        await asyncio.gather(*(p.play(deadline) for p in players))
        await killer

    asyncio.run(run())
    print(events, "failed upgrades:", [p.refused for p in players if p.refused])
    assert len(events) == 2, events
    for player in players:
        assert player.final is not None, f"table {player.table_id} did not finish"
    assert any(c is not None and c == 1012 for p in players for c in p.close_codes), [
        p.close_codes for p in players
    ]
    assert any(p.close_codes for p in players)
    welcomes = asyncio.run(fresh_welcomes(players))
    for table_id in {p.table_id for p in players}:
        record = http.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200, record.text
        stored = record.json()
        moves = [
            bare(m) for part in stored.get("deals", stored.get("rounds")) for m in part["moves"]
        ]
        replayed = replay(stored).summary()
        assert replayed["complete"]
        for player, welcome in zip(players, welcomes, strict=True):
            if player.table_id != table_id:
                continue
            assert player.final is not None
            # The stored record, replayed by whichever process answers now, is what
            # the client saw at the end.
            assert welcome["state"]["view"] == player.final["view"]
            assert welcome["state"]["result"] == player.final["result"]
            assert player.final["result"]["totals"] == replayed["totals"]
            history = welcome["history"]
            assert [bare(h["move"]) for h in history] == moves
            mine = [h for h in history if h["seat"] == player.seat and h["source"] == "player"]
            # Every acknowledged move is in the record, once; nothing else of the seat's.
            assert len(mine) == len(player.acked), (table_id, player.seat)


async def fresh_welcomes(players: list[Player]) -> list[dict[str, Any]]:
    """Each player's seat greeted again through the proxy, after the end."""
    answers = []
    for player in players:
        url = player.base.replace("http", "ws", 1) + f"/ws/tables/{player.table_id}"
        async with connect(url, open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": player.token}))
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    return answers


def relayed_sockets(base: str) -> float:
    """How many table sockets the process at ``base`` relays to another owner now."""
    metrics = httpx.get(f"{base}/metrics", timeout=20).text
    line = next(x for x in metrics.splitlines() if x.startswith("cardtable_relayed_sockets "))
    return float(line.split()[1])


@needs_services
def test_a_socket_that_asks_for_its_route_is_served_by_the_tables_owner() -> None:
    """A socket with ``?route=`` that reaches a process not owning its table is closed
    with 4307 and the owner's route name (its port); asked for that name, the proxy
    sends it to the owner, which serves it (nothing relayed); a process asked for the
    owner's name by a client that did not get there relays it: never a loop."""
    with Cluster(processes=2, redis_url=REDIS_URL, launch=launcher) as cluster:
        try:
            http = httpx.Client(base_url=cluster.base, timeout=20)
            seats = [{"type": "open"}, {"type": "bot", "level": "easy"}]
            made = http.post(
                "/api/tables", json={"game": "candidate", "seats": seats, "options": {"deals": 1}}
            )
            assert made.status_code == 201, made.text
            table_id = made.json()["table"]["id"]
            code = made.json()["invites"][0]["code"]
            joined = http.post(f"/api/tables/{table_id}/join", json={"invite": code, "name": "Ira"})
            token = joined.json()["token"]
            counts = owned(cluster)
            assert sorted(counts) == [0, 1], counts
            owner = cluster.servers[counts.index(1)]
            other = cluster.servers[counts.index(0)]
            asyncio.run(
                routed(cluster.base, owner.base, other.base, str(owner.port), table_id, token)
            )
        except BaseException:
            print(cluster.logs())
            raise


async def routed(proxy: str, owner: str, other: str, route: str, table_id: str, token: str) -> None:
    """The body of the test above: the sockets, by where they go."""
    path = f"/ws/tables/{table_id}"
    hello = json.dumps({"type": "hello", "token": token})

    def ws(base: str) -> str:
        return base.replace("http", "ws", 1) + path

    async def welcome(url: str) -> Any:
        socket = await connect(url, open_timeout=20)
        await socket.send(hello)
        assert json.loads(await asyncio.wait_for(socket.recv(), 20))["type"] == "welcome"
        return socket

    # At the process that does not own the table, asking for a route: sent to the owner.
    for asked in ("", "8001x"):
        async with connect(f"{ws(other)}?route={asked}", open_timeout=20) as socket:
            with pytest.raises(ConnectionClosed) as closed:  # at once, before any hello
                await asyncio.wait_for(socket.recv(), 20)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4307, route)
    # Asking that process for the owner's name, or for no route at all: relayed there.
    relayed = [await welcome(f"{ws(other)}?route={route}"), await welcome(ws(other))]
    assert relayed_sockets(other) == 2
    for socket in relayed:
        await socket.close()
    # Through the proxy with the owner's name: every socket on the owner, none relayed
    # (with the proxy's leastconn alone, about half would land on the other process).
    sockets = [await welcome(f"{ws(proxy)}?route={route}") for _ in range(6)]
    try:
        assert relayed_sockets(other) == relayed_sockets(owner) == 0
    finally:
        for socket in sockets:
            await socket.close()
