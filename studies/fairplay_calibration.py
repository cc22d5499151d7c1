"""Calibrating the fair-play signals: bots against scripted human-like play.

Every signal of :mod:`cardtable.fairplay` is computed here exactly as the server would:
each simulated game becomes a record and the stored moves a table keeps (seat, source,
race time), handed to :func:`~cardtable.fairplay.game_signals`; a player's games are
pooled as :func:`~cardtable.fairplay.player_signals` pools them.

The classes (docs/fairplay.md says why):

- **people** (the negative class) — weaker bots with ε-random choices, each simulated
  person one profile and a seed of their own: Candidate ``greedy`` with ε = 0.1 and
  0.25 and ``ismcts:50`` with ε = 0.1; Spy ``greedy`` with ε = 0.1 and ``planner:4``
  (the ``medium`` level, "a practised player") with ε = 0.1. A Spy person's pace is
  their own: the people of a profile have speeds spread evenly on a log scale over
  0.5-2 moves a second (``pacing.py``: a person who knows Spy makes one to two moves a
  second), each move's time lognormal around it with a log spread of 0.5 (people vary
  more than the table's bots, 0.35).
- **bots** (the positive class) — Candidate: the reference ``ismcts:300`` itself, with
  a seed of its own (a cheater does not know the analysis' seed); Spy: the reference
  ``model`` at the ``hard`` level's pace (steady, 1.2 moves a second) and a fast
  script, ``greedy`` at the ``fast`` pace (3.5 a second), both timed as the table
  times bots (``Pacing.move_time``).

A study game is one deal of Candidate (a match has 12 by default) against ``greedy``,
and one round of Spy whose opponent resigns at once (S13), so the seat races alone to
its call. For each signal and each number of games pooled, groups of that many games of
one simulated player are drawn (with replacement) from that player's games; the
threshold is the people's 99th percentile (at most 1 % of people's groups above it) and
the true-positive rate is the share of a bot's groups above it. The 95 % intervals come
from resampling the players and their games and doing it all again. The history signal
pools ``--history`` earlier games of a person and then ``n`` recent games either of the
same person (people) or of a bot (a person who switched).

Run (about twelve minutes on two cores shared with other work; docs/fairplay.md has the
figures)::

    nice -n 10 python -m studies.fairplay_calibration --games 20 --players 6 --seed 1

Needs numpy (``pip install -e .[rl]``).
"""

from __future__ import annotations

import json
import math
import random
import time
import warnings
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardtable.bots.base import stable_seed
from cardtable.bots.registry import make_bot, parse_bot_spec
from cardtable.fairplay import HUMAN_LIMIT, GameSignals, StoredMove, game_signals
from cardtable.fairplay.agreement import choices
from cardtable.fairplay.signals import AGREEMENT_ATTENTION, HISTORY_ATTENTION, RECENT
from cardtable.games.registry import find_game
from cardtable.games.spy.race import LognormalTime
from cardtable.table.pacing import MOVE_TIME_SIGMA, SPEEDS

#: A person's spread of move times (the log's standard deviation).
PERSON_SIGMA = 0.5
#: The slowest and quickest person's moves a second.
PERSON_SPEEDS = (0.5, 2.0)


@dataclass(frozen=True, slots=True)
class Profile:
    """A simulated player: a bot, its ε of uniformly random choices, whether it is a
    bot (the positive class) and, in Spy, its pace (None: a person's, drawn per player)."""

    game: str
    label: str
    bot: str
    epsilon: float
    positive: bool
    speed: float | None = None


PROFILES = (
    Profile("candidate", "greedy ε0.1", "greedy", 0.1, False),
    Profile("candidate", "greedy ε0.25", "greedy", 0.25, False),
    Profile("candidate", "ismcts:50 ε0.1", "ismcts:50", 0.1, False),
    Profile("candidate", "ismcts:300 (the reference)", "ismcts:300", 0.0, True),
    Profile("spy", "greedy ε0.1", "greedy", 0.1, False),
    Profile("spy", "planner:4 ε0.1", "planner:4", 0.1, False),
    Profile("spy", "model at 1.2/s (the reference)", "model", 0.0, True, SPEEDS["steady"]),
    Profile("spy", "greedy at 3.5/s (a fast script)", "greedy", 0.0, True, SPEEDS["fast"]),
)


@dataclass(frozen=True, slots=True)
class Job:
    """One simulated player's games."""

    profile: int
    player: int
    seed: int
    games: int
    speed: float | None


