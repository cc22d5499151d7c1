"""Take-over points for the bots' property tests (issue 12, item 3).

A *walk* is a match played through the Match API (``find_game(g).new_match``,
``match.apply``) by random legal moves of any seat, each move logged with the events it
showed. At any point of a walk a bot may take a seat: :func:`take_over` asks
``match.bot_info(seat)`` and the bot, checks the move is legal and makes it through
``match.apply``, and — when asked — builds a second match whose cards hidden from that
seat are reshuffled consistently with everything the seat saw, replays the same moves
on it and checks the seat's information set and the bot's decision are unchanged.

What a seat saw is the stream of events the table showed it (``MatchEvent.seen_by``):
a reshuffle is consistent when the replayed match shows the seat exactly the same
events after every move (Spy: and the same deal at every round's start).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.bots.seat import SeatBot
from cardtable.cards import NUM_KINDS
from cardtable.games.base import MatchEvent
from cardtable.games.candidate.match import CandidateMatch
from cardtable.games.candidate.state import CandidateState
from cardtable.games.registry import find_game
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    OPEN_POINTS,
    PLACE_POINTS,
    PLACE_WASTE,
    RESIGN,
    TURN,
)
from cardtable.games.spy.deal import POINTS_PILE_SIZE, SQUARE
from cardtable.games.spy.info import SpyInfo
from cardtable.games.spy.match import SpyMatch
from cardtable.games.spy.state import BETWEEN_ROUNDS, SpyState

Cards = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Played:
    """One move of a walk and the events it showed."""

    seat: int
    action: int
    events: tuple[MatchEvent, ...]


def seen(events: Sequence[MatchEvent], seat: int) -> list[Any]:
    """The events as ``seat`` saw them."""
    return [event.seen_by(seat) for event in events]


@dataclass
class Walk:
    """A match played through the Match API, every move logged (module docstring).

    ``passes[s]`` counts how often seat ``s`` turned its waste over as a new racing
    deck in the Spy round in play (S9); the referee reads the true position for it.
    """

    match: Any
    log: list[Played] = field(default_factory=list)
    #: Spy: the round-1 deal as every seat saw it (the seeded match deals it at once).
    opening: tuple[MatchEvent, ...] = ()
    passes: list[int] = field(default_factory=list)

    @classmethod
    def spy(
        cls,
        *,
        seed: int,
        players: int,
        options: dict[str, Any],
        move_limit: int | None = None,
    ) -> Walk:
        names = [f"P{i}" for i in range(players)]
        if move_limit is None:
            match = find_game("spy").new_match(seed=seed, players=names, options=options)
        else:  # an engine setting, not an option: made by the match class itself
            match = SpyMatch.new(seed=seed, players=names, options=options, move_limit=move_limit)
        assert isinstance(match, SpyMatch)
        opening = tuple(MatchEvent(e.to_dict()) for e in match.state.deal_events())
        return cls(match, opening=opening, passes=[0] * players)

    @classmethod
    def candidate(cls, *, seed: int, options: dict[str, Any]) -> Walk:
        return cls(find_game("candidate").new_match(seed=seed, players=["A", "B"], options=options))

    def apply(self, seat: int, action: int) -> None:
        """Make ``seat``'s move through the Match API and log it."""
        match = self.match
        spy = isinstance(match, SpyMatch)
        if spy:
            round_before = match.state.round_number
            position = match.state.position(seat)
            if action - seat * ACTIONS_PER_PLAYER == TURN and not position.deck:
                self.passes[seat] += 1
        applied = match.apply(seat, action)
        assert applied.action == action
        assert applied.seat == seat
        self.log.append(Played(seat, action, applied.events))
        if spy and match.state.round_number != round_before:
            self.passes = [0] * match.seats


# ---------------------------------------------------------------------------- Spy

#: How a seat is played before a bot takes it: mostly turning (many passes through the
#: recycled waste, S9), uniformly random, or by the greedy rule (which calls, so rounds
#: end and later rounds come).
SPY_STYLES = ("turner", "turner", "turner", "random", "greedy")


def spy_random_move(walk: Walk, rng: random.Random, styles: Sequence[str]) -> bool:
    """One move of a random seat that may move, in its style; False when none may."""
    match: SpyMatch = walk.match
    seats = [s for s in range(match.seats) if match.legal_actions(s)]
    if not seats:
        return False
    seat = rng.choice(seats)
    legal = match.legal_actions(seat)
    base = seat * ACTIONS_PER_PLAYER
    style = styles[seat]
    if style == "greedy":
        action = SeatBot.make("spy", "easy", seed=0, seat=seat).choose(match)
    elif style == "turner" and base + TURN in legal and rng.random() < 0.93:
        action = base + TURN
    else:
        others = [a for a in legal if a != base + RESIGN]
        action = rng.choice(others) if others and rng.random() > 0.003 else base + RESIGN
    walk.apply(seat, action)
    return True


