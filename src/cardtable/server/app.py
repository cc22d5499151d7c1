"""The FastAPI application: HTTP routes for tables, records, ratings and health, and the
WebSocket endpoint that carries the table protocol (docs/protocol.md).

This layer only translates: HTTP and WebSocket in, calls into the
:class:`~cardtable.server.runtime.Hub`, JSON out. A browser client, when present in
``static/`` beside this module, is served at ``/``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from cardtable import __version__
from cardtable.server.bots import BotBook
from cardtable.server.games import GameKind
from cardtable.server.protocol import (
    Created,
    CreateTable,
    GameInfo,
    Health,
    Invite,
    JoinRequest,
    Leaderboard,
    RatingEntry,
    RematchRequest,
    Seated,
    TableInfo,
)
from cardtable.server.runtime import Hub, HubError, Settings
from cardtable.server.storage import Storage
from cardtable.server.table import TimeControl

log = logging.getLogger("cardtable.server")

#: Largest HTTP request body the API reads.
MAX_BODY_BYTES = 64 * 1024

#: Where a browser client's files go; mounted at ``/`` when the directory exists.
STATIC_DIR = Path(__file__).parent / "static"


def _fail(exc: HubError) -> HTTPException:
    return HTTPException(exc.status, detail={"code": exc.code, "message": exc.message})


def create_app(
    db_url: str = "sqlite:///cardtable.db",
    *,
    games: Mapping[str, GameKind] | None = None,
    bots: BotBook | None = None,
    settings: Settings | None = None,
    static_dir: Path | None = STATIC_DIR,
) -> FastAPI:
    """The server application for the database at ``db_url``.

    ``games`` defaults to the rules engines installed (:func:`default_games`); tests pass
    their own. Storage is opened (and migrated) and unfinished tables resumed when the
    application starts, before ``/api/health`` answers.
    """
    if games is None or bots is None:
        from cardtable.server.adapters import default_bots, default_games

        games = games if games is not None else default_games()
        bots = bots if bots is not None else default_bots()
    offered = dict(games)
    book = bots
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_url)
        hub = Hub(storage, offered, book, settings)
        await hub.start()
        state["hub"] = hub
        _app.state.hub = hub
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

    def hub() -> Hub:
        current = state.get("hub")
        if current is None:
            raise HTTPException(503, detail={"code": "starting", "message": "not ready yet"})
        return current  # type: ignore[no-any-return]

    @app.middleware("http")
    async def _limit_body(request: Request, call_next: Any) -> Any:
        """Refuse request bodies over :data:`MAX_BODY_BYTES` before reading them."""
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return JSONResponse(
                {"detail": {"code": "too_large", "message": f"at most {MAX_BODY_BYTES} bytes"}},
                413,
            )
        if length is None and request.method in ("POST", "PUT", "PATCH"):
            return JSONResponse(
                {"detail": {"code": "length_required", "message": "send a Content-Length"}}, 411
            )
        return await call_next(request)

    @app.exception_handler(HubError)
    async def _hub_error(_request: Any, exc: HubError) -> JSONResponse:
        return JSONResponse({"detail": {"code": exc.code, "message": exc.message}}, exc.status)

    @app.get("/api/health", summary="Readiness", tags=["server"])
    async def health() -> Health:
        """Answers once storage is migrated and unfinished tables are resumed."""
        current = hub()
        return Health(status="ok", games=sorted(current.games), tables=len(current.tables))

    @app.get("/api/games", summary="Games offered", tags=["server"])
    async def list_games() -> list[GameInfo]:
        """The games this server can host, with their seat counts."""
        return [
            GameInfo(
                name=k.name,
                title=k.title,
                realtime=k.realtime,
                min_seats=k.min_seats,
                max_seats=k.max_seats,
            )
            for k in hub().games.values()
        ]

    @app.post("/api/tables", summary="Create a table", status_code=201, tags=["tables"])
    async def create_table(request: CreateTable) -> Created:
        """Create a table with its seats (open or bots) and an optional time control.

        Returns the table and an invite per open seat. The match starts when the last
        open seat is taken (at once when every seat is a bot).
        """
        tc = request.time_control
        table = await hub().create_table(
            game=request.game,
            options=request.options,
            bot_levels=[s.level if s.type == "bot" else None for s in request.seats],
            time_control=(
                TimeControl(round(tc.initial * 1000), round(tc.increment * 1000)) if tc else None
            ),
            rated=request.rated,
            seed=request.seed,
        )
        invites = [
            Invite(seat=s.index, code=s.invite, link=f"/play/{table.id}?invite={s.invite}")
            for s in table.seats
            if s.invite is not None
        ]
        return Created(table=TableInfo(**table.info()), invites=invites)

    @app.get("/api/tables", summary="List tables", tags=["tables"])
    async def list_tables(
        status: Annotated[
            str | None, Query(description="waiting, playing or finished", max_length=16)
        ] = None,
        game: Annotated[str | None, Query(description="candidate or spy", max_length=32)] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
    ) -> list[TableInfo]:
        """Live tables (waiting or playing), or the most recently finished ones."""
        current = hub()
        if status == "finished":
            rows = await current.storage.aread(lambda s: Storage.list_finished(s, game, limit))
            return [_finished_info(row) for row in rows]
        tables = [
            live.table.info()
            for live in current.tables.values()
            if (status is None or live.table.status.value == status)
            and (game is None or live.table.kind.name == game)
        ]
        return [TableInfo(**info) for info in tables[:limit]]

    @app.get("/api/tables/{table_id}", summary="One table", tags=["tables"])
    async def get_table(table_id: str) -> TableInfo:
        """The public facts of a table: seats, status, version."""
        current = hub()
        live = current.tables.get(table_id)
        if live is not None:
            return TableInfo(**live.table.info())
        row = await current.storage.aread(lambda s: Storage.finished_table(s, table_id))
        if row is None:
            raise HTTPException(404, detail={"code": "no_table", "message": "no such table"})
        return _finished_info(row)

    @app.post("/api/tables/{table_id}/join", summary="Take a seat", tags=["tables"])
    async def join(table_id: str, request: JoinRequest) -> Seated:
        """Take the open seat the invite belongs to, under a display name.

        The answer holds the seat's secret token: it alone can act for the seat.
        """
        table, seat, token = await hub().join(table_id, request.invite, request.name)
        return Seated(table=TableInfo(**table.info()), seat=seat, token=token)

    @app.post("/api/tables/{table_id}/rematch", summary="Rematch", tags=["tables"])
    async def rematch(table_id: str, request: RematchRequest) -> Seated:
        """Start (or join) the rematch of a finished table: same game, options and seats,
        a new deal. Each player calls it with their old token and gets a new one."""
        table, seat, token = await hub().rematch(table_id, request.token)
        return Seated(table=TableInfo(**table.info()), seat=seat, token=token)

    @app.get("/api/tables/{table_id}/record", summary="Game record", tags=["records"])
    async def record(table_id: str) -> JSONResponse:
        """The full record (RECORDS.md) of a finished game, as a JSON download.

        Refused (409) while the game is on: the record shows every hidden card.
        """
        current = hub()
        row = await current.storage.aread(lambda s: Storage.finished_table(s, table_id))
        if row is None:
            raise HTTPException(404, detail={"code": "no_table", "message": "no such table"})
        if row["record"] is None:
            raise HTTPException(
                409, detail={"code": "not_finished", "message": "the game is not finished"}
            )
        return JSONResponse(
            row["record"],
            headers={
                "Content-Disposition": f'attachment; filename="{row["game"]}-{table_id}.json"'
            },
        )

    @app.get("/api/ratings", summary="Leaderboard", tags=["ratings"])
    async def ratings(
        game: Annotated[str, Query(description="candidate or spy", max_length=32)],
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> Leaderboard:
        """The best openskill ratings of a game (by mu - 3·sigma), best first."""
        rows = await hub().storage.aread(lambda s: Storage.leaderboard(s, game, limit))
        return Leaderboard(game=game, entries=[RatingEntry(**r) for r in rows])

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        """The table protocol (docs/protocol.md)."""
        await websocket.accept()
        current = state.get("hub")
        live = current.tables.get(table_id) if current is not None else None
        if current is None or live is None:
            await websocket.send_json(
                {
                    "type": "error",
                    "version": None,
                    "code": "no_table",
                    "message": f"no live table {table_id!r}",
                    "move_id": None,
                }
            )
            await websocket.close(code=4404)
            return
        conn = await current.connect(live, websocket)
        try:
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes")
                try:
                    await current.handle(live, conn, raw)
                except Exception:
                    log.exception("error handling a message for table %s", table_id)
                    conn.send(
                        {
                            "type": "error",
                            "version": live.table.version,
                            "code": "internal",
                            "message": "the server could not handle that message",
                            "move_id": None,
                        }
                    )
        except WebSocketDisconnect:
            pass
        finally:
            await current.disconnect(live, conn)

    from cardtable.server.web import install as install_client_routes

    install_client_routes(app, static_dir)
    if static_dir is not None and static_dir.is_dir():
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="client")
    return app


def _finished_info(row: Mapping[str, Any]) -> TableInfo:
    from cardtable.server.table import Seat

    seats = [Seat.from_dict(s).public() for s in row["meta"]["seats"]]
    tc = row["time_control"]
    return TableInfo.model_validate(
        {
            "id": row["id"],
            "game": row["game"],
            "options": row["options"],
            "status": row["status"],
            "version": row["version"],
            "seats": seats,
            "time_control": (
                {"initial": tc["initial_ms"] / 1000, "increment": tc["increment_ms"] / 1000}
                if tc
                else None
            ),
            "rated": row["rated"],
            "rematch_of": row["rematch_of"],
            "rematch": row["meta"].get("rematch_id"),
        }
    )
