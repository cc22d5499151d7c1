"""The Bot API's reads and writes, run by :class:`~cardtable.server.storage.Storage`.

Each function returns a callable of a SQLAlchemy session (``awrite`` for changes,
``aread`` for reads), like :mod:`cardtable.server.community.store`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from cardtable.server.botapi.models import ApiTokenRow, BotAccountRow, BotGameRow
from cardtable.server.models import AccountRow, RatingHistoryRow, TableRow

__all__ = [
    "BOT_POOL",
    "TokenOwner",
    "add_bot_game",
    "bot_game",
    "bot_games_of",
    "bots_among",
    "finish_bot_game",
    "insert_token",
    "make_bot",
    "pool_of",
    "revoke_token",
    "table_status",
    "token_owner",
    "tokens_of",
    "touch_token",
]

#: The suffix of a game's ratings pool for games with a bot account at any seat.
BOT_POOL = "@bots"


@dataclass(frozen=True, slots=True)
class TokenOwner:
    """Who a live token speaks for: the token's id and scopes, the account, whether
    it is a bot account."""

    token_id: str
    scopes: tuple[str, ...]
    account_id: str
    name: str
    bot: bool


def insert_token(row: dict[str, Any]) -> Callable[[Session], None]:
    """Store a new token (its digest, never the token)."""

    def write(session: Session) -> None:
        session.add(ApiTokenRow(**row))

    return write


def tokens_of(account: str) -> Callable[[Session], list[dict[str, Any]]]:
    """The live tokens of an account, newest first (no digests)."""

    def read(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(
            select(ApiTokenRow)
            .where(ApiTokenRow.account_id == account, ApiTokenRow.revoked_at.is_(None))
            .order_by(ApiTokenRow.created_at.desc())
        ).all()
        return [
            {
                "id": r.id,
                "name": r.name,
                "scopes": list(r.scopes),
                "created_at": r.created_at,
                "last_used_at": r.last_used_at,
            }
            for r in rows
        ]

    return read


def revoke_token(account: str, token_id: str, now: float) -> Callable[[Session], bool]:
    """Revoke one live token of the account; whether there was one."""

    def write(session: Session) -> bool:
        done = session.execute(
            update(ApiTokenRow)
            .where(
                ApiTokenRow.id == token_id,
                ApiTokenRow.account_id == account,
                ApiTokenRow.revoked_at.is_(None),
            )
            .values(revoked_at=now)
        )
        return bool(getattr(done, "rowcount", 0))

    return write


def token_owner(digest: str) -> Callable[[Session], tuple[TokenOwner, float | None] | None]:
    """The owner of the live token with this digest and when it was last used, or
    ``None`` for an unknown or revoked token, or a banned account."""

    def read(session: Session) -> tuple[TokenOwner, float | None] | None:
        found = session.execute(
            select(ApiTokenRow, AccountRow.name, BotAccountRow.account_id)
            .join(AccountRow, AccountRow.id == ApiTokenRow.account_id)
            .outerjoin(BotAccountRow, BotAccountRow.account_id == ApiTokenRow.account_id)
            .where(
                ApiTokenRow.digest == digest,
                ApiTokenRow.revoked_at.is_(None),
                AccountRow.banned_at.is_(None),
            )
        ).first()
        if found is None:
            return None
        token, name, bot = found
        owner = TokenOwner(token.id, tuple(token.scopes), token.account_id, name, bot is not None)
        return owner, token.last_used_at

    return read


def touch_token(token_id: str, now: float) -> Callable[[Session], None]:
    """Note when a token was last used."""

    def write(session: Session) -> None:
        session.execute(
            update(ApiTokenRow).where(ApiTokenRow.id == token_id).values(last_used_at=now)
        )

    return write


def make_bot(account: str, now: float) -> Callable[[Session], str]:
    """Turn the account into a bot: ``"done"``, ``"already"`` (a bot already) or
    ``"rated"`` (it played rated games as a person: refused)."""

    def write(session: Session) -> str:
        if session.get(BotAccountRow, account) is not None:
            return "already"
        rated = session.scalars(
            select(RatingHistoryRow.id).where(RatingHistoryRow.account_id == account).limit(1)
        ).first()
        if rated is not None:
            return "rated"
        session.add(BotAccountRow(account_id=account, since=now))
        return "done"

    return write


def bots_among(accounts: Iterable[str | None]) -> Callable[[Session], set[str]]:
    """Which of these account ids are bots."""
    ids = {a for a in accounts if a is not None}

    def read(session: Session) -> set[str]:
        if not ids:
            return set()
        return set(
            session.scalars(
                select(BotAccountRow.account_id).where(BotAccountRow.account_id.in_(ids))
            ).all()
        )

    return read


def pool_of(session: Session, game: str, accounts: Iterable[str | None]) -> str:
    """The ratings pool a rated game goes to: ``game`` between people, ``game@bots``
    with a bot account at any seat (docs/bot-api.md, Ratings)."""
    return f"{game}{BOT_POOL}" if bots_among(accounts)(session) else game


def add_bot_game(
    account: str, table_id: str, seat: int, token: str, now: float
) -> Callable[[Session], bool]:
    """Note a seat the bot holds (once); whether it was new."""

    def write(session: Session) -> bool:
        if session.get(BotGameRow, (account, table_id)) is not None:
            return False
        session.add(
            BotGameRow(
                account_id=account,
                table_id=table_id,
                seat=seat,
                token=token,
                created_at=now,
                finished=False,
            )
        )
        return True

    return write


def _game(row: BotGameRow) -> dict[str, Any]:
    """A bot's seat as the service uses it (the token never leaves the server)."""
    return {"table_id": row.table_id, "seat": row.seat, "token": row.token}


def bot_games_of(account: str) -> Callable[[Session], list[dict[str, Any]]]:
    """The bot's unfinished games, oldest first."""

    def read(session: Session) -> list[dict[str, Any]]:
        query = select(BotGameRow).where(
            BotGameRow.account_id == account, BotGameRow.finished.is_(False)
        )
        return [_game(r) for r in session.scalars(query.order_by(BotGameRow.created_at))]

    return read


def bot_game(account: str, table_id: str) -> Callable[[Session], dict[str, Any] | None]:
    """The bot's seat at one table, or ``None``."""

    def read(session: Session) -> dict[str, Any] | None:
        row = session.get(BotGameRow, (account, table_id))
        return None if row is None else _game(row)

    return read


def table_status(table_id: str) -> Callable[[Session], tuple[str, str] | None]:
    """A stored table's status and game, or ``None``."""

    def read(session: Session) -> tuple[str, str] | None:
        row = session.get(TableRow, table_id)
        return None if row is None else (row.status, row.game)

    return read


def finish_bot_game(account: str, table_id: str) -> Callable[[Session], None]:
    """Note that the bot's game is over."""

    def write(session: Session) -> None:
        session.execute(
            update(BotGameRow)
            .where(BotGameRow.account_id == account, BotGameRow.table_id == table_id)
            .values(finished=True)
        )

    return write
