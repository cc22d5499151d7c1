"""The moderation schema (migration 0010): ``reports`` and ``moderation_actions``.

A report is one player's complaint about another (their chat, name or play), with the
table and chat line it came from when it was made at a table. An action is what a
moderator did (warn, mute, unmute, ban, unban, rename, close a report), with who did
it and why: the log keeps the names as they were, so it reads the same after a
rename or a deletion (the target's id has no foreign key for that reason).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.server.models import Base

__all__ = ["ActionRow", "ReportRow"]


class ReportRow(Base):
    """A report of a player by another, open until a moderator closes it."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    reporter_name: Mapped[str] = mapped_column(String(64))
    target_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    target_name: Mapped[str] = mapped_column(String(64))
    #: ``chat``, ``name`` or ``play``.
    category: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(500))
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: The chat line reported (its number at the table), if any.
    line: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: ``open`` or ``closed``.
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ActionRow(Base):
    """One moderator's action, with who did it to whom and why."""

    __tablename__ = "moderation_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    moderator_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    moderator_name: Mapped[str] = mapped_column(String(64))
    target_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    target_name: Mapped[str] = mapped_column(String(64))
    #: ``warn``, ``mute``, ``unmute``, ``ban``, ``unban``, ``rename``, ``close``,
    #: ``grant`` or ``revoke`` (the moderator role, from the command line).
    action: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(500))
    #: What the action needs besides (a mute's end, a rename's old and new name).
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    report_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
