"""The database side of accounts: create, find, sessions, delete, the profile's facts.

Each function takes a SQLAlchemy :class:`~sqlalchemy.orm.Session` and is run by
:class:`~cardtable.server.storage.Storage` (``awrite`` for changes, ``aread`` for
reads), like the table writes of :mod:`.storage`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from cardtable.server.accounts import name_key, session_digest, skeleton
from cardtable.server.botapi.store import bots_among
from cardtable.server.models import (
    AccountRow,
    RatingHistoryRow,
    RatingRow,
    SessionRow,
    TableRow,
)
from cardtable.server.ratings import DEFAULT_MU, DEFAULT_SIGMA, Rating

__all__ = [
    "SESSION_DAYS",
    "Account",
    "create_account",
    "delete_account",
    "end_session",
    "find_by_name",
    "finished_games",
    "name_owner",
    "profile",
    "session_account",
    "set_password",
    "start_session",
]

#: How long a session lasts without logging in again.
SESSION_DAYS = 30


@dataclass(frozen=True, slots=True)
class Account:
    """A registered player as the routes see it (never the password hash): whether it
    is a moderator, and (at login) whether it is banned."""

    id: str
    name: str
    moderator: bool = False
    banned: bool = False
    #: The account's language (of its emails, and of the web client on a device that
    #: has not chosen one).
    lang: str = "en"


class NameTaken(Exception):
    """The name (or one confusable with it) belongs to an account already."""


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def create_account(name: str, password_hash: str) -> Callable[[Session], Account]:
    """A write that registers ``name``; raises :class:`NameTaken` when its key or
    skeleton is an account's already (the unique indexes also guard a race)."""

    def run(session: Session) -> Account:
        key, skel = name_key(name), skeleton(name)
        clash = session.scalar(
            select(AccountRow.id).where(
                or_(AccountRow.name_key == key, AccountRow.skeleton == skel)
            )
        )
        if clash is not None:
            raise NameTaken(name)
        row = AccountRow(
            id=secrets.token_hex(8),
            name=name,
            name_key=key,
            skeleton=skel,
            password_hash=password_hash,
            created_at=_now(),
        )
        session.add(row)
        return Account(row.id, row.name)

    return run


def name_owner(name: str) -> Callable[[Session], str | None]:
    """A read: the account whose name ``name`` is or is confusable with (same key or
    skeleton), as that account writes it; ``None`` when no account's is."""

    def run(session: Session) -> str | None:
        return session.scalar(
            select(AccountRow.name).where(
                or_(AccountRow.name_key == name_key(name), AccountRow.skeleton == skeleton(name))
            )
        )

    return run


def find_by_name(session: Session, name: str) -> tuple[Account, str] | None:
    """The account called ``name`` (by its key) with its password hash, or ``None``."""
    row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
    if row is None:
        return None
    account = Account(row.id, row.name, row.moderator, row.banned_at is not None, row.lang)
    return account, row.password_hash


def password_hash(session: Session, account_id: str) -> str | None:
    """The account's password hash (``None`` when it was deleted meanwhile)."""
    return session.scalar(select(AccountRow.password_hash).where(AccountRow.id == account_id))


