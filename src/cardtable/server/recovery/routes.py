"""The routes of recovery: the account's email address and the password reset.

- ``GET /api/account/email`` — the verified address and the one waiting for its link;
- ``POST /api/account/email`` — add or change the address (the password proves it is
  you): a verification link goes to the new address; the old one counts until then;
- ``POST /api/account/email/remove`` — forget the address (the password again);
- ``POST /api/account/email/verify`` — use a verification link's token;
- ``POST /api/account/recover`` — "forgot password" by name or address: always 202
  with the same words, answered before anything is looked up;
- ``POST /api/account/reset`` — a reset link's token and the new password: every
  session of the account ends.

The links are pages of the client, ``/verify-email#TOKEN`` and ``/reset#TOKEN``, whose
script sends the token here.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from cardtable.server.recovery import store
from cardtable.server.recovery.service import Recovery
from cardtable.server.routes import app_service, current_hub
from cardtable.server.routes.accounts import (
    AccountDep,
    Lang,
    Password,
    api_error,
    check_password,
    new_hash,
    require_header,
)
from cardtable.server.runtime import Hub

__all__ = ["current_recovery", "router"]

router = APIRouter(tags=["recovery"])

HubDep = Annotated[Hub, Depends(current_hub)]

#: A link's token as the client sends it (the links carry 43 characters).
LinkToken = Annotated[str, Field(min_length=1, max_length=128)]


def current_recovery(connection: HTTPConnection) -> Recovery:
    """The application's recovery service (a dependency), or 503 while starting."""
    service: Recovery = app_service(connection, "recovery")
    return service


RecoveryDep = Annotated[Recovery, Depends(current_recovery)]


class EmailState(BaseModel):
    """The account's verified address, and the one waiting for its link."""

    email: str | None
    pending: str | None


class NewEmail(BaseModel):
    """An address to verify, the current password, the emails' language."""

    model_config = ConfigDict(extra="forbid")

    email: str = Field(min_length=3, max_length=store.EMAIL_MAX)
    password: Password
    lang: Lang = "en"


class PasswordOnly(BaseModel):
    """The current password."""

    model_config = ConfigDict(extra="forbid")

    password: Password


class Link(BaseModel):
    """A link's token."""

    model_config = ConfigDict(extra="forbid")

    token: LinkToken


class Verified(BaseModel):
    """The address a verification link confirmed."""

    email: str


class Forgot(BaseModel):
    """A name or an email address whose password is forgotten."""

    model_config = ConfigDict(extra="forbid")

    who: str = Field(min_length=1, max_length=store.EMAIL_MAX)


class Sent(BaseModel):
    """The one answer of "forgot password", whoever was asked about."""

    message: str


class Reset(BaseModel):
    """A reset link's token and the new password."""

    model_config = ConfigDict(extra="forbid")

    token: LinkToken
    new_password: Password


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _limited(code: str, message: str, wait: int) -> Exception:
    return api_error(
        429, code, message, headers={"Retry-After": str(wait)}, seconds=wait, minutes=-(-wait // 60)
    )


@router.get("/api/account/email", summary="The account's email address")
async def email(account: AccountDep, hub: HubDep) -> EmailState:
    """The verified address (``null``: none) and one waiting for its link."""
    state = await hub.storage.aread(store.email_state(account.id))
    return EmailState.model_validate(state)


@router.post("/api/account/email", summary="Add or change the email address", status_code=202)
async def add_email(
    request: Request, body: NewEmail, account: AccountDep, hub: HubDep, recovery: RecoveryDep
) -> EmailState:
    """Send a verification link to a new address (valid for 48 hours); the address
    counts once the link is opened. 422 for what is not one address, 403 for a wrong
    password, 429 when asked too often."""
    address = store.check_email(body.email)
    if address is None:
        raise api_error(422, "bad_email", "that is not an email address")
    await check_password(hub, account, body.password)
    wait = await recovery.email_by_account.acquire(account.id)
    if wait:
        raise _limited("email_limited", f"too many addresses: try again in {wait} s", wait)
    await hub.storage.awrite(store.set_lang(account.id, body.lang))
    recipient = store.Recipient(account.id, account.name, address, body.lang)
    await recovery.send_verification(recipient, str(request.base_url))
    state = await hub.storage.aread(store.email_state(account.id))
    return EmailState.model_validate(state)


@router.post("/api/account/email/remove", summary="Forget the email address", status_code=204)
async def remove_email(body: PasswordOnly, account: AccountDep, hub: HubDep) -> None:
    """Forget the address (and any link waiting): no mail reaches the account, and a
    forgotten password can no longer be reset."""
    await check_password(hub, account, body.password)
    await hub.storage.awrite(store.remove_email(account.id))


async def _link_allowed(request: Request, recovery: Recovery) -> None:
    wait = await recovery.links_by_address.acquire(_address(request))
    if wait:
        raise _limited("links_limited", f"too many links tried: wait {wait} s", wait)


def _refused(refused: store.Refused) -> Exception:
    messages = {
        "link_unknown": (400, "this link is not valid: ask for a new one"),
        "link_used": (410, "this link has been used already: ask for a new one"),
        "link_expired": (410, "this link has expired: ask for a new one"),
    }
    status, message = messages[refused.code]
    return api_error(status, refused.code, message)


@router.post("/api/account/email/verify", summary="Confirm an email address")
async def verify(request: Request, body: Link, hub: HubDep, recovery: RecoveryDep) -> Verified:
    """Use a verification link: its address becomes the account's. A link works once
    and for 48 hours (400 unknown, 410 used or expired)."""
    require_header(request)
    await _link_allowed(request, recovery)
    done = await hub.storage.awrite(store.verify_email(body.token))
    if isinstance(done, store.Refused):
        raise _refused(done)
    return Verified(email=done)


#: The one answer of "forgot password".
SENT = (
    "if an account has that name or address and a verified email address, "
    "a link to reset its password is on its way"
)


@router.post("/api/account/recover", summary="Forgot the password", status_code=202)
async def recover(request: Request, body: Forgot, hub: HubDep, recovery: RecoveryDep) -> Sent:
    """Mail a reset link (valid 30 minutes, once) to the verified address of the account
    named ``who``, or of the accounts with that address. The answer is the same whether
    or not there is such an account, and comes before anything is looked up; 429 when
    one client address asks too often (a count of the address, not of any account)."""
    require_header(request)
    wait = await recovery.recover_by_address.acquire(_address(request))
    if wait:
        raise _limited("recover_limited", f"too many requests: try again in {wait} s", wait)
    recovery.recover(body.who.strip(), str(request.base_url))
    return Sent(message=SENT)


@router.post("/api/account/reset", summary="Reset the password by a link", status_code=204)
async def reset(request: Request, body: Reset, hub: HubDep, recovery: RecoveryDep) -> None:
    """Choose a new password with a reset link's token: the link is used up, and every
    session of the account ends (sign in again). 422 for a short password (the link
    still works), 400 unknown link, 410 used or expired."""
    require_header(request)
    await _link_allowed(request, recovery)
    digest = await new_hash(body.new_password)
    done = await hub.storage.awrite(store.reset_password(body.token, digest))
    if isinstance(done, store.Refused):
        raise _refused(done)
