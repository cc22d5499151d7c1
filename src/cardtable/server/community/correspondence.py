"""Correspondence games: Candidate at days per move, played over days or weeks.

A correspondence game is a table made by an accepted challenge with ``{"days": n}``
(:mod:`.challenges`): no clock runs at the table and no bot ever stands in for an
absent player (the table has no stand-ins), so a player may close the page and come
back the next day; a player may have any number of such games at once. Its row
(``correspondence_games``) keeps whose turn it is and until when: every stored move
(:attr:`Hub.on_stored`, on the table's owner) that passes the turn to another seat
gives that seat ``days`` from then and tells its player ``your_turn`` (a turn of
several moves, a draw and then a play, keeps its deadline). The deadline is wall-clock
time, stored, so it holds across restarts and processes as the table itself does
(restored from storage).

Every :attr:`Correspondence.every` seconds each process looks for games whose mover's
time ran out (:meth:`Correspondence.sweep`) and has the table's owner end them
(:data:`TIME_OUT`, an errand with several processes): the mover loses the match, as
resigning would (result ``ending: "timeout"``, rated as any finished game) — only if
nobody moved since the deadline was set, so a move made at the last moment stands.
Tests move the injected ``clock`` days forward and call :meth:`sweep`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final

from cardtable.games.base import ANYONE
from cardtable.server.community import store
from cardtable.server.community.notices import Notifier
from cardtable.server.ownership import Unanswered
from cardtable.server.runtime import Hub
from cardtable.table import Status, Table

__all__ = ["TIME_OUT", "Correspondence", "to_move"]

log = logging.getLogger("cardtable.server.community")

#: The errand that ends a correspondence game on time (run by its table's owner).
TIME_OUT: Final = "community.time_out"


def to_move(table: Table) -> int | None:
    """The seat whose move it is (``None``: the match is over, or anyone may move)."""
    match = table.match
    if match is None or table.status is not Status.PLAYING or table.ending is not None:
        return None
    seat = match.to_move()
    return None if seat is None or seat == ANYONE else int(seat)


class Correspondence:
    """Deadlines of correspondence games, "your turn", and the clock's verdicts."""

    def __init__(self, hub: Hub, notifier: Notifier, clock: Callable[[], float]) -> None:
        self.hub = hub
        self.storage = hub.storage
        self.notifier = notifier
        self.clock = clock
        #: Seconds between two looks for run-out deadlines.
        self.every = 60.0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None
        hub.on_stored.append(self._stored)
        if hub.cluster is not None:
            hub.cluster.serve(TIME_OUT, self._time_out_errand)

    def start(self) -> None:
        """Look for run-out deadlines every :attr:`every` seconds."""
        self._loop = asyncio.get_running_loop().create_task(self._looking())

    async def stop(self) -> None:
        """Stop looking (and the work in flight)."""
        for task in [self._loop, *self._tasks]:
            if task is not None:
                task.cancel()

    async def _looking(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except Exception:
                log.exception("cannot look for correspondence games out of time")

    # ------------------------------------------------------------------ turns
    async def begin(
        self, table_id: str, days: int, accounts: list[str], tokens: dict[str, str]
    ) -> None:
        """A correspondence game just started (everyone seated; ``accounts`` by seat,
        ``tokens`` by account): its row, and the first mover's ``your_turn``."""
        now = self.clock()
        await self.storage.awrite(
            store.insert_correspondence(table_id, days, accounts, tokens, -1, now + days * 86400)
        )
        live = self.hub.tables.get(table_id)
        if live is not None:
            await self._turn(live.table)

    def _stored(self, table: Table) -> None:
        """A move (or an end) of some table was stored here: a correspondence game's
        next turn is recorded and its player told."""
        if table.stand_ins:
            return
        task = asyncio.get_running_loop().create_task(self._turn(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _turn(self, table: Table) -> None:
        finished = table.status is Status.FINISHED
        seat = to_move(table)
        row = await self.storage.awrite(
            store.set_turn(table.id, seat, len(table.moves), self.clock(), finished)
        )
        if row is None or not row["passed"] or seat is None:
            return
        opponents = [a for i, a in enumerate(row["accounts"]) if i != seat]
        names = await self.storage.aread(store.names_of(opponents))
        await self.notifier.notify(
            row["accounts"][seat],
            "your_turn",
            {
                "table": table.id,
                "against": ", ".join(names.get(a, "") for a in opponents),
                "deadline": row["deadline"],
            },
        )

    async def mine(self, account: str) -> list[dict[str, Any]]:
        """The unfinished correspondence games of ``account``: whose turn, until when,
        against whom, and the address that plays its seat (with its token)."""
        rows = await self.storage.aread(store.correspondence_of(account))
        names = await self.storage.aread(
            store.names_of({a for row in rows for a in row["accounts"]})
        )
        games = []
        for row in rows:
            seat = row["accounts"].index(account)
            token = row["tokens"].get(account)
            games.append(
                {
                    "table": row["table_id"],
                    "days": row["days"],
                    "seat": seat,
                    "against": ", ".join(
                        names.get(a, "") for i, a in enumerate(row["accounts"]) if i != seat
                    ),
                    "your_turn": row["to_move"] == seat,
                    "deadline": row["deadline"],
                    "play_url": f"/play/{row['table_id']}?token={token}" if token else None,
                }
            )
        games.sort(key=lambda g: (not g["your_turn"], g["deadline"]))
        return games

    # ------------------------------------------------------------- time's up
    async def sweep(self) -> int:
        """End every game whose mover's time ran out; how many ended."""
        ended = 0
        for row in await self.storage.aread(store.due_games(self.clock())):
            args = {"seat": row["to_move"], "moves": row["version"]}
            try:
                if self.hub.cluster is None:
                    done = await self._time_out_here(row["table_id"], args)
                else:
                    answer = await self.hub.cluster.ask(row["table_id"], TIME_OUT, args)
                    done = answer is not None and bool(answer.get("ended"))
            except Unanswered as exc:
                log.info("correspondence game %s not ended now: %s", row["table_id"], exc)
                continue
            ended += done
        return ended

    async def _time_out_errand(self, args: dict[str, Any]) -> dict[str, Any]:
        table_id = str(args["table"])
        if table_id not in self.hub.tables:
            return {"moved": True}
        return {"ended": await self._time_out_here(table_id, args)}

    async def _time_out_here(self, table_id: str, args: dict[str, Any]) -> bool:
        """End the game on this process (its owner, or the one process there is)."""
        live = self.hub.tables.get(table_id)
        if live is None:  # not live here: finished (and marked so), or another's
            return False
        table = live.table
        if len(table.moves) != int(args["moves"]) or to_move(table) != int(args["seat"]):
            return False
        return await self.hub.end_on_time(table_id, int(args["seat"]), table.version)
