"""Run an arena and sum it up: win/draw/loss with Wilson intervals, mean scores,
duplicate-pair comparisons with exact sign tests, and openskill ratings.

Results are always processed in job order, so the figures (ratings included, whose
updates depend on order) are the same whatever order the backend finished them in.
An interrupted arena sums up the games that finished; duplicate pairs are only
compared when all their games finished.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from cardtable.arena.backends import run_jobs
from cardtable.arena.raycluster import RayPlace
from cardtable.arena.schedule import Job, schedule
from cardtable.arena.stats import MeanCI, binomial_p_value, mean_interval, wilson_interval
from cardtable.arena.work import ArenaConfig, GameResult
from cardtable.games.registry import find_game

__all__ = [
    "ArenaReport",
    "BotRow",
    "PairRow",
    "run_arena",
    "summarise",
]


@dataclass(frozen=True)
class BotRow:
    """One bot's line in the results table."""

    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci95: tuple[float, float]
    decided_win_rate: float
    decided_ci95: tuple[float, float]
    mean_score: MeanCI
    rating: float | None
    rating_sigma: float | None
    metrics: Mapping[str, MeanCI] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON row: the documented keys first, extra keys after."""
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "mean_score": self.mean_score.mean,
            "rating": self.rating,
            "rating_sigma": self.rating_sigma,
            "mean_score_ci95": self.mean_score.to_list(),
            "decided_win_rate": self.decided_win_rate,
            "decided_ci95": list(self.decided_ci95),
            "metrics": {k: {"mean": v.mean, "ci95": v.to_list()} for k, v in self.metrics.items()},
        }


@dataclass(frozen=True)
class PairRow:
    """Two bots compared over complete duplicate sets (same cards, seats rotated):
    a set is won by the bot whose summed score over the set is better."""

    first: str
    second: str
    sets: int
    first_wins: int
    draws: int
    second_wins: int
    mean_margin: MeanCI

    @property
    def decided(self) -> int:
        """Sets with a winner."""
        return self.first_wins + self.second_wins

    @property
    def decided_win_rate(self) -> float:
        """The first bot's share of the decided sets."""
        return self.first_wins / self.decided if self.decided else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "bots": [self.first, self.second],
            "sets": self.sets,
            "wins": [self.first_wins, self.second_wins],
            "draws": self.draws,
            "decided_win_rate": self.decided_win_rate,
            "ci95": list(wilson_interval(self.first_wins, self.decided)),
            "p_value": binomial_p_value(self.first_wins, self.decided),
            "mean_margin": self.mean_margin.mean,
            "mean_margin_ci95": self.mean_margin.to_list(),
        }


