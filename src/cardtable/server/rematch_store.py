"""Storage of a rematch: the new table and the old one's link to it, in one transaction.

A finished table has at most one rematch. Two requests may ask for it at once — on one
process, or on two that each think they run the finished table (one that just let it go
and one that just took it) — so the link is set by a compare-and-set in storage: the
new table is stored only together with the old table naming it, and only when the old
table named no rematch yet. The loser stores nothing and is told the winner's table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import Table as Table_
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from cardtable.server import leases
from cardtable.server.leases import Fence
from cardtable.server.models import TableRow
from cardtable.server.storage import Storage
from cardtable.table import Table

__all__ = ["Raced", "Tied", "tie_rematch"]

_TABLES = cast(Table_, TableRow.__table__)


class Raced(Exception):
    """The old table changed between the read and the compare-and-set of a rematch
    write (another process wrote it at that moment): the write is retried alone."""


@dataclass(frozen=True, slots=True)
class Tied:
    """What a rematch write found or made: the rematch the old table names now, and
    the old table's stored version."""

    rematch_id: str
    version: int


def tie_rematch(
    old_id: str,
    new: Table,
    fence: Fence | None = None,
    lease: tuple[str, float] | None = None,
    *,
    lease_seconds: float = 0.0,
) -> Callable[[Session], Tied | None]:
    """A write that stores ``new`` as the rematch of the finished table ``old_id`` —
    the new table (with ``lease``, as :meth:`Storage.insert_table`) and the old one's
    ``rematch_id`` with its version one up — unless the old table names a rematch
    already: then nothing is written and that one is returned. ``None``: no such table.

    With ``fence`` the old table's lease is checked first (:func:`.leases.check`,
    raising :class:`~.leases.Fenced`): only its owner links it. The link itself is a
    compare-and-set on the old table's version, so of two writes at once exactly one
    stores its table; the other (:class:`Raced`, retried alone by the writer) finds
    the winner's."""
    store_new = Storage.insert_table(new, lease, lease_seconds=lease_seconds)

    def run(session: Session) -> Tied | None:
        if fence is not None:
            leases.check(session, old_id, fence)
        row = session.execute(
            select(_TABLES.c.meta, _TABLES.c.version).where(_TABLES.c.id == old_id)
        ).first()
        if row is None:
            return None
        meta, version = dict(row.meta), int(row.version)
        named = meta.get("rematch_id")
        if isinstance(named, str):
            return Tied(named, version)
        done = session.execute(
            update(_TABLES)
            .where(_TABLES.c.id == old_id, _TABLES.c.version == version)
            .values(
                meta={**meta, "rematch_id": new.id},
                version=version + 1,
                updated_at=datetime.now(UTC),
            )
        )
        if getattr(done, "rowcount", 0) != 1:
            raise Raced(f"table {old_id} changed while its rematch was stored")
        store_new(session)
        return Tied(new.id, version + 1)

    return run