def spy_hidden_slots(cards: Sequence[int], moves: Sequence[int]) -> tuple[list[int], list[int]]:
    """Which of a player's cards (indices into ``cards``, top first as dealt) nobody has
    seen after the player's local ``moves``: the points pile under its top (S4) and the
    racing deck not yet turned (S5; all of it has been seen once it ran out)."""
    placed = sum(1 for m in moves if PLACE_POINTS <= m < PLACE_WASTE or m == OPEN_POINTS)
    turns = sum(1 for m in moves if m == TURN)
    points = list(range(placed + 1, POINTS_PILE_SIZE))
    deck = list(range(POINTS_PILE_SIZE + SQUARE + turns, len(cards)))
    return points, deck


def spy_reshuffled_cards(state: SpyState, rng: random.Random, *, wide: bool) -> list[Cards]:
    """Every round's cards with the cards nobody has seen reshuffled.

    ``wide``: all of a player's unseen cards are mixed together, and with a shared deck
    (two players, S2) both players' unseen cards too; this may change whether a player
    is blocked (S12 counts the racing deck), which every seat sees. Otherwise the cards
    under each points-pile top are mixed among themselves and so are each unseen racing
    deck's: nothing anyone sees can change.
    """
    shared = state.num_players == 2 and not state.options.full_decks
    rounds = []
    for cards, actions in state.played_rounds():
        new = [list(hand) for hand in cards]
        pools: list[list[tuple[int, int]]] = []
        for p, hand in enumerate(cards):
            base = p * ACTIONS_PER_PLAYER
            moves = [a - base for a in actions if base <= a < base + ACTIONS_PER_PLAYER]
            points, deck = spy_hidden_slots(hand, moves)
            if wide:
                pools.append([(p, i) for i in points + deck])
            else:
                pools += [[(p, i) for i in points], [(p, i) for i in deck]]
        if wide and shared:
            pools = [pools[0] + pools[1]]
        for pool in pools:
            kinds = [cards[p][i] for p, i in pool]
            rng.shuffle(kinds)
            for (p, i), kind in zip(pool, kinds, strict=True):
                new[p][i] = kind
        rounds.append(tuple(tuple(hand) for hand in new))
    return rounds


def spy_replay(walk: Walk, rounds: Sequence[Cards], seat: int) -> SpyMatch | None:
    """The walk's moves replayed through the Match API on ``rounds``' cards; None as
    soon as ``seat`` would have seen anything else than in the walk."""
    original: SpyMatch = walk.match
    state = SpyState.from_cards(
        original.players,
        rounds[0],
        options=original.state.options,
        move_limit=original.state.move_limit,
    )
    match = SpyMatch(state)
    if seen(_deal(state), seat) != seen(walk.opening, seat):
        return None
    dealt = 0
    for played in walk.log:
        events = list(match.apply(played.seat, played.action).events)
        if state.phase == BETWEEN_ROUNDS:  # a match from cards waits for the next deal
            dealt += 1
            state.start_round(rounds[dealt])
            events += _deal(state)
        if seen(events, seat) != seen(played.events, seat):
            return None
    return match


def _deal(state: SpyState) -> list[MatchEvent]:
    return [MatchEvent(e.to_dict()) for e in state.deal_events()]


def spy_reshuffle(walk: Walk, seat: int, rng: random.Random) -> tuple[SpyMatch, bool]:
    """A second match at the walk's point whose hidden cards differ consistently with
    everything ``seat`` saw; the flag says whether the seat's own cards in the round in
    play changed."""
    state: SpyState = walk.match.state
    match = spy_replay(walk, spy_reshuffled_cards(state, rng, wide=True), seat)
    if match is None:  # a block (S12) came or went: mix only within each hidden stack
        match = spy_replay(walk, spy_reshuffled_cards(state, rng, wide=False), seat)
        assert match is not None, "a reshuffle within hidden stacks shows nothing new"
    changed = match.state.round_cards()[seat] != state.round_cards()[seat]
    return match, changed


# ---------------------------------------------------------------------------- Candidate


def candidate_random_move(walk: Walk, rng: random.Random, styles: Sequence[str]) -> bool:
    """One move of the seat to decide, in its style; False once the match is over."""
    match: CandidateMatch = walk.match
    seat = match.to_move()
    if seat is None:
        return False
    if styles[seat] == "greedy":
        action = SeatBot.make("candidate", "easy", seed=0, seat=seat).choose(match)
    else:
        action = rng.choice(match.legal_actions(seat))
    walk.apply(seat, action)
    return True


