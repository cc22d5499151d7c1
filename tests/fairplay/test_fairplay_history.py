"""Agreement pooled over games and the recent games against the player's history."""

from __future__ import annotations

import math

import pytest

from cardtable.fairplay import (
    Counts,
    DecisionCheck,
    GameAgreement,
    GameSignals,
    compare_history,
    player_signals,
    pooled_agreement,
    race_speed,
    wilson_interval,
)
from cardtable.fairplay.history import HistoryComparison
from cardtable.fairplay.signals import RECENT, segment_counts


def test_wilson_interval_on_hand_made_counts() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0)
    assert 0.69 < low < 0.73
    with pytest.raises(ValueError, match="11 successes out of 10"):
        wilson_interval(11, 10)


def test_pooled_agreement_counts_decisions_not_games() -> None:
    summary = pooled_agreement([Counts(1, 1), Counts(30, 99)])
    assert summary.rate == pytest.approx(31 / 100)
    assert (summary.games, summary.decisions) == (2, 100)
    assert summary.low < 0.31 < summary.high


def test_a_jump_above_a_steady_history_scores_high() -> None:
    history = [Counts(10, 20)] * 10  # every earlier game exactly 50 %: no overdispersion
    jump = compare_history(history, [Counts(18, 20)] * 5)
    assert jump is not None
    assert jump.dispersion == 1.0
    # (0.9 − 0.5) / sqrt(p(1 − p) (1/200 + 1/100)) with p = 101/202
    assert jump.z == pytest.approx(0.4 / math.sqrt(0.25 * (1 / 200 + 1 / 100)), rel=1e-6)
    same = compare_history(history, [Counts(10, 20)] * 5)
    assert same is not None
    assert same.z == pytest.approx(0.0)
    drop = compare_history(history, [Counts(4, 20)] * 5)
    assert drop is not None
    assert drop.z < -3


def test_a_spread_out_history_weighs_the_same_jump_less() -> None:
    spread = [Counts(4, 20), Counts(16, 20)] * 5  # per-game rates 20 % and 80 %
    recent = [Counts(14, 20)] * 5
    steady = compare_history([Counts(10, 20)] * 10, recent)
    wide = compare_history(spread, recent)
    assert steady is not None
    assert wide is not None
    assert wide.dispersion > 5
    assert 0 < wide.z < steady.z / 2


def test_history_needs_two_earlier_games_and_decisions() -> None:
    assert compare_history([Counts(5, 10)], [Counts(9, 10)]) is None
    assert compare_history([Counts(5, 10)] * 3, [Counts(0, 0)]) is None
    comparison = compare_history([Counts(0, 10)] * 3, [Counts(1, 10)])
    assert comparison is not None
    assert math.isfinite(comparison.z)


def test_history_round_trips_through_json() -> None:
    comparison = compare_history([Counts(3, 9), Counts(7, 11)], [Counts(9, 10)])
    assert comparison is not None
    again = HistoryComparison.from_dict(comparison.to_dict())
    assert again.to_dict() == comparison.to_dict()


def _game(
    game: str, agreements: int, decisions: int, times: list[float] | None = None
) -> GameSignals:
    checks = tuple(
        DecisionCheck(1, i + 1, "pass", "pass" if i < agreements else "play QS")
        for i in range(decisions)
    )
    speeds = (race_speed(times),) if times is not None else ()
    return GameSignals(game, 0, GameAgreement(game, 0, "ref", checks), speeds)


def test_player_signals_pool_and_point_at_what_is_past_its_level() -> None:
    person = [_game("candidate", 12, 20)] * 45
    calm = player_signals(person)
    assert calm.attention == ()
    assert calm.history is not None
    assert calm.history.z == pytest.approx(0.0)
    switched = player_signals(person + [_game("candidate", 19, 20)] * RECENT)
    assert switched.attention == ("agreement", "history")
    assert switched.recent.rate == pytest.approx(0.95)
    new = player_signals([_game("candidate", 19, 20)] * (RECENT - 1))
    assert new.attention == ()  # too few deals to point at anything
    assert new.history is None


def test_player_signals_pool_by_deal_not_by_match() -> None:
    checks = tuple(
        DecisionCheck(deal, i + 1, "pass", "pass" if deal % 2 else "play QS")
        for deal in range(1, 13)
        for i in range(3)
    )
    match = GameSignals("candidate", 1, GameAgreement("candidate", 1, "ref", checks))
    assert segment_counts([match]) == [Counts(3 if d % 2 else 0, 3) for d in range(1, 13)]
    signals = player_signals([match, match])
    assert signals.games == 2
    assert signals.recent.decisions == 3 * RECENT
    assert signals.history is not None
    assert signals.history.earlier.games == 24 - RECENT


def test_a_script_racing_every_round_points_at_the_pace() -> None:
    fast = [0.2 * i for i in range(1, 30)]
    slow = [0.8 * i for i in range(1, 30)]
    spy = player_signals([_game("spy", 5, 10, fast)] * 2 + [_game("spy", 5, 10, slow)])
    assert spy.speed is not None
    assert (spy.speed.flagged, spy.speed.measured) == (2, 3)
    assert "speed" in spy.attention
    data = spy.to_dict()
    assert data["levels"]["speed"] == 3.0
    assert data["history"] is None
    once = player_signals([_game("spy", 5, 10, fast)] + [_game("spy", 5, 10, slow)] * 2)
    assert once.speed is not None
    assert once.speed.flagged == 1
    assert once.attention == ()  # one quick round is shown, not pointed at


def test_player_signals_take_one_kind_of_game() -> None:
    with pytest.raises(ValueError, match="one kind"):
        player_signals([_game("candidate", 1, 2), _game("spy", 1, 2)])
    with pytest.raises(ValueError, match="one kind"):
        player_signals([])


def test_game_signals_round_trip_through_json() -> None:
    game = _game("spy", 3, 7, [0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    assert GameSignals.from_dict(game.to_dict()) == game
