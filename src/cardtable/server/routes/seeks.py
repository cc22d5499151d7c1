"""Routes of the "play now" queue (:mod:`cardtable.server.seeks`): seek, poll, cancel,
fill with bots, and the lobby's list of waiting seeks."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Response
from starlette.requests import HTTPConnection

from cardtable.server.protocol import (
    Seated,
    SeekBots,
    SeekCreated,
    SeekInfo,
    SeekRequest,
    SeekSecret,
    SeekStatus,
    TableInfo,
)
from cardtable.server.routes import current_hub
from cardtable.server.routes.tables import WhoDep, guest_name, signed_out_rated
from cardtable.server.runtime import HubError
from cardtable.server.seeks import Seek, Seeks, Status
from cardtable.table import TimeControl

__all__ = ["current_seeks", "router"]

router = APIRouter()

#: A seek's public id, as :mod:`secrets` makes it.
SeekId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{4,64}$", description="The seek's id")]


def current_seeks(connection: HTTPConnection) -> Seeks:
    """The queues of the application's hub (made with the hub on first use; in Redis
    when the server shares its state with other processes)."""
    hub = current_hub(connection)
    seeks: Seeks | None = getattr(connection.app.state, "seeks", None)
    if seeks is None or seeks.hub is not hub:
        shared = getattr(connection.app.state, "shared", None)
        seeks = connection.app.state.seeks = Seeks(hub, shared=shared)
        community = getattr(connection.app.state, "community", None)
        if community is not None:  # correspondence games are timed by the community
            seeks.on_correspondence = community.correspondence.begin
    return seeks


SeeksDep = Annotated[Seeks, Depends(current_seeks)]


def answer(seeks: Seeks, seek: Seek, status: Status) -> SeekStatus:
    """The owner's view of ``seek``: the seat and its token only once seated. The table
    is shown as it is now when this process holds it, else as it was made."""
    seated = None
    if seek.table_id is not None and seek.seat is not None and seek.token is not None:
        live = seeks.hub.tables.get(seek.table_id)
        info = live.table.info() if live is not None else seek.table
        if info is not None:
            seated = Seated(table=TableInfo(**info), seat=seek.seat, token=seek.token)
    return SeekStatus(
        seek=SeekInfo(**seek.public(seeks.clock())),
        status="seated" if seek.table_id is not None else "waiting",
        seated=seated,
        **status,
    )


@router.post("/api/seeks", summary="Play now", status_code=201, tags=["seeks"])
async def seek(request: SeekRequest, seeks: SeeksDep, who: WhoDep) -> SeekCreated:
    """Wait for a game in the queue of its game, rating and clock.

    A guest waits under the display name ``name``; a signed-in player as their account.
    A rated seek is for signed-in players only (403 for a guest). The answer carries
    the seek's secret: poll with it (``POST /api/seeks/{id}/poll``) at least every few
    seconds — that is the heartbeat — until the status is ``seated``.
    """
    if request.rated and who is None:
        raise signed_out_rated()
    if who is None and request.name is None:
        raise HubError(422, "seek_name", "a guest waits under a display name: give one")
    name = who.name if who is not None else await guest_name(seeks.hub, request.name or "")
    tc = request.time_control
    made, status, secret = await seeks.add(
        request.game,
        request.rated,
        TimeControl(round(tc.initial * 1000), round(tc.increment * 1000)) if tc else None,
        name,
        who.id if who is not None else None,
        request.days,
    )
    return SeekCreated(**answer(seeks, made, status).model_dump(), secret=secret)


@router.get("/api/seeks", summary="Waiting seeks", tags=["seeks"])
async def waiting(seeks: SeeksDep) -> list[SeekInfo]:
    """Everyone waiting in a queue now, oldest first: what the lobby shows."""
    await seeks.sweep()
    return [SeekInfo(**s) for s in await seeks.waiting()]


@router.post("/api/seeks/{seek_id}/poll", summary="Seek heartbeat", tags=["seeks"])
async def poll(seek_id: SeekId, request: SeekSecret, seeks: SeeksDep) -> SeekStatus:
    """The owner's heartbeat: the seek now, with its own seat and token once paired.
    404 for an unknown seek or a wrong secret (alike)."""
    return answer(seeks, *await seeks.poll(seek_id, request.secret))


@router.post("/api/seeks/{seek_id}/bots", summary="Fill with bots", tags=["seeks"])
async def bots(seek_id: SeekId, request: SeekBots, seeks: SeeksDep) -> SeekStatus:
    """Start now with bots in the empty seats (409 before the queue's time-out); the
    others waiting in the same queue sit down too."""
    made = await seeks.fill_with_bots(seek_id, request.secret, request.seats, request.level)
    return answer(seeks, *made)


@router.post(
    "/api/seeks/{seek_id}/cancel", summary="Cancel a seek", status_code=204, tags=["seeks"]
)
async def cancel(seek_id: SeekId, request: SeekSecret, seeks: SeeksDep) -> Response:
    """Leave the queue: the seek vanishes from the lobby at once."""
    await seeks.cancel(seek_id, request.secret)
    return Response(status_code=204)
