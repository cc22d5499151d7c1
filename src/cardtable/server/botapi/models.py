"""The Bot API's database schema (SQLAlchemy models on the server's one ``Base``).

``api_tokens`` (personal API tokens: the SHA-256 of each, never the token, its scopes,
when it was made, last used and revoked), ``bot_accounts`` (the accounts turned into
bots, for good) and ``bot_games`` (each seat a bot account holds, with the seat's token
so its streams can speak for it, and whether the game is over). Created by migration
0012; every row goes with its account.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.server.models import Base

__all__ = ["ApiTokenRow", "BotAccountRow", "BotGameRow"]

_ACCOUNT = "accounts.id"


class ApiTokenRow(Base):
    """A personal API token of an account (``id`` is public, the digest is secret)."""

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), index=True
    )
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    last_used_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    revoked_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class BotAccountRow(Base):
    """An account that is a bot (since when): irreversible."""

    __tablename__ = "bot_accounts"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    since: Mapped[float] = mapped_column(Float)


class BotGameRow(Base):
    """A seat a bot account holds: the table, the seat and the seat's token."""

    __tablename__ = "bot_games"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey(_ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, index=True)
