"""The values a tournament is made of: what the organiser asked for, who plays, what
each round seats and what each game gave.

A tournament is an authority above tables, as the table is above the engine. Everything
here is a plain, immutable value with a JSON form (``to_dict``/``from_dict``), so the
server stores it, the arena builds it from bots, and pairing and standings are pure
functions of it (:mod:`cardtable.tournament.pairing`, :mod:`cardtable.tournament.standings`):
a restart, or another process, recomputes the same thing from what is stored.

Players are named by an opaque id (an account name on the server, a bot spec in the
arena). Seat order matters: seat 0 of a Candidate table deals the first deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "FORMATS",
    "Format",
    "GameResult",
    "Player",
    "RoundPlan",
    "Standing",
    "TournamentSpec",
]

Format = Literal["swiss", "race", "arena"]
#: Every format, in the order pages list them.
FORMATS: tuple[Format, ...] = ("swiss", "race", "arena")


@dataclass(frozen=True)
class TournamentSpec:
    """What the organiser chose.

    ``game`` is ``"candidate"`` or ``"spy"``; ``swiss`` is for Candidate, ``race`` for
    Spy, ``arena`` for both. ``rounds`` counts a Swiss's or race tournament's rounds;
    ``minutes`` is an arena's length. ``table_size`` is a race round's wanted table
    size (2-8; the remainder is spread so no table is smaller than 2). ``duplicate``
    deals every table of a round the same cards for the same seat and scores each
    result against everyone who held the same cards (matchpoints). ``options`` are the
    game's options for each round's match (e.g. ``{"deals": 2}``).
    """

    game: str
    format: Format
    rounds: int = 0
    minutes: int = 0
    table_size: int = 2
    duplicate: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "game": self.game,
            "format": self.format,
            "rounds": self.rounds,
            "minutes": self.minutes,
            "table_size": self.table_size,
            "duplicate": self.duplicate,
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSpec:
        """Read :meth:`to_dict`'s form back."""
        return cls(
            game=str(data["game"]),
            format=data["format"],
            rounds=int(data.get("rounds", 0)),
            minutes=int(data.get("minutes", 0)),
            table_size=int(data.get("table_size", 2)),
            duplicate=bool(data.get("duplicate", False)),
            options=dict(data.get("options", {})),
        )


@dataclass(frozen=True)
class Player:
    """An entrant. ``order`` is the initial ranking (lower is stronger: by rating, then
    registration); ``joined`` is the first round the player can be paired in (late
    joiners miss the rounds before it); ``left`` is the last round played before a
    withdrawal or removal (``None`` while still in)."""

    id: str
    order: int = 0
    joined: int = 1
    left: int | None = None
    bot: bool = False

    def active_in(self, round_number: int) -> bool:
        """Whether the player is paired in that round."""
        return self.joined <= round_number and (self.left is None or round_number <= self.left)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "id": self.id,
            "order": self.order,
            "joined": self.joined,
            "left": self.left,
            "bot": self.bot,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Player:
        """Read :meth:`to_dict`'s form back."""
        left = data.get("left")
        return cls(
            id=str(data["id"]),
            order=int(data.get("order", 0)),
            joined=int(data.get("joined", 1)),
            left=None if left is None else int(left),
            bot=bool(data.get("bot", False)),
        )


@dataclass(frozen=True)
class RoundPlan:
    """One round's seating: each table's player ids in seat order, and the byes
    (Swiss: a player left without an opponent scores a bye's points)."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "round": self.round,
            "tables": [list(t) for t in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundPlan:
        """Read :meth:`to_dict`'s form back."""
        return cls(
            round=int(data["round"]),
            tables=tuple(tuple(str(p) for p in t) for t in data["tables"]),
            byes=tuple(str(p) for p in data.get("byes", ())),
        )


@dataclass(frozen=True)
class GameResult:
    """What one table of a round gave: its seats (player ids in seat order) and each
    seat's match total as the game scores it (Candidate: highest best; Spy: lowest
    best). ``forfeited`` names seats whose player was absent at the round's start and
    lost by forfeit (their totals do not count; the others win); ``resigned`` names
    seats whose player resigned (lost whatever the totals, but played over the board:
    the opponent counts for the tie-breaks). ``table`` numbers the
    table within its round; in an arena, ``round`` is the game's sequence number."""

    round: int
    table: int
    seats: tuple[str, ...]
    totals: tuple[float, ...]
    forfeited: tuple[str, ...] = ()
    table_id: str | None = None
    resigned: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "round": self.round,
            "table": self.table,
            "seats": list(self.seats),
            "totals": list(self.totals),
            "forfeited": list(self.forfeited),
            "resigned": list(self.resigned),
            "table_id": self.table_id,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        """Read :meth:`to_dict`'s form back."""
        return cls(
            round=int(data["round"]),
            table=int(data["table"]),
            seats=tuple(str(p) for p in data["seats"]),
            totals=tuple(float(t) for t in data["totals"]),
            forfeited=tuple(str(p) for p in data.get("forfeited", ())),
            resigned=tuple(str(p) for p in data.get("resigned", ())),
            table_id=data.get("table_id"),
        )


@dataclass(frozen=True)
class Standing:
    """One line of the standings: rank (shared ranks for equal lines), points and the
    tie-breaks in the order they are applied, games played and byes had."""

    player: str
    rank: int
    points: float
    tiebreaks: Mapping[str, float]
    games: int
    byes: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "player": self.player,
            "rank": self.rank,
            "points": self.points,
            "tiebreaks": dict(self.tiebreaks),
            "games": self.games,
            "byes": self.byes,
        }


def players_by_id(players: Sequence[Player]) -> dict[str, Player]:
    """Players keyed by id (ids are unique in a tournament)."""
    return {p.id: p for p in players}
