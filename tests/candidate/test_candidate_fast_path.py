"""The search fast path agrees with the checked path over random games.

``playout.random_playout`` plays a one-deck deal in one loop of its own (the
legal moves C7, C8, C10-C13 and the moves inlined, ``docs/rules/candidate.en.md``);
``one_deck_plays`` looks plays up per first card, ``one_deck_leads`` per hand. They
must give exactly what the checked ``apply`` and ``legal_plays`` give.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable.games.candidate.plays as play_tables
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.playout import advance, playout_margin, random_playout
from cardtable.games.candidate.plays import (
    kind_bits,
    legal_plays,
    one_deck_leads,
    one_deck_plays,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: seed, decks, deals, moves made before the playout, the playout's seed, its cut.
games = st.tuples(
    st.integers(0, 10**6),
    st.integers(1, 2),
    st.integers(1, 3),
    st.integers(0, 140),
    st.integers(0, 10**6),
    st.one_of(st.none(), st.integers(0, 60)),
)


def checked_playout(state: CandidateState, uniform: Callable[[], float], moves: int | None) -> None:
    """The playout's rule on the checked path: ``legal[int(uniform() * len(legal))]``
    with ``apply`` (which refuses an illegal move), a forced move taking no number, until
    the deal or the match ends or after ``moves`` moves."""
    deal = state.deal_number
    left = -1 if moves is None else moves
    while left and not state.is_terminal() and state.deal_number == deal:
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else legal[int(uniform() * len(legal))])
        left -= 1


def reach(game: tuple[int, int, int, int, int, int | None]) -> CandidateState:
    seed, decks, deals, before, _, _ = game
    state = CandidateState.new(seed, CandidateOptions(decks=decks, deals=deals))
    rng = random.Random(seed)
    for _ in range(before):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@SETTINGS
@given(games)
def test_random_playout_reaches_the_state_of_checked_moves(
    game: tuple[int, int, int, int, int, int | None],
) -> None:
    """The same numbers give the same moves and exactly the same state (C7-C13)."""
    start = reach(game)
    fast, checked = start.clone(), start.clone()
    random_playout(fast, random.Random(game[4]).random, game[5])
    checked_playout(checked, random.Random(game[4]).random, game[5])
    assert fast == checked
    assert fast.legal_actions() == checked.legal_actions()
    assert fast.totals() == checked.totals()
    assert fast.history == checked.history


@SETTINGS
@given(games)
def test_every_move_of_a_playout_is_legal_on_the_checked_path(
    game: tuple[int, int, int, int, int, int | None],
) -> None:
    """The moves a playout records replay through ``apply`` to the same state."""
    start = reach(game)
    fast = start.clone()
    random_playout(fast, random.Random(game[4]).random, game[5])
    finished = len(fast.history) > len(start.history)
    deal_moves = fast.history[len(start.history)].moves if finished else tuple(fast.moves)
    played = deal_moves[len(start.moves) :]
    if game[5] is not None:
        assert len(played) <= game[5]
    replay = start.clone()
    for action in played:
        replay.apply(action)  # raises IllegalMove on an illegal move
    if finished:
        assert replay.history == fast.history
    assert replay == fast


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=0, max_size=8, unique=True),
    st.booleans(),
    st.integers(-1, 12),
    st.integers(-1, 12),
)
def test_one_deck_plays_equal_legal_plays(
    hand: list[int], lobby_empty: bool, run_need: int, set_need: int
) -> None:
    """Plays looked up per first card equal the plays worked out in full (C7, C8, C12):
    worked out, then from the table, then for a hand not seen before from the plays
    keyed by the cards a run can reach (the window cut at the first missing rank)."""
    if run_need == set_need:
        set_need = -1
    start = [] if lobby_empty else [12]
    kinds = kind_bits(hand)
    expected = legal_plays(hand, kinds, lobby_empty, run_need, set_need, False, list(start))
    play_tables._FIRST_PLAYS.clear()
    play_tables._CUT_PLAYS.clear()
    for step in range(3):
        if step == 2:
            play_tables._FIRST_PLAYS.clear()  # now only the cut table knows these plays
            play_tables._LEADS.clear()
        assert one_deck_plays(kinds, lobby_empty, run_need, set_need, list(start)) == expected
        if lobby_empty:
            assert list(one_deck_leads(kinds)) == expected


@SETTINGS
@given(games)
def test_advance_is_apply_action_then_the_legal_moves_of_the_deal(
    game: tuple[int, int, int, int, int, int | None],
) -> None:
    """A search's tree step: the same state as ``apply_action``, and the legal moves
    that follow, or none once the move ended the deal or the match (C13, C17)."""
    state = reach(game)
    rng = random.Random(game[4])
    while not state.is_terminal():
        legal = state.legal_actions()
        action = rng.choice(legal)
        deal = state.deal_number
        stepped = state.clone()
        following = advance(stepped, action)
        state.apply_action(action)
        assert stepped == state
        if state.is_terminal() or state.deal_number != deal:
            assert list(following) == []
            break
        assert list(following) == state.legal_actions()


def deal_margin(state: CandidateState, deal: int) -> int:
    """Player 0's score minus player 1's in deal ``deal`` (0-based): finished or not."""
    history = state.history
    scores = history[deal].scores if len(history) > deal else state.deal_scores
    return scores[0] - scores[1]


@SETTINGS
@given(games)
def test_playout_margin_is_the_margin_of_the_checked_moves(
    game: tuple[int, int, int, int, int, int | None],
) -> None:
    """The score-only playout makes the same moves as the checked path from the same
    numbers and ends with the same deal margin (C15), cut or to the deal's end."""
    start = reach(game)
    deal = start.deal_number - 1
    checked = start.clone()
    checked_playout(checked, random.Random(game[4]).random, game[5])
    margin = playout_margin(start.clone(), random.Random(game[4]).random, game[5])
    assert margin == deal_margin(checked, deal)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 120), st.integers(0, 10**6))
def test_playout_margin_one_deck_mid_deal(seed: int, before: int, playout_seed: int) -> None:
    """Many one-deck deals stopped anywhere (mid-trick, drawing, leading from hand at
    the deal's end): the score-only playout ends with the checked path's margin."""
    start = reach((seed, 1, 1, before, 0, None))
    checked = start.clone()
    checked_playout(checked, random.Random(playout_seed).random, None)
    margin = playout_margin(start.clone(), random.Random(playout_seed).random)
    assert margin == deal_margin(checked, start.deal_number - 1)
