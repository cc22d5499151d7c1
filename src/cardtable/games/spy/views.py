"""What players and spectators may see (S4, S5 and "What each player may see").

:meth:`SpyState.view <cardtable.games.spy.state.SpyState.view>` is the only way a
position leaves the engine; it builds a :class:`SpyView` from the :class:`SeatView` of
each position, so this module knows positions but not the match state. A view shows
every player's public position — pile tops and sizes, the points-pile top and count,
the racing-deck count, the waste top and count, resigned/blocked flags — and the
scores; it never shows the racing deck's order or a points-pile card under the top,
not even to their owner (S4-S5). Views are immutable and :meth:`SpyView.to_dict`
makes them JSON-ready.

:class:`SeatWindow` is a live, read-only window on one player's public position, for
policies that decide many moves in a row (:mod:`~cardtable.games.spy.race`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.cards import KIND_TEXT
from cardtable.games.spy.position import Position

__all__ = ["SeatView", "SeatWindow", "SpyView", "seat_view"]


def _text(kind: int | None) -> str | None:
    return None if kind is None else KIND_TEXT[kind]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player's public position. Cards are kinds (0..51); ``to_dict`` writes text."""

    player: int
    name: str
    points_top: int | None
    points_count: int
    pile_tops: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    deck_count: int
    waste_top: int | None
    waste_count: int
    moves: int
    resigned: bool
    blocked: bool
    called: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, cards as text (``"QS"``)."""
        return {
            "player": self.player,
            "name": self.name,
            "points_top": _text(self.points_top),
            "points_count": self.points_count,
            "piles": [
                {"top": KIND_TEXT[t], "size": n}
                for t, n in zip(self.pile_tops, self.pile_sizes, strict=True)
            ],
            "deck_count": self.deck_count,
            "waste_top": _text(self.waste_top),
            "waste_count": self.waste_count,
            "moves": self.moves,
            "resigned": self.resigned,
            "blocked": self.blocked,
            "called": self.called,
        }


@dataclass(frozen=True, slots=True)
class SpyView:
    """The table as ``viewer`` (a player, or None for a spectator) may see it.

    ``round`` counts from 1 (0 before the first deal); ``seats`` is empty when no
    round is in play. ``round_scores``/``finishers`` list the finished rounds.
    """

    viewer: int | None
    round: int
    rounds: int
    phase: str
    seats: tuple[SeatView, ...]
    finishers: tuple[int | None, ...]
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "viewer": self.viewer,
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "seats": [seat.to_dict() for seat in self.seats],
            "finishers": list(self.finishers),
            "round_scores": [list(s) for s in self.round_scores],
            "totals": list(self.totals),
        }


def seat_view(seat: Position, name: str) -> SeatView:
    """The public part of a position."""
    return SeatView(
        player=seat.player,
        name=name,
        points_top=seat.points[-1] if seat.points else None,  # S4
        points_count=len(seat.points),
        pile_tops=tuple(pile[-1] for pile in seat.piles),
        pile_sizes=tuple(len(pile) for pile in seat.piles),
        deck_count=len(seat.deck),  # S5: the count only, never the order
        waste_top=seat.waste[-1] if seat.waste else None,
        waste_count=len(seat.waste),
        moves=seat.moves,
        resigned=seat.resigned,
        blocked=seat.blocked,
        called=seat.called,
    )


class SeatWindow:
    """A live, read-only window on one player's public position (S4-S5 respected).

    It follows the position as moves are made, so a policy can keep one per round
    instead of building a :class:`SeatView` for every decision.
    """

    __slots__ = ("_seat",)

    def __init__(self, seat: Position) -> None:
        self._seat = seat

    @property
    def player(self) -> int:
        """Whose position this is."""
        return self._seat.player

    @property
    def points_top(self) -> int | None:
        """The face-up points-pile top (S4), or None when the pile is empty."""
        points = self._seat.points
        return points[-1] if points else None

    @property
    def points_count(self) -> int:
        """Cards left in the points pile."""
        return len(self._seat.points)

    @property
    def pile_tops(self) -> tuple[int, ...]:
        """The piles' top cards, pile 1 first."""
        return tuple(pile[-1] for pile in self._seat.piles)

    @property
    def pile_sizes(self) -> tuple[int, ...]:
        """Cards in each pile, pile 1 first (public, S4)."""
        return tuple(len(pile) for pile in self._seat.piles)

    @property
    def deck_count(self) -> int:
        """Cards in the racing deck (their order is hidden, S5)."""
        return len(self._seat.deck)

    @property
    def waste_top(self) -> int | None:
        """The waste's top card, or None."""
        waste = self._seat.waste
        return waste[-1] if waste else None

    @property
    def waste_count(self) -> int:
        """Cards on the waste."""
        return len(self._seat.waste)

    @property
    def moves(self) -> int:
        """Moves made this round."""
        return self._seat.moves

    @property
    def blocked(self) -> bool:
        """S12: can the player never move a card again?"""
        return self._seat.blocked

    @property
    def resigned(self) -> bool:
        """S13: has the player resigned the round?"""
        return self._seat.resigned

    @property
    def called(self) -> bool:
        """S10: has the player called "finished"?"""
        return self._seat.called

    def view(self, name: str = "") -> SeatView:
        """A frozen snapshot of the window."""
        return seat_view(self._seat, name)
