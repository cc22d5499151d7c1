"""How much duplicate scoring removes of the spread of results between equal bots.

Every seat of a tournament holds the same bot, so any spread of the final standings is
luck. The same tournaments (same seeds, the same bot everywhere) are played twice: as a
plain Swiss (a win 1, a draw ½, a loss 0, a bye 1) and as a duplicate Swiss (every
table of a round dealt the same cards, each result scored in matchpoints from 0 to 1,
a bye ½) — both through :func:`cardtable.arena.bot_tournament.run_bot_tournament`, so
on the same scale: a share of the point a round is worth. For each tournament the
figure is the standard deviation of the players' final points (over the players); the
script prints its mean over the tournaments for each scoring, the ratio
duplicate / plain, and 95 % bootstrap intervals (tournaments resampled with
replacement, 2,000 resamples, a fixed seed).

A bot that plays the same cards the same way (greedy) would make every duplicate table
identical, and the duplicate spread zero by construction; the study uses a bot that
draws its moves (``random`` by default, or ``ismcts:N``), so the spread that is left is
the play's own luck.

Run: ``python -m studies.tournament_duplicate_spread --tournaments 100`` (Candidate,
16 players, 5 rounds of 2 deals).
"""

from __future__ import annotations

import random
import statistics

import typer

from cardtable.arena.bot_tournament import run_bot_tournament
from cardtable.arena.commands import parse_bots
from cardtable.tournament.model import TournamentSpec


def spread(points: list[float]) -> float:
    """The standard deviation of the players' final points."""
    return statistics.pstdev(points)


def bootstrap(values: list[float], other: list[float] | None, seed: int) -> tuple[float, float]:
    """A 95 % percentile interval of the mean of ``values`` (or of the ratio of the means
    of ``values`` to ``other``, resampling the same tournaments for both)."""
    rng = random.Random(seed)
    count = len(values)
    draws = []
    for _ in range(2000):
        picks = [rng.randrange(count) for _ in range(count)]
        mean = statistics.fmean(values[i] for i in picks)
        if other is not None:
            mean /= statistics.fmean(other[i] for i in picks)
        draws.append(mean)
    draws.sort()
    return draws[int(0.025 * len(draws))], draws[int(0.975 * len(draws)) - 1]


def main(
    tournaments: int = typer.Option(100, help="Tournaments of each scoring."),
    players: int = typer.Option(16, help="Entrants (all the same bot)."),
    rounds: int = typer.Option(5, help="Swiss rounds."),
    deals: int = typer.Option(2, help="Deals in a round's match."),
    bot: str = typer.Option("random", help="The bot in every seat."),
    seed: int = typer.Option(0, help="First tournament seed."),
) -> None:
    """Play the tournaments and print the spreads with their intervals."""
    bots = parse_bots("candidate", [bot] * players)
    spreads: dict[bool, list[float]] = {False: [], True: []}
    for number in range(tournaments):
        for duplicate in (False, True):
            spec = TournamentSpec(
                "candidate",
                "swiss",
                rounds=rounds,
                duplicate=duplicate,
                options={"deals": deals},
            )
            done = run_bot_tournament(spec, bots, seed=seed + number)
            spreads[duplicate].append(spread([s.points for s in done.standings]))
    plain, dup = spreads[False], spreads[True]
    print(
        f"Candidate Swiss, {players} x {bot}, {rounds} rounds of {deals} deals, "
        f"{tournaments} tournaments each; SD of final points (a round is worth 1):"
    )
    for name, values in (("plain", plain), ("duplicate", dup)):
        low, high = bootstrap(values, None, 1)
        print(f"  {name:9}  mean SD {statistics.fmean(values):.3f}  95% CI [{low:.3f}, {high:.3f}]")
    low, high = bootstrap(dup, plain, 2)
    ratio = statistics.fmean(dup) / statistics.fmean(plain)
    print(
        f"  duplicate / plain: {ratio:.3f}  95% CI [{low:.3f}, {high:.3f}]"
        f"  (spread removed: {1 - ratio:.1%})"
    )


if __name__ == "__main__":
    typer.run(main)