@dataclass(frozen=True)
class ArenaReport:
    """A whole arena run, finished or interrupted."""

    game: str
    bots: tuple[str, ...]
    seed: int
    deals: int
    scheduled: int
    played: int
    interrupted: bool
    seconds: float
    rows: tuple[BotRow, ...]
    pairs: tuple[PairRow, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    games: tuple[GameResult, ...] = ()

    def to_dict(self, *, with_games: bool = False) -> dict[str, Any]:
        """``{"results": [...], "pairs": [...], ...}`` (RESULTS keys as documented)."""
        data: dict[str, Any] = {
            "game": self.game,
            "results": [r.to_dict() for r in self.rows],
            "pairs": [p.to_dict() for p in self.pairs],
            "seed": self.seed,
            "deals": self.deals,
            "options": dict(self.options),
            "games_scheduled": self.scheduled,
            "games_played": self.played,
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
        }
        if with_games:
            data["games"] = [g.to_dict() for g in self.games]
        return data


def _ratings(config: ArenaConfig, results: list[GameResult]) -> list[tuple[float, float] | None]:
    """openskill (Plackett-Luce) mu and sigma per bot, or None without openskill."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return [None] * len(config.bots)
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in config.labels]
    for result in results:
        teams = [[ratings[bot]] for bot in result.seats]
        rated = model.rate(teams, ranks=list(result.ranks))
        for bot, team in zip(result.seats, rated, strict=True):
            ratings[bot] = team[0]
    return [(r.mu, r.sigma) for r in ratings]


def summarise(
    config: ArenaConfig,
    results: Iterable[GameResult],
    *,
    deals: int,
    scheduled: int,
    interrupted: bool = False,
    seconds: float = 0.0,
) -> ArenaReport:
    """Sum up finished games (any order) into an :class:`ArenaReport`."""
    ordered = sorted(results, key=lambda r: r.index)
    labels = config.labels
    count = len(labels)
    wins, draws, losses = [0] * count, [0] * count, [0] * count
    scores: list[list[float]] = [[] for _ in range(count)]
    metrics: list[dict[str, list[float]]] = [{} for _ in range(count)]
    for result in ordered:
        for seat, bot in enumerate(result.seats):
            rank = result.ranks[seat]
            if rank > 1:
                losses[bot] += 1
            elif result.ranks.count(1) > 1:
                draws[bot] += 1
            else:
                wins[bot] += 1
            scores[bot].append(result.scores[seat])
            if result.metrics:
                for name, value in result.metrics[seat].items():
                    metrics[bot].setdefault(name, []).append(value)
    ratings = _ratings(config, ordered)
    rows = []
    for bot in range(count):
        games = wins[bot] + draws[bot] + losses[bot]
        decided = wins[bot] + losses[bot]
        rating = ratings[bot]
        rows.append(
            BotRow(
                bot=labels[bot],
                games=games,
                wins=wins[bot],
                draws=draws[bot],
                losses=losses[bot],
                win_rate=wins[bot] / games if games else float("nan"),
                ci95=wilson_interval(wins[bot], games),
                decided_win_rate=wins[bot] / decided if decided else float("nan"),
                decided_ci95=wilson_interval(wins[bot], decided),
                mean_score=mean_interval(scores[bot]),
                rating=None if rating is None else rating[0],
                rating_sigma=None if rating is None else rating[1],
                metrics={k: mean_interval(v) for k, v in sorted(metrics[bot].items())},
            )
        )
    return ArenaReport(
        game=config.game,
        bots=tuple(labels),
        seed=config.seed,
        deals=deals,
        scheduled=scheduled,
        played=len(ordered),
        interrupted=interrupted,
        seconds=seconds,
        rows=tuple(rows),
        pairs=tuple(_pairs(config, ordered, scheduled_groups(config, deals))),
        options=dict(config.options),
        games=tuple(ordered),
    )


def scheduled_groups(config: ArenaConfig, deals: int) -> dict[int, int]:
    """How many games each duplicate set has in the schedule."""
    sizes: dict[int, int] = {}
    for job in schedule(config.game, len(config.bots), deals, config.seed):
        sizes[job.group] = sizes.get(job.group, 0) + 1
    return sizes


def _pairs(
    config: ArenaConfig, results: list[GameResult], group_sizes: Mapping[int, int]
) -> list[PairRow]:
    # The game says which way scores rank (Candidate C17: highest; Spy S16: lowest).
    sign = 1.0 if find_game(config.game).info.higher_is_better else -1.0
    groups: dict[int, list[GameResult]] = {}
    for result in results:
        groups.setdefault(result.group, []).append(result)
    labels = config.labels
    rows = []
    for a, b in combinations(range(len(labels)), 2):
        a_wins = draws = b_wins = 0
        margins: list[float] = []
        for group, games in sorted(groups.items()):
            if len(games) != group_sizes.get(group):
                continue  # an interrupted set is not a fair comparison
            if not all(a in g.seats and b in g.seats for g in games):
                continue
            margin = sign * sum(
                g.scores[g.seats.index(a)] - g.scores[g.seats.index(b)] for g in games
            )
            margins.append(margin)
            if margin > 0:
                a_wins += 1
            elif margin < 0:
                b_wins += 1
            else:
                draws += 1
        if margins:
            rows.append(
                PairRow(
                    labels[a],
                    labels[b],
                    len(margins),
                    a_wins,
                    draws,
                    b_wins,
                    mean_interval(margins),
                )
            )
    return rows


def run_arena(
    config: ArenaConfig,
    deals: int,
    *,
    backend: str = "local",
    workers: int = 1,
    ray_place: RayPlace | None = None,
    on_result: Callable[[GameResult, int, int], None] | None = None,
) -> ArenaReport:
    """Schedule and play an arena; Ctrl-C stops it and sums up what finished.

    ``on_result(result, done, total)`` is called after each game (progress bars).
    """
    jobs: list[Job] = schedule(config.game, len(config.bots), deals, config.seed)
    results: list[GameResult] = []
    interrupted = False
    start = time.perf_counter()
    stream = run_jobs(config, jobs, backend=backend, workers=workers, ray_place=ray_place)
    try:
        for result in stream:
            results.append(result)
            if on_result is not None:
                on_result(result, len(results), len(jobs))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    return summarise(
        config,
        results,
        deals=deals,
        scheduled=len(jobs),
        interrupted=interrupted,
        seconds=time.perf_counter() - start,
    )
