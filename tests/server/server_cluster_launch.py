"""One process of a cluster, as ``cardtable serve --redis`` runs it (the same
:func:`cardtable.server.serve`, SIGTERM hand-over included), with the real games, fast
bots and no pauses: ``server_cluster_launch.py DB PORT REDIS PREFIX INSTANCE [LOG]``, where
LOG is a file that gets the cluster's INFO log lines (who took, released or dropped
which table), for a failing test to show.

The environment may set the lease (``CARDTABLE_TEST_LEASE_SECONDS``, 1.5 s by default)
and the renewal periods an orphaned table waits for its preferred process before any
other claims it (``CARDTABLE_TEST_ORPHAN_WAIT``, :data:`~cardtable.server.cluster.node.ORPHAN_WAIT`
by default)."""

from __future__ import annotations

import asyncio
import faulthandler
import logging
import os
import signal
import sys
from types import FrameType

from cardtable.server import serve
from cardtable.server.cluster import node
from cardtable.table import Pacing


def dump(signum: int, frame: FrameType | None) -> None:
    """SIGUSR1: print where every thread and asyncio task of this process is, so a
    test that finds the process stuck can say where."""
    faulthandler.dump_traceback(all_threads=True)
    loop = asyncio._get_running_loop()
    tasks = asyncio.all_tasks(loop) if loop is not None else set()
    print(f"--- {len(tasks)} asyncio tasks", file=sys.stderr)
    for task in tasks:
        print(f"task {task.get_name()} {task.get_coro()!r}", file=sys.stderr)
        task.print_stack(limit=12, file=sys.stderr)
    sys.stderr.flush()


def main() -> None:
    db, port, redis, prefix, instance = sys.argv[1:6]
    signal.signal(signal.SIGUSR1, dump)
    lease = float(os.environ.get("CARDTABLE_TEST_LEASE_SECONDS", "1.5"))
    node.ORPHAN_WAIT = int(os.environ.get("CARDTABLE_TEST_ORPHAN_WAIT", node.ORPHAN_WAIT))
    if len(sys.argv) > 6:
        handler = logging.FileHandler(sys.argv[6])
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        server_log = logging.getLogger("cardtable.server")
        server_log.addHandler(handler)
        server_log.setLevel(logging.INFO)
    serve(
        "127.0.0.1",
        int(port),
        db,
        log_level="warning",
        trusted_proxies=("127.0.0.1",),  # behind HAProxy on loopback (docs/deploy.md)
        redis_url=redis,
        redis_prefix=prefix,
        instance=instance,
        route=port,  # HAProxy's use-server lines name the ports (benchmarks/cluster.py)
        lease_seconds=lease,
        renew_seconds=0.25,
        grace_seconds=30.0,
        keep_finished_seconds=60.0,
        bot_processes=0,
        bot_threads=2,
        rate_per_second=1000.0,
        rate_burst=1000.0,
        allow_client_seeds=True,
        pacing=Pacing(
            level_speeds={"easy": 5.0, "medium": 5.0, "hard": 5.0},
            turn_delay=0.0,
            segment_pause=0.0,
            start_count=0.0,
        ),
    )


if __name__ == "__main__":
    main()
