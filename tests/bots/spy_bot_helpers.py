"""Shared checks for Spy bots: a bot must decide from its seat's information set only."""

from __future__ import annotations

import random
from typing import Protocol

from cardtable.games.spy.actions import CALL
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.info import SpyInfo, SpyTracker
from cardtable.games.spy.position import Position
from cardtable.games.spy.views import SeatWindow


def seat_at_deal(seed: int) -> tuple[Position, SpyTracker]:
    """Seat 0 of two-player deal ``seed`` as dealt, and its tracker."""
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    pos = Position.deal(0, cards[0])
    return pos, SpyTracker(SeatWindow(pos))


class ChoosingBot(Protocol):
    def choose(self, info: SpyInfo) -> int: ...


def assert_blind_to_hidden_cards(bot: ChoosingBot, seed: int, steps: int = 8) -> None:
    """Play ``steps`` moves of seat 0 of deal ``seed``; before each, reshuffle the cards
    hidden from the owner (S4-S5: under the points-pile top, and the racing deck until
    the waste has been turned over) and check that neither the seat's information nor
    the bot's decision changes."""
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    pos = Position.deal(0, cards[0])
    tracker = SpyTracker(SeatWindow(pos))
    rng = random.Random(seed)
    for step in range(steps):
        info = tracker.info(pos.legal)
        if info.blocked or CALL in info.locals:
            break
        choice = bot.choose(info)
        deck_known = info.deck is not None
        hidden = pos.points[:-1] + ([] if deck_known else pos.deck)
        rng.shuffle(hidden)
        under = len(pos.points) - 1
        pos.points[:-1] = hidden[:under]
        if not deck_known:
            pos.deck[:] = hidden[under:]
        pos.counts = None  # the per-rank counts of deck + waste are rebuilt when needed
        assert tracker.info(pos.legal) == info, step
        assert bot.choose(info) == choice, step
        local = choice - pos.base
        pos.play(local)
        tracker.moved(local)
