"""The tournaments' HTTP routes and WebSocket (docs/server.md, "Tournaments";
docs/protocol.md, "The tournament socket").

The routes translate: commands go to :mod:`.commands`, reads are built by :mod:`.views`
from storage (any process answers them), and a signed-in player's own table — with
its seat's token — is claimed through :meth:`~.service.Tournaments.seat_of` and shown
to that player alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.requests import HTTPConnection

from cardtable.server.account_store import Account
from cardtable.server.protocol import RuleOptions, TimeControlSpec
from cardtable.server.routes import current_hub
from cardtable.server.routes.accounts import AccountDep, optional_account, socket_account
from cardtable.server.runtime import HubError
from cardtable.server.tournaments import commands, store, views
from cardtable.server.tournaments.service import Tournaments
from cardtable.server.tournaments.store import Snapshot
from cardtable.tournament import TournamentSpec

__all__ = ["current_tournaments", "pages", "router"]

router = APIRouter(tags=["tournaments"])

TournamentId = Annotated[
    str, PathParam(pattern=r"^[A-Za-z0-9_-]{4,32}$", description="The tournament's id")
]
#: Longest a tournament may be scheduled ahead (a year).
MAX_START_IN = 366 * 24 * 3600


def current_tournaments(connection: HTTPConnection) -> Tournaments:
    """The application's tournaments (a dependency), or 503 while starting."""
    current_hub(connection)
    service: Tournaments | None = getattr(connection.app.state, "tournaments", None)
    if service is None:
        raise commands.refuse(503, "starting", "the server is starting: try again in a moment")
    return service


ServiceDep = Annotated[Tournaments, Depends(current_tournaments)]
WhoDep = Annotated[Account | None, Depends(optional_account)]


class CreateTournament(BaseModel):
    """A new tournament (the organiser is the signed-in account)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[
        str,
        StringConstraints(
            strip_whitespace=True, min_length=1, max_length=80, pattern=r"^[^\x00-\x1f\x7f]+$"
        ),
    ]
    game: Literal["candidate", "spy"]
    format: Literal["swiss", "race", "arena"]
    rounds: int = Field(default=3, ge=1, le=30, description="Rounds of a Swiss or race event.")
    minutes: int = Field(
        default=0, ge=0, le=24 * 60, description="An arena's length in minutes (1-1440)."
    )
    table_size: int = Field(
        default=4, ge=2, le=8, description="A Spy race's table size (race rounds, arena)."
    )
    duplicate: bool = False
    options: RuleOptions = Field(default_factory=dict, description="Each game's rule options.")
    clock: TimeControlSpec | None = None
    rated: bool = False
    access: Literal["open", "invite"] = "open"
    bots_allowed: bool = False
    bots: bool = Field(default=False, description="Bot accounts may join (through the Bot API).")
    bot_level: Literal["easy", "medium", "hard"] = "medium"
    late_join: bool = True
    checkin_seconds: float = Field(
        default=600, ge=0, le=24 * 3600, description="Check-in opens this long before the start."
    )
    forfeit_seconds: float = Field(
        default=60, ge=5, le=3600, description="A player absent this long forfeits the game."
    )
    break_seconds: float = Field(
        default=0,
        ge=0,
        le=3600,
        description="The break between two rounds of a Swiss or race (a countdown).",
    )
    starts_at: str | None = Field(default=None, description="ISO 8601 start time.")
    start_in: float | None = Field(default=None, ge=0, le=MAX_START_IN)


class Created(BaseModel):
    """A tournament just created."""

    id: str
    invite_code: str | None = None
    url: str


class CodeBody(BaseModel):
    """A registration: the invite code of an invite-only tournament."""

    model_config = ConfigDict(extra="forbid")

    code: str | None = Field(default=None, max_length=64)


class PlayerBody(BaseModel):
    """The player the organiser removes."""

    model_config = ConfigDict(extra="forbid")

    player: str = Field(min_length=1, max_length=64)


def _start_time(body: CreateTournament, now: float) -> float:
    if body.starts_at is not None and body.start_in is not None:
        raise commands.refuse(422, "two_starts", "give starts_at or start_in, not both")
    if body.start_in is not None:
        return now + body.start_in
    if body.starts_at is None:
        return now + 3600
    try:
        when = datetime.fromisoformat(body.starts_at)
    except ValueError:
        raise commands.refuse(
            422,
            "bad_time",
            f"starts_at is not an ISO 8601 time: {body.starts_at}",
            value=body.starts_at,
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


@router.post("/api/tournaments", status_code=201, summary="Create a tournament")
async def create(body: CreateTournament, account: AccountDep, service: ServiceDep) -> Created:
    """Create a tournament organised by the signed-in account. The server pairs every
    round, deals every table (its own seeds) and opens the tables at the start."""
    spec = TournamentSpec(
        game=body.game,
        format=body.format,
        rounds=body.rounds,
        minutes=body.minutes,
        table_size=2 if body.game == "candidate" else body.table_size,
        duplicate=body.duplicate,
        options=dict(body.options),
    )
    settings: dict[str, Any] = {
        "clock": body.clock.model_dump() if body.clock is not None else None,
        "rated": body.rated,
        "bots_allowed": body.bots_allowed,
        "bots": body.bots,
        "bot_level": body.bot_level,
        "late_join": body.late_join,
        "checkin_seconds": body.checkin_seconds,
        "forfeit_seconds": body.forfeit_seconds,
        "break_seconds": body.break_seconds,
    }
    tournament_id, code = await commands.create(
        service,
        account,
        name=body.name,
        spec=spec,
        settings=settings,
        starts_at=_start_time(body, service.clock()),
        invite=body.access == "invite",
    )
    return Created(id=tournament_id, invite_code=code, url=f"/tournament/{tournament_id}")


@router.get("/api/tournaments", summary="List tournaments")
async def listing(
    service: ServiceDep,
    status: Annotated[Literal["upcoming", "running", "finished"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Tournaments of a status (all when omitted): upcoming and running soonest
    first, finished most recent first."""
    snaps = await service.storage.aread(store.listing(status, limit))
    return {"tournaments": [views.summary(s) for s in snaps]}


