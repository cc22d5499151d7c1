"""``cardtable analyse candidate RECORD`` and ``cardtable analyse spy RECORD``: a played
record analysed move by move (docs/analysis.md), printed as a report or JSON, with a
progress bar and, on request, the evaluation graph as a PNG."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardtable.bots.review_candidate import ReviewSettings, review_candidate_record
from cardtable.bots.review_spy import PLANNER_WORLDS, review_spy_record
from cardtable.errors import BadOptions
from cardtable.record import read_record_file

__all__ = ["review_command", "save_review_plot"]

#: The sign a mark gets in the move list of the report.
_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "hindsight": "~"}


def review_command(
    game: str,
    path: Path,
    *,
    seed: int,
    samples: int | None,
    as_json: bool,
    plot: Path | None,
    quiet: bool,
    stdout: Console,
    stderr: Console,
) -> dict[str, Any]:
    """Analyse the record at ``path`` and print the report (or JSON); ``samples`` is
    the determinisations per move (Candidate) or the planner's worlds (Spy)."""
    record = read_record_file(path)
    if record.get("game") != game:
        raise BadOptions(f"{path} is a record of {record.get('game')!r}, not of {game}")
    if samples is not None and samples < 2:
        raise BadOptions(f"--samples must be at least 2, got {samples}")
    progress = Progress(
        TextColumn(f"[bold]analysing[/] {path.name}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("moves"),
        TimeRemainingColumn(),
        console=stderr,
        disable=quiet,
    )
    with progress:
        task = progress.add_task("analyse", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        if game == "candidate":
            settings = ReviewSettings(
                seed=seed, **({} if samples is None else {"samples": samples})
            )
            data = review_candidate_record(record, settings, advance)
        else:
            worlds = PLANNER_WORLDS if samples is None else samples
            data = review_spy_record(record, seed=seed, worlds=worlds, progress=advance)
    if as_json:
        stdout.print(json.dumps(data), markup=False, highlight=False, soft_wrap=True)
    elif game == "candidate":
        _print_candidate(data, stdout)
    else:
        _print_spy(data, stdout)
    if plot is not None:
        save_review_plot(data, plot)
        stderr.print(f"wrote {plot}")
    return data


def _print_candidate(data: dict[str, Any], stdout: Console) -> None:
    names = data["players"]
    table = Table(title="candidate: every decision, deal margin for the deciding player (points)")
    for column in ("deal", "move", "player", "played", "eval (± s.e.)", "best", "loss", "mark"):
        table.add_column(column, justify="right" if column in ("loss", "eval (± s.e.)") else "left")
    for d in data["decisions"]:
        if d["forced"]:
            continue
        label = d["label"]
        played = d["played"]
        table.add_row(
            str(d["deal"]),
            str(d["number"]),
            names[d["player"]],
            played["move"] + _SIGNS.get(label or "", ""),
            f"{played['mean']:+.1f} ± {played['error']:.1f}",
            ""
            if d["best"]["move"] == played["move"]
            else f"{d['best']['move']} ({d['best']['mean']:+.1f})",
            f"{d['loss']:.1f}",
            label or "",
        )
    stdout.print(table)
    thresholds = data["thresholds"]
    stdout.print(
        f"marks: inaccuracy ≥ {thresholds['inaccuracy']:g}, mistake ≥ {thresholds['mistake']:g}, "
        f"blunder ≥ {thresholds['blunder']:g} points lost (and more than twice the loss's "
        "standard error); forced moves are left out"
    )
    for row in data["summary"]:
        labels = row["labels"]
        stdout.print(
            f"{row['name']}: {labels['inaccuracy']} inaccuracies, {labels['mistake']} mistakes, "
            f"{labels['blunder']} blunders; mean loss {row['mean_loss']:.2f} points a decision"
        )


def _print_spy(data: dict[str, Any], stdout: Console) -> None:
    for race in data["races"]:
        table = Table(
            title=(
                f"spy round {race['round']}, {race['name']}: "
                f"{'called' if race['called'] else 'no call'} after {len(race['moves'])} moves; "
                f"the oracle's race from the deal: {len(race['oracle_race'])} moves"
                + ("" if race["oracle_proven"] else " (best found)")
            )
        )
        for column in (
            "#",
            "played",
            "shortest left",
            "lost",
            "fair estimate",
            "fair best",
            "oracle's move",
            "mark",
        ):
            left = column in ("played", "fair best", "oracle's move", "mark")
            table.add_column(column, justify="left" if left else "right")
        for move in race["moves"]:
            after = move["shortest_after"]
            lost = move["lost"]
            table.add_row(
                str(move["number"]),
                move["move"] + _SIGNS.get(move["mark"] or "", ""),
                "no call" if after is None else str(after),
                "call lost" if lost is None else (f"+{lost}" if lost else ""),
                f"{move['fair_before']:.1f}",
                move["best"] if move["best"] != move["move"] else "",
                (move["oracle_best"] or "") if lost != 0 else "",
                move["mark"] or "",
            )
        stdout.print(table)
        parts = race["parts_at"]
        stdout.print(
            "oracle: "
            + ", ".join(race["oracle_race"])
            + ("; the player followed it" if parts is None else f"; parted at move {parts}")
        )
        marks = race["marks"]
        stdout.print(
            f"marks: {marks['mistake']} mistakes (a fair player would have avoided them), "
            f"{marks['hindsight']} lengthened the race where only the hidden cards told"
        )


def save_review_plot(data: dict[str, Any], path: Path) -> None:
    """The evaluation graph as a PNG (matplotlib): Candidate, the deal margin for the
    first player after each decision with its standard error; Spy, per player, the
    oracle's shortest finish and the planner's fair estimate after each move."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4))
    if data["game"] == "candidate":
        _plot_candidate(ax, data)
    else:
        _plot_spy(ax, data)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as exc:
        raise BadOptions(f"cannot write the plot {path}: {exc}") from None
    finally:
        plt.close(fig)


def _plot_candidate(ax: Any, data: dict[str, Any]) -> None:
    decisions = data["decisions"]
    xs = list(range(1, len(decisions) + 1))
    ys = [d["eval"] for d in decisions]
    errors = [d["eval_error"] for d in decisions]
    ax.plot(xs, ys, color="#4c72b0", label=f"deal margin for {data['players'][0]}")
    ax.fill_between(
        xs,
        [y - e for y, e in zip(ys, errors, strict=True)],
        [y + e for y, e in zip(ys, errors, strict=True)],
        color="#4c72b0",
        alpha=0.2,
        label="± standard error",
    )
    ax.axhline(0, color="grey", linewidth=0.8)
    colours = {"inaccuracy": "#dd8452", "mistake": "#c44e52", "blunder": "#8b0000"}
    for label, colour in colours.items():
        marked = [(x, d["eval"]) for x, d in zip(xs, decisions, strict=True) if d["label"] == label]
        if marked:
            ax.scatter(*zip(*marked, strict=True), color=colour, zorder=3, label=label)
    ax.set_xlabel("decision")
    ax.set_ylabel("points")
    ax.set_title("candidate: expected final margin of the deal")


def _plot_spy(ax: Any, data: dict[str, Any]) -> None:
    markers = {"mistake": "X", "hindsight": "o"}
    for race in data["races"]:
        moves = race["moves"]
        xs = list(range(len(moves) + 1))
        first = moves[0]["shortest_before"] if moves else None
        shortest = [first] + [m["shortest_after"] for m in moves]
        fair = [m["fair_before"] for m in moves] + [0.0 if race["called"] else float("nan")]
        who = f"{race['name']} (round {race['round']})"
        line = ax.plot(
            xs, [float("nan") if s is None else s for s in shortest], label=f"{who}: shortest"
        )
        colour = line[0].get_color()
        ax.plot(xs, fair, linestyle="--", color=colour, label=f"{who}: fair estimate")
        for x, move in zip(xs[1:], moves, strict=True):
            if move["mark"] is not None and move["shortest_after"] is not None:
                ax.scatter(
                    [x], [move["shortest_after"]], color=colour, marker=markers[move["mark"]]
                )
    ax.set_xlabel("move of the player's race")
    ax.set_ylabel("moves to the call")
    ax.set_title("spy: the oracle's shortest finish and the fair estimate")
