"""The greedy move read from the state is the greedy bot's move.

The analysis plays whole deals out greedily for every weighed move
(:mod:`cardtable.bots.review_candidate`); it reads each greedy move straight from the
state (:func:`~cardtable.bots.candidate_greedy.greedy_action`) instead of building the
seat's information set. These tests hold the two equal, move by move and for the whole
analysis of a deal, on both engines.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.bots import review_candidate
from cardtable.bots.candidate_greedy import GreedyBot, greedy_action
from cardtable.bots.review import ReviewBudget, analyse_record
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo

pytestmark = pytest.mark.usefixtures("candidate_engine")


def bot_move(state: CandidateState) -> int:
    return GreedyBot().choose(CandidateInfo.of(state, state.current_player))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.integers(0, 10**6), st.integers(1, 2), st.integers(1, 3), st.floats(0, 1))
def test_greedy_action_is_the_bots_move_at_every_decision(
    seed: int, decks: int, deals: int, wander: float
) -> None:
    """Whole matches (one or two decks, 1-3 deals), the moves partly greedy and partly
    random so every kind of decision and lobby comes up."""
    rng = random.Random(seed)
    state = CandidateState.new(seed, CandidateOptions(decks=decks, deals=deals))
    while not state.is_terminal():
        move = bot_move(state)
        assert greedy_action(state) == move
        state.apply_action(move if rng.random() > wander else rng.choice(state.legal_actions()))


def _bot_playout(world: CandidateState, action: int) -> tuple[int, int]:
    """The analysis's playout as it was: the greedy bot on each information set."""
    deal = world.deal_number
    world.apply_action(action)
    while not world.is_terminal() and world.deal_number == deal:
        world.apply_action(bot_move(world))
    return world.totals()


def test_the_analysis_of_a_deal_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    state = CandidateState.new(5, CandidateOptions(deals=1))
    while not state.is_terminal():
        state.apply_action(bot_move(state))
    record: dict[str, Any] = state.to_record(("Ann", "Bob"))
    budget = ReviewBudget(samples=4, iterations=60)
    fast = analyse_record("candidate", record, budget)
    monkeypatch.setattr(review_candidate, "_playout", _bot_playout)
    assert analyse_record("candidate", record, budget) == fast
