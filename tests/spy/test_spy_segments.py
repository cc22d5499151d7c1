"""How each round ended, as the match tells every face (S10, S12-S14): the golden
records replayed through :class:`SpyMatch` give who called «finished», a blocked round
and a round everyone left, with the round's scores and the running totals."""

from __future__ import annotations

from make_spy_golden import GOLDEN

from cardtable.games.base import running_totals
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy.match import SpyMatch
from cardtable.record import load_record


def replayed(name: str) -> SpyMatch:
    """The golden record ``name`` played through a match, round by round."""
    record = load_record((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    state = SpyState(record["players"], options=SpyOptions.from_dict(record["options"]))
    match = SpyMatch(state)
    for played in record["rounds"]:
        state.start_round(played["cards"])
        for move in played["moves"]:
            seat = int(move.split()[0])
            match.apply(seat, move)
    return match


def test_a_called_round_names_its_first_caller_s10_s14() -> None:
    match = replayed("three-full-decks")
    first = match.segment_results()[0]
    finisher = match.state.results[0].finisher
    assert first.ending == "called"
    assert first.ended_by == finisher
    assert first.scores == match.state.results[0].scores
    assert first.scores[finisher] < 0  # S14: the caller's bonus is negative


def test_a_blocked_round_and_a_round_everyone_left_name_no_one_s12_s13() -> None:
    blocked = replayed("both-blocked").segment_results()[0]
    assert (blocked.ending, blocked.ended_by) == ("blocked", None)
    left = replayed("all-resign").segment_results()[0]
    assert (left.ending, left.ended_by) == ("resigned", None)


def test_the_totals_after_each_round_add_up_to_the_match_totals_s16() -> None:
    match = replayed("greedy-match")
    results = match.segment_results()
    assert len(results) == len(match.state.results) > 1
    assert [r.number for r in results] == list(range(1, len(results) + 1))
    assert [r.totals for r in results] == running_totals([r.scores for r in results])
    assert results[-1].totals == tuple(match.state.totals)
