"""Notices: what a player is told, and the channels that carry it to them.

A :class:`Notice` is stored first (``notices``: the bell's list and unread count are
read from storage, the same on every process), then handed to every
:class:`NoticeChannel` of the :class:`Notifier`. The one channel here is
:class:`PageChannel`: the player's open pages, each holding the per-account socket
``/ws/me`` on whichever process it is connected to. A process delivers to its own
sockets and tells the others on Redis (news ``notice``: the cluster's pub/sub, as
tournaments tell their changes), and each of those delivers to its own.

Another way of telling (email) is another channel: an object with a ``name`` and an
``async deliver(notice)``, given to :meth:`Notifier.add_channel`. A channel that fails
is logged and never stops the others.

Kinds: ``challenge`` (a challenge received), ``challenge_accepted``,
``challenge_declined``, ``your_turn`` (a correspondence game), ``tournament_round``
(a round of a tournament the player is in has started), ``invite`` (a friend invites
the player to a seat), ``moderation`` (a moderator warned, muted or renamed the player:
``action``, ``reason`` and the action's details).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from cardtable.server.community import store
from cardtable.server.connection import Connection
from cardtable.server.ownership import Ownership
from cardtable.server.storage import Storage

__all__ = ["KINDS", "NEWS", "Notice", "NoticeChannel", "Notifier", "PageChannel"]

log = logging.getLogger("cardtable.server.community")

#: Every kind of notice.
KINDS: Final = (
    "challenge",
    "challenge_accepted",
    "challenge_declined",
    "your_turn",
    "tournament_round",
    "invite",
    "moderation",
)

#: The news other processes hear a notice for one of their sockets by.
NEWS: Final = "notice"


@dataclass(frozen=True)
class Notice:
    """One stored notice of one account (its id)."""

    id: int
    account: str
    kind: str
    params: dict[str, Any]
    at: float

    def public(self) -> dict[str, Any]:
        """As the API and the socket show it."""
        return {
            "id": self.id,
            "kind": self.kind,
            "params": self.params,
            "read": False,
            "at": self.at,
        }


class NoticeChannel(Protocol):
    """A way a notice reaches its player (the page; email, added by its own module)."""

    #: The channel's name, in logs.
    name: str

    async def deliver(self, notice: Notice) -> None:
        """Carry ``notice`` to its player (a failure is logged by the notifier)."""
        ...


class Notifier:
    """Stores each notice, then hands it to every channel."""

    def __init__(self, storage: Storage, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.clock = clock
        self.channels: list[NoticeChannel] = []

    def add_channel(self, channel: NoticeChannel) -> None:
        """Deliver every notice through ``channel`` too."""
        self.channels.append(channel)

    async def notify(self, account: str, kind: str, params: dict[str, Any]) -> Notice:
        """Tell ``account`` something: stored, then delivered by every channel."""
        assert kind in KINDS, kind
        now = self.clock()
        notice_id = await self.storage.awrite(store.insert_notice(account, kind, params, now))
        notice = Notice(notice_id, account, kind, params, now)
        for channel in self.channels:
            try:
                await channel.deliver(notice)
            except Exception:
                log.exception("channel %s could not deliver notice %d", channel.name, notice_id)
        return notice


class PageChannel:
    """The players' open pages: per-account sockets on this process, and news to the
    other processes for theirs."""

    name = "page"

    def __init__(self, storage: Storage, cluster: Ownership | None) -> None:
        self.storage = storage
        self.cluster = cluster
        #: The open ``/ws/me`` sockets here, by account id.
        self.sockets: dict[str, set[Connection]] = {}
        #: Called when an account's first socket here opens or its last one closes.
        self.on_change: list[Callable[[], None]] = []
        if cluster is not None:
            cluster.listen(NEWS, self._heard)

    def attach(self, account: str, conn: Connection) -> None:
        """A page of ``account`` opened its socket here."""
        first = account not in self.sockets
        self.sockets.setdefault(account, set()).add(conn)
        if first:
            self._changed()

    def detach(self, account: str, conn: Connection) -> None:
        """That page's socket closed."""
        held = self.sockets.get(account)
        if held is None:
            return
        held.discard(conn)
        if not held:
            del self.sockets[account]
            self._changed()

    def _changed(self) -> None:
        for hear in self.on_change:
            hear()

    async def deliver(self, notice: Notice) -> None:
        """Send the notice with the account's unread count to its sockets, here and
        (news) on every other process."""
        unread = await self.storage.aread(store.unread_count(notice.account))
        text = json.dumps({"type": "notice", "notice": notice.public(), "unread": unread})
        self.send(notice.account, text)
        if self.cluster is not None:
            self.cluster.tell(NEWS, json.dumps({"account": notice.account, "text": text}))

    def send(self, account: str, text: str) -> None:
        """Send ``text`` to every socket of ``account`` on this process."""
        for conn in list(self.sockets.get(account, ())):
            conn.send(text)

    def _heard(self, subject: str) -> None:
        data = json.loads(subject)
        self.send(str(data["account"]), str(data["text"]))
