"""Routes of accounts: register, log in and out, change the password, delete, profiles.

Who is asking is proven by a session token, sent either as the ``cardtable_session``
cookie (browsers: HttpOnly, SameSite=Lax, Secure when served over https) or as
``Authorization: Bearer <token>`` (other clients; ask for it with ``"bearer": true``
when logging in). CSRF: a state-changing request (POST, PUT, PATCH, DELETE) that relies
on the cookie must also carry the header ``X-Cardtable-Client`` (any value). A page
of another site cannot send a custom header without a CORS preflight, which this
server never grants, and SameSite=Lax keeps the cookie off other sites' form posts.
The account routes ask for the header even before there is a cookie, so another site
cannot log a browser in as someone else either.
"""

from __future__ import annotations

import asyncio
import math
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from cardtable.catalogue import lang_pattern
from cardtable.server import account_store
from cardtable.server.account_store import Account, NameTaken
from cardtable.server.accounts import (
    NAME_MAX,
    PASSWORD_MAX,
    PASSWORD_MIN,
    NameError_,
    check_name,
    hash_password,
    new_session_token,
    verify_password,
)
from cardtable.server.botapi.tokens import is_api_token
from cardtable.server.limits import LocalLoginLimits, LoginLimits, SharedLoginLimits
from cardtable.server.recovery import store as recovery_store
from cardtable.server.routes import current_hub
from cardtable.server.runtime import Hub
from cardtable.server.shared import Shared

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "current_account",
    "optional_account",
    "router",
]

router = APIRouter(tags=["accounts"])

HubDep = Annotated[Hub, Depends(current_hub)]

#: The session cookie's name.
COOKIE = "cardtable_session"
#: The header a cookie-authenticated state change must carry (see the module's text).
CSRF_HEADER = "X-Cardtable-Client"
#: Methods that change something and so need the CSRF header with a cookie.
_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

Password = Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]
#: The languages of the interface (the catalogues'); emails are in English where a
#: language has no email texts yet.
Lang = Annotated[str, Field(pattern=lang_pattern())]


class Credentials(BaseModel):
    """A user name and password; ``bearer`` asks for the session token in the answer
    (for clients without cookies) instead of a cookie."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=4 * NAME_MAX)
    password: Password
    bearer: bool = False
    lang: Lang | None = Field(
        default=None, description="The language of the account's emails from now on."
    )


class PasswordChange(BaseModel):
    """The current password and the new one."""

    model_config = ConfigDict(extra="forbid")

    password: Password
    new_password: Password


class PasswordProof(BaseModel):
    """The current password, to confirm deleting the account."""

    model_config = ConfigDict(extra="forbid")

    password: Password


class Me(BaseModel):
    """The signed-in account; ``token`` only when a bearer token was asked for;
    ``moderator`` when it may act on reports (docs/server.md, "Moderation")."""

    name: str
    token: str | None = None
    moderator: bool = False
    lang: str = Field(
        "en",
        description="the account's language (of its emails, and of the web client on a "
        "device that has chosen none)",
    )


def api_error(
    status: int,
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    **params: Any,
) -> HTTPException:
    """An HTTP error with the server's ``detail`` (code, message, its id, params)."""
    return HTTPException(
        status,
        detail={
            "code": code,
            "message": message,
            "message_id": f"server.{code}",
            "params": params,
        },
        headers=headers,
    )


async def new_hash(password: str) -> str:
    """The hash of a new password, or 422 when it is too short."""
    if len(password) < PASSWORD_MIN:
        raise api_error(
            422,
            "password_short",
            f"a password has at least {PASSWORD_MIN} characters",
            min=PASSWORD_MIN,
        )
    return await asyncio.to_thread(hash_password, password)


