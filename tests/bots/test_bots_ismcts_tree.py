"""The ISMCTS search on the compiled core grows the very tree of the pure search.

With the compiled core the search's iterations run in C on a tree kept there
(``games/candidate/_ismcts.h``), read back as :class:`~cardtable.bots.candidate_ismcts.Node`
objects at the end. For the same random numbers every node — its move, mover, visits,
availability and total reward — equals the pure search's, for both rewards and any
playout length, from positions all over one- and two-deal matches (the pinned root
figures of ``test_bots_ismcts_pinned.py`` hold on both engines too).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.bots.candidate_ismcts import IsmctsBot, Node
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate import engine as engines
from cardtable.games.candidate.info import CandidateInfo

needs_core = pytest.mark.skipif(not engines.available(), reason="the compiled core was not built")


def tree(node: Node) -> tuple[Any, ...]:
    """A node and its subtree, children in the order they were added."""
    children = [tree(c) for c in node.children.values()]
    return (node.action, node.mover, node.visits, node.availability, node.total, children)


def positions(count: int) -> list[CandidateInfo]:
    """Information sets at random moments of one- and two-deal matches (one deck)."""
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        state = CandidateState.new(seed, CandidateOptions(deals=1 + seed % 2))
        for _ in range(rng.randrange(4, 160)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(CandidateInfo.of(state, state.current_player))
    return found


@needs_core
@pytest.mark.parametrize(("depth", "reward"), [(12, "margin"), (None, "win"), (0, "margin")])
def test_the_compiled_search_grows_the_same_tree(depth: int | None, reward: str) -> None:
    for i, info in enumerate(positions(14)):
        grown = []
        for name in (engines.PURE, engines.COMPILED):
            with engines.using(name):
                bot = IsmctsBot(i, iterations=250, rollout_depth=depth, reward=reward)
                grown.append(tree(bot.search(info)))
        assert grown[1] == grown[0], f"position {i}"


def test_several_decks_search_in_python_on_either_engine() -> None:
    """The core covers one deck; a two-deck search runs the pure iterations (C1)."""
    state = CandidateState.new(3, CandidateOptions(decks=2, deals=1))
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    info = CandidateInfo.of(state, state.current_player)
    grown = []
    for name in (engines.PURE, engines.COMPILED) if engines.available() else (engines.PURE,):
        with engines.using(name):
            grown.append(tree(IsmctsBot(1, iterations=100).search(info)))
    assert all(g == grown[0] for g in grown)
