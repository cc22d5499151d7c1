"""Routes of the Bot API and of personal API tokens (docs/bot-api.md).

- ``/api/account/tokens`` — a person's routes (session cookie with the CSRF header, or
  a session bearer): list, create, revoke the account's tokens.
- ``/api/bot/…`` — a token's routes (``Authorization: Bearer ctp_…`` only): the bot
  account's upgrade, the event and game streams (NDJSON), moves, resign, chat,
  challenges and seeks.

The routes only translate: :class:`~.service.BotApi` decides.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from cardtable.server import account_store
from cardtable.server.botapi import store
from cardtable.server.botapi.service import BotApi
from cardtable.server.botapi.store import TokenOwner
from cardtable.server.botapi.tokens import SCOPES, bearer
from cardtable.server.community.routes import ChallengeRequest
from cardtable.server.protocol import TimeControlSpec
from cardtable.server.routes import app_service
from cardtable.server.routes.accounts import AccountDep
from cardtable.server.routes.seeks import current_seeks
from cardtable.table import TimeControl

__all__ = ["router"]

router = APIRouter(tags=["bot api"])

#: The media type of the streams: one JSON object a line.
NDJSON = "application/x-ndjson"

TableId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{4,32}$", description="A table's id")]
ChallengeId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{4,64}$")]
TokenId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{4,16}$")]
TournamentId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{4,32}$")]


def current_botapi(connection: HTTPConnection) -> BotApi:
    """The application's Bot API (a dependency), or 503 while the server starts."""
    return app_service(connection, "botapi")  # type: ignore[no-any-return]


BotApiDep = Annotated[BotApi, Depends(current_botapi)]


async def _owner(request: Request, api: BotApi, scope: str) -> TokenOwner:
    return await api.gate.check(request, scope)


async def playing_bot(request: Request, api: BotApiDep) -> TokenOwner:
    """The token's owner, with the ``bot:play`` scope (a dependency)."""
    return await _owner(request, api, "bot:play")


async def reading(request: Request, api: BotApiDep) -> TokenOwner:
    """The token's owner, with the ``games:read`` scope (a dependency)."""
    return await _owner(request, api, "games:read")


PlayDep = Annotated[TokenOwner, Depends(playing_bot)]


# ------------------------------------------------------------------ tokens
class TokenRequest(BaseModel):
    """A new token: a name to know it by, and its scopes."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)
    scopes: list[str] = Field(min_length=1, max_length=len(SCOPES))


class TokenInfo(BaseModel):
    """A token as its owner sees it; ``token`` itself only in the answer that made it."""

    id: str
    name: str
    scopes: list[str]
    created_at: float
    last_used_at: float | None
    token: str | None = None


@router.get("/api/account/tokens", summary="The account's API tokens")
async def list_tokens(me: AccountDep, api: BotApiDep) -> list[TokenInfo]:
    """The account's live tokens (never the tokens themselves: only their digests are kept)."""
    return [TokenInfo(**t) for t in await api.storage.aread(store.tokens_of(me.id))]


@router.post("/api/account/tokens", summary="Make an API token", status_code=201)
async def make_token(body: TokenRequest, me: AccountDep, api: BotApiDep) -> TokenInfo:
    """A new personal API token with ``scopes`` (``bot:play``, ``games:read``). The
    answer is the only time the token is shown."""
    return TokenInfo(**await api.make_token(me, body.name, body.scopes))


@router.delete("/api/account/tokens/{token_id}", summary="Revoke an API token", status_code=204)
async def revoke_token(token_id: TokenId, me: AccountDep, api: BotApiDep) -> None:
    """Revoke a token: the next request with it is refused, on every process."""
    await api.revoke(me, token_id)


# ------------------------------------------------------------- the account
class BotAccount(BaseModel):
    """The token's account: its name and whether it is a bot."""

    name: str
    bot: bool
    scopes: list[str]


