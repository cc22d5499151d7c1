"""What a Spy player knows, and a player's race run alone.

A Spy player sees their own public position (S4-S5: the points-pile top, the piles,
the racing deck's size, the waste) and remembers the public history: every card they
turned was shown face-up, so the whole waste is known in order, and once the waste has
been turned over (S9) the racing deck is the old waste, known too. :class:`SpyTracker`
keeps that memory from public facts only; :class:`SpyInfo` is what a bot is given.
Nothing here reads a hidden card.

>>> from cardtable.games.spy.deal import deal_cards
>>> from cardtable.bots.spy_greedy import GreedyBot
>>> cards = deal_cards(seed=3, round_number=1, players=2, full_decks=False)
>>> race = solo_race(GreedyBot(seed=0), Position.deal(0, cards[0]))
>>> race.called, race.moves == len(race.actions)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    CALL,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_POINTS,
    PLACE_WASTE,
    RESIGN,
    TURN,
    action_to_text,
)
from cardtable.games.spy.info import SpyInfo, SpyTracker
from cardtable.games.spy.position import Position
from cardtable.games.spy.views import SeatWindow

__all__ = ["PREFERENCE", "BotPolicy", "SoloRace", "SpyBot", "solo_race"]


class BotPolicy:
    """A Spy bot as a race policy (:class:`cardtable.games.spy.race.Policy`): it keeps
    a :class:`SpyTracker` for its seat and asks the bot for every move."""

    def __init__(self, bot: SpyBot) -> None:
        self.bot = bot
        self._tracker: SpyTracker | None = None
        self._last: int | None = None

    def start_round(self, window: SeatWindow, rng: random.Random) -> None:
        """A new round: forget the last one (the bot seeds itself)."""
        self._tracker = SpyTracker(window)
        self._last = None

    def choose(self, window: SeatWindow, legal: Sequence[int]) -> int:
        """The bot's move; the tracker first learns what the previous move showed."""
        tracker = self._tracker
        assert tracker is not None, "start_round comes first"
        if self._last is not None:
            tracker.moved(self._last)
        action = self.bot.choose(tracker.info(legal))
        self._last = action % ACTIONS_PER_PLAYER
        return action


class SpyBot(Protocol):
    """A Spy bot: chooses a move from an information set."""

    name: str

    def choose(self, info: SpyInfo) -> int: ...


@dataclass(frozen=True, slots=True)
class SoloRace:
    """One player's race played alone: the moves made and whether it reached the call."""

    actions: tuple[int, ...]
    called: bool
    blocked: bool

    @property
    def moves(self) -> int:
        """Moves made (the call included)."""
        return len(self.actions)


def solo_race(bot: SpyBot, position: Position, move_limit: int = 500) -> SoloRace:
    """Let ``bot`` race ``position`` (left unchanged) alone until it calls, resigns,
    is blocked or reaches ``move_limit`` moves (then it resigns, S13)."""
    pos = position.copy()
    pos.limit = move_limit
    pos.refresh()
    tracker = SpyTracker(SeatWindow(pos))
    actions: list[int] = []
    base = pos.base
    while pos.legal:
        action = bot.choose(tracker.info(pos.legal))
        if action not in pos.legal:
            raise AssertionError(f"{bot.name} chose an illegal move {action_to_text(action)!r}")
        local = action - base
        actions.append(action)
        pos.play(local)
        if local in (CALL, RESIGN):
            break
        tracker.moved(local)
    return SoloRace(tuple(actions), pos.called, pos.blocked)


#: Local moves by the order a tie between equally good moves is broken in.
PREFERENCE: tuple[int, ...] = (
    CALL,
    *range(PLACE_POINTS, PLACE_POINTS + 6),
    OPEN_POINTS,
    *range(PLACE_WASTE, PLACE_WASTE + 6),
    TURN,
    OPEN_WASTE,
    RESIGN,
)
