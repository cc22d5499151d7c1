"""The table driver: what happens at a table by itself, and moves submitted.

Per table one *driver* task sleeps until :meth:`Table.next_wakeup` (or until something
changes): then a pause may end, a run-out clock gets a bot's move, and each bot-driven
seat whose move is due gets its bot's move (:mod:`.thinking`), submitted like any
client's (:meth:`Driver.submit`). A seat whose player is away past the grace period gets
a stand-in bot (never at a table without stand-ins: a correspondence game, which its
clock ends instead, :meth:`Driver.end_on_time`); a finished table leaves memory once
nobody looks at it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

from cardtable.server.carry import Carrier
from cardtable.server.core import Broadcast, Effect, Store
from cardtable.server.leases import release
from cardtable.server.live import LiveTable
from cardtable.server.protocol import Event
from cardtable.table import Answer, Source, Status, TableError

__all__ = ["Driver"]

log = logging.getLogger("cardtable.server")


class Driver(Carrier):
    """Moves submitted, bots and clocks driven, absent players stood in for."""

    # ------------------------------------------------------------------- moves
    async def submit(
        self,
        live: LiveTable,
        seat: int,
        move: str | int,
        *,
        version: int | None,
        move_id: str | None,
        source: Source,
    ) -> Answer:
        """Judge a move under the table's lock; store it, then broadcast it."""
        async with live.lock:
            answer, effects = live.core.submit(
                seat, move, version=version, move_id=move_id, source=source, now=self.now()
            )
            if not await self._carry(live, None, effects):
                error = live.core.storage_failed(move_id)
                return Answer("refused", move_id, live.table.version, "storage", error.message)
        self._drive(live)
        return answer

    async def end_on_time(self, table_id: str, seat: int, version: int) -> bool:
        """End a table without stand-ins (a correspondence game) because ``seat``'s
        time to move ran out: only while the table is still at ``version`` (nobody
        moved since the deadline was set). Stored, then told to everyone; True when
        it ended here."""
        live = self.tables.get(table_id)
        if live is None or live.gone:
            return False
        async with live.lock:
            table = live.table
            if table.stand_ins or table.version != version or table.status is not Status.PLAYING:
                return False
            try:
                table.time_out(seat, self.now())
            except TableError:
                return False
            effects: list[Effect] = [Store(ended=True), Broadcast(Event(type="timeout", seat=seat))]
            ended = await self._carry(live, None, effects)
        self._drive(live)
        return ended

    # ------------------------------------------------------- the table driver
    def _drive(self, live: LiveTable) -> None:
        """Make sure the table's driver runs while it plays; evict it once finished."""
        table = live.table
        if table.status is Status.FINISHED:
            self._schedule_eviction(live)
        if table.status is not Status.PLAYING:
            return
        live.wake.set()
        if live.driver is None or live.driver.done():
            live.driver = self._spawn(self._driver(live))

    async def _driver(self, live: LiveTable) -> None:
        """Sleep until the table's next wake-up (or a change); then end a pause, have bots
        move for run-out clocks and for every bot-driven seat whose move is due."""
        while live.table.status is Status.PLAYING:
            live.wake.clear()
            async with live.lock:
                now = self.now()
                await self._carry(live, None, live.core.tick(now))
                busy = live.busy()
                table = live.table
                for seat in table.expired(now):
                    if seat not in busy:
                        self._act(live, seat, Source.CLOCK)
                for seat in table.due_bots(now):
                    if seat not in busy:
                        source = Source.BOT if table.seats[seat].is_bot else Source.SUBSTITUTE
                        self._act(live, seat, source)
                wakeup = table.next_wakeup(live.busy())
            timeout = None if wakeup is None else max(0.0, wakeup - self.now())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.wake.wait(), timeout)
        if live.table.status is Status.FINISHED:
            self._schedule_eviction(live)

    def _act(self, live: LiveTable, seat: int, source: Source) -> None:
        live.thinking.add(seat)
        self._spawn(self._bot_move(live, seat, source))

    async def _bot_move(self, live: LiveTable, seat: int, source: Source) -> None:
        """Ask the seat's bot for its move from what the seat knows now, and submit it
        against the version it saw (a move gone stale is thought again)."""
        try:
            table = live.table
            match = table.match
            if match is None:
                return
            version = table.version
            bot = table.bot_level(seat)
            action = await self.bots.think(
                game=table.game.info.name,
                bot=bot,
                # One secret seed per table seat: a bot is made once per worker and reused.
                seed=live.bot_seeds.setdefault(seat, secrets.randbits(63)),
                seat=seat,
                info=match.bot_info(seat),
                where=f"table {table.id} seat {seat}",
            )
            if action is None:
                live.failed[seat] = table.seat_versions[seat]
                return
            if live.table is not table or (
                source is not Source.CLOCK and not table.seats[seat].bot_driven
            ):
                return  # reloaded, or the person took the seat back while the bot thought
            answer = await self.submit(
                live, seat, action, version=version, move_id=None, source=source
            )
            if answer.outcome == "stale":
                table.bot_delayed(seat, self.now())  # the position changed: think again
            elif answer.outcome == "refused" and answer.code == "illegal":
                log.error(
                    "bot %s of table %s seat %d chose a refused move %r: %s",
                    bot,
                    table.id,
                    seat,
                    action,
                    answer.message,
                )
                self.bots.errors.append(f"table {table.id} seat {seat}: {answer.message}")
                live.failed[seat] = table.seat_versions[seat]
        finally:
            live.thinking.discard(seat)
            live.wake.set()

    def _schedule_eviction(self, live: LiveTable) -> None:
        """Drop a finished table from memory once nobody has looked at it for a while.

        Its record stays in storage; a late rematch request loads it back. A table in
        use (connected to, or locked by a request: a rematch being stored) stays.
        """
        if live.evict is not None:
            return

        def evict() -> None:
            live.evict = None
            if live.connections or live.lock.locked():
                self._schedule_eviction(live)
            elif self.tables.get(live.table.id) is live:
                del self.tables[live.table.id]
                if live.fence is not None:
                    live.gone = True
                    if self.cluster is not None:
                        self.cluster.let_go(live.table.id, live.fence)
                    self.metrics.lease("released")
                    self._spawn(self.storage.awrite(release(live.table.id, live.fence)))

        loop = asyncio.get_running_loop()
        live.evict = loop.call_later(self.settings.keep_finished_seconds, evict)

    # ---------------------------------------------------------------- presence
    def _start_grace(self, live: LiveTable, seat: int) -> None:
        if seat in live.grace or not live.table.stand_ins:
            return  # a table without stand-ins (correspondence) waits for its players

        def expire() -> None:
            live.grace.pop(seat, None)
            self._spawn(self._substitute(live, seat))

        loop = asyncio.get_running_loop()
        live.grace[seat] = loop.call_later(self.settings.grace_seconds, expire)

    async def _substitute(self, live: LiveTable, seat: int) -> None:
        async with live.lock:
            await self._carry(live, None, live.core.substitute(seat, self.now()))
        self._drive(live)
