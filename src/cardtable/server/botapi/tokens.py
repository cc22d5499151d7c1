"""Personal API tokens: made, proven, limited and revoked.

A token is ``ctp_`` and 43 URL-safe characters (256 random bits); the server keeps its
SHA-256 only (:func:`cardtable.server.accounts.session_digest`), shows the token once
when it is made, and from then on knows it by a short public ``id``. Each token holds
scopes: ``bot:play`` (the Bot API: streams, moves, challenges, seeks; a bot account's
upgrade) and ``games:read`` (the account's games and their streams, read only).

A request proves a token with ``Authorization: Bearer ctp_…`` and nothing else: a
person's session (cookie or session bearer) is refused on the Bot API, and a token is
refused on the person routes (:mod:`cardtable.server.routes.accounts`).

Every request reads the token's row, so a revoked token is refused by the next request
on every process at once (the database is the one store all processes share); an open
stream reads it again every :data:`RECHECK_SECONDS` and ends.

Limits (token buckets of :mod:`cardtable.server.limits`, in Redis with several
processes): :data:`PER_TOKEN` requests per token, and a bad token (unknown, revoked,
malformed) costs its address from :data:`BAD_PER_ADDRESS`: a client guessing tokens is
answered 429 with ``Retry-After`` long before a guess could matter.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from starlette.requests import HTTPConnection

from cardtable.server.accounts import session_digest
from cardtable.server.botapi import store
from cardtable.server.botapi.store import TokenOwner
from cardtable.server.limits import TokenBuckets, token_buckets
from cardtable.server.live import HubError
from cardtable.server.shared import Shared
from cardtable.server.storage import Storage

__all__ = [
    "BAD_PER_ADDRESS",
    "PER_TOKEN",
    "PREFIX",
    "RECHECK_SECONDS",
    "SCOPES",
    "Gatekeeper",
    "bearer",
    "is_api_token",
    "new_token",
    "refuse",
]

#: What every personal API token starts with (and no session token does).
PREFIX: Final = "ctp_"
#: The scopes a token may hold.
SCOPES: Final = ("bot:play", "games:read")
#: Requests a token may make: a burst of 60, then one each 0.1 s.
PER_TOKEN: Final = (60, 0.1)
#: Bad tokens an address may send: a burst of 10, then one each 30 s.
BAD_PER_ADDRESS: Final = (10, 30.0)
#: How often an open stream reads its token again.
RECHECK_SECONDS: Final = 1.0
#: The length of a token: the prefix and 43 characters.
_LENGTH: Final = len(PREFIX) + 43


def refuse(status: int, code: str, message: str, **params: object) -> HubError:
    """A refusal of the Bot API (its message id ``botapi.<code>``)."""
    return HubError(status, code, message, dict(params), f"botapi.{code}")


def is_api_token(token: str) -> bool:
    """Whether ``token`` has the form of a personal API token (a session token has 43
    characters, never 47).

    >>> is_api_token(new_token()), is_api_token("ctp_short")
    (True, False)
    """
    return token.startswith(PREFIX) and len(token) == _LENGTH


def new_token() -> str:
    """A new personal API token."""
    return PREFIX + secrets.token_urlsafe(32)


def bearer(connection: HTTPConnection) -> str | None:
    """The bearer credential sent, if any."""
    scheme, _, value = connection.headers.get("authorization", "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


@dataclass
class Gatekeeper:
    """Proves tokens for the Bot API's routes and keeps their limits."""

    storage: Storage
    shared: Shared | None = None
    clock: Callable[[], float] = time.time

    def __post_init__(self) -> None:
        self.per_token: TokenBuckets = token_buckets(
            self.shared, "api-token", burst=PER_TOKEN[0], seconds=PER_TOKEN[1]
        )
        self.bad: TokenBuckets = token_buckets(
            self.shared, "api-bad-token", burst=BAD_PER_ADDRESS[0], seconds=BAD_PER_ADDRESS[1]
        )

    async def owner(self, token: str) -> TokenOwner | None:
        """The owner of a live token, or ``None`` (no limits counted: streams use it)."""
        if not is_api_token(token):
            return None
        found = await self.storage.aread(store.token_owner(session_digest(token)))
        if found is None:
            return None
        owner, last = found
        now = self.clock()
        if last is None or now - last > 60:  # at most one write a minute per token
            await self.storage.awrite(store.touch_token(owner.token_id, now))
        return owner

    async def check(self, connection: HTTPConnection, scope: str) -> TokenOwner:
        """The owner of the request's token with ``scope``, or a 401, 403 or 429."""
        address = connection.client.host if connection.client is not None else "unknown"
        token = bearer(connection)
        if token is None:
            if connection.cookies:
                raise refuse(
                    401,
                    "token_required",
                    "the Bot API takes a personal API token (Authorization: Bearer ctp_…), "
                    "not a session",
                )
            raise refuse(401, "token_required", "send Authorization: Bearer ctp_…")
        owner = await self.owner(token)
        if owner is None:
            wait = await self.bad.acquire(address)
            if wait:
                raise self._limited("bad_token_limited", "too many bad tokens", wait)
            raise refuse(401, "bad_token", "unknown or revoked token")
        wait = await self.per_token.acquire(owner.token_id)
        if wait:
            raise self._limited("token_limited", "too many requests with this token", wait)
        if scope not in owner.scopes:
            raise refuse(403, "scope", f"this token lacks the scope {scope!r}", scope=scope)
        return owner

    @staticmethod
    def _limited(code: str, message: str, wait: int) -> HubError:
        error = refuse(429, code, f"{message}: try again in {wait} s", seconds=wait)
        error.retry_after = wait
        return error
