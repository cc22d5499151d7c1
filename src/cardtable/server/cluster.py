"""Several server processes sharing tables: ownership in the database, messages on Redis.

With ``cardtable serve --redis URL`` (Settings ``redis_url``) any number of processes
share one database. Each live table has one *owner* process: only it holds the table in
memory, orders its moves, runs its bots, clocks and pauses, and writes it — every write
checks the owner's fencing token in the same transaction (:mod:`.leases`). The others
carry messages:

* **A WebSocket on a process that does not own its table** is *relayed*: each frame
  goes to the owner over Redis (``in``), where a :class:`~.connection.Connection` whose
  socket publishes (:class:`RemoteSocket`) takes part in the table like a local one; the
  owner's messages for that one connection come back (``out``) on the edge process's own
  channel, addressed to that connection. Nothing is broadcast to a channel every process
  reads: each recipient's message is built by the owner for its seat (the per-seat
  views), exactly as for a local socket, and travels to one process for one socket.
  Table chat reaches every process's connections the same way.
* **HTTP requests about one table** (``/api/tables/{id}/…``: join, invites, hints, the
  summary…) are run by the owner: a non-owner forwards the request over Redis and
  answers with the owner's response (:meth:`Cluster.forward`).
* **Leases.** An owner renews its leases every ``renew_seconds``; every process looks as
  often for tables whose lease has run out (its owner was killed) or was released (its
  owner is stopping), claims them (a compare-and-set on the token: one process wins),
  restores them through the ordinary restore path (:meth:`~cardtable.table.Table.restore`:
  moves replayed, clocks counted from now, bots resumed) and announces ``own``: the
  relays of the old owner's connections close with :data:`RECONNECT` (1012), and the
  clients come back to any process and carry on with the same move ids.
* **SIGTERM** (:meth:`Cluster.drain`): the process stops taking tables, releases each
  of its leases and announces ``free`` (another process claims it at once), closes the
  table's connections with 1012, then exits.

Every process also keeps a key ``alive:<instance>`` that expires with its lease time:
an owner drops the relayed connections of a process that died (their seats then start
their grace period, as after any lost connection).

Channels (each starts with ``redis_prefix``): ``i:<instance>`` for one process,
``all`` for every one. A message is ``<op> <id> <payload>`` in one text.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardtable.server import leases
from cardtable.server.connection import Connection
from cardtable.server.core import refusal
from cardtable.server.leases import Lease
from cardtable.server.settings import Settings
from cardtable.server.storage import Storage
from cardtable.server.timing import MoveTiming, is_move

if TYPE_CHECKING:
    from cardtable.server.runtime import Hub

__all__ = ["ORPHAN_WAIT", "RECONNECT", "Cluster", "RemoteSocket", "instance_id", "preferred"]

log = logging.getLogger("cardtable.server.cluster")

#: WebSocket close code telling a client to connect again, to any process: the table
#: moved to another owner, or this process is stopping ("service restart").
RECONNECT = 1012

#: Header of an HTTP request forwarded to the table's owner (never forwarded again).
FORWARDED = "x-cardtable-forwarded"

#: Seconds a forwarded HTTP request waits for the owner's answer.
CALL_SECONDS = 10.0

#: Paths about one table that its owner answers (records and replays come from storage).
_LOCAL_TAILS = ("/record", "/replay")


#: Renewal periods an orphaned table waits for the process :func:`preferred` names
#: before any other process claims it.
ORPHAN_WAIT = 4


def preferred(table_id: str, members: Sequence[str]) -> str:
    """Which of the live processes ``members`` should take an orphaned table first:
    rendezvous hashing, so a dead process's tables spread evenly over the others and
    each process decides alone, with no message, what is its."""
    return max(
        members, key=lambda m: hashlib.blake2b(f"{table_id}/{m}".encode(), digest_size=8).digest()
    )


def instance_id() -> str:
    """A new process's id: host name, process id and a random part."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"


class RemoteSocket:
    """The socket of a connection relayed from another process: what the owner sends
    it goes to that process, addressed to that one connection."""

    def __init__(self, cluster: Cluster, edge: str, cid: str) -> None:
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
class _Remote:
    """Owner side: a connection relayed from process ``edge``."""

    edge: str
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    table_id: str = ""


