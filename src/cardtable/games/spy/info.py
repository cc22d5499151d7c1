"""What a Spy player knows: their public position and what they remember of it.

A Spy player sees their own public position (S4-S5 in ``docs/rules/spy.en.md``: the
points-pile top, the piles, the racing deck's size, the waste) and remembers the public
history: every card they turned was shown face-up, so the whole waste is known in order,
and once the waste has been turned over (S9) the racing deck is the old waste, known too.
:class:`SpyTracker` keeps that memory from public facts only; :class:`SpyInfo` is the
information set a bot is given (:meth:`cardtable.games.spy.match.SpyMatch.bot_info`).
Nothing here reads a hidden card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.cards import NUM_KINDS
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_WASTE,
    TURN,
    action_to_text,
)
from cardtable.games.spy.position import Position
from cardtable.games.spy.views import SeatWindow

__all__ = ["SpyInfo", "SpyTracker"]


@dataclass(frozen=True, slots=True)
class SpyInfo:
    """One player's information set: their public position plus what they remember.

    Cards are kinds (0..51); stacks list their top **last**, as the engine does.
    ``deck`` is the racing deck when the player knows it (after the waste was turned
    over once), else None; ``unseen`` are the card kinds this player has not seen
    anywhere, from which their hidden cards (points pile under the top, an unknown
    racing deck) come. ``legal`` are the player's legal action ids, sorted.

    ``pile_sizes``, ``moves``, ``resigned`` and ``called`` are public facts of the seat
    (S4, S10, S13: every player sees them at every seat), so with them the information
    set holds all of the seat's public view:
    :func:`cardtable.games.spy.encoding.encode_info` encodes it exactly as the seat's
    :class:`~cardtable.games.spy.views.SeatView`. They default to "nothing known" so
    that information sets built by hand for one decision need not name them.
    """

    player: int
    points_top: int | None
    points_count: int
    tops: tuple[int, ...]
    waste: tuple[int, ...]
    deck: tuple[int, ...] | None
    deck_count: int
    unseen: tuple[int, ...]
    legal: tuple[int, ...]
    blocked: bool
    #: Turns in a row since the player last placed or opened a card.
    idle: int = 0
    #: Cards in each pile, pile 1 first (S4; empty: not given).
    pile_sizes: tuple[int, ...] = ()
    #: Moves the player made this round.
    moves: int = 0
    #: S13: the player resigned the round.
    resigned: bool = False
    #: S10: the player called "finished".
    called: bool = False

    @property
    def stalled(self) -> bool:
        """A whole pass of the deck and waste went by without a card placed."""
        return self.idle > self.deck_count + len(self.waste)

    @property
    def key(self) -> str:
        """A string naming this information set (it seeds a bot's decision)."""
        return (
            f"spy/{self.player}/{self.points_top}/{self.points_count}/{self.tops}/"
            f"{self.waste}/{self.deck}/{self.deck_count}/{self.unseen}/{self.legal}/{self.idle}"
        )

    @property
    def locals(self) -> list[int]:
        """The legal moves as local ids (0..16)."""
        base = self.player * ACTIONS_PER_PLAYER
        return [a - base for a in self.legal]

    def action(self, local: int) -> int:
        """The action id of a local move of this player."""
        return self.player * ACTIONS_PER_PLAYER + local

    def text(self, action: int) -> str:
        """A move's record text."""
        return action_to_text(action)

    def sample_world(self, rng: random.Random) -> Position:
        """A full position consistent with everything this player knows: the hidden
        cards drawn uniformly from :attr:`unseen` (a determinisation)."""
        hidden_points = self.points_count - 1 if self.points_count else 0
        hidden_deck = 0 if self.deck is not None else self.deck_count
        drawn = rng.sample(self.unseen, hidden_points + hidden_deck)
        points = [] if self.points_top is None else [self.points_top, *drawn[:hidden_points]]
        deck = list(reversed(self.deck)) if self.deck is not None else drawn[hidden_points:]
        return Position.from_parts(
            self.player,
            points=points,
            piles=[[top] for top in self.tops],
            deck=deck,
            waste=list(reversed(self.waste)),
        )


class SpyTracker:
    """Follows one player's race from public facts and builds their :class:`SpyInfo`.

    It reads the player's seat only through the engine's public
    :class:`~cardtable.games.spy.views.SeatWindow` (pile tops, the points-pile top, the
    waste top, the sizes of the stacks, S4-S5). Call :meth:`moved` after each of the
    player's own moves: a turned card lands face-up on the waste, so it is remembered.
    """

    __slots__ = ("_deck", "_deck_count", "_idle", "_player", "_waste", "_window", "seen")

    def __init__(self, window: SeatWindow, shared: Sequence[int] = ()) -> None:
        self._window = window
        self._player = window.player
        self._waste: list[int] = []
        if window.waste_top is not None:  # a fresh round has an empty waste
            self._waste.append(window.waste_top)
        self._deck: list[int] | None = None
        self._deck_count = window.deck_count
        self._idle = 0
        #: Kinds known not to be hidden in this seat (seen face-up here, or cards of a
        #: shared deck seen face-up at another player's place).
        self.seen: set[int] = set(shared)
        self._see_public()

    def _see_public(self) -> None:
        window = self._window
        seen = self.seen
        seen.update(window.pile_tops)
        if window.points_top is not None:
            seen.add(window.points_top)  # S4: the top is face-up
        seen.update(self._waste)

    def moved(self, local: int) -> None:
        """Update after this player's move ``local``, reading the public result."""
        self._idle = self._idle + 1 if local == TURN else 0
        if local == TURN:
            if self._deck_count == 0:  # S9: the waste turned over is the new deck
                self._deck = list(reversed(self._waste))
                self._waste = []
                self._deck_count = len(self._deck)
            self._deck_count -= 1
            if self._deck is not None:
                self._deck.pop()
            top = self._window.waste_top
            assert top is not None  # the turned card is face-up on the waste
            self._waste.append(top)
        elif PLACE_WASTE <= local < OPEN_POINTS or local == OPEN_WASTE:
            self._waste.pop()
        self._see_public()

    def info(self, legal: Sequence[int]) -> SpyInfo:
        """The information set now, given the player's legal moves."""
        window = self._window
        hidden = set(range(NUM_KINDS)) - self.seen
        return SpyInfo(
            player=self._player,
            points_top=window.points_top,
            points_count=window.points_count,
            tops=window.pile_tops,
            waste=tuple(self._waste),
            deck=None if self._deck is None else tuple(self._deck),
            deck_count=self._deck_count,
            unseen=tuple(sorted(hidden)),
            legal=tuple(legal),
            blocked=window.blocked,
            idle=self._idle,
            pile_sizes=window.pile_sizes,
            moves=window.moves,
            resigned=window.resigned,
            called=window.called,
        )
