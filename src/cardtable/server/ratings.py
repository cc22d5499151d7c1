"""Ratings: openskill (Plackett-Luce) per game and player, shown on an Elo-like scale.

Every finished rated game *between people* updates the rating of each of its accounts
from the final ranks (ties share a rank); a game with a bot at any seat changes no
rating (:func:`cardtable.server.storage.rated_players`).

The server keeps openskill's ``mu`` and ``sigma`` and shows one number,
:meth:`Rating.shown` — the only place it is computed; the API serves it beside ``mu``
and ``sigma`` and the web client prints it as it comes:

- ``rating = round(1500 + 30 * (mu - 25))``. A new player (``mu`` 25) shows 1500.
  The factor 30 makes a difference of 400 mean about ten to one odds, as in Elo, for
  players whose ``sigma`` has settled: Plackett-Luce gives two players the chance
  ``1 / (1 + exp(-(mu_a - mu_b) / c))`` with ``c = sqrt(2 * beta**2 + sigma_a**2 +
  sigma_b**2)``, about ``sqrt(2) * 25/6 = 5.9`` once the ``sigma`` are small, and
  ``400 / (5.9 * ln 10)`` is 29.5.
- A rating is *provisional* — shown with a ``?``, as ``1562?`` — until the player has
  finished :data:`PROVISIONAL_GAMES` rated games of that game.

The leaderboard lists settled ratings first, then provisional ones, each by rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
#: A new player's rating (openskill's defaults).
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma
#: The shown rating of a new player, and shown points per unit of ``mu``.
SHOWN_START = 1500
SHOWN_PER_MU = 30
#: Rated games of one game after which a player's rating is no longer provisional.
PROVISIONAL_GAMES = 10


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

    @property
    def rating(self) -> int:
        """The number shown to people (see the module's text for the scale).

        >>> Rating(DEFAULT_MU, DEFAULT_SIGMA).rating
        1500
        >>> Rating(29.7, 7.8, 3).rating
        1641
        """
        return round(SHOWN_START + SHOWN_PER_MU * (self.mu - DEFAULT_MU))

    @property
    def provisional(self) -> bool:
        """Whether too few games stand behind the rating to trust it yet."""
        return self.games < PROVISIONAL_GAMES

    def shown(self) -> dict[str, int | bool | str]:
        """What the API serves beside ``mu`` and ``sigma``: ``rating``, ``provisional``
        and ``label`` (the rating as printed: ``"1641?"`` while provisional).

        >>> Rating(29.7, 7.8, 3).shown()
        {'rating': 1641, 'provisional': True, 'label': '1641?'}
        """
        rating, provisional = self.rating, self.provisional
        return {
            "rating": rating,
            "provisional": provisional,
            "label": f"{rating}?" if provisional else str(rating),
        }


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
