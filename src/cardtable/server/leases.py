"""Table leases with fencing tokens: which server process owns a live table.

Several ``cardtable serve`` processes may share one database (docs/server.md,
"Several processes"). Each live table has one *owner* that orders its moves; the
``table_leases`` row says who, until when (a Unix time the owner keeps pushing
forward), and carries a *fencing token* that grows by one at every change of owner.

Every write of a table's state or moves made by an owner checks, in the same
transaction, that the row still names that owner with that token (:func:`check`): an
owner that stopped for longer than its lease (a long pause, a lost network) and wakes
up after another process took the table over cannot write anything — its write fails
with :class:`Fenced` and it drops the table. On PostgreSQL the check is an ``UPDATE``
that locks the lease row until the commit, so a takeover (which updates the same row)
is ordered either before the write (the write fails) or after it (the new owner reads
the move).

Every function here returns a write (or a read) for :class:`~.storage.Storage`; none
does I/O by itself. Times are passed in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import cast

from sqlalchemy import Select, Update, and_, case, insert, or_, select, update
from sqlalchemy import Table as Table_
from sqlalchemy.orm import Session

from cardtable.server.models import LeaseRow, TableRow
from cardtable.table import Status

__all__ = [
    "Fence",
    "Fenced",
    "Lease",
    "check",
    "claim",
    "lease_of",
    "orphans",
    "release",
    "renew",
    "renewal",
    "start_lease",
    "still_held",
    "transfer",
]

_LEASES = cast(Table_, LeaseRow.__table__)
_TABLES = cast(Table_, TableRow.__table__)


class Fenced(Exception):
    """A write by a process that no longer owns the table (its token is stale)."""


@dataclass(frozen=True, slots=True)
class Fence:
    """What an owner proves with each write: its instance id and its token; and how
    long its lease runs (``lease_seconds``, 0: unknown), so that each write it makes
    also renews the lease (:func:`check`)."""

    owner: str
    token: int
    lease_seconds: float = field(default=0.0, compare=False)


@dataclass(frozen=True, slots=True)
class Lease:
    """A table's lease row as read."""

    table_id: str
    owner: str | None
    token: int
    expires_at: float

    def held(self, now: float) -> bool:
        """Whether a process holds it at ``now`` (named, and not expired)."""
        return self.owner is not None and self.expires_at > now


def check(session: Session, table_id: str, fence: Fence) -> None:
    """Refuse (raise :class:`Fenced`) unless ``fence`` still owns ``table_id``; in the
    caller's transaction, so the write that follows commits only with the lease.

    With the fence's ``lease_seconds`` the check also renews the lease (never
    shortening it): a table being written is plainly alive, and the lease thread,
    which never waits for a row a write has locked, need not renew it then."""
    values: dict[str, object] = {"token": fence.token}
    if fence.lease_seconds:
        until = time.time() + fence.lease_seconds
        values["expires_at"] = case(
            (_LEASES.c.expires_at < until, until), else_=_LEASES.c.expires_at
        )
    done = session.execute(
        update(_LEASES)
        .where(
            _LEASES.c.table_id == table_id,
            _LEASES.c.owner == fence.owner,
            _LEASES.c.token == fence.token,
        )
        .values(values)
    )
    if getattr(done, "rowcount", 0) != 1:
        raise Fenced(f"table {table_id}: {fence.owner} no longer owns it (token {fence.token})")


def start_lease(session: Session, table_id: str, owner: str, until: float) -> Fence:
    """The lease of a table just inserted: ``owner`` holds it with token 1."""
    session.execute(
        insert(_LEASES).values(table_id=table_id, owner=owner, token=1, expires_at=until)
    )
    return Fence(owner, 1)


def claim(table_id: str, owner: str, now: float, until: float) -> Callable[[Session], Fence | None]:
    """A write that makes ``owner`` the owner of ``table_id`` until ``until`` when
    nobody holds it at ``now`` (released, expired, or no lease yet), with the next
    token; the same fence when ``owner`` holds it already. ``None``: another process
    holds it, or there is no such table."""

    def run(session: Session) -> Fence | None:
        row = session.execute(
            select(_LEASES.c.owner, _LEASES.c.token, _LEASES.c.expires_at).where(
                _LEASES.c.table_id == table_id
            )
        ).first()
        if row is None:
            if session.get(TableRow, table_id) is None:
                return None
            fence = start_lease(session, table_id, owner, until)
            return Fence(owner, fence.token, until - now)
        held_by, token, expires = row
        if held_by == owner:
            session.execute(
                update(_LEASES).where(_LEASES.c.table_id == table_id).values(expires_at=until)
            )
            return Fence(owner, int(token), until - now)
        if held_by is not None and expires > now:
            return None
        # Compare-and-set on the token, and on the lease being over still: of two
        # processes claiming at once one wins, and an owner whose write renewed the
        # lease meanwhile (the row was locked by it) keeps it.
        done = session.execute(
            update(_LEASES)
            .where(
                _LEASES.c.table_id == table_id,
                _LEASES.c.token == token,
                or_(_LEASES.c.owner.is_(None), _LEASES.c.expires_at <= now),
            )
            .values(owner=owner, token=token + 1, expires_at=until)
        )
        if getattr(done, "rowcount", 0) != 1:
            return None
        return Fence(owner, int(token) + 1, until - now)

    return run


