"""The Spy vs Spy race behind the terminal app: one person against bots, in real time.

The table owns the engine's :class:`~cardtable.games.spy.SpyState`; screens see only
:meth:`SpyTable.view` (public positions, S4-S5) and the public events. Time is whatever
clock the caller passes in (seconds): each bot's next move completes after a move time
drawn for its speed (S17, as in :mod:`cardtable.games.spy.race`), and
:meth:`SpyTable.advance` makes every bot move that is due. The person's moves are made
as their keys arrive. Every move goes through the engine's checked ``apply``.

After a round ends the table is *paused*: no bot moves and no key counts until
:meth:`SpyTable.resume`, so the person can read the result.

>>> from cardtable.tui.players import make_spy_racers
>>> table = SpyTable.new(seed=4, names=("Ann", "Bot"), options={"rounds": 1},
...                      racers=[None, *make_spy_racers(1, ["greedy"], ["fast"])])
>>> table.start(0.0)
>>> _ = table.advance(1.5)
>>> table.view().seats[1].moves > 0, table.view().seats[0].moves
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, Future
from typing import Any

from cardtable.errors import IllegalMove
from cardtable.games.spy import Event, RoundResult, SpyOptions, SpyState, SpyView
from cardtable.games.spy.actions import (
    MAX_PILES,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_POINTS,
    PLACE_WASTE,
    TURN,
    make_action,
)
from cardtable.games.spy.race import DEFAULT_MOVE_LIMIT, LognormalTime
from cardtable.games.spy.views import SeatWindow
from cardtable.messages import make_refusal
from cardtable.tui.players import SpyRacer

__all__ = ["NoSuchPile", "SpyTable"]

#: Spread of a bot's move times (the standard deviation of their logarithm): bots do
#: not tick like clocks, so the lead changes hands as it does between people.
MOVE_TIME_SIGMA = 0.35


class NoSuchPile(IllegalMove):
    """A pile key beyond the piles the person has and the one they may open next."""

    def __init__(self, number: int, count: int) -> None:
        self.number = number
        self.count = count
        super().__init__(
            f"there is no pile {number}: you have all six piles"
            if count >= MAX_PILES
            else f"there is no pile {number}: you have {count}, "
            f"and the next one you open is {count + 1}"
        )


class SpyTable:
    """A Spy match: seat ``human`` is the person, every other seat a :class:`SpyRacer`."""

    def __init__(
        self,
        state: SpyState,
        racers: Sequence[SpyRacer | None],
        *,
        seed: int,
        human: int = 0,
        executor: Executor | None = None,
    ) -> None:
        if len(racers) != state.num_players or racers[human] is not None:
            raise ValueError("give one racer per seat, and None for the person's seat")
        self.state_seed = seed
        self.human = human
        self.racers = tuple(racers)
        self._state = state
        self._due: dict[int, float] = {}
        self._rngs: dict[int, random.Random] = {}
        self._executor = executor
        self._thinking: dict[int, Future[int]] = {}
        self.paused = True
        self.events: list[Event] = []
        self.results_seen = 0

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        names: Sequence[str],
        racers: Sequence[SpyRacer | None],
        options: Mapping[str, Any] | None = None,
        human: int = 0,
        executor: Executor | None = None,
    ) -> SpyTable:
        """A fresh match dealt from ``seed``; ``executor`` lets the bots think in other
        threads (see :meth:`advance`)."""
        state = SpyState.deal(
            list(names),
            seed=seed,
            options=SpyOptions.from_dict(dict(options or {})),
            move_limit=DEFAULT_MOVE_LIMIT,
        )
        return cls(state, racers, seed=seed, human=human, executor=executor)

    # -- what the screen may see ------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, seat order."""
        return self._state.names

    @property
    def is_over(self) -> bool:
        """Is the match over (S16)?"""
        return self._state.is_terminal()

    @property
    def round_number(self) -> int:
        """The round in play (or the last one, when the match is over)."""
        return self._state.round_number

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The finished rounds."""
        return self._state.results

    @property
    def totals(self) -> tuple[int, ...]:
        """The match totals so far (lowest is best)."""
        return tuple(self._state.totals)

    def winners(self) -> list[int]:
        """The seats with the lowest total (S16)."""
        return self._state.winners()

    def view(self) -> SpyView:
        """The table as the person may see it: public positions only (S4-S5)."""
        return self._state.view(self.human)

    # -- time ---------------------------------------------------------------------------

    def start(self, now: float) -> None:
        """Start the bots' clocks for the round in play, at time ``now``."""
        state = self._state
        for future in self._thinking.values():  # last round's thoughts: let them end
            future.exception()
        self._thinking.clear()
        self.paused = state.is_terminal()
        self._due.clear()
        if self.paused:
            return
        for seat, racer in enumerate(self.racers):
            if racer is None:
                continue
            window = SeatWindow(state.seats[seat])
            base = f"cardtable/tui/spy/{self.state_seed}/{state.round_number}/{seat}"
            racer.policy.start_round(window, random.Random(base + "/policy"))
            self._rngs[seat] = random.Random(base + "/times")
            self._due[seat] = now + self._move_time(seat)
            self._think(seat)

    def resume(self, now: float) -> None:
        """Go on after a round's result: the next round's clocks start at ``now``."""
        self.results_seen = len(self._state.results)
        self.start(now)

    def _move_time(self, seat: int) -> float:
        racer = self.racers[seat]
        assert racer is not None
        return LognormalTime(1.0 / racer.speed, MOVE_TIME_SIGMA).duration(self._rngs[seat])

    def _think(self, seat: int) -> None:
        """With an executor, start the seat's next decision now, in another thread. Its
        position can change only by its own moves, so the decision stays valid."""
        if self._executor is None:
            return
        racer = self.racers[seat]
        assert racer is not None
        position = self._state.seats[seat]
        legal = self._state.legal_actions(seat)
        if legal and not position.blocked:
            self._thinking[seat] = self._executor.submit(
                racer.policy.choose, SeatWindow(position), legal
            )

    def _decision(self, seat: int) -> int | None:
        """The seat's decision, or None while it is still thinking."""
        if self._executor is None:
            racer = self.racers[seat]
            assert racer is not None
            position = self._state.seats[seat]
            return racer.policy.choose(SeatWindow(position), self._state.legal_actions(seat))
        future = self._thinking.get(seat)
        if future is None or not future.done():
            return None
        del self._thinking[seat]
        return future.result()

    @property
    def thinking(self) -> bool:
        """Is a bot's decision still being worked out in another thread?"""
        return any(not f.done() for f in self._thinking.values())

    def advance(self, now: float) -> list[Event]:
        """Make every bot move due by ``now``, earliest first; return their events.

        A bot's move completes a move time (drawn for its speed) after its previous
        one, whatever its thinking took: thinking runs alongside, in another thread when
        the table has an executor, and a decision not ready at its time is made as soon
        as it is. Stops at a round's end (the table pauses)."""
        out: list[Event] = []
        state = self._state
        while not self.paused:
            due = sorted((when, seat) for seat, when in self._due.items() if when <= now)
            for when, seat in due:
                if state.seats[seat].blocked or not state.legal_actions(seat):
                    del self._due[seat]  # S12: a blocked racer waits for the round's end
                    break
                action = self._decision(seat)
                if action is None:
                    continue  # still thinking: the others go on
                out.extend(self._apply(action))
                if not self.paused:
                    self._due[seat] = when + self._move_time(seat)
                    self._think(seat)
                break
            else:
                return out
        return out

    # -- the person's moves -------------------------------------------------------------

    def move(self, local: int) -> list[Event]:
        """Make the person's move ``local`` (0..16, :mod:`cardtable.games.spy.actions`),
        checked by the engine. Raises :class:`~cardtable.errors.IllegalMove` saying
        why; a paused table refuses every move."""
        if self.paused:
            raise make_refusal("spy.round_paused").illegal()
        return self._apply(make_action(self.human, local))

    def pile_move(self, number: int, from_waste: bool = False) -> list[Event]:
        """The person's key for pile ``number`` (1-6): the points-pile top if it fits
        (S6-S7), else the waste top; the number after the last pile opens a new one
        (S8). ``from_waste`` uses the waste top only."""
        if self.paused:
            return self.move(TURN)  # refused: the round is over
        count = len(self.view().seats[self.human].pile_tops)
        if number > count + 1 or number > MAX_PILES:
            raise NoSuchPile(number, count)
        if number == count + 1:
            choices = [OPEN_WASTE] if from_waste else [OPEN_POINTS, OPEN_WASTE]
        else:
            waste = PLACE_WASTE + number - 1
            choices = [waste] if from_waste else [PLACE_POINTS + number - 1, waste]
        legal = self._state.legal_actions(self.human)
        for local in choices:
            if make_action(self.human, local) in legal:
                return self.move(local)
        return self.move(choices[0])  # illegal: the engine says why

    def _apply(self, action: int) -> list[Event]:
        state = self._state
        before = len(state.results)
        events = state.apply(action)
        self.events.extend(events)
        if len(state.results) > before:
            self.paused = True
            self._due.clear()
        return events

    def close(self) -> None:
        """Stop the bots' threads (the executor is the table's from now on)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    # -- the record ---------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match so far as a game record (RECORDS.md): moves in time order."""
        return self._state.to_record()