def _session_token(request: HTTPConnection) -> tuple[str | None, bool]:
    """The session token sent and whether it came as the cookie."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip(), False
    cookie = request.cookies.get(COOKIE)
    return (cookie, True) if cookie else (None, False)


def _check_csrf(request: Request, from_cookie: bool) -> None:
    if from_cookie and request.method in _CHANGING and CSRF_HEADER.lower() not in request.headers:
        raise api_error(
            403,
            "csrf",
            f"a request signed in by cookie must carry the {CSRF_HEADER} header",
            header=CSRF_HEADER,
        )


async def optional_account(request: Request, hub: HubDep) -> Account | None:
    """The signed-in account (a dependency), or ``None`` for a guest. An unknown or
    expired session counts as a guest; a cookie without the CSRF header on a change is
    refused (403)."""
    token, from_cookie = _session_token(request)
    if token is None:
        return None
    if is_api_token(token):  # a bot's token is no person's session
        raise api_error(
            403, "api_token", "a personal API token works on the Bot API (/api/bot/…) only"
        )
    _check_csrf(request, from_cookie)
    return await hub.storage.aread(lambda s: account_store.session_account(s, token))


async def socket_account(websocket: WebSocket, hub: Hub) -> Account | None:
    """The account a WebSocket is signed in as (cookie or bearer token), or ``None``.

    A cookie counts only when the page that opened the socket is this server's own
    (its ``Origin`` names this host): another site cannot speak in a player's name.
    """
    token, from_cookie = _session_token(websocket)
    if token is None or is_api_token(token):
        return None
    origin = websocket.headers.get("origin")
    if from_cookie and origin is not None and urlsplit(origin).netloc != websocket.url.netloc:
        return None
    return await hub.storage.aread(lambda s: account_store.session_account(s, token))


async def current_account(
    request: Request, account: Annotated[Account | None, Depends(optional_account)]
) -> Account:
    """The signed-in account (a dependency), or 401."""
    if account is None:
        raise api_error(401, "signed_out", "sign in first")
    return account


AccountDep = Annotated[Account, Depends(current_account)]


def login_limits(request: Request) -> LoginLimits:
    """The application's limits on failed logins (made on first use; in Redis when the
    server shares its state with other processes)."""
    limits: LoginLimits | None = getattr(request.app.state, "login_limits", None)
    if limits is None:
        shared: Shared | None = getattr(request.app.state, "shared", None)
        limits = SharedLoginLimits(shared) if shared is not None else LocalLoginLimits()
        request.app.state.login_limits = limits
    return limits


def require_header(request: Request) -> None:
    """The account routes' CSRF guard when no bearer token is used."""
    token, from_cookie = _session_token(request)
    _check_csrf(request, from_cookie or token is None)


