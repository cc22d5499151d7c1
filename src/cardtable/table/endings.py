"""How a turn-based match ends before its cards run out: resign, abort, takeback.

In a turn-based game a person may end the match before its cards run out —
:meth:`~Endings.resign` at any moment (the others win whatever the totals),
:meth:`~Endings.abort` before any person has moved (no result) — and, at a casual table
of one person against bots outside tournaments, :meth:`~Endings.take_back` their last
move and the bots' replies: the match is rebuilt by replaying the moves kept, so the
position is exactly the earlier one. :meth:`~Endings.may` says which a seat may ask for
now; :meth:`~cardtable.table.table.Table.result` and
:meth:`~cardtable.table.table.Table.record` say how the match ended.

:class:`Endings` is a part of :class:`~cardtable.table.table.Table`, which inherits it:
it declares the table's state it reads and the table's methods it calls, so it is type
checked on its own and imports nothing of the table's module.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from cardtable.table.parts import Status, TableError

if TYPE_CHECKING:
    from cardtable.games.base import Game, Match
    from cardtable.table.parts import Answer, MoveEntry, Seat


class Endings:
    """Resign, abort and takeback of a :class:`~cardtable.table.table.Table` (see the
    module docstring)."""

    # The table's state these methods read and change (its fields).
    game: Game
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    rated: bool
    tournament: bool
    status: Status
    match: Match | None
    moves: list[MoveEntry]
    paused_until: float | None
    ready_seats: set[int]
    ending: str | None
    ended_by: int | None
    _accepted: dict[tuple[int, str], Answer]
    _bot_due: dict[int, float]

    if TYPE_CHECKING:
        # The table's own methods these call.
        def _settle(self, now: float) -> None: ...
        def _bump(self, *, all_seats: bool) -> None: ...
        def _after_change(self, now: float) -> None: ...

    def may(self, seat: int | None) -> dict[str, bool]:
        """Which of resign, abort and takeback ``seat`` may ask for now (a face shows
        only those buttons); each refusal says why (:meth:`resign` and the others)."""
        return {
            "resign": seat is not None and self._running_person(seat) is None,
            "abort": seat is not None and self._abort_refusal(seat) is None,
            "takeback": seat is not None and self._takeback_refusal(seat) is None,
        }

    def resign(self, seat: int, now: float) -> None:
        """The person in ``seat`` resigns: the match ends at once and the others win.

        Allowed at any moment of a running turn-based match, in the pause between deals
        too, at every table (rated, tournament, casual). Raises :class:`TableError`.
        """
        self._refuse_with(self._running_person(seat))
        self._end("resigned", seat, now)

    def time_out(self, seat: int, now: float) -> None:
        """The clock of the person in ``seat`` ran out at a table without stand-ins (a
        correspondence game): the match ends and the seat loses, as if it resigned.
        Raises :class:`TableError` when the match is not running or it is not a person's."""
        self._refuse_with(self._running_person(seat))
        self._end("timeout", seat, now)

    def abort(self, seat: int, now: float) -> None:
        """The person in ``seat`` calls the match off before any person has moved: the
        table ends with no result (nothing is rated). Refused once a person has moved
        and at a tournament's table. Raises :class:`TableError`."""
        self._refuse_with(self._abort_refusal(seat))
        self._end("aborted", seat, now)

    def take_back(self, seat: int, now: float) -> int:
        """The person in ``seat`` takes back their last move and every move after it
        (the bot's replies): the match is rebuilt by replaying the moves kept, so the
        position is exactly the one they moved from (the engine is deterministic).

        Only at a casual table of one person against bots, outside tournaments.
        Returns the version of the first move taken back: storage forgets the moves
        from it on. Raises :class:`TableError`.
        """
        self._refuse_with(self._takeback_refusal(seat))
        cut = max(i for i, e in enumerate(self.moves) if e.seat == seat)
        first = self.moves[cut].version
        for entry in self.moves[cut:]:
            if entry.move_id is not None:
                self._accepted.pop((entry.seat, entry.move_id), None)
        kept = self.moves[:cut]
        names = [s.name or f"Player {s.index + 1}" for s in self.seats]
        match = self.game.new_match(seed=self.seed, players=names, options=self.options)
        self.moves = []
        for stored in kept:
            applied = match.apply(stored.seat, stored.move)
            self.moves.append(dataclasses.replace(stored, events=applied.events))
        self.match = match
        self._settle(now)
        # A deal taken back to before its end has no summary to read any more.
        self.paused_until = None
        self.ready_seats = set()
        self._bot_due.clear()
        self._bump(all_seats=True)
        self._after_change(now)
        return first

    def _end(self, ending: str, seat: int, now: float) -> None:
        self._settle(now)
        self.ending = ending
        self.ended_by = seat
        self.status = Status.FINISHED
        self.paused_until = None
        self.ready_seats = set()
        self._bot_due.clear()
        self._bump(all_seats=True)
        self._after_change(now)

    @staticmethod
    def _refuse_with(refusal: TableError | None) -> None:
        if refusal is not None:
            raise refusal

    def _running_person(self, seat: int) -> TableError | None:
        """Why ``seat`` may not end or rewind the match now (``None``: it may)."""
        if self.status is Status.WAITING:
            return TableError("not_started", "the match has not started: seats are still open")
        if self.status is Status.FINISHED or self.match is None:
            return TableError("finished", "the match is over")
        if not 0 <= seat < len(self.seats) or self.seats[seat].is_bot:
            return TableError("no_seat", f"there is no seat {seat}", {"seat": seat})
        if self.game.info.realtime:
            return TableError(
                "race_no_resign",
                "a race is not resigned, aborted or taken back as a whole: "
                "leave the round with resign (S13)",
            )
        return None

    def _person_moved(self) -> bool:
        """Whether any person's seat has made a move (a bot's moves do not count)."""
        return any(not self.seats[e.seat].is_bot for e in self.moves)

    def _abort_refusal(self, seat: int) -> TableError | None:
        refusal = self._running_person(seat)
        if refusal is not None:
            return refusal
        if self.tournament:
            return TableError(
                "abort_tournament", "a tournament game cannot be aborted: play it or resign"
            )
        if self._person_moved():
            return TableError(
                "abort_late",
                "the game is under way: abort only before the first move; resign instead",
            )
        return None

    def _takeback_refusal(self, seat: int) -> TableError | None:
        refusal = self._running_person(seat)
        if refusal is not None:
            return refusal
        if self.rated:
            return TableError("takeback_rated", "no takebacks at a rated table")
        if self.tournament:
            return TableError("takeback_tournament", "no takebacks in a tournament game")
        if sum(1 for s in self.seats if not s.is_bot) > 1:
            return TableError(
                "takeback_people", "takebacks are only for a casual game against bots"
            )
        if not any(e.seat == seat for e in self.moves):
            return TableError("takeback_nothing", "you have made no move to take back")
        return None
