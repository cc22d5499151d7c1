"""Fair-play signals a moderator reads: never a verdict, never an automatic ban.

Whatever face stores games (the server) hands this package what it keeps — the
finished record, the seat, the stored moves with their source and race times — and
gets figures back (docs/fairplay.md):

- :mod:`.speed` — a Spy person's pace in a round: mean and peak rate over a sliding
  window, flagged beyond human reaction;
- :mod:`.agreement` — how often a seat's choices were the strongest practical bot's,
  asked from the seat's own information set;
- :mod:`.history` — agreement pooled over games with its interval, and the recent games
  against the player's own earlier ones;
- :mod:`.signals` — the two calls a server makes: :func:`game_signals` once per game,
  :func:`player_signals` over a player's games.

The calibration behind the thresholds is ``studies/fairplay_calibration.py``.
"""

from __future__ import annotations

from .agreement import REFERENCES, DecisionCheck, GameAgreement, seat_agreement
from .history import (
    AgreementSummary,
    Counts,
    HistoryComparison,
    compare_history,
    pooled_agreement,
    wilson_interval,
)
from .signals import (
    GameSignals,
    PlayerSignals,
    SpeedSummary,
    game_signals,
    player_signals,
    round_speeds,
)
from .speed import HUMAN_LIMIT, WINDOW, RaceSpeed, race_speed
from .stored import StoredMove, stored_segments

__all__ = [
    "HUMAN_LIMIT",
    "REFERENCES",
    "WINDOW",
    "AgreementSummary",
    "Counts",
    "DecisionCheck",
    "GameAgreement",
    "GameSignals",
    "HistoryComparison",
    "PlayerSignals",
    "RaceSpeed",
    "SpeedSummary",
    "StoredMove",
    "compare_history",
    "game_signals",
    "player_signals",
    "pooled_agreement",
    "race_speed",
    "round_speeds",
    "seat_agreement",
    "stored_segments",
    "wilson_interval",
]
