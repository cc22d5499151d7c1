"""Moderation at run time: the live tables' gate, and actions carried out everywhere.

:class:`Moderation` is the hub's :class:`~cardtable.server.gate.Gate` (a muted writer's
line refused, a banned player's seat ``hello`` refused) and does a moderator's action:
stored with its log line (:func:`.store.act`), then carried out — a ban closes the
account's connections on this process and, with several processes, tells every other
process to close theirs (news ``moderation.banned``); the account's sessions are rows
of the database, so they end for every process at once. The player is told by email
when the account has a verified address, and a warning, mute or rename is also a
``moderation`` notice in the player's one list of notices (the header's bell), given
to :attr:`Moderation.notify` (the community's notifier).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from cardtable.server.moderation import store
from cardtable.server.recovery.service import Recovery
from cardtable.server.runtime import Hub

__all__ = ["BANNED_NEWS", "Moderation"]

log = logging.getLogger("cardtable.server")

#: The news every process hears when an account is banned: ``<account id> <name>``.
BANNED_NEWS = "moderation.banned"


class Moderation:
    """The moderation of one server process."""

    def __init__(self, hub: Hub, recovery: Recovery) -> None:
        self.hub = hub
        self.recovery = recovery
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Tells a player a notice (account id, kind, params): the community's notifier.
        self.notify: Callable[[str, str, dict[str, Any]], Awaitable[Any]] | None = None

    def start(self) -> None:
        """Become the hub's gate and, with several processes, hear their bans."""
        self.hub.gate = self
        if self.hub.cluster is not None:
            self.hub.cluster.listen(BANNED_NEWS, self._heard_ban)

    async def muted_until(self, account_id: str | None, name: str | None) -> datetime | None:
        """Until when the account may not chat (:class:`~cardtable.server.gate.Gate`)."""
        return await self.hub.storage.aread(store.muted_until(account_id, name))

    async def banned(self, account_id: str) -> bool:
        """Whether the account is banned (:class:`~cardtable.server.gate.Gate`)."""
        return await self.hub.storage.aread(store.banned(account_id))

    async def act(
        self,
        moderator_id: str | None,
        moderator_name: str,
        name: str,
        action: str,
        reason: str,
        **options: Any,
    ) -> store.Acted | str:
        """Do and log ``action`` (:func:`.store.act`), then carry it out: connections
        closed everywhere for a ban, the player mailed for a warning, mute, ban or
        rename. A refusal's code when it cannot be done."""
        done = await self.hub.storage.awrite(
            store.act(moderator_id, moderator_name, name, action, reason, **options)
        )
        if isinstance(done, str) or done.target_id is None:
            return done
        if action == "ban":
            closed = await self.hub.close_account(done.target_id, done.name)
            log.info("banned %s: closed %d connections here", done.name, closed)
            if self.hub.cluster is not None:
                self.hub.cluster.tell(BANNED_NEWS, f"{done.target_id} {done.name}")
        mail = {
            "warn": {},
            "mute": {"until": str(done.details.get("until", ""))[:16].replace("T", " ")},
            "ban": {},
            "rename": {"new_name": done.name},
        }.get(action)
        if mail is not None:
            self.recovery.notify(done.target_id, action, reason=reason, **mail)
        if self.notify is not None and action in store.NOTICES:
            params = {"action": action, "reason": reason, **done.details}
            try:  # the action is done and logged: a notice that fails is only logged
                await self.notify(done.target_id, "moderation", params)
            except Exception:
                log.exception("could not tell %s of the %s", done.name, action)
        return done

    def _heard_ban(self, subject: str) -> None:
        account_id, _, name = subject.partition(" ")
        task = asyncio.ensure_future(self.hub.close_account(account_id, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