@dataclass(frozen=True, slots=True)
class GameFigures:
    """What one game gave: the agreement counts and, in Spy, the round's pace."""

    agreements: int
    decisions: int
    peak: float | None = None
    moves: int = 0
    seconds: float = 0.0
    flagged: bool = False


def person_speed(index: int, players: int) -> float:
    """The ``index``-th of ``players`` people's speed, evenly on a log scale."""
    low, high = PERSON_SPEEDS
    if players == 1:
        return math.sqrt(low * high)
    return low * (high / low) ** (index / (players - 1))


def _move(bot: Any, match: Any, seat: int, epsilon: float, rng: random.Random, game: str) -> int:
    info = match.bot_info(seat)
    options = choices(game, info.legal)
    if len(options) >= 2 and rng.random() < epsilon:
        return rng.choice(options)
    return int(bot.choose(info))


def play_candidate(
    profile: Profile, seed: int, deal: int
) -> tuple[dict[str, Any], list[StoredMove]]:
    """One deal: the profile in seat 0 against greedy; the record and stored moves."""
    match = find_game("candidate").new_match(seed=deal, players=["P", "G"], options={"deals": 1})
    bot = make_bot(parse_bot_spec("candidate", profile.bot), stable_seed(seed, "bot"))
    greedy = make_bot(parse_bot_spec("candidate", "greedy"), 0)
    rng = random.Random(stable_seed(seed, deal, "ε"))
    stored = []
    while (seat := match.to_move()) is not None:
        if seat == 0:
            action = _move(bot, match, 0, profile.epsilon, rng, "candidate")
        else:
            action = greedy.choose(match.bot_info(1))
        applied = match.apply(seat, action)
        stored.append(StoredMove(seat, applied.text, "player" if seat == 0 else "bot"))
    return match.record(), stored


def play_spy(
    profile: Profile, seed: int, deal: int, speed: float
) -> tuple[dict[str, Any], list[StoredMove]]:
    """One round: seat 1 resigns at once, the profile races seat 0 at ``speed``, each
    move's time lognormal (a person's spread, or the table's for a bot)."""
    match = find_game("spy").new_match(seed=deal, players=["P", "R"], options={"rounds": 1})
    bot = make_bot(parse_bot_spec("spy", profile.bot), stable_seed(seed, "bot"))
    rng = random.Random(stable_seed(seed, deal, "ε"))
    clock = LognormalTime(1.0 / speed, MOVE_TIME_SIGMA if profile.positive else PERSON_SIGMA)
    stored = [StoredMove(1, match.apply(1, "resign").text, "player", 0.0)]
    now = 0.0
    while not match.is_terminal():
        action = _move(bot, match, 0, profile.epsilon, rng, "spy")
        now += clock.duration(rng)
        stored.append(StoredMove(0, match.apply(0, action).text, "player", round(now, 1)))
    return match.record(), stored


def run_job(job: Job) -> tuple[Job, list[GameFigures]]:
    """Every game of one simulated player, through :func:`game_signals`."""
    profile = PROFILES[job.profile]
    figures = []
    for g in range(job.games):
        deal = stable_seed(job.seed, g) % 1_000_000
        if profile.game == "spy":
            assert job.speed is not None
            record, stored = play_spy(profile, job.seed, deal, job.speed)
        else:
            record, stored = play_candidate(profile, job.seed, deal)
        signals: GameSignals = game_signals(record, 0, stored)
        speed = signals.speeds[0] if signals.speeds else None
        figures.append(
            GameFigures(
                signals.agreement.agreements,
                signals.agreement.decisions,
                None if speed is None else speed.peak_rate,
                0 if speed is None else speed.moves,
                0.0 if speed is None else speed.seconds,
                False if speed is None else speed.flagged,
            )
        )
    return job, figures


# ------------------------------------------------------------------ statistics

Pool = list[np.ndarray]  # one array per player: its games' figures, one row a game


def _agreement(groups: np.ndarray) -> np.ndarray:
    """Pooled agreement of groups (…, n, columns)."""
    return groups[..., 0].sum(-1) / np.maximum(groups[..., 1].sum(-1), 1)


