"""Several server processes sharing tables: ownership in the database, messages on Redis.

With ``cardtable serve --redis URL`` (Settings ``redis_url``) any number of processes
share one database. Each live table has one *owner* process: only it holds the table in
memory, orders its moves, runs its bots, clocks and pauses, and writes it — every write
checks the owner's fencing token in the same transaction (:mod:`..leases`). The others
carry messages: WebSockets are relayed to the owner (:mod:`.relay`), HTTP requests
about a table are run by it (:mod:`.forward`), and so are the errands other parts of
the server ask of a table's owner (:mod:`.errands`).

* **Leases** are renewed by :class:`~.keeper.LeaseKeeper` on a thread of its own with
  its own database and Redis connections, so an owner whose event loop is slow (a
  CPU-starved host) keeps its tables; the keeper's module says why and what stays
  correct. Every process looks every ``renew_seconds`` for tables whose lease has run
  out (its owner was killed) or was released, claims them (a compare-and-set on the
  token: one process wins), restores them through the ordinary restore path
  (:meth:`~cardtable.table.Table.restore`: moves replayed, clocks counted from now,
  bots resumed) and announces ``own``: the relays of the old owner's connections close
  with :data:`~cardtable.server.ownership.RECONNECT` (1012), and the clients come back
  to any process and carry on with the same move ids.
* **SIGTERM** (:meth:`Cluster.drain`): the process leaves the members first (nobody
  names it as anyone's successor), stops taking tables, and for each table releases
  its lease and sends ``take`` to the one process :func:`preferred` names among the
  others — which claims it at once, never waiting for an expiry —, announces ``free``
  to all (any other claims it a renewal period later should that one not), and closes
  the table's connections with 1012; then it exits.

Every process also keeps a key ``alive:<instance>`` and an entry in ``members`` that
expire with its lease time (renewed by the keeper): an owner drops the relayed
connections of a process that died (their seats then start their grace period, as
after any lost connection).

The hub is reached only through :class:`~cardtable.server.ownership.Tables`, and the
hub reaches this class only through :class:`~cardtable.server.ownership.Ownership`.
"""

from __future__ import annotations

import asyncio
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
from typing import Any

import redis
from redis.asyncio import Redis
from sqlalchemy import Engine, create_engine
from starlette.types import ASGIApp

from cardtable.server import leases
from cardtable.server.cluster.errands import Errands
from cardtable.server.cluster.forward import Forwarding
from cardtable.server.cluster.keeper import LeaseKeeper
from cardtable.server.cluster.relay import Link, Relays, Remote
from cardtable.server.leases import Fence, Lease
from cardtable.server.ownership import RECONNECT, Errand, Tables
from cardtable.server.settings import Settings
from cardtable.server.timing import MoveTiming

__all__ = ["ORPHAN_WAIT", "Cluster", "instance_id", "preferred"]

log = logging.getLogger("cardtable.server.cluster")

#: Renewal periods an orphaned table waits for the process :func:`preferred` names
#: before any other process claims it.
ORPHAN_WAIT = 4

#: Times :meth:`Cluster.locate` looks for a table's owner and tries to claim it when
#: the claim fails (another process won it, or the lease ran out between two looks).
LOCATE_TRIES = 3

#: Times a successor told to ``take`` a table looks for it free before leaving it to
#: the others (the release may reach the database a moment after the message).
TAKE_TRIES = 20


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


