"""Reads and writes of the community's rows (:mod:`.models`), each a function of a
SQLAlchemy session run by :class:`~cardtable.server.storage.Storage` (``aread`` /
``awrite``), so every process reads the same database."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from cardtable.server.community.models import (
    BlockRow,
    ChallengeRow,
    CorrespondenceRow,
    FollowRow,
    NoticeRow,
)
from cardtable.server.models import AccountRow

__all__ = [
    "add_block",
    "add_follow",
    "apart",
    "blocked_between",
    "blocked_by",
    "blockers_of",
    "cancel_between",
    "challenge",
    "challenges_of",
    "correspondence_of",
    "due_games",
    "expire_challenges",
    "followed_by",
    "insert_challenge",
    "insert_correspondence",
    "insert_notice",
    "mark_read",
    "move_challenge",
    "names_of",
    "notices_of",
    "remove_block",
    "remove_follow",
    "set_turn",
    "unread_count",
]


def _now() -> datetime:
    return datetime.now(UTC)


def names_of(ids: Iterable[str]) -> Callable[[Session], dict[str, str]]:
    """Each account's name by id (accounts gone meanwhile are left out)."""
    wanted = sorted(set(ids))

    def read(session: Session) -> dict[str, str]:
        if not wanted:
            return {}
        rows = session.execute(
            select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(wanted))
        )
        return {row.id: row.name for row in rows}

    return read


# --------------------------------------------------------------------- follows
def add_follow(follower: str, followed: str) -> Callable[[Session], None]:
    """``follower`` follows ``followed`` (again: nothing changes)."""

    def write(session: Session) -> None:
        if session.get(FollowRow, (follower, followed)) is None:
            session.add(FollowRow(follower_id=follower, followed_id=followed, created_at=_now()))

    return write


def remove_follow(follower: str, followed: str) -> Callable[[Session], None]:
    """``follower`` stops following ``followed``."""

    def write(session: Session) -> None:
        session.execute(
            delete(FollowRow).where(
                FollowRow.follower_id == follower, FollowRow.followed_id == followed
            )
        )

    return write


def _accounts_of(session: Session, column: Any, where: Any) -> Sequence[Any]:
    """The accounts (id, name; by name) that ``column`` of the rows ``where`` holds
    gives: whom one follows, whom one blocked."""
    return session.execute(
        select(AccountRow.id, AccountRow.name)
        .join(column.class_, column == AccountRow.id)
        .where(where)
        .order_by(AccountRow.name)
    ).all()


def followed_by(follower: str) -> Callable[[Session], list[dict[str, Any]]]:
    """Whom ``follower`` follows: id, name, and whether they follow back (a friend)."""

    def read(session: Session) -> list[dict[str, Any]]:
        rows = _accounts_of(session, FollowRow.followed_id, FollowRow.follower_id == follower)
        back = set(
            session.scalars(select(FollowRow.follower_id).where(FollowRow.followed_id == follower))
        )
        return [{"id": r.id, "name": r.name, "follows_you": r.id in back} for r in rows]

    return read


# ---------------------------------------------------------------------- blocks
def add_block(blocker: str, blocked: str) -> Callable[[Session], None]:
    """``blocker`` blocks ``blocked`` (and stops following them)."""

    def write(session: Session) -> None:
        if session.get(BlockRow, (blocker, blocked)) is None:
            session.add(BlockRow(blocker_id=blocker, blocked_id=blocked, created_at=_now()))
        remove_follow(blocker, blocked)(session)

    return write


def remove_block(blocker: str, blocked: str) -> Callable[[Session], None]:
    """``blocker`` lifts its block of ``blocked``."""

    def write(session: Session) -> None:
        session.execute(
            delete(BlockRow).where(BlockRow.blocker_id == blocker, BlockRow.blocked_id == blocked)
        )

    return write


def blocked_by(blocker: str) -> Callable[[Session], list[dict[str, str]]]:
    """Whom ``blocker`` blocked: id and name."""

    def read(session: Session) -> list[dict[str, str]]:
        rows = _accounts_of(session, BlockRow.blocked_id, BlockRow.blocker_id == blocker)
        return [{"id": r.id, "name": r.name} for r in rows]

    return read


