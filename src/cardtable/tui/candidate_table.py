"""The Candidate table behind the terminal app: seats, moves, views and the record.

The table owns the engine's :class:`~cardtable.games.candidate.CandidateState` and is
the only part of the app that touches it. Screens ask it for a seat's
:class:`~cardtable.games.candidate.CandidateView` and for the move log as that seat may
see it (:meth:`~cardtable.games.candidate.Event.seen_by`), so hidden cards never reach
a widget. Every move, a person's or a bot's, goes through the engine's checked
:meth:`~cardtable.games.candidate.CandidateState.apply`.

>>> table = CandidateTable.new(seed=3, options={"deals": 1}, names=("Ann", "Bob"))
>>> table.decision, table.names[table.current_player]
('deal', 'Ann')
>>> table.view(1).hand
()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardtable.games.candidate import GAME, CandidateState, CandidateView, Event
from cardtable.tui.players import CandidateBot, candidate_info

__all__ = ["CandidateTable"]


class CandidateTable:
    """A Candidate match between two seats, each a person (bot None) or a bot."""

    def __init__(
        self,
        state: CandidateState,
        names: Sequence[str],
        bots: Sequence[CandidateBot | None],
        hint_bot: CandidateBot | None = None,
    ) -> None:
        if len(names) != 2 or len(bots) != 2:
            raise ValueError("Candidate has two seats: give two names and two bots (or None)")
        self._state = state
        self.names = tuple(names)
        self.bots = tuple(bots)
        self.hint_bot = hint_bot
        self._events: list[Event] = []
        self._moves = 0

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        options: Mapping[str, Any] | None = None,
        names: Sequence[str] = ("Player 1", "Player 2"),
        bots: Sequence[CandidateBot | None] = (None, None),
        hint_bot: CandidateBot | None = None,
    ) -> CandidateTable:
        """A fresh match dealt from ``seed`` (options as in a record)."""
        return cls(GAME.new_initial_state(seed, dict(options or {})), names, bots, hint_bot)

    # -- what anyone may know ---------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """Who decides now; None when the match is over."""
        return None if self._state.is_terminal() else self._state.current_player

    @property
    def decision(self) -> str | None:
        """``deal``, ``lobby``, ``play`` or ``draw``; None when the match is over."""
        return self._state.decision

    @property
    def is_over(self) -> bool:
        """Has the last deal ended (C17)?"""
        return self._state.is_terminal()

    def is_bot(self, seat: int) -> bool:
        """Is ``seat`` played by a bot?"""
        return self.bots[seat] is not None

    @property
    def bot_to_move(self) -> bool:
        """Is it a bot's decision now?"""
        player = self.current_player
        return player is not None and self.is_bot(player)

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play."""
        return tuple(s for s in (0, 1) if not self.is_bot(s))

    def view(self, seat: int | None) -> CandidateView:
        """What ``seat`` may see now (None: a spectator)."""
        return self._state.view(seat)

    def log(self, seat: int | None) -> list[Event]:
        """Every event so far, as ``seat`` may see it (others' secret cards removed)."""
        return [event.seen_by(seat) for event in self._events]

    # -- moves --------------------------------------------------------------------------

    def apply(self, move: int | str) -> list[Event]:
        """Make the current player's move (checked by the engine); return its events.

        Raises :class:`~cardtable.errors.IllegalMove` saying why, changing nothing.
        """
        events = self._state.apply(move)
        self._events.extend(events)
        self._moves += 1
        return events

    @property
    def version(self) -> int:
        """How many moves have been made: an answer worked out for an older version is
        stale."""
        return self._moves

    def bot_task(self) -> Callable[[], int]:
        """The bot's decision as a task: the seat's information set is taken now, so
        the task may run in another thread while the table is read (or changed)."""
        player = self.current_player
        bot = None if player is None else self.bots[player]
        if player is None or bot is None:
            raise ValueError("it is not a bot's decision")
        info = candidate_info(self._state.clone(), player)
        return lambda: bot.choose(info)

    def bot_choice(self) -> int:
        """The bot's choice for the current decision (it sees only its seat's view)."""
        return self.bot_task()()

    def hint_task(self, seat: int) -> Callable[[], str] | None:
        """What the hint bot would do in ``seat``'s place, as a task giving move text
        (its information set taken now); None when it is not ``seat``'s decision."""
        bot = self.hint_bot
        if self.current_player != seat or bot is None:
            return None
        info = candidate_info(self._state.clone(), seat)
        return lambda: bot.analyse(info).best.text

    def hint(self, seat: int) -> str | None:
        """The hint now (see :meth:`hint_task`)."""
        task = self.hint_task(seat)
        return None if task is None else task()

    def record(self) -> dict[str, Any]:
        """The match so far as a game record (RECORDS.md)."""
        return self._state.to_record(self.names)

    def totals(self) -> tuple[int, int]:
        """The match totals so far (C14-C15)."""
        return self._state.totals()
