"""A tournament round starting for many players at once, on loopback.

``python -m benchmarks tournament [--players 200]`` starts ``cardtable serve`` in a
subprocess with a fresh SQLite file, signs up the players, lets every one of them keep
the tournament's socket open (``/ws/tournament/{id}``, as the tournament page does),
and has the organiser start a one-round Candidate Swiss. It measures, from the moment
the start request is sent:

- each player's time until their ``seated`` message arrives — their table exists,
  their seat is theirs and the page can go there (p50, p99, max);
- the time until every player is seated (the round's tables all open);
- when the round was paired and stored (``round_paired_s``, the round's stored start);
- the server's CPU over that time (its process and its bot workers, from ``/proc``),
  and the time its threads were ready to run but waited for a CPU (a busy machine).

The baseline, measured in the same run on the same server: the same number of
two-seat tables opened through the plain table API by one client (``POST /api/tables``
then both ``join``\\ s), which is the work a round needs without the tournament — so the
ratio says what the tournament (pairing, storing the round, the sockets) adds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from benchmarks.bench_server import free_port, proc_cpu_seconds, proc_wait_seconds, start_server

HEADERS = {"X-Cardtable-Client": "1"}
PASSWORD = "a long password"


async def sign_up(http: httpx.AsyncClient, name: str) -> str:
    answer = await http.post(
        "/api/account/register",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=HEADERS,
    )
    answer.raise_for_status()
    return str(answer.json()["token"])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def watch(base: str, tid: str, token: str, t0: list[float], out: list[float]) -> None:
    """Keep the tournament's socket open until ``seated``; its delay after ``t0``."""
    url = base.replace("http", "ws", 1) + f"/ws/tournament/{tid}"
    async with connect(
        url, additional_headers={"Authorization": f"Bearer {token}"}, max_queue=None
    ) as ws:
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "seated":
                out.append(time.perf_counter() - t0[0])
                return


async def baseline(http: httpx.AsyncClient, tokens: list[str]) -> float:
    """Seconds to open ``len(tokens) // 2`` two-seat tables through the table API."""
    start = time.perf_counter()
    for i in range(0, len(tokens) - 1, 2):
        created = await http.post(
            "/api/tables",
            json={"game": "candidate", "options": {"deals": 1}, "seats": [{}, {}]},
            headers={"Authorization": f"Bearer {tokens[i]}"},
        )
        created.raise_for_status()
        body = created.json()
        for invite, token in zip(body["invites"], tokens[i : i + 2], strict=True):
            joined = await http.post(
                f"/api/tables/{body['table']['id']}/join",
                json={"invite": invite["code"], "name": "x"},
                headers={"Authorization": f"Bearer {token}"},
            )
            joined.raise_for_status()
    return time.perf_counter() - start


async def run(players: int, pid: int, base: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        tokens = []
        for i in range(players):
            tokens.append(await sign_up(http, f"bench{i:04d}"))
        base_seconds = await baseline(http, tokens)
        created = await http.post(
            "/api/tournaments",
            json={
                "name": "Benchmark",
                "game": "candidate",
                "format": "swiss",
                "rounds": 1,
                "options": {"deals": 1},
                "start_in": 3600,
                "checkin_seconds": 0,
            },
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        created.raise_for_status()
        tid = created.json()["id"]
        for token in tokens:
            answer = await http.post(
                f"/api/tournaments/{tid}/register", headers={"Authorization": f"Bearer {token}"}
            )
            answer.raise_for_status()
        t0 = [0.0]
        delays: list[float] = []
        watchers = [asyncio.create_task(watch(base, tid, token, t0, delays)) for token in tokens]
        await asyncio.sleep(2.0)  # every socket has sent its first state
        cpu_before = proc_cpu_seconds(pid)
        waited_before = proc_wait_seconds(pid)
        t0[0] = time.perf_counter()
        wall0 = time.time()
        answer = await http.post(
            f"/api/tournaments/{tid}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        answer.raise_for_status()
        await asyncio.wait_for(asyncio.gather(*watchers), 600)
        everyone = time.perf_counter() - t0[0]
        cpu = proc_cpu_seconds(pid) - cpu_before
        waited = proc_wait_seconds(pid) - waited_before
        page = (await http.get(f"/api/tournaments/{tid}")).json()
        paired = datetime.fromisoformat(page["rounds"][0]["started_at"]).timestamp() - wall0
    return {
        "players": players,
        "tables": players // 2,
        "round_paired_s": round(paired, 3),
        "seated_p50_s": round(statistics.median(delays), 3),
        "seated_p99_s": round(percentile(delays, 0.99), 3),
        "seated_max_s": round(max(delays), 3),
        "all_seated_s": round(everyone, 3),
        "server_cpu_s": round(cpu, 3),
        "server_cpu_percent": round(100 * cpu / everyone, 1),
        "server_cpu_waited_percent": round(100 * waited / everyone, 1),
        "baseline_table_api_s": round(base_seconds, 3),
        "ratio_all_seated_to_baseline": round(everyone / base_seconds, 2),
    }


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its report."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks tournament", description=__doc__)
    parser.add_argument("--players", type=int, default=200, help="players (default 200)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(port, f"sqlite:///{Path(tmp) / 'bench.db'}", Path(tmp) / "log")
        try:
            report = asyncio.run(run(args.players, proc.pid, f"http://127.0.0.1:{port}"))
        except Exception:
            print((Path(tmp) / "log").read_text(errors="replace")[-3000:])
            raise
        finally:
            proc.kill()
            proc.wait()
    print("tournament round start (one Candidate Swiss round, every player on its socket)")
    for key, value in report.items():
        print(f"  {key:32} {value}")


if __name__ == "__main__":
    main()
