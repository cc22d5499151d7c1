"""ISMCTS's fast determinisation (``CandidateInfo.sampler``) and playout
(``playout.random_playout``): they use only the seat's information set."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable.bots.candidate_ismcts import DealIsmctsBot, IsmctsBot
from cardtable.bots.registry import make_bot, parse_bot_spec
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.playout import random_playout


def _mid_deal(seed: int, moves: int) -> CandidateState:
    """A one-deal match after at least ``moves`` random moves, at a play decision."""
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    rng = random.Random(seed)
    made = 0
    while True:
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
        if made >= moves and state.decision == "play" and len(state.legal_actions()) > 2:
            return state


def _suits(cards: list[int]) -> Counter[int]:
    return Counter(kind // 13 for kind in cards)


@pytest.mark.parametrize(("seed", "moves"), [(1, 5), (2, 30), (3, 45), (4, 60)])
def test_sampler_draws_are_consistent_with_the_seat_c3_c4_c10(seed: int, moves: int) -> None:
    """A draw keeps the seat's hand, the opponent's public count per suit (C3, C4,
    C10), each pile's suit and size and the unseen cards as a whole."""
    state = _mid_deal(seed, moves)
    player = state.current_player
    other = 1 - player
    unseen = Counter(state.hand(other))
    for suit in range(4):
        unseen.update(state.pile(suit))
    sampler = CandidateInfo.of(state, player).sampler()
    rng = random.Random(seed)
    for _ in range(20):
        drawn = sampler.draw(rng)
        assert drawn.hand(player) == state.hand(player)
        assert _suits(drawn.hand(other)) == _suits(state.hand(other))
        left = Counter(drawn.hand(other))
        for suit in range(4):
            rest = drawn.pile(suit)
            assert len(rest) == len(state.pile(suit))
            assert all(kind // 13 == suit for kind in rest)
            left.update(rest)
        assert left == unseen
        assert drawn.legal_actions() == state.legal_actions()
        random_playout(drawn, rng.random)  # plays on to the end of the deal
        assert drawn.is_terminal()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sampler_and_search_ignore_reshuffled_hidden_cards(seed: int) -> None:
    """Two true states the seat cannot tell apart (the hidden cards redealt) give the
    same draws from the same generator, and the same search, move by move."""
    state = _mid_deal(seed, 25)
    player = state.current_player
    other = state.resample_hidden(player, random.Random(99))
    assert other.hand(1 - player) != state.hand(1 - player) or other.piles != state.piles
    first = CandidateInfo.of(state, player)
    second = CandidateInfo.of(other, player)
    a, b = first.sampler(), second.sampler()
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(10):
        x, y = a.draw(rng_a), b.draw(rng_b)
        assert x.hand(1 - player) == y.hand(1 - player)
        assert x.piles == y.piles
    for bot in (
        IsmctsBot(7, iterations=150),
        IsmctsBot(7, iterations=150, rollout_depth=None, reward="win"),
    ):
        assert bot.analyse(first).moves == bot.analyse(second).moves


def test_random_playout_stops_after_its_moves_or_at_the_deal_end() -> None:
    state = _mid_deal(6, 10)
    before = len(state.moves)
    random_playout(state, random.Random(1).random, 7)
    assert len(state.moves) == before + 7
    random_playout(state, random.Random(1).random)
    assert state.is_terminal()


def test_unknown_reward_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown reward"):
        IsmctsBot(reward="score")


def test_ismcts_deal_is_ismcts_with_playouts_to_the_deal_end() -> None:
    """``ismcts-deal`` (named on the command line like any bot) searches exactly as
    ``IsmctsBot`` with no cut: the same visits and values at the root, a legal move."""
    state = _mid_deal(5, 30)
    info = CandidateInfo.of(state, state.current_player)
    bot = make_bot(parse_bot_spec("candidate", "ismcts-deal:200"), seed=7)
    assert isinstance(bot, DealIsmctsBot)
    assert bot.rollout_depth is None
    assert bot.name == "ismcts-deal"
    same = IsmctsBot(7, iterations=200, rollout_depth=None)
    ours = {a: (c.visits, c.total) for a, c in bot.search(info).children.items()}
    assert ours == {a: (c.visits, c.total) for a, c in same.search(info).children.items()}
    assert bot.choose(info) in info.legal
