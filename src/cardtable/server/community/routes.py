"""Routes of the community: follows, blocks, challenges, correspondence games,
notices (and which of them come by email), friends' invites, and the per-account
socket ``/ws/me``.

Every route is for signed-in players (401 ``signed_out`` for a guest), proven as the
account routes do (cookie with the CSRF header, or a bearer token). The routes only
translate: :class:`~.service.Community` decides.
"""

from __future__ import annotations

import contextlib
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection, Request

from cardtable.server.community import store
from cardtable.server.community.mailing import mail_choices, set_mail_choices
from cardtable.server.community.service import Community
from cardtable.server.connection import Connection
from cardtable.server.protocol import OptionValue, TimeControlSpec
from cardtable.server.routes.accounts import AccountDep, socket_account
from cardtable.server.runtime import HubError

__all__ = ["current_community", "router"]

router = APIRouter(tags=["community"])

#: WebSocket close code of ``/ws/me`` for a guest: only accounts have notices.
SIGNED_OUT = 4401


def current_community(connection: HTTPConnection) -> Community:
    """The application's community (a dependency), or 503 while the server starts."""
    community: Community | None = getattr(connection.app.state, "community", None)
    if community is None:
        raise HubError(503, "starting", "not ready yet")
    return community


CommunityDep = Annotated[Community, Depends(current_community)]
Name = Annotated[str, Path(min_length=1, max_length=128, description="A player's name")]
ChallengeId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{4,64}$")]


class DaysPerMove(BaseModel):
    """A correspondence game's clock: days per move."""

    model_config = ConfigDict(extra="forbid")

    days: Literal[1, 2, 3, 7]


class ChallengeRequest(BaseModel):
    """A challenge: whom, which game and options, the clock, rated or not."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=128)
    game: str = Field(min_length=1, max_length=32)
    options: dict[Annotated[str, Field(max_length=64)], OptionValue] = Field(
        default_factory=dict, max_length=16
    )
    clock: TimeControlSpec | DaysPerMove | None = Field(
        default=None, description="Omit for no clock; {initial, increment} or {days}."
    )
    rated: bool = False


class ReadRequest(BaseModel):
    """Mark notices read: up to this id (omitted: all)."""

    model_config = ConfigDict(extra="forbid")

    up_to: int | None = Field(default=None, ge=0)


class InviteRequest(BaseModel):
    """Invite a player to an open seat: the table and the seat's invite."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=128)
    table: str = Field(pattern=r"^[A-Za-z0-9_-]{4,64}$")
    invite: str = Field(pattern=r"^[A-Za-z0-9_-]{4,64}$")


class MailChoices(BaseModel):
    """Which notices you also want by email (a kind left out stays as it was)."""

    model_config = ConfigDict(extra="forbid")

    your_turn: bool | None = None
    tournament_round: bool | None = None


def seen(connection: HTTPConnection, community: Community) -> None:
    """Remember the address a player reached this process at (a mail's links start
    with it when there is no ``--public-url``)."""
    if community.mail is not None:
        url = connection.base_url
        scheme = {"ws": "http", "wss": "https"}.get(url.scheme, url.scheme)
        community.mail.seen(str(url.replace(scheme=scheme)))


# ----------------------------------------------------------------- friends
@router.get("/api/friends", summary="Whom you follow, and whom you blocked")
async def friends(me: AccountDep, community: CommunityDep) -> dict[str, Any]:
    """The players you follow — whether each follows you back, is online, and at which
    tables they sit — and the players you blocked."""
    return await community.friends(me)


@router.post("/api/friends/{name}", summary="Follow a player", status_code=204)
async def follow(name: Name, me: AccountDep, community: CommunityDep) -> Response:
    """Follow ``name`` (404 unknown, 422 yourself, 403 a block either way)."""
    await community.follow(me, name)
    return Response(status_code=204)


@router.delete("/api/friends/{name}", summary="Unfollow a player", status_code=204)
async def unfollow(name: Name, me: AccountDep, community: CommunityDep) -> Response:
    """Stop following ``name``."""
    await community.unfollow(me, name)
    return Response(status_code=204)


@router.post("/api/blocks/{name}", summary="Block a player", status_code=204)
async def block(name: Name, me: AccountDep, community: CommunityDep) -> Response:
    """Block ``name``: they cannot challenge you, chat to you at a table or be paired
    with you by "play now"; neither follows the other any more."""
    await community.block(me, name)
    return Response(status_code=204)


@router.delete("/api/blocks/{name}", summary="Unblock a player", status_code=204)
async def unblock(name: Name, me: AccountDep, community: CommunityDep) -> Response:
    """Lift your block of ``name``."""
    await community.unblock(me, name)
    return Response(status_code=204)


@router.get("/api/players/{name}/relation", summary="How you stand with a player")
async def relation(name: Name, me: AccountDep, community: CommunityDep) -> dict[str, Any]:
    """Whether you follow ``name``, blocked them, or they blocked you (their profile's
    buttons)."""
    return await community.relation(me, name)


