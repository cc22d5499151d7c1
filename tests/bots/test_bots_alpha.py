"""The ``alpha`` search and the distilled policy: legal moves, determinism, decisions
blind to the cards hidden from the seat, and their bot specs.

The network here is an untrained one with fixed weights: what is tested is the
search's and the policy's use of the seat's information, not their strength."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("torch", reason="torch is not installed (cardtable[train])")

import torch

from cardtable.bots.alpha_net import NetEvaluator
from cardtable.bots.candidate_alpha import AlphaBot, policy_choice, policy_logits
from cardtable.bots.candidate_context import CONTEXT_FEATURES, context_of_info, move_context
from cardtable.bots.candidate_greedy import GreedyBot
from cardtable.bots.learned import LearnedBot
from cardtable.bots.learned_net import (
    PolicyValue,
    build_actor,
    candidate_action_features,
    evaluator_of,
    save_checkpoint,
)
from cardtable.bots.registry import make_bot, parse_bot_spec
from cardtable.errors import BadOptions
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo

HIDDEN = (16,)


def _network(seed: int = 0) -> PolicyValue:
    torch.manual_seed(seed)
    net = build_actor("candidate", HIDDEN, {"decks": 1}, value=True, context=CONTEXT_FEATURES)
    assert isinstance(net, PolicyValue)
    return net


@pytest.fixture(scope="module")
def network_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("alpha") / "net.pt"
    save_checkpoint(
        path, _network(), game="candidate", hidden=HIDDEN, options={"decks": 1}, steps=0
    )
    return path


EVALUATOR: NetEvaluator = evaluator_of(_network())


def _deal_with_reshuffles(seed: int) -> list[tuple[CandidateInfo, CandidateInfo]]:
    """Decisions of a deal played by greedy, each with the same seat's information in a
    state whose hidden cards (the opponent's hand, the piles) were dealt anew."""
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    rng = random.Random(seed)
    greedy = GreedyBot(seed)
    found = []
    while not state.is_terminal():
        player = state.current_player
        info = CandidateInfo.of(state, player)
        if len(info.legal) > 1 and rng.random() < 0.3:
            other = state.resample_hidden(player, rng)
            assert other.view(player) == state.view(player)
            found.append((CandidateInfo.of(state.clone(), player), CandidateInfo.of(other, player)))
        state.apply_action(greedy.choose(info))
    return found


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10**6))
def test_alpha_and_the_policy_ignore_reshuffled_hidden_cards(seed: int) -> None:
    """Both see one seat's information set: redealing the cards hidden from the seat
    changes neither the search's root statistics nor the policy's move."""
    bot = AlphaBot(seed, iterations=40, evaluator=EVALUATOR)
    for info, other in _deal_with_reshuffles(seed):
        first = bot.search(info)
        second = bot.search(other)
        assert {a: (c.visits, c.total) for a, c in first.children.items()} == {
            a: (c.visits, c.total) for a, c in second.children.items()
        }
        assert policy_choice(EVALUATOR, info) == policy_choice(EVALUATOR, other)


def test_the_learned_bot_on_the_network_ignores_reshuffled_hidden_cards(
    network_file: Path,
) -> None:
    bot = LearnedBot(seed=0, path=str(network_file))
    for info, other in _deal_with_reshuffles(21):
        assert bot.choose(info) == bot.choose(other) == policy_choice(EVALUATOR, info)


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([0.0, 0.5, 1.0]))
def test_alpha_plays_legal_moves_and_is_deterministic(seed: int, mix: float) -> None:
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    bots = [AlphaBot(seed, iterations=20, evaluator=EVALUATOR, mix=mix), GreedyBot(seed)]
    twin = AlphaBot(seed, iterations=20, evaluator=EVALUATOR, mix=mix)
    while not state.is_terminal():
        player = state.current_player
        info = CandidateInfo.of(state, player)
        action = bots[player].choose(info)
        if player == 0:
            assert twin.choose(info) == action
            analysis = bots[0].analyse(info)
            assert sum(m.visits for m in analysis.moves) == (20 if len(info.legal) > 1 else 1)
        state.apply(action)  # checked: raises on an illegal move


