"""Spy vs Spy as a Gymnasium race and a PettingZoo Parallel table (cardtable.rl.spy_v0)."""

from __future__ import annotations

import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

import cardtable.rl
from cardtable.games.spy.actions import CALL, RESIGN, TURN
from cardtable.games.spy.encoding import (
    MOVES,
    POINTS_COUNT,
    SEAT_SIZE,
    encode_seat,
    table_of,
    table_size,
)
from cardtable.rl import spy_v0


def race_out(env: Any, seed: int, policy_seed: int) -> tuple[list[Any], float]:
    """A whole race with a seeded random legal policy (never resigning by choice)."""
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    steps: list[Any] = []
    total = 0.0
    while True:
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        choices = [a for a in legal if a != RESIGN] or legal
        action = int(rng.choice(choices))
        observation, reward, terminated, truncated, _ = env.step(action)
        total += reward
        steps.append((action, observation["observation"].tobytes(), reward))
        if terminated or truncated:
            return steps, total


def test_gymnasium_make_after_import() -> None:
    assert cardtable.rl.SPY_GYM_ID in gymnasium.registry
    env = gymnasium.make("cardtable/Spy-v0", max_moves=50)
    observation, info = env.reset(seed=1)
    assert observation["observation"].shape == (SEAT_SIZE,)
    assert "deal_seed" in info


def test_gymnasium_check_env() -> None:
    env = gymnasium.make("cardtable/Spy-v0", max_moves=300)
    check_env(env.unwrapped)


def test_race_same_seed_same_whole_race() -> None:
    env = spy_v0.SpyRaceEnv(max_moves=400)
    first = race_out(env, seed=3, policy_seed=1)
    again = race_out(spy_v0.SpyRaceEnv(max_moves=400), seed=3, policy_seed=1)
    other = race_out(spy_v0.SpyRaceEnv(max_moves=400), seed=4, policy_seed=1)
    assert first == again
    assert first != other


def test_race_reward_is_minus_one_a_move_and_giving_up_costs_the_clock() -> None:
    env = spy_v0.SpyRaceEnv(max_moves=40)
    env.reset(seed=2)
    _, reward, terminated, truncated, _ = env.step(TURN)
    assert (reward, terminated, truncated) == (-1.0, False, False)
    _observation, reward, terminated, truncated, _ = env.step(RESIGN)  # S13
    assert terminated
    assert not truncated
    assert reward == -1.0 - (40 - 2)
    with pytest.raises(ValueError, match="over"):
        env.step(TURN)


def test_race_truncates_at_max_moves() -> None:
    env = spy_v0.SpyRaceEnv(max_moves=5)
    env.reset(seed=2)
    results = [env.step(TURN) for _ in range(5)]
    assert [r[1] for r in results] == [-1.0] * 5
    assert [r[2] for r in results] == [False] * 5  # turning never ends a race
    assert [r[3] for r in results] == [False, False, False, False, True]
    with pytest.raises(ValueError, match="over"):
        env.step(TURN)


def test_race_returns_minus_moves_when_it_calls() -> None:
    """A race that ends with the call (S10) returns minus its number of moves."""
    env = spy_v0.SpyRaceEnv(max_moves=2500)
    for seed in range(40):
        steps, total = race_out(env, seed=seed, policy_seed=seed)
        if steps[-1][0] == CALL:
            assert total == -len(steps)
            return
    pytest.fail("no random race called within 40 deals")


def test_race_illegal_action_raises_and_changes_nothing() -> None:
    env = spy_v0.SpyRaceEnv()
    observation, _ = env.reset(seed=5)
    before = observation["observation"].copy()
    with pytest.raises(ValueError, match="call only when"):
        env.step(CALL)
    with pytest.raises(ValueError, match="not an action id"):
        env.step(17)
    after = env._observe()
    assert after["observation"].tolist() == before.tolist()
    assert env.state_now.position(0).moves == 0


def test_race_action_space_samples_legal_moves() -> None:
    env = spy_v0.SpyRaceEnv()
    observation, _ = env.reset(seed=5)
    legal = set(np.flatnonzero(observation["action_mask"]).tolist())
    assert {int(env.action_space.sample()) for _ in range(50)} <= legal


