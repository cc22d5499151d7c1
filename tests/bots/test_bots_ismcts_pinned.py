"""ISMCTS decisions pinned: the same random numbers give the same root visits and
values, whichever engine (pure or compiled) and however the playouts are organised.

The figures were computed with the search as it was before its playouts moved into
``games/candidate/playout.py`` and before the compiled core; a change that alters them
changes the search's decisions, not only its speed. Positions cover every decision of
a deal (C6-C12: play, turn a lobby card, draw), two decks (C1) and a two-deal match
(C17); each is searched with the default 12-move cut and margin reward, and to the
deal's end with the win/loss reward.
"""

from __future__ import annotations

import random

import pytest

from cardtable.bots.candidate_ismcts import DealIsmctsBot, IsmctsBot
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo

#: Both engines: the pure search, and the compiled core's (its iterations in C).
pytestmark = pytest.mark.usefixtures("candidate_engine")

#: (seed, moves before, decks, deals) -> decision, then per search: (action, visits,
#: total reward) for every root child, sorted by action.
PINNED: dict[tuple[int, int, int, int], tuple[str, dict[str, list[tuple[int, int, float]]]]] = {
    (1, 5, 1, 1): (
        "play",
        {
            "cut": [(12, 10, -1.915144274), (10909, 290, 78.517187452)],
            "deal": [(12, 297, -19.0), (10909, 3, -3.0)],
        },
    ),
    (2, 30, 1, 1): (
        "play",
        {
            "cut": [(12, 41, -6.361451138), (7504, 259, 3.737850005)],
            "deal": [(12, 292, -72.0), (7504, 8, -6.0)],
        },
    ),
    (3, 45, 1, 1): (
        "lobby",
        {
            "cut": [(4, 16, -6.104993252), (6, 271, -11.182824181), (7, 13, -5.369136517)],
            "deal": [(4, 5, -3.0), (6, 237, 30.0), (7, 58, -6.0)],
        },
    ),
    (4, 60, 1, 2): (
        "draw",
        {
            "cut": [
                (8, 159, 37.280648477),
                (9, 44, 5.50763778),
                (10, 61, 9.116065193),
                (11, 36, 2.07335767),
            ],
            "deal": [(8, 5, -3.0), (9, 16, -2.0), (10, 213, 41.0), (11, 66, 6.0)],
        },
    ),
    (5, 80, 1, 1): (
        "draw",
        {
            "cut": [(8, 7, -3.534138376), (11, 293, 12.838267404)],
            "deal": [(8, 297, -23.0), (11, 3, -3.0)],
        },
    ),
    (6, 20, 2, 1): (
        "play",
        {
            "cut": [(12, 2, -0.888888889), (7504, 147, 89.083857493), (7845, 151, 95.550981275)],
            "deal": [(12, 2, -2.0), (7504, 296, 55.0), (7845, 2, -2.0)],
        },
    ),
    (7, 100, 1, 1): (
        "play",
        {
            "cut": [(12, 8, 0.771938207), (11590, 292, 197.856212509)],
            "deal": [(12, 1, -1.0), (11590, 299, 216.0)],
        },
    ),
}


def position(seed: int, moves: int, decks: int, deals: int) -> CandidateState:
    """The first decision with a choice after at least ``moves`` random moves."""
    state = CandidateState.new(seed, CandidateOptions(decks=decks, deals=deals))
    rng = random.Random(seed)
    made = 0
    while True:
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
        if made >= moves and len(state.legal_actions()) > 1:
            return state


@pytest.mark.parametrize("case", sorted(PINNED))
@pytest.mark.parametrize("search", ["cut", "deal"])
def test_root_visits_and_values_are_pinned(case: tuple[int, int, int, int], search: str) -> None:
    """300 simulations seeded by the position: every root child's visits and total."""
    decision, expected = PINNED[case]
    state = position(*case)
    assert state.decision == decision
    info = CandidateInfo.of(state, state.current_player)
    seed = case[0]
    bot = (
        IsmctsBot(seed, iterations=300)
        if search == "cut"
        else DealIsmctsBot(seed, iterations=300, reward="win")
    )
    root = bot.search(info)
    found = sorted((a, c.visits, round(c.total, 9)) for a, c in root.children.items())
    assert found == expected[search]
