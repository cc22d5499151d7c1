"""How one process's live tables carry out what their tables decide: store, then tell.

:class:`Carrier` is the part of :class:`~.runtime.Hub` that every other part uses: the
effects of :class:`~.core.TableCore` carried out in order under the table's lock (each
change stored before anyone hears of it, every write checked against the lease when
several processes share the tables), the per-seat updates broadcast, a table restored
from storage, and a table forgotten when another process owns it now. The hub is made
of this class, :class:`~.driver.Driver` (bots, clocks, pauses) and
:class:`~.table_chat.Chatter` (chat).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from cardtable.games.base import Game, MatchEvent
from cardtable.server.connection import Connection
from cardtable.server.core import Away, Back, Broadcast, Effect, Peer, Send, Store
from cardtable.server.gate import Gate
from cardtable.server.leases import Fenced
from cardtable.server.live import HubError, LiveTable
from cardtable.server.metrics import Metrics
from cardtable.server.ownership import RECONNECT, Ownership
from cardtable.server.protocol import Error, Event
from cardtable.server.settings import Settings
from cardtable.server.storage import Storage, StoredTable
from cardtable.server.thinking import BotRunner
from cardtable.table import Status, Table

__all__ = ["Carrier"]

log = logging.getLogger("cardtable.server")


class Carrier:
    """Effects carried out, updates broadcast, tables restored and forgotten (module
    docstring); the state is set by :class:`~.runtime.Hub`'s constructor."""

    storage: Storage
    games: dict[str, Game]
    settings: Settings
    bots: BotRunner
    now: Callable[[], float]
    tables: dict[str, LiveTable]
    metrics: Metrics
    moves_accepted: int
    handling: int
    #: Called with each table whose match has just finished and been stored (a
    #: tournament notices its games' results so).
    on_finished: list[Callable[[Table], None]]
    #: Called with each table whose move (or end without a move) has just been stored:
    #: a correspondence game's deadline and "your turn" follow it.
    on_stored: list[Callable[[Table], None]]
    #: Several processes sharing the tables (``redis_url`` set), else ``None``.
    cluster: Ownership | None
    #: Moderation's mutes and bans (:mod:`.gate`), else ``None``.
    gate: Gate | None
    _tasks: set[asyncio.Task[Any]]

    def _start_grace(self, live: LiveTable, seat: int) -> None:
        """Start a seat's grace period (:class:`~.driver.Driver`)."""
        raise NotImplementedError

    def game(self, name: str) -> Game:
        """The game called ``name``, or a 422 :class:`HubError`."""
        game = self.games.get(name)
        if game is None:
            known = ", ".join(sorted(self.games))
            raise HubError(
                422,
                "unknown_game",
                f"unknown game {name!r}: expected one of {known}",
                {"game": name, "known": known},
            )
        return game

    def _restore(self, item: StoredTable) -> Table:
        return item.restore(
            self.game(item.row["game"]),
            self.now(),
            pacing=self.settings.pacing,
            stand_in_level=self.settings.stand_in_level,
        )

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _forget(self, live: LiveTable) -> None:
        """Stop everything this process runs for a table and take it out of memory."""
        live.gone = True
        if live.driver is not None:
            live.driver.cancel()
        for handle in live.grace.values():
            handle.cancel()
        live.grace.clear()
        if live.evict is not None:
            live.evict.cancel()
            live.evict = None
        if self.tables.get(live.table.id) is live:
            del self.tables[live.table.id]
        if self.cluster is not None:
            if live.fence is not None:
                self.cluster.let_go(live.table.id, live.fence)
            self.cluster.dropped(live.table.id)

    @staticmethod
    async def _send_away(live: LiveTable, reason: str) -> None:
        """Close a forgotten table's connections with 1012: reconnect, to its new owner."""
        for conn in list(live.connections):
            await conn.close(RECONNECT, reason)

    # ----------------------------------------------------------------- effects
    async def _carry(self, live: LiveTable, conn: Connection | None, effects: list[Effect]) -> bool:
        """Carry out the core's effects in order (under the table's lock). False when
        storing failed: the table was reloaded and the effects after it were dropped."""
        if live.gone:
            return False
        for effect in effects:
            if isinstance(effect, Store):
                if not await self._store(live, effect):
                    return False
            elif isinstance(effect, Broadcast):
                self._broadcast(live, effect.event, effect.skip, effect.shown)
            elif isinstance(effect, Send):
                if isinstance(effect.message, Error):
                    self.metrics.refused(effect.message.code)
                if conn is not None:
                    conn.send(effect.message)
            elif isinstance(effect, Away):
                self._start_grace(live, effect.seat)
            elif isinstance(effect, Back):
                handle = live.grace.pop(effect.seat, None)
                if handle is not None:
                    handle.cancel()
        return True

    async def _store(self, live: LiveTable, store: Store) -> bool:
        table = live.table
        if store.entry is not None:
            write = Storage.append_move(table, store.entry, live.fence)
        elif store.ended:
            write = Storage.end_table(table, live.fence)
        elif store.cut is not None:
            write = Storage.take_back(table, store.cut, live.fence)
        else:
            write = Storage.update_table(table, live.fence)
        try:
            await self.storage.awrite(write)
        except Fenced:
            # Another process owns the table now (this one was stopped past its lease):
            # nothing is stored or sent; the clients reconnect to the new owner.
            log.warning("table %s is owned by another process now; dropping it", table.id)
            self.metrics.lease("lost")
            self._forget(live)
            self._spawn(self._send_away(live, "the table moved"))
            return False
        except Exception:
            log.exception("cannot store table %s; reloading it", table.id)
            stored = await self.storage.aread(lambda s: Storage.load(s, table.id))
            if stored is not None:
                live.core.table = self._restore(stored)
            now = self.now()
            for conn in live.connections:
                if conn.peer.greeted:
                    conn.send(live.core.resync(conn.peer.seat, now))
            return False
        if store.entry is not None:
            self.moves_accepted += 1
        if store.entry is not None or store.ended:
            for hearer in self.on_stored:
                hearer(table)
        if (store.entry is not None or store.ended) and table.status is Status.FINISHED:
            for listener in self.on_finished:
                listener(table)
        return True

    def _broadcast(
        self,
        live: LiveTable,
        event: Event,
        skip: Peer | None = None,
        shown: tuple[MatchEvent, ...] = (),
    ) -> None:
        now = self.now()
        texts: dict[int | None, str] = {}
        for conn in live.connections:
            peer = conn.peer
            if not peer.greeted or peer is skip:
                continue
            text = texts.get(peer.seat)
            if text is None:
                text = texts[peer.seat] = live.core.update(
                    event, peer.seat, now, shown
                ).model_dump_json()
            conn.send(text)
