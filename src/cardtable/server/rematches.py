"""The next game of a finished table, as the hub makes it: once, whoever asks first.

The rematch is made by the finished table's owner and stored in one transaction with
the old table naming it (:func:`.rematch_store.tie_rematch`, a compare-and-set), so two
requests at once — even on two processes that each held the old table for a moment —
make one table; everyone asking is seated at it, through its owner.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from cardtable.server.carry import Carrier
from cardtable.server.leases import Fence, Fenced
from cardtable.server.live import HubError, LiveTable
from cardtable.server.protocol import Event
from cardtable.server.rematch_store import tie_rematch
from cardtable.table import Status, Table, TimeControl

__all__ = ["Rematches"]

log = logging.getLogger("cardtable.server")


class Rematches(Carrier):
    """Rematches of finished tables (module docstring); the rest of the hub is
    :class:`~.runtime.Hub`'s."""

    async def _load(self, table_id: str) -> LiveTable:
        raise NotImplementedError

    async def _read(self, table_id: str) -> Table:
        raise NotImplementedError

    async def join(
        self,
        table_id: str,
        invite: str,
        name: str,
        account: str | None = None,
        token: str | None = None,
    ) -> tuple[Table, int, str]:
        raise NotImplementedError

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
    ) -> Table:
        raise NotImplementedError

    def _new_lease(self) -> tuple[Fence | None, tuple[str, float] | None]:
        raise NotImplementedError

    def _go_live(self, table: Table, fence: Fence | None) -> None:
        raise NotImplementedError

    async def rematch(
        self,
        table_id: str,
        token: str,
        game: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> tuple[Table, int, str]:
        """The next game of a finished table, created on the first request (the same
        game and options, or the ``game`` and ``options`` asked for), with the same
        people and bots; seats the caller at their old seat.

        The server deals it (its own seed), ties it to the old table and announces it to
        the old table's connections (an ``update`` with a ``rematch`` event naming the
        seat that asked). Later requests join the same table.
        """
        old = await self._read(table_id)
        seat = old.seat_of_token(token)
        if seat is None:
            raise HubError(403, "bad_token", "this token does not belong to a seat here")
        if old.status is not Status.FINISHED:
            raise HubError(409, "not_finished", "a rematch can start once the match is over")
        rematch_id = old.rematch_id or await self._make_rematch(table_id, seat, game, options)
        new_live = await self._load(rematch_id)
        invite = new_live.table.seats[seat].invite
        name = old.seats[seat].name or f"Player {seat + 1}"
        if invite is None:
            raise HubError(409, "seat_taken", "that seat is a bot's in the rematch")
        # The old seat's token proves the seat, and the seat was the account's.
        return await self.join(new_live.table.id, invite, name, old.seats[seat].account)

    async def _make_rematch(
        self, table_id: str, seat: int, game: str | None, options: Mapping[str, Any] | None
    ) -> str:
        """The id of the rematch of a finished table, made unless one exists, under its
        lock and by its owner (with several processes; a 503 ``moved`` elsewhere).

        The new table is stored in one transaction with the old one naming it, by a
        compare-and-set (:func:`.rematch_store.tie_rematch`): of two requests at once,
        even on two processes that each held the old table for a moment, one makes the
        table; the other stores nothing and gets the winner's, which it then joins
        (through its owner). A conflict that stays is a 503 with Retry-After, never a
        500."""
        live = await self._load(table_id)
        async with live.lock:
            if live.gone:
                raise HubError(503, "moved", "the table moved to another process: try again")
            old = live.table
            if old.rematch_id is not None:
                return old.rematch_id
            same = game is None or game == old.game.info.name
            new = self._new_table(
                game=old.game.info.name if game is None else game,
                options=old.options if same and options is None else (options or {}),
                bot_levels=[s.bot_level for s in old.seats],
                time_control=old.time_control,
                rated=old.rated,
                hints=old.hints,
                seed=None,
                rematch_of=old.id,
                names=[s.name if s.is_bot else None for s in old.seats],
            )
            fence, lease = self._new_lease()
            tie = tie_rematch(
                old.id, new, live.fence, lease, lease_seconds=self.settings.lease_seconds
            )
            try:
                tied = await self.storage.awrite(tie)
            except Fenced:  # another process took the finished table meanwhile
                self._forget(live)
                self._spawn(self._send_away(live, "the table moved"))
                raise HubError(
                    503, "moved", "the table moved to another process: try again"
                ) from None
            except Exception:
                log.exception("cannot store the rematch of table %s", table_id)
                raise HubError(
                    503, "rematch_conflict", "the rematch could not be stored now: try again"
                ) from None
            if tied is None:
                raise HubError(404, "no_table", f"no table {table_id!r}", {"table": table_id})
            old.rematch_id, old.version = tied.rematch_id, tied.version
            if tied.rematch_id == new.id:
                self._go_live(new, fence)
                self._broadcast(live, Event(type="rematch", seat=seat))
            return tied.rematch_id
