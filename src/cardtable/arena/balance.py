"""``cardtable balance``: the questions a player asks of a game, answered by many
games between copies of one bot, each figure with its 95 % interval.

- Candidate: does the dealer (or the non-dealer, who moves first, C6) win more often?
  How are deal scores spread?
- Spy: how long is a race (moves of the winner), how often is a round blocked with
  no winner (S12), how often do two players call at the same moment (S17's coin) —
  by number of players.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cardtable.arena.backends import default_workers
from cardtable.arena.stats import mean_interval, wilson_interval
from cardtable.arena.tournament import ArenaReport, run_arena
from cardtable.arena.work import ArenaConfig
from cardtable.bots.registry import parse_bot_spec
from cardtable.errors import BadOptions

__all__ = ["balance_candidate", "balance_command", "balance_spy"]


def _arena(
    game: str,
    bot_text: str,
    seats: int,
    games: int,
    seed: int,
    options: Mapping[str, Any],
    workers: int,
) -> ArenaReport:
    spec = parse_bot_spec(game, bot_text)
    config = ArenaConfig(game, (spec,) * seats, seed, dict(options))
    # A two-seat schedule plays each deal twice; one game per deal is enough here.
    deals = max(1, games // seats)
    return run_arena(config, deals, workers=workers)


def balance_candidate(
    games: int, bot_text: str, seed: int, options: Mapping[str, Any], workers: int
) -> dict[str, Any]:
    """Dealer advantage and score spread over ``games`` deals."""
    report = _arena("candidate", bot_text, 2, games, seed, options, workers)
    dealer_wins = non_dealer_wins = ties = 0
    scores: list[float] = []
    dealer_scores: list[float] = []
    other_scores: list[float] = []
    for game in report.games:
        dealer = int(game.facts["dealer"])
        d, o = game.scores[dealer], game.scores[1 - dealer]
        scores += list(game.scores)
        dealer_scores.append(d)
        other_scores.append(o)
        if d > o:
            dealer_wins += 1
        elif o > d:
            non_dealer_wins += 1
        else:
            ties += 1
    decided = dealer_wins + non_dealer_wins
    return {
        "game": "candidate",
        "bot": bot_text,
        "games": len(report.games),
        "dealer_wins": dealer_wins,
        "non_dealer_wins": non_dealer_wins,
        "ties": ties,
        "dealer_win_rate": dealer_wins / decided if decided else None,
        "dealer_win_rate_ci95": list(wilson_interval(dealer_wins, decided)),
        "dealer_mean_score": mean_interval(dealer_scores).mean,
        "dealer_mean_score_ci95": mean_interval(dealer_scores).to_list(),
        "non_dealer_mean_score": mean_interval(other_scores).mean,
        "non_dealer_mean_score_ci95": mean_interval(other_scores).to_list(),
        "scores": scores,
    }


def balance_spy(
    games: int,
    bot_text: str,
    players: list[int],
    seed: int,
    options: Mapping[str, Any],
    workers: int,
) -> dict[str, Any]:
    """Race length, blocked rounds and ties by player count."""
    rows = []
    for count in players:
        if not 2 <= count <= 8:
            raise BadOptions(f"spy seats 2-8 players, got {count}")
        report = _arena("spy", bot_text, count, games * count, seed, options, workers)
        lengths = [float(g.facts["end_time"]) for g in report.games if not g.facts["blocked_round"]]
        blocked = sum(1 for g in report.games if g.facts["blocked_round"])
        ties = sum(1 for g in report.games if g.facts["tie"])
        n = len(report.games)
        length = mean_interval(lengths)
        rows.append(
            {
                "players": count,
                "rounds": n,
                "race_moves": length.mean,
                "race_moves_ci95": length.to_list(),
                "blocked_share": blocked / n if n else None,
                "blocked_ci95": list(wilson_interval(blocked, n)),
                "tie_share": ties / n if n else None,
                "tie_ci95": list(wilson_interval(ties, n)),
                "lengths": lengths,
            }
        )
    return {"game": "spy", "bot": bot_text, "by_players": rows}


def balance_command(
    game: str,
    *,
    games: int,
    bot_text: str,
    players_text: str,
    workers: int | None,
    seed: int,
    options: Mapping[str, Any],
    as_json: bool,
    plot: Path | None,
    quiet: bool,
    stdout: Console,
    stderr: Console,
) -> None:
    """Run the study and print it (and plot it)."""
    if games < 1:
        raise BadOptions(f"--games must be at least 1, got {games}")
    worker_count = workers or default_workers()
    if game == "candidate":
        data = balance_candidate(games, bot_text, seed, options, worker_count)
    else:
        try:
            counts = [int(p) for p in players_text.split(",") if p.strip()]
        except ValueError:
            raise BadOptions(f"--players {players_text!r}: expected numbers like 2,3,4") from None
        data = balance_spy(games, bot_text, counts, seed, options, worker_count)
    if plot is not None:
        _plot(data, plot)
        stderr.print(f"wrote {plot}")
    if as_json:
        stdout.print(json.dumps(data), markup=False, highlight=False, soft_wrap=True)
        return
    table = Table(title=f"{game} balance, every seat played by {bot_text}")
    table.add_column("question")
    table.add_column("answer", justify="right")
    table.add_column("95% CI", justify="right")
    if game == "candidate":
        rate, ci = data["dealer_win_rate"], data["dealer_win_rate_ci95"]
        table.add_row(
            "dealer's share of decided deals",
            "–" if rate is None else f"{100 * rate:.1f}%",
            f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%",
        )
        for who in ("dealer", "non_dealer"):
            mean, ci = data[f"{who}_mean_score"], data[f"{who}_mean_score_ci95"]
            table.add_row(
                f"{who.replace('_', '-')} mean score", f"{mean:.1f}", f"{ci[0]:.1f}–{ci[1]:.1f}"
            )
        table.add_row("deals (ties)", f"{data['games']} ({data['ties']})", "")
    else:
        for row in data["by_players"]:
            p = row["players"]
            ci = row["race_moves_ci95"]
            table.add_row(
                f"{p} players: winner's moves to the call",
                f"{row['race_moves']:.1f}",
                f"{ci[0]:.1f}–{ci[1]:.1f}",
            )
            for key, label in (
                ("blocked", "rounds blocked, no winner"),
                ("tie", "rounds tied at the call"),
            ):
                share, ci = row[f"{key}_share"], row[f"{key}_ci95"]
                table.add_row(
                    f"{p} players: {label}",
                    f"{100 * share:.1f}%",
                    f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%",
                )
    stdout.print(table)


def _plot(data: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if data["game"] == "candidate":
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.hist(data["scores"], bins=30, color="#4c72b0")
        ax.set_xlabel("deal score")
        ax.set_ylabel("seats")
        ax.set_title("Candidate: deal scores")
    else:
        rows = data["by_players"]
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        axes[0].boxplot(
            [r["lengths"] or [0] for r in rows], labels=[str(r["players"]) for r in rows]
        )
        axes[0].set_xlabel("players")
        axes[0].set_ylabel("winner's moves to the call")
        shares = [r["blocked_share"] for r in rows]
        axes[1].bar([str(r["players"]) for r in rows], shares, color="#c44e52")
        axes[1].set_xlabel("players")
        axes[1].set_ylabel("share of blocked rounds")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
