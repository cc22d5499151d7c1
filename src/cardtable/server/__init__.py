"""The online play server: ``cardtable serve`` (needs the ``server`` extra).

Layers, each in its own module:

- :mod:`cardtable.table` (below the server) — the authority over one match, a pure class
  without I/O; games come from :mod:`cardtable.games.registry`, bots from
  :mod:`cardtable.bots.seat`.
- :mod:`.protocol` — the pydantic models of every message.
- :mod:`.core` — the table protocol without I/O: a message in, typed messages out.
- :mod:`.runtime` — live tables, locks, storage and timers around the core (the I/O
  side); :mod:`.connection` — one WebSocket's send queue and rate limit;
  :mod:`.thinking` — bots (and hints, apart) thinking on an executor;
  :mod:`.limits` — token buckets of the hint route; :mod:`.settings`.
- :mod:`.storage`, :mod:`.models`, ``migrations/`` — SQLAlchemy 2 + Alembic.
- :mod:`.ratings` — openskill ratings.
- :mod:`.app` and :mod:`.routes` — the FastAPI application and its routers.
"""

from __future__ import annotations

from typing import Any

__all__ = ["address", "serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "sqlite:///cardtable.db",
    *,
    log_level: str = "info",
    **settings: Any,
) -> None:
    """Run the server until interrupted (blocks). ``settings`` tune :class:`.settings.Settings`."""
    import gc

    import uvicorn

    # Thousands of live connections and game states make the full (generation 2)
    # collections of the default settings pause the process for a few hundred
    # milliseconds several times a minute; larger thresholds make them rare, and the
    # young collections stay short (measured with benchmarks/bench_server.py).
    gc.set_threshold(50_000, 50, 100)

    from cardtable.server.app import create_app
    from cardtable.server.protocol import MAX_MESSAGE_BYTES
    from cardtable.server.settings import Settings

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


def address(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``.

    >>> address("0.0.0.0", 8000)
    'http://127.0.0.1:8000/'
    >>> address("::1", 8080)
    'http://[::1]:8080/'
    """
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"
