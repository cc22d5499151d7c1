"""The Spy expectimax bot: chance over unseen ranks (S4-S6, S9), never a deck order."""

from __future__ import annotations

import random

import pytest
from spy_bot_helpers import assert_blind_to_hidden_cards, seat_at_deal

from cardtable.bots.spy_expecti import (
    ExpectiBot,
    _Search,
    count_leaf,
    expected_costs,
    root_node,
    sample_world,
)
from cardtable.games.spy.actions import RESIGN, TURN


@pytest.mark.parametrize("seed", range(3))
def test_expectimax_decision_ignores_reshuffled_hidden_cards_s4_s5(seed: int) -> None:
    """Reshuffling the cards hidden from the owner (under the points-pile top, and the
    racing deck until the waste is turned over) changes neither its information nor
    its move."""
    assert_blind_to_hidden_cards(ExpectiBot(seed, iterations=4, depth=1, samples=1), seed)


def test_chance_outcomes_are_the_unseen_rank_counts_s6_s9() -> None:
    """A turn's outcomes are the ranks of the unseen cards, weighted by their counts
    (they sum to one), each taking one card of its rank from the pool."""
    pos, tracker = seat_at_deal(5)
    node = root_node(tracker.info(pos.legal))
    counts = node[3]
    moves = _Search().children(node)
    turns = [outs for key, outs, chance in moves if key == (TURN, None)]
    assert len(turns) == 1
    outs = turns[0]
    assert sum(p for p, _ in outs) == pytest.approx(1.0)
    assert len(outs) == sum(1 for c in counts if c)
    for p, child in outs:
        shown = child[4][-1]
        assert p == pytest.approx(counts[shown] / sum(counts))
        assert child[3][shown] == counts[shown] - 1
        assert child[5] == node[5] - 1


def test_expected_costs_cover_the_legal_moves_but_resigning() -> None:
    pos, tracker = seat_at_deal(2)
    info = tracker.info(pos.legal)
    costs = expected_costs(info, 1, samples=1)
    assert set(costs) == {m for m in info.locals if m != RESIGN}
    assert all(cost >= info.points_count + 1 for cost in costs.values())


def test_count_leaf_is_at_least_one_move_per_points_card() -> None:
    pos, tracker = seat_at_deal(7)
    node = root_node(tracker.info(pos.legal))
    assert count_leaf(node) >= node[2] + 1
    assert count_leaf((node[0], -1, 0, node[3], node[4], node[5])) == 1.0


def test_sampled_world_matches_the_abstract_node_s6() -> None:
    """A world drawn for a node keeps its tops, points-pile top, waste and sizes, and
    draws its hidden ranks from the unseen counts."""
    pos, tracker = seat_at_deal(9)
    node = root_node(tracker.info(pos.legal))
    world = sample_world(node, 0, random.Random(1))
    assert tuple(sorted(world.tops)) == node[0]
    assert world.points[-1] % 13 == node[1]
    assert len(world.points) == node[2]
    assert len(world.deck) == node[5]
    drawn = [k % 13 for k in world.points[:-1] + world.deck]
    for rank in range(13):
        assert drawn.count(rank) <= node[3][rank]