async def you(
    service: Tournaments, snap: Snapshot, account: Account | None
) -> dict[str, Any] | None:
    """The signed-in player's part: registered, checked in, their table now."""
    if account is None:
        return None
    mine = snap.player_of(account.id)
    seat = await service.seat_of(snap, account)
    return {
        "name": account.name,
        "registered": mine is not None and mine["status"] in store.IN,
        "checked_in": mine is not None and mine["status"] == "checked_in",
        "organiser": snap.row["organiser_id"] == account.id,
        "invite_code": snap.row["invite_code"] if snap.row["organiser_id"] == account.id else None,
        "table_id": seat["table_id"] if seat else None,
        "play_url": seat["play_url"] if seat else None,
    }


async def state(
    service: Tournaments, tournament_id: str, account: Account | None
) -> dict[str, Any]:
    """The page's state for ``account``."""
    snap = await service.load(tournament_id)
    return {**views.detail(snap, service.clock()), "you": await you(service, snap, account)}


async def watched_state(
    service: Tournaments, tournament_id: str, account: Account | None, fresh: bool
) -> tuple[int, dict[str, Any] | None, str]:
    """:func:`state` for a socket, the tournament read once per change for all of them:
    its version, ``you``, and the ``tournament`` message as JSON."""
    watched = await service.watched(tournament_id, fresh=fresh)
    mine = await you(service, watched.snap, account)
    now = datetime.fromtimestamp(service.clock(), UTC).isoformat()
    text = f'{watched.head}, "now": {json.dumps(now)}, "you": {json.dumps(mine)}}}'
    return int(watched.page["version"]), mine, text


@router.get("/api/tournaments/me", summary="Your table now")
async def me(account: AccountDep, service: ServiceDep) -> dict[str, Any]:
    """The signed-in player's table in a round in play (the page they are on polls it
    to be sent there), or ``{"next": null}``."""
    for tournament_id in await service.storage.aread(store.seated_tournaments(account.id)):
        snap = await service.load(tournament_id)
        seat = await service.seat_of(snap, account)
        if seat is not None:
            return {"next": {"tournament_id": tournament_id, "name": snap.row["name"], **seat}}
    return {"next": None}


@router.get("/api/tournaments/{tournament_id}", summary="One tournament")
async def get(tournament_id: TournamentId, service: ServiceDep, who: WhoDep) -> dict[str, Any]:
    """Everything the tournament's page shows; ``you`` for a signed-in visitor."""
    return await state(service, tournament_id, who)


@router.post("/api/tournaments/{tournament_id}/register", summary="Register")
async def register(
    tournament_id: TournamentId,
    account: AccountDep,
    service: ServiceDep,
    body: CodeBody | None = None,
) -> dict[str, Any]:
    """Enter the tournament (an invite-only one needs ``code``)."""
    await commands.register(service, tournament_id, account, body.code if body else None)
    return await state(service, tournament_id, account)


