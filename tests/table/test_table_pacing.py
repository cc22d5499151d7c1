"""The shared table's pacing: bot move times, the pause between rounds and deals (S17).

The server and the terminal app both drive :class:`cardtable.table.Table`, so these
tests pin the behaviour both show: after a Spy round ends the table pauses, refuses
moves, runs no bot and no clock, and goes on when the pause is over or every person at
the table is ready.
"""

from __future__ import annotations

import random

import pytest
from table_helpers import spy_table

from cardtable.errors import BadOptions
from cardtable.games.registry import find_game
from cardtable.table import Pacing, Source, Status, Table, TimeControl, parse_speed

SPY = find_game("spy")
CANDIDATE = find_game("candidate")


def end_spy_round(table: Table, now: float) -> None:
    """Every seat resigns: the round ends with no winner (S13, S14)."""
    for seat in range(len(table.seats)):
        answer = table.submit(seat, "resign", version=None, move_id=None, now=now)
        assert answer.outcome == "accepted", answer


def test_pause_between_spy_rounds_refuses_moves_and_stops_bots_s17() -> None:
    table = spy_table(bots=(None, None), pacing=Pacing(segment_pause=8.0, start_count=0.0))
    end_spy_round(table, now=10.0)
    assert table.status is Status.PLAYING
    assert table.paused_until == pytest.approx(18.0)
    refused = table.submit(0, "turn", version=None, move_id=None, now=11.0)
    assert refused.outcome == "refused"
    assert refused.code == "paused"
    assert refused.message_id == "table.paused_round"
    assert refused.params == {"seconds": 7}
    assert table.legal_moves(0) == []
    assert table.snapshot(0, 12.0)["pause"] == {
        "seconds": 6.0,
        "ready": [],
        "holds": False,
        "segment": {
            "number": 1,
            "scores": [0, 0],
            "totals": [0, 0],
            "ending": "resigned",  # S13: everyone left the round
            "ended_by": None,
        },
    }
    assert table.next_wakeup() == pytest.approx(18.0)
    table.tick(18.0)
    assert table.paused_until is None
    assert table.submit(0, "turn", version=None, move_id=None, now=18.5).outcome == "accepted"


def test_pause_ends_when_every_person_is_ready() -> None:
    table = spy_table(bots=(None, None, "easy"))
    end_spy_round(table, now=1.0)
    assert table.paused_until is not None
    assert not table.ready(0, 2.0)
    assert table.paused_until is not None
    assert table.ready(1, 2.5)
    assert table.paused_until is None


def test_bots_wait_out_the_pause_then_move_at_their_pace() -> None:
    table = spy_table(bots=(None, "hard"), pacing=Pacing(segment_pause=5.0, start_count=0.0))
    due = table.next_wakeup()
    assert due is not None
    assert 0 < due < 5
    assert table.due_bots(due) == [1]
    end_spy_round(table, now=due)
    assert table.due_bots(due + 4.9) == []
    table.tick(due + 5.0)
    assert table.due_bots(due + 5.0) == []  # a fresh move time starts now
    nxt = table.next_wakeup()
    assert nxt is not None
    assert nxt > due + 5.0
    assert table.due_bots(nxt) == [1]


def test_clocks_stand_still_during_the_pause() -> None:
    table = spy_table(
        bots=(None, None), time_control=TimeControl(initial_ms=60_000, increment_ms=0)
    )
    end_spy_round(table, now=10.0)
    clocks = table.clocks(10.0)
    assert table.clocks(15.0) == clocks
    table.tick(30.0)
    assert table.clocks(31.0) == [c - 1.0 for c in clocks]  # running again


def test_no_pause_after_the_last_round_s16() -> None:
    table = spy_table(bots=(None, None), rounds=1)
    end_spy_round(table, now=3.0)
    assert table.status is Status.FINISHED
    assert table.paused_until is None
    assert table.next_wakeup() is None


def test_candidate_pauses_between_deals_c13() -> None:
    table = Table.create(
        table_id="c1",
        game=CANDIDATE,
        options={"deals": 2},
        seed=3,
        bot_levels=["easy", "easy"],
        invites=["a", "b"],
        pacing=Pacing(segment_pause=4.0, turn_delay=0.0),
    )
    table.start(0.0)
    rng = random.Random(0)
    now = 0.0
    while table.paused_until is None:
        seats = table.due_bots(now)
        assert seats, "a bot is always due in a bot-only turn-based game"
        seat = seats[0]
        assert table.match is not None
        move = rng.choice(table.match.legal_moves(seat))
        answer = table.submit(seat, move, version=None, move_id=None, now=now, source=Source.BOT)
        assert answer.outcome == "accepted"
        now += 0.01
    assert table.match is not None
    assert table.match.segment() == 2
    segment = table.snapshot(None, now)["pause"]["segment"]  # the deal just over (C13)
    assert segment["number"] == 1
    assert segment["ending"] == "played"
    assert segment["ended_by"] is None
    assert segment["totals"] == segment["scores"]
    assert table.due_bots(now + 3.9) == []
    assert table.due_bots(now + 4.0) != []


