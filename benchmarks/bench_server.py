"""Load benchmark of the play server, on loopback only, bounded in time.

``python -m benchmarks server`` (or ``python -m benchmarks.bench_server --help``) starts
``cardtable serve`` in a subprocess on a free loopback port with a fresh SQLite file, then
runs, from this process, N tables of scripted WebSocket clients:

- Candidate tables: two scripted clients each, moving after a think time;
- Spy tables: two scripted clients and one bot each, racing.

It measures, side by side:

- the *server's own time per move*, measured inside the server process
  (``CARDTABLE_TIME_MOVES=1``, read from ``GET /api/timing``): from the move message
  read off its WebSocket to the last message it caused (the answer and every update)
  written to its socket, storing the move included;
- the *end-to-end latency*, measured by the clients: from a client sending a move to the
  other player receiving the update for it (the server's time, plus the network stack
  and the clients' own event loop);
- the CPU the server got: its CPU time (``server_cpu_percent``, of one core, bot
  worker processes included) and the time its threads were ready to run but waited
  for a CPU (``server_cpu_waited_percent``, from ``/proc/<pid>/task/*/schedstat``), with
  the machine's load average. On a busy machine the waiting share explains the part
  of both latencies that is not the server's work.

It also counts errors (error messages, resyncs, failed connections) and memory, stops
by itself after ``--seconds`` and prints one report.

``--processes N`` measures several processes instead (issue 15, docs/deploy.md): in one
run, first 1 process and then N, each behind Debian's HAProxy with deploy/haproxy.cfg,
on a fresh PostgreSQL database and a private ``redis-server`` (benchmarks/cluster.py),
with the same tables and clients *per process* (N times as many in all for N). Clients
connect through the proxy, which spreads the sockets over the processes, so most of a
table's clients sit on processes other than its owner and their moves and updates are
forwarded through Redis. Each run reports the figures above summed over its processes
(CPU of every server process and its bot workers, and of Redis, from ``/proc``), the
server-side time per move of each process, and the share of the committed moves each
process carried (``moves`` of each one's ``/api/health``). The last lines compare: the
CPU time per committed move, servers and Redis together, with N processes ÷ with 1
(what decides how N processes scale on a machine with N free cores; goal ≤ 1.3).
``--rounds R`` repeats the pair R times, the order turning each round (1 then N, N then
1, …), and judges the median of the rounds' own ratios: the CPU a move costs moves by a
fifth from minute to minute on a shared machine, so one pair alone can mislead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks.cluster import descendants, kill_left
from cardtable.server.ownership import GO_TO_OWNER

SPY_PREFERENCE = ("call", "place points", "place waste", "open points", "turn")


@dataclass
class Stats:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    resyncs: int = 0
    connect_failures: int = 0
    finished_tables: int = 0
    #: Sockets the server sent on to their table's owner (close 4307, ``?route=``).
    sent_to_owner: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)


class SetupError(Exception):
    """A table could not be made or joined: what failed and how (counted by kind)."""


@dataclass
class TableRun:
    """One benchmark table: its id, the clients' tokens and the move in flight."""

    table_id: str
    game: str
    tokens: list[str]
    #: (seat, move text) -> send time, for moves not yet seen by another player.
    pending: dict[tuple[int, str], float] = field(default_factory=dict)


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (the server and its bot worker processes)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                found += process_tree(int(child))
    return found


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its descendants (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def proc_rss_mib(pid: int) -> float:
    """Resident memory of a process and its descendants in MiB (Linux /proc)."""
    total = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def proc_wait_seconds(pid: int) -> float:
    """Seconds the threads of a process and its descendants were ready to run but
    waited for a CPU (``/proc/<pid>/task/<tid>/schedstat``, Linux; 0 if unavailable)."""
    total = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{member}/task").iterdir():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def choose_move(game: str, legal: list[str], rng: random.Random) -> str:
    """A scripted player: random in Candidate, simple preferences in Spy."""
    if game == "spy":
        for prefix in SPY_PREFERENCE:
            for move in legal:
                if move.split(" ", 1)[1].startswith(prefix):
                    return move
    return legal[rng.randrange(len(legal))]


@dataclass
class Phase:
    """Start line shared by every client: all connect and say hello, then all go."""

    clients: int
    ready: int = 0
    all_ready: asyncio.Event = field(default_factory=asyncio.Event)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    stop_at: float = 0.0

    def arrived(self) -> None:
        self.ready += 1
        if self.ready >= self.clients:
            self.all_ready.set()


async def open_socket(
    base: str, table_id: str, token: str, routes: bool, stats: Stats
) -> tuple[ClientConnection, dict[str, Any]]:
    """A table's socket after its ``welcome``. With ``routes``, as the web client: ask
    for the owner's route name (``?route=``, empty at first) and, sent on by a close
    4307, connect again with the name it gives (docs/protocol.md, "Reconnecting")."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    route = ""
    while True:
        ws = await connect(
            f"{url}?route={quote(route)}" if routes else url, max_size=2**22, open_timeout=60
        )
        try:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
        except ConnectionClosed as exc:
            sent_on = exc.rcvd is not None and exc.rcvd.code == GO_TO_OWNER
            if not (routes and sent_on and exc.rcvd and exc.rcvd.reason != route):
                raise
            route = exc.rcvd.reason
            stats.sent_to_owner += 1
            continue
        assert welcome["type"] == "welcome", welcome
        return ws, welcome


async def client(
    base: str,
    run: TableRun,
    seat: int,
    stats: Stats,
    phase: Phase,
    think: float,
    rng: random.Random,
    routes: bool = True,
) -> None:
    """One scripted player: hello, then move whenever it may, after a think time.

    It keeps at most one move in flight (sent, not yet answered), as a real client does.
    """
    token = run.tokens[seat]
    try:
        ws, welcome = await open_socket(base, run.table_id, token, routes, stats)
    except Exception as exc:
        stats.connect_failures += 1
        kind = f"connect: {type(exc).__name__}"
        stats.error_codes[kind] = stats.error_codes.get(kind, 0) + 1
        phase.arrived()
        return
    phase.arrived()
    await phase.go.wait()
    counter = 0
    in_flight: str | None = None
    pending_move: asyncio.Task[None] | None = None
    state: dict[str, Any] | None = welcome["state"]

    async def move_later(version: int, legal: list[str]) -> None:
        nonlocal counter, in_flight
        await asyncio.sleep(think * (0.5 + rng.random()))
        if time.monotonic() >= phase.stop_at:
            return
        move = choose_move(run.game, legal, rng)
        counter += 1
        in_flight = f"{seat}-{counter}"
        run.pending[(seat, move)] = time.perf_counter()
        message = {"type": "move", "token": token, "version": version}
        message.update({"move_id": in_flight, "move": move})
        await ws.send(json.dumps(message))

    def maybe_move() -> None:
        nonlocal pending_move
        if state is None or state["status"] != "playing" or not state["legal_moves"]:
            return
        if in_flight is None and (pending_move is None or pending_move.done()):
            pending_move = asyncio.create_task(move_later(state["version"], state["legal_moves"]))

    try:
        maybe_move()
        while time.monotonic() < phase.stop_at:
            try:
                left = max(0.01, phase.stop_at - time.monotonic())
                text = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                break
            message = json.loads(text)
            message_type = message["type"]
            if message_type in ("ack", "resync", "error") and message.get("move_id") == in_flight:
                in_flight = None
            if message_type == "error":
                stats.errors += 1
                code = message["code"]
                stats.error_codes[code] = stats.error_codes.get(code, 0) + 1
            elif message_type == "resync":
                stats.resyncs += 1
            elif message_type == "update":
                event = message["event"]
                if event["type"] == "move" and event["seat"] != seat:
                    sent = run.pending.pop((event["seat"], event["move"]), None)
                    if sent is not None:
                        stats.latencies.append(time.perf_counter() - sent)
                        stats.moves += 1
            if "state" in message:
                state = message["state"]
            if state is not None and state["status"] == "finished":
                if seat == 0:
                    stats.finished_tables += 1
                break
            maybe_move()
    except Exception as exc:
        stats.errors += 1
        kind = f"connection: {type(exc).__name__}"
        stats.error_codes[kind] = stats.error_codes.get(kind, 0) + 1
    finally:
        if pending_move is not None:
            pending_move.cancel()
        with contextlib.suppress(Exception):
            await ws.close()


@dataclass
class Target:
    """What the clients load: ``base`` (a server, or the proxy in front of several) and the
    server processes behind it (name, own address, PID), with Redis's and the proxy's PIDs
    when they are measured."""

    base: str
    servers: list[tuple[str, str, int]]
    redis_pid: int | None = None
    proxy_pid: int | None = None
    #: Clients ask for their table's owner (``?route=``) as the web client does; off,
    #: every socket stays where the proxy put it (relayed when that is not the owner).
    routes: bool = True


def own_cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of one process alone (0 for None or a gone one)."""
    if pid is None:
        return 0.0
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


async def committed_moves(http: httpx.AsyncClient, target: Target) -> list[int | None]:
    """The moves each server process has committed (``moves`` of its ``/api/health``;
    None where the server does not count them)."""
    counts: list[int | None] = []
    for _, base, _ in target.servers:
        health = (await http.get(f"{base}/api/health")).json()
        counts.append(health.get("moves"))
    return counts


def percent(part: float, whole: float) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


async def run_load(
    target: Target,
    candidate_tables: int,
    spy_tables: int,
    seconds: float,
    think: float,
    bot_level: str = "easy",
    seen: Stats | None = None,
    started_event: asyncio.Event | None = None,
    stop_at: list[float] | None = None,
) -> dict[str, Any]:
    """Create the tables, run the clients for ``seconds`` and measure. ``seen`` gets
    what the clients saw as they see it (a caller reports it should this fail);
    ``started_event`` is set when the clients start playing and ``stop_at[0]`` then holds
    when they stop (``time.monotonic``), for load run beside them."""
    base = target.base
    pids = [pid for _, _, pid in target.servers]
    rng = random.Random(1)
    rss_before = sum(proc_rss_mib(pid) for pid in pids)
    runs: list[TableRun] = []
    #: Tables that could not be made or joined, by what failed ("join: HTTP 404").
    setup_errors: dict[str, int] = {}
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def post(path: str, body: dict[str, Any], what: str) -> dict[str, Any]:
            """POST and its JSON; :class:`SetupError` naming ``what`` and the status."""
            for attempt in range(5):  # the listen queue may overflow in the first burst
                try:
                    response = await http.post(path, json=body)
                except httpx.TransportError:
                    await asyncio.sleep(0.2 * (attempt + 1))
                    continue
                if response.status_code == 503 and attempt < 4:  # busy or moving: as told
                    await asyncio.sleep(float(response.headers.get("retry-after", "1")))
                    continue
                if response.status_code >= 400:
                    raise SetupError(f"{what}: HTTP {response.status_code}")
                return response.json()  # type: ignore[no-any-return]
            raise SetupError(f"{what}: no answer")

        async def make(
            game: str, seats: list[dict[str, str]], options: dict[str, Any]
        ) -> TableRun | None:
            """A table with every open seat joined, or None (the error counted by kind)."""
            try:
                created = await post(
                    "/api/tables", {"game": game, "seats": seats, "options": options}, "create"
                )
                table_id = created["table"]["id"]
                tokens = []
                for invite in created["invites"]:
                    joined = await post(
                        f"/api/tables/{table_id}/join",
                        {"invite": invite["code"], "name": f"p{len(runs)}-{invite['seat']}"},
                        "join",
                    )
                    tokens.append(joined["token"])
            except (SetupError, httpx.HTTPError, KeyError, ValueError) as exc:
                kind = str(exc) if isinstance(exc, SetupError) else type(exc).__name__
                setup_errors[kind] = setup_errors.get(kind, 0) + 1
                return None
            return TableRun(table_id, game, tokens)

        open_seat = {"type": "open"}
        jobs = [
            make("candidate", [open_seat, open_seat], {"deals": 12})
            for _ in range(candidate_tables)
        ]
        jobs += [
            make("spy", [open_seat, open_seat, {"type": "bot", "level": bot_level}], {"rounds": 5})
            for _ in range(spy_tables)
        ]
        for start in range(0, len(jobs), 50):
            made = await asyncio.gather(*jobs[start : start + 50])
            runs.extend(run for run in made if run is not None)
    stats = seen if seen is not None else Stats()
    stats.error_codes.update(setup_errors)
    stats.errors += sum(setup_errors.values())
    clients = sum(len(run.tokens) for run in runs)
    phase = Phase(clients)
    tasks = [
        asyncio.create_task(
            client(base, run, seat, stats, phase, think, random.Random(rng.random()), target.routes)
        )
        for run in runs
        for seat in range(len(run.tokens))
    ]
    with contextlib.suppress(TimeoutError):  # those not connected by then are counted
        await asyncio.wait_for(phase.all_ready.wait(), timeout=120)
    async with httpx.AsyncClient(timeout=60) as http:
        moves_before = await committed_moves(http, target)
    cpu_each_before = [proc_cpu_seconds(pid) for pid in pids]
    redis_before = own_cpu_seconds(target.redis_pid)
    proxy_before = own_cpu_seconds(target.proxy_pid)
    wait_before = sum(proc_wait_seconds(pid) for pid in pids)
    own_before = sum(os.times()[:2])
    started = time.monotonic()
    phase.stop_at = started + seconds
    if stop_at is not None:
        stop_at[0] = phase.stop_at
    phase.go.set()
    if started_event is not None:
        started_event.set()
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    cpu_each = [proc_cpu_seconds(pid) - b for pid, b in zip(pids, cpu_each_before, strict=True)]
    cpu = sum(cpu_each)
    redis_cpu = own_cpu_seconds(target.redis_pid) - redis_before
    proxy_cpu = own_cpu_seconds(target.proxy_pid) - proxy_before
    waited = sum(proc_wait_seconds(pid) for pid in pids) - wait_before
    async with httpx.AsyncClient(timeout=60) as http:
        moves_after = await committed_moves(http, target)
        timings = [(await http.get(f"{b}/api/timing")).json() for _, b, _ in target.servers]
    own = sum(os.times()[:2]) - own_before
    rss_after = sum(proc_rss_mib(pid) for pid in pids)
    lat = sorted(stats.latencies)
    tables = len(runs)
    inside = timings[0]
    report: dict[str, Any] = {}
    if len(target.servers) > 1 or target.redis_pid is not None:
        carried = [
            (after or 0) - (before or 0)
            for before, after in zip(moves_before, moves_after, strict=True)
        ]
        committed = sum(carried)
        names = [name for name, _, _ in target.servers]
        report = {
            "processes": len(target.servers),
            "moves_committed": committed,
            "share_of_moves_percent": {
                n: percent(c, committed) for n, c in zip(names, carried, strict=True)
            },
            "server_time_per_move_ms_each": {
                n: {"moves": t["moves"], "p50": t["p50_ms"], "p99": t["p99_ms"]}
                for n, t in zip(names, timings, strict=True)
            },
            "cpu_percent_each": {
                n: round(100 * c / elapsed, 1) for n, c in zip(names, cpu_each, strict=True)
            },
            "redis_cpu_percent": round(100 * redis_cpu / elapsed, 1),
            "proxy_cpu_percent": round(100 * proxy_cpu / elapsed, 1),
            "cpu_ms_per_committed_move_servers_and_redis": round(
                1000 * (cpu + redis_cpu) / committed, 3
            )
            if committed
            else None,
        }
        timed = [t for t in timings if t["moves"]]
        count = sum(t["moves"] for t in timed)
        inside = {
            "moves": count,
            # Over several processes: the moves-weighted mean of their medians, and the
            # worst of their 99th percentiles and maxima (each process is listed above).
            "p50_ms": round(sum(t["p50_ms"] * t["moves"] for t in timed) / count, 3)
            if count
            else None,
            "p99_ms": max((t["p99_ms"] for t in timed), default=None),
            "max_ms": max((t["max_ms"] for t in timed), default=None),
        }
    return report | {
        "tables": tables,
        "clients": clients,
        "bots": spy_tables,
        "seconds": round(elapsed, 1),
        "moves": stats.moves,
        "moves_per_second": round(stats.moves / elapsed, 1),
        "server_time_per_move_ms_p50": inside["p50_ms"],
        "server_time_per_move_ms_p99": inside["p99_ms"],
        "server_time_per_move_ms_max": inside["max_ms"],
        "server_timed_moves": inside["moves"],
        "latency_ms_p50": round(1000 * statistics.median(lat), 2) if lat else None,
        "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2)
        if lat
        else None,
        "latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
        "errors": stats.errors + stats.connect_failures,
        "error_codes": stats.error_codes,
        "resyncs": stats.resyncs,
        "sockets_sent_to_their_owner": stats.sent_to_owner,
        "server_cpu_percent": round(100 * cpu / elapsed, 1),
        "server_cpu_waited_percent": round(100 * waited / elapsed, 1),
        "machine_load_average_1min": round(os.getloadavg()[0], 2),
        "server_cpu_ms_per_table_second": round(1000 * cpu / elapsed / max(1, tables), 3),
        "server_cpu_ms_per_move": round(1000 * cpu / stats.moves, 2) if stats.moves else None,
        "server_rss_mib": round(rss_after, 1),
        "load_clients_cpu_percent": round(100 * own / elapsed, 1),
        "server_rss_kib_per_table": round(1024 * (rss_after - rss_before) / max(1, tables), 1),
    }


def start_server(
    port: int, db: str, log: Path, extra: list[str] | None = None
) -> subprocess.Popen[bytes]:
    """``cardtable serve`` (with ``extra`` options) in a subprocess; returns once
    /api/health answers."""
    command = [sys.executable, "-m", "cardtable", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--db", db, "--log-level", "warning", *(extra or [])]
    env = {**os.environ, "CARDTABLE_TIME_MOVES": "1"}  # GET /api/timing
    with log.open("wb") as sink:
        proc = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited: " + log.read_text(errors="replace")[-2000:])
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise TimeoutError("the server did not start")


def main(argv: list[str] | None = None) -> None:
    """Run the load benchmark and print its report."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks server", description=__doc__)
    parser.add_argument("--tables", type=int, default=500, help="tables in all (default 500)")
    parser.add_argument(
        "--spy-tables",
        type=int,
        default=50,
        help="of which Spy races: 2 clients + 1 bot (default 50)",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to run (default 30)")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time per move, s")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--bot-level",
        default="easy",
        choices=("easy", "medium", "hard"),
        help="level of the Spy tables' bots (default easy: the greedy racer; medium and "
        "hard search, about 0.3 s of CPU per move)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=None,
        help="measure N processes behind HAProxy against 1, in one run, on PostgreSQL and a "
        "private Redis; --tables and --spy-tables are then per process",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --processes: pairs of runs (1 and N, the order turning), judged by the "
        "median of their ratios (default 3)",
    )
    parser.add_argument(
        "--no-routes",
        action="store_true",
        help="with --processes: clients do not ask for their table's owner (?route=), so "
        "a socket the proxy puts on another process is relayed (as before routes)",
    )
    parser.add_argument(
        "--sigterms",
        type=int,
        default=None,
        help="instead: K SIGTERMs in a row over 3 processes behind HAProxy with --tables "
        "tables, each hand-over timed (goal: every one under 0.5 s)",
    )
    parser.add_argument(
        "--lease-seconds", type=float, default=3.0, help="with --sigterms: the lease (3 s)"
    )
    parser.add_argument(
        "--overload",
        action="store_true",
        help="instead: one process with --tables live Candidate tables while --flood "
        "newcomers ask for new tables without pause: 503s counted, moves' latency measured",
    )
    parser.add_argument("--flood", type=int, default=64, help="with --overload: newcomers")
    parser.add_argument(
        "--max-in-flight",
        type=int,
        default=16,
        help="with --overload: the server's --max-in-flight (admission control; 16)",
    )
    parser.add_argument(
        "--max-lag",
        type=float,
        default=0.25,
        help="with --overload: the server's --max-lag in seconds (admission control; 0.25)",
    )
    args = parser.parse_args(argv if argv is not None else [])
    if args.processes is not None and (args.processes < 2 or args.rounds < 1):
        parser.error("--processes needs N >= 2 and --rounds R >= 1")
    spy = min(args.spy_tables, args.tables)
    if args.processes is not None or args.sigterms is not None or args.overload:
        from benchmarks import cluster_runs

        with cluster_runs.stop_on_signals():
            if args.sigterms is not None:
                cluster_runs.sigterms(args.sigterms, args)
            elif args.overload:
                cluster_runs.overload(args)
            else:
                cluster_runs.compare_processes(args.processes, args.tables - spy, spy, args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        port = free_port()
        log = Path(tmp) / "server.log"
        proc = start_server(port, db, log)
        base = f"http://127.0.0.1:{port}"
        try:
            report = asyncio.run(
                run_load(
                    Target(base, [("server", base, proc.pid)]),
                    args.tables - spy,
                    spy,
                    args.seconds,
                    args.think,
                    args.bot_level,
                )
            )
        finally:
            workers = descendants(proc.pid)  # its bot workers: stopped with it in any case
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=20)
            if proc.poll() is None:
                proc.kill()
            kill_left(workers)
        problems = "\n".join(
            line
            for line in log.read_text(errors="replace").splitlines()
            if line.strip() and not line.startswith("cardtable server: open")
        )
    if problems:
        print("server log:\n" + problems[-3000:])
    database = "PostgreSQL" if db.startswith("postgres") else "SQLite"
    print(f"server load benchmark (loopback, {database}; server = its process and bot workers)")
    for key, value in report.items():
        print(f"  {key}: {value}")


if __name__ == "__main__":
    main(sys.argv[1:])
