"""The analysis of played records (docs/analysis.md): Spy races against the oracle,
Candidate decisions in points, the ``cardtable analyse GAME RECORD`` command."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtable.bots.candidate_greedy import GreedyBot, greedy_values
from cardtable.bots.review_candidate import (
    ReviewSettings,
    evaluate_decision,
    review_candidate_record,
)
from cardtable.bots.review_spy import review_spy_record
from cardtable.bots.spy_oracle import OracleBot
from cardtable.cards import KIND_TEXT
from cardtable.cli import app
from cardtable.errors import IllegalMove
from cardtable.games.candidate.actions import PASS, action_to_text
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.state import CandidateState
from cardtable.games.spy.actions import action_to_text as spy_text
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.position import Position

#: Small settings: the tests check what is marked, not how finely.
FAST = ReviewSettings(seed=0, samples=6, iterations=100, top=2)


def _spy_record(cards: list[list[int]], moves: list[str]) -> dict[str, Any]:
    return {
        "game": "spy",
        "players": ["Ann", "Bob"],
        "options": {"rounds": 1},
        "rounds": [{"cards": [[KIND_TEXT[k] for k in hand] for hand in cards], "moves": moves}],
    }


def _oracle_moves(position: Position) -> list[str]:
    """The oracle's shortest race from ``position`` (changed), as record moves."""
    race = OracleBot().race(position)
    assert race.proven
    assert race.moves is not None
    return [spy_text(position.base + local) for local in race.path]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spy_race_played_by_the_oracle_has_no_mark(seed: int) -> None:
    cards = [
        list(hand) for hand in deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    ]
    moves = _oracle_moves(Position.deal(0, cards[0]))
    data = review_spy_record(_spy_record(cards, moves), worlds=4)
    (race,) = data["races"]
    assert race["called"]
    assert race["parts_at"] is None
    assert race["marks"] == {"hindsight": 0, "mistake": 0}
    shortest = [m["shortest_after"] for m in race["moves"]]
    assert shortest == list(range(len(moves) - 1, -1, -1))  # one move nearer each time


def test_spy_move_that_lengthens_the_race_is_marked() -> None:
    """S6-S10: a first move after which the exact shortest race is longer than from the
    deal less one is planted; the oracle's race follows it."""
    oracle = OracleBot()
    for seed in range(20):
        cards = [
            list(h) for h in deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
        ]
        start = Position.deal(0, cards[0])
        best = oracle.race(start).moves
        assert best is not None
        slower = [m for m in oracle.analyse_true(start).moves if -m.value > best and m.value > -1e8]
        if slower:
            break
    else:
        pytest.fail("no deal with a lengthening first move")
    planted = slower[0]
    position = start.copy()
    position.play(planted.action)
    moves = [planted.text, *_oracle_moves(position)]
    data = review_spy_record(_spy_record(cards, moves), worlds=4)
    (race,) = data["races"]
    first = race["moves"][0]
    assert first["lost"] == -planted.value - best > 0
    assert first["mark"] in ("hindsight", "mistake")
    expected = "mistake" if first["fair_played"] - first["fair_before"] >= 0.5 else "hindsight"
    assert first["mark"] == expected
    assert race["parts_at"] == 1
    assert all(m["mark"] is None for m in race["moves"][1:])


def _planted_pass_record() -> tuple[dict[str, Any], int]:
    """A greedy deal where, at a lobby of two or more cards last placed by the opponent
    and worth at least 20 points to take, the deciding player passes: the opponent then
    passes too and takes the lobby (C8). Returns the record up to that pass and the
    pass's index."""
    greedy = GreedyBot()
    state = CandidateState.new(seed=2, options=CandidateOptions(deals=1))
    moves: list[str] = []
    while not state.is_terminal():
        info = CandidateInfo.of(state.clone(), state.current_player)
        if info.view.decision == "play" and PASS in info.legal and len(info.view.lobby) >= 2:
            values = greedy_values(info)
            if values[PASS] == 0 and max(values.values()) >= 20:
                moves.append("pass")
                record = state.to_record(("Ann", "Bob"))
                record["deals"][0]["moves"] = moves
                return record, len(moves) - 1
        action = greedy.choose(info)
        moves.append(action_to_text(action))
        state.apply_action(action)
    raise AssertionError("the deal has no such lobby")


