"""Bots: legal moves only, determinism, and decisions blind to hidden cards."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.candidate_greedy import GreedyBot as CandidateGreedy
from cardtable.bots.candidate_greedy import greedy_values
from cardtable.bots.candidate_ismcts import IsmctsBot
from cardtable.bots.candidate_random import RandomBot as CandidateRandom
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_greedy import GreedyBot as SpyGreedy
from cardtable.bots.spy_oracle import OracleBot
from cardtable.bots.spy_planner import PlannerBot
from cardtable.bots.spy_random import RandomBot as SpyRandom
from cardtable.games.candidate import CandidateOptions, CandidateState, capture_score
from cardtable.games.candidate.actions import PASS
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.position import Position


def _play_candidate(seed: int, bots: list[object]) -> CandidateState:
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    while not state.is_terminal():
        player = state.current_player
        action = bots[player].choose(CandidateInfo.of(state, player))  # type: ignore[attr-defined]
        assert action in state.legal_actions()
        state.apply(action)  # checked: raises on an illegal move
    return state


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_candidate_random_and_greedy_only_legal_moves(seed: int) -> None:
    _play_candidate(seed, [CandidateRandom(seed), CandidateGreedy()])


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10**6))
def test_candidate_ismcts_only_legal_moves(seed: int) -> None:
    _play_candidate(seed, [IsmctsBot(seed, iterations=30), CandidateGreedy()])


def test_ismcts_is_deterministic_for_a_seed() -> None:
    a = _play_candidate(11, [IsmctsBot(3, iterations=40), CandidateGreedy()])
    b = _play_candidate(11, [IsmctsBot(3, iterations=40), CandidateGreedy()])
    assert a.moves == b.moves


def _mid_deal(seed: int) -> CandidateState:
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    rng = random.Random(seed)
    while True:
        state.apply_action(rng.choice(state.legal_actions()))
        if state.decision == "play" and len(state.legal_actions()) > 2:
            return state


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_ismcts_decision_ignores_reshuffled_hidden_cards(seed: int) -> None:
    """The bot sees one seat's information set: redealing the cards hidden from that
    seat (the opponent's hand, the piles) must not change its decision."""
    state = _mid_deal(seed)
    player = state.current_player
    other = state.resample_hidden(player, random.Random(99))
    assert other.view(player) == state.view(player)
    bot = IsmctsBot(7, iterations=200)
    first = bot.analyse(CandidateInfo.of(state, player))
    second = bot.analyse(CandidateInfo.of(other, player))
    assert first.best.action == second.best.action


def test_greedy_beats_random_on_duplicate_deals() -> None:
    wins = 0
    for seed in range(6):
        for seat in (0, 1):
            bots: list[object] = [CandidateRandom(seed), CandidateRandom(seed)]
            bots[seat] = CandidateGreedy()
            totals = _play_candidate(seed, bots).totals()
            wins += totals[seat] > totals[1 - seat]
    assert wins >= 8


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3]))
def test_spy_bots_only_legal_moves(seed: int, players: int) -> None:
    cards = deal_cards(seed=seed, round_number=1, players=players, full_decks=False)
    for bot in (SpyRandom(seed), SpyGreedy(), PlannerBot(seed, iterations=2)):
        race = solo_race(bot, Position.deal(0, cards[0]), move_limit=120)  # raises if illegal
        assert race.moves <= 121  # the limit, then the forced resignation


@pytest.mark.parametrize("seed", range(8))
def test_oracle_is_never_beaten(seed: int) -> None:
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    position = Position.deal(0, cards[0])
    best = OracleBot().race(position)
    assert best.proven
    for bot in (SpyGreedy(), PlannerBot(seed, iterations=4)):
        race = solo_race(bot, position)
        if race.called:
            assert best.moves is not None
            assert race.moves >= best.moves


def test_planner_is_deterministic() -> None:
    cards = deal_cards(seed=5, round_number=1, players=2, full_decks=False)
    position = Position.deal(1, cards[1])
    assert solo_race(PlannerBot(1, 4), position) == solo_race(PlannerBot(1, 4), position)


def _first_state(
    test: Callable[[CandidateState], bool], seeds: range = range(300)
) -> CandidateState:
    """The first position of random one-deal games where ``test(state)`` holds."""
    for seed in seeds:
        state = CandidateState.new(seed, CandidateOptions(deals=1))
        rng = random.Random(seed)
        while not state.is_terminal():
            if test(state):
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such position in these games")


def _after_a_pass(state: CandidateState, lobby: int, leads: bool) -> bool:
    return (
        state.decision == "play"
        and len(state.lobby) == lobby
        and bool(state.moves)
        and state.moves[-1] == PASS
        and (state.leader == state.current_player) == leads
    )


def test_greedy_values_a_pass_on_a_turned_card_the_opponent_passed_on_at_nothing() -> None:
    """C9: the opponent led and passed on the turned card; nobody placed a card, so a
    second pass discards it and nobody scores. The greedy heuristic took the lobby for
    its own (the last move was the opponent's pass) and valued passing at the card."""
    state = _first_state(lambda s: _after_a_pass(s, lobby=1, leads=False))
    info = CandidateInfo.of(state, state.current_player)
    assert greedy_values(info)[PASS] == 0.0


def test_greedy_values_a_pass_on_its_own_lobby_at_the_lobby() -> None:
    """C9, C15: the seat placed the lobby's last card and the opponent passed: a pass
    now ends the trick and this seat takes the lobby."""
    state = _first_state(lambda s: _after_a_pass(s, lobby=2, leads=False))
    info = CandidateInfo.of(state, state.current_player)
    assert greedy_values(info)[PASS] == capture_score(list(state.lobby)) > 0
    # C12: a lobby this seat started from its hand (the piles ran out) is its own.
    state = _first_state(
        lambda s: _after_a_pass(s, lobby=1, leads=True) and not any(s.pile(x) for x in range(4))
    )
    info = CandidateInfo.of(state, state.current_player)
    assert greedy_values(info)[PASS] == capture_score(list(state.lobby)) > 0
