"""The table authority as a pure class: seats, versions, stale and repeated moves, clocks."""

from __future__ import annotations

import pytest
from server_fakegame import FakeGame, state_hash

from cardtable.table import Pacing, Source, Status, Table, TableError, TimeControl


def make(realtime: bool = False, tc: TimeControl | None = None, bots: int = 0) -> Table:
    levels: list[str | None] = [None, None]
    for i in range(bots):
        levels[-1 - i] = "easy"
    return Table.create(
        table_id="t1",
        game=FakeGame("fakerace" if realtime else "fake", realtime),
        options={"hand": 3},
        seed=11,
        bot_levels=levels,
        invites=["inv-a", "inv-b"],
        time_control=tc,
        pacing=Pacing(start_count=0.0),  # a race starts at once here (no 3-2-1 count)
    )


def seated(realtime: bool = False, tc: TimeControl | None = None) -> Table:
    table = make(realtime, tc)
    table.join("inv-a", "Ann", "token-ann-1", now=0.0)
    table.join("inv-b", "Bob", "token-bob-1", now=0.0)
    return table


def test_match_starts_when_the_last_seat_is_filled() -> None:
    table = make()
    assert table.join("inv-a", "Ann", "token-ann-1", now=0.0) == 0
    assert table.status is Status.WAITING
    assert table.join("inv-b", "Bob", "token-bob-1", now=0.0) == 1
    assert table.status is Status.PLAYING
    assert table.version == 3  # two joins and the start


def test_a_taken_seat_and_an_unknown_invite_are_refused() -> None:
    table = make()
    table.join("inv-a", "Ann", "token-ann-1", now=0.0)
    with pytest.raises(TableError) as taken:
        table.join("inv-a", "Eve", "token-eve-1", now=0.0)
    assert taken.value.code == "seat_taken"
    with pytest.raises(TableError) as unknown:
        table.join("nope", "Eve", "token-eve-1", now=0.0)
    assert unknown.value.code == "bad_invite"


def test_tokens_are_stored_only_as_digests() -> None:
    table = seated()
    assert table.seat_of_token("token-bob-1") == 1
    assert table.seat_of_token("token-bob-2") is None
    assert "token-ann-1" not in str(table.meta())


def test_accepted_move_bumps_the_version_and_a_repeat_is_not_applied_twice() -> None:
    table = seated()
    move = table.legal_moves(0)[0]
    first = table.submit(0, move, version=table.version, move_id="a", now=1.0)
    assert first.outcome == "accepted"
    assert first.version == 4
    again = table.submit(0, move, version=3, move_id="a", now=2.0)
    assert again is first
    assert len(table.moves) == 1
    assert table.version == 4


def test_stale_move_is_refused_and_its_repeat_gets_the_same_answer() -> None:
    table = seated()
    table.submit(0, table.legal_moves(0)[0], version=table.version, move_id="a", now=1.0)
    stale = table.submit(1, table.legal_moves(1)[0], version=3, move_id="b", now=1.0)
    assert stale.outcome == "stale"
    assert table.submit(1, "whatever", version=3, move_id="b", now=1.0) is stale
    assert len(table.moves) == 1


def test_in_a_race_only_a_seats_own_changes_make_its_moves_stale() -> None:
    table = seated(realtime=True)
    start = table.version
    assert table.submit(
        0, table.legal_moves(0)[0], version=start, move_id="a", now=1.0
    ).outcome == ("accepted")
    # Seat 1's position did not change: its move against the older version still counts.
    assert table.submit(
        1, table.legal_moves(1)[0], version=start, move_id="b", now=1.0
    ).outcome == ("accepted")
    # Seat 0's did: a second move of seat 0 against the start version is stale.
    assert table.submit(
        0, table.legal_moves(0)[0], version=start, move_id="c", now=1.0
    ).outcome == ("stale")


def test_wrong_turn_illegal_and_future_versions_are_refused() -> None:
    table = seated()
    assert table.submit(1, table.legal_moves(0)[0], version=3, move_id="x", now=0).code == (
        "not_your_turn"
    )
    assert table.submit(0, "play ZZ", version=3, move_id="y", now=0).code == "illegal"
    assert table.submit(0, table.legal_moves(0)[0], version=99, move_id="z", now=0).code == (
        "bad_version"
    )
    assert table.version == 3


