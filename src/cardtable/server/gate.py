"""What the live tables ask moderation before they let a person speak or sit down.

The hub knows nothing of moderation: whoever assembles the server gives it a
:class:`Gate` (:class:`cardtable.server.moderation.service.Moderation`), or none. The
table chat asks :meth:`Gate.muted_until` for a signed-in writer; a seat's ``hello`` asks
:meth:`Gate.banned` for the seat's account, so a banned player cannot come back to a
table with the seat's token either.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

__all__ = ["Gate"]


class Gate(Protocol):
    """Moderation as the live tables see it."""

    async def muted_until(self, account_id: str | None, name: str | None) -> datetime | None:
        """Until when the account (by id, or else by name) may not chat; ``None``: it may."""
        ...

    async def banned(self, account_id: str) -> bool:
        """Whether the account is banned."""
        ...
