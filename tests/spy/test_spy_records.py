"""Records (docs/records.md, Spy vs Spy): every sort of malformed record and illegal move
gives a clear error naming the field or the move, and the command line reports them
with exit status 1 and no traceback."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from spy_helpers import hands
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.errors import BadOptions, BadRecord, IllegalMove
from cardtable.games.spy import GAME, SpyOptions, SpyState
from cardtable.games.spy.race import GreedyPolicy, run_race
from cardtable.games.spy.records import read_record, replay_record
from cardtable.record import dump_record, load_record
from cardtable.record import replay as replay_any


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    """A complete two-round record made by the race runner."""
    return run_race(
        ["Ann", "Bob"], [GreedyPolicy(), GreedyPolicy()], seed=1, options=SpyOptions(rounds=2)
    ).state.to_record()


def edited(record: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A deep copy of ``record`` with the value at ``a.b[0].c`` replaced (or deleted
    when ``value`` is ...)."""
    out = copy.deepcopy(record)
    keys: list[Any] = []
    for part in path.split("."):
        name, *indexes = part.replace("]", "").split("[")
        keys.append(name)
        keys.extend(int(i) for i in indexes)
    target = out
    for key in keys[:-1]:
        target = target[key]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return out


BAD_RECORDS = [
    ("players", ..., "players", "missing"),
    ("rounds", ..., "rounds", "missing"),
    ("game", ..., "game", "missing"),
    ("game", "candidate", "game", "expected 'spy'"),
    ("extra", 1, "extra", "unknown field"),
    ("options", [], "options", "expected an object"),
    ("options.decks", 2, "options.decks", "unknown option"),
    ("options.bonus", "20", "options.bonus", "expected an integer"),
    ("options.full_decks", 1, "options.full_decks", "expected true or false"),
    ("options.rounds", 1, "rounds", "2 rounds, but options.rounds is 1"),
    ("options.rounds", 0, "options.rounds", "from 1 to 100"),
    ("options.rounds", 10**9, "options.rounds", "from 1 to 100"),
    ("players", ["Ann"], "players", "expected 2 to 8 player names"),
    ("players", ["Ann", 3], "players[1]", "expected a string"),
    ("players", ["Ann", " "], "players[1]", "must not be empty"),
    ("rounds", {}, "rounds", "expected a list"),
    ("rounds[0]", [], "rounds[0]", "expected an object"),
    ("rounds[0].cards", ..., "rounds[0].cards", "missing"),
    ("rounds[0].moves", ..., "rounds[0].moves", "missing"),
    ("rounds[0].seed", 3, "rounds[0].seed", "unknown field"),
    ("rounds[0].cards", "AS", "rounds[0].cards", "expected a list"),
    ("rounds[0].cards[1]", ..., "rounds[0].cards", "expected the cards of 2 players, got 1"),
    ("rounds[0].cards[0][3]", "ZZ", "rounds[0].cards[0][3]", "not a card"),
    ("rounds[0].cards[0][3]", 7, "rounds[0].cards[0][3]", "expected a string"),
    ("rounds[0].cards[0][25]", ..., "rounds[0].cards[0]", "expected 26 cards"),
    ("rounds[0].moves", "0 turn", "rounds[0].moves", "expected a list"),
    ("rounds[0].moves[0]", 0, "rounds[0].moves[0]", "expected a string"),
]


@pytest.mark.parametrize(("path", "value", "field", "text"), BAD_RECORDS)
def test_malformed_records_name_the_field(finished, path, value, field, text) -> None:
    with pytest.raises(BadRecord) as info:
        replay_record(edited(finished, path, value))
    assert info.value.field == field
    assert text in info.value.reason


def test_cards_that_are_not_the_right_decks(finished) -> None:
    record = copy.deepcopy(finished)
    cards = record["rounds"][0]["cards"]
    cards[0][0], cards[1][0] = cards[1][0], cards[1][0]  # one card twice, one missing
    with pytest.raises(BadRecord) as info:
        replay_record(record)
    assert info.value.field == "rounds[0].cards"
    assert "more than once" in info.value.reason
    assert "missing" in info.value.reason
    full = SpyState.deal(3, seed=2).to_record()
    full["rounds"][0]["cards"][2][7] = full["rounds"][0]["cards"][2][8]
    with pytest.raises(BadRecord) as info:
        replay_record(full)
    assert info.value.field == "rounds[0].cards[2]"


def test_a_round_after_an_unfinished_one(finished) -> None:
    record = copy.deepcopy(finished)
    record["rounds"][0]["moves"] = record["rounds"][0]["moves"][:3]
    with pytest.raises(BadRecord) as info:
        replay_record(record)
    assert info.value.field == "rounds[1]"
    assert "not finished" in info.value.reason


ILLEGAL = [
    ("0 turn", "0 pass", "unknown move"),
    ("0 turn", "9 turn", "there is no player 9"),
    ("0 turn", "5 turn", "there is no player 5: players are 0 to 1"),
    ("0 turn", "0 place waste 0", "there is no pile 0"),
    ("0 turn", "0  turn", "single spaces"),
    ("0 turn", "0 Turn", "lower case"),
    ("0 turn", "0 call", "the points pile still holds 5 cards"),
    ("0 turn", "1 place waste 1", "the waste is empty"),
]


