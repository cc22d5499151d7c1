"""The server at run time: live tables, their connections, bots, clocks and storage.

This is the I/O side of the server. It owns no rules and no table logic: each live
table's :class:`~cardtable.server.table.Table` decides, and this module carries the
messages, persists every change before telling anyone, runs the bots on an executor and
wakes up for the clocks and for absent players.

Per table there is one :class:`asyncio.Lock`: a move is judged, stored and broadcast
before the next one is judged. Tables never wait on each other; bots think on a thread
pool within a time budget (a bot that overruns it moves at random for that move).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import random
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardtable.server.bots import Bot, BotBook, RandomBot
from cardtable.server.games import GameKind
from cardtable.server.protocol import MAX_MESSAGE_BYTES
from cardtable.server.storage import Storage, StoredTable
from cardtable.server.table import (
    Answer,
    Source,
    Status,
    Table,
    TableError,
    TimeControl,
)

log = logging.getLogger("cardtable.server")


@dataclass
class Settings:
    """Tunable behaviour of a running server (the defaults suit people playing)."""

    #: Seconds a player may be away before a bot takes over their seat.
    grace_seconds: float = 20.0
    #: Bot level that stands in for an absent player or a flagged clock.
    substitute_level: str = "medium"
    #: Pause before a turn-based bot moves, so people can follow (seconds).
    bot_turn_delay: float = 0.4
    #: Most time a bot may think about one move (seconds); its own budget is in
    #: iterations, this is the safety net.
    bot_budget: float = 5.0
    #: Worker processes the bots think in (0: threads of the server process instead).
    #: Processes keep a searching bot from taking the event loop's CPU time.
    bot_processes: int = 1
    #: Threads the bots think on when ``bot_processes`` is 0.
    bot_threads: int = 4
    #: Messages per second a connection may send, and the burst it may save up.
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    #: Messages a slow reader may have waiting before it is disconnected.
    send_queue: int = 256
    #: Real-time bots' speed per level (moves per second); ``None`` keeps the book's.
    bot_speeds: dict[str, float] | None = None
    #: Seconds a finished table stays in memory after its last connection left.
    keep_finished_seconds: float = 600.0


class Socket(Protocol):
    """The part of a WebSocket the hub uses (Starlette's fits)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Connection:
    """One client's WebSocket: what it may see, its send queue and its rate limit."""

    def __init__(self, socket: Socket, settings: Settings) -> None:
        self.socket = socket
        self.seat: int | None = None
        self.greeted = False
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=settings.send_queue)
        self._rate = settings.rate_per_second
        self._burst = settings.rate_burst
        self._tokens = settings.rate_burst
        self._stamp = time.monotonic()
        self._sender = asyncio.create_task(self._send_loop())

    def allow(self) -> bool:
        """Token bucket: may this connection send one more message now?"""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self._tokens -= 0.1  # keep hammering and wait longer
        return False

    @property
    def abusive(self) -> bool:
        """Far over its rate: the connection is closed."""
        return self._tokens < -self._burst

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a reader too slow to keep up is disconnected."""
        if self.closed:
            return
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            self._sender.cancel()
            asyncio.get_running_loop().create_task(self._close(1013, "too slow to keep up"))

    async def _send_loop(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            try:
                await self.socket.send_text(text)
            except Exception:
                self.closed = True
                return

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.socket.close(code=code, reason=reason)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Flush what is queued, then close."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, 2)
            await self._close(code, reason)
        self._sender.cancel()


@dataclass
class LiveTable:
    """A table in memory with what the runtime keeps around it."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    clock_task: asyncio.Task[None] | None = None
    grace: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    rng: random.Random = field(default_factory=random.Random)
    #: Seats with live connections (a seat may have several, e.g. two browser tabs).
    present: dict[int, int] = field(default_factory=dict)
    #: When a finished table leaves memory.
    evict: asyncio.TimerHandle | None = None