def test_parallel_api_test() -> None:
    parallel_api_test(spy_v0.parallel_env(players=3), num_cycles=400)
    parallel_api_test(spy_v0.parallel_env(players=2, rounds=2), num_cycles=400)


def table_out(env: Any, seed: int, policy_seed: int, steps: int = 3000) -> list[Any]:
    """A seeded random table (agents wait or move, never resign by choice)."""
    observations, _ = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trajectory = []
    for _ in range(steps):
        if not env.agents:
            break
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"]).tolist()
            actions[agent] = int(rng.choice([a for a in legal if a != RESIGN]))
        observations, rewards, terminations, _truncations, _ = env.step(actions)
        trajectory.append((actions, sorted(rewards.items()), sorted(terminations.items())))
    return trajectory


def test_parallel_same_seed_same_trajectory() -> None:
    first = table_out(spy_v0.parallel_env(players=3), seed=7, policy_seed=2)
    again = table_out(spy_v0.parallel_env(players=3), seed=7, policy_seed=2)
    assert first == again
    assert first != table_out(spy_v0.parallel_env(players=3), seed=8, policy_seed=2)


def test_parallel_round_end_pays_negated_scores_s14() -> None:
    env = spy_v0.parallel_env(players=2, move_limit=400)
    for seed in range(20):
        trajectory = table_out(env, seed=seed, policy_seed=seed)
        final = dict(trajectory[-1][1])
        state = env.state_now
        if state.is_terminal() and state.results[0].finisher is not None:
            winner = f"player_{state.results[0].finisher}"
            assert final[winner] == 20.0
            assert all(r == -20.0 for a, r in final.items() if a != winner)
            return
    pytest.fail("no random round ended with a call")


def test_parallel_illegal_action_raises_and_changes_nothing() -> None:
    env = spy_v0.parallel_env(players=2)
    env.reset(seed=1)
    before = [table_of(env.state_now, p) for p in (0, 1)]
    with pytest.raises(ValueError, match="call only when"):
        env.step({"player_0": TURN, "player_1": CALL})
    with pytest.raises(ValueError, match="no action from"):
        env.step({"player_0": TURN})
    assert [table_of(env.state_now, p) for p in (0, 1)] == before
    env.step({"player_0": TURN, "player_1": spy_v0.WAIT})
    assert env.state_now.position(0).moves == 1
    assert env.state_now.position(1).moves == 0


def test_parallel_simultaneous_calls_are_ordered_by_a_seeded_coin_s17() -> None:
    """Two players whose points piles are empty call in the same step: one wins,
    chosen by the environment's seeded generator, not always the lower seat."""
    from cardtable.games.spy.position import Position

    winners = set()
    for seed in range(12):
        env = spy_v0.parallel_env(players=2)
        env.reset(seed=seed)
        state = env.state_now
        for p in (0, 1):  # both players have emptied their points piles
            state.seats[p] = Position.from_parts(
                p, points=[], piles=[[0], [1], [2], [3]], deck=[4, 5], waste=[]
            )
        _, rewards, terminations, _, _ = env.step({"player_0": CALL, "player_1": CALL})
        assert all(terminations.values())
        (winner,) = [a for a, r in rewards.items() if r > 0]
        winners.add(winner)
    assert winners == {"player_0", "player_1"}


def test_table_observation_puts_the_viewer_first() -> None:
    env = spy_v0.parallel_env(players=3)
    observations, _ = env.reset(seed=4)
    state = env.state_now
    assert observations["player_0"]["observation"].shape == (table_size(3),)
    for p in range(3):
        vector = observations[f"player_{p}"]["observation"].tolist()
        seat = state.view(p).seats[p]
        assert vector[:SEAT_SIZE] == encode_seat(seat)
        assert vector[POINTS_COUNT] == 5
        assert vector[MOVES] == 0


def test_parallel_env_pickles() -> None:
    env = spy_v0.parallel_env(players=2)
    env.reset(seed=3)
    env.step({"player_0": TURN, "player_1": TURN})
    copy = pickle.loads(pickle.dumps(env))
    assert table_of(copy.state_now, 0) == table_of(env.state_now, 0)
    race = spy_v0.SpyRaceEnv()
    race.reset(seed=3)
    race.step(TURN)
    race_copy = pickle.loads(pickle.dumps(race))
    assert race_copy._observe()["observation"].tolist() == race._observe()["observation"].tolist()
