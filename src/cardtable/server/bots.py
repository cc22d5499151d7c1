"""Bots as the server runs them: a seat's view and legal moves in, one move text out.

A bot sees exactly what a player in its seat would see (the engine's view of that seat),
never the true state. Bots run off the event loop (see :mod:`cardtable.server.runtime`)
and within a time budget; a bot that overruns it is replaced, for that move, by a random
legal move so a table never waits on it.

Levels ``easy``, ``medium`` and ``hard`` map to whatever bots the games offer; a game may
register its own bots with :meth:`BotBook.register`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

#: The bot levels a table may ask for.
LEVELS: Final = ("easy", "medium", "hard")


class Bot(Protocol):
    """Anything that chooses a move from a view."""

    def choose(
        self, view: Mapping[str, Any], legal_moves: Sequence[str], rng: random.Random
    ) -> str:
        """One of ``legal_moves`` (never empty), chosen from what ``view`` shows."""
        ...


class RandomBot:
    """Plays a uniformly random legal move: the baseline every game has."""

    def choose(
        self, view: Mapping[str, Any], legal_moves: Sequence[str], rng: random.Random
    ) -> str:
        """A uniformly random legal move.

        >>> RandomBot().choose({}, ["pass", "draw S"], random.Random(1)) in ("pass", "draw S")
        True
        """
        return legal_moves[rng.randrange(len(legal_moves))]


#: Real-time bots act at a speed profile: moves per second, by level.
DEFAULT_SPEEDS: Final[Mapping[str, float]] = {"easy": 0.7, "medium": 1.2, "hard": 2.0}


@dataclass
class BotBook:
    """Which bot plays each game at each level, and how fast in a race.

    ``factories[(game, level)]`` makes a fresh bot; games without an entry fall back to
    :class:`RandomBot`.
    """

    factories: dict[tuple[str, str], Callable[[], Bot]] = field(default_factory=dict)
    speeds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SPEEDS))

    def register(self, game: str, level: str, factory: Callable[[], Bot]) -> None:
        """Use ``factory`` for ``game`` at ``level``."""
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
        self.factories[(game, level)] = factory

    def make(self, game: str, level: str) -> Bot:
        """A fresh bot for ``game`` at ``level``.

        >>> type(BotBook().make("candidate", "easy")).__name__
        'RandomBot'
        """
        factory = self.factories.get((game, level))
        return factory() if factory is not None else RandomBot()

    def speed(self, level: str) -> float:
        """Moves per second of a real-time bot at ``level``."""
        return self.speeds.get(level, DEFAULT_SPEEDS["medium"])