class HubError(Exception):
    """A request the hub refuses: an HTTP status, a code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class Hub:
    """All live tables of one server process."""

    def __init__(
        self,
        storage: Storage,
        games: Mapping[str, GameKind],
        bots: BotBook | None = None,
        settings: Settings | None = None,
        executor: Executor | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.storage = storage
        self.games = dict(games)
        self.settings = settings or Settings()
        self.bots = bots or BotBook()
        if self.settings.bot_speeds:
            self.bots.speeds.update(self.settings.bot_speeds)
        self.executor = executor or _bot_executor(self.settings)
        self.now = clock
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.moves_accepted = 0

    # --------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Resume every unfinished table from storage."""
        stored = await self.storage.aread(Storage.load_unfinished)
        for item in stored:
            try:
                live = LiveTable(self._restore(item))
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
        """Stop bots, clocks and connections (storage is closed by its owner)."""
        for live in self.tables.values():
            for task in live.bot_tasks.values():
                task.cancel()
            if live.clock_task:
                live.clock_task.cancel()
            for handle in live.grace.values():
                handle.cancel()
            if live.evict is not None:
                live.evict.cancel()
            for conn in list(live.connections):
                await conn.close(1001, "server shutting down")
        for task in list(self._tasks):
            task.cancel()
        await asyncio.to_thread(self.executor.shutdown, wait=True, cancel_futures=True)

    def _restore(self, item: StoredTable) -> Table:
        row = item.row
        kind = self.games.get(row["game"])
        if kind is None:
            raise LookupError(f"game {row['game']!r} is not offered by this server")
        tc = row["time_control"]
        return Table.restore(
            table_id=row["id"],
            kind=kind,
            options=row["options"],
            seed=row["seed"],
            time_control=TimeControl(tc["initial_ms"], tc["increment_ms"]) if tc else None,
            rated=row["rated"],
            status=Status(row["status"]),
            version=row["version"],
            meta=row["meta"],
            moves=item.moves,
            rematch_of=row["rematch_of"],
            now=self.now(),
        )

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ tables
    def kind(self, game: str) -> GameKind:
        """The game called ``game``, or a 422 :class:`HubError`."""
        kind = self.games.get(game)
        if kind is None:
            known = ", ".join(sorted(self.games))
            raise HubError(422, "unknown_game", f"unknown game {game!r}: expected one of {known}")
        return kind

    def live(self, table_id: str) -> LiveTable:
        """A live table, or a 404 :class:`HubError`."""
        live = self.tables.get(table_id)
        if live is None:
            raise HubError(404, "no_table", f"no live table {table_id!r}")
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
        rematch_of: str | None = None,
        names: list[str | None] | None = None,
    ) -> Table:
        """Create, store and go live with a new table."""
        kind = self.kind(game)
        table_id = secrets.token_urlsafe(9)
        invites = [secrets.token_urlsafe(12) for _ in bot_levels]
        try:
            table = Table.create(
                table_id=table_id,
                kind=kind,
                options=options,
                seed=seed if seed is not None else secrets.randbelow(2**62),
                bot_levels=bot_levels,
                invites=invites,
                time_control=time_control,
                rated=rated,
                rematch_of=rematch_of,
            )
        except TableError as exc:
            raise HubError(422, exc.code, exc.message) from None
        except ValueError as exc:  # BadOptions and friends
            raise HubError(422, "bad_options", str(exc)) from None
        if names:
            for seat, name in zip(table.seats, names, strict=False):
                if seat.is_bot and name:
                    seat.name = name
        live = LiveTable(table)
        if all(s.filled for s in table.seats):
            table.start(self.now())
        await self.storage.awrite(Storage.insert_table(table))
        self.tables[table_id] = live
        self._drive(live)
        return table

    async def join(self, table_id: str, invite: str, name: str) -> tuple[Table, int, str]:
        """Seat ``name`` with an invite; returns the table, the seat and its new token."""
        live = self.live(table_id)
        token = secrets.token_urlsafe(24)
        async with live.lock:
            table = live.table
            try:
                seat = table.join(invite, name, token, self.now())
            except TableError as exc:
                raise HubError(409, exc.code, exc.message) from None
            await self.storage.awrite(Storage.update_table(table))
            started = table.status is Status.PLAYING
            self._broadcast(live, {"kind": "start" if started else "join", "seat": seat})
            if started:
                for other in table.seats:
                    if not other.is_bot and not other.connected:
                        self._start_grace(live, other.index)
        self._drive(live)
        return table, seat, token

    async def rematch(self, table_id: str, token: str) -> tuple[Table, int, str]:
        """The rematch of a finished table, created on first request; seats the caller."""
        live = await self._load(table_id)
        old = live.table
        seat = old.seat_of_token(token)
        if seat is None:
            raise HubError(403, "bad_token", "this token does not belong to a seat here")
        if old.status is not Status.FINISHED:
            raise HubError(409, "not_finished", "a rematch can start once the match is over")
        async with live.lock:
            if old.rematch_id is None:
                new = await self.create_table(
                    game=old.kind.name,
                    options=old.options,
                    bot_levels=[s.bot_level for s in old.seats],
                    time_control=old.time_control,
                    rated=old.rated,
                    seed=None,
                    rematch_of=old.id,
                    names=[s.name if s.is_bot else None for s in old.seats],
                )
                old.rematch_id = new.id
                old.version += 1
                await self.storage.awrite(Storage.update_table(old))
                self._broadcast(live, {"kind": "rematch"})
        new_live = await self._load(old.rematch_id)
        invite = new_live.table.seats[seat].invite
        name = old.seats[seat].name or f"Player {seat + 1}"
        if invite is None:
            raise HubError(409, "seat_taken", "that seat is a bot's in the rematch")
        return await self.join(new_live.table.id, invite, name)

    # ------------------------------------------------------------------- moves
    async def submit(
        self,
        live: LiveTable,
        seat: int,
        move: str,
        *,
        version: int | None,
        move_id: str | None,
        source: Source,
    ) -> Answer:
        """Judge a move under the table's lock; store it, then broadcast it."""
        async with live.lock:
            table = live.table
            before = table.version
            answer = table.submit(
                seat, move, version=version, move_id=move_id, now=self.now(), source=source
            )
            entry = answer.entry
            if answer.kind != "accepted" or entry is None or table.version == before:
                return answer  # refused, stale, or a repeat of an earlier accepted move
            try:
                await self.storage.awrite(Storage.append_move(table, entry))
            except Exception:
                log.exception("cannot store a move of table %s; reloading it", table.id)
                await self._reload(live)
                return Answer(
                    "refused",
                    move_id,
                    live.table.version,
                    code="storage",
                    message="the move could not be stored; please resync",
                )
            self.moves_accepted += 1
            bot = live.bots.get(seat)
            if bot is not None and table.session is not None:
                try:
                    bot.moved(table.session, seat, move)
                except Exception:
                    log.exception("bot of table %s seat %d failed to follow", table.id, seat)
                    live.bots.pop(seat, None)
            self._broadcast(
                live,
                {"kind": "move", "seat": seat, "move": move, "source": entry.source.value},
            )
        self._drive(live)
        return answer

    async def _reload(self, live: LiveTable) -> None:
        stored = await self.storage.aread(lambda s: Storage.load(s, live.table.id))
        if stored is not None:
            live.table = self._restore(stored)
        for conn in live.connections:
            conn.send(self._resync(live, conn, None, "the table was reloaded"))

    # ----------------------------------------------------------- broadcasting
    def state(self, live: LiveTable, seat: int | None) -> dict[str, Any]:
        """The state one recipient may see."""
        return live.table.snapshot(seat, self.now())

    def _broadcast(self, live: LiveTable, event: dict[str, Any]) -> None:
        version = live.table.version
        texts: dict[int | None, str] = {}
        for conn in live.connections:
            if not conn.greeted:
                continue
            text = texts.get(conn.seat)
            if text is None:
                message = {
                    "type": "update",
                    "version": version,
                    "event": event,
                    "state": self.state(live, conn.seat),
                }
                text = json.dumps(message, separators=(",", ":"))
                texts[conn.seat] = text
            conn.send(text)

    def _resync(
        self, live: LiveTable, conn: Connection, move_id: str | None, reason: str
    ) -> dict[str, Any]:
        return {
            "type": "resync",
            "version": live.table.version,
            "move_id": move_id,
            "reason": reason,
            "state": self.state(live, conn.seat),
        }

    # ------------------------------------------------------------- bots/clocks
    def _drive(self, live: LiveTable) -> None:
        """Start whatever must now act by itself: bot seats and the clock."""
        table = live.table
        if table.status is Status.FINISHED:
            self._schedule_eviction(live)
            return
        if table.status is not Status.PLAYING:
            return
        for seat in table.bot_seats_to_move():
            task = live.bot_tasks.get(seat)
            if task is None or task.done():
                live.bot_tasks[seat] = self._spawn(self._bot_loop(live, seat))
        deadline = table.next_deadline()
        if deadline is not None and (live.clock_task is None or live.clock_task.done()):
            live.clock_task = self._spawn(self._clock_loop(live))

    def _schedule_eviction(self, live: LiveTable) -> None:
        """Drop a finished table from memory once nobody has looked at it for a while.

        Its record stays in storage; a late rematch request loads it back.
        """
        if live.evict is not None:
            return
        loop = asyncio.get_running_loop()

        def evict() -> None:
            live.evict = None
            if live.connections:
                self._schedule_eviction(live)
            elif self.tables.get(live.table.id) is live:
                del self.tables[live.table.id]

        live.evict = loop.call_later(self.settings.keep_finished_seconds, evict)

    async def _load(self, table_id: str) -> LiveTable:
        """A live table, or a finished one loaded back from storage."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        stored = await self.storage.aread(lambda s: Storage.load(s, table_id))
        if stored is None:
            raise HubError(404, "no_table", f"no table {table_id!r}")
        live = self.tables.setdefault(table_id, LiveTable(self._restore(stored)))
        self._drive(live)
        return live

    def _bot_for(self, live: LiveTable, seat: int) -> tuple[Bot, str]:
        """The bot playing ``seat`` (made on first use) and its level."""
        target = live.table.seats[seat]
        level = target.bot_level or self.settings.substitute_level
        bot = live.bots.get(seat)
        if bot is None:
            bot = live.bots[seat] = self.bots.make(live.table.kind.name, level, self._seed(live))
        return bot, level

    def _seed(self, live: LiveTable) -> int:
        return live.rng.getrandbits(63)

    async def choose(self, live: LiveTable, seat: int, bot: Bot) -> tuple[str, int] | None:
        """A bot's move for ``seat``, thought out on the executor, and the version it saw.

        The move is then submitted against that version like any client's, so a bot
        that thought while its position changed gets a stale answer and thinks again.
        A bot that overruns its budget or fails plays a random legal move instead.
        """
        table = live.table
        session = table.session
        if session is None or not table.legal_moves(seat):
            return None
        version = table.version
        seed = self._seed(live)
        fallback = RandomBot().prepare(session, seat, seed)
        loop = asyncio.get_running_loop()
        try:
            thinking = bot.prepare(session, seat, seed)
            future = loop.run_in_executor(self.executor, thinking)
            move = await asyncio.wait_for(future, self.settings.bot_budget)
        except TimeoutError:
            log.warning("bot of table %s seat %d overran its budget", table.id, seat)
            move = fallback()
        except BrokenExecutor:
            # A worker process died (killed, out of memory): start a fresh pool.
            log.error("the bot executor broke; starting a new one")
            self.executor = _bot_executor(self.settings)
            move = fallback()
        except Exception:
            log.exception("bot of table %s seat %d failed", table.id, seat)
            move = fallback()
        return move, version

    async def _bot_loop(self, live: LiveTable, seat: int) -> None:
        realtime = live.table.kind.realtime
        failures = 0
        while True:
            table = live.table
            target = table.seats[seat]
            if table.status is not Status.PLAYING or not target.bot_driven:
                return
            if not table.legal_moves(seat):
                return
            bot, level = self._bot_for(live, seat)
            delay = 1 / self.bots.speed(level) if realtime else self.settings.bot_turn_delay
            await asyncio.sleep(delay)
            if not live.table.seats[seat].bot_driven:
                return
            chosen = await self.choose(live, seat, bot)
            if chosen is None:
                if realtime:
                    continue
                return
            move, version = chosen
            source = Source.BOT if target.is_bot else Source.SUBSTITUTE
            answer = await self.submit(
                live, seat, move, version=version, move_id=None, source=source
            )
            if answer.kind != "accepted":
                # A bot that remembers its own moves starts afresh from what it sees.
                live.bots.pop(seat, None)
            if answer.kind == "stale":
                continue  # the position changed while the bot thought: think again
            if answer.kind != "accepted":
                failures += 1
                if failures > 20:
                    log.error("bot of table %s seat %d keeps failing", table.id, seat)
                    return
            else:
                failures = 0

    async def _clock_loop(self, live: LiveTable) -> None:
        while True:
            table = live.table
            deadline = table.next_deadline()
            if deadline is None or table.status is not Status.PLAYING:
                return
            await asyncio.sleep(max(0.0, deadline - self.now()) + 0.005)
            for seat in live.table.expired(self.now()):
                # A fresh bot for one move: the person plays the seat before and after.
                level = self.settings.substitute_level
                bot = self.bots.make(live.table.kind.name, level, self._seed(live))
                chosen = await self.choose(live, seat, bot)
                if chosen is not None:
                    move, version = chosen
                    await self.submit(
                        live, seat, move, version=version, move_id=None, source=Source.CLOCK
                    )

    # ---------------------------------------------------------------- presence
    def _start_grace(self, live: LiveTable, seat: int) -> None:
        if seat in live.grace:
            return
        loop = asyncio.get_running_loop()

        def expire() -> None:
            live.grace.pop(seat, None)
            self._spawn(self._substitute(live, seat, True))

        live.grace[seat] = loop.call_later(self.settings.grace_seconds, expire)

    async def _substitute(self, live: LiveTable, seat: int, on: bool) -> None:
        async with live.lock:
            if live.present.get(seat, 0) and on:
                return
            if not live.table.set_substituted(seat, on, self.now()):
                return
            live.bots.pop(seat, None)  # each stand-in starts from what the seat sees now
            await self.storage.awrite(Storage.update_table(live.table))
            self._broadcast(live, {"kind": "seat", "seat": seat})
        self._drive(live)

    async def _presence(self, live: LiveTable, seat: int, delta: int) -> None:
        count = live.present.get(seat, 0) + delta
        live.present[seat] = count
        table = live.table
        if delta > 0:
            handle = live.grace.pop(seat, None)
            if handle is not None:
                handle.cancel()
        async with live.lock:
            changed = table.set_connected(seat, count > 0)
            if count > 0 and table.set_substituted(seat, False, self.now()):
                live.bots.pop(seat, None)  # the person is back: the stand-in leaves
                changed = True
            if not changed:
                return
            await self.storage.awrite(Storage.update_table(table))
            self._broadcast(live, {"kind": "seat", "seat": seat})
        if count == 0 and table.status is Status.PLAYING:
            self._start_grace(live, seat)

    # --------------------------------------------------------------- messages
    async def connect(self, live: LiveTable, socket: Socket) -> Connection:
        """Register a new connection (a spectator until it says hello with a token)."""
        conn = Connection(socket, self.settings)
        live.connections.add(conn)
        return conn

    async def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """Forget a connection; a seat left without one starts its grace period."""
        live.connections.discard(conn)
        await conn.close()
        if conn.seat is not None:
            await self._presence(live, conn.seat, -1)

    async def handle(self, live: LiveTable, conn: Connection, raw: str | bytes | None) -> None:
        """One message from a client: validate it and answer (never raises)."""
        from pydantic import ValidationError

        from cardtable.server.protocol import CLIENT_MESSAGE, Hello, Move, Ping, Sync

        table = live.table

        def error(
            code: str, message: str, move_id: str | None = None, answer: Answer | None = None
        ) -> None:
            reply: dict[str, Any] = {
                "type": "error",
                "version": live.table.version,
                "code": code,
                "message": message,
                "move_id": move_id,
            }
            if answer is not None and answer.message_id is not None:
                reply["message_id"] = answer.message_id  # says message in any language
                reply["params"] = answer.params
            conn.send(reply)

        if not conn.allow():
            if conn.abusive:
                await conn.close(1008, "too many messages")
                return
            error("rate_limited", "too many messages: slow down")
            return
        if raw is None or isinstance(raw, bytes):
            error("bad_message", "send JSON text messages")
            return
        if len(raw.encode()) > MAX_MESSAGE_BYTES:
            error("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes")
            return
        try:
            message = CLIENT_MESSAGE.validate_json(raw)
        except ValidationError as exc:
            problems = exc.errors()
            where = ".".join(str(p) for p in problems[0]["loc"] if p) if problems else ""
            detail = problems[0]["msg"] if problems else "invalid message"
            error("bad_message", f"{where}: {detail}" if where else detail)
            return
        if isinstance(message, Ping):
            conn.send({"type": "pong", "version": table.version})
            return
        if isinstance(message, Hello):
            seat = None
            if message.token is not None:
                seat = table.seat_of_token(message.token)
                if seat is None:
                    error("bad_token", "this token does not belong to a seat at this table")
                    return
            if conn.greeted and conn.seat != seat:
                error("already_greeted", "this connection already said hello as another seat")
                return
            first_hello = not conn.greeted
            conn.seat = seat
            if first_hello and seat is not None:
                # Marked present first, so the welcome already shows the seat connected.
                await self._presence(live, seat, +1)
            conn.greeted = True
            conn.send(
                {
                    "type": "welcome",
                    "version": live.table.version,
                    "seat": seat,
                    "state": self.state(live, seat),
                }
            )
            if first_hello and seat is not None:
                self._drive(live)
            return
        if not conn.greeted:
            error("no_hello", "say hello first")
            return
        if isinstance(message, Sync):
            if message.token is not None and table.seat_of_token(message.token) != conn.seat:
                error("bad_token", "this token does not belong to this connection's seat")
                return
            conn.send(self._resync(live, conn, None, "requested"))
            return
        assert isinstance(message, Move)
        seat = table.seat_of_token(message.token)
        if seat is None or seat != conn.seat:
            error(
                "bad_token", "this token does not act for this connection's seat", message.move_id
            )
            return
        answer = await self.submit(
            live,
            seat,
            message.move,
            version=message.version,
            move_id=message.move_id,
            source=Source.PLAYER,
        )
        if answer.kind == "accepted":
            conn.send(
                {
                    "type": "ack",
                    "version": live.table.version,
                    "move_id": message.move_id,
                    "move_version": answer.version,
                }
            )
        elif answer.kind == "stale":
            conn.send(self._resync(live, conn, message.move_id, answer.message or "stale"))
        else:
            error(answer.code or "refused", answer.message or "refused", message.move_id, answer)


def _bot_executor(settings: Settings) -> Executor:
    """Where bots think: worker processes (spawned, never forked from a threaded
    server), or threads of this process."""
    if settings.bot_processes > 0:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(settings.bot_processes, mp_context=context)
    return ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="bot")