def test_candidate_planted_losing_pass_is_a_blunder() -> None:
    record, index = _planted_pass_record()
    data = review_candidate_record(record, FAST)
    planted = data["decisions"][index]
    assert planted["move"] == "pass"
    assert planted["label"] == "blunder"
    assert planted["best"]["move"] != "pass"
    assert planted["loss"] >= 12
    assert data["summary"][planted["player"]]["labels"]["blunder"] >= 1
    assert len(data["decisions"]) == index + 1


def test_candidate_evaluation_ignores_cards_hidden_from_the_seat() -> None:
    greedy = GreedyBot()
    state = CandidateState.new(seed=4, options=CandidateOptions(deals=1))
    for _ in range(12):
        state.apply_action(greedy.choose(CandidateInfo.of(state, state.current_player)))
    seat = state.current_player
    other = state.resample_hidden(seat, random.Random(99))
    assert other.view(1 - seat).hand != state.view(1 - seat).hand  # truly reshuffled
    assert other.view(seat) == state.view(seat)
    judged = [
        evaluate_decision(
            CandidateInfo.of(s.clone(), seat), s.legal_actions()[0], state.totals(), FAST
        )
        for s in (state, other)
    ]
    assert judged[0] == judged[1]


def test_candidate_review_is_deterministic_and_has_a_series() -> None:
    record, _index = _planted_pass_record()
    record["deals"][0]["moves"] = record["deals"][0]["moves"][:6]
    first = review_candidate_record(record, FAST)
    assert first == review_candidate_record(record, FAST)
    assert [d["number"] for d in first["decisions"]] == list(range(1, 7))
    for d in first["decisions"]:
        side = 1 if d["player"] == 0 else -1
        assert d["eval"] == pytest.approx(side * d["best"]["mean"], abs=1e-3)


def test_candidate_review_refuses_an_illegal_record() -> None:
    record, _ = _planted_pass_record()
    record["deals"][0]["moves"] = ["deal S", "play AS AS"]
    with pytest.raises(IllegalMove, match="move 2"):
        review_candidate_record(record, FAST)


def test_cli_analyse_record_json_plot_and_errors(tmp_path: Path) -> None:
    cards = [list(h) for h in deal_cards(seed=1, round_number=1, players=2, full_decks=False)]
    moves = _oracle_moves(Position.deal(0, cards[0]))
    path = tmp_path / "race.json"
    path.write_text(json.dumps(_spy_record(cards, moves)), encoding="utf-8")
    runner = CliRunner()
    plot = tmp_path / "race.png"
    result = runner.invoke(
        app,
        ["analyse", "spy", str(path), "--json", "--quiet", "--samples", "4", "--plot", str(plot)],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["races"][0]["marks"] == {"hindsight": 0, "mistake": 0}
    assert plot.read_bytes().startswith(b"\x89PNG")
    text = runner.invoke(app, ["analyse", "spy", str(path), "--quiet", "--samples", "4"])
    assert text.exit_code == 0
    assert "the player followed it" in text.stdout
    wrong = runner.invoke(app, ["analyse", "candidate", str(path)])
    assert wrong.exit_code == 1
    assert "not of candidate" in wrong.output
    missing = runner.invoke(app, ["analyse", "spy", str(tmp_path / "none.json")])
    assert missing.exit_code == 1
    assert "there is no file" in missing.output
    neither = runner.invoke(app, ["analyse", "spy"])
    assert neither.exit_code == 1
    assert "RECORD" in neither.output


def test_cli_analyse_spy_seed_still_races_a_deal() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["analyse", "spy", "--seed", "3", "--bots", "greedy", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [row["player"] for row in rows] == [0, 1]
    plot = runner.invoke(app, ["analyse", "spy", "--seed", "3", "--plot", "x.png"])
    assert plot.exit_code == 1
    assert "RECORD" in plot.output