def candidate_replay(walk: Walk, current: Sequence[Sequence[int]], seat: int) -> CandidateMatch:
    """The walk's moves replayed through the Match API with the deal in play dealt
    from ``current`` (finished deals as they were); it must show ``seat`` the same
    events after every move."""
    original: CandidateMatch = walk.match
    state0 = original.state
    piles = [d.piles for d in state0.history]
    if not state0.is_terminal():
        piles.append(tuple(tuple(pile) for pile in current))
    first_dealer = state0.history[0].dealer if state0.history else state0.dealer
    state = CandidateState.from_piles(piles[0], first_dealer, state0.options, seed=state0.seed)
    match = CandidateMatch(state, original.players)
    dealt = 0  # the deal whose piles are set
    for number, played in enumerate(walk.log):
        events = match.apply(played.seat, played.action).events
        if not state.is_terminal() and state.deal_number - 1 > dealt:
            dealt = state.deal_number - 1  # a new deal, dealt from the seed: set its piles
            state.set_deal_piles(piles[dealt])
        assert seen(events, seat) == seen(played.events, seat), (number, played)
    return match


def candidate_reshuffle(walk: Walk, seat: int, rng: random.Random) -> tuple[CandidateMatch, bool]:
    """A second match at the walk's point whose cards hidden from ``seat`` (the other
    hand, the piles' order) are dealt anew by ``CandidateState.resample_hidden``; the
    flag says whether they differ from the walk's."""
    state: CandidateState = walk.match.state
    match = candidate_replay(walk, state.resample_hidden(seat, rng).piles, seat)

    def hidden(state: CandidateState) -> object:
        return state.hand(1 - seat), [state.pile(suit) for suit in range(4)]

    return match, hidden(match.state) != hidden(state)


# ---------------------------------------------------------------------------- take-over


def take_over(
    walk: Walk,
    seat: int,
    bot: SeatBot,
    rng: random.Random,
    *,
    reshuffle: bool,
    tally: Counter[str],
) -> bool:
    """A bot takes ``seat`` now: it decides from ``match.bot_info(seat)``, its move is
    legal and is made through ``match.apply``; with ``reshuffle`` the decision must be
    the same in a match whose hidden cards differ (module docstring). False when the
    seat has no move to make (its information set is still checked)."""
    match = walk.match
    legal = match.legal_actions(seat)
    info = match.bot_info(seat)
    assert info.player == seat
    assert tuple(info.legal) == tuple(legal)
    if isinstance(match, SpyMatch):
        assert info == expected_spy_info(match, seat)
    if not legal:
        tally["no move"] += 1
        return False
    choice = bot.think(info)
    assert choice in legal
    tally["points"] += 1
    if reshuffle:
        if isinstance(match, SpyMatch):
            other, changed = spy_reshuffle(walk, seat, rng)
            other_info = other.bot_info(seat)
            assert other_info == info
        else:
            other, changed = candidate_reshuffle(walk, seat, rng)
            other_info = other.bot_info(seat)
            assert other_info.key == info.key
            assert other_info.view == info.view
        assert bot.think(other_info) == choice
        tally["reshuffled"] += 1
        tally["hidden cards changed"] += changed
    walk.apply(seat, choice)
    return True


def expected_spy_info(match: SpyMatch, seat: int) -> SpyInfo:
    """What ``seat`` knows now, read by the referee from the TRUE position and the
    round's log, independently of the engine's tracker: every card it turned is known in
    order (S9: the whole waste), the racing deck once it has been turned over, the
    points-pile top (S4); unseen are the kinds never face-up at this seat."""
    state = match.state
    position = state.position(seat)
    base = seat * ACTIONS_PER_PLAYER
    moves = [a - base for a in state.moves() if base <= a < base + ACTIONS_PER_PLAYER]
    deck_size = len(state.round_cards()[seat]) - POINTS_PILE_SIZE - SQUARE
    known_deck = moves.count(TURN) > deck_size  # a turn with the deck run out turns it over
    idle = 0
    for move in reversed(moves):
        if move != TURN:
            break
        idle += 1
    faceup = {kind for pile in position.piles for kind in pile} | set(position.waste)
    if position.points:
        faceup.add(position.points[-1])
    if known_deck:
        faceup |= set(position.deck)
    return SpyInfo(
        player=seat,
        points_top=position.points[-1] if position.points else None,
        points_count=len(position.points),
        tops=tuple(pile[-1] for pile in position.piles),
        waste=tuple(position.waste),
        deck=tuple(position.deck) if known_deck else None,
        deck_count=len(position.deck),
        unseen=tuple(sorted(set(range(NUM_KINDS)) - faceup)),
        legal=tuple(state.legal_actions(seat)),
        blocked=position.blocked,
        idle=idle,
        pile_sizes=tuple(len(pile) for pile in position.piles),
        moves=position.moves,
        resigned=position.resigned,
        called=position.called,
    )
