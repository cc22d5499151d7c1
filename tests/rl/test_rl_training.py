"""``cardtable train`` and the learned bot (cardtable.rl.training, cardtable.bots.learned).

A run of a fixed number of decisions (not minutes: a busy machine makes the same policy)
writes a checkpoint; the checkpoint plays whole arena games as
``learned:PATH`` (the table refuses any illegal move, which would stop the arena with an
error); a resumed run goes on from the checkpoint; bad input is one clear line.
"""

from __future__ import annotations

import json
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install cardtable[train])")
pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (cardtable[train])")

from typer.testing import CliRunner

from cardtable.arena.tournament import run_arena
from cardtable.arena.work import ArenaConfig
from cardtable.bots.learned import LearnedBot, SpyLearnedBot, check_policy, shipped_policy
from cardtable.bots.learned_net import build_actor, save_checkpoint
from cardtable.bots.registry import parse_bot_spec
from cardtable.bots.seat import SeatBot
from cardtable.cli import app
from cardtable.errors import BadOptions
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.registry import find_game
from cardtable.games.spy.match import SpyMatch

# Short trainings (seconds each on a quiet machine), still part of the suite.
pytestmark = pytest.mark.slow

#: One rollout (8 environments x 128 steps) and one update per run, however busy the machine.
STEPS = 1024
TRAIN = ["train", "candidate", "--steps", str(STEPS), "--eval-every", "300", "--eval-pairs", "2"]


