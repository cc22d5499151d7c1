"""Arena reports for people and programs: a rich table, JSON, and a matplotlib plot."""

from __future__ import annotations

import json
import math
from pathlib import Path

from rich.table import Table

from cardtable.arena.tournament import ArenaReport

__all__ = ["report_json", "report_table", "save_plot"]


def _pct(value: float) -> str:
    return "–" if math.isnan(value) else f"{100 * value:.1f}%"


def _ci(ci: tuple[float, float] | list[float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def report_table(report: ArenaReport) -> list[Table]:
    """The results table and, when there are complete duplicate sets, the pairs table."""
    state = "interrupted: " if report.interrupted else ""
    title = (
        f"{report.game} arena — {state}{report.played} of {report.scheduled} games, "
        f"{report.deals} duplicate deals, seed {report.seed}, {report.seconds:.1f} s"
    )
    table = Table(title=title)
    for name, justify in (
        ("bot", "left"),
        ("games", "right"),
        ("wins", "right"),
        ("draws", "right"),
        ("losses", "right"),
        ("win rate", "right"),
        ("95% CI", "right"),
        ("mean score", "right"),
        ("rating", "right"),
    ):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    metric_names = sorted({name for row in report.rows for name in row.metrics})
    for name in metric_names:
        table.add_column(f"mean {name}", justify="right", no_wrap=True)
    for row in report.rows:
        rating = "–" if row.rating is None else f"{row.rating:.1f} ± {row.rating_sigma or 0:.1f}"
        cells = [
            row.bot,
            str(row.games),
            str(row.wins),
            str(row.draws),
            str(row.losses),
            _pct(row.win_rate),
            _ci(row.ci95),
            _num(row.mean_score.mean),
            rating,
        ]
        cells += [_num(row.metrics[m].mean) if m in row.metrics else "–" for m in metric_names]
        table.add_row(*cells)
    tables = [table]
    if report.pairs:
        pairs = Table(title="duplicate sets (same cards, seats rotated): who did better")
        for name in ("bots", "sets", "wins", "draws", "decided win rate", "95% CI", "p"):
            pairs.add_column(name, justify="left" if name == "bots" else "right", no_wrap=True)
        for pair in report.pairs:
            data = pair.to_dict()
            pairs.add_row(
                f"{pair.first} vs {pair.second}",
                str(pair.sets),
                f"{pair.first_wins}–{pair.second_wins}",
                str(pair.draws),
                _pct(pair.decided_win_rate),
                _ci(data["ci95"]),
                f"{data['p_value']:.2g}",
            )
        tables.append(pairs)
    return tables


def report_json(report: ArenaReport, *, with_games: bool = False) -> str:
    """The report as one JSON document (NaN written as null)."""
    return json.dumps(_clean(report.to_dict(with_games=with_games)), ensure_ascii=False)


def _clean(value: object) -> object:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def save_plot(report: ArenaReport, path: Path) -> None:
    """Win rates with their 95 % intervals and ratings, as a PNG (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [row.bot for row in report.rows]
    rates = [0.0 if math.isnan(r.win_rate) else r.win_rate for r in report.rows]
    low = [max(0.0, rate - r.ci95[0]) for rate, r in zip(rates, report.rows, strict=True)]
    high = [max(0.0, r.ci95[1] - rate) for rate, r in zip(rates, report.rows, strict=True)]
    ratings = [r.rating for r in report.rows]
    has_ratings = all(r is not None for r in ratings)
    fig, axes = plt.subplots(1, 2 if has_ratings else 1, figsize=(10 if has_ratings else 6, 4))
    axis_list = list(axes) if has_ratings else [axes]
    ax = axis_list[0]
    ax.bar(labels, rates, yerr=[low, high], capsize=6, color="#4c72b0")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"{report.game}: {report.played} games")
    if has_ratings:
        sigmas = [r.rating_sigma or 0.0 for r in report.rows]
        axis_list[1].bar(
            labels, [r or 0.0 for r in ratings], yerr=sigmas, capsize=6, color="#55a868"
        )
        axis_list[1].set_ylabel("openskill rating (mu ± sigma)")
        axis_list[1].set_title("ratings")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
