"""A bot can take any seat at any moment and decides from exactly what that seat may
know then (issue 12, item 3; ``docs/bots.md``).

Take-over points come from random matches played through the Match API
(:mod:`takeover_helpers`): random legal moves of any seat, Spy seats that turn through
the recycled waste again and again (S9), later rounds and deals, 2-8 players, several
option sets and the move limit. At each point the level's bot decides from
``match.bot_info(seat)``: no exception, a legal move, made through ``match.apply``; the
Spy information set equals the one a referee reads off the true position (every card
the seat turned, the deck once turned over, S4-S5, S9); and at the points marked for it
the decision is unchanged in a second match whose cards hidden from the seat are
reshuffled (Spy: under the points-pile tops, the unseen racing decks and other seats'
unseen cards, S4-S5; Candidate: the other hand and the piles, C3-C10) and which reached
the same point with the same moves, showing the seat the same events.

Take-over points per game and level, each sweep exactly these (one core, about 40 s
for the whole file; the hard levels think about 0.1-0.2 s a move):

============  ======  =============  ======  ==========  ===================
game          level   bot            points  reshuffled  matches (seeds 0-…)
============  ======  =============  ======  ==========  ===================
spy           easy    greedy         4,000   2,067       280
spy           medium  planner:4      200     106         34
spy           hard    model          40      40          17
candidate     easy    greedy         4,000   2,014       122
candidate     medium  ismcts:200     300     151         31
candidate     hard    ismcts:2000    40      40          10
============  ======  =============  ======  ==========  ===================

8,580 points in all. Besides, the hypothesis properties (40 Spy and 40 Candidate
points, every one reshuffled, the level drawn too) and the reported case: a Spy seat
turned through its deck three times, then a bot of each level takes it (60 seeds each,
12 moves by ``easy``, 3 by ``medium`` and ``hard``, each checked against the referee).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from takeover_helpers import (
    SPY_STYLES,
    Walk,
    candidate_random_move,
    expected_spy_info,
    spy_random_move,
    take_over,
)

from cardtable.bots.registry import LEVELS
from cardtable.bots.seat import SeatBot
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_POINTS,
    PLACE_WASTE,
    TURN,
)
from cardtable.games.spy.info import SpyTracker
from cardtable.games.spy.match import SpyMatch
from cardtable.games.spy.state import SpyState
from cardtable.games.spy.views import SeatWindow

#: Table sizes (S1): two players most often (the shared deck, S2), every size up to 8.
SPY_PLAYERS = (2, 2, 2, 3, 4, 5, 6, 7, 8)
#: Option sets (S2, S15, S16).
SPY_OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"full_decks": True},
    {"rounds": 2},
    {"rounds": 3, "count_points_pile": True},
    {"rounds": 2, "bonus": 7, "full_decks": True},
)
#: Option sets (C1, C17).
CANDIDATE_OPTIONS: tuple[dict[str, Any], ...] = (
    {"deals": 1},
    {"deals": 2},
    {"deals": 1, "decks": 2},
    {"deals": 2, "decks": 3},
    {"deals": 3},
)


@dataclass(frozen=True)
class Sweep:
    """A sweep of take-over points: ``points`` in all, at most ``per_match`` in one
    match, a reshuffle checked at every ``reshuffle_every``-th point of a match."""

    points: int
    per_match: int
    reshuffle_every: int


SPY_SWEEPS = {
    "easy": Sweep(points=4000, per_match=40, reshuffle_every=2),
    "medium": Sweep(points=200, per_match=10, reshuffle_every=2),
    "hard": Sweep(points=40, per_match=3, reshuffle_every=1),
}
CANDIDATE_SWEEPS = {
    "easy": Sweep(points=4000, per_match=40, reshuffle_every=2),
    "medium": Sweep(points=300, per_match=10, reshuffle_every=2),
    "hard": Sweep(points=40, per_match=4, reshuffle_every=1),
}


def _sweep(game: str, level: str, sweep: Sweep) -> Counter[str]:
    """Matches from seeds 0, 1, … until ``sweep.points`` take-over points were made."""
    tally: Counter[str] = Counter()
    play = _spy_match if game == "spy" else _candidate_match
    seed = 0
    while tally["points"] < sweep.points:
        play(level, seed, min(sweep.per_match, sweep.points - tally["points"]), sweep, tally)
        seed += 1
    assert tally["points"] == sweep.points
    tally["matches"] = seed
    return tally


def _spy_match(level: str, seed: int, points: int, sweep: Sweep, tally: Counter[str]) -> None:
    rng = random.Random(f"spy/{level}/{seed}")
    # Every table size and option set comes round (9 and 5 are coprime), and now and
    # then the move limit (which leaves a stalled player only "resign", S13).
    players = SPY_PLAYERS[seed % len(SPY_PLAYERS)]
    options = SPY_OPTIONS[seed % len(SPY_OPTIONS)]
    move_limit = rng.choice((60, 400)) if seed % 7 == 6 else None
    styles = [rng.choice(SPY_STYLES) for _ in range(players)]
    gap = rng.choice((3, 20, 80, 250))
    walk = Walk.spy(seed=seed, players=players, options=options, move_limit=move_limit)
    match: SpyMatch = walk.match
    spec = LEVELS["spy"][level]
    deep = seed % players
    if seed % 3 == 1:  # a seat deep into its recycled waste: three passes or more (S9)
        turn = deep * ACTIONS_PER_PLAYER + TURN
        while walk.passes[deep] < 3 + seed % 4 and turn in match.legal_actions(deep):
            walk.apply(deep, turn)
    elif seed % 3 == 2:  # a later round: the greedy rule calls (S10)
        for _ in range(5000):
            if match.segment() > 1:
                break
            assert spy_random_move(walk, rng, ["greedy"] * players)
    made = 0
    for number in range(points * 3):  # a seat may have no move: resigned or called
        if made == points:
            break
        if number:
            for _ in range(rng.randint(0, gap)):
                if not spy_random_move(walk, rng, styles):
                    break
        if match.is_terminal():
            break
        if number == 0:
            seat = deep
        elif rng.random() < 0.5:  # the seat that went round its stock most often
            seat = max(range(players), key=walk.passes.__getitem__)
        else:
            seat = rng.randrange(players)
        passes = walk.passes[seat]
        later_round = match.segment() > 1
        limited = move_limit is not None
        bot = SeatBot(spec, seed, seat)
        reshuffle = made % sweep.reshuffle_every == 0
        if take_over(walk, seat, bot, rng, reshuffle=reshuffle, tally=tally):
            made += 1
            tally[f"{players} players"] += 1
            tally["3+ passes"] += passes >= 3
            tally["later round"] += later_round
            tally["move limit"] += limited


@pytest.mark.parametrize("level", list(LEVELS["spy"]))
def test_spy_bot_takes_any_seat_at_any_moment_s4_s5_s9(level: str) -> None:
    """S4-S5, S9, S17: Spy take-over points (counts in the module docstring)."""
    sweep = SPY_SWEEPS[level]
    tally = _sweep("spy", level, sweep)
    assert tally["reshuffled"] >= sweep.points // sweep.reshuffle_every - tally["matches"], tally
    # The reshuffles changed the seat's own hidden cards most of the time.
    assert tally["hidden cards changed"] >= tally["reshuffled"] // 2, tally
    # Seats deep into the recycled waste, later rounds, the move limit, every table size.
    assert tally["3+ passes"] >= tally["matches"] // 4, tally
    assert tally["later round"] >= tally["matches"] // 4, tally
    assert tally["move limit"] >= 1, tally
    assert {f"{n} players" for n in range(2, 9)} <= set(tally), tally


def _candidate_match(level: str, seed: int, points: int, sweep: Sweep, tally: Counter[str]) -> None:
    rng = random.Random(f"candidate/{level}/{seed}")
    options = CANDIDATE_OPTIONS[seed % len(CANDIDATE_OPTIONS)]
    styles = [rng.choice(("random", "random", "greedy")) for _ in range(2)]
    gap = rng.choice((1, 6, 30))
    walk = Walk.candidate(seed=seed, options=options)
    match = walk.match
    spec = LEVELS["candidate"][level]
    if seed % 3 == 2 and options["deals"] > 1:  # start in a later deal
        while match.segment() == 1:
            assert candidate_random_move(walk, rng, styles)
    made = 0
    while made < points:
        for _ in range(rng.randint(0, gap)):
            if not candidate_random_move(walk, rng, styles):
                break
        seat = match.to_move()
        if seat is None:
            break
        # The seat not deciding: its information is there, and it has nothing to do.
        assert not take_over(
            walk, 1 - seat, SeatBot(spec, seed, 1 - seat), rng, reshuffle=False, tally=tally
        )
        decision = match.state.decision
        later_deal = match.segment() > 1
        reshuffle = made % sweep.reshuffle_every == 0
        bot = SeatBot(spec, seed, seat)
        assert take_over(walk, seat, bot, rng, reshuffle=reshuffle, tally=tally)
        made += 1
        tally[f"decision {decision}"] += 1
        tally[f"decks {match.state.options.decks}"] += 1
        tally["later deal"] += later_deal


@pytest.mark.parametrize("level", list(LEVELS["candidate"]))
def test_candidate_bot_takes_any_seat_at_any_moment_c4_c10(level: str) -> None:
    """C3-C12: Candidate take-over points (counts in the module docstring)."""
    sweep = CANDIDATE_SWEEPS[level]
    tally = _sweep("candidate", level, sweep)
    assert tally["reshuffled"] >= sweep.points // sweep.reshuffle_every - tally["matches"], tally
    assert tally["hidden cards changed"] >= tally["reshuffled"] // 2, tally
    decisions = {"decision deal", "decision lobby", "decision play", "decision draw"}
    assert decisions <= set(tally), tally
    assert {"decks 1", "decks 2", "decks 3"} <= set(tally), tally
    assert tally["later deal"] >= max(1, tally["matches"] // 5), tally


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 8),
    options=st.sampled_from(SPY_OPTIONS),
    styles=st.lists(st.sampled_from(SPY_STYLES), min_size=8, max_size=8),
    prefix=st.integers(0, 600),
    seat=st.integers(0, 7),
    level=st.sampled_from(["easy", "easy", "easy", "medium", "hard"]),
)
def test_spy_takeover_property_s4_s5(
    seed: int,
    players: int,
    options: dict[str, Any],
    styles: list[str],
    prefix: int,
    seat: int,
    level: str,
) -> None:
    """S4-S5, S9: after any prefix of random moves, a bot of any level takes any seat:
    the information set is the referee's, and reshuffling the hidden cards changes
    neither it nor the decision."""
    rng = random.Random(seed)
    walk = Walk.spy(seed=seed, players=players, options=options)
    for _ in range(prefix):
        if not spy_random_move(walk, rng, styles):
            break
    seat %= players
    bot = SeatBot(LEVELS["spy"][level], seed, seat)
    take_over(walk, seat, bot, rng, reshuffle=True, tally=Counter())


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    options=st.sampled_from(CANDIDATE_OPTIONS),
    styles=st.lists(st.sampled_from(["random", "greedy"]), min_size=2, max_size=2),
    prefix=st.integers(0, 500),
    level=st.sampled_from(["easy", "easy", "easy", "medium", "hard"]),
)
def test_candidate_takeover_property_c4_c10(
    seed: int, options: dict[str, Any], styles: list[str], prefix: int, level: str
) -> None:
    """C3-C12: after any prefix of random moves, a bot of any level takes the seat to
    decide; redealing the cards hidden from it changes neither what it knows nor what
    it decides."""
    rng = random.Random(seed)
    walk = Walk.candidate(seed=seed, options=options)
    for _ in range(prefix):
        if not candidate_random_move(walk, rng, styles):
            break
    seat = walk.match.to_move()
    if seat is None:
        return
    bot = SeatBot(LEVELS["candidate"][level], seed, seat)
    assert take_over(walk, seat, bot, rng, reshuffle=True, tally=Counter())


def _turn_through_deck(walk: Walk, seat: int, rng: random.Random, passes: int) -> None:
    """The seat's person turns (now and then placing or opening with a card, keeping
    the last points card: no call) until the waste has been turned over ``passes`` times
    (S9); the other seats turn now and then."""
    match: SpyMatch = walk.match
    base = seat * ACTIONS_PER_PLAYER
    while walk.passes[seat] < passes:
        legal = match.legal_actions(seat)
        assert legal, "the seat is out of the round before the passes"
        keep_points = len(match.state.position(seat).points) == 1
        waste_moves = {*range(PLACE_WASTE, OPEN_POINTS), OPEN_WASTE}
        points_moves = {*range(PLACE_POINTS, PLACE_WASTE), OPEN_POINTS}
        others = [
            a
            for a in legal
            if a - base in waste_moves or (a - base in points_moves and not keep_points)
        ]
        if base + TURN in legal and (rng.random() < 0.85 or not others):
            walk.apply(seat, base + TURN)
        else:
            walk.apply(seat, rng.choice(others))
        other = rng.randrange(match.seats)
        if other != seat and rng.random() < 0.3:
            legal = match.legal_actions(other)
            if other * ACTIONS_PER_PLAYER + TURN in legal:
                walk.apply(other, other * ACTIONS_PER_PLAYER + TURN)


@pytest.mark.parametrize("level", list(LEVELS["spy"]))
def test_spy_bot_takes_a_seat_turned_through_its_deck_three_times_s9(level: str) -> None:
    """Issue 12: a bot that took a Spy seat after its person turned the deck three times
    started from a picture built at that moment (the waste it had turned was unknown)
    and crashed on 9 of 60 seeds (``IndexError: pop from empty list``). Now the bot
    decides from ``match.bot_info``: 60 seeds, no failure, and its information is the
    referee's at every move it makes (S9: the whole waste, the deck once turned over)."""
    moves_made = 12 if level == "easy" else 3
    for seed in range(60):
        players = 2 if seed % 2 == 0 else 4
        walk = Walk.spy(seed=seed, players=players, options={})
        match: SpyMatch = walk.match
        seat = seed % players
        rng = random.Random(seed)
        _turn_through_deck(walk, seat, rng, passes=3)
        bot = SeatBot.make("spy", level, seed=seed, seat=seat)
        for _ in range(moves_made):
            if not match.legal_actions(seat) or match.segment() > 1:
                break
            info = bot.info(match)
            assert info == expected_spy_info(match, seat), seed
            assert info.deck is not None  # the deck is known: it was turned over (S9)
            action = bot.think(info)
            walk.apply(seat, action)


