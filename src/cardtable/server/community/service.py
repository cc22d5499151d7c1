"""The community of one process: follows, blocks, challenges, correspondence games,
notices and who is online, joined to the hub and the tournaments.

:class:`Community` is made with the hub when the application starts
(:func:`cardtable.server.app.create_app`) and kept on the application
(``app.state.community``). It sets the hub's two hooks — :attr:`Hub.apart` (blocked
pairs never paired by the play-now queues) and :attr:`Hub.chat_filter` (a seated
player's chat does not reach the seated players who blocked them) — and listens to the
tournaments' rounds (``tournament_round`` notices).

Its clock (``clock``, Unix seconds) times challenges, deadlines and notices; tests give
it their own and move it days at a time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from cardtable.server.account_store import Account
from cardtable.server.community import store
from cardtable.server.community.challenges import Challenges, refuse
from cardtable.server.community.correspondence import Correspondence
from cardtable.server.community.mailing import MailChannel
from cardtable.server.community.notices import Notifier, PageChannel
from cardtable.server.community.presence import Presence, describe
from cardtable.server.mail import Mailer
from cardtable.server.runtime import Hub
from cardtable.server.shared import Shared
from cardtable.server.storage import Storage
from cardtable.server.tournaments import Tournaments

__all__ = ["Community"]


class Community:
    """Everything of the community on this process (see the module docstring)."""

    def __init__(
        self,
        hub: Hub,
        shared: Shared | None = None,
        tournaments: Tournaments | None = None,
        clock: Callable[[], float] = time.time,
        mailer: Mailer | None = None,
        public_url: str | None = None,
    ) -> None:
        self.hub = hub
        self.storage: Storage = hub.storage
        self._clock = clock
        self.notifier = Notifier(self.storage, self.now)
        self.pages = PageChannel(self.storage, hub.cluster)
        #: The mail channel (``None``: no mailer, as in some tests). It comes first: a
        #: notice a page has heard has its mail queued already.
        self.mail = MailChannel(self.storage, mailer, public_url) if mailer else None
        if self.mail is not None:
            self.notifier.add_channel(self.mail)
        self.notifier.add_channel(self.pages)
        self.presence = Presence(hub, self.pages, shared, self.now)
        self.correspondence = Correspondence(hub, self.notifier, self.now)
        self.challenges = Challenges(hub, self.notifier, self.now, self.correspondence.begin)
        hub.apart = self._apart
        hub.chat_filter = self._chat_filter
        if tournaments is not None:
            tournaments.on_round.append(self._round)

    @property
    def clock(self) -> Callable[[], float]:
        """The community's clock (a test sets its own)."""
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._clock = clock

    def now(self) -> float:
        """The time now on :attr:`clock`."""
        return self._clock()

    async def start(self) -> None:
        """Start publishing who is online and looking for run-out deadlines."""
        #: The event loop the community runs on (a test runs a sweep there).
        self.loop = asyncio.get_running_loop()
        self.presence.start()
        self.correspondence.start()

    async def stop(self) -> None:
        """Stop both."""
        await self.correspondence.stop()
        await self.presence.stop()

    # ---------------------------------------------------------------- hooks
    async def _apart(self, accounts: list[str]) -> set[frozenset[str]]:
        return await self.storage.aread(store.apart(accounts))

    async def _chat_filter(self, speaker: str, readers: list[str]) -> set[str]:
        return await self.storage.aread(store.blockers_of(speaker, readers))

    async def _round(self, tournament: str, name: str, number: int, accounts: list[str]) -> None:
        for account in accounts:
            await self.notifier.notify(
                account,
                "tournament_round",
                {"tournament": tournament, "name": name, "round": number},
            )

    # ------------------------------------------------------------- follows
    async def follow(self, me: Account, name: str) -> None:
        """``me`` follows the player ``name`` (not oneself, not a blocked one)."""
        other = await self.challenges.player(name)
        if other.id == me.id:
            raise refuse(422, "follow_self", "you cannot follow yourself")
        await self.challenges.check_apart(me, other)
        await self.storage.awrite(store.add_follow(me.id, other.id))

    async def unfollow(self, me: Account, name: str) -> None:
        """``me`` stops following ``name``."""
        other = await self.challenges.player(name)
        await self.storage.awrite(store.remove_follow(me.id, other.id))

    async def block(self, me: Account, name: str) -> None:
        """``me`` blocks ``name``: no challenge, chat or pairing between them; each
        stops following the other, and pending challenges between them are cancelled."""
        other = await self.challenges.player(name)
        if other.id == me.id:
            raise refuse(422, "block_self", "you cannot block yourself")
        await self.storage.awrite(store.add_block(me.id, other.id))
        await self.storage.awrite(store.remove_follow(other.id, me.id))
        await self.storage.awrite(store.cancel_between(me.id, other.id))

    async def unblock(self, me: Account, name: str) -> None:
        """``me`` lifts the block of ``name``."""
        other = await self.challenges.player(name)
        await self.storage.awrite(store.remove_block(me.id, other.id))

    async def friends(self, me: Account) -> dict[str, Any]:
        """Whom ``me`` follows (online or not, at which tables), and whom they blocked."""
        followed = await self.storage.aread(store.followed_by(me.id))
        where = await self.presence.where([f["id"] for f in followed])
        blocked = await self.storage.aread(store.blocked_by(me.id))
        return {
            "following": [
                {"name": f["name"], "follows_you": f["follows_you"], **describe(where[f["id"]])}
                for f in followed
            ],
            "blocked": [b["name"] for b in blocked],
        }

    async def relation(self, me: Account, name: str) -> dict[str, Any]:
        """How ``me`` stands with ``name``: following, blocked (either way)."""
        other = await self.challenges.player(name)
        followed = await self.storage.aread(store.followed_by(me.id))
        blocker = await self.storage.aread(store.blocked_between(me.id, other.id))
        return {
            "name": other.name,
            "me": other.id == me.id,
            "following": any(f["id"] == other.id for f in followed),
            "blocked": blocker == me.id,
            "blocked_you": blocker is not None and blocker != me.id,
        }

    # -------------------------------------------------------------- invites
    async def invite(self, me: Account, name: str, table_id: str, code: str) -> None:
        """``me`` invites ``name`` to the open seat of ``table_id`` whose invite is
        ``code`` (checked against storage: a seat still open)."""
        other = await self.challenges.player(name)
        if other.id == me.id:
            raise refuse(422, "invite_self", "you cannot invite yourself")
        await self.challenges.check_apart(me, other)
        stored = await self.storage.aread(lambda s: Storage.load(s, table_id))
        seats = [] if stored is None else stored.row["meta"]["seats"]
        if not any(s.get("invite") == code and not s.get("token_hash") for s in seats):
            raise refuse(404, "no_invite", "no open seat with this invite at this table")
        await self.notifier.notify(
            other.id,
            "invite",
            {"from": me.name, "table": table_id, "url": f"/play/{table_id}?invite={code}"},
        )

    # -------------------------------------------------------------- notices
    async def notices(self, me: Account) -> dict[str, Any]:
        """The newest notices of ``me`` and how many are unread."""
        items = await self.storage.aread(store.notices_of(me.id))
        unread = await self.storage.aread(store.unread_count(me.id))
        return {"notices": items, "unread": unread}

    async def read(self, me: Account, up_to: int | None) -> int:
        """Mark notices read; how many stay unread."""
        await self.storage.awrite(store.mark_read(me.id, up_to))
        return await self.storage.aread(store.unread_count(me.id))

    async def games(self, me: Account) -> list[dict[str, Any]]:
        """``me``'s correspondence games, those waiting for them first."""
        return await self.correspondence.mine(me.id)
