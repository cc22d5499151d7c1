"""Ratings: openskill (Plackett-Luce) per game and player.

Every finished rated game updates the rating of each rated player — an account or a
bot, keyed as :func:`cardtable.server.storage.rated_players` says — from the final ranks
(ties share a rank). The leaderboard orders by the conservative estimate
``mu - 3 * sigma`` (openskill's *ordinal*), so a player climbs by playing well and often.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
#: A new player's rating (openskill's defaults).
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


def rate(
    current: Mapping[str, Rating], names: Sequence[str], ranks: Sequence[int]
) -> dict[str, Rating]:
    """New ratings of ``names`` (one per seat) after a game finishing with ``ranks``.

    A player (key) sitting at several seats of one game is rated by its best seat only.

    >>> after = rate({}, ["Ann", "Bob"], [1, 2])
    >>> after["Ann"].mu > DEFAULT_MU > after["Bob"].mu
    True
    """
    best: dict[str, int] = {}
    for name, rank in zip(names, ranks, strict=True):
        best[name] = min(rank, best.get(name, rank))
    if len(best) < 2:
        return {}
    players = list(best)
    teams = []
    for name in players:
        old = current.get(name, Rating(DEFAULT_MU, DEFAULT_SIGMA))
        teams.append([_MODEL.rating(mu=old.mu, sigma=old.sigma, name=name)])
    rated = _MODEL.rate(teams, ranks=[float(best[n]) for n in players])
    result = {}
    for name, team in zip(players, rated, strict=True):
        games = current[name].games if name in current else 0
        result[name] = Rating(team[0].mu, team[0].sigma, games + 1)
    return result