def blocked_between(a: str, b: str) -> Callable[[Session], str | None]:
    """Who of ``a`` and ``b`` blocked the other (``a`` first), or ``None``."""

    def read(session: Session) -> str | None:
        for blocker, blocked in ((a, b), (b, a)):
            if session.get(BlockRow, (blocker, blocked)) is not None:
                return blocker
        return None

    return read


def apart(ids: list[str]) -> Callable[[Session], set[frozenset[str]]]:
    """The pairs among ``ids`` of which one blocked the other."""

    def read(session: Session) -> set[frozenset[str]]:
        rows = session.execute(
            select(BlockRow.blocker_id, BlockRow.blocked_id).where(
                BlockRow.blocker_id.in_(ids), BlockRow.blocked_id.in_(ids)
            )
        )
        return {frozenset((r.blocker_id, r.blocked_id)) for r in rows}

    return read


def blockers_of(speaker: str, readers: list[str]) -> Callable[[Session], set[str]]:
    """The ``readers`` who blocked ``speaker``."""

    def read(session: Session) -> set[str]:
        return set(
            session.scalars(
                select(BlockRow.blocker_id).where(
                    BlockRow.blocked_id == speaker, BlockRow.blocker_id.in_(readers)
                )
            )
        )

    return read


# ------------------------------------------------------------------ challenges
def insert_challenge(row: dict[str, Any]) -> Callable[[Session], None]:
    """Store a new challenge (its columns)."""

    def write(session: Session) -> None:
        session.execute(insert(ChallengeRow).values(**row))

    return write


def _challenge_dict(row: ChallengeRow) -> dict[str, Any]:
    return {column.name: getattr(row, column.name) for column in ChallengeRow.__table__.columns}


def challenge(challenge_id: str) -> Callable[[Session], dict[str, Any] | None]:
    """A challenge's columns, or ``None``."""

    def read(session: Session) -> dict[str, Any] | None:
        row = session.get(ChallengeRow, challenge_id)
        return None if row is None else _challenge_dict(row)

    return read