def _progress(out: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((out / "progress.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A short training run, then its continuation: (folder, progress before resuming)."""
    out = tmp_path_factory.mktemp("train") / "run"
    first = CliRunner().invoke(app, [*TRAIN, "--seed", "3", "--out", str(out), "--quiet"])
    assert first.exit_code == 0, first.output
    before = _progress(out)
    second = CliRunner().invoke(app, [*TRAIN, "--out", str(out), "--resume", "--quiet"])
    assert second.exit_code == 0, second.output
    return out, before


def test_a_short_run_writes_a_checkpoint_a_curve_and_its_progress(
    run: tuple[Path, dict[str, object]],
) -> None:
    out, before = run
    for name in ("policy.pt", "model.zip", "progress.json", "curve.png"):
        assert (out / name).is_file(), name
    assert (out / "curve.png").read_bytes().startswith(b"\x89PNG")
    assert before["steps"] == STEPS  # the budget, not the time, ended the run
    curve = before["curve"]
    assert isinstance(curve, list)
    assert curve[0]["steps"] == 0
    assert all(0.0 <= p["vs_random"] <= 1.0 and 0.0 <= p["vs_greedy"] <= 1.0 for p in curve)


def test_resume_goes_on_from_the_checkpoint(run: tuple[Path, dict[str, object]]) -> None:
    out, before = run
    after = _progress(out)
    assert isinstance(after["steps"], int)
    assert isinstance(before["steps"], int)
    assert after["steps"] == 2 * STEPS  # a resumed run adds its budget to the steps made
    assert isinstance(after["minutes"], float)
    assert isinstance(before["minutes"], float)
    assert after["minutes"] >= before["minutes"]  # the minutes are kept and added to
    earlier, now = before["curve"], after["curve"]
    assert isinstance(earlier, list)
    assert isinstance(now, list)
    assert now[: len(earlier)] == earlier  # the curve keeps its points
    assert len(now) > len(earlier)
    steps = [p["steps"] for p in now]
    assert steps == sorted(steps)


def test_the_checkpoint_plays_whole_arena_games_with_legal_moves_only(
    run: tuple[Path, dict[str, object]],
) -> None:
    out, _ = run
    learned = parse_bot_spec("candidate", f"learned:{out}")
    assert learned.label == f"learned:{out}"
    for other in ("random", "greedy"):
        config = ArenaConfig("candidate", (learned, parse_bot_spec("candidate", other)), seed=5)
        report = run_arena(config, 3)  # the table would refuse an illegal move: an error
        assert report.played == 6
        assert not report.interrupted


def test_the_bot_sees_only_its_seat_and_answers_the_same_after_a_reshuffle(
    run: tuple[Path, dict[str, object]],
) -> None:
    out, _ = run
    bot = LearnedBot(seed=1, path=str(out))
    rng = random.Random(2)
    for seed in range(4):
        state = CandidateState.new(seed, CandidateOptions(deals=1))
        while not state.is_terminal():
            player = state.current_player
            info = CandidateInfo.of(state, player)
            action = bot.choose(info)
            assert action in info.legal
            # The unseen cards dealt anew leave the seat's information, and the move.
            other = CandidateInfo.of(info.determinize(rng), player)
            assert bot.choose(other) == action
            analysis = bot.analyse(info)
            assert analysis.best.action == action
            assert sum(m.value for m in analysis.moves) == pytest.approx(1.0)
            state.apply(action)


def _think(bot: SeatBot, info: Any) -> int:
    return bot.think(info)


def test_the_seat_bot_pickles_and_thinks_in_a_spawned_process(
    run: tuple[Path, dict[str, object]],
) -> None:
    out, _ = run
    bot = SeatBot.make("candidate", f"learned:{out}", seed=4, seat=0)
    match = find_game("candidate").new_match(seed=9, players=["A", "B"], options={"deals": 1})
    while match.to_move() != 0 or len(match.legal_actions(0)) < 2:
        seat = match.to_move()
        assert seat is not None
        match.apply(seat, match.legal_actions(seat)[-1])
    info = bot.info(match)
    assert pickle.loads(pickle.dumps(bot)) == bot
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        assert pool.submit(_think, bot, info).result(timeout=120) == bot.think(info)


def test_bad_checkpoints_are_one_clear_line(
    run: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    out, _ = run
    with pytest.raises(BadOptions, match="no checkpoint at"):
        parse_bot_spec("candidate", f"learned:{tmp_path / 'none.pt'}")
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a policy")
    with pytest.raises(BadOptions, match="not a cardtable policy file"):
        parse_bot_spec("candidate", f"learned:{junk}")
    spy = tmp_path / "spy.pt"
    save_checkpoint(spy, build_actor("spy", [8], {}), game="spy", hidden=[8], options={}, steps=0)
    with pytest.raises(BadOptions, match="holds a spy policy, not a candidate one"):
        parse_bot_spec("candidate", f"learned:{spy}")
    with pytest.raises(BadOptions, match="write learned:PATH"):
        parse_bot_spec("candidate", "learned:")
    runner = CliRunner()
    arena = runner.invoke(
        app, ["arena", "candidate", "--bots", f"learned:{tmp_path / 'x'}", "random"]
    )
    assert arena.exit_code == 1
    assert "no checkpoint at" in arena.output
    assert "Traceback" not in arena.output
    empty = tmp_path / "empty"
    resume = runner.invoke(app, [*TRAIN, "--out", str(empty), "--resume", "--quiet"])
    assert resume.exit_code == 1
    assert "nothing to resume" in resume.output
    again = runner.invoke(app, [*TRAIN, "--out", str(out), "--quiet"])
    assert again.exit_code == 1
    assert "already holds a run" in again.output
    minutes = runner.invoke(app, ["train", "candidate", "--minutes", "0", "--out", str(empty)])
    assert minutes.exit_code == 1
    assert "--minutes must be positive" in minutes.output
    steps = runner.invoke(app, ["train", "candidate", "--steps", "0", "--out", str(empty)])
    assert steps.exit_code == 1
    assert "--steps must be at least 1 decision" in steps.output
    both = ["train", "spy", "--steps", "9", "--minutes", "1", "--out", str(empty)]
    twice = runner.invoke(app, both)
    assert twice.exit_code == 1
    assert "give --minutes or --steps, not both" in twice.output
    assert not empty.exists()


@pytest.mark.skipif(not shipped_policy().is_file(), reason="no policy shipped")
def test_the_shipped_policy_loads_as_plain_learned() -> None:
    spec = parse_bot_spec("candidate", "learned")
    assert spec.label == "learned"
    state = CandidateState.new(1, CandidateOptions(deals=1))
    info = CandidateInfo.of(state, state.current_player)
    assert SeatBot(spec, 0, state.current_player).think(info) in info.legal


@pytest.fixture(scope="module")
def spy_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``cardtable train spy`` run of one rollout (STEPS decisions): its folder."""
    out = tmp_path_factory.mktemp("train-spy") / "spy"
    args = ["train", "spy", "--steps", str(STEPS), "--eval-every", "10000", "--eval-pairs", "1"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


def test_a_short_spy_run_writes_a_race_policy(spy_run: Path) -> None:
    from cardtable.bots.learned_net import load_checkpoint

    actor, facts = load_checkpoint(spy_run, "spy")
    assert facts["game"] == "spy"
    assert facts["steps"] == STEPS
    assert len(actor.legal_logits([0.0] * 117, [0, 16])) == 2
    with pytest.raises(BadOptions, match="holds a spy policy"):
        parse_bot_spec("candidate", f"learned:{spy_run}")


def test_the_spy_checkpoint_races_whole_arena_rounds_with_legal_moves_only(
    spy_run: Path,
) -> None:
    learned = parse_bot_spec("spy", f"learned:{spy_run}")
    assert learned.label == f"learned:{spy_run}"
    config = ArenaConfig("spy", (learned, parse_bot_spec("spy", "greedy")), seed=5)
    report = run_arena(config, 2)  # the race refuses an illegal move: an error
    assert report.played == 4
    assert not report.interrupted


def test_the_spy_seat_bot_plays_a_match_from_its_information_set(spy_run: Path) -> None:
    """SeatBot.make("spy", "learned:PATH"): legal moves only, from ``bot_info`` alone;
    its move is the policy's best legal local move on the race's observation (S4-S5:
    the seat's public view), and the bot pickles into a spawned worker."""
    from cardtable.bots.learned_net import load_checkpoint
    from cardtable.games.spy.encoding import encode_seat

    actor, _ = load_checkpoint(spy_run, "spy")
    bots = [
        SeatBot.make("spy", f"learned:{spy_run}", seed=1, seat=0),
        SeatBot.make("spy", "greedy", seed=2, seat=1),
    ]
    learned_moves = 0
    # A policy of one rollout may end its race at once on some deals: play deals until
    # the learned seat has moved often enough (the moves, not the policy's skill, are
    # what is checked).
    for deal in range(7, 15):
        match = SpyMatch.new(seed=deal, players=["A", "B"], options={"rounds": 1}, move_limit=150)
        for step in range(400):
            if match.is_terminal():
                break
            seat = int(step % 4 == 3)  # the learned seat moves 3 times as often (S17: any order)
            legal = match.legal_actions(seat)
            if not legal:
                seat = 1 - seat
                legal = match.legal_actions(seat)
            info = bots[seat].info(match)
            action = bots[seat].think(info)
            assert action in legal
            if seat == 0:
                view = match.state.view(0).seats[0]
                logits = actor.legal_logits(encode_seat(view), info.locals).tolist()
                best = info.legal[max(range(len(logits)), key=lambda i: (logits[i], -i))]
                assert action == best
                analysis = SpyLearnedBot(path=str(spy_run)).analyse(info)
                assert sum(m.value for m in analysis.moves) == pytest.approx(1.0)
                learned_moves += 1
                mine = info
            match.apply(seat, action)
        if learned_moves > 10:
            break
    assert learned_moves > 10
    assert pickle.loads(pickle.dumps(bots[0])) == bots[0]
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        assert pool.submit(_think, bots[0], mine).result(timeout=120) == bots[0].think(mine)


def test_a_checkpoint_of_the_other_game_is_refused_in_one_line(
    run: tuple[Path, dict[str, object]], spy_run: Path
) -> None:
    out, _ = run
    with pytest.raises(BadOptions, match="holds a candidate policy, not a spy one"):
        parse_bot_spec("spy", f"learned:{out}")
    with pytest.raises(BadOptions, match="holds a spy policy, not a candidate one"):
        check_policy("candidate", str(spy_run))
    with pytest.raises(BadOptions, match="no spy policy is shipped: write learned:PATH"):
        parse_bot_spec("spy", "learned")
    arena = CliRunner().invoke(app, ["arena", "spy", "--bots", f"learned:{out}", "greedy"])
    assert arena.exit_code == 1
    assert "holds a candidate policy, not a spy one" in arena.output
    assert "Traceback" not in arena.output


def test_the_bot_plays_what_the_trained_policy_plays(run: tuple[Path, dict[str, object]]) -> None:
    """One network: the learner's deterministic choice over the slots is the bot's move."""
    import numpy as np
    from sb3_contrib import MaskablePPO

    from cardtable.games.candidate.encoding import encode_view
    from cardtable.rl.training import SLOTS, slot_observation

    out, _ = run
    model = MaskablePPO.load(out / "model.zip", device="cpu")
    bot = LearnedBot(path=str(out))
    state = CandidateState.new(11, CandidateOptions(deals=1))
    compared = 0
    while not state.is_terminal():
        player = state.current_player
        info = CandidateInfo.of(state, player)
        if len(info.legal) > 1:
            mask = np.zeros(SLOTS, dtype=bool)
            obs = slot_observation(encode_view(info.view, player), info.legal, mask)
            slot, _ = model.predict(obs, action_masks=mask, deterministic=True)
            assert info.legal[int(slot)] == bot.choose(info)
            compared += 1
        state.apply(bot.choose(info))
    assert compared > 5