def test_clocks_run_for_the_seat_to_move_and_get_the_increment() -> None:
    table = seated(tc=TimeControl(initial_ms=10_000, increment_ms=2_000))
    assert table.clocks(4.0) == [6.0, 10.0]
    table.submit(0, table.legal_moves(0)[0], version=None, move_id=None, now=4.0)
    assert table.clocks(4.0) == [8.0, 10.0]
    assert table.next_deadline() == pytest.approx(14.0)
    assert table.expired(13.9) == []
    assert table.expired(14.1) == [1]


def test_a_clock_move_restarts_the_flagged_clock_with_at_least_a_second() -> None:
    table = seated(tc=TimeControl(initial_ms=1_000, increment_ms=0))
    assert table.expired(1.5) == [0]
    answer = table.submit(
        0, table.legal_moves(0)[0], version=None, move_id=None, now=1.5, source=Source.CLOCK
    )
    assert answer.outcome == "accepted"
    assert table.clocks_ms is not None
    assert table.clocks_ms[0] == 1000


def test_in_a_race_every_clock_runs() -> None:
    table = seated(realtime=True, tc=TimeControl(initial_ms=5_000, increment_ms=0))
    assert table.clocks(2.0) == [3.0, 3.0]
    assert sorted(table.expired(5.5)) == [0, 1]


def test_restore_replays_the_moves_to_the_same_state() -> None:
    table = seated()
    for _ in range(3):
        seat = table.match.to_move() if table.match else None
        assert isinstance(seat, int)
        table.submit(
            seat, table.legal_moves(seat)[0], version=None, move_id=f"m{table.version}", now=1.0
        )
    assert table.match is not None
    copy = Table.restore(
        table_id=table.id,
        game=table.game,
        options=table.options,
        seed=table.seed,
        time_control=None,
        rated=True,
        status=table.status,
        version=table.version,
        meta=table.meta(),
        moves=table.moves,
        rematch_of=None,
        now=5.0,
    )
    assert copy.match is not None
    assert state_hash(copy.match) == state_hash(table.match)
    assert copy.version == table.version
    assert copy.seat_versions == table.seat_versions
    # Move ids survive a restore: a repeat after a restart is still answered, not applied.
    first = table.moves[0]
    assert first.move_id is not None
    repeat = copy.submit(first.seat, first.move, version=0, move_id=first.move_id, now=6.0)
    assert repeat.outcome == "accepted"
    assert repeat.version == first.version
    assert len(copy.moves) == 3


def test_bot_seats_start_the_match_and_are_listed_to_move() -> None:
    table = make(bots=1)
    table.join("inv-a", "Ann", "token-ann-1", now=0.0)
    assert table.status is Status.PLAYING
    assert table.bot_seats_to_move() == []  # seat 0 (a person) moves first
    table.submit(0, table.legal_moves(0)[0], version=None, move_id=None, now=0.0)
    assert table.bot_seats_to_move() == [1]


def test_snapshot_shows_only_the_recipients_own_hand() -> None:
    table = seated()
    assert table.match is not None
    ann = table.snapshot(0, 0.0)
    watcher = table.snapshot(None, 0.0)
    assert ann["view"]["hand"] == table.match.view(0)["hand"]
    assert watcher["view"]["hand"] is None
    assert watcher["legal_moves"] == []
    assert ann["legal_moves"] == table.legal_moves(0)


def test_a_clock_stands_still_while_a_bot_plays_for_an_absent_player() -> None:
    table = seated(tc=TimeControl(initial_ms=10_000, increment_ms=0))
    assert table.set_substituted(0, True, now=2.0)
    assert table.clocks(2.0) == [8.0, 10.0]
    assert table.next_deadline() is None
    assert table.clocks(50.0) == [8.0, 10.0]
    assert table.set_substituted(0, False, now=50.0)
    assert table.clocks(51.0) == [7.0, 10.0]
