"""Records: every sort of malformed record and illegal move has its own clear message;
the command line reports them with exit status 1 and no traceback."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.errors import BadRecord, IllegalMove
from cardtable.games.candidate import GAME, CandidateState, replay_record
from cardtable.record import dump_record, load_record
from cardtable.record import replay as generic_replay

runner = CliRunner()


def base_record() -> dict[str, Any]:
    """A two-deal match with its first deal played out and the second just dealt."""
    state = GAME.new_initial_state(5, {"deals": 2})
    rng = random.Random(5)
    while state.deal_number == 1:
        state.apply(rng.choice(state.legal_actions()))
    return state.to_record(["Ann", "Bob"])


BASE = base_record()


def mutated(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    record = copy.deepcopy(BASE)
    change(record)
    return record


def set_path(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        target: Any = record
        keys = path.split("/")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        target: Any = record
        keys = path.split("/")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        del target[keys[-1]]

    return change


def first_deal_pile(letter: str) -> list[str]:
    return list(BASE["deals"][0]["piles"][letter])


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("game missing", drop("game"), "game", "missing"),
    ("unknown field", set_path("seed", 3), "seed", "unknown field"),
    ("players missing", drop("players"), "players", "missing"),
    ("three players", set_path("players", ["A", "B", "C"]), "players", "exactly 2"),
    ("empty name", set_path("players", ["A", " "]), "players[1]", "must not be empty"),
    ("name not text", set_path("players", ["A", 7]), "players[1]", "expected a string"),
    ("options not object", set_path("options", [1]), "options", "expected an object"),
    ("unknown option", set_path("options", {"decks": 1, "jokers": 2}), "options.jokers", "unknown"),
    ("decks of wrong type", set_path("options", {"decks": "1"}), "options.decks", "integer"),
    ("decks out of range", set_path("options", {"decks": 4}), "options.decks", "from 1 to 3"),
    ("deals zero", set_path("options", {"deals": 0}), "options.deals", "from 1 to 100"),
    ("deals huge", set_path("options", {"deals": 10**9}), "options.deals", "from 1 to 100"),
    ("deals not a list", set_path("deals", {}), "deals", "expected a list"),
    ("too many deals", set_path("options", {"deals": 1}), "deals", "only 1 (options.deals)"),
    ("deal not object", set_path("deals/0", []), "deals[0]", "expected an object"),
    ("deal field missing", drop("deals/0/moves"), "deals[0].moves", "missing"),
    ("deal field unknown", set_path("deals/0/scores", [1, 2]), "deals[0].scores", "unknown"),
    ("dealer wrong type", set_path("deals/0/dealer", "0"), "deals[0].dealer", "integer"),
    ("dealer out of range", set_path("deals/0/dealer", 2), "deals[0].dealer", "from 0 to 1"),
    ("pile missing", drop("deals/0/piles/C"), "deals[0].piles.C", "missing"),
    ("pile unknown", set_path("deals/0/piles/X", []), "deals[0].piles.X", "unknown"),
    ("pile not list", set_path("deals/0/piles/S", "AS"), "deals[0].piles.S", "expected a list"),
    ("bad card text", set_path("deals/0/piles/S/0", "1X"), "deals[0].piles.S[0]", "not a card"),
    ("card not text", set_path("deals/0/piles/S/0", 5), "deals[0].piles.S[0]", "a string"),
    (
        "card of wrong suit",
        set_path("deals/0/piles/S/0", "2H"),
        "deals[0].piles.S[0]",
        "is not a spade",
    ),
    ("moves not a list", set_path("deals/0/moves", "pass"), "deals[0].moves", "a list"),
    ("move not text", set_path("deals/0/moves/0", 3), "deals[0].moves[0]", "a string"),
]


@pytest.mark.parametrize(
    ("change", "field", "words"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_malformed_record_names_the_field(
    change: Callable[[dict[str, Any]], None], field: str, words: str
) -> None:
    with pytest.raises(BadRecord) as info:
        replay_record(mutated(change))
    assert info.value.field == field
    assert words.lower() in info.value.reason.lower()


def test_pile_with_a_card_missing_or_doubled() -> None:
    pile = first_deal_pile("S")
    short = mutated(set_path("deals/0/piles/S", pile[1:]))
    with pytest.raises(BadRecord, match=rf"deals\[0\]\.piles\.S: .*{pile[0]} is there 0 times"):
        replay_record(short)
    doubled = mutated(set_path("deals/0/piles/S", [pile[1], *pile[1:]]))
    with pytest.raises(BadRecord, match=rf"{pile[1]} is there 2 times"):
        replay_record(doubled)


def test_two_decks_need_every_card_twice() -> None:
    record = mutated(set_path("options", {"decks": 2, "deals": 2}))
    with pytest.raises(BadRecord, match=r"piles\.S: expected each spade 2 times \(26 cards"):
        replay_record(record)


def test_dealers_must_alternate() -> None:
    record = mutated(set_path("deals/1/dealer", BASE["deals"][0]["dealer"]))
    with pytest.raises(BadRecord) as info:
        replay_record(record)
    assert info.value.field == "deals[1].dealer"
    assert "alternates" in info.value.reason


def test_a_deal_after_an_unfinished_one() -> None:
    record = mutated(lambda r: r["deals"][0]["moves"].pop())
    with pytest.raises(BadRecord) as info:
        replay_record(record)
    assert info.value.field == "deals[1]"
    assert "deal 2 follows deal 1, which is unfinished" in info.value.reason


def test_not_json_and_not_an_object() -> None:
    with pytest.raises(BadRecord, match="not valid JSON"):
        load_record("{")
    with pytest.raises(BadRecord, match="expected a JSON object"):
        load_record("[]")
    with pytest.raises(BadRecord, match="unknown game"):
        generic_replay({"game": "chess"})


ILLEGAL: list[tuple[int, str, str]] = [
    (0, "jump S", "unknown move 'jump'"),
    (0, "deal X", "one pile letter"),
    (0, "pass now", "takes nothing"),
    (0, "play 1X", "is not a card"),
    (0, "play 9S 5S", "is not a sequence"),
    (0, "play 9S 9H 10D", "is not a set: card 3 must be a 9"),
    (0, "play", "at least one card"),
    (0, "lobby S", "now is not the time for that: the player to move must deal the hands"),
    (1, "draw S", "must turn a lobby card"),
]


@pytest.mark.parametrize(("index", "text", "reason"), ILLEGAL)
def test_illegal_move_says_where_what_and_why(index: int, text: str, reason: str) -> None:
    record = mutated(set_path(f"deals/0/moves/{index}", text))
    with pytest.raises(IllegalMove) as info:
        replay_record(record)
    assert info.value.position == f"deal 1, move {index + 1}"
    assert info.value.move == text
    assert reason in info.value.reason
    assert str(info.value).startswith(f"deal 1, move {index + 1}: illegal move {text!r}: ")


def test_illegal_play_names_the_run_and_the_card_needed() -> None:
    state = CandidateState.from_piles(
        [list(range(s * 13, s * 13 + 13)) for s in range(4)], 0, GAME.new_initial_state().options
    )
    record = state.to_record()
    # Spades in order: player 1 gets 2 4 6 8 10, player 0 gets 3 5 7 9 J; lobby: 2H.
    record["deals"][0]["moves"] = ["deal S", "lobby H", "play 2S", "pass", "play 4S"]
    with pytest.raises(IllegalMove) as info:
        replay_record(record)
    assert str(info.value) == (
        "deal 1, move 5: illegal move 'play 4S': "
        "4S does not continue the set of 2s: the next card must be a 2"
    )


def test_move_after_the_deal_ended() -> None:
    record = mutated(lambda r: r["deals"][0]["moves"].append("pass"))
    with pytest.raises(IllegalMove, match=r"deal 1, move \d+: .*deal 1 is over"):
        replay_record(record)


def test_empty_deals_list_waits_for_the_first_deal() -> None:
    summary = replay_record(mutated(set_path("deals", []))).summary()
    assert summary == {
        "game": "candidate",
        "complete": False,
        "deals": [],
        "totals": [0, 0],
        "winners": [0, 1],
        "next": {"player": None, "decision": "deal"},
    }


def test_summary_between_deals_names_the_next_dealer() -> None:
    record = mutated(lambda r: r["deals"].pop())
    summary = replay_record(record).summary()
    assert len(summary["deals"]) == 1
    assert summary["next"] == {"player": 1 - BASE["deals"][0]["dealer"], "decision": "deal"}
    assert summary["totals"] == summary["deals"][0]["scores"]
    assert summary["complete"] is False


def test_summary_of_a_partial_deal() -> None:
    record = mutated(lambda r: r["deals"].pop())
    record["deals"][0]["moves"] = record["deals"][0]["moves"][:2]
    summary = replay_record(record).summary()
    assert summary["deals"][0]["captures"] == [[], []]
    assert summary["next"]["decision"] == "play"


def test_options_may_be_left_out() -> None:
    record = GAME.new_record(seed=3, players=["A", "B"], options={})
    del record["options"]
    replay = replay_record(record)
    assert replay.state is not None
    assert replay.state.options.deals == 12


# -- the command line --------------------------------------------------------------------


def test_cli_deal_then_replay_json(tmp_path: Path) -> None:
    dealt = runner.invoke(app, ["deal", "candidate", "--seed", "42", "--decks", "2"])
    assert dealt.exit_code == 0, dealt.output
    record = json.loads(dealt.stdout)
    assert record["options"] == {"decks": 2, "deals": 12}
    assert all(len(p) == 26 for p in record["deals"][0]["piles"].values())
    path = tmp_path / "deal.json"
    path.write_text(dealt.stdout, encoding="utf-8")
    replayed = runner.invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    summary = json.loads(replayed.stdout)
    dealer = record["deals"][0]["dealer"]
    assert summary["next"] == {"player": dealer, "decision": "deal"}
    assert summary["deals"] == [{"dealer": dealer, "captures": [[], []], "scores": [0, 0]}]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (set_path("deals/0/dealer", 5), "deals[0].dealer"),
        (set_path("deals/0/moves/0", "dance"), "deal 1, move 1: illegal move 'dance'"),
    ],
)
def test_cli_replay_errors_exit_1_without_traceback(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(dump_record(mutated(change)), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_cli_replay_transcript_in_ukrainian(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(dump_record(BASE), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--lang", "uk"])
    assert result.exit_code == 0
    assert "Роздача 1 з 2" in result.stdout
    assert "Очки за роздачу 1" in result.stdout


@pytest.mark.parametrize(("lang", "words"), [("en", "Candidate"), ("uk", "Кандидат")])
def test_cli_rules(lang: str, words: str) -> None:
    result = runner.invoke(app, ["rules", "candidate", "--lang", lang])
    assert result.exit_code == 0
    assert words in result.stdout
    for tag in range(1, 18):
        assert f"C{tag}" in result.stdout