def start_session(account_id: str, token: str) -> Callable[[Session], None]:
    """A write that opens a session for ``token`` (stored as its digest); expired
    sessions of the account are cleared on the way."""

    def run(session: Session) -> None:
        now = _now()
        session.execute(
            delete(SessionRow).where(
                SessionRow.account_id == account_id, SessionRow.expires_at <= now
            )
        )
        session.add(
            SessionRow(
                digest=session_digest(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + timedelta(days=SESSION_DAYS),
            )
        )

    return run


def session_account(session: Session, token: str) -> Account | None:
    """The account a session token is signed in as, or ``None`` (unknown, expired, or
    the account is banned: a ban ends its sessions, and this holds against a session
    opened in the same moment)."""
    found = session.execute(
        select(
            AccountRow.id,
            AccountRow.name,
            AccountRow.moderator,
            AccountRow.lang,
            SessionRow.expires_at,
        )
        .join(SessionRow, SessionRow.account_id == AccountRow.id)
        .where(SessionRow.digest == session_digest(token), AccountRow.banned_at.is_(None))
    ).first()
    if found is None or _aware(found.expires_at) <= _now():
        return None
    return Account(found.id, found.name, bool(found.moderator), lang=found.lang or "en")


def end_session(token: str) -> Callable[[Session], None]:
    """A write that ends one session (logging out)."""

    def run(session: Session) -> None:
        session.execute(delete(SessionRow).where(SessionRow.digest == session_digest(token)))

    return run


def set_password(account_id: str, new_hash: str, keep_token: str) -> Callable[[Session], None]:
    """A write that changes the password and ends every other session of the account."""

    def run(session: Session) -> None:
        row = session.get(AccountRow, account_id)
        if row is None:
            raise LookupError(account_id)
        row.password_hash = new_hash
        session.execute(
            delete(SessionRow).where(
                SessionRow.account_id == account_id,
                SessionRow.digest != session_digest(keep_token),
            )
        )

    return run


def delete_account(account_id: str) -> Callable[[Session], None]:
    """A write that deletes the account with its sessions, ratings and history.

    Finished games keep their records (the name as it was shown at the table)."""

    def run(session: Session) -> None:
        for model in (SessionRow, RatingHistoryRow, RatingRow):
            session.execute(delete(model).where(model.account_id == account_id))
        session.execute(delete(AccountRow).where(AccountRow.id == account_id))

    return run


#: Most finished games a profile lists.
PROFILE_GAMES = 50


def profile(session: Session, name: str) -> dict[str, Any] | None:
    """A player's public profile, or ``None`` for no such account: per game the rating,
    win/loss counts and the rating after each rated game; the latest finished games the
    account sat at (rated or not) with their result for the account."""
    row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
    if row is None:
        return None
    ratings = session.scalars(select(RatingRow).where(RatingRow.account_id == row.id)).all()
    history = session.scalars(
        select(RatingHistoryRow)
        .where(RatingHistoryRow.account_id == row.id)
        .order_by(RatingHistoryRow.id)
    ).all()
    games = []
    for rating in sorted(ratings, key=lambda r: r.game):
        points = [h for h in history if h.game == rating.game]
        games.append(
            {
                "game": rating.game,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "ordinal": Rating(rating.mu, rating.sigma).ordinal,
                **Rating(rating.mu, rating.sigma, rating.games).shown(),
                "start": Rating(DEFAULT_MU, DEFAULT_SIGMA).rating,
                "games": rating.games,
                "wins": rating.wins,
                "losses": rating.losses,
                "history": [
                    {
                        "table": h.table_id,
                        "ordinal": Rating(h.mu, h.sigma).ordinal,
                        "rating": Rating(h.mu, h.sigma).rating,
                        "rank": h.rank,
                        "at": _aware(h.created_at).isoformat(),
                    }
                    for h in points
                ],
            }
        )
    return {
        "name": row.name,
        "since": _aware(row.created_at).isoformat(),
        "ratings": games,
        "finished": finished_games(session, row.id),
        "bot": bool(bots_among([row.id])(session)),
    }


def finished_games(
    session: Session, account_id: str, most: int = PROFILE_GAMES
) -> list[dict[str, Any]]:
    """The latest ``most`` finished tables with a seat of the account (searched in the
    seats' stored facts; the JSON column is read in Python so SQLite and PostgreSQL
    agree)."""
    found: list[dict[str, Any]] = []
    query = (
        select(TableRow)
        .where(TableRow.status == "finished")
        .order_by(TableRow.finished_at.desc())
        .execution_options(yield_per=200)
    )
    for table in session.scalars(query):
        seats = table.meta.get("seats", [])
        mine = [s for s in seats if s.get("account") == account_id]
        if not mine:
            continue
        ranks = (table.result or {}).get("ranks") or []
        seat = int(mine[0]["index"])
        rank = ranks[seat] if seat < len(ranks) else None
        best = min(ranks, default=None)
        outcome = (
            None if rank is None or len(set(ranks)) <= 1 else ("win" if rank == best else "loss")
        )
        found.append(
            {
                "table": table.id,
                "game": table.game,
                "rated": table.rated,
                "seat": seat,
                "players": [s.get("name") for s in seats],
                "rank": rank,
                "outcome": outcome,
                "finished_at": _aware(table.finished_at).isoformat() if table.finished_at else None,
            }
        )
        if len(found) >= most:
            break
    return found
