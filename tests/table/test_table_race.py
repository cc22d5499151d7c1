"""A race's shared start and its times at the table (S17), and the pause's account of
the round just over (S10, S12-S14), as every face gets them from :class:`Table`.

Before every Spy round the table counts ``pacing.start_count`` seconds: no move is
accepted (``table.counting``), no bot is due and no clock runs, so everyone starts
together. The race time is the table's; the pause carries the engine's account of how
the round ended.
"""

from __future__ import annotations

import pytest
from table_helpers import spy_table

from cardtable.games.registry import find_game
from cardtable.messages import render
from cardtable.table import Pacing, Status, Table, TimeControl

SPY = find_game("spy")
CANDIDATE = find_game("candidate")


def race_table(bots: tuple[str | None, ...] = (None, None), **kw: object) -> Table:
    """A two-round Spy table whose people join at time 0 (the count starts then)."""
    return spy_table(bots=bots, rounds=2, **kw)


def test_the_race_starts_after_a_shared_count_s17() -> None:
    table = race_table(pacing=Pacing(start_count=3.0, segment_pause=0.0))
    assert table.status is Status.PLAYING
    assert table.snapshot(0, 0.4)["count"] == {"seconds": 2.6}
    assert table.legal_moves(0) == []
    refused = table.submit(0, "turn", version=None, move_id=None, now=1.2)
    assert refused.outcome == "refused"
    assert refused.code == "counting"
    assert refused.message_id == "table.counting"
    assert refused.params == {"seconds": 2}
    assert render("table.counting", refused.params, "uk").startswith("гонка почнеться за 2 с")
    assert table.next_wakeup() == pytest.approx(3.0)
    table.tick(3.0)
    snap = table.snapshot(0, 4.5)
    assert snap["count"] is None
    assert snap["race"] == {"elapsed": 1.5, "times": []}
    assert table.submit(0, "turn", version=None, move_id=None, now=4.5).outcome == "accepted"


def test_bots_and_clocks_wait_for_the_count() -> None:
    table = race_table(
        bots=(None, "hard"),
        pacing=Pacing(start_count=3.0),
        time_control=TimeControl(initial_ms=60_000, increment_ms=0),
    )
    assert table.due_bots(2.9) == []
    assert table.bot_seats_to_move() == []
    assert table.clocks(2.5) == [60.0, 60.0]
    table.tick(3.0)
    assert table.bot_seats_to_move() == [1]
    wake = table.next_wakeup()
    assert wake is not None
    assert wake > 3.0  # the bot's first move time starts with the race
    assert table.clocks(4.0) == [59.0, 60.0]  # the person's clock runs, the bot's does not


def test_each_round_gets_its_count_and_its_time_after_the_pause() -> None:
    table = race_table(pacing=Pacing(start_count=3.0, segment_pause=10.0))
    table.tick(3.0)
    for seat in (0, 1):
        assert table.submit(seat, "resign", version=None, move_id=None, now=13.0).outcome == (
            "accepted"
        )
    snap = table.snapshot(0, 14.0)
    assert snap["race"] == {"elapsed": 10.0, "times": [10.0]}
    assert snap["pause"]["segment"]["ending"] == "resigned"
    assert snap["count"] is None
    table.ready(0, 15.0)
    table.ready(1, 15.0)  # the pause ends: round 2's count begins
    assert table.paused_until is None
    assert table.snapshot(0, 16.0)["count"] == {"seconds": 2.0}
    assert table.snapshot(0, 16.0)["race"] == {"elapsed": 0.0, "times": [10.0]}
    assert table.submit(0, "turn", version=None, move_id=None, now=16.0).code == "counting"
    table.tick(18.0)
    assert table.snapshot(0, 20.0)["race"] == {"elapsed": 2.0, "times": [10.0]}


def test_the_race_time_is_kept_to_the_end_s16() -> None:
    table = race_table(pacing=Pacing(start_count=1.0, segment_pause=0.0))
    for start in (1.0, 7.0):  # round 2 is dealt at 6.0: its count ends at 7.0
        table.tick(start)
        for seat in (0, 1):
            table.submit(seat, "resign", version=None, move_id=None, now=start + 5.0)
        assert table.counting_until is not None or table.status is Status.FINISHED
    assert table.status is Status.FINISHED
    snap = table.snapshot(0, 99.0)
    assert snap["race"] == {"elapsed": 5.0, "times": [5.0, 5.0]}
    restored = Table.restore(
        table_id=table.id,
        game=SPY,
        options=table.options,
        seed=table.seed,
        time_control=None,
        rated=True,
        status=table.status,
        version=table.version,
        meta=table.meta(),
        moves=table.moves,
        rematch_of=None,
        now=200.0,
    )
    assert restored.snapshot(0, 201.0)["race"] == snap["race"]


def test_the_pause_says_who_called_finished_s10_s14() -> None:
    """The pause carries the engine's account: who called, the round's scores (S14) and
    the totals after it."""
    table = race_table(pacing=Pacing(start_count=0.0, segment_pause=10.0))
    match = table.match
    assert match is not None
    # Seat 1 resigns; seat 0 plays its points pile out with the engine's own moves until
    # it may call (a resigned player still scores the bonus, S13-S14).
    table.submit(1, "resign", version=None, move_id=None, now=1.0)
    now = 1.0
    while "0 call" not in table.legal_moves(0):
        moves = table.legal_moves(0)
        assert moves, "seat 0 is stuck"
        pick = next((m for m in moves if "points" in m), None)
        pick = pick or next((m for m in moves if "place waste" in m), None) or "0 turn"
        now += 0.1
        table.submit(0, pick, version=None, move_id=None, now=now)
        assert now < 200
    table.submit(0, "call", version=None, move_id=None, now=now + 0.1)
    segment = table.snapshot(1, now + 1)["pause"]["segment"]
    assert segment["ending"] == "called"
    assert segment["ended_by"] == 0
    assert segment["number"] == 1
    assert segment["scores"][0] < segment["scores"][1]  # the caller scores the -bonus
    assert segment["totals"] == segment["scores"]


def test_turn_based_tables_have_no_count_and_no_race() -> None:
    table = Table.create(
        table_id="c1",
        game=CANDIDATE,
        options={},
        seed=3,
        bot_levels=[None, None],
        invites=["a", "b"],
        pacing=Pacing(start_count=3.0),
    )
    table.join("a", "Ann", "tok-a", 0.0)
    table.join("b", "Bob", "tok-b", 0.0)
    snap = table.snapshot(0, 0.5)
    assert snap["count"] is None
    assert snap["race"] is None
    assert table.legal_moves(table.match.to_move() or 0)  # type: ignore[union-attr]
