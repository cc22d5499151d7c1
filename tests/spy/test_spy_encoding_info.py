"""One Spy encoding for views and bots: a bot's information set (``SpyInfo``, from
``SpyMatch.bot_info``) encodes to exactly the floats of the same seat's public view at
the same moment (S4-S5: both hold only public facts), over random deals and play."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, CALL, RESIGN, TURN
from cardtable.games.spy.encoding import encode_info, encode_seat, info_seat
from cardtable.games.spy.info import SpyInfo
from cardtable.games.spy.match import SpyMatch

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _pick(rng: random.Random, legal: list[int]) -> int:
    """Mostly turns and placements, so races run long (S9 turn-overs, blocked seats);
    now and then a resignation, a call whenever one is legal."""
    local = {a % ACTIONS_PER_PLAYER: a for a in legal}
    if CALL in local:
        return local[CALL]
    moves = [a for a in legal if a % ACTIONS_PER_PLAYER != RESIGN]
    if not moves or rng.random() < 0.002:
        return local.get(RESIGN, legal[0])
    if TURN in local and rng.random() < 0.5:
        return local[TURN]
    return rng.choice(moves)


@FAST
@given(
    players=st.integers(2, 4),
    full_decks=st.booleans(),
    rounds=st.integers(1, 2),
    limit=st.sampled_from([None, 60, 200]),
    deal=st.integers(0, 2**32),
    play=st.integers(0, 2**32),
)
def test_the_information_set_encodes_as_the_seat_view(
    players: int, full_decks: bool, rounds: int, limit: int | None, deal: int, play: int
) -> None:
    """S4-S5: encode_info(bot_info(s)) == encode_seat(view.seats[s]) at random moments."""
    rng = random.Random(play)
    match = SpyMatch.new(
        seed=deal,
        players=[f"P{p}" for p in range(players)],
        options={"rounds": rounds, "full_decks": full_decks},
        move_limit=limit,
    )
    checked = 0
    for _ in range(3000):
        if match.is_terminal():
            break
        movers = [s for s in range(players) if match.legal_actions(s)]
        if not movers:
            break
        if not checked or rng.random() < 0.1:  # the first move, then random moments
            for seat in range(players):
                view = match.state.view(seat).seats[seat]
                info = match.bot_info(seat)
                assert encode_info(info) == encode_seat(view)
                checked += 1
        seat = rng.choice(movers)
        match.apply(seat, _pick(rng, match.legal_actions(seat)))
    seats = match.state.view(0).seats  # none once the match is over
    for seat in range(len(seats)):  # the cut: flags and counts still agree
        assert encode_info(match.bot_info(seat)) == encode_seat(seats[seat])
    assert checked > 0


def test_an_information_set_without_pile_sizes_has_no_view() -> None:
    """Built by hand for one decision, without the public sizes: refused, not guessed."""
    info = SpyInfo(
        player=0,
        points_top=3,
        points_count=4,
        tops=(5, 17),
        waste=(),
        deck=None,
        deck_count=20,
        unseen=(),
        legal=(0,),
        blocked=False,
    )
    with pytest.raises(ValueError, match="pile sizes"):
        info_seat(info)