@dataclass(eq=False)
class _Link:
    """Edge side: a local WebSocket relayed to the owner of ``table_id``."""

    websocket: WebSocket
    table_id: str
    owner: str
    out: asyncio.Queue[tuple[int, str] | str] = field(default_factory=asyncio.Queue)
    closed: bool = False


class Cluster:
    """This process's part in a group of processes sharing tables (module docstring)."""

    def __init__(self, hub: Hub, settings: Settings) -> None:
        assert settings.redis_url is not None
        self.hub = hub
        self.url = settings.redis_url
        self.prefix = settings.redis_prefix
        self.me = settings.instance or instance_id()
        self.lease = settings.lease_seconds
        self.every = settings.renew_seconds
        self.drain_seconds = settings.drain_seconds
        #: SIGTERM received: the health check answers 503 (a proxy stops sending
        #: newcomers) while the process still serves for ``drain_seconds``.
        self.stopping = False
        #: Handing over: no table is taken any more, new sockets are sent elsewhere.
        self.draining = False
        self.app: ASGIApp | None = None
        #: The owner times relayed moves too (frame in to the last message queued for
        #: publishing), when ``time_moves`` is on.
        self.timing: MoveTiming | None = None
        self.redis: Redis | None = None
        self._sub: Redis | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._remotes: dict[str, _Remote] = {}
        self._links: dict[str, _Link] = {}
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._locating: dict[str, asyncio.Future[str | None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()
        #: Tables this process took over from another (killed or stopping) owner.
        self.taken_over = 0
        #: Stopped: the periodic steps end.
        self._closed = False
        #: Tables seen without an owner -> when first seen (``time.monotonic``).
        self._orphans: dict[str, float] = {}

    # ------------------------------------------------------------------ names
    def key(self, *parts: str) -> str:
        """A Redis key or channel of this group."""
        return self.prefix + ":".join(parts)

    def channel(self, instance: str) -> str:
        """The channel of one process."""
        return self.key("i", instance)

    # -------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Connect to Redis, listen on this process's channels and start renewing,
        looking for orphaned tables and keeping this process's ``alive`` key."""
        self.redis = Redis.from_url(self.url, decode_responses=True)
        self._sub = Redis.from_url(self.url, decode_responses=True)
        pubsub = self._sub.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel(self.me), self.key("all"))
        await self._alive()
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._publish()),
            asyncio.create_task(self._every(self._renew)),
            asyncio.create_task(self._every(self._claim_orphans)),
        ]
        log.info("instance %s joined the cluster", self.me)

    async def stop(self) -> None:
        """Stop listening and publishing (after the hub handed over or stopped)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush(), 2)
        self._closed = True
        for task in [*self._tasks, *self._spawned]:
            task.cancel()
        # Waited for a bounded time: on Python 3.11 a cancellation that meets an inner
        # wait_for finishing at that moment is lost, and the task goes on (its loop then
        # ends on ``_closed``); a process asked to stop must stop.
        if self._tasks:
            _done, left = await asyncio.wait(self._tasks, timeout=2)
            for task in left:
                log.warning("cluster task %s did not stop; cancelling it again", task.get_name())
                task.cancel()
        for client in (self.redis, self._sub):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.delete(self.key("alive", self.me))
                    await client.zrem(self.key("members"), self.me)
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def _flush(self) -> None:
        """Wait until every queued message is published."""
        while not self._outbox.empty():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the last batch's round trip

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # ------------------------------------------------------------- messaging
    def send(self, instance: str, op: str, ident: str, payload: str) -> None:
        """Queue a message to one process (sent in order by one publisher)."""
        self._outbox.put_nowait((self.channel(instance), f"{op} {ident} {payload}"))

    def announce(self, op: str, table_id: str) -> None:
        """Tell every process about a table: ``own`` (this process owns it now) or
        ``free`` (it is released: claim it)."""
        self._outbox.put_nowait((self.key("all"), f"{op} {table_id} {self.me}"))

    async def _publish(self) -> None:
        """Publish queued messages in order, many per round trip."""
        assert self.redis is not None
        while True:
            first = await self._outbox.get()
            batch = [first]
            while len(batch) < 512 and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, text in batch:
                    pipe.publish(channel, text)
                await pipe.execute()
            except Exception:
                log.exception("cannot publish %d messages", len(batch))
                await asyncio.sleep(0.2)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the Redis subscription; subscribing again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel(self.me), self.key("all"))

    def _dispatch(self, data: str) -> None:
        op, ident, payload = [*data.split(" ", 2), "", ""][:3]
        try:
            if op == "in":
                remote = self._remotes.get(ident)
                # A frame for a connection already ended here is dropped: its edge
                # has been told to close it (or hears the table's new owner).
                if remote is not None:
                    remote.inbox.put_nowait(payload)
            elif op == "out":
                link = self._links.get(ident)
                if link is not None:
                    link.out.put_nowait(payload)
            elif op == "shut":
                link = self._links.get(ident)
                if link is not None:
                    code, _, reason = payload.partition(" ")
                    link.out.put_nowait((int(code), reason))
            elif op == "open":
                edge, table_id, account = [*payload.split(" ", 2), "", ""][:3]
                remote = _Remote(edge, table_id=table_id)
                self._remotes[ident] = remote
                self._spawn(self._serve_remote(ident, remote, account or None))
            elif op == "close":
                remote = self._remotes.get(ident)
                if remote is not None:
                    remote.inbox.put_nowait(None)
            elif op == "own":
                self._owned_elsewhere(ident, payload)
            elif op == "free":
                if payload != self.me and not self.draining:
                    self._spawn(self._claim_soon(ident))
            elif op == "call":
                self._spawn(self._answer_call(ident, payload))
            elif op == "reply":
                future = self._calls.pop(ident, None)
                if future is not None and not future.done():
                    future.set_result(json.loads(payload))
        except Exception:
            log.exception("bad cluster message %r", data[:200])

    # -------------------------------------------------------------- ownership
    async def locate(self, table_id: str, *, any_age: bool = False) -> str | None:
        """The process that owns ``table_id`` (this one's id when it is here, claiming
        and loading it when nobody holds it), or ``None`` when there is no such table
        (or this process is stopping and nobody else holds it yet). A table finished
        longer than ``keep_finished_seconds`` ago is loaded only with ``any_age`` (a
        rematch of an old game), as on a single process."""
        live = self.hub.tables.get(table_id)
        if live is not None and not live.gone:
            return self.me
        key = f"{table_id}/{any_age}"
        pending = self._locating.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._locating[key] = future
        try:
            owner = await self._locate(table_id, any_age)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else need be waiting
            raise
        finally:
            self._locating.pop(key, None)
        future.set_result(owner)
        return owner

    async def _lease(self, table_id: str) -> Lease | None:
        return await self.hub.storage.aread(lambda s: leases.lease_of(table_id)(s))

    async def _locate(self, table_id: str, any_age: bool) -> str | None:
        lease = await self._lease(table_id)
        if lease is not None and lease.owner != self.me and lease.held(time.time()):
            return lease.owner
        if self.draining:
            return None
        now = time.time()
        fence = await self.hub.storage.awrite(
            leases.claim(table_id, self.me, now, now + self.lease)
        )
        if fence is None:
            lease = await self._lease(table_id)
            held = lease is not None and lease.held(time.time())
            return lease.owner if held and lease is not None else None
        taken = lease is not None and lease.owner != self.me
        live = await self.hub.adopt(table_id, fence, any_age=any_age)
        if live is None:
            return None
        before = lease.owner if lease is not None else None
        log.info("took table %s (token %d) from %s", table_id, fence.token, before or "nobody")
        if self.draining:  # began stopping meanwhile, after :meth:`drain` looked
            await self.hub.hand_over(live)
            return None
        if taken:
            self.taken_over += 1
        self.announce("own", table_id)
        return self.me

    async def _claim_soon(self, table_id: str) -> None:
        """A released table: claim it after a short random wait (spreads the tables of
        a stopping process over the others)."""
        await asyncio.sleep(random.uniform(0, self.every / 2))
        if not self.draining:
            await self.locate(table_id)

    def _owned_elsewhere(self, table_id: str, owner: str) -> None:
        """``owner`` took ``table_id``: relays to an older owner reconnect; a copy here
        (an owner that lost its lease while stopped) is dropped."""
        for link in list(self._links.values()):
            if link.table_id == table_id and link.owner != owner:
                link.out.put_nowait((RECONNECT, "the table moved"))
        live = self.hub.tables.get(table_id)
        if live is not None and owner != self.me:
            log.warning("table %s was taken by %s; dropping it here", table_id, owner)
            self._spawn(self.hub.drop(live))

    def dropped(self, table_id: str) -> None:
        """The hub dropped ``table_id``: its relayed connections end here."""
        for remote in self._remotes.values():
            if remote.table_id == table_id:
                remote.inbox.put_nowait(None)

    async def _alive(self) -> None:
        """Say this process lives for one more lease time: its ``alive`` key, and its
        entry in ``members`` (scored by when it lapses), which :meth:`_members` reads."""
        assert self.redis is not None
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.key("alive", self.me), "1", px=max(1, int(self.lease * 1000)))
        pipe.zadd(self.key("members"), {self.me: time.time() + self.lease})
        await pipe.execute()

    async def _members(self) -> list[str]:
        """The processes alive now (this one included), lapsed entries removed."""
        assert self.redis is not None
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zremrangebyscore(self.key("members"), "-inf", now)
        pipe.zrangebyscore(self.key("members"), now, "+inf")
        _removed, found = await pipe.execute()
        return sorted({*found, self.me})

    async def _every(self, step: Callable[[], Awaitable[None]]) -> None:
        """Run ``step`` every ``renew_seconds`` (renewing apart from claiming, so a long
        takeover never delays this process's own renewals)."""
        while not self._closed:
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster step %s failed", getattr(step, "__name__", step))
            await asyncio.sleep(self.every * random.uniform(0.8, 1.2))

    async def _renew(self) -> None:
        """Renew this process's leases (dropping tables lost meanwhile) and end the
        relayed connections of dead processes."""
        assert self.redis is not None
        await self._alive()
        owned = [t for t, live in self.hub.tables.items() if live.fence is not None]
        if owned:
            now = time.time()
            held = await self.hub.storage.awrite(leases.renew(self.me, owned, now + self.lease))
            for table_id in set(owned) - held:
                live = self.hub.tables.get(table_id)
                if live is not None:
                    log.warning("lost the lease of table %s", table_id)
                    await self.hub.drop(live)
        # Relayed connections whose other end died: an owner ends those of a dead edge
        # (their seats get their grace period); an edge sends its clients away from a
        # dead owner (they reconnect and find the table's next owner).
        peers = sorted(
            {r.edge for r in self._remotes.values()} | {k.owner for k in self._links.values()}
        )
        if peers:
            pipe = self.redis.pipeline(transaction=False)
            for peer in peers:
                pipe.exists(self.key("alive", peer))
            dead = {p for p, found in zip(peers, await pipe.execute(), strict=True) if not found}
            for remote in self._remotes.values():
                if remote.edge in dead:
                    remote.inbox.put_nowait(None)
            for link in self._links.values():
                if link.owner in dead:
                    link.out.put_nowait((RECONNECT, "the table moved"))

    async def _claim_orphans(self) -> None:
        """Claim the tables nobody holds (their owner died or let them go), spread over
        the live processes: each table goes first to the one process :func:`preferred`
        names; any other claims it when it is still nobody's after ``ORPHAN_WAIT``
        renewal periods (its preferred process is slow, or died too)."""
        if self.draining:
            return
        now = time.time()
        orphans = await self.hub.storage.aread(lambda s: leases.orphans(now)(s))
        seen = time.monotonic()
        self._orphans = {t: self._orphans.get(t, seen) for t in orphans}
        if not orphans:
            return
        members = await self._members()
        late = seen - ORPHAN_WAIT * self.every
        random.shuffle(orphans)
        for table_id in orphans:
            if self.draining:
                return
            if preferred(table_id, members) == self.me or self._orphans[table_id] <= late:
                await self.locate(table_id)

    # ---------------------------------------------------------------- relays
    async def _serve_remote(self, cid: str, remote: _Remote, account: str | None) -> None:
        """Owner side of a relayed connection: frames in order, as from a local socket."""
        hub = self.hub
        conn: Connection | None = None
        live = None
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
        link = _Link(websocket, table_id, owner)
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

    async def _write_link(self, link: _Link) -> None:
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

    # ---------------------------------------------------------------- stopping
    async def drain(self) -> None:
        """SIGTERM: answer the health check with 503 for ``drain_seconds`` (still
        serving), then hand every table over (release, announce, close its connections
        with 1012) and close the relays this process carries for other owners."""
        self.stopping = True
        if self.drain_seconds > 0:
            await asyncio.sleep(self.drain_seconds)
        self.draining = True
        log.info("handing over %d tables", len(self.hub.tables))
        for live in list(self.hub.tables.values()):
            await self.hub.hand_over(live)
        # A claim under way when this began hands its table over itself (:meth:`_locate`).
        for pending in list(self._locating.values()):
            with contextlib.suppress(BaseException):
                await asyncio.shield(pending)
        for link in list(self._links.values()):
            link.out.put_nowait((RECONNECT, "server restarting"))
        await self._flush()

    # ------------------------------------------------------------------- HTTP
    def table_of(self, path: str) -> str | None:
        """The table a request path is about, when its owner must answer it."""
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
        """HTTP middleware: a request about a table owned by another process is run
        there and its response returned as it is."""
        table_id = self.table_of(request.url.path)
        if table_id is None or FORWARDED in request.headers:
            return await call_next(request)
        any_age = False
        if request.url.path.endswith("/rematch"):
            # Run by the rematch table's owner once there is one (it seats the caller
            # there), else by the finished table's (it makes the rematch).
            table_id = await self._rematch_of(table_id) or table_id
            any_age = True
        owner = await self.locate(table_id, any_age=any_age)
        if owner is None and self.draining:  # let go, not claimed yet: ask again
            return self._unavailable("the table is moving to another process: try again")
        if owner is None or owner == self.me:
            return await call_next(request)
        body = await request.body()
        rid = secrets.token_hex(8)
        payload = {
            "edge": self.me,
            "method": request.method,
            "path": request.url.path,
            "query": request.url.query,
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in request.headers.raw],
            "client": [request.client.host, request.client.port] if request.client else None,
            "body": base64.b64encode(body).decode(),
        }
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[rid] = future
        self.send(owner, "call", rid, json.dumps(payload))
        try:
            answer = await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            self._calls.pop(rid, None)
            return self._unavailable("the process that runs this table did not answer: try again")
        response = Response(base64.b64decode(answer["body"]), answer["status"])
        response.raw_headers = [
            (k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]
        ]
        return response

    async def _rematch_of(self, table_id: str) -> str | None:
        """The stored rematch of a finished table, if it has one."""
        live = self.hub.tables.get(table_id)
        if live is not None and not live.gone:
            return live.table.rematch_id
        return await self.hub.storage.aread(lambda s: Storage.rematch_id(s, table_id))

    @staticmethod
    def _unavailable(message: str) -> JSONResponse:
        """503 ``owner_unreachable``: the table's owner cannot answer now (it died, or
        the table is between two owners); asked again shortly, another will."""
        return JSONResponse(
            {
                "detail": {
                    "code": "owner_unreachable",
                    "message": message,
                    "message_id": "server.owner_unreachable",
                    "params": {},
                }
            },
            503,
            headers={"Retry-After": "1"},
        )

    async def _answer_call(self, rid: str, text: str) -> None:
        """Run a forwarded request through this process's application."""
        payload = json.loads(text)
        edge = payload["edge"]
        try:
            status, headers, body = await self._run_request(payload)
        except Exception:
            log.exception("forwarded request failed")
            status, headers, body = 500, [], b""
        answer = {
            "status": status,
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in headers],
            "body": base64.b64encode(body).decode(),
        }
        self.send(edge, "reply", rid, json.dumps(answer))

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
