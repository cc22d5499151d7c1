"""Storage of the table chat: a line is written before anyone hears it, and a table's
lines are read back when it is next in memory (after a restart, say)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardtable.server.models import ChatRow
from cardtable.server.protocol import ChatLine

__all__ = ["append_line", "load_lines"]


def append_line(table_id: str, line: ChatLine) -> Callable[[Session], None]:
    """A write that stores ``line`` of table ``table_id``."""
    values = line.model_dump(exclude={"at"})

    def run(session: Session) -> None:
        session.add(ChatRow(table_id=table_id, created_at=line.at, **values))

    return run


def load_lines(table_id: str) -> Callable[[Session], list[ChatLine]]:
    """A read of every stored line of table ``table_id``, oldest first."""

    def run(session: Session) -> list[ChatLine]:
        rows = session.scalars(
            select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.number)
        ).all()
        return [
            ChatLine(
                number=r.number,
                channel="players" if r.channel == "players" else "spectators",
                seat=r.seat,
                name=r.name,
                signed_in=r.signed_in,
                spectator=r.spectator,
                text=r.text,
                # SQLite keeps no time zone: stored in UTC.
                at=r.created_at if r.created_at.tzinfo else r.created_at.replace(tzinfo=UTC),
            )
            for r in rows
        ]

    return run
