"""Arena speed: ``python -m benchmarks arena``.

Games per second of :func:`cardtable.arena.tournament.run_arena` on one worker (the
games played in this process, one after another), over duplicate deals:

* Candidate ``greedy`` against ``random``: cheap bots, so the figure weighs the
  driver — the shared table on a simulated clock, the bots' information sets, the
  match's result — more than the bots' thinking;
* Candidate ``ismcts:100`` against ``greedy``: a searching bot's thinking dominates;
* Spy ``greedy`` against ``random`` and ``planner:4`` against both: rounds through the
  race runner.

Each figure is the median of :data:`REPEATS` runs after a warm-up.
"""

from __future__ import annotations

import statistics
import time

from cardtable.arena.tournament import run_arena
from cardtable.arena.work import ArenaConfig
from cardtable.bots.registry import parse_bot_spec

#: (game, bots, duplicate deals) of each measured arena.
CASES: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("candidate", ("greedy", "random"), 200),
    ("candidate", ("ismcts:100", "greedy"), 10),
    ("spy", ("greedy", "random"), 1000),
    ("spy", ("planner:4", "greedy", "random"), 10),
)
REPEATS = 5


def games_per_second(game: str, bots: tuple[str, ...], deals: int, seed: int) -> float:
    """Games a second of one arena run on one worker."""
    config = ArenaConfig(game, tuple(parse_bot_spec(game, b) for b in bots), seed=seed)
    start = time.perf_counter()
    report = run_arena(config, deals, workers=1)
    return report.played / (time.perf_counter() - start)


def main() -> None:
    print("arena, one worker (median of runs)")
    for game, bots, deals in CASES:
        games_per_second(game, bots, max(1, deals // 10), seed=99)  # warm-up
        rates = [games_per_second(game, bots, deals, seed=r) for r in range(REPEATS)]
        print(
            f"  {game:<9} {' vs '.join(bots):<30} {deals:>5} deals: "
            f"{statistics.median(rates):>9,.1f} games/s"
        )


if __name__ == "__main__":
    main()
