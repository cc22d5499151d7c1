"""The one-time links' schema: ``account_tokens`` (migration 0010).

A row is one link sent by email: what it is for (``verify`` an address, ``reset`` a
password), the SHA-256 of its token (never the token: a stolen table opens nothing),
the address it was sent to, when it expires and when it was used (a link works once).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.server.models import Base

__all__ = ["AccountTokenRow"]


class AccountTokenRow(Base):
    """A link of an email: its token's digest, purpose, address, expiry and use."""

    __tablename__ = "account_tokens"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: ``verify`` or ``reset``.
    purpose: Mapped[str] = mapped_column(String(16))
    email: Mapped[str] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
