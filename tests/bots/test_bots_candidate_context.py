"""The move context the expert-iteration network weighs (cardtable.bots.candidate_context):
the same numbers from a seat's information set and from a state drawn from it, the
heuristic's value first, and nothing hidden from the mover in them."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.candidate_context import (
    SCORE_SCALE,
    context_of_info,
    context_of_state,
    move_context,
)
from cardtable.bots.candidate_greedy import greedy_values
from cardtable.bots.candidate_random import RandomBot
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.actions import PASS
from cardtable.games.candidate.info import CandidateInfo


def _decisions(seed: int) -> list[tuple[CandidateState, CandidateInfo]]:
    """Every decision of a deal played at random: the state and the mover's info."""
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    bot = RandomBot(seed)
    found = []
    while not state.is_terminal():
        kept = state.clone()  # an information set reads its state when asked
        info = CandidateInfo.of(kept, kept.current_player)
        found.append((kept, info))
        state.apply(bot.choose(info))
    return found


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_a_state_and_its_movers_information_give_the_same_context(seed: int) -> None:
    for state, info in _decisions(seed):
        assert context_of_state(state) == context_of_info(info)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_the_context_ignores_cards_hidden_from_the_mover(seed: int) -> None:
    rng = random.Random(seed)
    for state, info in _decisions(seed):
        other = state.resample_hidden(info.player, rng)
        assert context_of_state(other) == context_of_info(info)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_the_first_number_is_the_one_move_heuristics_value(seed: int) -> None:
    """C15 (the capture score of the lobby with the play added) through greedy's value:
    plays and passes score what greedy scores them (less its tie-break for a play),
    pile moves the pile's size."""
    for _state, info in _decisions(seed):
        context = context_of_info(info)
        values = greedy_values(info)
        for action in info.legal:
            first = move_context(context, action)[0]
            if action < PASS:
                assert first * 13 == round(values[action])  # the pile's size
            else:
                tie = 1e-3 if action > PASS else 0.0
                assert abs(first * SCORE_SCALE - (values[action] - tie)) < 1e-9


def test_a_pass_on_the_movers_own_lobby_takes_it_and_on_the_opponents_gives_it() -> None:
    seen = {True: 0, False: 0}
    for seed in range(30):
        for _state, info in _decisions(seed):
            context = context_of_info(info)
            if PASS not in info.legal or not context.lobby:
                continue
            numbers = move_context(context, PASS)
            assert (numbers[3] == 1.0) is context.ours
            assert (numbers[4] > 0) is context.ours
            seen[context.ours] += 1
    assert seen[True]
    assert seen[False]
