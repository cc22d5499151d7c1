"""The WebSocket of the table protocol (docs/protocol.md): frames in, the hub answers."""

from __future__ import annotations

import logging
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from cardtable.server.core import refusal
from cardtable.server.timing import MoveTiming, is_move

__all__ = ["router"]

log = logging.getLogger("cardtable.server")

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def play(websocket: WebSocket, table_id: str) -> None:
    """The table protocol (docs/protocol.md)."""
    await websocket.accept()
    hub = getattr(websocket.app.state, "hub", None)
    live = hub.tables.get(table_id) if hub is not None else None
    if hub is None or live is None:
        gone = refusal(
            "no_table", f"no live table {table_id!r}", version=None, params={"table": table_id}
        )
        await websocket.send_text(gone.model_dump_json())
        await websocket.close(code=4404)
        return
    conn = await hub.connect(live, websocket)
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
    except WebSocketDisconnect:
        pass
    finally:
        await hub.disconnect(live, conn)
