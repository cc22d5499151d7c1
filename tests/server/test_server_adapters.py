"""The real games behind the server's adapter interface."""

from __future__ import annotations

import json
import random

import pytest

from cardtable.errors import BadOptions, IllegalMove
from cardtable.server.adapters import CandidateSession, SpySession, default_games
from cardtable.server.games import ANYONE, state_hash


def play_randomly(session: CandidateSession | SpySession, rng: random.Random, limit: int) -> None:
    for _ in range(limit):
        if session.is_terminal():
            return
        to_move = session.to_move()
        seats = range(session.seats) if to_move == ANYONE else [to_move]
        seat = rng.choice([s for s in seats if s is not None and session.legal_moves(s)])
        moves = session.legal_moves(seat)
        quiet = [m for m in moves if not m.endswith("resign")] or moves
        session.apply(seat, rng.choice(quiet))


def test_candidate_views_equal_the_engines_own_to_dict() -> None:
    kind = default_games()["candidate"]
    rng = random.Random(2)
    for seed in range(4):
        session = kind.create(seed=seed, players=["A", "B"], options={"deals": 2})
        assert isinstance(session, CandidateSession)
        for _ in range(60):
            for seat in (0, 1, None):
                sent = json.loads(json.dumps(session.view(seat)))
                assert sent == session.state.view(seat).to_dict()
            if session.is_terminal():
                break
            play_randomly(session, rng, 1)


def test_same_seed_same_moves_same_state() -> None:
    for name in ("candidate", "spy"):
        kind = default_games()[name]
        options = kind.check_options({}, 2)
        one = kind.create(seed=9, players=["A", "B"], options=options)
        two = kind.create(seed=9, players=["A", "B"], options=options)
        play_randomly(one, random.Random(1), 40)
        play_randomly(two, random.Random(1), 40)
        assert state_hash(one) == state_hash(two)
        assert one.record() == two.record()


def test_spy_moves_with_or_without_the_seat_number_and_never_for_another_seat() -> None:
    kind = default_games()["spy"]
    session = kind.create(seed=3, players=["A", "B"], options=kind.check_options({}, 2))
    assert session.to_move() == ANYONE
    assert session.apply(1, "turn").affected == frozenset({1})
    assert session.apply(0, "0 turn").affected == frozenset({0})
    with pytest.raises(IllegalMove, match="player 0"):
        session.apply(0, "1 turn")


def test_candidate_refuses_the_wrong_seat() -> None:
    kind = default_games()["candidate"]
    session = kind.create(seed=3, players=["A", "B"], options=kind.check_options({}, 2))
    seat = session.to_move()
    assert isinstance(seat, int)
    assert session.legal_moves(1 - seat) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        session.apply(1 - seat, session.legal_moves(seat)[0])


def test_bad_options_and_seat_counts_are_bad_options() -> None:
    games = default_games()
    with pytest.raises(BadOptions):
        games["candidate"].check_options({"decks": 9}, 2)
    with pytest.raises(BadOptions):
        games["spy"].check_options({"rounds": 0}, 2)
    with pytest.raises(BadOptions):
        games["spy"].check_options({}, 9)
