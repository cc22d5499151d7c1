"""One process of a cluster, as ``cardtable serve --redis`` runs it (the same
:func:`cardtable.server.serve`, SIGTERM hand-over included), with the real games, fast
bots and no pauses: ``server_cluster_launch.py DB PORT REDIS PREFIX INSTANCE``."""

from __future__ import annotations

import sys

from cardtable.server import serve
from cardtable.table import Pacing


def main() -> None:
    db, port, redis, prefix, instance = sys.argv[1:6]
    serve(
        "127.0.0.1",
        int(port),
        db,
        log_level="warning",
        redis_url=redis,
        redis_prefix=prefix,
        instance=instance,
        lease_seconds=1.5,
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
