"""WebSockets relayed between processes: a client on one, its table on another.

A WebSocket on a process that does not own its table is *relayed*: each frame goes to
the owner over Redis (``in``), where a :class:`~cardtable.server.connection.Connection`
whose socket publishes (:class:`RemoteSocket`) takes part in the table like a local
one; the owner's messages for that one connection come back (``out``) on the edge
process's own channel, addressed to that connection. Nothing is broadcast to a channel
every process reads: each recipient's message is built by the owner for its seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, field

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardtable.server.cluster.bus import Bus
from cardtable.server.connection import Connection
from cardtable.server.core import refusal
from cardtable.server.live import LiveTable
from cardtable.server.ownership import RECONNECT
from cardtable.server.timing import MoveTiming, is_move

__all__ = ["Link", "Relays", "Remote", "RemoteSocket"]

log = logging.getLogger("cardtable.server.cluster")


class RemoteSocket:
    """The socket of a connection relayed from another process: what the owner sends
    it goes to that process, addressed to that one connection."""

    def __init__(self, cluster: Bus, edge: str, cid: str) -> None:
        self.cluster = cluster
        self.edge = edge
        self.cid = cid

    async def send_text(self, data: str) -> None:
        """Publish one message for the connection."""
        self.cluster.send(self.edge, "out", self.cid, data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Tell the edge process to close the connection with ``code``."""
        self.cluster.send(self.edge, "shut", self.cid, f"{code} {reason or ''}")


@dataclass(eq=False)
class Remote:
    """Owner side: a connection relayed from process ``edge``."""

    edge: str
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    table_id: str = ""


@dataclass(eq=False)
class Link:
    """Edge side: a local WebSocket relayed to the owner of ``table_id``."""

    websocket: WebSocket
    table_id: str
    owner: str
    out: asyncio.Queue[tuple[int, str] | str] = field(default_factory=asyncio.Queue)
    closed: bool = False


class Relays(Bus):
    """Both sides of relayed connections; the state is set by :class:`~.node.Cluster`."""

    timing: MoveTiming | None
    _remotes: dict[str, Remote]
    _links: dict[str, Link]

    # ---------------------------------------------------------------- relays
    async def _serve_remote(self, cid: str, remote: Remote, account: str | None) -> None:
        """Owner side of a relayed connection: frames in order, as from a local socket."""
        hub = self.hub
        conn: Connection | None = None
        live: LiveTable | None = None
        try:
            owner = await self.locate(remote.table_id)
            live = hub.tables.get(remote.table_id) if owner == self.me else None
            if live is None:
                if owner is None and not self.draining:
                    gone = refusal(
                        "no_table",
                        f"no live table {remote.table_id!r}",
                        version=None,
                        params={"table": remote.table_id},
                    )
                    self.send(remote.edge, "out", cid, gone.model_dump_json())
                    self.send(remote.edge, "shut", cid, "4404 ")
                else:
                    self.send(remote.edge, "shut", cid, f"{RECONNECT} the table moved")
                return
            conn = await hub.connect(live, RemoteSocket(self, remote.edge, cid), account)
            while not conn.closed and not live.gone:
                raw = await remote.inbox.get()
                if raw is None:
                    break
                start = time.perf_counter()
                try:
                    await hub.handle(live, conn, raw)
                    if self.timing is not None and is_move(raw):
                        self.timing.finish(start, live.connections)
                except Exception:
                    log.exception("error handling a relayed message for %s", remote.table_id)
                    conn.send(
                        refusal(
                            "internal",
                            "the server could not handle that message",
                            version=live.table.version,
                        )
                    )
            if live.gone and not conn.closed:
                await conn.close(RECONNECT, "the table moved")
        finally:
            self._remotes.pop(cid, None)
            if conn is not None and live is not None:
                await hub.disconnect(live, conn)

    async def relay(
        self, websocket: WebSocket, table_id: str, owner: str, account: str | None
    ) -> None:
        """Edge side: carry an accepted WebSocket's frames to ``owner`` and its answers
        back, until either side closes."""
        cid = secrets.token_hex(8)
        link = Link(websocket, table_id, owner)
        self._links[cid] = link
        self.send(owner, "open", cid, f"{self.me} {table_id} {account or ''}")
        writer = asyncio.create_task(self._write_link(link))
        try:
            while not link.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    link.out.put_nowait(
                        refusal(
                            "bad_message", "send JSON text messages", version=None
                        ).model_dump_json()
                    )
                    continue
                self.send(owner, "in", cid, raw)
            else:
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(2.0):
                        while (await websocket.receive())["type"] != "websocket.disconnect":
                            pass
        except WebSocketDisconnect:
            pass
        finally:
            self._links.pop(cid, None)
            self.send(owner, "close", cid, "-")
            if not link.closed:
                link.closed = True
                writer.cancel()
            with contextlib.suppress(BaseException):
                await writer

    async def _write_link(self, link: Link) -> None:
        while True:
            item = await link.out.get()
            if isinstance(item, str):
                try:
                    await link.websocket.send_text(item)
                except Exception:
                    link.closed = True
                    return
                continue
            link.closed = True
            code, reason = item
            with contextlib.suppress(Exception):
                await link.websocket.close(code=code, reason=reason)
            return
