"""Tournament pairing for a large field: ``python -m benchmarks pairing``.

What is timed: one call that pairs (Swiss) or seats (race) the next round of a
1,000-player tournament, standings included, against a baseline measured in the same
run on the same history:

- **Swiss**, a late round (after ``--rounds - 1`` rounds, so many score groups):
  :func:`cardtable.tournament.pairing.pair_round` (maximum-weight matching, see its
  module) against a naive greedy pairing — rank by the same standings, pair each
  player with the highest-ranked one below not met before. Both are also counted for
  quality: rematches, the sum of squared score differences of the pairs, and colour
  clashes (a pair that leaves one player two, mild, or three, strong, games off
  balance).
- **Race** (tables of 5): ``pair_round`` (seating by standings, then swaps that lower
  repeated table-mates) against the plain seating by standings it starts from; both
  counted by repeated table-mate pairs.

The history is made by the naive methods with seeded random results (it is the same
for both contenders; its seats are balanced as ``pair_round`` balances them, so the
colour rule has the work it has in a real tournament). Each figure is the median of
``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations

from cardtable.tournament.model import GameResult, Player, RoundPlan, TournamentSpec
from cardtable.tournament.pairing import (
    clash,
    colour_balance,
    pair_round,
    race_sizes,
    table_mates,
)
from cardtable.tournament.standings import standings


def greedy_swiss(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: list[GameResult],
    plans: list[RoundPlan],
    number: int,
) -> RoundPlan:
    """The baseline: each player in rank order meets the best-ranked unmet one below;
    the one who dealt first less often takes seat 0 (as ``pair_round`` seats)."""
    ranked = [s.player for s in standings(spec, players, results, plans)]
    met = {frozenset(t) for p in plans for t in p.tables}
    balance, _ = colour_balance(plans)
    free = list(ranked)
    byes: tuple[str, ...] = ()
    if len(free) % 2:
        byes = (free.pop(),)
    tables = []
    while free:
        a = free.pop(0)
        b = next((x for x in free if frozenset((a, x)) not in met), free[0])
        free.remove(b)
        tables.append((a, b) if balance.get(a, 0) <= balance.get(b, 0) else (b, a))
    return RoundPlan(number, tuple(tables), byes)


def naive_race(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: list[GameResult],
    plans: list[RoundPlan],
    number: int,
) -> RoundPlan:
    """The baseline: consecutive tables by standings."""
    ranked = [s.player for s in standings(spec, players, results, plans)]
    tables, start = [], 0
    for size in race_sizes(len(ranked), spec.table_size):
        tables.append(tuple(ranked[start : start + size]))
        start += size
    return RoundPlan(number, tuple(tables))


def history(
    spec: TournamentSpec,
    players: Sequence[Player],
    rounds: int,
    seed: int,
    method: Callable[..., RoundPlan],
) -> tuple[list[GameResult], list[RoundPlan]]:
    rng = random.Random(seed)
    results: list[GameResult] = []
    plans: list[RoundPlan] = []
    for number in range(1, rounds + 1):
        plan = method(spec, players, results, plans, number)
        plans.append(plan)
        for t, seats in enumerate(plan.tables):
            totals = tuple(
                float(rng.randint(-20, 40) if spec.game == "spy" else rng.randint(0, 3))
                for _ in seats
            )
            results.append(GameResult(number, t, seats, totals))
    return results, plans


def timed(call: Callable[[], RoundPlan], repeats: int) -> tuple[float, RoundPlan]:
    times, plan = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        plan = call()
        times.append(time.perf_counter() - start)
    assert plan is not None
    return statistics.median(times), plan


def swiss_quality(plan: RoundPlan, plans: list[RoundPlan], points: dict[str, float]) -> str:
    met = {frozenset(t) for p in plans for t in p.tables}
    rematches = sum(frozenset(t) in met for t in plan.tables)
    spread = sum((points[a] - points[b]) ** 2 for a, b in plan.tables)
    balance, _ = colour_balance(plans)
    levels = [clash(balance.get(a, 0), balance.get(b, 0)) for a, b in plan.tables]
    return (
        f"rematches {rematches}, sum of squared score differences {spread:g}, "
        f"colour clashes mild {levels.count(1)} strong {levels.count(2)}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks pairing")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=8, help="the Swiss round paired")
    parser.add_argument("--race-rounds", type=int, default=4, help="the race round seated")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    players = [Player(f"p{i:04d}", order=i) for i in range(args.players)]

    swiss = TournamentSpec("candidate", "swiss", rounds=args.rounds)
    results, plans = history(swiss, players, args.rounds - 1, 1, greedy_swiss)
    points = {s.player: s.points for s in standings(swiss, players, results, plans)}
    groups = len(set(points.values()))
    print(
        f"Swiss, {args.players} players, round {args.rounds} ({groups} score groups), "
        f"median of {args.repeats}:"
    )
    ours, plan = timed(
        lambda: pair_round(swiss, players, results, plans, args.rounds), args.repeats
    )
    base, naive = timed(
        lambda: greedy_swiss(swiss, players, results, plans, args.rounds), args.repeats
    )
    print(f"  pair_round     {ours:8.3f} s   {swiss_quality(plan, plans, points)}")
    print(f"  greedy (base)  {base:8.3f} s   {swiss_quality(naive, plans, points)}")
    print(f"  ratio pair_round / greedy: {ours / base:.1f}x the time")

    race = TournamentSpec("spy", "race", rounds=args.race_rounds, table_size=5)
    results, plans = history(race, players, args.race_rounds - 1, 2, naive_race)
    mates = table_mates(plans)

    def repeats(plan: RoundPlan) -> int:
        return sum(mates.get(frozenset(p), 0) for t in plan.tables for p in combinations(t, 2))

    print(
        f"Race, {args.players} players, tables of 5, round {args.race_rounds}, "
        f"median of {args.repeats}:"
    )
    ours, plan = timed(
        lambda: pair_round(race, players, results, plans, args.race_rounds), args.repeats
    )
    base, naive = timed(
        lambda: naive_race(race, players, results, plans, args.race_rounds), args.repeats
    )
    print(f"  pair_round          {ours:8.3f} s   repeated table-mate pairs {repeats(plan)}")
    print(f"  by standings (base) {base:8.3f} s   repeated table-mate pairs {repeats(naive)}")
    print(f"  ratio pair_round / base: {ours / base:.1f}x the time")


if __name__ == "__main__":
    main()
