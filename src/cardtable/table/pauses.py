"""The pause between deals or rounds, and a race's start count.

Pauses. When a move ends a deal or round (and not the match), the table pauses for
``pacing.segment_pause`` seconds: no move is accepted, no bot is due, no clock runs.
The pause ends early when every person at the table says :meth:`~Pauses.ready`; in a
turn-based game it lasts until they do (:attr:`~Pauses.pause_holds`). The pause's
content — how the deal or round ended, its scores and the totals — is the engine's
(:meth:`~cardtable.games.base.Match.segment_results`);
:meth:`~cardtable.table.table.Table.snapshot` sends it with the pause, so every face
says the same.

The start count. A race (a real-time game, S17) starts together: before every round —
the first one when the last seat is filled, each later one when the pause ends — the
table counts ``pacing.start_count`` seconds (3-2-1) during which no move is accepted
(``table.counting``), no bot is due and no clock runs. The race time of a round runs
from the end of its count; the table keeps it (not the faces), so a reloaded page or a
second window shows the same time.

:class:`Pauses` is a part of :class:`~cardtable.table.table.Table`, which inherits it:
it declares the table's state it reads and the table's methods it calls, so it is type
checked on its own and imports nothing of the table's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.games.base import Game
    from cardtable.table.pacing import Pacing
    from cardtable.table.parts import Seat


class Pauses:
    """The pauses and race start counts of a :class:`~cardtable.table.table.Table` (see
    the module docstring)."""

    # The table's state these methods read and change (its fields).
    game: Game
    seats: list[Seat]
    pacing: Pacing
    paused_until: float | None
    ready_seats: set[int]
    counting_until: float | None
    race_since: float | None
    race_times: list[float]

    if TYPE_CHECKING:
        # The table's own methods these call.
        def _bump(self, *, all_seats: bool) -> None: ...
        def _after_change(self, now: float) -> None: ...

    # ------------------------------------------------------------------ pauses
    def ready(self, seat: int, now: float) -> bool:
        """The person in ``seat`` is ready for the next deal or round. The pause ends
        when every person present (connected and not handed to a bot) is ready; True if
        it ended."""
        if self.paused_until is None:
            return False
        self.ready_seats.add(seat)
        if not self.waiting_for():
            self._resume(now)
            return True
        return False

    def waiting_for(self) -> list[int]:
        """People present (connected, not handed to a bot) not yet ready in the pause."""
        if self.paused_until is None:
            return []
        return [
            s.index
            for s in self.seats
            if not s.bot_driven and s.filled and s.connected and s.index not in self.ready_seats
        ]

    @property
    def pause_holds(self) -> bool:
        """The pause lasts while a person present has not said ready, whatever the time.

        In a turn-based game (Candidate, C13) the deal's summary stays until every person
        at the table has read it and continued: nobody races, so nothing is lost by
        waiting. Bots and absent people (no connection, or handed to a bot) never hold
        it, so a table of bots, or one whose people left, goes on when the time is up.
        In a race (Spy) the pause always ends on time.
        """
        return not self.game.info.realtime and bool(self.waiting_for())

    def tick(self, now: float) -> None:
        """Let time pass: end a pause (unless it holds for a person), then a start count,
        whose time is up."""
        if self.paused_until is not None and now >= self.paused_until and not self.pause_holds:
            self._resume(now)
        if self.counting_until is not None and now >= self.counting_until:
            # The race starts at the count's end, whenever the caller looks.
            self.race_since = self.counting_until
            self.counting_until = None
            self._bump(all_seats=True)
            self._after_change(now)

    def _resume(self, now: float) -> None:
        self.paused_until = None
        self.ready_seats = set()
        self._begin_race(now)
        self._bump(all_seats=True)
        self._after_change(now)

    @property
    def _holding(self) -> bool:
        """Nobody may move: a pause or a start count runs."""
        return self.paused_until is not None or self.counting_until is not None

    # ------------------------------------------------------------------- races
    def _begin_race(self, now: float) -> None:
        """A race round is dealt: count to its start (S17: everyone starts together)."""
        if not self.game.info.realtime:
            return
        count = self.pacing.start_count
        self.counting_until = now + count if count > 0 else None
        self.race_since = None if count > 0 else now

    def _end_race(self, now: float) -> None:
        """A race round ended: keep how long it ran."""
        if self.race_since is not None:
            self.race_times.append(round(now - self.race_since, 1))
        self.race_since = None

    def race(self, now: float) -> dict[str, Any] | None:
        """A race's times (``None`` for a turn-based game): ``elapsed``, the seconds the
        round in play has run (0 during its count; the last round's time between rounds
        and at the end) and ``times``, the seconds each finished round ran."""
        if not self.game.info.realtime:
            return None
        if self.race_since is not None:
            elapsed = max(0.0, round(now - self.race_since, 1))
        elif self.counting_until is None and self.race_times:
            elapsed = self.race_times[-1]
        else:
            elapsed = 0.0
        return {"elapsed": elapsed, "times": list(self.race_times)}