async def _signed_in(
    request: Request, response: Response, hub: Hub, account: Account, credentials: Credentials
) -> Me:
    """Open a session for ``account``: a cookie, or the token in the answer (the
    language sent, if any, becomes the account's language)."""
    token = new_session_token()
    await hub.storage.awrite(account_store.start_session(account.id, token))
    lang = account.lang
    if credentials.lang is not None:
        await hub.storage.awrite(recovery_store.set_lang(account.id, credentials.lang))
        lang = credentials.lang
    if credentials.bearer:
        return Me(name=account.name, token=token, moderator=account.moderator, lang=lang)
    response.set_cookie(
        COOKIE,
        token,
        max_age=account_store.SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return Me(name=account.name, moderator=account.moderator, lang=lang)


@router.post("/api/account/register", summary="Register", status_code=201)
async def register(
    request: Request, response: Response, credentials: Credentials, hub: HubDep
) -> Me:
    """Create an account and sign in. The name is refused (422) when it is malformed,
    mixes alphabets, holds invisible characters or starts with Bot/Бот, and (409) when
    it or a name confusable with it is taken."""
    require_header(request)
    try:
        name = check_name(credentials.name)
    except NameError_ as exc:
        raise api_error(
            422, exc.code, exc.message, name=credentials.name, min=2, max=NAME_MAX
        ) from None
    digest = await new_hash(credentials.password)
    try:
        account = await hub.storage.awrite(account_store.create_account(name, digest))
    except NameTaken:
        raise api_error(409, "name_taken", f"the name {name!r} is taken", name=name) from None
    except IntegrityError:  # the unique indexes caught a concurrent registration
        raise api_error(409, "name_taken", f"the name {name!r} is taken", name=name) from None
    return await _signed_in(request, response, hub, account, credentials)


@router.post("/api/account/login", summary="Log in")
async def login(request: Request, response: Response, credentials: Credentials, hub: HubDep) -> Me:
    """Sign in. A wrong password and an unknown name get the same answer (401) after
    the same work; a banned account, with its password, gets 403; too many failures
    for a name from one address, or from an address, get 429 with ``Retry-After`` and
    the wait in whole minutes. The delays grow with each further failure; failures from
    elsewhere never hold a player up."""
    require_header(request)
    limits = login_limits(request)
    address = request.client.host if request.client is not None else "unknown"
    wait = await limits.wait(credentials.name, address)
    if wait > 0:
        seconds = math.ceil(wait)
        minutes = math.ceil(seconds / 60)
        raise api_error(
            429,
            "login_limited",
            f"too many failed logins: try again in {minutes} min",
            headers={"Retry-After": str(seconds)},
            seconds=seconds,
            minutes=minutes,
        )
    found = await hub.storage.aread(lambda s: account_store.find_by_name(s, credentials.name))
    stored = found[1] if found is not None else None
    ok = await asyncio.to_thread(verify_password, stored, credentials.password)
    if found is None or not ok:
        await limits.failed(credentials.name, address)
        raise api_error(401, "bad_login", "wrong user name or password")
    await limits.succeeded(credentials.name, address)
    if found[0].banned:  # said only to whoever knows the password
        raise api_error(403, "account_banned", "this account is banned")
    return await _signed_in(request, response, hub, found[0], credentials)


@router.post("/api/account/logout", summary="Log out", status_code=204)
async def logout(request: Request, response: Response, hub: HubDep) -> None:
    """End this session (its cookie is cleared too). Without a session it does nothing."""
    token, from_cookie = _session_token(request)
    _check_csrf(request, from_cookie or token is None)
    if token is not None:
        await hub.storage.awrite(account_store.end_session(token))
    response.delete_cookie(COOKIE, path="/")


class Session(BaseModel):
    """Who this request is signed in as: an account, or ``None`` for a guest."""

    account: Me | None


@router.get("/api/session", summary="Who is signed in, guests included")
async def session(
    account: Annotated[Account | None, Depends(optional_account)],
) -> Session:
    """The signed-in account, or ``account: null`` for a guest (always 200: the web
    client asks on every page, and a guest is not an error)."""
    return Session(
        account=None
        if account is None
        else Me(name=account.name, moderator=account.moderator, lang=account.lang)
    )


@router.get("/api/account", summary="Who is signed in")
async def me(account: AccountDep) -> Me:
    """The signed-in account (401 when signed out)."""
    return Me(name=account.name, moderator=account.moderator, lang=account.lang)


class LangChoice(BaseModel):
    """The language a player chose in the web client's menu."""

    model_config = ConfigDict(extra="forbid")

    lang: Lang


@router.post("/api/account/lang", summary="Choose the account's language", status_code=204)
async def choose_lang(choice: LangChoice, account: AccountDep, hub: HubDep) -> None:
    """Make ``lang`` the account's language: its emails', and the one the web client
    takes on a device that has not chosen one (docs/translating.md)."""
    await hub.storage.awrite(recovery_store.set_lang(account.id, choice.lang))


async def check_password(hub: Hub, account: Account, password: str) -> None:
    stored = await hub.storage.aread(lambda s: account_store.password_hash(s, account.id))
    if not await asyncio.to_thread(verify_password, stored, password):
        raise api_error(403, "bad_password", "the current password is wrong")


@router.post("/api/account/password", summary="Change the password", status_code=204)
async def change_password(
    request: Request, change: PasswordChange, account: AccountDep, hub: HubDep
) -> None:
    """Change the password (the current one proves it is you). Every other session of
    the account ends; this one stays signed in."""
    await check_password(hub, account, change.password)
    digest = await new_hash(change.new_password)
    token, _ = _session_token(request)
    await hub.storage.awrite(account_store.set_password(account.id, digest, token or ""))


@router.post("/api/account/delete", summary="Delete the account", status_code=204)
async def delete(
    response: Response, proof: PasswordProof, account: AccountDep, hub: HubDep
) -> None:
    """Delete the account, its sessions, ratings and rating history (the password
    proves it is you). Finished games keep their records; the name is free again."""
    await check_password(hub, account, proof.password)
    await hub.storage.awrite(account_store.delete_account(account.id))
    response.delete_cookie(COOKIE, path="/")


class RatingPoint(BaseModel):
    """The rating right after one rated game: shown (``rating``) and openskill's
    conservative ``ordinal``."""

    table: str
    ordinal: float
    rating: int
    rank: int
    at: str


class GameRating(BaseModel):
    """A player's rating in one game with its counts and history: the shown number
    (``rating``, ``provisional``, ``label``; :mod:`cardtable.server.ratings`) and the
    openskill values behind it (``mu``, ``sigma``, ``ordinal``)."""

    game: str
    mu: float
    sigma: float
    ordinal: float
    rating: int
    provisional: bool
    label: str
    #: A new player's shown rating: where the history starts.
    start: int
    games: int
    wins: int
    losses: int
    history: list[RatingPoint]


class FinishedGame(BaseModel):
    """A finished game the player sat at; ``outcome`` is win, loss or None (a draw)."""

    table: str
    game: str
    rated: bool
    seat: int
    players: list[str | None]
    rank: int | None
    outcome: str | None
    finished_at: str | None


class Profile(BaseModel):
    """A player's public page."""

    name: str
    since: str
    ratings: list[GameRating]
    finished: list[FinishedGame]
    #: A bot account (docs/bot-api.md): its name carries the BOT mark; its ratings
    #: with a bot at the table are in the pools ``<game>@bots``.
    bot: bool = False


@router.get("/api/players/{name}", summary="A player's profile")
async def player(
    name: Annotated[str, Path(min_length=1, max_length=4 * NAME_MAX)], hub: HubDep
) -> Profile:
    """A registered player's ratings per game (with their history), win/loss counts and
    latest finished games; 404 for a name no account has."""
    found = await hub.storage.aread(lambda s: account_store.profile(s, name))
    if found is None:
        raise api_error(404, "no_player", f"no player is called {name!r}", name=name)
    return Profile.model_validate(found)
