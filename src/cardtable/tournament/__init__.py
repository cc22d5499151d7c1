"""Tournaments: formats, pairing and standings, sans I/O.

Pure functions of stored values (:mod:`.model`), used alike by the server's
tournaments (people) and the arena (bots), so a club's Swiss and a researcher's Swiss
follow the same rules.
"""

from cardtable.tournament.model import (
    FORMATS,
    Format,
    GameResult,
    Player,
    RoundPlan,
    Standing,
    TournamentSpec,
)

__all__ = [
    "FORMATS",
    "Format",
    "GameResult",
    "Player",
    "RoundPlan",
    "Standing",
    "TournamentSpec",
]
