"""How fast bots play and how long a table pauses: one model for every face.

A bot at a real-time table (a Spy race, S17 in ``docs/rules/spy.en.md``) makes its moves
at a *speed*, in moves per second; each move takes a time drawn from a lognormal
distribution with mean ``1 / speed`` (bots do not tick like clocks, so the lead changes
hands as it does between people). A bot at a turn-based table waits :attr:`Pacing.turn_delay`
before its move, so people can follow. After a deal or round ends the table pauses for
:attr:`Pacing.segment_pause` seconds, or until every person at it says they are ready.

The speed table is the only one: the server's levels, the terminal's ``--speed`` and the
arena all read :data:`SPEEDS` and :data:`LEVEL_SPEEDS`.

>>> parse_speed("quick"), parse_speed("2.5")
(2.0, 2.5)
>>> Pacing().speed_of("hard")
1.2
>>> import random
>>> 0 < Pacing().move_time(2.0, random.Random(1)) < 5
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from cardtable.errors import BadOptions
from cardtable.games.spy.race import LognormalTime

__all__ = [
    "LEVEL_SPEEDS",
    "MOVE_TIME_SIGMA",
    "SPEEDS",
    "Pacing",
    "parse_speed",
]

#: Speed profiles: moves per second of a bot in a race. A person who knows Spy makes
#: roughly one to two moves a second; a first-time player one placement every 2-4 s.
SPEEDS: Final[Mapping[str, float]] = {
    "gentle": 0.3,
    "slow": 0.7,
    "steady": 1.2,
    "quick": 2.0,
    "fast": 3.5,
}

#: The speed of a bot of each level for people (``easy``, ``medium``, ``hard``): easy
#: makes a move every 3.3 s on average, slower than a first-time player's placements,
#: so a newcomer can win its races (measured in docs/bots.md, "Pace at the table").
LEVEL_SPEEDS: Final[Mapping[str, str]] = {"easy": "gentle", "medium": "slow", "hard": "steady"}

#: Spread of a bot's move times: the standard deviation of their logarithm.
MOVE_TIME_SIGMA: Final = 0.35


def parse_speed(text: str) -> float:
    """A speed: a profile name of :data:`SPEEDS` or moves a second (0.05-100).

    Raises :class:`~cardtable.errors.BadOptions` naming what is accepted.
    """
    name = text.strip().lower()
    if name in SPEEDS:
        return SPEEDS[name]
    try:
        speed = float(name)
    except ValueError:
        speed = 0.0
    if not 0.05 <= speed <= 100:
        raise BadOptions(
            f"bad speed {text!r}: expected one of {', '.join(SPEEDS)} "
            "or moves a second from 0.05 to 100"
        )
    return speed


@dataclass(frozen=True, slots=True)
class Pacing:
    """A table's pacing (see the module docstring); every face uses the defaults unless
    it has a reason (tests run with no pauses)."""

    #: Moves per second of a bot of each level in a race.
    level_speeds: Mapping[str, float] = field(
        default_factory=lambda: {level: SPEEDS[name] for level, name in LEVEL_SPEEDS.items()}
    )
    #: Seconds a turn-based bot waits before its move.
    turn_delay: float = 0.4
    #: Seconds a table pauses after a deal or round, unless every person is ready sooner.
    segment_pause: float = 15.0
    #: Spread of race move times (see :data:`MOVE_TIME_SIGMA`).
    sigma: float = MOVE_TIME_SIGMA
    #: Seconds of the 3-2-1 count before each race round, so everyone starts together.
    start_count: float = 3.0

    def speed_of(self, level: str) -> float:
        """Moves per second of a bot of ``level`` (a level of :data:`LEVEL_SPEEDS`, or any
        other bot name, which races at the ``medium`` speed)."""
        return self.level_speeds.get(level, self.level_speeds.get("medium", SPEEDS["steady"]))

    def move_time(self, speed: float, rng: random.Random) -> float:
        """The time one race move of a bot at ``speed`` takes (seconds), drawn from ``rng``."""
        return LognormalTime(1.0 / speed, self.sigma).duration(rng)
