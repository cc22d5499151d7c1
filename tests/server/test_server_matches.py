"""The real games as the server reaches them: through the registry's Game and Match."""

from __future__ import annotations

import json
import random

import pytest
from server_fakegame import state_hash

from cardtable.errors import BadOptions, IllegalMove
from cardtable.games.base import ANYONE, Match
from cardtable.games.candidate.match import CandidateMatch
from cardtable.server.runtime import default_games


def play_randomly(match: Match, rng: random.Random, limit: int) -> None:
    for _ in range(limit):
        if match.is_terminal():
            return
        to_move = match.to_move()
        seats = range(match.seats) if to_move == ANYONE else [to_move]
        seat = rng.choice([s for s in seats if s is not None and match.legal_moves(s)])
        moves = match.legal_moves(seat)
        quiet = [m for m in moves if not m.endswith("resign")] or moves
        match.apply(seat, rng.choice(quiet))


def test_candidate_views_equal_the_engines_own_to_dict() -> None:
    game = default_games()["candidate"]
    rng = random.Random(2)
    for seed in range(4):
        match = game.new_match(seed=seed, players=["A", "B"], options={"deals": 2})
        assert isinstance(match, CandidateMatch)
        for _ in range(60):
            for seat in (0, 1, None):
                sent = json.loads(json.dumps(match.view(seat)))
                assert sent == match.state.view(seat).to_dict()
            if match.is_terminal():
                break
            play_randomly(match, rng, 1)


def test_same_seed_same_moves_same_state() -> None:
    for name in ("candidate", "spy"):
        game = default_games()[name]
        options = game.check_options({}, 2)
        one = game.new_match(seed=9, players=["A", "B"], options=options)
        two = game.new_match(seed=9, players=["A", "B"], options=options)
        play_randomly(one, random.Random(1), 40)
        play_randomly(two, random.Random(1), 40)
        assert state_hash(one) == state_hash(two)
        assert one.record() == two.record()


def test_spy_moves_with_or_without_the_seat_number_and_never_for_another_seat() -> None:
    game = default_games()["spy"]
    match = game.new_match(seed=3, players=["A", "B"], options=game.check_options({}, 2))
    assert match.to_move() == ANYONE
    assert match.apply(1, "turn").affected == frozenset({1})
    assert match.apply(0, "0 turn").affected == frozenset({0})
    with pytest.raises(IllegalMove, match="player 0"):
        match.apply(0, "1 turn")


def test_candidate_refuses_the_wrong_seat() -> None:
    game = default_games()["candidate"]
    match = game.new_match(seed=3, players=["A", "B"], options=game.check_options({}, 2))
    seat = match.to_move()
    assert isinstance(seat, int)
    assert match.legal_moves(1 - seat) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        match.apply(1 - seat, match.legal_moves(seat)[0])


def test_bad_options_and_seat_counts_are_bad_options() -> None:
    games = default_games()
    with pytest.raises(BadOptions):
        games["candidate"].check_options({"decks": 9}, 2)
    with pytest.raises(BadOptions):
        games["spy"].check_options({"rounds": 0}, 2)
    with pytest.raises(BadOptions):
        games["spy"].check_options({}, 9)
