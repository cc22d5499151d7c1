"""Resign, abort and takeback at the table: who may ask, what each does, each refusal.

A resigned match ends at once with the other seat the winner whatever the totals; an
aborted one ends before any person has moved, with no result; a takeback rebuilds the
exact earlier position by replaying the moves kept (the engine is deterministic). The
record says how a match stopped (docs/records.md, ``ended``) and replays to it.
"""

from __future__ import annotations

import random

import pytest
from table_helpers import spy_table

from cardtable.games.registry import find_game
from cardtable.messages import render
from cardtable.table import Pacing, Status, Table, TableError

CANDIDATE = find_game("candidate")


def candidate_table(
    bots: tuple[str | None, ...] = (None, "easy"), *, rated: bool = False, tournament: bool = False
) -> Table:
    """A 2-deal Candidate table whose people have joined and are connected."""
    table = Table.create(
        table_id="c",
        game=CANDIDATE,
        options={"deals": 2},
        seed=11,
        bot_levels=list(bots),
        invites=["i0", "i1"],
        rated=rated,
        tournament=tournament,
        pacing=Pacing(segment_pause=4.0, turn_delay=0.0),
    )
    for i, level in enumerate(bots):
        if level is None:
            table.join(f"i{i}", f"P{i}", f"token-{i}", now=0.0)
            table.set_connected(i, True)
    return table


def play(table: Table, count: int, seed: int = 1) -> None:
    """``count`` random legal moves by whoever is to move."""
    rng = random.Random(seed)
    for _ in range(count):
        assert table.match is not None
        seat = table.match.to_move()
        assert seat is not None
        move = rng.choice(table.match.legal_moves(seat))
        assert table.submit(seat, move, version=None, move_id=None, now=1.0).outcome == "accepted"


def refusal(action: object) -> TableError:
    with pytest.raises(TableError) as caught:
        action()  # type: ignore[operator]
    error = caught.value
    # Every refusal renders from the catalog in both languages.
    assert render(f"table.{error.code}", error.params, "en") == error.message
    assert render(f"table.{error.code}", error.params, "uk") != error.message
    return error


def test_resign_ends_the_match_at_once_and_the_other_seat_wins() -> None:
    table = candidate_table((None, None), rated=True)
    play(table, 9)
    assert table.match is not None
    totals = list(table.match.result().totals)
    version = table.version
    assert table.may(1)["resign"]
    table.resign(1, now=2.0)
    assert table.status is Status.FINISHED
    assert table.version == version + 1
    result = table.result()
    assert result is not None
    assert result["ending"] == "resigned"
    assert result["ended_by"] == 1
    assert result["winners"] == [0]
    assert result["ranks"] == [1, 2]
    assert result["totals"] == totals  # the score stands; the resignation decides
    snapshot = table.snapshot(0, 2.0)
    assert snapshot["result"] == result
    assert snapshot["may"] == {"resign": False, "abort": False, "takeback": False}
    assert refusal(lambda: table.resign(0, 3.0)).code == "finished"


def test_a_resigned_record_says_so_and_replays_to_the_same_result() -> None:
    table = candidate_table()
    play(table, 6)
    table.resign(0, now=2.0)
    record = table.record()
    assert record is not None
    assert record["ended"] == {"how": "resigned", "seat": 0}
    summary = CANDIDATE.replay(record).summary()
    assert summary["complete"] is True
    assert summary["winners"] == [1]
    assert summary["ending"] == "resigned"
    assert summary["ended_by"] == 0
    assert summary["next"] is None
    assert "P0 resigned. Winner: Bot (easy)." in CANDIDATE.replay(record).transcript()


def test_resign_is_allowed_during_the_pause_between_deals_c13() -> None:
    table = candidate_table()
    rng = random.Random(4)
    while table.paused_until is None:
        assert table.match is not None
        seat = table.match.to_move()
        assert seat is not None
        table.submit(
            seat, rng.choice(table.match.legal_moves(seat)), version=None, move_id=None, now=1.0
        )
    table.resign(0, now=2.0)
    assert table.status is Status.FINISHED
    assert table.paused_until is None
    assert table.next_wakeup() is None


def test_abort_before_any_person_moved_ends_with_no_result() -> None:
    table = candidate_table((None, None))
    assert table.may(0)["abort"]
    assert table.may(1)["abort"]
    table.abort(1, now=1.0)
    assert table.status is Status.FINISHED
    result = table.result()
    assert result is not None
    assert result["ending"] == "aborted"
    assert result["winners"] == []
    record = table.record()
    assert record is not None
    summary = CANDIDATE.replay(record).summary()
    assert (summary["complete"], summary["winners"], summary["ending"]) == (True, [], "aborted")


