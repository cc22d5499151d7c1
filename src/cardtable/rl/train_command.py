"""``cardtable train``'s work: checking the options, the progress bar, the summary.

:mod:`cardtable.cli` declares the command and imports this module only when it runs;
this module imports the trainer (and with it PyTorch) only once the options are read,
so a missing ``train`` extra is reported as one line.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from cardtable.errors import BadOptions

__all__ = ["DEFAULT_MINUTES", "run_exit_command", "run_train_command"]

#: A run's wall clock when neither ``--minutes`` nor ``--steps`` is given.
DEFAULT_MINUTES = 30.0


def _missing_extra(exc: ImportError) -> BadOptions:
    """The one line saying the ``train`` extra is missing."""
    return BadOptions(
        f"training needs the train extra: pip install 'cardtable[train]' ({exc.name} is missing)"
    )


def run_train_command(
    game: str,
    *,
    minutes: float | None,
    steps: int | None = None,
    seed: int,
    out: Path,
    resume: bool,
    eval_every: int,
    eval_pairs: int,
    quiet: bool,
    stderr: Console,
) -> None:
    """Train (or continue training) a ``game`` policy into ``out`` for ``minutes`` of
    wall clock (30 when neither is given) or for ``steps`` decisions."""
    if minutes is not None and steps is not None:
        raise BadOptions("give --minutes or --steps, not both")
    if minutes is not None and minutes <= 0:
        raise BadOptions(f"--minutes must be positive, got {minutes}")
    if steps is not None and steps < 1:
        raise BadOptions(f"--steps must be at least 1 decision, got {steps}")
    if eval_every < 1:
        raise BadOptions(f"--eval-every must be at least 1 decision, got {eval_every}")
    if eval_pairs < 1:
        raise BadOptions(f"--eval-pairs must be at least 1, got {eval_pairs}")
    if out.exists() and not out.is_dir():
        raise BadOptions(f"--out {out}: that is a file, not a folder")
    try:
        from cardtable.rl.training import CurvePoint, TrainConfig, Trainer
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise _missing_extra(exc) from None
    progress = Progress(
        TextColumn(f"[bold]train {game}[/]"),
        BarColumn(),
        TextColumn("{task.fields[steps]:>9,} decisions"),
        TextColumn("{task.fields[score]}"),
        TimeElapsedColumn(),
        console=stderr,
        disable=quiet,
    )
    config = TrainConfig(
        game,
        seed=seed,
        minutes=DEFAULT_MINUTES if minutes is None else minutes,
        steps=steps,
        eval_every=eval_every,
        eval_pairs=eval_pairs,
    )
    with progress:
        # The bar fills with the budget: minutes, or decisions in a run given --steps.
        total = config.minutes if steps is None else float(steps)
        task = progress.add_task("train", total=total, steps=0, score="")
        started: list[float] = []

        def show(made: int, done: float, point: CurvePoint | None) -> None:
            spent = done if steps is None else float(made)
            if not started:
                started.append(spent)
            progress.update(task, completed=spent - started[0], steps=made)
            if point is not None:
                score = f"vs random {100 * point.vs_random:.0f}%, "
                score += f"greedy {100 * point.vs_greedy:.0f}%"
                progress.update(task, score=score)

        trainer = Trainer(config, out, resume=resume, on_progress=show)
        result = trainer.run()
    last = result.curve[-1]
    stderr.print(
        f"{result.steps:,} decisions in {result.minutes:.1f} min; on {last.decided_random} and "
        f"{last.decided_greedy} decided held-out pairs: {100 * last.vs_random:.1f}% vs random, "
        f"{100 * last.vs_greedy:.1f}% vs greedy"
    )
    play = f" (play it: cardtable arena {game} --bots learned:{out} greedy)"
    stderr.print(
        f"wrote {out / 'policy.pt'}{play if game == 'candidate' else ''}, {out / 'curve.png'}"
    )


def run_exit_command(
    *,
    minutes: float | None,
    iterations: int | None,
    seed: int,
    out: Path,
    resume: bool,
    games: int,
    simulations: int,
    eval_pairs: int,
    eval_search: int,
    runner: Any,
    ismcts_iterations: int = 1,
    samples_from: Path | None = None,
    window_passes: int = 0,
    quiet: bool,
    stderr: Console,
) -> None:
    """``cardtable train candidate --method exit``: expert iteration
    (:mod:`cardtable.rl.exit`) into ``out`` for ``minutes`` (30 when neither they nor
    ``iterations`` are given), self-play and evaluation mapped by ``runner`` (the
    arena's backends)."""
    if out.exists() and not out.is_dir():
        raise BadOptions(f"--out {out}: that is a file, not a folder")
    if eval_search < 0:
        raise BadOptions(f"--eval-search must be 0 or more simulations, got {eval_search}")
    if window_passes < 0:
        raise BadOptions(f"--window-passes must be 0 or more, got {window_passes}")
    if samples_from is not None and resume:
        raise BadOptions("--samples-from starts a new run: a resumed run keeps its own window")
    if ismcts_iterations < 1:
        raise BadOptions(f"--ismcts-iterations must be at least 1, got {ismcts_iterations}")
    try:
        from cardtable.rl.exit import ExitConfig, ExitProgress, ExitTrainer
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise _missing_extra(exc) from None
    config = ExitConfig(
        seed=seed,
        minutes=DEFAULT_MINUTES if minutes is None and iterations is None else minutes or 1e9,
        iterations=iterations,
        games=games,
        simulations=simulations,
        eval_pairs=eval_pairs,
        eval_search=eval_search,
        ismcts_iterations=ismcts_iterations,
        samples_from=samples_from,
        window_passes=window_passes,
    )
    progress = Progress(
        TextColumn("[bold]train candidate (exit)[/]"),
        BarColumn(),
        TextColumn("iteration {task.fields[iteration]} · {task.fields[stage]}"),
        TextColumn("{task.fields[games]:>7,} games"),
        TextColumn("{task.fields[score]}"),
        TimeElapsedColumn(),
        console=stderr,
        disable=quiet,
    )
    with progress:
        # The bar fills with the budget: minutes, or iterations in a run given them.
        by_time = iterations is None
        task = progress.add_task(
            "exit",
            total=config.minutes if by_time else float(iterations or 1),
            iteration=0,
            stage="self-play",
            games=0,
            score="",
        )
        started = time.monotonic()
        first: list[int] = []

        def show(stage: str, state: ExitProgress) -> None:
            if not first:
                first.append(state.iterations)
            done = (time.monotonic() - started) / 60 if by_time else state.iterations - first[0]
            score = ""
            if state.curve:
                last = state.curve[-1]
                score = f"policy vs greedy {100 * last.policy_share:.0f}%"
                if last.search_decided:
                    score += f", search {100 * last.search_won / last.search_decided:.0f}%"
            progress.update(
                task,
                completed=done,
                iteration=state.iterations + (stage != "done"),
                stage=stage,
                games=state.games,
                score=score,
            )

        result = ExitTrainer(config, out, resume=resume, runner=runner, on_progress=show).run()
    last = result.curve[-1]
    stderr.print(
        f"{result.iterations} iterations, {result.games:,} self-play games in "
        f"{result.minutes:.1f} min; the policy alone won {100 * last.policy_share:.1f}% of "
        f"{last.policy_decided} decided held-out pairs against greedy"
    )
    stderr.print(
        f"wrote {out / 'policy.pt'} (play it: cardtable arena candidate --bots "
        f"learned:{out} alpha:200:{out} greedy), {out / 'curve.png'}"
    )
