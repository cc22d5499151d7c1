"""The database side of recovery: email addresses, one-time links, password resets.

Every function returns a read or a write for :class:`~cardtable.server.storage.Storage`.
A link's token is random (256 bits) and stored only as its SHA-256
(:func:`~cardtable.server.accounts.session_digest`, as sessions are); using a link is
one conditional update (``used_at`` still empty and not expired), so a link works once
even when two processes are given it at the same moment. A refused link is an answer
(:class:`Refused`), not an exception, so it never fails the writer's batch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from cardtable.server.accounts import name_key, session_digest
from cardtable.server.models import AccountRow, SessionRow
from cardtable.server.recovery.models import AccountTokenRow

__all__ = [
    "EMAIL_MAX",
    "RESET_MINUTES",
    "VERIFY_HOURS",
    "Recipient",
    "Refused",
    "check_email",
    "email_state",
    "issue",
    "recipients",
    "remove_email",
    "reset_password",
    "set_lang",
    "verify_email",
]

#: How long a link works.
VERIFY_HOURS = 48
RESET_MINUTES = 30
#: Longest email address (RFC 5321's path limit).
EMAIL_MAX = 254
#: Most accounts one "forgot password" request mails (an address several accounts
#: share); the rest are left out.
MOST_RECIPIENTS = 3

#: One address: a local part and a domain with a dot, no spaces or angle brackets.
_EMAIL = re.compile(r"^[^@\s<>,;\"]{1,64}@[^@\s<>,;\"]+\.[^@\s<>,;\".]{2,}$")


def check_email(raw: str) -> str | None:
    """The address to store for ``raw`` (trimmed, lower case), or ``None`` when it is
    not one address.

    >>> check_email("  Ann@Example.ORG ")
    'ann@example.org'
    >>> [check_email(a) for a in ("ann", "a@b", "a b@c.org", "a@c.org\\nBcc: x@y.org")]
    [None, None, None, None]
    """
    email = raw.strip().lower()
    if len(email) > EMAIL_MAX or not _EMAIL.fullmatch(email):
        return None
    if any(ord(c) < 32 or ord(c) == 127 for c in email):
        return None
    return email


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Recipient:
    """An account to mail: its id, name, address and language."""

    account_id: str
    name: str
    email: str
    lang: str


@dataclass(frozen=True, slots=True)
class Refused:
    """A link that does not work: ``code`` is ``link_unknown``, ``link_used`` or
    ``link_expired``."""

    code: str


def issue(
    account_id: str, purpose: str, email: str, token: str, lifetime: timedelta
) -> Callable[[Session], None]:
    """A write that stores a new link of ``purpose`` for the account, sent to ``email``;
    the account's earlier unused links of that purpose stop working (the newest mail
    is the one that counts)."""

    def run(session: Session) -> None:
        now = _now()
        session.execute(
            update(AccountTokenRow)
            .where(
                AccountTokenRow.account_id == account_id,
                AccountTokenRow.purpose == purpose,
                AccountTokenRow.used_at.is_(None),
            )
            .values(used_at=now)
        )
        session.add(
            AccountTokenRow(
                digest=session_digest(token),
                account_id=account_id,
                purpose=purpose,
                email=email,
                created_at=now,
                expires_at=now + lifetime,
            )
        )

    return run


def _use(session: Session, token: str, purpose: str) -> AccountTokenRow | Refused:
    """Mark the link used (once, only while it works): its row, or why it does not work."""
    digest = session_digest(token)
    row = session.get(AccountTokenRow, digest)
    now = _now()
    if row is None or row.purpose != purpose:
        return Refused("link_unknown")
    if row.used_at is not None:
        return Refused("link_used")
    if _aware(row.expires_at) <= now:
        return Refused("link_expired")
    taken = session.execute(
        update(AccountTokenRow)
        .where(AccountTokenRow.digest == digest, AccountTokenRow.used_at.is_(None))
        .values(used_at=now)
    )
    if getattr(taken, "rowcount", 0) != 1:  # used meanwhile by another process
        return Refused("link_used")
    return row


def verify_email(token: str) -> Callable[[Session], str | Refused]:
    """A write that uses a verification link: the account's address becomes the one
    the link was sent to; the address, or why the link does not work."""

    def run(session: Session) -> str | Refused:
        row = _use(session, token, "verify")
        if isinstance(row, Refused):
            return row
        session.execute(
            update(AccountRow).where(AccountRow.id == row.account_id).values(email=row.email)
        )
        return row.email

    return run


def reset_password(token: str, new_hash: str) -> Callable[[Session], str | Refused]:
    """A write that uses a reset link: the new password hash, and every session of the
    account ended; the account's name, or why the link does not work. A banned account's
    link does not work."""

    def run(session: Session) -> str | Refused:
        row = _use(session, token, "reset")
        if isinstance(row, Refused):
            return row
        account = session.get(AccountRow, row.account_id)
        if account is None or account.banned_at is not None:
            return Refused("link_unknown")
        account.password_hash = new_hash
        session.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
        return account.name

    return run


def recipients(who: str) -> Callable[[Session], list[Recipient]]:
    """A read: the accounts a "forgot password" for ``who`` (a name or an address)
    mails — those with a verified address, not banned, at most :data:`MOST_RECIPIENTS`."""

    def run(session: Session) -> list[Recipient]:
        email = check_email(who)
        rows = session.scalars(
            select(AccountRow)
            .where(
                or_(AccountRow.name_key == name_key(who), AccountRow.email == email)
                if email is not None
                else AccountRow.name_key == name_key(who),
                AccountRow.email.is_not(None),
                AccountRow.banned_at.is_(None),
            )
            .order_by(AccountRow.created_at)
            .limit(MOST_RECIPIENTS)
        ).all()
        return [Recipient(r.id, r.name, r.email or "", r.lang) for r in rows]

    return run


def email_state(account_id: str) -> Callable[[Session], dict[str, str | None]]:
    """A read: the account's verified address and the one waiting for its link."""

    def run(session: Session) -> dict[str, str | None]:
        email = session.scalar(select(AccountRow.email).where(AccountRow.id == account_id))
        pending = session.scalar(
            select(AccountTokenRow.email)
            .where(
                AccountTokenRow.account_id == account_id,
                AccountTokenRow.purpose == "verify",
                AccountTokenRow.used_at.is_(None),
                AccountTokenRow.expires_at > _now(),
            )
            .order_by(AccountTokenRow.created_at.desc())
            .limit(1)
        )
        return {"email": email, "pending": pending}

    return run


def remove_email(account_id: str) -> Callable[[Session], None]:
    """A write that forgets the account's address and its unused links."""

    def run(session: Session) -> None:
        session.execute(update(AccountRow).where(AccountRow.id == account_id).values(email=None))
        session.execute(
            delete(AccountTokenRow).where(
                AccountTokenRow.account_id == account_id, AccountTokenRow.used_at.is_(None)
            )
        )

    return run


def set_lang(account_id: str, lang: str) -> Callable[[Session], None]:
    """A write that makes ``lang`` the language of the account's emails."""

    def run(session: Session) -> None:
        session.execute(update(AccountRow).where(AccountRow.id == account_id).values(lang=lang))

    return run


def account_mail(account_id: str) -> Callable[[Session], Recipient | None]:
    """A read: the account as a recipient (``None``: it has no verified address)."""

    def run(session: Session) -> Recipient | None:
        row = session.get(AccountRow, account_id)
        if row is None or row.email is None:
            return None
        return Recipient(row.id, row.name, row.email, row.lang)

    return run