@router.get("/api/bot/account", summary="The token's account")
async def bot_account(request: Request, api: BotApiDep) -> BotAccount:
    """Who the token speaks for (any scope)."""
    owner = await api.gate.check(request, "bot:play")
    return BotAccount(name=owner.name, bot=owner.bot, scopes=list(owner.scopes))


@router.post("/api/bot/account/upgrade", summary="Make the account a bot", status_code=204)
async def upgrade(owner: PlayDep, api: BotApiDep) -> None:
    """Turn the token's account into a bot account, for good. Refused (409) when the
    account has played rated games as a person, or is a bot already."""
    await api.upgrade(owner)


@router.get("/api/bot/account/games", summary="The account's finished games")
async def games(owner: Annotated[TokenOwner, Depends(reading)], api: BotApiDep) -> list[Any]:
    """The account's latest finished games (scope ``games:read``); each record is at
    ``GET /api/tables/{id}/record``."""
    return await api.storage.aread(lambda s: account_store.finished_games(s, owner.account_id))


# ------------------------------------------------------------- the streams
def _stream(lines: Any) -> StreamingResponse:
    return StreamingResponse(lines, media_type=NDJSON, headers={"Cache-Control": "no-store"})


@router.get("/api/bot/stream/event", summary="The bot's events (NDJSON)")
async def stream_events(request: Request, owner: PlayDep, api: BotApiDep) -> StreamingResponse:
    """One JSON object a line: ``challenge``, ``gameStart``, ``gameFinish``; an empty
    line now and then keeps it open. Ends when the token is revoked."""
    api.need_bot(owner)
    return _stream(api.events(owner, bearer(request) or ""))


@router.get("/api/bot/game/stream/{table_id}", summary="A game of the bot (NDJSON)")
async def stream_game(
    request: Request, table_id: TableId, owner: PlayDep, api: BotApiDep
) -> StreamingResponse:
    """The table protocol's messages to the bot's seat (docs/protocol.md), one a line:
    its own view and legal moves, never more. Ends with the match."""
    api.need_bot(owner)
    return _stream(await api.game(owner, bearer(request) or "", table_id))


# ------------------------------------------------------------------ actions
class MoveRequest(BaseModel):
    """A move in record notation, against a table version (the latest the bot saw);
    ``move_id`` makes a repeat harmless (made from the version when omitted)."""

    model_config = ConfigDict(extra="forbid")

    move: str = Field(min_length=1, max_length=64)
    version: int = Field(ge=0, le=10**9)
    move_id: str | None = Field(default=None, min_length=1, max_length=64)


class ChatRequest(BaseModel):
    """A line of table chat."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=500)


def _answer(answer: dict[str, Any], response: Response) -> dict[str, Any]:
    """The table's answer; a refusal gets a 4xx status (409 stale, 422 illegal)."""
    kind = answer.get("type")
    if kind == "resync":
        response.status_code = 409
    elif kind == "error":
        response.status_code = 429 if answer.get("code") == "rate_limited" else 422
    return answer


@router.post("/api/bot/game/{table_id}/move", summary="Make a move")
async def move(
    table_id: TableId, body: MoveRequest, response: Response, owner: PlayDep, api: BotApiDep
) -> dict[str, Any]:
    """The table's answer: ``ack`` (200), ``resync`` (409: the table moved on; the
    answer carries the state now) or ``error`` (422, with the table's reason)."""
    api.need_bot(owner)
    message = {
        "type": "move",
        "version": body.version,
        "move_id": body.move_id or f"bot-{body.version}",
        "move": body.move,
    }
    return _answer(await api.act(owner, table_id, message), response)


@router.post("/api/bot/game/{table_id}/resign", summary="Resign")
async def resign(
    table_id: TableId, response: Response, owner: PlayDep, api: BotApiDep
) -> dict[str, Any]:
    """Resign the match (as a person would: docs/protocol.md)."""
    api.need_bot(owner)
    return _answer(await api.act(owner, table_id, {"type": "resign"}), response)


