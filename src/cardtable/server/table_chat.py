"""Table chat as the hub runs it: lines judged by :mod:`.chat`, stored, then sent.

The players' chat reaches every connection of the table, the spectators' chat the
spectators (:func:`.chat.readers`); a newcomer's ``welcome`` carries the chat it reads.
A signed-in writer a moderator has muted is refused (:mod:`.gate`).
A seated account's line does not reach the seated accounts that blocked it
(:attr:`Chatter.chat_filter`, the community's blocks).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from cardtable.server.carry import Carrier
from cardtable.server.chat import readers
from cardtable.server.chat_store import append_line, load_lines
from cardtable.server.connection import Connection
from cardtable.server.core import Effect, Send, refusal
from cardtable.server.live import LiveTable
from cardtable.server.protocol import Chat, ChatMessage, Error, Welcome
from cardtable.table import Table

__all__ = ["Chatter"]

log = logging.getLogger("cardtable.server")


class Chatter(Carrier):
    """The chat of the live tables."""

    #: The readers (account ids) who blocked a speaker (set on the hub, or ``None``).
    chat_filter: Callable[[str, list[str]], Awaitable[set[str]]] | None

    async def _load_chat(self, live: LiveTable) -> None:
        """Read the table's stored chat once it is in memory (under its lock)."""
        if not live.chat.loaded:
            live.chat.load(await self.storage.aread(load_lines(live.table.id)))

    async def _with_chat(self, live: LiveTable, effects: list[Effect]) -> list[Effect]:
        """A ``welcome`` with the chat its connection reads."""
        await self._load_chat(live)
        return [
            Send(e.message.model_copy(update={"chat": live.chat.history(e.message.seat)}))
            if isinstance(e, Send) and isinstance(e.message, Welcome)
            else e
            for e in effects
        ]

    async def _muted(self, live: LiveTable, conn: Connection) -> Error | None:
        """The refusal of a line from a writer a moderator has muted, else ``None``
        (asked of the gate outside the table's lock: a read of the database)."""
        peer = conn.peer
        if self.gate is None or not peer.greeted:
            return None
        seat = peer.seat
        account = live.table.seats[seat].account if seat is not None else None
        name = live.chat.account_of(peer) if seat is None else None
        if account is None and name is None:
            return None  # a guest: no account to mute
        until = await self.gate.muted_until(account, name)
        if until is None:
            return None
        minutes = max(1, math.ceil((until - datetime.now(UTC)).total_seconds() / 60))
        return refusal(
            "chat_muted",
            f"a moderator has muted your chat for {minutes} more min",
            version=live.table.version,
            params={"minutes": minutes, "until": until.isoformat()},
        )

    async def _chat(self, live: LiveTable, conn: Connection, message: Chat) -> None:
        """A line of chat: judged, stored, then sent to every connection that reads
        its channel (the players' chat to all, the spectators' to spectators)."""
        peer = conn.peer
        muted = await self._muted(live, conn)
        if muted is not None:
            conn.send(muted)
            return
        async with live.lock:
            table = live.table
            if message.token is not None and table.seat_of_token(message.token) != peer.seat:
                conn.send(
                    refusal(
                        "bad_token",
                        "this token does not belong to this connection's seat",
                        version=table.version,
                    )
                )
                return
            await self._load_chat(live)
            line = live.chat.post(peer, table, message.text, self.now())
            if isinstance(line, Error):
                conn.send(line)
                return
            try:
                await self.storage.awrite(append_line(table.id, line))
            except Exception:
                log.exception("cannot store a chat line of table %s", table.id)
                live.chat.lines.remove(line)
                conn.send(
                    refusal(
                        "chat_storage",
                        "the chat message could not be stored; try again",
                        version=table.version,
                    )
                )
                return
            text = ChatMessage(type="chat", version=table.version, line=line).model_dump_json()
            hidden = await self._hidden_from(table, peer.seat)
            for other in live.connections:
                seat = other.peer.seat
                shown = seat is None or table.seats[seat].account not in hidden
                if other.peer.greeted and readers(line.channel, seat) and shown:
                    other.send(text)

    async def _hidden_from(self, table: Table, speaker: int | None) -> set[str]:
        """The seated accounts that blocked the seated account speaking (their
        connections do not get its line); none without a chat filter."""
        chat_filter = self.chat_filter
        account = table.seats[speaker].account if speaker is not None else None
        if chat_filter is None or account is None:
            return set()
        others = {seat.account for seat in table.seats if seat.account and seat.account != account}
        if not others:
            return set()
        try:
            return await chat_filter(account, sorted(others))
        except Exception:
            log.exception("cannot read the blocks of table %s's chat", table.id)
            return set()
