"""The FastAPI application: storage and the hub for its lifetime, the routers, the client.

This layer only assembles: the routes live in :mod:`.routes` (one router per group),
the protocol in :mod:`.core`, the live tables in :mod:`.runtime`. A browser client, when
present in ``static/`` beside this module, is served at ``/``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable import __version__
from cardtable.games.base import Game
from cardtable.server.admission import Admission
from cardtable.server.analysis import AnalysisRunner
from cardtable.server.botapi import routes as botapi_routes
from cardtable.server.botapi.service import BotApi
from cardtable.server.botapi.tokens import Gatekeeper
from cardtable.server.cluster import Cluster
from cardtable.server.community import Community
from cardtable.server.community import routes as community_routes
from cardtable.server.inputs import BadInput, check_json, json_safe
from cardtable.server.mail import open_mailer
from cardtable.server.metrics import Metrics
from cardtable.server.moderation import routes as moderation_routes
from cardtable.server.moderation.fairplay import FairPlay
from cardtable.server.moderation.service import Moderation
from cardtable.server.recovery import routes as recovery_routes
from cardtable.server.recovery.service import Recovery
from cardtable.server.routes import (
    accounts,
    analysis,
    client,
    info,
    play,
    seeks,
    tables,
    tutorial,
)
from cardtable.server.runtime import Hub, HubError
from cardtable.server.settings import Settings
from cardtable.server.shared import open_shared
from cardtable.server.storage import Storage
from cardtable.server.thinking import BotMaker, HintRunner, registry_bot
from cardtable.server.timing import MoveTiming
from cardtable.server.tournaments import Tournaments
from cardtable.server.tournaments import routes as tournament_routes

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
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The server application for the database at ``db_url``.

    ``games`` defaults to every game of the registry and ``bots`` to the registry's bots;
    tests pass their own, and a ``clock`` (the tables' time in seconds, the
    :class:`~cardtable.server.runtime.Hub`'s) that moves only when they move it. Storage
    is opened (and migrated) and unfinished tables resumed when the application starts,
    before ``/api/health`` answers.
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        chosen = settings or Settings()
        shared = (
            await open_shared(chosen.redis_url, chosen.redis_prefix)
            if chosen.redis_url is not None
            else None
        )
        app.state.shared = shared
        storage = Storage(db_url)
        hub = Hub(storage, games, bots, settings, clock=clock, metrics=app.state.metrics)
        if chosen.redis_url is not None:  # several processes: the cluster layer joins
            cluster = Cluster(hub, hub.settings)
            cluster.app = app
            cluster.timing = app.state.move_timing
            hub.cluster = app.state.cluster = cluster
        admission: Admission = app.state.admission
        admission.others = lambda: hub.handling  # bots have their own bound (thinking)
        admission.start()
        await hub.start()
        app.state.hub = hub
        app.state.tournaments = Tournaments(hub)
        await app.state.tournaments.start()
        mailer = open_mailer(chosen.smtp_url)
        app.state.community = Community(
            hub, shared, app.state.tournaments, mailer=mailer, public_url=chosen.public_url
        )
        await app.state.community.start()
        app.state.hints = HintRunner(hub.settings, bots, shared)
        app.state.analysis = AnalysisRunner(hub.settings, storage, shared)
        analysis = app.state.analysis  # fair-play figures are worked out on its executor
        app.state.fairplay = FairPlay(storage, lambda: analysis.executor)
        recovery = Recovery(storage, mailer, shared, chosen.public_url)
        app.state.recovery = recovery
        app.state.moderation = Moderation(hub, recovery)
        app.state.moderation.notify = app.state.community.notifier.notify
        app.state.moderation.start()
        app.state.botapi = BotApi(
            hub,
            app.state.community,
            Gatekeeper(storage, shared),
            tournaments=app.state.tournaments,
        )
        try:
            yield
        finally:
            await admission.stop()
            await app.state.botapi.stop()
            await app.state.community.stop()
            await recovery.stop()  # closes the mailer the community mails through
            await app.state.analysis.shutdown()
            await app.state.tournaments.stop()
            app.state.hints.shutdown()
            await hub.stop()
            storage.close()
            if shared is not None:
                await shared.close()

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
    app.state.metrics = Metrics()
    app.state.cluster = None
    app.state.admission = Admission(settings or Settings(), app.state.metrics)
    if (settings or Settings()).redis_url is not None:  # inside the body limit
        app.middleware("http")(forward_to_owner)
    app.middleware("http")(check_body)
    app.middleware("http")(app.state.admission.middleware)  # before any forwarding
    app.middleware("http")(limit_body)
    app.add_exception_handler(HubError, hub_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid_request)  # type: ignore[arg-type]
    index = static_dir / "index.html" if static_dir is not None else None
    if index is not None and index.is_file():
        app.add_exception_handler(StarletteHTTPException, not_found_page(index))  # type: ignore[arg-type]
    for router in (
        info.router,
        tables.router,
        play.router,
        client.router,
        accounts.router,
        seeks.router,
        analysis.router,
        tutorial.router,
        tournament_routes.router,
        recovery_routes.router,
        moderation_routes.router,
        community_routes.router,
        botapi_routes.router,
    ):
        app.include_router(router)
    app.include_router(client.pages(static_dir))
    app.include_router(tournament_routes.pages(static_dir))
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


async def check_body(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Refuse a body nested too deep (scanned before any parser runs), or JSON holding
    a number too long or a lone surrogate, with 400 (:func:`.inputs.check_json`)."""
    if request.method in ("POST", "PUT", "PATCH", "DELETE"):
        body = await request.body()  # at most MAX_BODY_BYTES: limit_body ran first
        if body:
            try:
                check_json(body)
            except BadInput as exc:
                return JSONResponse({"detail": exc.detail()}, 400)
    return await call_next(request)


