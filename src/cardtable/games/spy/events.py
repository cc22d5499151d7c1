"""What a move (or a round's start and end) shows the table.

Every Spy vs Spy event is public: a turned card lands face-up on the waste (S9), a
placed card face-up on a pile, the points pile's new top is face-up (S4). No event
carries the racing deck's order or a points-pile card under the top (S4-S5), so
``visible_to`` is always ``None`` ("everyone"); the field exists so that every
consumer of events (server, terminal, logs) can filter them the same way for every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.cards import KIND_TEXT

__all__ = ["Event"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, with only face-up information.

    ``type`` (what happened; written as the JSON key ``"type"``) is one of:

    - ``"deal"``: a round starts; ``player``'s piles 1-4 (``cards``) and points-pile
      top (``card``) are face-up (S3, S4).
    - ``"turn"``: ``player`` turned ``card`` onto the waste (S9); ``recycled`` when the
      waste was first flipped back as the racing deck.
    - ``"place"``: ``player`` put ``card`` from ``source`` (``"points"``/``"waste"``) on
      pile ``pile`` (1-6) (S6-S7).
    - ``"open"``: ``player`` opened pile ``pile`` with ``card`` from ``source`` (S8).
    - ``"reveal"``: ``player``'s points pile shows its new top ``card`` (S4).
    - ``"call"``: ``player`` called "finished" (S10).
    - ``"resign"``: ``player`` resigned the round (S13).
    - ``"blocked"``: ``player`` can never move a card again (S12).
    - ``"round_end"``: round ``round`` ended; ``player`` is the first caller or None;
      ``scores`` are the round's scores (S14-S15).
    - ``"match_end"``: the match is over; ``scores`` are the totals, ``winners`` the
      players with the lowest total (S16).
    """

    type: str
    player: int | None = None
    card: int | None = None
    source: str | None = None
    pile: int | None = None
    cards: tuple[int, ...] | None = None
    recycled: bool = False
    round: int | None = None
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    visible_to: tuple[int, ...] | None = None

    def seen_by(self, viewer: int | None) -> Event:
        """The event as ``viewer`` may see it: itself, since every Spy event is public."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with cards as text; fields that do not apply are left out."""
        out: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            out["player"] = self.player
        if self.card is not None:
            out["card"] = KIND_TEXT[self.card]
        if self.source is not None:
            out["source"] = self.source
        if self.pile is not None:
            out["pile"] = self.pile
        if self.cards is not None:
            out["cards"] = [KIND_TEXT[k] for k in self.cards]
        if self.recycled:
            out["recycled"] = True
        if self.round is not None:
            out["round"] = self.round
        if self.scores is not None:
            out["scores"] = list(self.scores)
        if self.winners is not None:
            out["winners"] = list(self.winners)
        return out
