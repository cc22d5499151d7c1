"""What the server calls: one game's signals, then a player's over their games.

1. When a game ends (or when a moderator first opens it), the server calls
   :func:`game_signals` with the finished record, the seat of the player and the
   table's stored moves, and keeps :meth:`GameSignals.to_dict` (JSON) beside the game:
   a Candidate match of 12 deals costs a few seconds of the reference's search, so it is
   worth computing once.
2. A moderator's page for a player reads their games' stored signals, oldest first,
   back with :meth:`GameSignals.from_dict` and calls :func:`player_signals`, which
   pools them by deal or round: the agreement rate with its interval, the last
   :data:`RECENT` deals or rounds against the earlier ones, and in Spy every round's
   pace.

Nothing here decides anything: :attr:`PlayerSignals.attention` lists which signals are
past their calibrated levels (docs/fairplay.md), for a moderator to look into.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.record import game_of

from .agreement import GameAgreement, Progress, seat_agreement
from .history import (
    AgreementSummary,
    Counts,
    HistoryComparison,
    compare_history,
    pooled_agreement,
)
from .speed import HUMAN_LIMIT, RaceSpeed, race_speed
from .stored import StoredMove, stored_segments

__all__ = [
    "AGREEMENT_ATTENTION",
    "HISTORY_ATTENTION",
    "RECENT",
    "SPEED_ROUNDS",
    "GameSignals",
    "PlayerSignals",
    "SpeedSummary",
    "game_signals",
    "player_signals",
    "round_speeds",
    "segment_counts",
    "speed_summary",
]

#: How many of a player's latest deals (Candidate) or rounds (Spy) are pooled, and
#: compared with the ones before them.
RECENT: Final = 20
#: The agreement of the last :data:`RECENT` deals or rounds above which a moderator is
#: pointed at it: at or above the top of the 95 % interval of the level that 1 % of
#: simulated people pass (docs/fairplay.md).
AGREEMENT_ATTENTION: Final[Mapping[str, float]] = {"candidate": 0.80, "spy": 0.98}
#: The z-score of the recent deals or rounds above the earlier ones from which a
#: moderator is pointed at the history (chosen the same way).
HISTORY_ATTENTION: Final = 2.6
#: The fewest rounds with a peak rate before their median can point at the pace.
SPEED_ROUNDS: Final = 3


def round_speeds(
    record: Mapping[str, Any], moves: Sequence[StoredMove], seat: int
) -> tuple[RaceSpeed, ...]:
    """The pace of ``seat``'s person in every round of a Spy record, from the stored
    moves' race times: only the moves the person made (``source == "player"``) with a
    race time. Raises :class:`ValueError` for stored moves that are not the record's."""
    return tuple(
        race_speed(
            [
                m.race_time
                for m in part
                if m.seat == seat and m.by_person and m.race_time is not None
            ]
        )
        for part in stored_segments(record, moves)
    )


@dataclass(frozen=True, slots=True)
class GameSignals:
    """One seat's signals in one game: the agreement with the reference and, in Spy
    with stored moves, each round's pace (empty otherwise)."""

    game: str
    seat: int
    agreement: GameAgreement
    speeds: tuple[RaceSpeed, ...] = ()

    @property
    def counts(self) -> Counts:
        """The agreement as counts."""
        return Counts(self.agreement.agreements, self.agreement.decisions)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what the server keeps)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "agreement": self.agreement.to_dict(),
            "speeds": [s.to_dict() for s in self.speeds],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSignals:
        """Read :meth:`to_dict`'s form back."""
        return cls(
            game=str(data["game"]),
            seat=int(data["seat"]),
            agreement=GameAgreement.from_dict(data["agreement"]),
            speeds=tuple(RaceSpeed.from_dict(s) for s in data["speeds"]),
        )


def game_signals(
    record: Mapping[str, Any],
    seat: int,
    moves: Sequence[StoredMove] | None = None,
    *,
    reference: str | None = None,
    progress: Progress | None = None,
) -> GameSignals:
    """The signals of ``seat`` in a game (module docstring, step 1). Without ``moves``
    every move of the seat counts as the person's and there is no pace.

    Raises the engine's located error for a malformed record and :class:`ValueError`
    for a seat not at the table or stored moves that are not the record's.
    """
    game = game_of(record)
    agreement = seat_agreement(record, seat, moves, reference=reference, progress=progress)
    speeds = round_speeds(record, moves, seat) if game == "spy" and moves is not None else ()
    return GameSignals(game, seat, agreement, speeds)


