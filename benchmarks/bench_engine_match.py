"""The strength that the compiled core's speed buys: ``ismcts`` on the compiled core
against the very same bot on the pure-Python engine, at a fixed time per move.

Both bots are :class:`~cardtable.bots.candidate_ismcts.IsmctsBot` with the default
search (playouts cut at ``ROLLOUT_DEPTH`` moves, the margin reward), the same wall-clock
budget per decision (``--seconds``) and an iteration cap too high to reach, so the only
difference is how many simulations each engine fits in the time. Each bot has its own
engine (the bot's ``engine`` option: it switches the process's engine for the length
of its search), so both play in one process and take turns move by move; a forced move
(one legal move) takes no search and is not counted.

Duplicate pairs, as the arena's: each seeded one-deal match is played twice with the
same cards and dealer, the bots swapping seats. A pair is won by the bot whose summed
score over its two games (its match totals, C15) is better; a pair with equal sums is
even. Reported: the compiled bot's share of the decided pairs with its Wilson 95 %
interval and the exact two-sided sign-test p-value, games won/lost/drawn, the mean
margin a pair, and each side's mean simulations per searched move. The pairs run in
``--workers`` processes (each pair in one process); the load average is read from
``/proc/loadavg`` at the start, at every progress line and at the end.

``python -m benchmarks engine_match`` runs a short version (``make bench``); the run
in ``docs/benchmarks.md`` was ``python -m benchmarks engine_match --pairs 200
--seconds 0.1 --workers 2``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from cardtable.arena.stats import binomial_p_value, wilson_interval
from cardtable.bots.candidate_ismcts import IsmctsBot, Node
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate import engine as engines
from cardtable.games.candidate.info import CandidateInfo

#: The short run of ``make bench``.
PAIRS = 4
SECONDS = 0.05
FIRST_SEED = 5000
SIDES = (engines.COMPILED, engines.PURE)


class CountingBot(IsmctsBot):
    """:class:`IsmctsBot` that keeps the simulations of each search with a choice."""

    def __init__(self, seed: int, seconds: float, engine: str) -> None:
        super().__init__(seed, iterations=10**9, seconds=seconds, engine=engine)
        self.simulations: list[int] = []

    def search(self, info: CandidateInfo) -> Node:
        root = super().search(info)
        if len(info.legal) > 1:
            self.simulations.append(sum(c.visits for c in root.children.values()))
        return root


@dataclass(frozen=True)
class PairResult:
    """One duplicate pair: the compiled bot's totals minus the pure bot's in each game,
    and each side's simulations per searched move."""

    seed: int
    margins: tuple[int, int]
    simulations: dict[str, list[int]]


def play_game(seed: int, compiled_seat: int, seconds: float) -> tuple[int, dict[str, list[int]]]:
    """One one-deal match of ``seed``; the compiled bot's total minus the pure bot's."""
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    bots: dict[int, CountingBot] = {}
    for side, engine in enumerate(SIDES):
        seat = compiled_seat if side == 0 else 1 - compiled_seat
        bots[seat] = CountingBot(seed * 2 + seat, seconds, engine)
    while not state.is_terminal():
        player = state.current_player
        state.apply_action(bots[player].choose(CandidateInfo.of(state, player)))
    totals = state.totals()
    margin = totals[compiled_seat] - totals[1 - compiled_seat]
    return margin, {
        engine: bots[compiled_seat if side == 0 else 1 - compiled_seat].simulations
        for side, engine in enumerate(SIDES)
    }


def play_pair(seed: int, seconds: float) -> PairResult:
    """Both games of the pair of deal ``seed``, the compiled bot in seat 0 then seat 1."""
    margins = []
    simulations: dict[str, list[int]] = {engine: [] for engine in SIDES}
    for seat in (0, 1):
        margin, sims = play_game(seed, seat, seconds)
        margins.append(margin)
        for engine in SIDES:
            simulations[engine] += sims[engine]
    return PairResult(seed, (margins[0], margins[1]), simulations)


def loadavg() -> str:
    """The 1-, 5- and 15-minute load averages."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} {five:.1f} {fifteen:.1f}"


def summary(results: list[PairResult], seconds: float) -> list[str]:
    """The result lines (module docstring)."""
    won = sum(sum(r.margins) > 0 for r in results)
    lost = sum(sum(r.margins) < 0 for r in results)
    even = len(results) - won - lost
    games = [m for r in results for m in r.margins]
    decided = won + lost
    low, high = wilson_interval(won, decided)
    share = won / decided if decided else float("nan")
    lines = [
        f"  pairs: compiled better {won}, pure better {lost}, even {even}; "
        f"compiled won {share:.1%} of {decided} decided pairs "
        f"(95 % CI {low:.1%}–{high:.1%}, sign test p = {binomial_p_value(won, decided):.2g})",
        f"  games: compiled won {sum(m > 0 for m in games)}, lost {sum(m < 0 for m in games)}, "
        f"drawn {sum(m == 0 for m in games)}; mean margin a pair "
        f"{statistics.mean(sum(r.margins) for r in results):+.2f} points",
    ]
    for engine in SIDES:
        sims = [s for r in results for s in r.simulations[engine]]
        lines.append(
            f"  {engine}: {statistics.mean(sims):,.0f} simulations a searched move "
            f"(median {statistics.median(sims):,.0f}, {len(sims)} moves searched, "
            f"{seconds} s each)"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=PAIRS)
    parser.add_argument("--seconds", type=float, default=SECONDS, help="wall time a move")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    args = parser.parse_args(argv if argv is not None else [])
    if not engines.available():
        print("engine_match: the compiled core was not built; nothing to compare")
        return
    if args.pairs < 1 or args.seconds <= 0 or args.workers < 1:
        parser.error("--pairs and --workers take 1 or more, --seconds a positive time")
    print(
        f"engine_match: ismcts compiled against ismcts pure, {args.seconds} s a move, "
        f"{args.pairs} duplicate pairs of one-deal Candidate matches, {args.workers} "
        f"worker(s); load average at the start {loadavg()} on {os.cpu_count()} cores",
        flush=True,
    )
    seeds = range(args.first_seed, args.first_seed + args.pairs)
    start = time.perf_counter()
    results: list[PairResult] = []
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play_pair, seed, args.seconds) for seed in seeds]
        for future in as_completed(futures):
            results.append(future.result())
            if len(results) % 10 == 0 or len(results) == args.pairs:
                won = sum(sum(r.margins) > 0 for r in results)
                lost = sum(sum(r.margins) < 0 for r in results)
                print(
                    f"  {len(results)} pairs: compiled better {won}, pure better {lost}; "
                    f"{time.perf_counter() - start:.0f} s; load average {loadavg()}",
                    flush=True,
                )
    results.sort(key=lambda r: r.seed)
    for line in summary(results, args.seconds):
        print(line)
    print(f"  {time.perf_counter() - start:.0f} s in all; load average at the end {loadavg()}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
