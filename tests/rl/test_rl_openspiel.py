"""Both games as OpenSpiel Python games (cardtable.rl.openspiel)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import cardtable.rl.openspiel  # noqa: F401 - registers the games
from cardtable.games.candidate import GAME as CANDIDATE
from cardtable.games.candidate.encoding import OBSERVATION_SIZE
from cardtable.games.spy import GAME as SPY
from cardtable.games.spy.encoding import table_size


def random_engine_match(seed: int, moves: int, deals: int = 1):  # type: ignore[no-untyped-def]
    state = CANDIDATE.new_initial_state(seed=seed, options={"deals": deals})
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_games_are_registered_with_their_facts() -> None:
    names = pyspiel.registered_names()
    assert "python_cardtable_candidate" in names
    assert "python_cardtable_spy" in names
    game = pyspiel.load_game("python_cardtable_candidate", {"decks": 2, "deals": 3})
    assert game.num_distinct_actions() == 35425
    assert game.max_chance_outcomes() == 52
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.max_game_length() == 3 * (1 + 7 * 104)
    spy = pyspiel.load_game("python_cardtable_spy", {"players": 4})
    assert spy.num_distinct_actions() == 4 * 17
    assert spy.observation_tensor_shape() == [table_size(4)]
    assert spy.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize(
    ("game", "params"),
    [(CANDIDATE, {"decks": 3, "deals": 2}), (SPY, {"players": 5, "rounds": 3, "bonus": 7})],
)
def test_game_facts_come_from_the_game_package(game, params) -> None:  # type: ignore[no-untyped-def]
    spiel = pyspiel.load_game(f"python_cardtable_{game.info.name}", params)
    game_type = spiel.get_type()
    assert game_type.long_name == f"cardtable {game.info.title('en')}"
    assert (game_type.min_num_players, game_type.max_num_players) == (
        game.info.min_players,
        game.info.max_players,
    )
    options = {k: v for k, v in params.items() if k != "players"}
    assert (spiel.min_utility(), spiel.max_utility()) == game.utility_bounds(options)
    if game is CANDIDATE:
        assert spiel.num_distinct_actions() == game.info.num_distinct_actions
        assert spiel.max_game_length() == game.max_game_length(options)
    else:  # a race has no longest length: the adapter's move limit bounds it (S9)
        assert game.max_game_length(options) is None
        assert spiel.max_game_length() == 3 * 5 * (200 + 1)
        assert spiel.num_distinct_actions() == 5 * game.info.num_distinct_actions // 8


def test_random_sim_test_candidate() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    pyspiel.random_sim_test(game, 20, serialize=True, verbose=False)


def test_random_sim_test_candidate_two_decks_two_deals() -> None:
    game = pyspiel.load_game("python_cardtable_candidate", {"decks": 2, "deals": 2})
    pyspiel.random_sim_test(game, 3, serialize=True, verbose=False)


def test_random_sim_test_spy() -> None:
    game = pyspiel.load_game("python_cardtable_spy")
    pyspiel.random_sim_test(game, 20, serialize=True, verbose=False)


def test_random_sim_test_spy_three_players_two_rounds() -> None:
    game = pyspiel.load_game("python_cardtable_spy", {"players": 3, "rounds": 2, "move_limit": 60})
    pyspiel.random_sim_test(game, 5, serialize=True, verbose=False)


def test_state_from_engine_replays_the_match_through_chance() -> None:
    engine = random_engine_match(seed=5, moves=250, deals=2)
    game = pyspiel.load_game("python_cardtable_candidate", {"deals": 2})
    state = game.state_from(engine)
    assert state.engine == engine
    assert state.current_player() == engine.current_player
    assert state.legal_actions() == engine.legal_actions()
    for player in (0, 1):
        assert state.information_state_string(player) == engine.information_state_string(player)
    # The second deal was dealt by chance too: one lot + 52 cards a deal + every move.
    moves = sum(len(d.moves) for d in engine.history) + len(engine.moves)
    assert len(state.history()) == 1 + 2 * 52 + moves


def test_chance_deals_suit_piles_card_by_card_c3() -> None:
    game = pyspiel.load_game("python_cardtable_candidate", {"decks": 2})
    state = game.new_initial_state()
    state.apply_action(1)  # the lot: player 1 deals first (C2)
    outcomes = state.chance_outcomes()
    assert [kind for kind, _ in outcomes] == list(range(13))  # pile S holds spades only
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(4)
    assert dict(state.chance_outcomes())[4] == pytest.approx(1 / 25)  # one copy left of 25
    with pytest.raises(ValueError, match="not a chance outcome"):
        state.apply_action(20)
    rng = random.Random(0)
    while state.is_chance_node():
        kinds, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(kinds, probs)[0])
    assert state.current_player() == 1
    assert state.engine.dealer == 1
    assert sorted(state.engine.pile(2)) == sorted(list(range(26, 39)) * 2)


def test_illegal_decision_raises_and_changes_nothing() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    state = game.state_from(random_engine_match(seed=3, moves=20))
    before = state.engine.clone()
    illegal = next(a for a in range(100) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)
    assert state.engine == before


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    state = game.state_from(random_engine_match(seed=9, moves=60))
    player = state.current_player()
    key = state.information_state_string(player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(10):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == key
        assert other.legal_actions() == state.legal_actions()
        assert other.engine.hand(player) == state.engine.hand(player)
        hands.add(other.engine.hand(1 - player))
    assert len(hands) > 1  # the unseen hand is dealt anew


def test_openspiel_ismcts_plays_candidate_through_the_adapter() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 1.5, 20, random_state=np.random.RandomState(1))
    state = game.state_from(random_engine_match(seed=2, moves=30))
    rng = random.Random(2)
    for _ in range(6):
        if state.is_terminal():
            break
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(kinds, probs)[0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_observations_come_from_the_view() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    state = game.state_from(random_engine_match(seed=4, moves=40))
    for player in (0, 1):
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(player, sampler)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.observation_string(player) == state.observation_string(player)


def test_states_pickle_and_clone() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    state = game.state_from(random_engine_match(seed=6, moves=50))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.engine != state.engine
    spy = pyspiel.load_game("python_cardtable_spy", {"players": 3, "move_limit": 50})
    spy_state = spy.new_initial_state()
    rng = random.Random(1)
    for _ in range(300):
        if spy_state.is_terminal():
            break
        if spy_state.is_chance_node():
            spy_state.apply_action(rng.choice(spy_state.chance_outcomes())[0])
        else:
            spy_state.apply_action(rng.choice(spy_state.legal_actions()))
    spy_copy = pickle.loads(pickle.dumps(spy_state))
    assert spy_copy.information_state_string(0) == spy_state.information_state_string(0)
    assert spy_copy.engine.to_record() == spy_state.engine.to_record()


def test_spy_who_moves_is_chance_and_all_information_is_public() -> None:
    game = pyspiel.load_game("python_cardtable_spy", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():  # the deal: three full decks, card by card (S2)
        state.apply_action(rng.choice(state.chance_outcomes())[0])
        if state.engine.round_number == 1:
            break
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    assert state.current_player() == 2
    assert all(a // 17 == 2 for a in state.legal_actions())
    state.apply_action(2 * 17)  # "2 turn"
    keys = {state.information_state_string(p)[2:] for p in range(3)}
    assert len(keys) == 1
    assert "2 turn" in keys.pop()


def _uncached_player(state) -> int:  # type: ignore[no-untyped-def]
    """The player to move worked out from the engine, without the adapter's cache."""
    core = state.core
    if core.engine.is_terminal() and (not hasattr(core, "lot_drawn") or core.lot_drawn):
        return int(pyspiel.PlayerId.TERMINAL)
    if core.is_chance():
        return int(pyspiel.PlayerId.CHANCE)
    if hasattr(core, "mover"):  # Spy: the player the last chance node picked
        return int(core.mover)
    return int(core.engine.current_player)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("python_cardtable_candidate", {"deals": 2}),
        ("python_cardtable_spy", {"rounds": 2}),
    ],
)
def test_cached_current_player_follows_every_action(name, params) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game(name, params)
    rng = random.Random(3)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 3000:
        assert state.current_player() == _uncached_player(state)
        assert state.is_chance_node() == state.core.is_chance()
        if steps % 97 == 0:  # clones and pickles carry the cache
            for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
                assert copy.current_player() == state.current_player()
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert state.current_player() == _uncached_player(state)


def test_resampled_states_are_trusted_and_others_check_legality() -> None:
    game = pyspiel.load_game("python_cardtable_candidate")
    state = game.state_from(random_engine_match(5, 30))
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(ValueError, match="not legal"):
        state.clone().apply_action(illegal)
    sample = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    assert sample.trusted
    assert not state.trusted
    assert sample.current_player() == state.current_player()
    assert sample.clone().trusted


def test_numpy_free_rollout_evaluator_drives_openspiel_ismcts() -> None:
    from cardtable.rl.openspiel_shared import RolloutEvaluator

    game = pyspiel.load_game("python_cardtable_candidate")
    state = game.state_from(random_engine_match(2, 25))
    values = RolloutEvaluator(1).evaluate(state)
    assert values in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    bot = ismcts.ISMCTSBot(
        game, RolloutEvaluator(1), 2.0, 60, random_state=np.random.RandomState(1)
    )
    assert bot.step(state) in state.legal_actions()
