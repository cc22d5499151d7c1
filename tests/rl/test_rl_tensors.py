"""OpenSpiel tensors of both games: the one encoding the PettingZoo faces observe.

``information_state_tensor`` and ``observation_tensor`` are the vectors of
:mod:`cardtable.games.candidate.encoding` and :mod:`cardtable.games.spy.encoding`; a state
resampled from a seat's information state (hidden cards dealt anew) leaves them as
they were.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import generate_playthrough, ismcts
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

import cardtable.rl.openspiel  # noqa: F401 - registers the games
from cardtable.games.candidate.encoding import ENCODING_VERSION as CANDIDATE_VERSION
from cardtable.games.candidate.encoding import OBSERVATION_SIZE
from cardtable.games.spy.encoding import ENCODING_VERSION as SPY_VERSION
from cardtable.games.spy.encoding import table_size
from cardtable.rl import candidate_v0, spy_v0
from cardtable.rl.openspiel_shared import RolloutEvaluator

SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)


def _play(state: Any, rng: random.Random, moves: int, skip: tuple[int, ...] = ()) -> Any:
    """``state`` after up to ``moves`` random player moves (chance by its odds); Spy
    moves whose local id is in ``skip`` are avoided while others are legal."""
    made = 0
    while made < moves and not state.is_terminal():
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(kinds, probs)[0])
            continue
        legal = state.legal_actions()
        state.apply_action(rng.choice([a for a in legal if a % 17 not in skip] or legal))
        made += 1
    return state


def _tensors(state: Any, player: int) -> tuple[list[float], list[float]]:
    return state.information_state_tensor(player), state.observation_tensor(player)


def test_encodings_are_version_1() -> None:
    # The training code and its checkpoints rely on these layouts: a change bumps them.
    assert (CANDIDATE_VERSION, SPY_VERSION) == (1, 1)


@pytest.mark.parametrize(
    ("name", "params", "size"),
    [
        ("python_cardtable_candidate", {}, OBSERVATION_SIZE),
        ("python_cardtable_candidate", {"decks": 2, "deals": 2}, OBSERVATION_SIZE),
        ("python_cardtable_spy", {}, table_size(2)),
        ("python_cardtable_spy", {"players": 3, "move_limit": 40}, table_size(3)),
        ("python_cardtable_spy", {"players": 8}, table_size(8)),
    ],
)
def test_tensor_shapes_are_declared_and_kept(name: str, params: dict[str, Any], size: int) -> None:
    game = pyspiel.load_game(name, params)
    game_type = game.get_type()
    assert game_type.provides_information_state_tensor
    assert game_type.provides_observation_tensor
    assert game.information_state_tensor_shape() == [size]
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_size() == game.observation_tensor_size() == size
    if game.num_players() > 3:
        return  # an 8-seat deal is 416 chance nodes: the shape is enough here
    state = game.new_initial_state()
    rng = random.Random(1)
    for step in range(400):
        if step % 7 == 0 or state.is_terminal():
            for player in range(game.num_players()):
                for tensor in _tensors(state, player):
                    assert len(tensor) == size
                    assert all(np.isfinite(tensor))
        if state.is_terminal():
            break
        _play(state, rng, 1)


def test_candidate_tensors_equal_the_pettingzoo_observation() -> None:
    env = candidate_v0.raw_env(deals=2)
    env.reset(seed=11)
    game = pyspiel.load_game("python_cardtable_candidate", {"deals": 2})
    rng = random.Random(11)
    checked = 0
    for step in range(400):
        if env.terminations[env.agent_selection]:
            break
        if step % 25 == 0:
            state = game.state_from(env.state_now)
            for player, agent in enumerate(env.possible_agents):
                seen = env.observe(agent)["observation"]
                for tensor in _tensors(state, player):
                    np.testing.assert_array_equal(np.asarray(tensor, np.float32), seen)
            checked += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert checked >= 4


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3, "rounds": 2}])
def test_spy_tensors_equal_the_pettingzoo_observation(params: dict[str, Any]) -> None:
    env = spy_v0.parallel_env(move_limit=200, **params)
    observations, _ = env.reset(seed=3)
    game = pyspiel.load_game("python_cardtable_spy", {"move_limit": 200, **params})
    rng = random.Random(3)
    for step in range(60):
        if not env.agents:
            break
        if step % 15 == 0:
            state = game.state_from(env.state_now)
            for player in range(params["players"]):
                seen = observations[f"player_{player}"]["observation"]
                for tensor in _tensors(state, player):
                    np.testing.assert_array_equal(np.asarray(tensor, np.float32), seen)
        actions = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            legal = [a for a in np.flatnonzero(mask).tolist() if a not in (15, 16)]
            actions[agent] = rng.choice(legal)
        observations, *_ = env.step(actions)


def test_spy_state_from_refuses_another_table() -> None:
    game = pyspiel.load_game("python_cardtable_spy", {"players": 3})
    env = spy_v0.parallel_env(players=3)  # move limit 2500, not the game's 200
    env.reset(seed=1)
    with pytest.raises(ValueError, match="differ"):
        game.state_from(env.state_now)


@pytest.mark.parametrize("seed", [4, 9])
def test_candidate_reshuffle_leaves_the_seats_tensors(seed: int) -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    state = _play(game.new_initial_state(), random.Random(seed), 12)
    rng = random.Random(seed)
    for player in (0, 1):
        mine = _tensors(state, player)
        key = state.information_state_string(player)
        their_hands = set()
        their_tensors_changed = False
        for _ in range(8):
            # OpenSpiel's resampling, and a whole other deal with the same information
            # (the engine's sampler, replayed through chance with a full history).
            other = state.resample_from_infostate(player, SAMPLER)
            again = game.state_from(state.engine.resample_hidden(player, rng))
            for sample in (other, again):
                assert _tensors(sample, player) == mine
                assert sample.information_state_string(player) == key
                assert sample.observation_string(player) == state.observation_string(player)
                if state.current_player() == player:
                    assert sample.legal_actions() == state.legal_actions()
                their_hands.add(tuple(sample.engine.hand(1 - player)))
                if _tensors(sample, 1 - player) != _tensors(state, 1 - player):
                    their_tensors_changed = True
        assert len(their_hands) > 1  # the opponent's hidden cards differ
        assert their_tensors_changed  # and the opponent's own tensors show it


@pytest.mark.parametrize(
    "params", [{"players": 2}, {"players": 3}, {"players": 2, "full_decks": True}]
)
def test_spy_reshuffle_leaves_every_seats_tensors(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_cardtable_spy", params)
    state = _play(game.new_initial_state(), random.Random(2), 40, skip=(15, 16))
    assert not state.is_terminal()
    players = game.num_players()
    before = [_tensors(state, p) for p in range(players)]
    decks = set()
    for _ in range(5):
        other = state.resample_from_infostate(0, SAMPLER)
        assert [_tensors(other, p) for p in range(players)] == before
        for p in range(players):
            assert other.information_state_string(p) == state.information_state_string(p)
        assert other.current_player() == state.current_player()
        assert other.legal_actions() == state.legal_actions()
        decks.add(tuple(tuple(seat.deck) for seat in other.engine.seats))
        # The new deal plays on to the end by the rules (S9-S16).
        _play(other, random.Random(5), 10_000)
        assert other.is_terminal()
    assert len(decks) > 1  # the racing decks (hidden from all, S5) were dealt anew


def test_spy_replay_refuses_a_deal_the_players_could_tell_apart() -> None:
    from cardtable.rl.openspiel_spy import _replayed

    game = pyspiel.load_game("python_cardtable_spy", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(6)
    while state.engine.round_number == 0:  # deal round 1
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    engine = state.engine
    cards = [list(hand) for hand in engine.round_cards()]
    # Two cards deep in seat 0's racing deck (hidden, S5): nobody can tell.
    hidden = [hand[:] for hand in cards]
    hidden[0][20], hidden[0][30] = hidden[0][30], hidden[0][20]
    assert _replayed(engine, [], hidden, []) is not None
    # The face-up points-pile top (S4) swapped with deck cards: some change the legal moves.
    refused = 0
    for k in range(9, 52):
        shown = [hand[:] for hand in cards]
        shown[0][0], shown[0][k] = shown[0][k], shown[0][0]
        refused += _replayed(engine, [], shown, []) is None
    assert refused > 0


def test_spy_reshuffle_during_the_deal_deals_anew() -> None:
    game = pyspiel.load_game("python_cardtable_spy", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(70):  # seat 0's deck and part of seat 1's
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    other = state.resample_from_infostate(1, SAMPLER)
    assert len(other.core.building) == 70
    assert other.core.building != state.core.building
    assert sorted(other.core.building[:52]) == list(range(52))  # S2: a deck of its own
    assert [_tensors(other, p) for p in range(3)] == [_tensors(state, p) for p in range(3)]
    _play(other, rng, 5)  # and the deal goes on


@pytest.mark.parametrize(
    ("name", "params"),
    [("python_cardtable_candidate", {"deals": 2}), ("python_cardtable_spy", {"players": 3})],
)
def test_openspiel_observations_match_the_state(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    info = make_observation(game, INFO_STATE_OBS_TYPE)
    view = make_observation(game)
    state = _play(game.new_initial_state(), random.Random(8), 30, skip=(15, 16))
    for player in range(game.num_players()):
        info.set_from(state, player)
        view.set_from(state, player)
        assert info.tensor.tolist() == state.information_state_tensor(player)
        assert view.tensor.tolist() == state.observation_tensor(player)
        assert info.dict["observation"] is info.tensor
        assert info.string_from(state, player) == state.information_state_string(player)
        assert view.string_from(state, player) == state.observation_string(player)


def _observer(game: Any, public: bool, private: Any) -> Any:
    kind = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=public, private_info=private
    )
    return make_observation(game, kind)


def test_candidate_factored_observations_keep_the_hand_private() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    public = _observer(game, True, pyspiel.PrivateInfoType.NONE)
    private = _observer(game, False, pyspiel.PrivateInfoType.SINGLE_PLAYER)
    state = _play(game.new_initial_state(), random.Random(3), 6)
    for player in (0, 1):
        seat = state.observation_tensor(player)
        public.set_from(state, player)
        private.set_from(state, player)
        assert public.tensor.tolist() == [0.0] * 52 + seat[52:]  # the hand is 0–51
        assert private.tensor.tolist() == seat[:52]
        assert sum(seat[:52]) == len(state.engine.hand(player)) > 0
        assert "Hand: " not in public.string_from(state, player)
        assert private.string_from(state, player).startswith("Hand: ")
    with pytest.raises(ValueError, match="own private information"):
        _observer(game, True, pyspiel.PrivateInfoType.ALL_PLAYERS)


def test_spy_has_no_private_observation() -> None:
    game = pyspiel.load_game("python_cardtable_spy")
    state = _play(game.new_initial_state(), random.Random(3), 6)
    public = _observer(game, True, pyspiel.PrivateInfoType.NONE)
    private = _observer(game, False, pyspiel.PrivateInfoType.SINGLE_PLAYER)
    public.set_from(state, 1)
    private.set_from(state, 1)
    assert public.tensor.tolist() == state.observation_tensor(1)
    assert private.tensor.size == 0
    assert private.string_from(state, 1) == ""


@pytest.mark.parametrize(
    "name", ["python_cardtable_candidate", "python_cardtable_spy(players=3,move_limit=20)"]
)
def test_openspiel_playthrough_shows_the_tensors(name: str) -> None:
    # OpenSpiel's playthrough tool (its integration tests' format) asks for every
    # observer: information state, observation, public and private.
    lines = generate_playthrough.playthrough_lines(name, seed=1)
    size = OBSERVATION_SIZE if "candidate" in name else table_size(3)
    assert f"InformationStateTensorShape() = [{size}]" in lines
    assert f"ObservationTensorShape() = [{size}]" in lines
    assert any(line.startswith("InformationStateTensor(1).observation") for line in lines)
    assert any(line.startswith("PrivateObservationString(0)") for line in lines)


@pytest.mark.parametrize("name", ["python_cardtable_candidate", "python_cardtable_spy"])
def test_openspiel_rl_environment_serves_the_tensors(name: str) -> None:
    env = rl_environment.Environment(
        name, chance_event_sampler=rl_environment.ChanceEventSampler(seed=1)
    )
    assert env.observation_spec()["info_state"] == tuple(env.game.information_state_tensor_shape())
    step = env.reset()
    for _ in range(20):
        if step.last():
            break
        player = step.observations["current_player"]
        state = env.get_state
        assert step.observations["info_state"][player] == state.information_state_tensor(player)
        step = env.step([step.observations["legal_actions"][player][0]])


def test_openspiel_ismcts_plays_spy_through_resampling() -> None:
    game = pyspiel.load_game("python_cardtable_spy", {"move_limit": 60})
    bot = ismcts.ISMCTSBot(
        game, RolloutEvaluator(1), 2.0, 10, random_state=np.random.RandomState(1)
    )
    rng = random.Random(4)
    state = _play(game.new_initial_state(), rng, 10, skip=(15, 16))
    while state.is_chance_node():  # who moves next
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    assert bot.step(state) in state.legal_actions()