def test_a_picture_started_mid_round_is_wrong() -> None:
    """Why the stand-in must not build its picture when it takes the seat: a tracker
    started from the seat's current position after three passes does not know the
    waste the seat turned (S9), while ``bot_info`` does."""
    walk = Walk.spy(seed=5, players=2, options={})
    _turn_through_deck(walk, 0, random.Random(5), passes=3)
    for _ in range(5):
        walk.apply(0, TURN)
    match: SpyMatch = walk.match
    late = SpyTracker(SeatWindow(match.state.position(0))).info(match.legal_actions(0))
    info = match.bot_info(0)
    assert info == expected_spy_info(match, 0)
    assert len(info.waste) == len(match.state.position(0).waste) == 6
    assert late.waste != info.waste
    assert late.deck is None
    assert info.deck is not None


def test_bot_info_reads_only_the_moves_made_since_it_was_last_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Following a seat costs each move once: after many rounds, ``bot_info`` does not
    rebuild the match's history (it was read from ``played_rounds`` on every call)."""
    walk = Walk.spy(seed=8, players=3, options={"rounds": 4})
    rng = random.Random(8)
    styles = ["greedy", "turner", "random"]
    while walk.match.segment() < 3:
        assert spy_random_move(walk, rng, styles)
    match: SpyMatch = walk.match

    def no_history(self: SpyState) -> None:
        raise AssertionError("bot_info replays the whole match")

    monkeypatch.setattr(SpyState, "played_rounds", no_history)
    for _ in range(30):
        for seat in range(3):
            assert match.bot_info(seat) == expected_spy_info(match, seat)
        assert spy_random_move(walk, rng, styles)


def test_moves_since_gives_the_new_moves_of_the_round() -> None:
    """``SpyState.moves_since(n)``: the latest round's moves after its first n."""
    walk = Walk.spy(seed=2, players=2, options={"rounds": 2})
    rng = random.Random(2)
    state: SpyState = walk.match.state
    for _ in range(40):
        spy_random_move(walk, rng, ["turner", "random"])
        moves = state.moves()
        for count in (0, 1, len(moves) // 2, len(moves)):
            assert state.moves_since(count) == moves[count:]
    with pytest.raises(ValueError, match="never negative"):
        state.moves_since(-1)


def test_spy_bot_info_before_any_deal_says_so() -> None:
    """A match from explicit cards before its first deal: nothing to know yet."""
    match = SpyMatch(SpyState(2))
    with pytest.raises(ValueError, match="no round has been dealt"):
        match.bot_info(0)
