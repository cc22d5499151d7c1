"""Routes of the tables: create, list, look up, join, rematch, and the finished record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import JSONResponse

from cardtable.server.protocol import (
    Created,
    CreateTable,
    Invite,
    JoinRequest,
    RematchRequest,
    Seated,
    TableInfo,
)
from cardtable.server.routes import current_hub, no_table
from cardtable.server.runtime import Hub
from cardtable.server.storage import Storage
from cardtable.table import Seat, TimeControl

__all__ = ["router"]

router = APIRouter()

HubDep = Annotated[Hub, Depends(current_hub)]


@router.post("/api/tables", summary="Create a table", status_code=201, tags=["tables"])
async def create_table(request: CreateTable, hub: HubDep) -> Created:
    """Create a table with its seats (open or bots) and an optional time control.

    Returns the table and an invite per open seat. The match starts when the last
    open seat is taken (at once when every seat is a bot).
    """
    tc = request.time_control
    table = await hub.create_table(
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


@router.get("/api/tables", summary="List tables", tags=["tables"])
async def list_tables(
    hub: HubDep,
    status: Annotated[
        str | None, Query(description="waiting, playing or finished", max_length=16)
    ] = None,
    game: Annotated[str | None, Query(description="candidate or spy", max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[TableInfo]:
    """Live tables (waiting or playing), or the most recently finished ones."""
    if status == "finished":
        rows = await hub.storage.aread(lambda s: Storage.list_finished(s, game, limit))
        return [finished_info(row) for row in rows]
    tables = [
        live.table.info()
        for live in hub.tables.values()
        if (status is None or live.table.status.value == status)
        and (game is None or live.table.game.info.name == game)
    ]
    return [TableInfo(**info) for info in tables[:limit]]


@router.get("/api/tables/{table_id}", summary="One table", tags=["tables"])
async def get_table(table_id: str, hub: HubDep) -> TableInfo:
    """The public facts of a table: seats, status, version."""
    live = hub.tables.get(table_id)
    if live is not None:
        return TableInfo(**live.table.info())
    row = await hub.storage.aread(lambda s: Storage.finished_table(s, table_id))
    if row is None:
        raise no_table()
    return finished_info(row)


@router.post("/api/tables/{table_id}/join", summary="Take a seat", tags=["tables"])
async def join(table_id: str, request: JoinRequest, hub: HubDep) -> Seated:
    """Take the open seat the invite belongs to, under a display name.

    The answer holds the seat's secret token: it alone can act for the seat.
    """
    table, seat, token = await hub.join(table_id, request.invite, request.name)
    return Seated(table=TableInfo(**table.info()), seat=seat, token=token)


@router.post("/api/tables/{table_id}/rematch", summary="Rematch", tags=["tables"])
async def rematch(table_id: str, request: RematchRequest, hub: HubDep) -> Seated:
    """Start (or join) the rematch of a finished table: same game, options and seats,
    a new deal. Each player calls it with their old token and gets a new one."""
    table, seat, token = await hub.rematch(table_id, request.token)
    return Seated(table=TableInfo(**table.info()), seat=seat, token=token)


@router.get("/api/tables/{table_id}/record", summary="Game record", tags=["records"])
async def record(table_id: str, hub: HubDep) -> JSONResponse:
    """The full record (docs/records.md) of a finished game, as a JSON download.

    Refused (409) while the game is on: the record shows every hidden card.
    """
    row = await hub.storage.aread(lambda s: Storage.finished_table(s, table_id))
    if row is None:
        raise no_table()
    if row["record"] is None:
        raise HTTPException(
            409, detail={"code": "not_finished", "message": "the game is not finished"}
        )
    return JSONResponse(
        row["record"],
        headers={"Content-Disposition": f'attachment; filename="{row["game"]}-{table_id}.json"'},
    )


def finished_info(row: Mapping[str, Any]) -> TableInfo:
    """The public facts of a stored table row."""
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
