"""Routes of the tables: create, list, look up, join, rematch, and the finished record."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query
from fastapi.responses import JSONResponse

from cardtable.messages import render
from cardtable.server.account_store import Account, name_owner
from cardtable.server.accounts import GUEST_NAME_MAX, NameError_, check_name, skeleton
from cardtable.server.protocol import (
    CodeTarget,
    Created,
    CreateTable,
    Invite,
    Invites,
    InvitesRequest,
    JoinRequest,
    RematchRequest,
    Seated,
    TableInfo,
)
from cardtable.server.routes import current_hub, no_table
from cardtable.server.routes.accounts import optional_account
from cardtable.server.runtime import Hub, HubError
from cardtable.server.storage import Storage
from cardtable.table import Seat, Status, TimeControl

__all__ = ["guest_name", "router"]

router = APIRouter()

HubDep = Annotated[Hub, Depends(current_hub)]
#: Who asks: the signed-in account, or None for a guest.
WhoDep = Annotated[Account | None, Depends(optional_account)]


@router.post("/api/tables", summary="Create a table", status_code=201, tags=["tables"])
async def create_table(request: CreateTable, hub: HubDep, who: WhoDep) -> Created:
    """Create a table with its seats (open or bots) and an optional time control.

    Returns the table, an invite per open seat and the creator's host token: the
    creator alone gets the invites again with it (``POST /api/tables/{id}/invites``).
    The match starts when the last open seat is taken (at once when every seat is a bot).
    A rated table is for signed-in players only (403 for a guest).

    ``hints`` says whether a seat may ask for a hint while the game runs; omitted, a
    casual table allows them and a rated one does not (asking for hints at a rated
    table is refused, 422). Whoever takes a seat agrees to the table's choice: the
    invite page shows it before the seat is taken (docs/server.md, Fair play).

    With ``sit`` (the creator's name) and exactly one open seat — a game alone against
    bots — the creator takes that seat at once, through the same join as its invite
    (:func:`take_seat`), so the match starts without another request; ``seated`` holds
    the seat's token. With several open seats the invites go out as before.
    """
    check_client_seed(hub, request.seed, rated=request.rated)
    if request.rated and who is None:
        raise signed_out_rated()
    sits_now = request.sit is not None and [s.type for s in request.seats].count("open") == 1
    if sits_now and who is None and request.sit is not None:
        await guest_name(hub, request.sit)  # refused before the table is made
    if request.rated and request.hints:
        raise HubError(
            422, "rated_hints", "a rated table allows no hints: play it unrated for hints", {}
        )
    tc = request.time_control
    host_token = secrets.token_urlsafe(24)
    table = await hub.create_table(
        game=request.game,
        options=request.options,
        bot_levels=[s.level if s.type == "bot" else None for s in request.seats],
        time_control=(
            TimeControl(round(tc.initial * 1000), round(tc.increment * 1000)) if tc else None
        ),
        rated=request.rated,
        hints=not request.rated if request.hints is None else request.hints,
        seed=request.seed,
        host_token=host_token,
    )
    open_seats = table.open_invites()
    if request.sit is not None and len(open_seats) == 1:
        seated = await take_seat(hub, table.id, open_seats[0][1], request.sit, who)
        return Created(table=seated.table, invites=[], host_token=host_token, seated=seated)
    return Created(
        table=TableInfo(**table.info()),
        invites=invite_list(table.id, open_seats),
        host_token=host_token,
    )


def check_client_seed(hub: Hub, seed: int | None, *, rated: bool) -> None:
    """Refuse a client's seed unless the server was started for tests with
    ``--allow-client-seeds``, and then still for a rated table: whoever chose the seed
    can compute every hidden card of the deal."""
    if seed is None:
        return
    if not hub.settings.allow_client_seeds:
        raise HubError(403, "client_seed", "the server deals: a client may not choose the seed", {})
    if rated:
        raise HubError(422, "client_seed_rated", "a table with a client's seed cannot be rated", {})


def invite_list(table_id: str, invites: list[tuple[int, str]]) -> list[Invite]:
    """The invites of open seats, each with the client's link that takes the seat."""
    return [
        Invite(seat=seat, code=code, link=f"/play/{table_id}?invite={code}")
        for seat, code in invites
    ]


@router.post("/api/tables/{table_id}/invites", summary="Invites again", tags=["tables"])
async def invites(table_id: str, request: InvitesRequest, hub: HubDep) -> Invites:
    """The invites of the seats still open, for the table's creator only: the body
    carries the host token the creation answered with (403 for any other token). A
    seat's invite is gone once the seat is taken."""
    table, open_seats = hub.invites(table_id, request.token)
    return Invites(table=table.id, invites=invite_list(table.id, open_seats))


#: What a code may look like: a table id or an invite code (URL-safe base64 letters).
CODE_PATTERN = r"^[A-Za-z0-9_-]{4,64}$"


@router.get("/api/codes/{code}", summary="What a code is", tags=["tables"])
async def code_target(
    code: Annotated[str, Path(pattern=CODE_PATTERN, description="A table id or an invite code")],
    hub: HubDep,
) -> CodeTarget:
    """What a code pasted in the lobby stands for: a table's id (to watch it or come
    back to one's seat) or the invite code of an open seat (to take it). 404 when it is
    neither, 409 for the invite of a seat already taken."""
    table, seat = hub.find_code(code)
    if table is None and hub.cluster is not None:  # a table another process holds
        found = await hub.storage.aread(lambda s: Storage.find_code(s, code))
        if found is not None:
            stored, seat, taken = found
            if taken and seat is not None:
                raise HubError(
                    409,
                    "seat_taken",
                    f"seat {seat + 1} is already taken",
                    {"seat": seat + 1},
                    "table.seat_taken",
                )
            if seat is None:
                return CodeTarget(target="table", table=TableInfo(**stored), seat=None)
            return CodeTarget(target="invite", table=TableInfo(**stored), seat=seat)
    if table is not None:
        info = TableInfo(**table.info())
        if seat is None:
            return CodeTarget(target="table", table=info, seat=None)
        return CodeTarget(target="invite", table=info, seat=seat)
    row = await hub.storage.aread(lambda s: Storage.finished_table(s, code))
    if row is None:
        raise HTTPException(
            404,
            detail={
                "code": "no_code",
                "message": f"no table and no open seat has the code {code!r}",
                "message_id": "server.no_code",
                "params": {"code": code},
            },
        )
    return CodeTarget(target="table", table=finished_info(row), seat=None)


@router.get("/api/tables", summary="List tables", tags=["tables"])
async def list_tables(
    hub: HubDep,
    status: Annotated[
        str | None, Query(description="waiting, playing or finished", max_length=16)
    ] = None,
    game: Annotated[str | None, Query(description="candidate or spy", max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[TableInfo]:
    """Live tables (waiting or playing; without ``status`` both, never a finished one
    still in memory), or the most recently finished ones."""
    if status == "finished":
        rows = await hub.storage.aread(lambda s: Storage.list_finished(s, game, limit))
        return [finished_info(row) for row in rows]
    if hub.cluster is not None:  # each process holds only its own: the lobby is stored
        if status not in (None, "waiting", "playing"):
            return []
        infos = await hub.storage.aread(lambda s: Storage.list_live(s, status, game, limit))
        return [TableInfo(**info) for info in infos]
    tables = [
        live.table.info()
        for live in hub.tables.values()
        if (
            live.table.status.value == status
            if status is not None
            else live.table.status is not Status.FINISHED
        )
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
async def join(table_id: str, request: JoinRequest, hub: HubDep, who: WhoDep) -> Seated:
    """Take the open seat the invite belongs to, under a display name.

    A signed-in player sits as their account, under its name; a rated table takes
    only signed-in players (403 for a guest). The answer holds the seat's secret
    token: it alone can act for the seat.
    """
    return await take_seat(hub, table_id, request.invite, request.name, who)


async def take_seat(hub: Hub, table_id: str, invite: str, name: str, who: Account | None) -> Seated:
    """Seat ``who`` (or a guest called ``name``) with ``invite``: the one way a person
    takes a seat, whether by an invite link or as the creator of a table against bots.
    A signed-in player sits as their account, under its name; a rated table takes only
    signed-in players (403 for a guest)."""
    live = hub.live(table_id)
    if live.table.rated and who is None:
        raise signed_out_rated()
    if who is None:
        name = await guest_name(hub, name)
        others = {skeleton(s.name) for s in live.table.seats if s.name and s.filled}
        if skeleton(name) in others:
            raise name_refused(409, "name_at_table", name)
    table, seat, token = await hub.join(
        table_id,
        invite,
        who.name if who is not None else name,
        account=who.id if who is not None else None,
    )
    return Seated(table=TableInfo(**table.info()), seat=seat, token=token)


async def guest_name(hub: Hub, raw: str) -> str:
    """The name a guest sits or waits under for ``raw``: the checks of an account's
    name (invisible and bidi characters, mixed alphabets, bots' names, the server's
    labels; 422), and not an account's name nor confusable with one (409), so that
    no guest passes for an account, a bot or a spectator."""
    try:
        name = check_name(raw, longest=GUEST_NAME_MAX, shortest=1)
    except NameError_ as exc:
        raise name_refused(422, exc.code, raw) from None
    if await hub.storage.aread(name_owner(name)) is not None:
        raise name_refused(409, "name_of_account", name)
    return name


def name_refused(status: int, code: str, name: str) -> HubError:
    """A guest's name refused with ``code`` (its text from messages.py)."""
    params = {"name": name, "min": 1, "max": GUEST_NAME_MAX}
    return HubError(status, code, render(f"server.{code}", params), params)


@router.post("/api/tables/{table_id}/rematch", summary="Rematch", tags=["tables"])
async def rematch(table_id: str, request: RematchRequest, hub: HubDep) -> Seated:
    """Start (or join) the next game of a finished table with the same seats: a rematch
    (same game and options) or a new game (``game``, ``options``), dealt by the server.
    Each player calls it with their old token and gets a new one at the same seat; the
    old table's clients hear of it at once (an ``update`` with a ``rematch`` event)."""
    table, seat, token = await hub.rematch(table_id, request.token, request.game, request.options)
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


def signed_out_rated() -> HTTPException:
    """The 403 of a guest at a rated table."""
    return HTTPException(
        403,
        detail={
            "code": "rated_needs_account",
            "message": "rated tables are for signed-in players: sign in, or play unrated",
            "message_id": "server.rated_needs_account",
            "params": {},
        },
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
            "hints": bool(row["meta"].get("hints")),
            "rematch_of": row["rematch_of"],
            "rematch": row["meta"].get("rematch_id"),
        }
    )