def _command(name: str, doc: str, run: Any) -> None:
    async def route(
        tournament_id: TournamentId, account: AccountDep, service: ServiceDep
    ) -> dict[str, Any]:
        await run(service, tournament_id, account)
        return await state(service, tournament_id, account)

    route.__doc__ = doc
    router.add_api_route(
        f"/api/tournaments/{{tournament_id}}/{name}",
        route,
        methods=["POST"],
        summary=doc.split(".")[0],
        name=f"tournament_{name}",
    )


_command(
    "withdraw",
    "Withdraw. Before the start off the list, after it from the next round.",
    commands.withdraw,
)
_command("checkin", "Check in. Within the check-in window before the start.", commands.checkin)
_command("start", "Start now. The organiser only.", commands.start_now)
_command("pause", "Pause. The organiser only: no new round until resumed.", commands.pause)
_command("resume", "Resume. The organiser only.", commands.resume)
_command("end", "End now. The organiser only: the standings so far are final.", commands.end)


@router.post("/api/tournaments/{tournament_id}/remove", summary="Remove a player")
async def remove(
    tournament_id: TournamentId, body: PlayerBody, account: AccountDep, service: ServiceDep
) -> dict[str, Any]:
    """The organiser removes a player (from the next round on)."""
    await commands.remove(service, tournament_id, account, body.player)
    return await state(service, tournament_id, account)


@router.get("/api/tournaments/{tournament_id}/export.json", summary="Standings as JSON")
async def export_json(tournament_id: TournamentId, service: ServiceDep) -> JSONResponse:
    """The standings and every game with its table and record link (a download)."""
    snap = await service.load(tournament_id)
    return JSONResponse(
        views.export_json(snap),
        headers={"Content-Disposition": f'attachment; filename="tournament-{snap.id}.json"'},
    )


@router.get("/api/tournaments/{tournament_id}/export.csv", summary="Standings as CSV")
async def export_csv(tournament_id: TournamentId, service: ServiceDep) -> Response:
    """The standings, one line a player, with their games' tables and records."""
    snap = await service.load(tournament_id)
    return Response(
        views.export_csv(snap),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="tournament-{snap.id}.csv"'},
    )


@router.websocket("/ws/tournament/{tournament_id}")
async def socket(websocket: WebSocket, tournament_id: str) -> None:
    """Live state: ``{"type": "tournament", ...}`` on every change, and
    ``{"type": "seated", "table_id", "play_url"}`` to a signed-in player when their
    table of a round opens (docs/protocol.md)."""
    await websocket.accept()
    service: Tournaments | None = getattr(websocket.app.state, "tournaments", None)
    hub = getattr(websocket.app.state, "hub", None)
    if service is None or hub is None:
        await websocket.close(code=1013)
        return
    account = await socket_account(websocket, hub)
    event = asyncio.Event()
    service.watchers.setdefault(tournament_id, set()).add(event)
    reader = asyncio.get_running_loop().create_task(_drain(websocket))
    try:
        seen: int | None = None
        sent_table: str | None = None
        polled = False
        while not reader.done():
            event.clear()
            try:
                version, mine, text = await watched_state(service, tournament_id, account, polled)
            except HubError as exc:
                await websocket.send_json({"type": "error", **exc.detail()})
                await websocket.close(code=4404)
                return
            table_id = (mine or {}).get("table_id")
            if version != seen or table_id != sent_table:
                seen = version
                if mine is not None and table_id and table_id != sent_table:
                    # First, so the player is sent to their table at once.
                    await websocket.send_json(
                        {"type": "seated", "table_id": table_id, "play_url": mine["play_url"]}
                    )
                await websocket.send_text(text)
                sent_table = table_id
            waiter = asyncio.get_running_loop().create_task(event.wait())
            await asyncio.wait(
                {waiter, reader}, timeout=service.poll, return_when=asyncio.FIRST_COMPLETED
            )
            polled = not waiter.done()
            waiter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        service.watchers.get(tournament_id, set()).discard(event)


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it goes."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass


def pages(static_dir: Path | None) -> APIRouter:
    """The client's tournament pages (index.html; the client routes them)."""
    page_router = APIRouter(include_in_schema=False)
    if static_dir is None or not (static_dir / "index.html").is_file():
        return page_router
    index = static_dir / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    for path in ("/tournaments", "/tournament/{tournament_id}"):
        page_router.add_api_route(path, page, methods=["GET"])
    return page_router
