"""The Spy race-speed signal on hand-made time series, and on stored moves."""

from __future__ import annotations

import pytest

from cardtable.fairplay import HUMAN_LIMIT, WINDOW, StoredMove, race_speed, round_speeds
from cardtable.fairplay.signals import speed_summary
from cardtable.games.registry import find_game


def steady(rate: float, seconds: float, start: float = 0.0) -> list[float]:
    """Moves at exactly ``rate`` a second from ``start`` for ``seconds``."""
    count = round(rate * seconds)
    return [round(start + (i + 1) / rate, 1) for i in range(count)]


def test_a_steady_person_at_one_move_a_second_is_not_flagged() -> None:
    speed = race_speed(steady(1.0, 60))
    assert speed.moves == 60
    assert speed.mean_rate == pytest.approx(1.0)
    assert speed.peak_rate == pytest.approx(1.0, abs=0.11)
    assert not speed.flagged


def test_a_quick_person_at_two_moves_a_second_is_not_flagged() -> None:
    speed = race_speed(steady(2.0, 30))
    assert speed.peak_rate is not None
    assert speed.peak_rate < HUMAN_LIMIT
    assert not speed.flagged


def test_a_script_at_five_moves_a_second_is_flagged() -> None:
    speed = race_speed(steady(5.0, 20))
    assert speed.mean_rate == pytest.approx(5.0)
    assert speed.peak_rate == pytest.approx(5.0, abs=0.1)
    assert speed.flagged


def test_a_short_burst_is_averaged_over_the_window_a_sustained_one_is_not() -> None:
    # A person at 1/s who taps ten moves in two seconds once (turn, turn, turn…):
    burst = sorted(steady(1.0, 20) + steady(5.0, 2, start=10.05))
    assert not race_speed(burst).flagged  # 10 s around the burst hold about 20 moves
    assert race_speed(burst, window=2.0).flagged  # a 2 s window would call it a pace
    # Twelve seconds at 4/s inside a slow race is a pace, at the stretch's end.
    stretch = steady(4.0, 12, start=20.0)
    speed = race_speed(sorted(steady(0.5, 20) + stretch + steady(0.5, 10, start=32.0)))
    assert speed.flagged
    assert speed.peak_rate == pytest.approx(4.0, abs=0.2)
    assert speed.peak_at is not None
    assert 29.0 <= speed.peak_at <= 32.0


def test_a_race_shorter_than_the_window_is_measured_since_its_start() -> None:
    times = steady(4.0, 3)  # twelve moves in three seconds: the race ends in a call
    assert times[-1] < WINDOW
    speed = race_speed(times)
    assert speed.peak_rate == pytest.approx(4.0, abs=0.2)
    assert speed.flagged


def test_too_few_moves_give_no_peak_and_no_flag() -> None:
    speed = race_speed([0.2, 0.3, 0.4, 0.5, 0.6])
    assert speed.peak_rate is None
    assert not speed.flagged
    assert speed.mean_rate == pytest.approx(5 / 0.6)


def test_moves_at_one_stored_tenth_still_have_a_rate() -> None:
    speed = race_speed([1.0] * 8)
    assert speed.peak_rate == pytest.approx(8.0)
    assert speed.flagged


@pytest.mark.parametrize("bad", [-0.1, float("nan"), float("inf")])
def test_bad_times_are_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="race time"):
        race_speed([1.0, bad])


def test_speed_round_trips_through_json() -> None:
    speed = race_speed(steady(3.5, 10))
    assert type(speed).from_dict(speed.to_dict()).to_dict() == speed.to_dict()


def _spy_game() -> tuple[dict[str, object], list[StoredMove]]:
    """Seat 1 resigns; seat 0 turns quickly, some of its moves by a stand-in bot."""
    match = find_game("spy").new_match(seed=5, players=["A", "B"], options={"rounds": 1})
    stored = [StoredMove(1, match.apply(1, "resign").text, "player", 0.0)]
    t = 0.0
    for i in range(30):
        t += 0.2
        source = "substitute" if 10 <= i < 20 else "player"
        stored.append(StoredMove(0, match.apply(0, "turn").text, source, round(t, 1)))
    return match.record(), stored


def test_round_speeds_count_only_the_persons_own_timed_moves() -> None:
    record, stored = _spy_game()
    (seat0,) = round_speeds(record, stored, 0)
    assert seat0.moves == 20  # the stand-in's ten moves are not the person's
    assert seat0.flagged  # ten moves in two seconds, twice
    (seat1,) = round_speeds(record, stored, 1)
    assert seat1.moves == 1
    assert not seat1.flagged
    untimed = [StoredMove(m.seat, m.move, m.source, None) for m in stored]
    assert round_speeds(record, untimed, 0)[0].moves == 0
    summary = speed_summary([seat0, seat1])
    assert (summary.rounds, summary.flagged, summary.measured) == (2, 1, 1)


def test_stored_moves_that_are_not_the_records_are_refused() -> None:
    record, stored = _spy_game()
    with pytest.raises(ValueError, match="stored moves for a record"):
        round_speeds(record, stored[:-1], 0)
    swapped = [*stored[:-1], StoredMove(1, "1 turn", "player", 9.9)]
    with pytest.raises(ValueError, match="is not the record's"):
        round_speeds(record, swapped, 0)
