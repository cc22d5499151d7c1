"""The server's HTTP and WebSocket routes, grouped by what they serve.

- :mod:`.info` — health, the games offered, the leaderboard;
- :mod:`.tables` — create, list, look up, join, rematch, download a record;
- :mod:`.play` — the WebSocket of the table protocol (docs/protocol.md);
- :mod:`.client` — what the browser client needs beyond that: rules pages, hints,
  summaries, replays, and the client's own pages;
- :mod:`.accounts` — register, log in and out, passwords, delete, players' profiles;
- :mod:`.seeks` — the "play now" queue: seek, heartbeat, cancel, fill with bots;
- :mod:`.analysis` — the analysis board: analyse a finished game, its progress, result.

Each module has one :class:`fastapi.APIRouter`; :func:`cardtable.server.app.create_app`
includes them. The routes only translate: they call the
:class:`~cardtable.server.runtime.Hub` (:func:`current_hub`) and answer with the models
of :mod:`cardtable.server.protocol`.
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException
from starlette.requests import HTTPConnection

from cardtable.server.runtime import Hub

__all__ = ["app_service", "current_hub", "no_table"]


def current_hub(connection: HTTPConnection) -> Hub:
    """The application's hub (a dependency), or 503 while the server is starting."""
    hub = getattr(connection.app.state, "hub", None)
    if hub is None:
        raise HTTPException(503, detail={"code": "starting", "message": "not ready yet"})
    return hub  # type: ignore[no-any-return]


def no_table() -> HTTPException:
    """The 404 of a table that does not exist."""
    return HTTPException(404, detail={"code": "no_table", "message": "no such table"})


def app_service(connection: HTTPConnection, name: str) -> Any:
    """The application's service ``name`` (``app.state.<name>``, set as the server
    starts), or 503 while the server is starting."""
    current_hub(connection)
    service = getattr(connection.app.state, name, None)
    if service is None:
        raise HTTPException(
            503,
            detail={
                "code": "starting",
                "message": "the server is starting: try again in a moment",
                "message_id": "server.starting",
                "params": {},
            },
        )
    return service