@dataclass(frozen=True, slots=True)
class SpeedSummary:
    """A player's Spy pace over their rounds: rounds with a move of theirs, those with
    a peak rate (enough moves in a stretch), those flagged beyond human reaction, the
    median and highest peak rate, and the pooled mean rate (every move over every
    second raced)."""

    rounds: int
    measured: int
    flagged: int
    median_peak: float | None
    max_peak: float | None
    mean_rate: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "rounds": self.rounds,
            "measured": self.measured,
            "flagged": self.flagged,
            "median_peak": None if self.median_peak is None else round(self.median_peak, 3),
            "max_peak": None if self.max_peak is None else round(self.max_peak, 3),
            "mean_rate": None if self.mean_rate is None else round(self.mean_rate, 3),
            "limit": HUMAN_LIMIT,
        }


def speed_summary(speeds: Sequence[RaceSpeed]) -> SpeedSummary:
    """Pool rounds' paces (see :class:`SpeedSummary`).

    >>> speed_summary([race_speed([1, 2, 3, 4, 5, 6]), race_speed([])]).to_dict()["rounds"]
    1
    """
    raced = [s for s in speeds if s.moves]
    peaks = [s.peak_rate for s in raced if s.peak_rate is not None]
    seconds = sum(s.seconds for s in raced)
    moves = sum(s.moves for s in raced)
    return SpeedSummary(
        rounds=len(raced),
        measured=len(peaks),
        flagged=sum(s.flagged for s in raced),
        median_peak=statistics.median(peaks) if peaks else None,
        max_peak=max(peaks) if peaks else None,
        mean_rate=moves / seconds if seconds > 0 else None,
    )


def segment_counts(games: Sequence[GameSignals]) -> list[Counts]:
    """Every deal or round of ``games`` (oldest first) in which the person made a
    decision, as counts, in order: the unit every signal is calibrated on."""
    out: list[Counts] = []
    for game in games:
        by_segment: dict[int, list[bool]] = {}
        for check in game.agreement.checks:
            by_segment.setdefault(check.segment, []).append(check.agrees)
        out += [Counts(sum(v), len(v)) for _, v in sorted(by_segment.items())]
    return out


@dataclass(frozen=True, slots=True)
class PlayerSignals:
    """A player's signals over their games of one game kind (module docstring, step 2):
    agreement over every deal or round, over the last :data:`RECENT` of them, those
    against the earlier ones, the Spy pace, and the signals past their levels."""

    game: str
    games: int
    agreement: AgreementSummary
    recent: AgreementSummary
    history: HistoryComparison | None
    speed: SpeedSummary | None
    attention: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what a moderator's page shows)."""
        return {
            "game": self.game,
            "games": self.games,
            "agreement": self.agreement.to_dict(),
            "recent": self.recent.to_dict(),
            "history": None if self.history is None else self.history.to_dict(),
            "speed": None if self.speed is None else self.speed.to_dict(),
            "attention": list(self.attention),
            "levels": {
                "recent": RECENT,
                "agreement": AGREEMENT_ATTENTION[self.game],
                "history_z": HISTORY_ATTENTION,
                "speed": HUMAN_LIMIT,
            },
        }


def player_signals(games: Sequence[GameSignals]) -> PlayerSignals:
    """Pool a player's games of one kind, oldest first (module docstring, step 2).

    Agreement is pooled by deal or round (a Candidate match holds 12 deals, a Spy match
    5 rounds by default), the unit of the calibration, so the levels do not depend on
    how long the matches were. ``attention`` names the signals past their levels, each
    measured to be passed by at most about 1 % of simulated people (docs/fairplay.md):
    ``"agreement"`` — the last :data:`RECENT` deals or rounds agree with the reference
    above :data:`AGREEMENT_ATTENTION`; ``"history"`` — with at least :data:`RECENT`
    earlier ones, their z-score against those is above :data:`HISTORY_ATTENTION`;
    ``"speed"`` — the median of the rounds' peak rates, over at least
    :data:`SPEED_ROUNDS` rounds, is beyond human reaction (:data:`HUMAN_LIMIT`). Raises
    :class:`ValueError` for no games or games of several kinds.
    """
    kinds = {g.game for g in games}
    if len(kinds) != 1:
        raise ValueError(f"expected games of one kind, got {sorted(kinds) or 'none'}")
    game = kinds.pop()
    counts = segment_counts(games)
    earlier, recent = counts[:-RECENT], counts[-RECENT:]
    agreement = pooled_agreement(counts)
    last = pooled_agreement(recent)
    history = compare_history(earlier, recent)
    speed = speed_summary([s for g in games for s in g.speeds]) if game == "spy" else None
    attention = []
    if len(recent) == RECENT and last.rate is not None and last.rate > AGREEMENT_ATTENTION[game]:
        attention.append("agreement")
    if history is not None and len(earlier) >= RECENT and history.z > HISTORY_ATTENTION:
        attention.append("history")
    if (
        speed is not None
        and speed.measured >= SPEED_ROUNDS
        and speed.median_peak is not None
        and speed.median_peak > HUMAN_LIMIT
    ):
        attention.append("speed")
    return PlayerSignals(game, len(games), agreement, last, history, speed, tuple(attention))