def person_and_bot_at_pause(table_id: str, seed: int) -> tuple[Table, float]:
    """A Candidate table of Ann (connected) and an easy bot, played to the first pause."""
    table = Table.create(
        table_id=table_id,
        game=CANDIDATE,
        options={"deals": 2},
        seed=3,
        bot_levels=[None, "easy"],
        invites=["a", "b"],
        pacing=Pacing(segment_pause=4.0, turn_delay=0.0),
    )
    table.join("a", "Ann", "tok-a", now=0.0)
    table.set_connected(0, True)
    rng = random.Random(seed)
    now = 0.0
    while table.paused_until is None:
        assert table.match is not None
        seat = table.match.to_move()
        assert seat is not None
        move = rng.choice(table.match.legal_moves(seat))
        assert table.submit(seat, move, version=None, move_id=None, now=now).outcome == "accepted"
        now += 0.01
    return table, now


def test_candidate_summary_holds_until_every_person_present_continues_c13() -> None:
    """Between Candidate deals the pause outlasts its time while a person present has
    not continued; a person who leaves no longer holds it, and bots never do."""
    table, now = person_and_bot_at_pause("c2", seed=1)
    assert table.pause_holds
    assert table.waiting_for() == [0]
    assert table.snapshot(0, now)["pause"]["holds"] is True
    assert table.next_wakeup() is None  # nothing ends it by itself
    table.tick(now + 60.0)
    assert table.paused_until is not None, "the summary stayed though the time is up"
    assert table.due_bots(now + 60.0) == []
    table.set_connected(0, False)  # Ann left: nobody holds the pause any more
    assert not table.pause_holds
    table.tick(now + 60.0)
    assert table.paused_until is None
    assert table.match is not None
    assert table.match.segment() == 2


def test_candidate_pause_ends_at_once_when_the_person_continues_c13() -> None:
    table, now = person_and_bot_at_pause("c3", seed=2)
    assert table.ready(0, now + 100.0)
    assert table.paused_until is None


def test_race_bot_speeds_come_from_one_table() -> None:
    pacing = Pacing()
    assert pacing.speed_of("easy") == parse_speed("gentle")
    assert pacing.speed_of("medium") == parse_speed("slow")
    assert pacing.speed_of("hard") == parse_speed("steady")
    rng = random.Random(7)
    times = [pacing.move_time(2.0, rng) for _ in range(4000)]
    assert sum(times) / len(times) == pytest.approx(0.5, rel=0.05)  # mean 1 / speed
    with pytest.raises(BadOptions, match="bad speed"):
        parse_speed("warp")


def test_a_seat_handed_to_a_bot_is_scheduled_and_given_back() -> None:
    table = spy_table(bots=(None, None))
    assert table.bot_seats_to_move() == []
    assert table.set_substituted(0, True, now=1.0)
    assert table.bot_seats_to_move() == [0]
    assert table.bot_level(0) == "medium"
    wake = table.next_wakeup()
    assert wake is not None
    assert table.due_bots(wake) == [0]
    assert table.set_substituted(0, False, now=wake)
    assert table.due_bots(wake + 100) == []


def test_every_table_refusal_has_a_message_in_both_languages() -> None:
    """Each refusal of the table renders from the catalog to its English message."""
    from cardtable.messages import render
    from cardtable.table import TableError

    table = spy_table(bots=(None, None), pacing=Pacing(segment_pause=8.0, start_count=0.0))
    answers = [
        table.submit(0, "turn", version=table.version + 5, move_id=None, now=1.0),
        table.submit(0, "1 turn", version=None, move_id=None, now=1.0),
        table.submit(0, "place points 9", version=None, move_id=None, now=1.0),
        table.submit(9, "turn", version=None, move_id=None, now=1.0),
    ]
    table.submit(0, "turn", version=None, move_id=None, now=1.0)
    answers.append(table.submit(0, "turn", version=1, move_id=None, now=1.0))  # stale
    end_spy_round(table, now=2.0)
    answers.append(table.submit(0, "turn", version=None, move_id=None, now=3.0))  # paused
    waiting = Table.create(
        table_id="w",
        game=CANDIDATE,
        options={},
        seed=1,
        bot_levels=[None, None],
        invites=["a", "b"],
    )
    answers.append(waiting.submit(0, "pass", version=None, move_id=None, now=0.0))
    for answer in answers:
        assert answer.outcome in ("refused", "stale")
        assert answer.message_id is not None, answer
        assert answer.message is not None
        # An engine refusal's message names the move before the reason.
        assert answer.message.endswith(render(answer.message_id, answer.params, "en"))
        assert render(answer.message_id, answer.params, "uk") not in answer.message
    errors = []
    for attempt in (
        lambda: waiting.join("nope", "Ann", "t", 0.0),
        lambda: waiting.start(0.0),
        lambda: Table.create(
            table_id="x",
            game=CANDIDATE,
            options={},
            seed=1,
            bot_levels=[None] * 3,
            invites=["a", "b", "c"],
        ),
    ):
        with pytest.raises(TableError) as caught:
            attempt()
        errors.append(caught.value)
    for error in errors:
        assert render(f"table.{error.code}", error.params, "en") == error.message


def test_next_wakeup_leaves_out_the_seats_a_caller_already_acts_for() -> None:
    table = spy_table(
        bots=(None, "hard", "hard"), time_control=TimeControl(initial_ms=5_000, increment_ms=0)
    )
    first = table.next_wakeup()
    assert first is not None
    assert first < 5.0  # a bot's move comes before the person's clock runs out
    assert table.next_wakeup(busy={1, 2}) == pytest.approx(5.0)
    assert table.expired(5.1) == [0]
    assert table.next_wakeup(busy={0, 1, 2}) is None  # every seat's move is on its way
