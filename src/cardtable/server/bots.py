"""Bots as the server runs them: one per bot-driven seat, thinking off the event loop.

A server bot works in two steps, so that the thinking can run on another thread or
process while the table goes on:

1. :meth:`Bot.prepare`, on the event loop, captures what the seat may know now — for a
   real game the engine's information set (never the true state) — and returns a
   *thinking*: a picklable callable without access to the live table;
2. the runtime runs that thinking on its executor, within a time budget, and submits the
   move text it returns like any client's move.

:meth:`Bot.moved` tells a bot about each accepted move of its own seat (a Spy bot
remembers the cards it turned). Levels ``easy``, ``medium`` and ``hard`` map to whatever
bots the games offer (:class:`BotBook`); without an entry a seat plays random legal
moves (:class:`RandomBot`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Final, Protocol

from cardtable.server.games import GameSession

#: The bot levels a table may ask for.
LEVELS: Final = ("easy", "medium", "hard")

#: A bot's thinking: run on an executor, returns the move text.
Thinking = Callable[[], str]


class Bot(Protocol):
    """A bot playing one seat of one table."""

    def prepare(self, session: GameSession, seat: int, seed: int) -> Thinking:
        """On the event loop: capture what ``seat`` may know, return the thinking."""
        ...

    def moved(self, session: GameSession, seat: int, move: str) -> None:
        """After an accepted move of this bot's seat (already applied to ``session``)."""
        ...


def pick_random(moves: Sequence[str], seed: int) -> str:
    """A uniformly random move of ``moves`` (a thinking of :class:`RandomBot`).

    >>> pick_random(["pass", "draw S"], 1) in ("pass", "draw S")
    True
    """
    return moves[random.Random(seed).randrange(len(moves))]


class RandomBot:
    """Plays a uniformly random legal move: the baseline every game has, and the
    fallback when another bot overruns its budget or fails."""

    def prepare(self, session: GameSession, seat: int, seed: int) -> Thinking:
        """Choose among the seat's legal moves now."""
        return partial(pick_random, tuple(session.legal_moves(seat)), seed)

    def moved(self, session: GameSession, seat: int, move: str) -> None:
        """Nothing to remember."""


#: Real-time bots act at a speed profile: moves per second, by level (a person who
#: knows Spy makes one or two moves a second).
DEFAULT_SPEEDS: Final[Mapping[str, float]] = {"easy": 0.7, "medium": 1.2, "hard": 2.0}


@dataclass
class BotBook:
    """Which bot plays each game at each level, and how fast in a race.

    ``factories[(game, level)]`` makes a fresh bot from a seed; games without an entry
    fall back to :class:`RandomBot`.
    """

    factories: dict[tuple[str, str], Callable[[int], Bot]] = field(default_factory=dict)
    speeds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SPEEDS))

    def register(self, game: str, level: str, factory: Callable[[int], Bot]) -> None:
        """Use ``factory(seed)`` for ``game`` at ``level``."""
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
        self.factories[(game, level)] = factory

    def make(self, game: str, level: str, seed: int) -> Bot:
        """A fresh bot for ``game`` at ``level``.

        >>> type(BotBook().make("candidate", "easy", seed=1)).__name__
        'RandomBot'
        """
        factory = self.factories.get((game, level))
        return factory(seed) if factory is not None else RandomBot()

    def speed(self, level: str) -> float:
        """Moves per second of a real-time bot at ``level``."""
        return self.speeds.get(level, DEFAULT_SPEEDS["medium"])
