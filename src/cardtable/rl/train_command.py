"""``cardtable train``'s work: checking the options, the progress bar, the summary.

:mod:`cardtable.cli` declares the command and imports this module only when it runs;
this module imports the trainer (and with it PyTorch) only once the options are read,
so a missing ``train`` extra is reported as one line.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from cardtable.errors import BadOptions

__all__ = ["run_train_command"]


def run_train_command(
    game: str,
    *,
    minutes: float,
    seed: int,
    out: Path,
    resume: bool,
    eval_every: int,
    eval_pairs: int,
    quiet: bool,
    stderr: Console,
) -> None:
    """Train (or continue training) a ``game`` policy into ``out`` for ``minutes``."""
    if minutes <= 0:
        raise BadOptions(f"--minutes must be positive, got {minutes}")
    if eval_every < 1:
        raise BadOptions(f"--eval-every must be at least 1 decision, got {eval_every}")
    if eval_pairs < 1:
        raise BadOptions(f"--eval-pairs must be at least 1, got {eval_pairs}")
    if out.exists() and not out.is_dir():
        raise BadOptions(f"--out {out}: that is a file, not a folder")
    try:
        from cardtable.rl.training import CurvePoint, TrainConfig, Trainer
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise BadOptions(
            "training needs the train extra: pip install 'cardtable[train]' "
            f"({exc.name} is missing)"
        ) from None
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
        game, seed=seed, minutes=minutes, eval_every=eval_every, eval_pairs=eval_pairs
    )
    with progress:
        task = progress.add_task("train", total=minutes, steps=0, score="")
        started: list[float] = []

        def show(steps: int, done: float, point: CurvePoint | None) -> None:
            if not started:
                started.append(done)
            if point is None:
                progress.update(task, completed=done - started[0], steps=steps)
                return
            score = f"vs random {100 * point.vs_random:.0f}%, greedy {100 * point.vs_greedy:.0f}%"
            progress.update(task, completed=done - started[0], steps=steps, score=score)

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
