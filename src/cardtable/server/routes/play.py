"""The WebSocket of the table protocol (docs/protocol.md): frames in, the hub answers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from cardtable.server.core import refusal
from cardtable.server.ownership import GO_TO_OWNER, RECONNECT
from cardtable.server.routes.accounts import socket_account
from cardtable.server.runtime import Hub
from cardtable.server.timing import MoveTiming, is_move

__all__ = ["router"]

log = logging.getLogger("cardtable.server")

router = APIRouter()

#: Seconds a connection the server closed is read on, waiting for the client's close.
CLOSING_SECONDS = 2.0


@router.websocket("/ws/tables/{table_id}")
async def play(websocket: WebSocket, table_id: str) -> None:
    """The table protocol (docs/protocol.md)."""
    await websocket.accept()
    hub: Hub | None = getattr(websocket.app.state, "hub", None)
    cluster = hub.cluster if hub is not None else None
    account = await socket_account(websocket, hub) if hub is not None else None
    name = account.name if account is not None else None
    if cluster is not None:
        owner = None if cluster.draining else await cluster.locate(table_id)
        if cluster.draining:  # stopping: go to another process
            await websocket.close(code=RECONNECT)
            return
        if owner is not None and owner != cluster.me:
            # A client that follows routes and asked for another process than the
            # owner is sent to the owner's name once; asked for the owner's name (a
            # proxy that does not route by it), it is relayed: never a loop.
            asked = websocket.query_params.get("route")
            route = await cluster.route_of(owner) if asked is not None else None
            if route is not None and asked != route:
                await websocket.close(code=GO_TO_OWNER, reason=route)
                return
            await cluster.relay(websocket, table_id, owner, name)
            return
    live = await hub.reachable(table_id) if hub is not None else None
    if hub is not None and live is not None and live.gone:  # handed over just now
        await websocket.close(code=RECONNECT)
        return
    if hub is None or live is None:
        gone = refusal(
            "no_table", f"no live table {table_id!r}", version=None, params={"table": table_id}
        )
        await websocket.send_text(gone.model_dump_json())
        await websocket.close(code=4404)
        return
    conn = await hub.connect(live, websocket, name)
    timing: MoveTiming | None = getattr(websocket.app.state, "move_timing", None)
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes")
            start = time.perf_counter()
            try:
                await hub.handle(live, conn, raw)
                if timing is not None and is_move(raw):
                    timing.finish(start, live.connections)
            except Exception:
                log.exception("error handling a message for table %s", table_id)
                conn.send(
                    refusal(
                        "internal",
                        "the server could not handle that message",
                        version=live.table.version,
                    )
                )
        else:
            # The server closed it (a flood: 1008; too slow a reader: 1013). Read what the
            # client still sends until it answers the close, so the connection ends
            # cleanly and the client gets the close code rather than a reset (1006).
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CLOSING_SECONDS):
                    while (await websocket.receive())["type"] != "websocket.disconnect":
                        pass
    except WebSocketDisconnect:
        pass
    finally:
        await hub.disconnect(live, conn)
