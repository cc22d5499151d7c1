"""Notices by email: the player's choice, and the channel that mails what they chose.

Two kinds of notice may also go by email (:data:`MAILED`): ``your_turn`` in a
correspondence game and ``tournament_round`` — mailed for a tournament's start (its
first round) only: the page tells every round, and an arena's waves come every few
minutes, too often for mail.
Nobody gets them until they choose to (``notice_mail``: a row per account and kind,
``PUT /api/notices/mail``), and only at a verified address (the account's ``email``,
set through the emailed link of :mod:`cardtable.server.recovery`), in the account's
language (:mod:`cardtable.server.mail.texts`).

:class:`MailChannel` is one more :class:`~.notices.NoticeChannel` of the notifier: the
process that makes a notice (the table's owner for a turn, the tournament's for a
round) mails it, once, through the server's :class:`~cardtable.server.mail.Mailer`
(``--smtp``; without it, the log). A mail's link starts with ``--public-url``, or else
with the address this process was last asked at (:attr:`MailChannel.site`). A turn's
link opens the player's list of games (``/games``), never the seat's token: a mail
read by someone else plays nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from cardtable.server.community.models import NoticeMailRow
from cardtable.server.community.notices import Notice
from cardtable.server.mail import Mail, Mailer
from cardtable.server.mail.texts import mail_text
from cardtable.server.models import AccountRow
from cardtable.server.storage import Storage

__all__ = ["MAILED", "MailChannel", "mail_choices", "set_mail_choices"]

#: The notices a player may also want by email.
MAILED: Final = ("your_turn", "tournament_round")

#: Where a mail's link goes when the server knows no address of itself.
LOCAL_SITE: Final = "http://localhost:8000"


def mail_choices(account: str) -> Callable[[Session], dict[str, Any]]:
    """A read: which of :data:`MAILED` ``account`` wants by email, and whether it has
    a verified address to send them to."""

    def read(session: Session) -> dict[str, Any]:
        kinds = set(
            session.scalars(select(NoticeMailRow.kind).where(NoticeMailRow.account_id == account))
        )
        row = session.get(AccountRow, account)
        chosen: dict[str, Any] = {kind: kind in kinds for kind in MAILED}
        chosen["address"] = row is not None and row.email is not None
        return chosen

    return read


def set_mail_choices(account: str, chosen: dict[str, bool]) -> Callable[[Session], None]:
    """A write: ``account`` wants (or no longer wants) these kinds by email."""

    def write(session: Session) -> None:
        for kind, on in chosen.items():
            assert kind in MAILED, kind
            session.execute(
                delete(NoticeMailRow).where(
                    NoticeMailRow.account_id == account, NoticeMailRow.kind == kind
                )
            )
            if on:
                session.add(NoticeMailRow(account_id=account, kind=kind))

    return write


def _recipient(account: str, kind: str) -> Callable[[Session], tuple[str, str, str] | None]:
    """A read: the account's address, language and name, if it wants ``kind`` by email
    and has a verified address."""

    def read(session: Session) -> tuple[str, str, str] | None:
        row = session.scalar(
            select(AccountRow)
            .join(NoticeMailRow, NoticeMailRow.account_id == AccountRow.id)
            .where(AccountRow.id == account, NoticeMailRow.kind == kind)
        )
        if row is None or row.email is None or row.banned_at is not None:
            return None
        return row.email, row.lang, row.name

    return read


class MailChannel:
    """Mails the notices their players chose to get by email."""

    name = "mail"

    def __init__(self, storage: Storage, mailer: Mailer, public_url: str | None) -> None:
        self.storage = storage
        self.mailer = mailer
        #: The site's address links start with: ``--public-url``, else the address of
        #: the last request this process's community routes answered.
        self.site = public_url.rstrip("/") if public_url else None
        self._public = public_url is not None

    def seen(self, base: str) -> None:
        """A request came to ``base`` (used when there is no ``--public-url``)."""
        if not self._public:
            self.site = base.rstrip("/")

    async def deliver(self, notice: Notice) -> None:
        """Mail ``notice`` if it is of a kind its player chose and they have an address."""
        if notice.kind not in MAILED:
            return
        if notice.kind == "tournament_round" and notice.params.get("round") != 1:
            return  # the start only (module docstring)
        found = await self.storage.aread(_recipient(notice.account, notice.kind))
        if found is None:
            return
        address, lang, name = found
        site = self.site or LOCAL_SITE
        params = notice.params
        if notice.kind == "your_turn":
            until = datetime.fromtimestamp(float(params["deadline"]), UTC)
            fields = {
                "against": params["against"],
                "until": until.strftime("%Y-%m-%d %H:%M"),
                "link": f"{site}/games",
            }
        else:
            fields = {
                "event": params["name"],
                "link": f"{site}/tournament/{params['tournament']}",
            }
        subject, text = mail_text(notice.kind, lang, name=name, **fields)
        self.mailer.send(Mail(address, subject, text))