def renew(owner: str, table_ids: Collection[str], until: float) -> Callable[[Session], set[str]]:
    """A write that extends ``owner``'s leases of ``table_ids`` to ``until``; returns
    those it still holds (the rest were taken over: the owner drops them)."""
    ids = list(table_ids)

    def run(session: Session) -> set[str]:
        if not ids:
            return set()
        session.execute(
            update(_LEASES)
            .where(_LEASES.c.owner == owner, _LEASES.c.table_id.in_(ids))
            .values(expires_at=until)
        )
        return set(
            session.scalars(
                select(_LEASES.c.table_id).where(
                    _LEASES.c.owner == owner, _LEASES.c.table_id.in_(ids)
                )
            ).all()
        )

    return run


def renewal(owner: str, table_ids: Collection[str], until: float) -> Update:
    """The one statement that extends ``owner``'s leases of ``table_ids`` to ``until``
    and returns the ids it renewed, for the lease thread (:mod:`.cluster.keeper`) to run
    in autocommit, in one round trip. It never waits for a row lock: a lease row locked
    by a write in progress is skipped — that write's fence check renews it as it commits
    (:func:`check`), and waiting on several rows, with the writer's transaction locking
    them in another order, could deadlock. :func:`still_held` tells a skipped lease
    from a lost one."""
    mine = (
        select(_LEASES.c.table_id)
        .where(_LEASES.c.owner == owner, _LEASES.c.table_id.in_(list(table_ids)))
        .with_for_update(skip_locked=True)
    )
    return (
        update(_LEASES)
        .where(_LEASES.c.table_id.in_(mine))
        .values(expires_at=until)
        .returning(_LEASES.c.table_id)
    )


def still_held(owner: str, table_ids: Collection[str]) -> Select[tuple[str]]:
    """The read of which of ``table_ids`` ``owner`` still holds (no lock taken)."""
    return select(_LEASES.c.table_id).where(
        _LEASES.c.owner == owner, _LEASES.c.table_id.in_(list(table_ids))
    )


def transfer(
    table_id: str, fence: Fence, heir: str, until: float
) -> Callable[[Session], Fence | None]:
    """A write that hands ``table_id`` from ``fence``'s owner straight to ``heir``
    (the next token, until ``until``): a stopping owner's hand-over in one write, the
    table never without an owner. ``None`` when the fence no longer held it."""

    def run(session: Session) -> Fence | None:
        done = session.execute(
            update(_LEASES)
            .where(
                _LEASES.c.table_id == table_id,
                _LEASES.c.owner == fence.owner,
                _LEASES.c.token == fence.token,
            )
            .values(owner=heir, token=fence.token + 1, expires_at=until)
        )
        if getattr(done, "rowcount", 0) != 1:
            return None
        return Fence(heir, fence.token + 1, fence.lease_seconds)

    return run


def release(table_id: str, fence: Fence) -> Callable[[Session], bool]:
    """A write that gives the table up (anyone may claim it at once); False when the
    fence no longer held it."""

    def run(session: Session) -> bool:
        done = session.execute(
            update(_LEASES)
            .where(
                _LEASES.c.table_id == table_id,
                _LEASES.c.owner == fence.owner,
                _LEASES.c.token == fence.token,
            )
            .values(owner=None, expires_at=0.0)
        )
        return getattr(done, "rowcount", 0) == 1

    return run


def lease_of(table_id: str) -> Callable[[Session], Lease | None]:
    """A read of one table's lease."""

    def run(session: Session) -> Lease | None:
        row = session.execute(
            select(_LEASES.c.owner, _LEASES.c.token, _LEASES.c.expires_at).where(
                _LEASES.c.table_id == table_id
            )
        ).first()
        if row is None:
            return None
        return Lease(table_id, row[0], int(row[1]), float(row[2]))

    return run


def orphans(now: float, limit: int = 500) -> Callable[[Session], list[str]]:
    """A read of the unfinished tables nobody holds at ``now``: released, expired, or
    without a lease (stored before the process that made them used leases)."""

    def run(session: Session) -> list[str]:
        query = (
            select(_TABLES.c.id)
            .select_from(_TABLES.outerjoin(_LEASES, _LEASES.c.table_id == _TABLES.c.id))
            .where(
                _TABLES.c.status != Status.FINISHED.value,
                or_(
                    _LEASES.c.table_id.is_(None),
                    _LEASES.c.owner.is_(None),
                    and_(_LEASES.c.expires_at <= now),
                ),
            )
            .limit(limit)
        )
        return list(session.scalars(query).all())

    return run
