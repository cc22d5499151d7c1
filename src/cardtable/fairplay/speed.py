"""Spy race speed: how fast one person moved in one round, against human reaction.

The server stores, with every move of a race, the seconds the round's race had run when
the table took it (``race_time``, rounded to a tenth). From the times of one seat's own
moves in one round (only moves the person made: ``source == "player"``, never a bot's
stand-in), :func:`race_speed` gives

- the **mean rate**: the person's moves divided by the race time of their last move
  (the race clock starts when the 3-2-1 count ends, so the first move's reaction to the
  start counts, as it does for everyone);
- the **peak rate**: the highest rate over any stretch of :data:`WINDOW` seconds — for
  each move, the moves in the :data:`WINDOW` seconds up to it (or since the start, when
  the race had run less than that) divided by that span — counted only where the
  stretch holds at least :data:`MIN_WINDOW_MOVES` moves, so a quick double tap is not
  a rate;
- a **flag** when the peak rate exceeds :data:`HUMAN_LIMIT` moves a second.

Why these figures. A person who knows Spy makes one to two moves a second
(:mod:`cardtable.table.pacing`). Every move answers a card just shown (a turn shows the
next waste card; a placement shows the pile's new top), so it needs a choice reaction —
about 0.35-0.5 s in reaction-time studies — and a tap or a drag; a sustained pace above
about three moves a second (one every 0.33 s) is beyond that. A stretch of ten seconds
holds 10-20 moves of a person, enough that a lucky streak of quick taps does not read
as a pace (a count of ``n`` moves drifts by about ``1/sqrt(n)``), and short enough that
a script that races only part of a round is still seen; most races are shorter than ten
seconds, and their peak is then their rate since the start. The calibration
(``studies/fairplay_calibration.py``, docs/fairplay.md) measures how often simulated
people and bots cross the limit.

>>> s = race_speed([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
>>> s.mean_rate, s.peak_rate, s.flagged
(1.0, 1.0, False)
>>> race_speed([0.3 + 0.2 * i for i in range(20)]).flagged
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "HUMAN_LIMIT",
    "MIN_WINDOW_MOVES",
    "RESOLUTION",
    "WINDOW",
    "RaceSpeed",
    "race_speed",
]

#: Seconds of the sliding window of the peak rate (module docstring).
WINDOW: Final = 10.0
#: Moves a second beyond which a sustained pace is not a person's (module docstring).
HUMAN_LIMIT: Final = 3.0
#: The fewest moves a stretch must hold for its rate to count.
MIN_WINDOW_MOVES: Final = 6
#: The table stores race times to a tenth of a second: no span is shorter.
RESOLUTION: Final = 0.1


@dataclass(frozen=True, slots=True)
class RaceSpeed:
    """One person's pace in one race round (module docstring).

    ``seconds`` is the race time of their last move; ``mean_rate`` is None when they
    made no move; ``peak_rate`` is None when no stretch held :data:`MIN_WINDOW_MOVES`
    moves, and ``peak_at`` is the race time at the end of the fastest stretch.
    """

    moves: int
    seconds: float
    mean_rate: float | None
    peak_rate: float | None
    peak_at: float | None
    flagged: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (rates rounded to a thousandth)."""
        return {
            "moves": self.moves,
            "seconds": self.seconds,
            "mean_rate": _round(self.mean_rate),
            "peak_rate": _round(self.peak_rate),
            "peak_at": self.peak_at,
            "flagged": self.flagged,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RaceSpeed:
        """Read :meth:`to_dict`'s form back."""
        return cls(
            moves=int(data["moves"]),
            seconds=float(data["seconds"]),
            mean_rate=_float(data["mean_rate"]),
            peak_rate=_float(data["peak_rate"]),
            peak_at=_float(data["peak_at"]),
            flagged=bool(data["flagged"]),
        )


def race_speed(
    times: Sequence[float],
    *,
    window: float = WINDOW,
    limit: float = HUMAN_LIMIT,
    min_moves: int = MIN_WINDOW_MOVES,
) -> RaceSpeed:
    """The pace of one person's moves made at race ``times`` (seconds since the round's
    race started; module docstring). Raises :class:`ValueError` for a negative or
    non-finite time or a window shorter than :data:`RESOLUTION`.

    >>> race_speed([]).mean_rate is None
    True
    >>> race_speed([0.5, 0.6, 0.7], min_moves=6).peak_rate is None
    True
    """
    if window < RESOLUTION:
        raise ValueError(f"the window must be at least {RESOLUTION} s, got {window}")
    for t in times:
        if not math.isfinite(t) or t < 0:
            raise ValueError(f"a race time must be a finite number of seconds ≥ 0, got {t}")
    ordered = sorted(times)
    if not ordered:
        return RaceSpeed(0, 0.0, None, None, None, False)
    last = ordered[-1]
    mean = len(ordered) / max(last, RESOLUTION)
    peak: float | None = None
    peak_at: float | None = None
    first = 0  # the earliest move inside the stretch ending at move ``end``
    for end, t in enumerate(ordered):
        while ordered[first] <= t - window:
            first += 1
        count = end - first + 1
        if count < min_moves:
            continue
        rate = count / max(min(t, window), RESOLUTION)
        if peak is None or rate > peak:
            peak, peak_at = rate, t
    return RaceSpeed(
        moves=len(ordered),
        seconds=last,
        mean_rate=mean,
        peak_rate=peak,
        peak_at=peak_at,
        flagged=peak is not None and peak > limit,
    )


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)
