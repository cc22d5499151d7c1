"""Run the server with the test games in its own process:
``server_launch.py DB PORT [real] [grace=SECONDS]`` (``real``: the real games and their
bots; ``grace``: how long an absent seat waits before a stand-in plays it, 0.5 s unless
told)."""

from __future__ import annotations

import sys

import uvicorn

from cardtable.server.app import create_app
from cardtable.server.protocol import MAX_MESSAGE_BYTES
from cardtable.server.settings import Settings
from cardtable.table import Pacing


def main() -> None:
    db, port = sys.argv[1], int(sys.argv[2])
    real = "real" in sys.argv[3:]
    grace = [float(arg.split("=", 1)[1]) for arg in sys.argv[3:] if arg.startswith("grace=")]
    settings = Settings(
        grace_seconds=grace[-1] if grace else 0.5,
        pacing=Pacing(
            level_speeds={"easy": 20.0, "medium": 40.0, "hard": 80.0},
            turn_delay=0.0,
            segment_pause=0.0,
            start_count=0.0,
        ),
        allow_client_seeds=True,  # tests replay known deals (unrated tables only)
    )
    if real:
        app = create_app(db, settings=settings, static_dir=None)
    else:
        from server_fakegame import fake_bots, fake_games

        app = create_app(db, games=fake_games(), bots=fake_bots, settings=settings, static_dir=None)
    uvicorn.run(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=MAX_MESSAGE_BYTES * 4
    )


if __name__ == "__main__":
    main()