@router.post("/api/bot/game/{table_id}/chat", summary="Chat at the table")
async def chat(
    table_id: TableId, body: ChatRequest, response: Response, owner: PlayDep, api: BotApiDep
) -> dict[str, Any]:
    """A line of the players' chat at the bot's table (its seat's players only)."""
    api.need_bot(owner)
    return _answer(await api.act(owner, table_id, {"type": "chat", "text": body.text}), response)


class BotChallenge(ChallengeRequest):
    """A challenge by the bot: as a person's (whom, game, options, rated), with a live
    clock or none: a bot plays no game at days per move."""

    clock: TimeControlSpec | None = Field(default=None, description="Omit for no clock.")


@router.post("/api/bot/challenge", summary="Challenge a player", status_code=201)
async def make_challenge(body: BotChallenge, owner: PlayDep, api: BotApiDep) -> dict[str, Any]:
    """Challenge a player (a bot to any game; a person to unrated ones only). A
    ``gameStart`` event follows when they accept."""
    clock = None if body.clock is None else body.clock.model_dump()
    return await api.challenge(owner, body.name, body.game, body.options, clock, body.rated)


@router.post("/api/bot/challenge/{challenge_id}/accept", summary="Accept a challenge")
async def accept(challenge_id: ChallengeId, owner: PlayDep, api: BotApiDep) -> dict[str, Any]:
    """Accept a challenge to the bot: the table is made; a ``gameStart`` event follows."""
    return await api.accept(owner, challenge_id)


@router.post(
    "/api/bot/challenge/{challenge_id}/decline", summary="Decline a challenge", status_code=204
)
async def decline(challenge_id: ChallengeId, owner: PlayDep, api: BotApiDep) -> None:
    """Decline a challenge to the bot."""
    await api.decline(owner, challenge_id)


class JoinRequest(BaseModel):
    """A tournament's invite code (an invite-only tournament asks for it)."""

    model_config = ConfigDict(extra="forbid")

    code: str | None = Field(default=None, max_length=64)


@router.post("/api/bot/tournament/{tournament_id}/join", summary="Join a tournament")
async def join_tournament(
    tournament_id: TournamentId, owner: PlayDep, api: BotApiDep, body: JoinRequest | None = None
) -> dict[str, Any]:
    """Register the bot in a tournament that allows bot accounts (403
    ``bots_not_allowed`` otherwise). Each of its tables comes as a ``gameStart`` event
    while the event stream is open; a seat nobody takes is lost by forfeit."""
    return await api.join_tournament(owner, tournament_id, body.code if body else None)


@router.post("/api/bot/tournament/{tournament_id}/withdraw", summary="Withdraw from a tournament")
async def withdraw_tournament(
    tournament_id: TournamentId, owner: PlayDep, api: BotApiDep
) -> dict[str, Any]:
    """Leave a tournament the bot joined: before the start off the list, after it from
    the next round on (404 ``no_tournament``; 409 ``not_registered`` when it is not in)."""
    return await api.withdraw_tournament(owner, tournament_id)


class SeekRequest(BaseModel):
    """Wait for a game: which, and its clock (unrated)."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(min_length=1, max_length=32)
    time_control: TimeControlSpec | None = None


@router.post("/api/bot/seek", summary="Seek a game", status_code=201)
async def seek(
    request: Request, body: SeekRequest, owner: PlayDep, api: BotApiDep
) -> dict[str, Any]:
    """Wait in the play-now queue (unrated); a ``gameStart`` event says when seated."""
    tc = body.time_control
    control = (
        None if tc is None else TimeControl(round(tc.initial * 1000), round(tc.increment * 1000))
    )
    return await api.seek(owner, current_seeks(request), body.game, control)


@router.delete("/api/bot/seek", summary="Stop seeking", status_code=204)
async def cancel_seek(owner: PlayDep, api: BotApiDep) -> None:
    """Leave the queue."""
    await api.cancel_seek(owner)
