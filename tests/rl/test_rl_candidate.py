"""Candidate as a PettingZoo AEC environment (cardtable.rl.candidate_v0)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardtable.errors import IllegalMove
from cardtable.games.candidate import NUM_ACTIONS, CandidateState
from cardtable.games.candidate.encoding import (
    DECISION,
    HAND,
    MY_DECISION,
    OBSERVATION_SIZE,
    THEIR_SUITS,
    encode_view,
)
from cardtable.rl import candidate_v0


def play_out(env: Any, seed: int, policy_seed: int) -> list[tuple[Any, ...]]:
    """Play a whole episode with a seeded random legal policy; the trajectory."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trajectory: list[tuple[Any, ...]] = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        trajectory.append((agent, observation["observation"].tobytes(), reward, terminated, action))
        env.step(action)
    return trajectory


def test_pettingzoo_api_test() -> None:
    api_test(candidate_v0.env(), num_cycles=300)


def test_pettingzoo_api_test_raw_two_decks() -> None:
    api_test(candidate_v0.raw_env(decks=2), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(candidate_v0.env, num_cycles=200)


def test_same_seed_gives_same_whole_game_and_other_seed_differs() -> None:
    first = play_out(candidate_v0.env(), seed=11, policy_seed=3)
    again = play_out(candidate_v0.env(), seed=11, policy_seed=3)
    other = play_out(candidate_v0.env(), seed=12, policy_seed=3)
    assert first == again
    assert first != other
    assert first[-1][3] is True  # the match ended (terminated)


def test_final_rewards_are_the_engine_returns_c17() -> None:
    env = candidate_v0.raw_env()
    play_out(env, seed=4, policy_seed=9)
    state = env.state_now
    assert state.is_terminal()
    # All agents have stepped their None after the end; rewards followed returns.
    assert env.agents == []
    env2 = candidate_v0.raw_env()
    env2.reset(seed=4)
    rng = np.random.default_rng(9)
    totals = dict.fromkeys(env2.possible_agents, 0.0)
    while not env2.state_now.is_terminal():
        mask = env2.observe(env2.agent_selection)["action_mask"]
        env2.step(int(rng.choice(np.flatnonzero(mask))))
        for agent, reward in env2.rewards.items():
            totals[agent] += reward
    assert [totals["player_0"], totals["player_1"]] == state.returns()


def test_raw_env_illegal_action_raises_value_error_and_changes_nothing() -> None:
    env = candidate_v0.raw_env()
    env.reset(seed=2)
    before = env.state_now.clone()
    legal = env.state_now.legal_actions()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    with pytest.raises(ValueError, match="not the time|not a move|not legal|empty"):
        env.step(illegal)
    with pytest.raises(IllegalMove):
        env.step(NUM_ACTIONS + 5)
    assert env.state_now == before
    env.step(legal[0])  # the game goes on normally
    assert env.state_now != before


def test_wrapped_env_illegal_action_ends_game_with_penalty() -> None:
    env = candidate_v0.env()
    env.reset(seed=2)
    offender = env.agent_selection
    env.step(NUM_ACTIONS - 1)
    assert all(env.terminations.values())
    _observation, reward, terminated, _truncated, _info = env.last()
    assert env.agent_selection == offender
    assert (reward, terminated) == (-1, True)


def test_observation_matches_the_view_encoding_and_the_mask_the_legal_actions() -> None:
    env = candidate_v0.raw_env()
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(60):
        agent = env.agent_selection
        player = candidate_v0.AGENTS.index(agent)
        state = env.state_now
        observation = env.observe(agent)
        assert observation["observation"].shape == (OBSERVATION_SIZE,)
        expected = encode_view(state.view(player), player)
        assert observation["observation"].tolist() == pytest.approx(expected)
        assert np.flatnonzero(observation["action_mask"]).tolist() == state.legal_actions()
        waiting = env.observe(candidate_v0.AGENTS[1 - player])
        assert waiting["action_mask"].sum() == 0
        assert waiting["observation"][MY_DECISION] == 0
        assert observation["observation"][MY_DECISION] == 1
        env.step(rng.choice(state.legal_actions()))


def test_observation_hides_the_opponents_cards() -> None:
    """Re-dealing everything a player has not seen leaves their observation alone."""
    state = CandidateState.new(seed=21)
    rng = random.Random(21)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    for player in (0, 1):
        mine = encode_view(state.view(player), player)
        changed = 0
        for trial in range(5):
            other = state.resample_hidden(player, random.Random(trial))
            theirs = encode_view(other.view(1 - player), 1 - player)
            changed += theirs != encode_view(state.view(1 - player), 1 - player)
            assert encode_view(other.view(player), player) == mine
        assert changed > 0  # the opponent's hand did change
        hand = sum(mine[HAND : HAND + 52])
        assert hand == len(state.hand(player))
        assert sum(mine[THEIR_SUITS : THEIR_SUITS + 4]) == len(state.hand(1 - player))


def test_observation_is_in_the_space_through_a_whole_match_of_two_decks() -> None:
    env = candidate_v0.raw_env(decks=2, deals=2)
    space = env.observation_space("player_0")
    env.reset(seed=8)
    rng = random.Random(8)
    while not env.state_now.is_terminal():
        for agent in env.possible_agents:
            assert space.contains(env.observe(agent))
        env.step(rng.choice(env.state_now.legal_actions()))
    final = env.observe("player_0")["observation"]
    assert final[DECISION : DECISION + 4].sum() == 0


def test_reset_with_deal_seed_plays_the_engines_seeded_match() -> None:
    env = candidate_v0.raw_env(deals=1)
    env.reset(options={"deal_seed": 99})
    assert env.state_now == CandidateState.new(99, env.options)


def test_environment_pickles_mid_game() -> None:
    env = candidate_v0.raw_env()
    env.reset(seed=6)
    for _ in range(30):
        env.step(env.state_now.legal_actions()[-1])
    copy = pickle.loads(pickle.dumps(env))
    assert copy.state_now == env.state_now
    assert copy.agent_selection == env.agent_selection
    action = env.state_now.legal_actions()[0]
    env.step(action)
    copy.step(action)
    assert copy.state_now == env.state_now


def test_render_ansi_shows_the_spectator_view() -> None:
    env = candidate_v0.raw_env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None
    assert "Piles:" in text
    assert "Hand:" not in text  # a spectator sees no hand
    with pytest.raises(ValueError, match="render_mode"):
        candidate_v0.raw_env(render_mode="rgb_array")