def test_alpha_specs_parse_and_make_the_bot(network_file: Path) -> None:
    spec = parse_bot_spec("candidate", f"alpha:30:{network_file}")
    assert (spec.name, spec.iterations, spec.path) == ("alpha", 30, str(network_file))
    assert spec.label == f"alpha:30:{network_file}"
    bot = make_bot(spec, 4)
    assert isinstance(bot, AlphaBot)
    assert (bot.budget.iterations, bot.path, bot.seed) == (30, str(network_file), 4)
    assert parse_bot_spec("candidate", spec.label) == spec  # the label reads back


def test_bad_alpha_specs_are_one_clear_line(network_file: Path, tmp_path: Path) -> None:
    with pytest.raises(BadOptions, match="bad budget '0'"):
        parse_bot_spec("candidate", f"alpha:0:{network_file}")
    with pytest.raises(BadOptions, match="write alpha:N:PATH"):
        parse_bot_spec("candidate", "alpha:10:")
    with pytest.raises(BadOptions, match="no checkpoint at"):
        parse_bot_spec("candidate", f"alpha:10:{tmp_path / 'none.pt'}")
    policy = tmp_path / "policy.pt"
    actor = build_actor("candidate", HIDDEN, {"decks": 1})
    save_checkpoint(policy, actor, game="candidate", hidden=HIDDEN, options={}, steps=0)
    with pytest.raises(BadOptions, match="without a value head"):
        parse_bot_spec("candidate", f"alpha:10:{policy}")
    with pytest.raises(BadOptions, match="mix must be within 0-1"):
        AlphaBot(mix=2.0)


def test_the_numpy_evaluator_computes_what_the_network_does() -> None:
    net = _network(5)
    evaluator = evaluator_of(net)
    state = CandidateState.new(3, CandidateOptions(deals=1))
    from cardtable.games.candidate.encoding import encode_view

    obs = encode_view(state.view(state.current_player), state.current_player)
    weights, value = evaluator(obs)
    with torch.no_grad():
        expected_weights, expected_value = net.both(torch.tensor([obs]))
    assert weights == pytest.approx(expected_weights[0].tolist(), abs=1e-5)
    assert value == pytest.approx(float(expected_value[0]), abs=1e-5)


def test_the_policy_scores_moves_as_the_network_and_its_move_context_say() -> None:
    """A move's logit is the head's weights times the move's fixed features and its
    move-context numbers, computed in PyTorch here and in NumPy by the bots."""
    net = _network(7)
    evaluator = evaluator_of(net)
    state = CandidateState.new(12, CandidateOptions(deals=1))
    greedy = GreedyBot(0)
    checked = 0
    while not state.is_terminal():
        info = CandidateInfo.of(state, state.current_player)
        from cardtable.games.candidate.encoding import encode_view

        with torch.no_grad():
            weights = net.both(torch.tensor([encode_view(info.view, info.player)]))[0][0]
        fixed = candidate_action_features(info.legal) @ weights[:-CONTEXT_FEATURES]
        context = context_of_info(info)
        numbers = torch.tensor([move_context(context, a) for a in info.legal])
        expected = fixed + numbers @ weights[-CONTEXT_FEATURES:]
        assert policy_logits(evaluator, info) == pytest.approx(expected.tolist(), abs=1e-4)
        checked += len(info.legal) > 1
        state.apply(greedy.choose(info))
    assert checked > 10


def test_the_shipped_network_is_small_and_plays_as_learned_and_alpha() -> None:
    """The package ships the expert-iteration network (``alpha_candidate.pt``): plain
    ``learned`` plays its policy alone and plain ``alpha:N`` searches with it."""
    from cardtable.bots.learned import load_evaluator, shipped_network, shipped_policy

    shipped = shipped_network()
    assert shipped is not None
    assert shipped.stat().st_size < 2_000_000  # a few MB at most
    assert shipped_policy("candidate") == shipped
    net = load_evaluator(str(shipped))
    assert net.context == CONTEXT_FEATURES
    learned = make_bot(parse_bot_spec("candidate", "learned"), 3)
    alpha = make_bot(parse_bot_spec("candidate", "alpha:20"), 3)
    state = CandidateState.new(9, CandidateOptions(deals=1))
    while not state.is_terminal():
        info = CandidateInfo.of(state, state.current_player)
        assert learned.choose(info) == policy_choice(net, info)
        state.apply(alpha.choose(info))  # checked: raises on an illegal move