def test_abort_counts_only_a_persons_moves() -> None:
    """A bot dealing first does not take the abort away; the person's first move does."""
    table = candidate_table((None, "easy"))
    assert table.match is not None
    while table.match.to_move() == 1:
        play(table, 1)
    assert table.may(0)["abort"]
    play(table, 1)  # the person moves
    assert not table.may(0)["abort"]
    assert refusal(lambda: table.abort(0, 2.0)).code == "abort_late"


def test_no_abort_at_a_tournament_table() -> None:
    table = candidate_table((None, None), tournament=True)
    assert refusal(lambda: table.abort(0, 1.0)).code == "abort_tournament"
    table.resign(0, now=1.0)  # resigning is every player's right
    assert table.status is Status.FINISHED


def test_takeback_restores_the_exact_earlier_position() -> None:
    table = candidate_table((None, "easy"))
    assert table.match is not None
    rng = random.Random(3)
    for _ in range(40):
        seat = table.match.to_move()
        assert seat is not None
        if seat == 0:
            before = (table.match.view(0), table.match.legal_moves(0), len(table.moves))
        table.submit(
            seat,
            rng.choice(table.match.legal_moves(seat)),
            version=None,
            move_id=f"m{len(table.moves)}",
            now=1.0,
        )
        if table.paused_until is not None:
            table.ready(0, 1.0)
    if table.match.to_move() == 0:
        # The person is to move: the last move of theirs is an earlier one.
        before = None
    version = table.version
    first = table.take_back(0, now=2.0)
    assert table.version == version + 1
    assert all(e.version < first for e in table.moves)
    assert table.match.to_move() == 0
    if before is not None:
        assert (table.match.view(0), table.match.legal_moves(0), len(table.moves)) == before
    # The moves taken back are forgotten: their move ids may be used again.
    assert (
        table.submit(
            0,
            table.legal_moves(0)[0],
            version=table.version,
            move_id=f"m{len(table.moves)}",
            now=3.0,
        ).outcome
        == "accepted"
    )


def test_takeback_is_only_for_a_casual_game_against_bots() -> None:
    rated = candidate_table((None, "easy"), rated=True)
    play(rated, 3)
    people = candidate_table((None, None))
    play(people, 3)
    tournament = candidate_table((None, "easy"), tournament=True)
    play(tournament, 3)
    fresh = candidate_table((None, "easy"))
    assert refusal(lambda: rated.take_back(0, 1.0)).code == "takeback_rated"
    assert refusal(lambda: people.take_back(0, 1.0)).code == "takeback_people"
    assert refusal(lambda: tournament.take_back(0, 1.0)).code == "takeback_tournament"
    assert refusal(lambda: fresh.take_back(0, 1.0)).code == "takeback_nothing"
    assert not rated.may(0)["takeback"]


def test_bots_spectators_and_races_cannot_resign_a_match() -> None:
    table = candidate_table()
    assert refusal(lambda: table.resign(1, 1.0)).code == "no_seat"  # a bot's seat
    assert table.may(None) == {"resign": False, "abort": False, "takeback": False}
    race = spy_table(bots=(None, "easy"))
    assert refusal(lambda: race.resign(0, 1.0)).code == "race_no_resign"  # S13: per round
    waiting = Table.create(
        table_id="w",
        game=CANDIDATE,
        options={},
        seed=1,
        bot_levels=[None, None],
        invites=["a", "b"],
    )
    assert refusal(lambda: waiting.resign(0, 1.0)).code == "not_started"


def test_a_restored_table_keeps_how_it_ended() -> None:
    table = candidate_table()
    play(table, 5)
    table.resign(0, now=2.0)
    restored = Table.restore(
        table_id=table.id,
        game=CANDIDATE,
        options=table.options,
        seed=table.seed,
        time_control=None,
        rated=False,
        status=table.status,
        version=table.version,
        meta=table.meta(),
        moves=table.moves,
        rematch_of=None,
        now=5.0,
    )
    assert restored.result() == table.result()
    assert restored.record() == table.record()


def test_old_records_without_ended_still_load() -> None:
    record = CANDIDATE.new_record(seed=3, players=["Ann", "Bob"], options={"deals": 1})
    summary = CANDIDATE.replay(record).summary()
    assert summary["complete"] is False
    assert "ending" not in summary
