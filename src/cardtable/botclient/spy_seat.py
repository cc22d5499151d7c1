"""A Spy seat's information set, rebuilt from what the server told the seat.

A Spy bot of :mod:`cardtable.bots` wants a :class:`~cardtable.games.spy.info.SpyInfo`:
the seat's public position and what it remembers (S4-S5, S9). The engine builds it
with :class:`~cardtable.games.spy.info.SpyTracker`, which reads the seat only through a
window on its public position; :class:`JsonWindow` is that window over the ``view`` the
server sends (docs/protocol.md), so the tracker remembers the seat's waste and deck
exactly as it does on the server, from public facts only. A tracker starts with each
round; one started in the middle of a round (after a reconnection) remembers from then
on only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import parse_card_kind
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, text_to_action
from cardtable.games.spy.info import SpyInfo, SpyTracker

__all__ = ["JsonWindow", "SpySeat"]


def _card(text: str | None) -> int | None:
    return None if text is None else parse_card_kind(text)


class JsonWindow:
    """The engine's ``SeatWindow`` over a seat of the server's Spy view (a dict)."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.seat: dict[str, Any] = {}

    @property
    def points_top(self) -> int | None:
        """The face-up points-pile top."""
        return _card(self.seat.get("points_top"))

    @property
    def points_count(self) -> int:
        """Cards in the points pile."""
        return int(self.seat.get("points_count", 0))

    @property
    def pile_tops(self) -> tuple[int, ...]:
        """The piles' top cards."""
        return tuple(parse_card_kind(p["top"]) for p in self.seat.get("piles", ()))

    @property
    def pile_sizes(self) -> tuple[int, ...]:
        """Cards in each pile."""
        return tuple(int(p["size"]) for p in self.seat.get("piles", ()))

    @property
    def deck_count(self) -> int:
        """Cards in the racing deck."""
        return int(self.seat.get("deck_count", 0))

    @property
    def waste_top(self) -> int | None:
        """The waste's top card."""
        return _card(self.seat.get("waste_top"))

    @property
    def waste_count(self) -> int:
        """Cards on the waste."""
        return int(self.seat.get("waste_count", 0))

    @property
    def moves(self) -> int:
        """Moves made this round."""
        return int(self.seat.get("moves", 0))

    @property
    def blocked(self) -> bool:
        """S12."""
        return bool(self.seat.get("blocked", False))

    @property
    def resigned(self) -> bool:
        """S13."""
        return bool(self.seat.get("resigned", False))

    @property
    def called(self) -> bool:
        """S10."""
        return bool(self.seat.get("called", False))


@dataclass
class SpySeat:
    """Follows one Spy seat's messages and makes its information set."""

    seat: int
    window: JsonWindow = field(init=False)
    tracker: SpyTracker | None = None
    round: int = 0
    state: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.window = JsonWindow(self.seat)

    def observe(self, message: dict[str, Any]) -> None:
        """Take in one message of the seat's stream."""
        state = message.get("state")
        if not isinstance(state, dict):
            return
        self.state = state
        view = state.get("view") or {}
        mine = next((s for s in view.get("seats", ()) if s.get("player") == self.seat), None)
        if mine is None:
            return
        self.window.seat = mine
        fresh = view.get("round", 0) != self.round or message.get("type") == "welcome"
        if fresh or self.tracker is None:
            self.round = view.get("round", 0)
            self.tracker = SpyTracker(self.window)  # type: ignore[arg-type]
            return
        event = message.get("event") or {}
        if event.get("type") == "move" and event.get("seat") == self.seat:
            move = str(event["move"])
            text = move if move[:1].isdigit() else f"{self.seat} {move}"
            self.tracker.moved(text_to_action(text) - self.seat * ACTIONS_PER_PLAYER)

    def info(self) -> SpyInfo:
        """The seat's information set now."""
        assert self.state is not None
        assert self.tracker is not None
        legal = [text_to_action(m) for m in self.state["legal_moves"]]
        return self.tracker.info(sorted(legal))
