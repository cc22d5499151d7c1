"""The server benchmark across processes: ``python -m benchmarks server --processes N``
(1 process against N, in paired rounds), ``--sigterms K`` (K rolling SIGTERMs, each
hand-over timed) and ``--overload`` (a flood of newcomers beside live tables: the 503s
counted, the moves' latency measured). See :mod:`benchmarks.bench_server` for the load
itself and docs/benchmarks.md for results.

Nothing here may crash silently or leave a process behind: every run reports what it
saw up to an error, errors are counted by kind, and every process started — servers,
their bot worker processes, HAProxy, Redis — is stopped on every way out: ``finally``
blocks, SIGTERM/SIGINT/SIGHUP turned into an orderly exit
(:func:`stop_on_signals`), and an ``atexit`` hook (:mod:`benchmarks.cluster` keeps the
list of what runs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import httpx

from benchmarks.bench_server import Stats, Target, run_load
from benchmarks.cluster import Cluster

__all__ = ["compare_processes", "overload", "run_cluster", "sigterms", "stop_on_signals"]


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGTERM, SIGINT and SIGHUP raise :class:`SystemExit` in the main thread for the
    duration, so the ``finally`` blocks that stop the processes run (the default action
    of SIGTERM would end this process and leave its children running)."""

    def leave(signum: int, _frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    kept = {s: signal.signal(s, leave) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)


def run_cluster(
    processes: int, candidate: int, spy: int, args: argparse.Namespace
) -> dict[str, Any]:
    """One run of :func:`run_load` against ``processes`` processes behind HAProxy, with
    ``candidate`` and ``spy`` tables per process, and the owner changes seen in it.

    It never raises past a report: a failure (a server that died, a request that kept
    failing) is counted as an error of its kind beside what the clients saw up to it,
    and every process the run started is stopped on the way out."""
    seen = Stats()
    cluster = Cluster(processes=processes, redis_url=None, env={"CARDTABLE_TIME_MOVES": "1"})
    try:
        cluster.start()
    except Exception as exc:  # stopped already; reported as this run's error
        seen.error_codes[f"start: {type(exc).__name__}"] = 1
        report = partial_report(seen, f"the processes did not start: {exc}"[:500])
        report["owner_changes_unasked"] = {}
        print(f"the run with {processes} processes failed: {report['failure']}", flush=True)
        return report
    with contextlib.closing(cluster) as c:  # started above: stopped on every way out
        target = Target(
            c.base,
            [(s.name, s.base, s.pid) for s in c.servers],
            redis_pid=c.redis_pid,
            proxy_pid=c.proxy_pid,
            routes=not getattr(args, "no_routes", False),
        )
        try:
            report = asyncio.run(
                run_load(
                    target,
                    candidate * processes,
                    spy * processes,
                    args.seconds,
                    args.think,
                    args.bot_level,
                    seen,
                )
            )
        except BaseException as exc:  # reported, with what was seen up to it
            kind = f"benchmark: {type(exc).__name__}"
            seen.error_codes[kind] = seen.error_codes.get(kind, 0) + 1
            report = partial_report(seen, f"{type(exc).__name__}: {exc}")
            print(f"the run with {processes} processes failed: {report['failure']}", flush=True)
            if not isinstance(exc, Exception):  # a signal or Ctrl-C: what was seen, then out
                print(f"  seen so far: {json.dumps(report)}", flush=True)
                raise
        report["owner_changes_unasked"] = owner_changes(c)
        for server in c.servers:
            problems = [
                line
                for line in server.tail().splitlines()
                if line.strip() and not line.startswith("cardtable server: open")
            ]
            if problems:
                print(f"log of {server.name} ({processes} processes):\n" + "\n".join(problems))
    return report


def partial_report(seen: Stats, failure: str) -> dict[str, Any]:
    """What the clients saw before a run failed."""
    lat = sorted(seen.latencies)
    return {
        "failure": failure,
        "moves": seen.moves,
        "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2)
        if lat
        else None,
        "errors": seen.errors + seen.connect_failures + 1,
        "error_codes": dict(seen.error_codes),
        "resyncs": seen.resyncs,
        "cpu_ms_per_committed_move_servers_and_redis": None,
        "machine_load_average_1min": round(os.getloadavg()[0], 2),
    }


def owner_changes(cluster: Cluster) -> dict[str, int]:
    """Changes of a table's owner that nobody asked for, summed over the processes:
    tables taken from another process (``claimed``), found taken (``lost``), told
    taken (``dropped``), from each process's ``/metrics``; a process that does not
    answer is counted under ``unanswered``."""
    found = {"claimed": 0, "lost": 0, "dropped": 0, "unanswered": 0}
    margins: list[float] = []
    for server in cluster.servers:
        try:
            text = httpx.get(f"{server.base}/metrics", timeout=10).text
        except httpx.HTTPError:
            found["unanswered"] += 1
            continue
        for reason in ("claimed", "lost", "dropped"):
            found[reason] += int(
                metric(text, f'cardtable_lease_changes_total{{reason="{reason}"}}')
            )
        if "cardtable_lease_margin_seconds " in text:
            margins.append(metric(text, "cardtable_lease_margin_seconds"))
    if margins:  # printed beside the changes: the least time a lease had left
        print(f"  least lease margin at a renewal: {min(margins):.3f} s", flush=True)
    return found


def metric(text: str, name: str) -> float:
    """One sample of a Prometheus text page (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def compare_processes(processes: int, candidate: int, spy: int, args: argparse.Namespace) -> None:
    """1 process and ``processes``, the same tables and clients per process, ``args.rounds``
    times with the order turning; print every round's ratio and shares of the moves, the
    reports of the round nearest the median, and the median ratio that decides how the
    processes scale."""
    key = "cpu_ms_per_committed_move_servers_and_redis"
    rounds: list[tuple[dict[str, Any], dict[str, Any], float]] = []
    for index in range(args.rounds):
        counts = (1, processes) if index % 2 == 0 else (processes, 1)
        runs = {n: run_cluster(n, candidate, spy, args) for n in counts}
        one, many = runs[1], runs[processes]
        for n, run in runs.items():
            changes = sum(run["owner_changes_unasked"].values())
            print(
                f"round {index + 1}, {n} process(es): errors {run['errors']} "
                f"{run['error_codes']}; owner changes not asked for {changes} "
                f"{run['owner_changes_unasked']}; load average "
                f"{run['machine_load_average_1min']}",
                flush=True,
            )
        if "failure" in one or "failure" in many:
            print(f"round {index + 1}: a run failed; not counted", flush=True)
            continue
        if not (one[key] and many[key]):
            print(f"round {index + 1}: no committed moves to divide by; not counted")
            continue
        rounds.append((one, many, many[key] / one[key]))
        shares = ", ".join(f"{n} {v} %" for n, v in many["share_of_moves_percent"].items())
        print(
            f"round {index + 1} of {args.rounds} ({counts[0]} first): CPU per committed move "
            f"{one[key]} ms with 1, {many[key]} ms with {processes}: "
            f"ratio {rounds[-1][2]:.2f}; shares of the moves {shares}; "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    if not rounds:
        print("server load benchmark across processes: no round committed a move")
        return
    ratios = [r[2] for r in rounds]
    median = statistics.median(ratios)
    one, many, _ = min(rounds, key=lambda r: abs(r[2] - median))
    print(
        f"server load benchmark across processes (loopback, HAProxy, PostgreSQL, Redis; "
        f"{candidate} Candidate + {spy} Spy tables per process, {args.seconds:g} s each; "
        f"the round nearest the median ratio of {len(rounds)})"
    )
    keys = [k for k in many if k in one and not isinstance(many[k], dict)]
    width = max(len(k) for k in keys)
    print(f"  {'':{width}}  {'1 process':>12}  {f'{processes} processes':>12}")
    for name in keys:
        print(f"  {name:{width}}  {one[name]!s:>12}  {many[name]!s:>12}")
    for name in [k for k in many if isinstance(many[k], dict)]:
        print(f"  {name}:")
        print(f"    1 process: {_cell(one.get(name))}")
        print(f"    {processes} processes: {_cell(many[name])}")
    verdict = "met" if median <= 1.3 else "NOT met"
    listed = ", ".join(f"{r:.2f}" for r in ratios)
    print(
        f"CPU time per committed move, servers + Redis, {processes} processes / 1: rounds "
        f"{listed}; median {median:.2f} (goal <= 1.3: {verdict})"
    )
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")


def _cell(value: Any) -> str:
    """A report value in one short cell (dicts per process in full)."""
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


# ------------------------------------------------------------------ SIGTERMs
def _unfinished_owners(engine: Any) -> dict[str, str | None]:
    """Each unfinished table's lease owner, from the database."""
    from sqlalchemy import text

    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT l.table_id, l.owner FROM table_leases l JOIN tables t "
                "ON t.id = l.table_id WHERE t.status != 'finished'"
            )
        ).all()
    return {str(table_id): owner for table_id, owner in rows}


