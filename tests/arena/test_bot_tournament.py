"""Tournaments of bots end to end: the arena plays a small Swiss and a small duplicate
race tournament through the tournament pairing and standings (docs/tournaments.md)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.arena.bot_tournament import run_bot_tournament
from cardtable.arena.commands import parse_bots
from cardtable.cli import app
from cardtable.errors import BadOptions
from cardtable.tournament.model import TournamentSpec
from cardtable.tournament.standings import standings


def test_a_swiss_of_bots_is_paired_played_and_ranked() -> None:
    spec = TournamentSpec("candidate", "swiss", rounds=3, options={"deals": 1})
    bots = parse_bots("candidate", ["greedy", "random", "greedy", "random", "greedy"])
    done = run_bot_tournament(spec, bots, seed=3)
    assert [p.id for p in done.players] == ["greedy", "random", "greedy#2", "random#2", "greedy#3"]
    assert len(done.plans) == 3
    byes = [b for plan in done.plans for b in plan.byes]
    assert len(byes) == 3
    assert len(set(byes)) == 3
    met = set()
    for plan in done.plans:
        seated = sorted([p for t in plan.tables for p in t] + list(plan.byes))
        assert seated == sorted(p.id for p in done.players)
        for table in plan.tables:
            assert frozenset(table) not in met  # no rematch in three rounds of five
            met.add(frozenset(table))
    assert len(done.results) == 6
    assert list(done.standings) == standings(spec, done.players, done.results, done.plans)
    assert sum(s.points for s in done.standings) == 6 + 3  # a point a game, a point a bye
    again = run_bot_tournament(spec, bots, seed=3)
    assert again.results == done.results  # the seed decides everything


def test_a_duplicate_race_tournament_of_bots() -> None:
    spec = TournamentSpec(
        "spy", "race", rounds=2, table_size=3, duplicate=True, options={"rounds": 1}
    )
    bots = parse_bots("spy", ["greedy", "random"] * 3 + ["greedy"])
    done = run_bot_tournament(spec, bots, seed=1)
    for plan in done.plans:
        assert sorted(len(t) for t in plan.tables) == [2, 2, 3]
    assert len(done.results) == 6
    table = list(done.standings)
    assert table == standings(spec, done.players, done.results, done.plans)
    # Matchpoints: every racer of a round against the six others, so a round is worth
    # 7 * 6 / 2 = 21 comparisons, 21 points over the field.
    assert sum(s.points for s in table) * 6 == pytest.approx(2 * 21)


def test_the_tournament_command_prints_and_saves_the_standings(tmp_path: Path) -> None:
    out, table = tmp_path / "t.json", tmp_path / "t.csv"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "candidate",
            "--bots",
            "greedy,random,greedy,random",
            "--rounds",
            "2",
            "-o",
            "deals=1",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(out),
            "--csv",
            str(table),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "buchholz_cut1" in result.output
    data = json.loads(out.read_text())
    assert data["spec"]["format"] == "swiss"
    assert len(data["rounds"]) == 2
    rows = list(csv.DictReader(table.read_text().splitlines()))
    assert [r["player"] for r in rows] == [s["player"] for s in data["standings"]]


def test_bad_tournaments_are_refused_with_a_reason() -> None:
    bots = parse_bots("spy", ["greedy", "random"])
    with pytest.raises(BadOptions, match="race rounds are for spy"):
        run_bot_tournament(TournamentSpec("candidate", "race", rounds=1), bots)
    with pytest.raises(BadOptions, match="table-size"):
        run_bot_tournament(TournamentSpec("spy", "race", rounds=1, table_size=9), bots)
    result = CliRunner().invoke(
        app, ["tournament", "spy", "--bots", "greedy,random", "--format", "knockout"]
    )
    assert result.exit_code == 1
    assert "unknown format" in result.output