@pytest.mark.parametrize(("first", "move", "why"), ILLEGAL)
def test_illegal_moves_say_where_what_and_why(first, move, why) -> None:
    record = SpyState.deal(2, seed=2).to_record()
    record["rounds"][0]["moves"] = [first, move]
    with pytest.raises(IllegalMove) as info:
        replay_record(record)
    error = info.value
    assert error.position == "round 1, move 2"
    assert error.move == move
    assert why in error.reason
    assert str(error).startswith(f"round 1, move 2: illegal move {move!r}: ")


def test_illegal_move_in_a_later_round(finished) -> None:
    record = copy.deepcopy(finished)
    record["rounds"][1]["moves"][2] = "0 call"
    with pytest.raises(IllegalMove, match=r"^round 2, move 3: illegal move '0 call': "):
        replay_record(record)


def test_a_placement_that_does_not_fit_reads_like_a_player_would_say_it() -> None:
    cards = hands(["7H", "3S", "4D", "5S", "6S", "2C", "QS", "3C", "KD"], ["AC"])
    state = SpyState.from_cards(2, cards)
    record = state.to_record()
    record["rounds"][0]["moves"] = ["0 place points 2"]
    with pytest.raises(IllegalMove) as info:
        replay_record(record)
    assert str(info.value) == (
        "round 1, move 1: illegal move '0 place points 2': 7H does not fit on pile 2 "
        "(top QS): a card goes on a pile one rank above or below it"
    )


def test_new_record_and_read_record(finished) -> None:
    record = GAME.new_record(seed=4, players=["A", "B", "C"], options={"full_decks": True})
    assert record["rounds"][0]["moves"] == []
    assert [len(h) for h in record["rounds"][0]["cards"]] == [52, 52, 52]
    assert record == SpyState.deal(["A", "B", "C"], seed=4).to_record() | {
        "options": SpyOptions(full_decks=True).to_dict()
    }
    with pytest.raises(BadOptions, match=r"option options\.bonus"):
        GAME.new_record(seed=1, players=["A", "B"], options={"bonus": "x"})
    checked = read_record(finished)
    assert checked.players == ("Ann", "Bob")
    assert len(checked.rounds) == 2
    # options may be left out: the defaults apply
    bare = {k: v for k, v in finished.items() if k != "options"}
    assert replay_record(bare).state.options == SpyOptions()


def test_records_survive_json_and_the_generic_dispatch(finished) -> None:
    text = dump_record(finished)
    assert load_record(text) == finished
    assert replay_any(load_record(text)).summary() == replay_record(finished).summary()


def test_summary_of_an_unfinished_match_between_rounds(finished) -> None:
    record = copy.deepcopy(finished)
    record["rounds"] = record["rounds"][:1]
    summary = replay_record(record).summary()
    assert summary["complete"] is False
    assert len(summary["rounds"]) == 1
    assert summary["rounds"][0]["finisher"] is not None
    assert summary["next"] == {"player": None, "decision": "move"}
    assert summary["totals"] == summary["rounds"][0]["scores"]
    empty = {**record, "rounds": []}
    assert replay_record(empty).summary()["winners"] == [0, 1]


runner = CliRunner()


def _run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def test_cli_deal_and_replay(tmp_path) -> None:
    result = _run("deal", "spy", "--players", "3", "--seed", "5", "--full-decks")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["players"] == ["Player 1", "Player 2", "Player 3"]
    assert record["options"]["full_decks"] is True
    path = tmp_path / "r.json"
    path.write_text(result.stdout)
    summary = _run("replay", str(path), "--json")
    assert summary.exit_code == 0
    assert json.loads(summary.stdout)["next"] == {"player": None, "decision": "move"}
    transcript = _run("replay", str(path), "--lang", "uk")
    assert "Раунд 1" in transcript.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("deal", "spy", "--players", "9", "--seed", "1"), "2 to 8 players"),
        (("deal", "spy", "--seed", "1", "-o", "colour=red"), "unknown option"),
        (("deal", "spy", "--seed", "1", "--decks", "2"), "options.decks"),
    ],
)
def test_cli_errors_exit_1_without_traceback(args, message) -> None:
    result = _run(*args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_replay_errors_exit_1_without_traceback(tmp_path, finished) -> None:
    bad_move = copy.deepcopy(finished)
    bad_move["rounds"][0]["moves"][0] = "0 call"
    malformed = edited(finished, "rounds[0].cards[0][3]", "ZZ")
    for record, text in (
        (bad_move, "round 1, move 1: illegal move '0 call'"),
        (malformed, "rounds[0].cards[0][3]"),
    ):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(record))
        for extra in ((), ("--json",)):
            result = _run("replay", str(path), *extra)
            assert result.exit_code == 1
            assert text in result.output
            assert "Traceback" not in result.output


def test_cli_rules_in_both_languages() -> None:
    english = _run("rules", "spy")
    ukrainian = _run("rules", "spy", "--lang", "uk")
    assert english.exit_code == 0
    assert ukrainian.exit_code == 0
    for tag in (f"S{i}" for i in range(1, 18)):
        assert tag in english.stdout
        assert tag in ukrainian.stdout
    assert "Шпигун" in ukrainian.stdout
