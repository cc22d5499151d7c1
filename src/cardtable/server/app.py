"""The FastAPI application: storage and the hub for its lifetime, the routers, the client.

This layer only assembles: the routes live in :mod:`.routes` (one router per group),
the protocol in :mod:`.core`, the live tables in :mod:`.runtime`. A browser client, when
present in ``static/`` beside this module, is served at ``/``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from cardtable import __version__
from cardtable.games.base import Game
from cardtable.server.routes import client, info, play, tables
from cardtable.server.runtime import Hub, HubError
from cardtable.server.settings import Settings
from cardtable.server.storage import Storage
from cardtable.server.thinking import BotMaker, registry_bot
from cardtable.server.timing import MoveTiming

__all__ = ["MAX_BODY_BYTES", "STATIC_DIR", "create_app"]

#: Largest HTTP request body the API reads.
MAX_BODY_BYTES = 64 * 1024

#: Where a browser client's files go; mounted at ``/`` when the directory exists.
STATIC_DIR = Path(__file__).parent / "static"


def create_app(
    db_url: str = "sqlite:///cardtable.db",
    *,
    games: Mapping[str, Game] | None = None,
    bots: BotMaker = registry_bot,
    settings: Settings | None = None,
    static_dir: Path | None = STATIC_DIR,
) -> FastAPI:
    """The server application for the database at ``db_url``.

    ``games`` defaults to every game of the registry and ``bots`` to the registry's bots;
    tests pass their own. Storage is opened (and migrated) and unfinished tables resumed
    when the application starts, before ``/api/health`` answers.
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_url)
        hub = Hub(storage, games, bots, settings)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()
            storage.close()

    app = FastAPI(
        title="cardtable server",
        version=__version__,
        summary="Online play of Spy vs Spy and Candidate: tables, records and ratings.",
        description=(
            "HTTP part of the cardtable server. Create a table, share the invite links of its "
            "open seats, join a seat to get its secret token, then play over the WebSocket "
            "`/ws/tables/{id}` (protocol: docs/protocol.md). Finished games keep their full "
            "record; rated games update the openskill leaderboard."
        ),
        lifespan=lifespan,
    )
    app.state.move_timing = MoveTiming() if (settings or Settings()).time_moves else None
    app.middleware("http")(limit_body)
    app.add_exception_handler(HubError, hub_error)  # type: ignore[arg-type]
    for router in (info.router, tables.router, play.router, client.router):
        app.include_router(router)
    app.include_router(client.pages(static_dir))
    if static_dir is not None and static_dir.is_dir():
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="client")
    return app


async def limit_body(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Refuse request bodies over :data:`MAX_BODY_BYTES` before reading them."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        return JSONResponse(
            {"detail": {"code": "too_large", "message": f"at most {MAX_BODY_BYTES} bytes"}}, 413
        )
    if length is None and request.method in ("POST", "PUT", "PATCH"):
        return JSONResponse(
            {"detail": {"code": "length_required", "message": "send a Content-Length"}}, 411
        )
    return await call_next(request)


async def hub_error(_request: Request, exc: HubError) -> JSONResponse:
    """A request the hub refused: its status and ``{"detail": {code, message, …}}``."""
    return JSONResponse({"detail": exc.detail()}, exc.status)
