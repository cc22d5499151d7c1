"""The online play server: ``cardtable serve`` (needs the ``server`` extra).

Layers, each in its own module:

- :mod:`.games` — the adapter interface the server speaks to a game through;
  :mod:`.adapters` — Candidate and Spy behind it.
- :mod:`.table` — the authority over one match, a pure class without I/O.
- :mod:`.bots` — the bot protocol and the level book.
- :mod:`.storage`, :mod:`.models`, ``migrations/`` — SQLAlchemy 2 + Alembic.
- :mod:`.ratings` — openskill ratings.
- :mod:`.protocol` — the pydantic models of every message.
- :mod:`.runtime` — live tables, connections, bots, clocks (the I/O side).
- :mod:`.app` — the FastAPI application (HTTP routes and the WebSocket).
"""

from __future__ import annotations

from typing import Any

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "sqlite:///cardtable.db",
    *,
    log_level: str = "info",
    **settings: Any,
) -> None:
    """Run the server until interrupted (blocks). ``settings`` tune :class:`.runtime.Settings`."""
    import gc

    import uvicorn

    # Thousands of live connections and game states make the full (generation 2)
    # collections of the default settings pause the process for a few hundred
    # milliseconds several times a minute; larger thresholds make them rare, and the
    # young collections stay short (measured with benchmarks/bench_server.py).
    gc.set_threshold(50_000, 50, 100)

    from cardtable.server.app import create_app
    from cardtable.server.protocol import MAX_MESSAGE_BYTES
    from cardtable.server.runtime import Settings
    from cardtable.server.web import address

    app = create_app(db, settings=Settings(**settings))
    # The one line people need: where to point the browser (the client is served at /).
    print(f"cardtable server: open {address(host, port)} in a browser", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=MAX_MESSAGE_BYTES * 4,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
