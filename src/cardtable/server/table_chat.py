"""Table chat as the hub runs it: lines judged by :mod:`.chat`, stored, then sent.

The players' chat reaches every connection of the table, the spectators' chat the
spectators (:func:`.chat.readers`); a newcomer's ``welcome`` carries the chat it reads.
"""

from __future__ import annotations

import logging

from cardtable.server.carry import Carrier
from cardtable.server.chat import readers
from cardtable.server.chat_store import append_line, load_lines
from cardtable.server.connection import Connection
from cardtable.server.core import Effect, Send, refusal
from cardtable.server.live import LiveTable
from cardtable.server.protocol import Chat, ChatMessage, Error, Welcome

__all__ = ["Chatter"]

log = logging.getLogger("cardtable.server")


class Chatter(Carrier):
    """The chat of the live tables."""

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

    async def _chat(self, live: LiveTable, conn: Connection, message: Chat) -> None:
        """A line of chat: judged, stored, then sent to every connection that reads
        its channel (the players' chat to all, the spectators' to spectators)."""
        peer = conn.peer
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
            for other in live.connections:
                if other.peer.greeted and readers(line.channel, other.peer.seat):
                    other.send(text)
