"""What happens on each move, and who may see it.

:meth:`CandidateState.apply` returns the events of the move it made. Most events are
public; the cards of a hand dealt or a card drawn are secret to the player who got them:
:meth:`Event.seen_by` gives everyone else the same event without the cards ("Bob drew
from pile C").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardtable.cards import KIND_TEXT

__all__ = ["EVENT_TYPES", "Event"]

#: Every event type, in the order they can happen in a deal.
EVENT_TYPES = (
    "dealt",  # C4: the dealer dealt the hands from `pile`
    "received",  # C4: `player` received `cards` (secret to them)
    "lobby_turned",  # C5, C11: `player` turned `cards[0]` from `pile` onto the lobby
    "played",  # C6, C7, C12: `player` played `cards`
    "passed",  # C8, C12
    "trick_taken",  # C9, C15: `player` took `cards` and scored `score`
    "lobby_discarded",  # C9: nobody played onto `cards[0]`; it is discarded
    "drew",  # C10: `player` drew `cards[0]` from `pile` (the card is secret to them)
    "deal_ended",  # C13: `scores` are the deal's scores, `totals` the match's so far
    "match_ended",  # C17: `totals` and `winners`
)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. Cards are kinds (0..51); ``texts`` gives them as text.

    ``secret_to`` is the only player who may see ``cards`` (None: everyone may).
    """

    type: str
    player: int | None = None
    pile: str | None = None
    cards: tuple[int, ...] = ()
    score: int | None = None
    scores: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    secret_to: int | None = None

    @property
    def texts(self) -> tuple[str, ...]:
        """The cards as plain text (``QS``)."""
        return tuple(KIND_TEXT[k] for k in self.cards)

    def seen_by(self, viewer: int | None) -> Event:
        """This event as ``viewer`` may see it (None: a spectator): secret cards removed.

        >>> Event("drew", 1, "C", (40,), secret_to=1).seen_by(0)
        Event(type='drew', player=1, pile='C', cards=(), score=None, scores=None, \
totals=None, winners=None, secret_to=1)
        """
        if self.secret_to is None or self.secret_to == viewer:
            return self
        return replace(self, cards=())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; fields that do not apply are left out."""
        data: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            data["player"] = self.player
        if self.pile is not None:
            data["pile"] = self.pile
        if self.cards or self.type in ("drew", "received"):
            data["cards"] = list(self.texts)
        for key in ("score", "scores", "totals", "winners", "secret_to"):
            value = getattr(self, key)
            if value is not None:
                data[key] = list(value) if isinstance(value, tuple) else value
        return data