def challenges_of(account: str, since: float) -> Callable[[Session], list[dict[str, Any]]]:
    """The challenges ``account`` made or received, newest first: every pending one,
    and the others made after ``since``."""

    def read(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(
            select(ChallengeRow)
            .where(
                or_(ChallengeRow.challenger_id == account, ChallengeRow.challenged_id == account),
                or_(ChallengeRow.status == "pending", ChallengeRow.created_at >= since),
            )
            .order_by(ChallengeRow.created_at.desc())
            .limit(100)
        )
        return [_challenge_dict(row) for row in rows]

    return read


def move_challenge(
    challenge_id: str, before: str, after: str, **values: Any
) -> Callable[[Session], bool]:
    """Set a challenge's status from ``before`` to ``after`` (with ``values``) only if it
    is ``before`` now: a compare-and-set, so two processes answering one challenge at
    once change it once. True when this call changed it."""

    def write(session: Session) -> bool:
        done = session.execute(
            update(ChallengeRow)
            .where(ChallengeRow.id == challenge_id, ChallengeRow.status == before)
            .values(status=after, **values)
        )
        return bool(getattr(done, "rowcount", 0))

    return write


def cancel_between(a: str, b: str) -> Callable[[Session], None]:
    """Cancel every pending challenge between ``a`` and ``b`` (one blocked the other)."""

    def write(session: Session) -> None:
        session.execute(
            update(ChallengeRow)
            .where(
                ChallengeRow.status == "pending",
                or_(
                    (ChallengeRow.challenger_id == a) & (ChallengeRow.challenged_id == b),
                    (ChallengeRow.challenger_id == b) & (ChallengeRow.challenged_id == a),
                ),
            )
            .values(status="cancelled")
        )

    return write


def expire_challenges(now: float) -> Callable[[Session], list[dict[str, Any]]]:
    """Mark every pending challenge past its time ``expired``; those it marked."""

    def write(session: Session) -> list[dict[str, Any]]:
        rows = list(
            session.scalars(
                select(ChallengeRow).where(
                    ChallengeRow.status == "pending", ChallengeRow.expires_at <= now
                )
            )
        )
        for row in rows:
            row.status = "expired"
        return [_challenge_dict(row) for row in rows]

    return write


# -------------------------------------------------------------- correspondence
def insert_correspondence(
    table_id: str,
    days: int,
    accounts: list[str],
    tokens: dict[str, str],
    version: int,
    deadline: float,
) -> Callable[[Session], None]:
    """Store a new correspondence game (nobody to move yet: the first move sets it)."""

    def write(session: Session) -> None:
        session.add(
            CorrespondenceRow(
                table_id=table_id,
                days=days,
                accounts=accounts,
                tokens=tokens,
                players="|" + "|".join(accounts) + "|",
                to_move=None,
                to_move_account=None,
                version=version,
                deadline=deadline,
                finished=False,
            )
        )

    return write


def _game_dict(row: CorrespondenceRow) -> dict[str, Any]:
    return {
        column.name: getattr(row, column.name) for column in CorrespondenceRow.__table__.columns
    }


def set_turn(
    table_id: str, to_move: int | None, version: int, now: float, finished: bool
) -> Callable[[Session], dict[str, Any] | None]:
    """A correspondence game moved on to ``version`` (its count of moves): when the
    turn passes to another seat, ``to_move`` has the game's days from ``now`` (a turn
    of several moves — a draw, then a play — keeps its deadline); a finished game has
    nobody to move. Only forward (an older version told late changes nothing). The row
    as it is then with ``passed`` (the turn went to another seat just now), or
    ``None`` (not such a game)."""

    def write(session: Session) -> dict[str, Any] | None:
        row = session.get(CorrespondenceRow, table_id)
        if row is None:
            return None
        passed = False
        if version > row.version or (finished and not row.finished):
            mover = None if finished else to_move
            passed = mover is not None and (mover != row.to_move or row.version < 0)
            row.version = max(row.version, version)
            row.finished = finished
            row.to_move = mover
            row.to_move_account = None if mover is None else row.accounts[mover]
            if passed:
                row.deadline = now + row.days * 86400
        return {**_game_dict(row), "passed": passed}

    return write


def due_games(now: float) -> Callable[[Session], list[dict[str, Any]]]:
    """The unfinished correspondence games whose mover's time ran out by ``now``."""

    def read(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(
            select(CorrespondenceRow).where(
                CorrespondenceRow.finished.is_(False),
                CorrespondenceRow.to_move.is_not(None),
                CorrespondenceRow.deadline <= now,
            )
        )
        return [_game_dict(row) for row in rows]

    return read


def correspondence_of(account: str) -> Callable[[Session], list[dict[str, Any]]]:
    """The unfinished correspondence games of ``account``, the soonest deadline first."""

    def read(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(
            select(CorrespondenceRow)
            .where(
                CorrespondenceRow.finished.is_(False),
                CorrespondenceRow.players.like(f"%|{account}|%"),
            )
            .order_by(CorrespondenceRow.deadline)
        )
        return [_game_dict(row) for row in rows]

    return read


# --------------------------------------------------------------------- notices
def insert_notice(
    account: str, kind: str, params: dict[str, Any], now: float
) -> Callable[[Session], int]:
    """Store a notice for ``account``; its id."""

    def write(session: Session) -> int:
        row = NoticeRow(account_id=account, kind=kind, params=params, read=False, created_at=now)
        session.add(row)
        session.flush()
        return int(row.id)

    return write


def notices_of(account: str, limit: int = 50) -> Callable[[Session], list[dict[str, Any]]]:
    """The newest notices of ``account``."""

    def read(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(
            select(NoticeRow)
            .where(NoticeRow.account_id == account)
            .order_by(NoticeRow.id.desc())
            .limit(limit)
        )
        return [
            {
                "id": r.id,
                "kind": r.kind,
                "params": r.params,
                "read": r.read,
                "at": r.created_at,
            }
            for r in rows
        ]

    return read


def unread_count(account: str) -> Callable[[Session], int]:
    """How many notices of ``account`` are unread."""

    def read(session: Session) -> int:
        count = session.scalar(
            select(func.count())
            .select_from(NoticeRow)
            .where(NoticeRow.account_id == account, NoticeRow.read.is_(False))
        )
        return int(count or 0)

    return read


def mark_read(account: str, up_to: int | None) -> Callable[[Session], None]:
    """Mark ``account``'s notices read (those up to id ``up_to``, or all)."""

    def write(session: Session) -> None:
        where = [NoticeRow.account_id == account, NoticeRow.read.is_(False)]
        if up_to is not None:
            where.append(NoticeRow.id <= up_to)
        session.execute(update(NoticeRow).where(*where).values(read=True))

    return write
