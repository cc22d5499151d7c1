"""The record machinery shared by both games (docs/records.md)."""

from __future__ import annotations

import json

import pytest

from cardtable.errors import BadRecord, IllegalMove
from cardtable.record import RecordReader, dump_record, game_of, load_record

R = RecordReader


def test_bad_json_says_where() -> None:
    with pytest.raises(BadRecord, match="not valid JSON.*line 1"):
        load_record('{"game": ')
    with pytest.raises(BadRecord, match="expected a JSON object, got a list"):
        load_record("[1, 2]")


def test_game_field_is_checked() -> None:
    with pytest.raises(BadRecord, match="game: missing"):
        game_of({})
    with pytest.raises(BadRecord, match="game: unknown game 'chess'"):
        game_of({"game": "chess"})


def test_dump_keeps_flat_lists_on_one_line_and_round_trips() -> None:
    record = {"game": "spy", "players": ["Ann", "Bob"], "rounds": [{"moves": ["0 turn", "1 call"]}]}
    text = dump_record(record)
    assert '"players": ["Ann", "Bob"]' in text
    assert '"moves": ["0 turn", "1 call"]' in text
    assert json.loads(text) == record
    assert dump_record({"a": {}, "b": []}).count("\n") == 4


def test_field_checks_name_the_field() -> None:
    with pytest.raises(BadRecord, match=r"deals\[0\]: expected an object, got a string"):
        R.as_object("x", "deals[0]")
    with pytest.raises(BadRecord, match=r"deals\[0\].piles: missing"):
        R.check_fields({}, "deals[0]", required=["piles"])
    with pytest.raises(BadRecord, match=r"deals\[0\].color: unknown field"):
        R.check_fields({"color": 1}, "deals[0]", optional=["piles"])
    with pytest.raises(BadRecord, match="options.decks: expected an integer from 1 to 3, got 4"):
        R.as_int(4, "options.decks", 1, 3)
    with pytest.raises(BadRecord, match="expected an integer, got a boolean"):
        R.as_int(True, "x")
    with pytest.raises(BadRecord, match="expected true or false"):
        R.as_bool(1, "options.full_decks")
    with pytest.raises(BadRecord, match=r"piles.S\[1\]: 'ZZ' is not a card"):
        R.card_kinds(["QS", "ZZ"], "piles.S")
    assert R.card_kinds(["QS", "♠10"], "p") == [10, 8]
    with pytest.raises(BadRecord, match="players: expected exactly 2 player names, got 3"):
        R.player_names(["a", "b", "c"], low=2, high=2)
    with pytest.raises(BadRecord, match=r"players\[1\]: a player name must not be empty"):
        R.player_names(["a", " "])


def test_illegal_move_message_carries_position_and_move() -> None:
    error = IllegalMove("QS does not continue the run 9-10-J: the next card must be a Q")
    located = error.at("deal 1, move 17", "play QS")
    assert str(located) == (
        "deal 1, move 17: illegal move 'play QS': "
        "QS does not continue the run 9-10-J: the next card must be a Q"
    )
    assert isinstance(located, ValueError)