class Cluster(Relays, Forwarding, Errands):
    """This process's part in a group of processes sharing tables (module docstring)."""

    def __init__(self, hub: Tables, settings: Settings) -> None:
        assert settings.redis_url is not None
        self.hub = hub
        self.url = settings.redis_url
        self.prefix = settings.redis_prefix
        self.me = settings.instance or instance_id()
        #: The name a proxy routes sockets to this process by (``?route=``), if any.
        self.route = settings.route
        #: Other processes' route names, as their ``alive`` keys said (an instance id
        #: is never reused, so a name found stays true).
        self._routes: dict[str, str] = {}
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
        self._remotes: dict[str, Remote] = {}
        self._links: dict[str, Link] = {}
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._errands: dict[str, Errand] = {}
        self._hearers: dict[str, list[Callable[[str], None]]] = {}
        self._asked: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._locating: dict[str, asyncio.Future[str | None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()
        #: Tables this process took over from another (killed or stopping) owner.
        self.taken_over = 0
        #: Stopped: the periodic steps end.
        self._closed = False
        #: Tables seen without an owner -> when first seen (``time.monotonic``).
        self._orphans: dict[str, float] = {}
        #: The other live processes when this one began handing over: successors.
        self._heirs: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._heart: redis.Redis | None = None
        self._lease_engine: Engine | None = None
        self.keeper = LeaseKeeper(
            lease_seconds=self.lease,
            every=self.every,
            renew=self._renew_leases,
            heartbeat=self._heartbeat,
            lost=self._lost_threadsafe,
            observe=self._observe_renewal,
        )

    # -------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Connect to Redis, listen on this process's channels and start renewing,
        looking for orphaned tables and keeping this process's ``alive`` key."""
        self._loop = asyncio.get_running_loop()
        self.hub.metrics.relayed_sockets.set_function(lambda: len(self._links))
        self.redis = Redis.from_url(self.url, decode_responses=True)
        self._sub = Redis.from_url(self.url, decode_responses=True)
        self._heart = redis.Redis.from_url(
            self.url, decode_responses=True, socket_timeout=self.lease
        )
        engine = self.hub.storage.engine
        if engine.dialect.name != "sqlite":  # its own connection, apart from the moves'
            self._lease_engine = create_engine(
                engine.url, isolation_level="AUTOCOMMIT", pool_size=1, max_overflow=1
            )
        pubsub = self._sub.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel(self.me), self.key("all"))
        await asyncio.to_thread(self._heartbeat, time.time())
        self.keeper.start()
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._publish()),
            asyncio.create_task(self._every(self._watch_peers)),
            asyncio.create_task(self._every(self._claim_orphans)),
        ]
        log.info("instance %s joined the cluster", self.me)

    async def stop(self) -> None:
        """Stop renewing, listening and publishing (after the hub handed over or
        stopped)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush(), 2)
        self._closed = True
        await asyncio.to_thread(self.keeper.stop)
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
        if self._heart is not None:
            with contextlib.suppress(Exception):
                self._heart.close()
        if self._lease_engine is not None:
            self._lease_engine.dispose()

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
                remote = Remote(edge, table_id=table_id)
                self._remotes[ident] = remote
                self._spawn(self._serve_remote(ident, remote, account or None))
            elif op == "close":
                remote = self._remotes.get(ident)
                if remote is not None:
                    remote.inbox.put_nowait(None)
            elif op == "own":
                self._owned_elsewhere(ident, payload)
            elif op == "take":
                if not self.draining:
                    self._spawn(self._take(ident, payload))
            elif op == "free":
                if payload != self.me and not self.draining:
                    self._spawn(self._claim_soon(ident))
            elif op == "call":
                self._spawn(self._answer_call(ident, payload))
            elif op == "reply":
                future = self._calls.pop(ident, None)
                if future is not None and not future.done():
                    future.set_result(json.loads(payload))
            elif op == "ask":
                self._spawn(self._answer_errand(ident, payload))
            elif op == "told":
                self._told(ident, payload)
            elif op == "news":
                self._heard(ident, payload)
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
        for _ in range(LOCATE_TRIES):
            lease = await self._lease(table_id)
            if lease is not None and lease.owner != self.me and lease.held(time.time()):
                return lease.owner
            if self.draining:
                return None
            now = time.time()
            fence = await self.hub.storage.awrite(
                leases.claim(table_id, self.me, now, now + self.lease)
            )
            if fence is not None:
                break
            # Another process claimed it at that moment, or its owner's lease ran out
            # between the two looks (a slow machine): look again. No lease row at all:
            # no such table.
            if await self._lease(table_id) is None:
                return None
        else:  # claimed by others each time: whoever holds it now
            lease = await self._lease(table_id)
            return lease.owner if lease is not None else None
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
        self.hub.metrics.lease("claimed")
        self.announce("own", table_id)
        return self.me

    async def _take(self, table_id: str, departing: str) -> None:
        """``departing`` handed ``table_id`` over to this process: claim it now (again
        for a moment should a look begun before the release still see it held)."""
        for _ in range(TAKE_TRIES):
            if self.draining:
                return
            owner = await self.locate(table_id)
            if owner is None or owner != departing:
                return
            await asyncio.sleep(0.02)

    async def _claim_soon(self, table_id: str) -> None:
        """A released table: claim it a renewal period later should its named
        successor not have (it died too, or is slow)."""
        await asyncio.sleep(self.every * random.uniform(1.0, 1.5))
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
            self.hub.metrics.lease("dropped")
            self._spawn(self.hub.drop(live))

    def dropped(self, table_id: str) -> None:
        """The hub dropped ``table_id``: its relayed connections end here."""
        for remote in self._remotes.values():
            if remote.table_id == table_id:
                remote.inbox.put_nowait(None)

    def hold(self, table_id: str, fence: Fence) -> None:
        """Renew this lease from now on (:class:`~.keeper.LeaseKeeper`)."""
        self.keeper.hold(table_id, fence)

    def let_go(self, table_id: str, fence: Fence) -> None:
        """Stop renewing this lease (held with ``fence``)."""
        self.keeper.let_go(table_id, fence)

    def heir(self, table_id: str) -> str | None:
        """The successor of ``table_id`` on a hand-over: :func:`preferred` among the
        other processes alive when this one began stopping."""
        return preferred(table_id, self._heirs) if self._heirs else None

    def released(self, table_id: str, heir: str | None) -> None:
        """A hand-over gave ``table_id`` to ``heir`` (its lease written over to it):
        it is told to ``take`` it — restore it — at once. Released to nobody (no other
        process known), every process hears it is ``free`` and one claims it."""
        if heir is not None:
            self.send(heir, "take", table_id, self.me)
        else:
            self.announce("free", table_id)

    # ------------------------------------------------------------ lease thread
    def _renew_leases(self, table_ids: list[str], until: float) -> set[str]:
        """The keeper's renewal (on its thread): on the keeper's own connection, or on
        SQLite (one writer) through the storage's writer."""
        if self._lease_engine is None:
            renew = leases.renew(self.me, table_ids, until)
            return self.hub.storage.write(renew).result(timeout=self.lease)
        # One statement, one round trip: each wait for the network gives up the
        # interpreter, and getting it back from a busy loop may take a switch interval.
        with self._lease_engine.connect() as connection:
            renewed = set(connection.execute(leases.renewal(self.me, table_ids, until)).scalars())
            if len(renewed) == len(table_ids):
                return renewed
            # Skipped — a write in progress has the row locked, and that write renews
            # the lease as it commits (:func:`leases.check`) — or lost: only what no
            # longer names this process is lost.
            busy = [t for t in table_ids if t not in renewed]
            return renewed | set(connection.scalars(leases.still_held(self.me, busy)))

    def _heartbeat(self, now: float) -> None:
        """Say this process lives for one more lease time (on the keeper's thread): its
        ``alive`` key, and — unless it is handing over — its entry in ``members``
        (scored by when it lapses), which :meth:`_members` reads."""
        if self._heart is None:
            return
        pipe = self._heart.pipeline(transaction=False)
        # The key's value is this process's route name (empty: none): :meth:`route_of`.
        alive = self.key("alive", self.me)
        pipe.set(alive, self.route or "", px=max(1, int(self.lease * 1000)))
        if not self.draining:
            pipe.zadd(self.key("members"), {self.me: now + self.lease})
        pipe.execute()

    def _observe_renewal(self, seconds: float, margin: float | None) -> None:
        metrics = self.hub.metrics
        metrics.lease_renewal_seconds.observe(seconds)
        if margin is not None and self.keeper.min_margin is not None:
            metrics.lease_margin_seconds.set(self.keeper.min_margin)

    def _lost_threadsafe(self, lost: dict[str, Fence]) -> None:
        """The keeper found leases taken: the loop drops those tables."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._lost, lost)

    def _lost(self, lost: dict[str, Fence]) -> None:
        for table_id, fence in lost.items():
            live = self.hub.tables.get(table_id)
            if live is not None and live.fence == fence and not live.gone:
                log.warning("lost the lease of table %s", table_id)
                self.hub.metrics.lease("lost")
                self._spawn(self.hub.drop(live))

    async def route_of(self, instance: str) -> str | None:
        """The name a proxy routes sockets to process ``instance`` by (``None``: it has
        none, or it is not alive)."""
        known = self._routes.get(instance)
        if known is not None:
            return known
        if instance == self.me:
            return self.route
        assert self.redis is not None
        found = str(await self.redis.get(self.key("alive", instance)) or "")
        if not found:
            return None
        self._routes[instance] = found
        return found

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

    async def _watch_peers(self) -> None:
        """End the relayed connections of dead processes."""
        assert self.redis is not None
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

    # ---------------------------------------------------------------- stopping
    async def drain(self) -> None:
        """SIGTERM: answer the health check with 503 for ``drain_seconds`` (still
        serving), then leave the members, hand every table over to its successor
        (release, ``take``, close its connections with 1012) and close the relays this
        process carries for other owners."""
        self.stopping = True
        if self.drain_seconds > 0:
            await asyncio.sleep(self.drain_seconds)
        self.draining = True
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.zrem(self.key("members"), self.me)
                self._heirs = [m for m in await self._members() if m != self.me]
        log.info("handing over %d tables to %s", len(self.hub.tables), self._heirs)
        await asyncio.gather(
            *(self.hub.hand_over(live) for live in list(self.hub.tables.values())),
            return_exceptions=True,
        )
        # A claim under way when this began hands its table over itself (:meth:`_locate`).
        for pending in list(self._locating.values()):
            with contextlib.suppress(BaseException):
                await asyncio.shield(pending)
        for link in list(self._links.values()):
            link.out.put_nowait((RECONNECT, "server restarting"))
        await self._flush()