# -------------------------------------------------------------- challenges
@router.post("/api/challenges", summary="Challenge a player", status_code=201)
async def challenge(
    request: ChallengeRequest, me: AccountDep, community: CommunityDep
) -> dict[str, Any]:
    """Challenge the player ``name`` to a game; they are told at once on every open
    page. ``clock``: ``{initial, increment}`` seconds, ``{days}`` per move (1, 2, 3 or
    7: a correspondence game, turn-based games only), or none."""
    clock = request.clock.model_dump() if request.clock is not None else None
    made = await community.challenges.make(
        me, request.name, request.game, dict(request.options), clock, request.rated
    )
    names = {me.id: me.name}
    names.update(await community.storage.aread(store.names_of([made["challenged_id"]])))
    return community.challenges.public(made, me, names)


@router.get("/api/challenges", summary="Your challenges")
async def challenges(me: AccountDep, community: CommunityDep) -> list[dict[str, Any]]:
    """The challenges you made or received: pending ones, and the others of the last day."""
    return await community.challenges.mine(me)


@router.get("/api/challenges/{challenge_id}", summary="One challenge")
async def one_challenge(
    challenge_id: ChallengeId, me: AccountDep, community: CommunityDep
) -> dict[str, Any]:
    """A challenge you made or received; once accepted, ``play_url`` plays your seat."""
    return await community.challenges.one(challenge_id, me)


@router.post("/api/challenges/{challenge_id}/accept", summary="Accept a challenge")
async def accept(
    challenge_id: ChallengeId, me: AccountDep, community: CommunityDep
) -> dict[str, Any]:
    """Accept: the server makes the table and seats you both; ``play_url`` plays your
    seat (the challenger is told, and reads theirs)."""
    return await community.challenges.accept(challenge_id, me)


@router.post("/api/challenges/{challenge_id}/decline", summary="Decline", status_code=204)
async def decline(challenge_id: ChallengeId, me: AccountDep, community: CommunityDep) -> Response:
    """Decline a challenge you received (the challenger is told)."""
    await community.challenges.decline(challenge_id, me)
    return Response(status_code=204)


@router.post("/api/challenges/{challenge_id}/cancel", summary="Cancel", status_code=204)
async def cancel(challenge_id: ChallengeId, me: AccountDep, community: CommunityDep) -> Response:
    """Take back a challenge you made."""
    await community.challenges.cancel(challenge_id, me)
    return Response(status_code=204)


# ------------------------------------------------------ games and notices
@router.get("/api/correspondence", summary="Your correspondence games")
async def correspondence(me: AccountDep, community: CommunityDep) -> list[dict[str, Any]]:
    """Your unfinished games at days per move, those where it is your turn first."""
    return await community.games(me)


@router.get("/api/notices", summary="Your notices")
async def notices(me: AccountDep, community: CommunityDep) -> dict[str, Any]:
    """Your newest notices and how many are unread."""
    return await community.notices(me)


@router.get("/api/notices/mail", summary="Which notices you get by email")
async def mail(me: AccountDep, community: CommunityDep, request: Request) -> dict[str, Any]:
    """``your_turn`` and ``tournament_round``: whether each also comes by email;
    ``address``: whether you have a verified address to send them to."""
    seen(request, community)
    return await community.storage.aread(mail_choices(me.id))


@router.put("/api/notices/mail", summary="Choose which notices you get by email")
async def choose_mail(
    choices: MailChoices, me: AccountDep, community: CommunityDep, request: Request
) -> dict[str, Any]:
    """Get (``true``) or stop getting (``false``) a kind of notice by email too, at
    your verified address (none yet: the choice is kept, nothing is sent)."""
    seen(request, community)
    chosen = {k: v for k, v in choices.model_dump().items() if v is not None}
    await community.storage.awrite(set_mail_choices(me.id, chosen))
    return await community.storage.aread(mail_choices(me.id))


@router.post("/api/notices/read", summary="Mark notices read")
async def read(
    me: AccountDep, community: CommunityDep, request: ReadRequest | None = None
) -> dict[str, int]:
    """Mark your notices read (up to ``up_to``, or all; no body: all); the unread
    count left."""
    return {"unread": await community.read(me, request.up_to if request else None)}


@router.post("/api/invites/send", summary="Invite a player to a seat", status_code=204)
async def send_invite(request: InviteRequest, me: AccountDep, community: CommunityDep) -> Response:
    """Tell the player ``name`` of an open seat of your table (its invite)."""
    await community.invite(me, request.name, request.table, request.invite)
    return Response(status_code=204)


# ----------------------------------------------------------------- socket
@router.websocket("/ws/me")
async def my_socket(websocket: WebSocket) -> None:
    """The signed-in player's own socket, open on every page: ``hello`` with the unread
    count, then a ``notice`` (with the new unread count) for each notice as it comes.
    A guest's is closed with 4401."""
    await websocket.accept()
    community: Community | None = getattr(websocket.app.state, "community", None)
    account = await socket_account(websocket, community.hub) if community is not None else None
    if community is None or account is None:
        await websocket.close(code=SIGNED_OUT, reason="sign in first")
        return
    seen(websocket, community)
    conn = Connection(websocket, community.hub.settings)
    unread = await community.storage.aread(store.unread_count(account.id))
    conn.send(json.dumps({"type": "hello", "name": account.name, "unread": unread}))
    community.pages.attach(account.id, conn)
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    except WebSocketDisconnect:
        pass
    finally:
        community.pages.detach(account.id, conn)
        with contextlib.suppress(Exception):
            await conn.close()
