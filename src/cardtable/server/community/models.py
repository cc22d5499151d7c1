"""The community's database schema (SQLAlchemy models on the server's one ``Base``).

``follows`` (who follows whom), ``blocks`` (who blocked whom), ``challenges`` (one
player asking another for a game: what, when it expires, how it was answered, and
once accepted the table and each side's seat token), ``correspondence_games`` (a game
played at days per move: whose turn, until when) and ``notices`` (what a player is
told: a challenge, their turn, a tournament round, a friend's invite; read or not).
Created by migration 0011; ``notice_mail`` (which notices a player also wants by
email) by migration 0013. Every row names accounts by id and goes with them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.server.models import Base

__all__ = [
    "BlockRow",
    "ChallengeRow",
    "CorrespondenceRow",
    "FollowRow",
    "NoticeMailRow",
    "NoticeRow",
]

#: An account id column that goes with its account.
_ACCOUNT = "accounts.id"


class FollowRow(Base):
    """``follower`` follows ``followed`` (sees whether they are online, and where)."""

    __tablename__ = "follows"

    follower_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    followed_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlockRow(Base):
    """``blocker`` blocked ``blocked``: no challenge, chat or pairing between them."""

    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(Base):
    """A challenge: ``pending`` until accepted, declined, cancelled or expired."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenger_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), index=True
    )
    challenged_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``{"initial", "increment"}`` in seconds, ``{"days": n}`` per move, or null.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    #: ``pending``, ``accepting`` (a table is being made), ``accepted``, ``declined``,
    #: ``cancelled`` or ``expired``.
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    #: Unix time after which a pending challenge has expired.
    expires_at: Mapped[float] = mapped_column(Float)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: Once accepted: each side's seat and token, ``{account id: {"seat", "token"}}``.
    seats: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class CorrespondenceRow(Base):
    """A game played at ``days`` per move: the seat to move and its deadline."""

    __tablename__ = "correspondence_games"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    days: Mapped[int] = mapped_column(Integer)
    #: The account id of each seat.
    accounts: Mapped[list[str]] = mapped_column(JSON)
    #: Each account's seat token (account id → token): its "your turn" link plays it.
    tokens: Mapped[dict[str, str]] = mapped_column(JSON)
    #: The same ids as ``|id|id|``: a player's games are found with one LIKE.
    players: Mapped[str] = mapped_column(String(200))
    #: The seat to move and its account (null once finished), the table's version then,
    #: and until when it may move (Unix time).
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_move_account: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    version: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[float] = mapped_column(Float, index=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)


class NoticeRow(Base):
    """Something a player is told (:mod:`.notices`): its kind and parameters."""

    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(32))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    read: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)


class NoticeMailRow(Base):
    """``account`` wants notices of ``kind`` by email too (a row: yes; none: no)."""

    __tablename__ = "notice_mail"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    #: ``your_turn`` or ``tournament_round`` (:data:`.mailing.MAILED`).
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