def _median_peak(groups: np.ndarray) -> np.ndarray:
    """The median of the rounds' peak rates (NaN for a group without one)."""
    peaks = groups[..., 2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a group of rounds without a peak
        return np.nanmedian(peaks, axis=-1)


def _mean_rate(groups: np.ndarray) -> np.ndarray:
    return groups[..., 3].sum(-1) / np.maximum(groups[..., 4].sum(-1), 0.1)


def _flagged_share(groups: np.ndarray) -> np.ndarray:
    """The share of a group's rounds with a peak beyond human reaction."""
    return groups[..., 5].mean(-1)


def _history_z(earlier: np.ndarray, recent: np.ndarray) -> np.ndarray:
    """:func:`cardtable.fairplay.compare_history` vectorised over groups."""
    a_e, d_e = earlier[..., 0], earlier[..., 1]
    big_a, big_d = a_e.sum(-1), np.maximum(d_e.sum(-1), 1)
    rate = big_a / big_d
    p = (big_a + 1) / (big_d + 2)
    binomial = p * (1 - p)
    k = earlier.shape[-2]
    residuals = ((a_e - rate[..., None] * d_e) ** 2).sum(-1) * k / (k - 1) / big_d
    dispersion = np.maximum(1.0, residuals / binomial)
    d_r = np.maximum(recent[..., 1].sum(-1), 1)
    spread = np.sqrt(dispersion * binomial * (1 / big_d + 1 / d_r))
    return (recent[..., 0].sum(-1) / d_r - rate) / spread


SIGNALS = {
    "candidate": {"agreement": _agreement},
    "spy": {
        "agreement": _agreement,
        "median peak rate": _median_peak,
        "mean rate": _mean_rate,
        f"rounds over {HUMAN_LIMIT:g}/s": _flagged_share,
    },
}


def _groups(pool: Pool, n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` groups of ``n`` games per player, drawn from each player's games."""
    return np.concatenate(
        [games[rng.integers(0, len(games), size=(count, n))] for games in pool], axis=0
    )


def _mixed_groups(pool: Pool, n: int, total: int, rng: np.random.Generator) -> np.ndarray:
    """``total`` groups of ``n`` games, each of a player drawn at random from ``pool``."""
    owners = rng.integers(0, len(pool), size=total)
    return np.stack([pool[i][rng.integers(0, len(pool[i]), size=n)] for i in owners])


def _resampled(pool: Pool, rng: np.random.Generator) -> Pool:
    """Players resampled, and each one's games."""
    picks = rng.integers(0, len(pool), size=len(pool))
    return [pool[i][rng.integers(0, len(pool[i]), size=len(pool[i]))] for i in picks]


def _rates(
    people: Pool,
    bots: dict[str, Pool],
    row: Row,
    count: int,
    rng: np.random.Generator,
) -> tuple[float, float, dict[str, float]]:
    """The row's threshold (the people's 99th percentile, or the row's fixed level),
    the share of people's groups above it and each bot's."""
    n = row.games
    if row.signal == "history z":
        earlier = _groups(people, row.history, count, rng)
        same = _history_z(earlier, _groups(people, n, count, rng))
        values = {
            label: _history_z(earlier, _mixed_groups(pool, n, len(earlier), rng))
            for label, pool in bots.items()
        }
    else:
        measure = SIGNALS[row.game][row.signal]
        same = measure(_groups(people, n, count, rng))
        values = {label: measure(_groups(pool, n, count, rng)) for label, pool in bots.items()}
    same = same[~np.isnan(same)]
    found = float(np.quantile(same, 0.99, method="higher"))
    threshold = found if row.fixed is None else row.fixed
    fpr = float((same > threshold).mean())
    return threshold, fpr, {k: float((v > threshold).mean()) for k, v in values.items()}


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a report: a signal over ``games`` pooled deals or rounds, with the
    threshold found (``fixed`` None) or the level the moderator's page uses."""

    game: str
    signal: str
    games: int
    history: int
    fixed: float | None = None


def _rows(game: str, sizes: Sequence[int], history: int) -> list[Row]:
    """The calibration rows, then the rows of the levels :func:`player_signals` uses."""
    rows = [Row(game, s, n, history) for s in (*SIGNALS[game], "history z") for n in sizes]
    rows += [
        Row(game, "agreement", RECENT, RECENT, AGREEMENT_ATTENTION[game]),
        Row(game, "history z", RECENT, RECENT, HISTORY_ATTENTION),
    ]
    if game == "spy":
        rows += [Row(game, "median peak rate", n, history, HUMAN_LIMIT) for n in sizes]
    return rows


def _interval(samples: Sequence[float]) -> str:
    low, high = np.quantile(np.asarray(samples), [0.025, 0.975])
    return f"{low:.2f}-{high:.2f}"


def main(
    games: int = typer.Option(20, help="Games per simulated player."),
    players: int = typer.Option(6, help="Simulated players per profile."),
    seed: int = typer.Option(1, help="The study's seed."),
    pools: str = typer.Option("5,10,20", help="Games pooled, comma-separated."),
    history: int = typer.Option(RECENT, help="Earlier games of the history signal."),
    workers: int = typer.Option(2, help="Worker processes."),
    resamples: int = typer.Option(200, help="Resamples for the intervals."),
    json_out: str = typer.Option("", "--json", help="Also write the figures to this file."),
) -> None:
    """Run the calibration and print its tables (module docstring)."""
    jobs = []
    for index, profile in enumerate(PROFILES):
        for player in range(players):
            speed = profile.speed
            if profile.game == "spy" and speed is None:
                speed = person_speed(player, players)
            jobs.append(Job(index, player, stable_seed(seed, index, player), games, speed))
    figures: dict[int, Pool] = {i: [] for i in range(len(PROFILES))}
    started = time.monotonic()
    console = Console()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress, ProcessPoolExecutor(workers) as pool:
        task = progress.add_task("simulated players", total=len(jobs))
        futures = [pool.submit(run_job, job) for job in jobs]
        for future in as_completed(futures):
            job, rows = future.result()
            figures[job.profile].append(
                np.array(
                    [
                        (
                            r.agreements,
                            r.decisions,
                            np.nan if r.peak is None else r.peak,
                            r.moves,
                            r.seconds,
                            float(r.flagged),
                        )
                        for r in rows
                    ],
                    dtype=float,
                )
            )
            progress.advance(task)
    sizes = [int(s) for s in pools.split(",")]
    rng = np.random.default_rng(seed)
    report: dict[str, Any] = {"games": games, "players": players, "seed": seed, "results": []}
    for game in ("candidate", "spy"):
        people = [
            p
            for i, pr in enumerate(PROFILES)
            if pr.game == game and not pr.positive
            for p in figures[i]
        ]
        bots = {
            pr.label: figures[i] for i, pr in enumerate(PROFILES) if pr.game == game and pr.positive
        }
        _print_levels(console, game, figures)
        table = Table(
            title=f"{game}: the threshold at ≤ 1 % of people (then the page's levels), "
            "the share above it (95 % CI)"
        )
        for column in ("signal", "pooled", "threshold", "people above", *bots):
            table.add_column(column)
        for row in _rows(game, sizes, history):
            threshold, fpr, tpr = _rates(people, bots, row, 2000, rng)
            again = [
                _rates(
                    _resampled(people, rng),
                    {k: _resampled(v, rng) for k, v in bots.items()},
                    row,
                    200,
                    rng,
                )
                for _ in range(resamples)
            ]
            found = _interval([a[0] for a in again])
            people_ci = _interval([a[1] for a in again])
            bots_ci = {k: _interval([a[2][k] for a in again]) for k in bots}
            table.add_row(
                row.signal,
                str(row.games),
                f"{threshold:.3f}" + (f" ({found})" if row.fixed is None else " (level)"),
                f"{fpr:.3f}" + ("" if row.fixed is None else f" ({people_ci})"),
                *(f"{tpr[k]:.2f} ({bots_ci[k]})" for k in bots),
            )
            report["results"].append(
                {
                    "game": game,
                    "signal": row.signal,
                    "pooled": row.games,
                    "level": row.fixed,
                    "threshold": threshold,
                    "threshold_ci": found,
                    "people_above": fpr,
                    "people_above_ci": people_ci,
                    "tpr": tpr,
                    "tpr_ci": bots_ci,
                }
            )
        console.print(table)
    console.print(f"{time.monotonic() - started:.0f} s in all")
    if json_out:
        with open(json_out, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)


def _print_levels(console: Console, game: str, figures: dict[int, Pool]) -> None:
    """Each profile's raw levels: agreement per decision and, in Spy, paces."""
    table = Table(title=f"{game}: each profile over all its games")
    for column in ("profile", "games", "decisions/game", "agreement"):
        table.add_column(column)
    if game == "spy":
        for column in ("mean rate", "median peak", "rounds over limit"):
            table.add_column(column)
    for i, profile in enumerate(PROFILES):
        if profile.game != game or not figures[i]:
            continue
        rows = np.concatenate(figures[i])
        cells = [
            profile.label,
            str(len(rows)),
            f"{rows[:, 1].mean():.1f}",
            f"{rows[:, 0].sum() / max(rows[:, 1].sum(), 1):.3f}",
        ]
        if game == "spy":
            cells += [
                f"{rows[:, 3].sum() / max(rows[:, 4].sum(), 0.1):.2f}",
                f"{np.nanmedian(rows[:, 2]):.2f}",
                f"{rows[:, 5].mean():.3f}",
            ]
        table.add_row(*cells)
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
