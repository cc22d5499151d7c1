"""Arena statistics, schedule, backends, command line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardtable.arena.backends import map_tasks, ray_available
from cardtable.arena.schedule import schedule
from cardtable.arena.stats import binomial_p_value, wilson_interval
from cardtable.arena.tournament import run_arena
from cardtable.arena.work import ArenaConfig
from cardtable.bots.registry import parse_bot_spec
from cardtable.cli import app
from cardtable.errors import BadOptions


def test_wilson_interval_contains_rate_and_narrows() -> None:
    low, high = wilson_interval(80, 100)
    assert low < 0.8 < high
    wide = wilson_interval(8, 10)
    assert wide[1] - wide[0] > high - low


def test_binomial_p_value_symmetry() -> None:
    assert binomial_p_value(30, 40) == pytest.approx(binomial_p_value(10, 40))
    assert binomial_p_value(30, 40) < 0.01


def test_duplicate_schedule_swaps_seats_on_same_deal() -> None:
    jobs = schedule("candidate", 3, deals=2, seed=1)
    assert len(jobs) == 3 * 2 * 2  # 3 pairs, 2 deals, 2 seatings
    by_group: dict[int, list[tuple[int, ...]]] = {}
    for job in jobs:
        by_group.setdefault(job.group, []).append(job.seats)
    assert all(seats[0] == seats[1][::-1] for seats in by_group.values())


def test_spy_schedule_every_bot_every_seat() -> None:
    jobs = schedule("spy", 3, deals=1, seed=1)
    for seat in range(3):
        assert sorted(j.seats[seat] for j in jobs) == [0, 1, 2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("minimax", "expected one of random, greedy, ismcts"),
        ("ismcts:0", "bad budget"),
        ("greedy:10", "takes no budget"),
    ],
)
def test_bad_bot_specs_name_what_is_accepted(text: str, message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        parse_bot_spec("candidate", text)


def test_oracle_refused_in_fair_games() -> None:
    with pytest.raises(BadOptions, match="cannot take a seat"):
        parse_bot_spec("spy", "oracle")


def _config(game: str, bots: tuple[str, ...]) -> ArenaConfig:
    return ArenaConfig(game, tuple(parse_bot_spec(game, b) for b in bots), seed=5)


@pytest.mark.parametrize(
    ("game", "bots"), [("candidate", ("greedy", "random")), ("spy", ("greedy", "random"))]
)
def test_inline_and_process_backends_agree(game: str, bots: tuple[str, ...]) -> None:
    config = _config(game, bots)
    one = run_arena(config, 3, workers=1)
    two = run_arena(config, 3, workers=2)
    assert [g.to_dict() for g in one.games] == [g.to_dict() for g in two.games]
    assert one.to_dict()["results"] == two.to_dict()["results"]


def _square(x: int) -> int:
    return x * x


def test_map_tasks_runs_any_function_on_every_local_backend() -> None:
    """Arena games and other batches (self-play) share the backends: every task's
    result comes back once, in any order."""
    assert list(map_tasks(_square, [1, 2, 3])) == [1, 4, 9]
    assert sorted(map_tasks(_square, list(range(9)), workers=2)) == [x * x for x in range(9)]
    with pytest.raises(BadOptions, match="--workers must be at least 1"):
        map_tasks(_square, [1], workers=0)
    with pytest.raises(BadOptions, match="unknown backend 'mpi'"):
        map_tasks(_square, [1], backend="mpi")


@pytest.mark.skipif(
    not ray_available(), reason="ray is not installed (pip install 'cardtable[ray]')"
)
def test_ray_backend_agrees_with_local() -> None:
    config = _config("candidate", ("greedy", "random"))
    local = run_arena(config, 2, workers=1)
    remote = run_arena(config, 2, backend="ray", workers=2)
    assert [g.to_dict() for g in local.games] == [g.to_dict() for g in remote.games]


def test_arena_cli_json_has_documented_keys() -> None:
    result = CliRunner().invoke(
        app,
        [
            "arena",
            "candidate",
            "--bots",
            "greedy",
            "random",
            "--deals",
            "2",
            "--workers",
            "1",
            "--json",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    row = data["results"][0]
    for key in (
        "bot",
        "games",
        "wins",
        "draws",
        "losses",
        "win_rate",
        "ci95",
        "mean_score",
        "rating",
    ):
        assert key in row
    assert sum(r["games"] for r in data["results"]) == 2 * 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "candidate", "--bots", "nobot", "greedy"], "unknown candidate bot"),
        (["arena", "spy", "--bots", "greedy", "random", "--deals", "3"], "counts --rounds"),
        (["arena", "candidate", "--bots", "greedy"], "at least 2 bots"),
        (
            ["arena", "candidate", "--bots", "greedy", "random", "--backend", "cloud"],
            "unknown backend",
        ),
    ],
)
def test_arena_cli_errors_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_interrupted_arena_reports_finished_games(monkeypatch: pytest.MonkeyPatch) -> None:
    config = _config("candidate", ("greedy", "random"))
    seen = []

    def stop_after_three(result: object, done: int, total: int) -> None:
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    report = run_arena(config, 4, workers=1, on_result=stop_after_three)
    assert report.interrupted
    assert report.played == 3
    assert sum(r.games for r in report.rows) == 6