def sigterms(count: int, args: argparse.Namespace) -> dict[str, Any]:
    """``count`` SIGTERMs in a row over 3 processes behind HAProxy, with ``args.tables``
    tables playing (two open seats each, no client: their stand-in bots play): each time
    the next process in turn is told to stop, and the time from the signal until another
    process owns every unfinished table it owned is its *hand-over*; then it is started
    again. Prints and returns every hand-over."""
    from sqlalchemy import create_engine

    handovers: list[float] = []
    failures: dict[str, int] = {}
    moved = 0
    serve_args = ["--lease-seconds", str(args.lease_seconds)]
    with stop_on_signals(), Cluster(processes=3, redis_url=None, serve_args=serve_args) as c:
        engine = create_engine(c.db_url)
        try:
            with httpx.Client(base_url=c.base, timeout=30) as http:
                for _ in range(args.tables):
                    body: dict[str, Any] = {"game": "candidate", "options": {"deals": 12}}
                    body["seats"] = [{"type": "open"}] * 2
                    response = http.post("/api/tables", json=body)
                    if response.status_code != 201:
                        kind = f"create: HTTP {response.status_code}"
                        failures[kind] = failures.get(kind, 0) + 1
            for index in range(count):
                server = c.servers[index % len(c.servers)]
                instance = f"{server.name}-{server.starts}"
                mine = {t for t, o in _unfinished_owners(engine).items() if o == instance}
                started = time.monotonic()
                server.signal(signal.SIGTERM)
                while True:
                    owners = _unfinished_owners(engine)
                    if all(owners.get(t) not in (None, instance) for t in mine):
                        handovers.append(time.monotonic() - started)
                        moved += len(mine)
                        break
                    if time.monotonic() - started > 10 * args.lease_seconds:
                        failures["not handed over"] = failures.get("not handed over", 0) + 1
                        break
                    time.sleep(0.005)
                assert server.proc is not None
                server.proc.wait(timeout=60)
                c.restart(index % len(c.servers))
                print(
                    f"SIGTERM {index + 1} of {count} to {instance}: {len(mine)} tables handed "
                    f"over in {handovers[-1]:.3f} s; load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
        except Exception as exc:  # reported with what was measured up to it
            kind = f"benchmark: {type(exc).__name__}"
            failures[kind] = failures.get(kind, 0) + 1
            print(f"the SIGTERM series failed: {exc}", flush=True)
        finally:
            engine.dispose()
    slow = sum(1 for h in handovers if h >= 0.5)
    report = {
        "sigterms": len(handovers),
        "tables_handed_over": moved,
        "handover_s_median": round(statistics.median(handovers), 3) if handovers else None,
        "handover_s_max": round(max(handovers), 3) if handovers else None,
        "handovers_at_or_over_0.5_s": slow,
        "errors": sum(failures.values()),
        "error_codes": failures,
        "load_average": os.getloadavg(),
    }
    print(
        f"hand-overs after SIGTERM ({args.tables} tables on 3 processes, lease "
        f"{args.lease_seconds:g} s):"
    )
    print("  " + ", ".join(f"{h:.3f}" for h in handovers))
    for key, value in report.items():
        print(f"  {key}: {value}")
    return report


# ------------------------------------------------------------------ overload
async def _flood(
    base: str, workers: int, go: asyncio.Event, stop_at: list[float], seen: dict[str, int]
) -> None:
    """``workers`` newcomers each asking for a new table as fast as answered, from
    the moment the live tables start playing until they stop."""
    await go.wait()
    limits = httpx.Limits(max_connections=workers)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:

        async def newcomer() -> None:
            body = {"game": "candidate", "seats": [{"type": "open"}] * 2}
            while time.monotonic() < stop_at[0]:
                try:
                    response = await http.post("/api/tables", json=body)
                    kind = str(response.status_code)
                    if response.status_code == 503:
                        retry = response.headers.get("retry-after")
                        kind += " with Retry-After" if retry else " without Retry-After"
                except httpx.HTTPError as exc:
                    kind = type(exc).__name__
                seen[kind] = seen.get(kind, 0) + 1

        await asyncio.gather(*(newcomer() for _ in range(workers)))


def overload(args: argparse.Namespace) -> dict[str, Any]:
    """One process with ``args.tables`` live Candidate tables played by scripted
    clients, while ``args.flood`` newcomers keep asking for new tables: the answers
    counted (201 made, 503 turned away), the live moves' latency measured."""
    import tempfile
    from pathlib import Path

    from benchmarks.bench_server import free_port, start_server
    from benchmarks.cluster import ServerProc

    seen: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp, stop_on_signals():
        port = free_port()
        log = Path(tmp) / "server.log"
        extra = ["--max-in-flight", str(args.max_in_flight), "--max-lag", str(args.max_lag)]
        proc = start_server(port, f"sqlite:///{Path(tmp) / 'o.db'}", log, extra)
        base = f"http://127.0.0.1:{port}"
        holder = ServerProc("server", port, [], log, {}, proc)
        stats = Stats()
        try:

            async def run() -> dict[str, Any]:
                go = asyncio.Event()
                stop_at = [time.monotonic() + args.seconds + 600]
                flood = asyncio.create_task(_flood(base, args.flood, go, stop_at, seen))
                report = await run_load(
                    Target(base, [("server", base, proc.pid)]),
                    args.tables,
                    0,
                    args.seconds,
                    args.think,
                    seen=stats,
                    started_event=go,
                    stop_at=stop_at,
                )
                await flood
                return report

            report = asyncio.run(run())
            metrics = httpx.get(f"{base}/metrics", timeout=10).text
        except Exception as exc:
            report = partial_report(stats, f"{type(exc).__name__}: {exc}")
            metrics = ""
        finally:
            holder.stop()
    report["newcomers"] = dict(sorted(seen.items()))
    report["admission_rejections_in_server"] = int(
        metric(metrics, 'cardtable_admission_rejections_total{kind="table"}')
    )
    print(
        f"overload ({args.tables} live tables, {args.flood} newcomers asking for tables "
        f"without pause, --max-in-flight {args.max_in_flight}, --max-lag {args.max_lag:g} s, "
        f"{args.seconds:g} s):"
    )
    for key in (
        "newcomers",
        "admission_rejections_in_server",
        "moves",
        "latency_ms_p50",
        "latency_ms_p99",
        "server_time_per_move_ms_p50",
        "server_time_per_move_ms_p99",
        "errors",
        "error_codes",
        "machine_load_average_1min",
    ):
        print(f"  {key}: {report.get(key)}")
    return report
