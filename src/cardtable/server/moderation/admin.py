"""``cardtable admin``: the moderator role given and taken on the command line.

It opens the database the server uses (the same ``--db`` URL as ``cardtable serve``;
migrated first, as the server does) and changes the account's role in one transaction
with its line in the moderators' log ("cardtable admin"). A running server sees the
change at the account's next request: the role is read with each session.
"""

from __future__ import annotations

from cardtable.server.moderation import store
from cardtable.server.storage import Storage

__all__ = ["set_role"]


def set_role(db: str, name: str, moderator: bool) -> str | None:
    """Grant (``moderator``) or revoke the role of the account ``name`` in the database
    at ``db``: the account's name as written, or ``None`` when no account has it."""
    storage = Storage(db)
    try:
        reason = "granted on the command line" if moderator else "revoked on the command line"
        return storage.write(store.set_moderator(name, moderator, reason)).result(timeout=60)
    finally:
        storage.close()
