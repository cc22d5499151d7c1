"""The race clock (S17): the fast runner equals the naive global clock, races are
reproducible from their seed, and every race ends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.spy import SpyOptions
from cardtable.games.spy.race import (
    DEFAULT_MOVE_LIMIT,
    ExponentialTime,
    FixedTime,
    GreedyPolicy,
    LognormalTime,
    Policy,
    RandomPolicy,
    run_race,
    run_race_naive,
)
from cardtable.games.spy.records import replay_record

time_models = st.sampled_from(
    [FixedTime(), FixedTime(0.5), FixedTime(2.0), ExponentialTime(1.0), LognormalTime(1.2, 0.8)]
)


@settings(max_examples=100, deadline=None)
@given(
    players=st.integers(2, 8),
    full=st.booleans(),
    seed=st.integers(0, 10**9),
    greedy=st.lists(st.booleans(), min_size=8, max_size=8),
    times=st.lists(time_models, min_size=8, max_size=8),
    rounds=st.integers(1, 2),
)
def test_s17_fast_race_equals_the_naive_global_clock(
    players, full, seed, greedy, times, rounds
) -> None:
    def policies() -> list[Policy]:
        return [GreedyPolicy() if g else RandomPolicy() for g in greedy[:players]]

    options = SpyOptions(full_decks=full, rounds=rounds)
    kwargs = {"seed": seed, "options": options, "times": times[:players], "move_limit": 120}
    fast = run_race(players, policies(), **kwargs)
    naive = run_race_naive(players, policies(), **kwargs)
    assert fast.state.to_record() == naive.state.to_record()
    assert fast.rounds == naive.rounds
    assert fast.state.totals == naive.state.totals
    for race in fast.rounds:
        assert list(race.times) == sorted(race.times)  # the record is in time order
        if race.finisher is not None:
            assert race.outcomes[race.finisher] == "called"
            assert race.end_time == race.finish_times[race.finisher]


def test_s17_ties_in_the_naive_clock_follow_the_seeded_order() -> None:
    # With equal fixed move times every move of a round ties with the other players'
    # moves of the same number: the seeded order decides, round after round.
    result = run_race_naive(
        3, [RandomPolicy() for _ in range(3)], seed=5, move_limit=30, options=SpyOptions(rounds=3)
    )
    orders = set()
    for race, (_, moves) in zip(result.rounds, result.state.played_rounds(), strict=True):
        orders.add(race.order)
        first_players = [a // 17 for a in moves[:3]]
        assert first_players == list(race.order)
    assert len(orders) > 1  # not seat order every time


def test_race_is_reproducible_from_its_seed_and_depends_on_it() -> None:
    def race(seed: int):
        return run_race(
            4,
            [RandomPolicy(), GreedyPolicy(), RandomPolicy(), GreedyPolicy()],
            seed=seed,
            options=SpyOptions(rounds=2),
            times=[ExponentialTime(1.0)] * 4,
            move_limit=200,
        )

    first, again, other = race(11), race(11), race(12)
    assert first.state.to_record() == again.state.to_record()
    assert first.rounds == again.rounds
    assert first.state.to_record() != other.state.to_record()


def test_move_limit_makes_endless_turning_end() -> None:
    class TurnForever:
        def start_round(self, window, rng) -> None:
            pass

        def choose(self, window, legal):
            return legal[0]  # always turn

    result = run_race(
        2, [TurnForever(), TurnForever()], seed=3, move_limit=50, options=SpyOptions(rounds=1)
    )
    race = result.rounds[0]
    assert race.outcomes == ("resigned", "resigned")
    assert race.finisher is None
    moves = result.state.to_record()["rounds"][0]["moves"]
    assert len(moves) == 2 * 51
    assert moves[-2:] == ["0 resign", "1 resign"] or moves[-2:] == ["1 resign", "0 resign"]
    assert replay_record(result.state.to_record()).summary()["complete"]


def test_greedy_never_needs_the_move_limit() -> None:
    for seed in range(60):
        result = run_race(
            2,
            [GreedyPolicy(), GreedyPolicy()],
            seed=seed,
            options=SpyOptions(rounds=1, full_decks=seed % 2 == 1),
        )
        assert "resigned" not in result.rounds[0].outcomes
        assert max(s.moves for s in result.state.seats) < DEFAULT_MOVE_LIMIT


def test_runner_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="expected 2 policies"):
        run_race(2, [GreedyPolicy()], seed=1)
    with pytest.raises(ValueError, match="expected 2 move times"):
        run_race(2, [GreedyPolicy(), GreedyPolicy()], seed=1, times=[FixedTime()])
    with pytest.raises(ValueError, match="move_limit"):
        run_race(2, [GreedyPolicy(), GreedyPolicy()], seed=1, move_limit=0)


def test_policies_only_see_public_information() -> None:
    seen = []

    class Spy:
        def start_round(self, window, rng) -> None:
            seen.append(sorted(n for n in dir(window) if not n.startswith("_")))

        def choose(self, window, legal):
            return legal[-1]

    run_race(2, [Spy(), Spy()], seed=1, options=SpyOptions(rounds=1))
    # Every name is a public fact of the seat (S4-S5, S10, S12, S13), none a hidden card.
    assert seen[0] == [
        "blocked",
        "called",
        "deck_count",
        "moves",
        "pile_sizes",
        "pile_tops",
        "player",
        "points_count",
        "points_top",
        "resigned",
        "view",
        "waste_count",
        "waste_top",
    ]
