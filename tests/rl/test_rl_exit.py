"""``cardtable train candidate --method exit`` (cardtable.rl.exit): a tiny run of expert
iteration goes end to end through the command, resumes, and its network plays as
``learned:DIR`` (the policy) and ``alpha:N:DIR`` (the search) in whole arena games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install cardtable[train])")

from typer.testing import CliRunner

from cardtable.arena.tournament import run_arena
from cardtable.arena.work import ArenaConfig
from cardtable.bots.learned import LearnedBot
from cardtable.bots.registry import parse_bot_spec
from cardtable.cli import app
from cardtable.errors import BadOptions
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo
from cardtable.rl.exit import ExitConfig, ExitTrainer

pytestmark = pytest.mark.slow

#: One iteration of two games with a tiny search: seconds, however busy the machine.
TRAIN = [
    "train",
    "candidate",
    "--method",
    "exit",
    "--iterations",
    "1",
    "--games",
    "2",
    "--simulations",
    "4",
    "--eval-pairs",
    "2",
    "--eval-search",
    "3",
    "--quiet",
]


def _progress(out: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((out / "progress.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One iteration through the command, then one more resumed."""
    out = tmp_path_factory.mktemp("exit") / "run"
    first = CliRunner().invoke(app, [*TRAIN, "--seed", "3", "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert _progress(out)["iterations"] == 1
    second = CliRunner().invoke(app, [*TRAIN, "--out", str(out), "--resume", "--workers", "2"])
    assert second.exit_code == 0, second.output
    return out


def test_a_tiny_run_writes_its_files_and_resumes(run: Path) -> None:
    for name in ("policy.pt", "trainer.pt", "window.npz", "progress.json", "curve.png"):
        assert (run / name).is_file(), name
    assert (run / "curve.png").read_bytes().startswith(b"\x89PNG")
    progress = _progress(run)
    assert progress["method"] == "exit"
    assert progress["iterations"] == 2
    assert progress["games"] == 4
    curve = progress["curve"]
    assert isinstance(curve, list)
    assert [p["iteration"] for p in curve] == [1, 2]
    for point in curve:
        assert 0 <= point["policy_won"] <= point["policy_decided"] <= 2
        assert 0 <= point["search_won"] <= point["search_decided"] <= 2
        assert point["samples"] > 0
    # The resumed run trained on the first run's samples too (window.npz) and new ones.
    assert curve[1]["samples"] > curve[0]["samples"]


def test_the_sample_window_reads_back_as_it_was_written(run: Path, tmp_path: Path) -> None:
    from cardtable.rl.exit import _Window

    window = _Window(10_000)
    window.load(run / "window.npz")
    again = tmp_path / "again.npz"
    window.save(again)
    copy = _Window(10_000)
    copy.load(again)
    (part,) = window.parts
    (same,) = copy.parts
    assert len(part) == _progress(run)["curve"][-1]["samples"]  # type: ignore[index]
    assert (part.legal, part.context, part.visits) == (same.legal, same.context, same.visits)
    assert (part.obs == same.obs).all()
    assert (part.value == same.value).all()
    pairs = zip(part.visits, part.legal, strict=True)
    assert all(sum(v) > 0 and len(v) == len(m) for v, m in pairs)


def test_a_new_run_starts_from_another_runs_samples(run: Path, tmp_path: Path) -> None:
    """--samples-from: a new network (here of another width) trains on the run's
    window first (--window-passes) and then on its own self-play too."""
    out = tmp_path / "refit"
    refit = CliRunner().invoke(
        app,
        [*TRAIN, "--out", str(out), "--samples-from", str(run), "--window-passes", "2"],
    )
    assert refit.exit_code == 0, refit.output
    given = _progress(run)["curve"][-1]["samples"]  # type: ignore[index]
    (point,) = _progress(out)["curve"]  # type: ignore[misc]
    assert point["samples"] > given  # the given window and the new games' samples
    assert _progress(out)["games"] == 2  # only its own games count as its self-play


def test_the_network_plays_as_learned_and_as_alpha_in_the_arena(run: Path) -> None:
    learned = parse_bot_spec("candidate", f"learned:{run}")
    alpha = parse_bot_spec("candidate", f"alpha:5:{run}")
    assert alpha.label == f"alpha:5:{run}"
    config = ArenaConfig("candidate", (learned, alpha, parse_bot_spec("candidate", "greedy")), 5)
    report = run_arena(config, 1)  # the table would refuse an illegal move: an error
    assert report.played == 6
    assert not report.interrupted


def test_the_policy_bot_plays_the_networks_most_likely_move(run: Path) -> None:
    from cardtable.bots.candidate_alpha import policy_choice
    from cardtable.bots.learned import load_evaluator

    bot = LearnedBot(seed=0, path=str(run))
    net = load_evaluator(str(run / "policy.pt"))
    state = CandidateState.new(8, CandidateOptions(deals=1))
    while not state.is_terminal():
        info = CandidateInfo.of(state, state.current_player)
        action = bot.choose(info)
        assert action == policy_choice(net, info)
        state.apply(action)


def test_bad_runs_are_one_clear_line(run: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    again = runner.invoke(app, [*TRAIN, "--out", str(run)])
    assert again.exit_code == 1
    assert "already holds a run" in again.output
    empty = tmp_path / "empty"
    resume = runner.invoke(app, [*TRAIN, "--out", str(empty), "--resume"])
    assert resume.exit_code == 1
    assert "nothing to resume" in resume.output
    method = runner.invoke(app, ["train", "candidate", "--method", "dqn", "--out", str(empty)])
    assert method.exit_code == 1
    assert "unknown --method 'dqn'" in method.output
    nothing = runner.invoke(app, [*TRAIN, "--out", str(empty), "--samples-from", str(empty)])
    assert nothing.exit_code == 1
    assert "no window.npz there" in nothing.output
    both = runner.invoke(app, [*TRAIN, "--out", str(run), "--resume", "--samples-from", str(run)])
    assert both.exit_code == 1
    assert "a resumed run keeps its own window" in both.output
    passes = runner.invoke(app, [*TRAIN, "--out", str(empty), "--window-passes", "-1"])
    assert passes.exit_code == 1
    assert "--window-passes must be 0 or more" in passes.output
    expert = runner.invoke(app, [*TRAIN, "--out", str(empty), "--ismcts-iterations", "0"])
    assert expert.exit_code == 1
    assert "--ismcts-iterations must be at least 1" in expert.output
    with pytest.raises(BadOptions, match="--iterations must be at least 1"):
        ExitTrainer(ExitConfig(iterations=0), empty)
    assert not empty.exists()
