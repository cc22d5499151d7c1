"""The server at run time: one process's live tables, their connections and storage.

This is the I/O side of the server. It owns no rules, no table logic and no protocol:
each live table's :class:`~cardtable.table.Table` decides, its
:class:`~cardtable.server.core.TableCore` turns messages into effects, and the hub
carries the effects out — it stores every change before telling anyone, sends the
messages, and wakes up when the table says something happens by itself.

Per table there is one :class:`asyncio.Lock`: a change is judged, stored and broadcast
before the next one is judged. Tables never wait on each other. The hub is made of
:class:`~.carry.Carrier` (effects, broadcasts), :class:`~.driver.Driver` (moves, bots,
clocks, pauses), :class:`~.table_chat.Chatter` (chat) and :class:`~.rematches.Rematches`
(the next game of a finished table); this module adds the lifecycle, making and joining
tables and the messages of a connection.

With several processes (:mod:`.cluster`) the hub is given an
:class:`~.ownership.Ownership` (``hub.cluster``) and never imports the cluster itself.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor
from datetime import UTC, datetime
from typing import Any

from cardtable.errors import BadOptions
from cardtable.games.base import Game
from cardtable.server.connection import Connection, Socket
from cardtable.server.core import Away, Broadcast, Effect, Store, TableCore, refusal
from cardtable.server.core import read as read_message
from cardtable.server.driver import Driver
from cardtable.server.gate import Gate
from cardtable.server.leases import Fence, release, transfer
from cardtable.server.live import HubError, LiveTable, default_games
from cardtable.server.metrics import Metrics
from cardtable.server.ownership import RECONNECT, Ownership
from cardtable.server.protocol import Chat, Error, Event, Hello, Move, Ping
from cardtable.server.rematches import Rematches
from cardtable.server.settings import Settings
from cardtable.server.storage import Storage, StoredTable
from cardtable.server.table_chat import Chatter
from cardtable.server.thinking import BotMaker, BotRunner, registry_bot
from cardtable.table import Status, Table, TableError, TimeControl, hash_token

__all__ = ["BANNED", "Hub", "HubError", "LiveTable", "default_games"]

log = logging.getLogger("cardtable.server")

#: WebSocket close code of a connection whose account is banned (no reconnecting).
BANNED = 4403


class Hub(Driver, Chatter, Rematches):
    """All live tables of one server process."""

    def __init__(
        self,
        storage: Storage,
        games: Mapping[str, Game] | None = None,
        bots: BotMaker = registry_bot,
        settings: Settings | None = None,
        executor: Executor | None = None,
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        self.storage = storage
        self.games = dict(games) if games is not None else default_games()
        self.settings = settings or Settings()
        self.metrics = metrics or Metrics()
        self.bots = BotRunner(self.settings, bots, executor, self.metrics)
        self.now = clock
        self.tables: dict[str, LiveTable] = {}
        #: Called with each table whose match has just finished and been stored (a
        #: tournament notices its games' results so).
        self.on_finished: list[Callable[[Table], None]] = []
        #: Called with each table whose move (or end) has just been stored.
        self.on_stored: list[Callable[[Table], None]] = []
        #: The pairs of accounts (ids) among those given that must never share a table
        #: made by the play-now queues (one blocked the other); set by the community
        #: (:mod:`.community`), else nobody is kept apart.
        self.apart: Callable[[list[str]], Awaitable[set[frozenset[str]]]] | None = None
        #: The reader accounts (ids) among those given that do not want a seated
        #: account's chat lines (they blocked it); set by the community.
        self.chat_filter: Callable[[str, list[str]], Awaitable[set[str]]] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Tables being made here (stored, not live yet) -> set once they are live.
        self._making: dict[str, asyncio.Event] = {}
        self.moves_accepted = 0
        #: Table messages being handled now.
        self.handling = 0
        #: Several processes sharing the tables: set by whoever assembles the server
        #: (:func:`.app.create_app`), else ``None``.
        self.cluster: Ownership | None = None
        #: Moderation (mutes and bans), set by whoever assembles the server, else ``None``.
        self.gate: Gate | None = None
        self.metrics.watch(
            lambda: len(self.tables),
            lambda: sum(len(live.connections) for live in list(self.tables.values())),
        )

    @property
    def bot_errors(self) -> list[str]:
        """Every bot failure so far (a bug each; the tests fail on any)."""
        return self.bots.errors

    # --------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Resume every unfinished table from storage. With several processes, join
        them instead: unfinished tables are claimed as their leases show them free."""
        if self.cluster is not None:
            await self.cluster.start()
            return
        stored = await self.storage.aread(Storage.load_unfinished)
        for item in stored:
            try:
                live = LiveTable(TableCore(self._restore(item)))
            except Exception:
                log.exception("cannot resume table %s", item.row["id"])
                continue
            self.tables[live.table.id] = live
            for seat in live.table.seats:
                if not seat.is_bot and live.table.status is Status.PLAYING:
                    self._start_grace(live, seat.index)
            self._drive(live)
        log.info("resumed %d tables", len(stored))

    async def stop(self) -> None:
        """Stop drivers, timers and connections (storage is closed by its owner)."""
        for live in self.tables.values():
            if live.driver is not None:
                live.driver.cancel()
            for handle in live.grace.values():
                handle.cancel()
            if live.evict is not None:
                live.evict.cancel()
            for conn in list(live.connections):
                await conn.close(1001, "server shutting down")
        for task in list(self._tasks):
            task.cancel()
        if self.cluster is not None:
            await self.cluster.stop()
        await asyncio.to_thread(self.bots.shutdown)

    async def adopt(
        self, table_id: str, fence: Fence, *, any_age: bool = False
    ) -> LiveTable | None:
        """Go live with a table this process just claimed (:mod:`.cluster`): restored
        from storage like after a restart — moves replayed, clocks counted from now,
        bots driven, absent people given their grace period. ``None`` (and the lease
        released) when there is no such table, or it finished too long ago and
        ``any_age`` is off. A table this process is making (its lease stored a moment
        before it goes live: a tournament's table, whose id is known first) is the
        one made, never a second copy."""
        making = self._making.get(table_id)
        if making is not None:
            await making.wait()
        stored = await self.storage.aread(lambda s: Storage.load(s, table_id))
        made = self.tables.get(table_id)
        if made is not None and not made.gone and made.fence == fence:
            return made  # made (or taken) here under this very lease meanwhile
        if stored is None or not (any_age or self._recent(stored)):
            await self.storage.awrite(release(table_id, fence))
            return None
        live = LiveTable(TableCore(self._restore(stored)), fence=fence)
        old = self.tables.get(table_id)
        if old is not None:
            await self.drop(old)
        self.tables[table_id] = live
        if self.cluster is not None:
            self.cluster.hold(table_id, fence)
        table = live.table
        if table.status is Status.PLAYING:
            for seat in table.seats:
                if not seat.is_bot:
                    self._start_grace(live, seat.index)
        self._drive(live)
        return live

    def _recent(self, stored: StoredTable) -> bool:
        """Unfinished, or finished less than ``keep_finished_seconds`` ago."""
        if stored.row["status"] != Status.FINISHED.value:
            return True
        finished = stored.row["finished_at"]
        if finished is None:
            return False
        if finished.tzinfo is None:  # SQLite keeps no time zone: stored in UTC
            finished = finished.replace(tzinfo=UTC)
        age: float = (datetime.now(UTC) - finished).total_seconds()
        return age <= self.settings.keep_finished_seconds

    async def drop(self, live: LiveTable) -> None:
        """A table another process owns now (this one lost its lease): forget it and
        send its connections elsewhere (close code 1012, reconnect)."""
        if live.gone:
            return
        self._forget(live)
        await self._send_away(live, "the table moved")

    async def discard_waiting(self, table_id: str) -> Table | None:
        """Delete a table whose match never started (a tournament's table some player
        never came to: they forfeit it, and no bot ever plays for them); its
        connections are closed. Returns the table as it was (who had sat down), or
        ``None`` when it is not live here or has started."""
        live = self.tables.get(table_id)
        if live is None:
            return None
        async with live.lock:
            if live.gone or live.table.status is not Status.WAITING:
                return None
            self._forget(live)
            await self.storage.awrite(Storage.delete_waiting(table_id))
        await self._send_away(live, "the table was closed")
        return live.table

    async def hand_over(self, live: LiveTable) -> None:
        """Stopping (SIGTERM): give the table up at once — after the writes queued
        before, release its lease and tell its successor to claim it at once — then
        close its connections with 1012 so the clients reconnect to its new owner."""
        async with live.lock:
            if live.gone:
                return
            self._forget(live)
            if live.fence is not None:
                table_id, fence = live.table.id, live.fence
                heir = self.cluster.heir(table_id) if self.cluster is not None else None
                until = time.time() + self.settings.lease_seconds
                done = False
                try:
                    if heir is not None:  # straight to the successor: never ownerless
                        given = transfer(table_id, fence, heir, until)
                        done = await self.storage.awrite(given) is not None
                    else:
                        done = await self.storage.awrite(release(table_id, fence))
                except Exception:
                    log.exception("cannot hand table %s over", table_id)
                if done:
                    log.info("handed table %s (token %d) to %s", table_id, fence.token, heir)
                    self.metrics.lease("released")
                else:
                    log.warning(
                        "table %s: lease (token %d) no longer ours to hand over",
                        table_id,
                        fence.token,
                    )
                if self.cluster is not None:
                    self.cluster.released(table_id, heir if done else None)
        await self._send_away(live, "server restarting")

    def live(self, table_id: str) -> LiveTable:
        """A live table, or a 404 :class:`HubError`."""
        live = self.tables.get(table_id)
        if live is None:
            raise HubError(404, "no_table", f"no live table {table_id!r}", {"table": table_id})
        return live

    async def create_table(
        self,
        *,
        game: str,
        options: Mapping[str, Any],
        bot_levels: list[str | None],
        time_control: TimeControl | None,
        rated: bool,
        seed: int | None,
        names: list[str | None] | None = None,
        host_token: str | None = None,
        hints: bool = False,
        table_id: str | None = None,
        tournament: bool = False,
        stand_ins: bool = True,
    ) -> Table:
        """Create, store and go live with a new table; ``host_token`` (its creator's)
        may ask for the open seats' invites later (:meth:`invites`). ``table_id`` is
        chosen by the caller when it must be known before the table exists (a
        tournament stores its round's table ids first, so a restart makes no second);
        ``tournament`` marks a tournament's game (resigned, never aborted);
        ``stand_ins`` off: no bot plays for an absent person (correspondence)."""
        table = self._new_table(
            game=game,
            options=options,
            bot_levels=bot_levels,
            time_control=time_control,
            rated=rated,
            seed=seed,
            names=names,
            host_token=host_token,
            hints=hints,
            table_id=table_id,
            tournament=tournament,
            stand_ins=stand_ins,
        )
        fence, lease = self._new_lease()
        # A claim for a table still being made waits for it (:meth:`adopt`).
        making = self._making[table.id] = asyncio.Event()
        try:
            await self.storage.awrite(
                Storage.insert_table(table, lease, lease_seconds=self.settings.lease_seconds)
            )
            self._go_live(table, fence)
        finally:
            del self._making[table.id]
            making.set()
        return table

    def _new_table(
        self,
        *,
        game: str,
        options: Mapping[str, Any],
        bot_levels: list[str | None],
        time_control: TimeControl | None,
        rated: bool,
        seed: int | None,
        rematch_of: str | None = None,
        names: list[str | None] | None = None,
        host_token: str | None = None,
        hints: bool = False,
        table_id: str | None = None,
        tournament: bool = False,
        stand_ins: bool = True,
    ) -> Table:
        """A new table as :meth:`create_table` makes it, neither stored nor live; a
        422 :class:`HubError` for what the game refuses."""
        table_id = table_id or secrets.token_urlsafe(9)
        try:
            table = Table.create(
                table_id=table_id,
                game=self.game(game),
                options=options,
                seed=seed if seed is not None else secrets.randbelow(2**62),
                bot_levels=bot_levels,
                invites=[secrets.token_urlsafe(12) for _ in bot_levels],
                time_control=time_control,
                rated=rated,
                hints=hints,
                rematch_of=rematch_of,
                pacing=self.settings.pacing,
                stand_in_level=self.settings.stand_in_level,
                tournament=tournament,
                stand_ins=stand_ins,
            )
        except TableError as exc:
            raise HubError(422, exc.code, exc.message, exc.params, f"table.{exc.code}") from None
        except BadOptions as exc:  # a rule option's message id names the reason
            raise HubError(
                422,
                "bad_options",
                str(exc),
                {"detail": str(exc), **exc.params},
                exc.code or "server.bad_options",
            ) from None
        except ValueError as exc:
            raise HubError(422, "bad_options", str(exc), {"detail": str(exc)}) from None
        if host_token is not None:
            table.host_hash = hash_token(host_token)
        for seat, name in zip(table.seats, names or [], strict=False):
            if seat.is_bot and name:
                seat.name = name
        if all(s.filled for s in table.seats):
            table.start(self.now())
        return table

    def _new_lease(self) -> tuple[Fence | None, tuple[str, float] | None]:
        """With several processes, the fence and lease (token 1) of a table this
        process makes; ``(None, None)`` on a single process."""
        if self.cluster is None:
            return None, None
        fence = Fence(self.cluster.me, 1, self.settings.lease_seconds)
        return fence, (fence.owner, time.time() + self.settings.lease_seconds)

    def _go_live(self, table: Table, fence: Fence | None) -> None:
        """Hold and drive a new table just stored (under ``fence``, several processes)."""
        live = LiveTable(TableCore(table), fence=fence)
        self.tables[table.id] = live
        if self.cluster is not None and fence is not None:
            self.cluster.hold(table.id, fence)
            self.metrics.lease("created")
        self._drive(live)

    async def join(
        self,
        table_id: str,
        invite: str,
        name: str,
        account: str | None = None,
        token: str | None = None,
    ) -> tuple[Table, int, str]:
        """Seat ``name`` (signed in as ``account``, or a guest) with an invite; returns
        the table, the seat and its new token (``token`` when the caller made it: a
        tournament keeps each seat's token for its player). An account sits at one
        seat per table."""
        live = self.live(table_id)
        token = token or secrets.token_urlsafe(24)
        async with live.lock:
            if live.gone:
                raise HubError(503, "moved", "the table moved to another process: try again")
            table = live.table
            if account is not None and any(s.account == account for s in table.seats):
                raise HubError(409, "already_seated", "you already have a seat at this table")
            try:
                seat = table.join(invite, name, token, self.now(), account)
            except TableError as exc:
                raise HubError(
                    409, exc.code, exc.message, exc.params, f"table.{exc.code}"
                ) from None
            started = table.status is Status.PLAYING
            effects: list[Effect] = [
                Store(),
                Broadcast(Event(type="start" if started else "join", seat=seat)),
            ]
            if started:
                effects += [Away(s.index) for s in table.seats if not s.is_bot and not s.connected]
            if not await self._carry(live, None, effects):
                raise HubError(503, "storage", "the seat could not be stored; try again")
        self._drive(live)
        return table, seat, token

    def invites(self, table_id: str, host_token: str) -> tuple[Table, list[tuple[int, str]]]:
        """The open seats' invites, for the table's creator only (its host token)."""
        live = self.live(table_id)
        if not live.table.is_host(host_token):
            raise HubError(403, "not_host", "only the table's creator may see its invites")
        return live.table, live.table.open_invites()

    def find_code(self, code: str) -> tuple[Table | None, int | None]:
        """What a pasted code stands for among the live tables: a table id
        (``(table, None)``), an open seat's invite (``(table, seat)``), or nothing
        (``(None, None)``; a finished table may still be in storage).

        An invite of a seat already taken is refused (409), so the person hears why."""
        live = self.tables.get(code)
        if live is not None:
            return live.table, None
        for live in self.tables.values():
            for seat in live.table.seats:
                if seat.invite == code:
                    if seat.filled:
                        raise HubError(
                            409,
                            "seat_taken",
                            f"seat {seat.index + 1} is already taken",
                            {"seat": seat.index + 1},
                            "table.seat_taken",
                        )
                    return live.table, seat.index
        return None, None

    async def reachable(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, or one finished less than
        ``keep_finished_seconds`` ago loaded back from storage (after a restart, say):
        finished tables stay reachable by ``hello`` for that long. ``None`` otherwise."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        stored = await self.storage.aread(lambda s: Storage.load(s, table_id))
        if stored is None or stored.row["status"] != Status.FINISHED.value:
            return None
        if not self._recent(stored):
            return None
        live = self.tables.setdefault(table_id, LiveTable(TableCore(self._restore(stored))))
        self._schedule_eviction(live)
        return live

    async def _load(self, table_id: str) -> LiveTable:
        """A live table, or a finished one loaded back from storage. With several
        processes only under this process's lease: a table another process runs is a
        503 ``moved`` (asked again, the request goes there), never a second copy."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if self.cluster is not None:
            owner = await self.cluster.locate(table_id, any_age=True)
            live = self.tables.get(table_id)
            if owner == self.cluster.me and live is not None:
                return live
            if owner is None and not self.cluster.draining:
                raise HubError(404, "no_table", f"no table {table_id!r}", {"table": table_id})
            raise HubError(503, "moved", "the table moved to another process: try again")
        stored = await self.storage.aread(lambda s: Storage.load(s, table_id))
        if stored is None:
            raise HubError(404, "no_table", f"no table {table_id!r}", {"table": table_id})
        live = self.tables.setdefault(table_id, LiveTable(TableCore(self._restore(stored))))
        self._drive(live)
        return live

    async def _read(self, table_id: str) -> Table:
        """A table to read, not to change: the live one, or (with several processes,
        when another runs it or nobody does) a copy restored from storage that is
        never kept nor written."""
        live = self.tables.get(table_id)
        if live is not None:
            return live.table
        if self.cluster is None:
            return (await self._load(table_id)).table
        stored = await self.storage.aread(lambda s: Storage.load(s, table_id))
        if stored is None:
            raise HubError(404, "no_table", f"no table {table_id!r}", {"table": table_id})
        return self._restore(stored)

    # --------------------------------------------------------------- messages
    async def connect(
        self, live: LiveTable, socket: Socket, account: str | None = None
    ) -> Connection:
        """Register a new connection (a spectator until it says hello with a token),
        signed in as the account named ``account`` (its name in the spectators' chat)."""
        conn = Connection(socket, self.settings)
        live.connections.add(conn)
        live.chat.sign(conn.peer, account)
        return conn

    async def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """Forget a connection; a seat left without one starts its grace period."""
        live.connections.discard(conn)
        live.chat.forget(conn.peer)
        await conn.close()
        if live.gone:
            return
        async with live.lock:
            await self._carry(live, None, live.core.leave(conn.peer))
        self._drive(live)

    async def handle(self, live: LiveTable, conn: Connection, raw: str | bytes | None) -> None:
        """One message from a client: the core answers it, this carries it out
        (counted in :attr:`handling` meanwhile: work in flight, :mod:`.admission`)."""
        self.handling += 1
        try:
            await self._handle(live, conn, raw)
        finally:
            self.handling -= 1

    async def _banned_seat(self, live: LiveTable, hello: Hello) -> bool:
        """Whether ``hello`` is for a seat whose account is banned (asked of the gate)."""
        if self.gate is None or hello.token is None:
            return False
        seat = live.table.seat_of_token(hello.token)
        account = live.table.seats[seat].account if seat is not None else None
        return account is not None and await self.gate.banned(account)

    async def close_account(self, account_id: str, name: str) -> int:
        """Close every connection of this process signed in as the account (by id at a
        seat, by name as a spectator) with :data:`BANNED`; how many were closed."""
        closed = 0
        for live in list(self.tables.values()):
            for conn in list(live.connections):
                seat = conn.peer.seat
                mine = (
                    live.table.seats[seat].account == account_id
                    if seat is not None
                    else live.chat.account_of(conn.peer) == name
                )
                if mine and not conn.closed:
                    await conn.close(BANNED, "banned")
                    closed += 1
        return closed

    async def _handle(self, live: LiveTable, conn: Connection, raw: str | bytes | None) -> None:
        if not conn.allow():
            if conn.abusive:
                await conn.close(1008, "too many messages")
            elif conn.warn_once():
                version = live.table.version
                conn.send(refusal("rate_limited", "too many messages: slow down", version=version))
            return
        message = read_message(raw, live.table.version)
        if isinstance(message, Error):
            self.metrics.refused(message.code)
            conn.send(message)
            return
        if isinstance(message, Ping):  # answered at once, even while a move is being stored
            await self._carry(live, conn, live.core.receive(conn.peer, message, self.now()))
            return
        if isinstance(message, Chat):
            await self._chat(live, conn, message)
            return
        if isinstance(message, Hello) and await self._banned_seat(live, message):
            conn.send(refusal("account_banned", "this account is banned", version=None))
            await conn.close(BANNED, "banned")
            return
        started = time.perf_counter()
        async with live.lock:
            effects = live.core.receive(conn.peer, message, self.now())
            if isinstance(message, Hello):
                effects = await self._with_chat(live, effects)
            if not await self._carry(live, conn, effects) and not live.gone:
                conn.send(live.core.storage_failed(getattr(message, "move_id", None)))
        if live.gone:
            # Handed over (or lost) while this waited: nothing was judged or stored here.
            # The client reconnects to the table's new owner and sends it again there.
            await conn.close(RECONNECT, "the table moved")
            return
        if isinstance(message, Move):
            self.metrics.move_seconds.observe(time.perf_counter() - started)
        self._drive(live)
