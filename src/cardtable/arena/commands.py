"""The arena's command-line work: reading bot lists and options, progress, output.

:mod:`cardtable.cli` declares the commands and imports this module only when one of
them runs, so the rest of the command line starts fast.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cardtable.arena.backends import BACKENDS, default_workers
from cardtable.arena.bot_tournament import BotTournament, run_bot_tournament, spec_from_options
from cardtable.arena.raycluster import RayPlace
from cardtable.arena.report import report_json, report_table, save_plot
from cardtable.arena.schedule import seats_of
from cardtable.arena.tournament import ArenaReport, run_arena
from cardtable.arena.work import ArenaConfig, GameResult
from cardtable.bots.registry import BotSpec, parse_bot_spec
from cardtable.errors import BadOptions
from cardtable.games.registry import find_game
from cardtable.tournament.model import RoundPlan, Standing

__all__ = ["parse_bots", "run_arena_command", "run_tournament_command"]


def parse_bots(game: str, texts: Sequence[str]) -> tuple[BotSpec, ...]:
    """Bot specs from ``--bots`` values (space- or comma-separated).

    >>> [s.label for s in parse_bots("candidate", ["ismcts:300,greedy", "random"])]
    ['ismcts:300', 'greedy', 'random']
    """
    specs = [parse_bot_spec(game, part) for text in texts for part in text.split(",") if part]
    low, high = seats_of(game)
    if len(specs) < 2:
        raise BadOptions(f"an arena needs at least 2 bots (--bots A B …), got {len(specs)}")
    if low != high and len(specs) > high:
        raise BadOptions(f"a {game} race seats {low}-{high} players, got {len(specs)} bots")
    return tuple(specs)


def check_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's rule options, checked by the game (an arena game is one deal or one
    round — the game's *segment* — so the option counting them, ``deals`` or
    ``rounds``, is set by the arena and not accepted here)."""
    played = find_game(game)
    counted = f"{played.info.segment}s"
    if counted in options:
        raise BadOptions(f"option {counted!r} is set by the arena: use --{counted} instead")
    played.check_options({**options, counted: 1}, played.info.min_players)
    return dict(options)


def run_arena_command(
    game: str,
    bot_texts: Sequence[str],
    *,
    deals: int,
    workers: int | None,
    backend: str,
    ray_place: RayPlace | None,
    seed: int,
    options: Mapping[str, Any],
    as_json: bool,
    out: Path | None,
    plot: Path | None,
    quiet: bool,
    stdout: Console,
    stderr: Console,
) -> ArenaReport:
    """Run ``cardtable arena``; print and save the (possibly interrupted) report."""
    if backend not in BACKENDS:
        raise BadOptions(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    config = ArenaConfig(game, parse_bots(game, bot_texts), seed, check_options(game, options))
    worker_count = default_workers() if workers is None else workers
    if worker_count < 1:
        raise BadOptions(f"--workers must be at least 1, got {worker_count}")
    progress = Progress(
        TextColumn(f"[bold]{game}[/] {' vs '.join(config.labels)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeRemainingColumn(),
        console=stderr,
        disable=quiet,
        transient=False,
    )
    with progress:
        task = progress.add_task("arena", total=None)

        def advance(result: GameResult, done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = run_arena(
            config,
            deals,
            backend=backend,
            workers=worker_count,
            ray_place=ray_place,
            on_result=advance,
        )
    if report.interrupted:
        stderr.print(
            f"interrupted: reporting the {report.played} of {report.scheduled} games that finished"
        )
    if as_json:
        stdout.print(report_json(report), markup=False, highlight=False, soft_wrap=True)
    else:
        for table in report_table(report):
            stdout.print(table)
    if out is not None:
        out.write_text(report_json(report, with_games=True) + "\n", encoding="utf-8")
        stderr.print(f"wrote {out}")
    if plot is not None:
        save_plot(report, plot)
        stderr.print(f"wrote {plot}")
    return report


def run_tournament_command(
    game: str,
    bot_texts: Sequence[str],
    *,
    format: str,
    rounds: int,
    table_size: int,
    duplicate: bool,
    options: Mapping[str, Any],
    seed: int,
    workers: int | None,
    backend: str,
    ray_place: RayPlace | None,
    out: Path | None,
    csv_path: Path | None,
    as_json: bool,
    quiet: bool,
    stdout: Console,
    stderr: Console,
) -> BotTournament:
    """Run ``cardtable tournament``: play every round, print the standings, save them."""
    from rich.table import Table as RichTable

    if backend not in BACKENDS:
        raise BadOptions(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    specs = tuple(parse_bot_spec(game, part) for t in bot_texts for part in t.split(",") if part)
    spec = spec_from_options(
        game,
        format=format,
        rounds=rounds,
        table_size=table_size,
        duplicate=duplicate,
        options=options,
    )
    worker_count = default_workers() if workers is None else workers

    def progress(plan: RoundPlan, table: Sequence[Standing]) -> None:
        if not quiet:
            leader = table[0] if table else None
            lead = f", leading: {leader.player} ({leader.points:g})" if leader else ""
            stderr.print(f"round {plan.round}/{spec.rounds}: {len(plan.tables)} tables{lead}")

    result = run_bot_tournament(
        spec,
        specs,
        seed=seed,
        backend=backend,
        workers=worker_count,
        ray_place=ray_place,
        on_round=progress,
    )
    if as_json:
        stdout.print(json.dumps(result.to_dict()), markup=False, highlight=False, soft_wrap=True)
    else:
        names = list(result.standings[0].tiebreaks) if result.standings else []
        view = RichTable(
            title=f"{game} {format}{' duplicate' if duplicate else ''}: {rounds} rounds"
        )
        for column in ("rank", "player", "points", *names, "games", "byes"):
            view.add_column(column, justify="left" if column == "player" else "right")
        for s in result.standings:
            view.add_row(
                str(s.rank),
                s.player,
                f"{s.points:g}",
                *(f"{s.tiebreaks[n]:g}" for n in names),
                str(s.games),
                str(s.byes),
            )
        stdout.print(view)
    if out is not None:
        out.write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
        stderr.print(f"wrote {out}")
    if csv_path is not None:
        csv_path.write_text(result.to_csv(), encoding="utf-8")
        stderr.print(f"wrote {csv_path}")
    return result