#: Paths that always answer in JSON, never with the client's page.
JSON_PREFIXES = ("/api/", "/ws/", "/docs", "/redoc", "/openapi.json")


def not_found_page(
    index: Path,
) -> Callable[[Request, StarletteHTTPException], Awaitable[Response]]:
    """The handler of HTTP errors: a browser opening an unknown address gets the
    client's page with status 404 (the client shows a "page not found" in the app's
    style and the player's language); the API and everything else keep JSON."""

    async def handle(request: Request, exc: StarletteHTTPException) -> Response:
        wants_page = (
            exc.status_code == 404
            and request.method in ("GET", "HEAD")
            and not request.url.path.startswith(JSON_PREFIXES)
            and "text/html" in request.headers.get("accept", "")
        )
        if wants_page:
            return FileResponse(index, status_code=404, media_type="text/html")
        return await http_exception_handler(request, exc)

    return handle


async def forward_to_owner(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """With several processes, a request about a table is answered by its owner
    (:meth:`.cluster.forward.Forwarding.forward`)."""
    cluster: Cluster | None = getattr(request.app.state, "cluster", None)
    if cluster is None or getattr(request.app.state, "hub", None) is None:
        return await call_next(request)
    return await cluster.forward(request, call_next)


async def hub_error(_request: Request, exc: HubError) -> JSONResponse:
    """A request the hub refused: its status and ``{"detail": {code, message, …}}``;
    with ``Retry-After`` when it says when to ask again (a 503)."""
    headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    return JSONResponse({"detail": exc.detail()}, exc.status, headers=headers)


async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """A request its route's models refuse: 422 with pydantic's list of problems.

    FastAPI hands a body that is not sent as JSON (say ``text/plain``) to validation as
    raw bytes, and its own handler echoes each problem's ``input`` by decoding bytes as
    UTF-8: a body such as ``b"\\xff"`` then failed with a 500 on every POST route. Such a
    body is refused here with 415 and a clear message; other inputs are echoed only
    as JSON can carry them (no bytes, no infinite or NaN numbers).
    """
    errors = exc.errors()
    if any(isinstance(error.get("input"), bytes | bytearray) for error in errors):
        return JSONResponse(
            {
                "detail": {
                    "code": "not_json",
                    "message": "the body must be JSON, sent with Content-Type: application/json",
                    "message_id": "server.not_json",
                    "params": {},
                }
            },
            415,
        )
    return JSONResponse({"detail": jsonable_encoder(json_safe(errors))}, 422)
