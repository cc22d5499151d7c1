"""HTTP requests about one table, answered by its owner wherever they arrive.

``/api/tables/{id}/…`` (join, invites, hints, the summary…) is run by the table's owner:
a process that does not own the table forwards the request over Redis (``call``) and
answers with the owner's response (``reply``); records and replays come from storage
on any process. A request is never answered "no such table" by a process that merely
does not hold the table (:meth:`Forwarding.forward`), nor a bare 500 when the owner
fails unexpectedly: that is a 503 ``owner_failed`` with ``Retry-After``, the failure
logged with its traceback on the owner (:meth:`Forwarding._run_owned`).
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message

from cardtable.messages import render
from cardtable.server.cluster.bus import Bus
from cardtable.server.storage import Storage

__all__ = ["CALL_SECONDS", "FORWARDED", "FORWARD_TRIES", "Forwarding"]

log = logging.getLogger("cardtable.server.cluster")

#: Header of an HTTP request forwarded to the table's owner (never forwarded again).
FORWARDED = "x-cardtable-forwarded"

#: Seconds a forwarded HTTP request waits for the owner's answer.
CALL_SECONDS = 10.0

#: Times a request is sent to the table's owner as it is found now, when the process
#: asked answers that the table is not there (it moved meanwhile).
FORWARD_TRIES = 5

#: Paths about one table that any process answers (records and replays come from storage).
_LOCAL_TAILS = ("/record", "/replay")


def _not_there(status: int, content: bytes) -> bool:
    """Whether an answer says the table is not on the process that answered: 404
    ``no_table`` or 503 ``moved``."""
    if status not in (404, 503):
        return False
    try:
        detail = json.loads(content).get("detail")
    except (ValueError, AttributeError):
        return False
    code = detail.get("code") if isinstance(detail, dict) else None
    return (status, code) in ((404, "no_table"), (503, "moved"))


#: The Bot API's actions at a table (docs/bot-api.md), run by the table's owner.
_BOT_GAME = "/api/bot/game/"


class Forwarding(Bus):
    """Requests forwarded to a table's owner; the state is set by
    :class:`~.node.Cluster`."""

    app: ASGIApp | None
    _calls: dict[str, asyncio.Future[dict[str, Any]]]

    # ------------------------------------------------------------------- HTTP
    def table_of(self, path: str) -> str | None:
        """The table a request path is about, when its owner must answer it (a bot's
        action at a table too: ``/api/bot/game/{id}/move``, not its stream)."""
        if path.startswith(_BOT_GAME) and not path.startswith(_BOT_GAME + "stream/"):
            return path[len(_BOT_GAME) :].partition("/")[0] or None
        if not path.startswith("/api/tables/"):
            return None
        rest = path[len("/api/tables/") :]
        table_id, _, tail = rest.partition("/")
        if not table_id or ("/" + tail) in _LOCAL_TAILS:
            return None
        return table_id

    async def forward(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """HTTP middleware: a request about a table is run by its owner — here or on
        another process — and its response returned as it is. An answer that says the
        table is not there (404 ``no_table`` or 503 ``moved`` from a process that was its
        owner a moment ago: it lost or handed the table over meanwhile) is never passed
        on: the owner is looked up again and the request run there, up to
        :data:`FORWARD_TRIES` times, then a 503 with Retry-After. A 404 stays a 404
        only for a table no process holds or can load at two looks (there is no such
        table)."""
        table_id = self.table_of(request.url.path)
        if table_id is None or FORWARDED in request.headers:
            return await call_next(request)
        body = await request.body()
        payload = {
            "edge": self.me,
            "method": request.method,
            "path": request.url.path,
            "query": request.url.query,
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in request.headers.raw],
            "client": [request.client.host, request.client.port] if request.client else None,
            "body": base64.b64encode(body).decode(),
        }
        for attempt in range(FORWARD_TRIES):
            target, any_age = table_id, False
            if request.url.path.endswith("/rematch"):
                # Run by the rematch table's owner once there is one (it seats the caller
                # there), else by the finished table's (it makes the rematch).
                target = await self._rematch_of(table_id) or table_id
                any_age = True
            owner = await self.locate(target, any_age=any_age)
            if owner is None and self.draining:  # let go, not claimed yet: ask again
                return self._unavailable("the table is moving to another process: try again")
            if owner is None or owner == self.me:
                status, headers, content = await self._run_owned(payload)
            else:
                answer = await self._call(owner, payload)
                if answer is None:
                    return self._unavailable(
                        "the process that runs this table did not answer: try again"
                    )
                status, headers, content = answer
            # No owner found: no such table — or, on a slow machine, one between two
            # owners at the look; a second look tells.
            final = owner is None and (attempt > 0 or not _not_there(status, content))
            if final or (owner is not None and not _not_there(status, content)):
                response = Response(content, status)
                response.raw_headers = list(headers)
                return response
            log.info("table %s was not at %s (%d); asking again", target, owner, status)
            await asyncio.sleep(0.02 * (attempt + 1))
        return self._unavailable("the table is moving to another process: try again")

    async def _call(
        self, owner: str, payload: dict[str, Any]
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """Run a request on process ``owner``; its status, headers and body (None: it
        did not answer within :data:`CALL_SECONDS`)."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[rid] = future
        self.send(owner, "call", rid, json.dumps(payload))
        try:
            answer = await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            self._calls.pop(rid, None)
            return None
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]]
        return int(answer["status"]), headers, base64.b64decode(answer["body"])

    async def _rematch_of(self, table_id: str) -> str | None:
        """The stored rematch of a finished table, if it has one."""
        live = self.hub.tables.get(table_id)
        if live is not None and not live.gone:
            return live.table.rematch_id
        return await self.hub.storage.aread(lambda s: Storage.rematch_id(s, table_id))

    @staticmethod
    def _refusal(code: str, message: str) -> dict[str, Any]:
        """The JSON body of a 503 about the table's owner (message id ``server.<code>``)."""
        detail = {"code": code, "message": message, "message_id": f"server.{code}", "params": {}}
        return {"detail": detail}

    @classmethod
    def _unavailable(cls, message: str) -> JSONResponse:
        """503 ``owner_unreachable``: the table's owner cannot answer now (it died, or
        the table is between two owners); asked again shortly, another will."""
        return JSONResponse(
            cls._refusal("owner_unreachable", message), 503, headers={"Retry-After": "1"}
        )

    async def _answer_call(self, rid: str, text: str) -> None:
        """Run a forwarded request through this process's application."""
        payload = json.loads(text)
        edge = payload["edge"]
        status, headers, body = await self._run_owned(payload)
        answer = {
            "status": status,
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in headers],
            "body": base64.b64encode(body).decode(),
        }
        self.send(edge, "reply", rid, json.dumps(answer))

    async def _run_owned(self, payload: dict[str, Any]) -> tuple[int, list[Any], bytes]:
        """Run a request about a table this process owns (forwarded here, or arrived
        here): its status, headers and body. An unexpected failure is logged with its
        traceback and answered 503 ``owner_failed`` with ``Retry-After`` (the client asks
        again; a failure of the moment, such as a lost database connection, passes),
        never a bare 500 that names no cause."""
        try:
            return await self._run_request(payload)
        except Exception:
            log.exception(
                "request %s %s about a table failed on its owner",
                payload.get("method"),
                payload.get("path"),
            )
        body = self._refusal("owner_failed", render("server.owner_failed", {}))
        headers = [(b"content-type", b"application/json"), (b"retry-after", b"1")]
        return 503, headers, json.dumps(body).encode()

    async def _run_request(self, payload: dict[str, Any]) -> tuple[int, list[Any], bytes]:
        assert self.app is not None
        body = base64.b64decode(payload["body"])
        path: str = payload["path"]
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in payload["headers"]]
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": payload["method"],
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": payload["query"].encode("latin-1"),
            "root_path": "",
            "headers": [*headers, (FORWARDED.encode(), b"1")],
            "client": tuple(payload["client"]) if payload["client"] else None,
            "server": ("127.0.0.1", 0),
        }
        given = False
        done = asyncio.Event()

        async def receive() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        status = 500
        out_headers: list[Any] = []
        chunks: list[bytes] = []

        async def send(message: Message) -> None:
            nonlocal status, out_headers
            if message["type"] == "http.response.start":
                status = message["status"]
                out_headers = list(message.get("headers", []))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    done.set()

        await self.app(scope, receive, send)
        done.set()
        return status, out_headers, b"".join(chunks)
