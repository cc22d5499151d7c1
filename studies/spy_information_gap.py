"""How close can a fair Spy player get to the oracle? A study of the information gap.

The oracle sees every card; a fair player sees neither the racing deck's order before
its first pass (S5) nor the points cards under the top (S4). This study builds a fair
player built differently from the planner and races both against the oracle:

1. **An order-blind model of one player's race, solved exactly.** A state is the
   multiset of pile-top ranks (4-6 piles), the points-pile top, how many points cards
   lie hidden under it (0-4) and the waste top (or none). Moves are the game's (S6-S10):
   place or open with the points top (the next points card is then a random rank), place
   or open with the waste top (the waste then shows nothing new), turn (the waste top
   becomes a random rank). Every move costs one; the call ends it. Ranks are uniform and
   cyclic (S6), so a state is stored up to rotation with the points top at rank 0.
   Value iteration over its 1.86 million states gives the fewest expected moves to the
   call of the best order-blind player *of the model* (``cardtable.bots.spy_model``).
2. **The model player in the real game.** While the racing deck is unknown it makes the
   move with the fewest expected moves: one step of expectimax over the rank the move
   shows, weighted by the player's real counts of unseen cards, valued by the model
   below; placing the waste top shows the card under it, which the player has seen.
   Once the deck is known (S9) it hands over to the planner, which then searches
   exactly.
3. Both players, and the oracle, race every seat of the deals; the script prints the
   means, each player's gap to the oracle with its 95 % interval (the paired ratio
   estimator of ``cardtable analyse spy``) and how many of the races each matched.
4. The bot ``model`` — the same player reading the values shipped with the package
   (rounded to 1/500 of a move) — races too, and the script prints its gap less the
   model player's, with a 95 % interval over the paired races.

The model player and the planner reach their gaps by unrelated means (an exact solution
of a model versus sampled look-ahead), so when both stall at the same gap the rest is
most likely the price of not seeing the cards. Needs numpy (``pip install -e .[rl]``).

Run: ``python -m studies.spy_information_gap --seed 0 --deals 200`` (about four minutes
on two cores: most of it the value iteration; ``--values FILE.npy`` keeps the solution
and reads it on the next run).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import typer

from cardtable.arena.analysis import gap_interval
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_model import ModelBot, solve_values, state_index
from cardtable.bots.spy_oracle import OracleBot
from cardtable.bots.spy_planner import PlannerBot
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.position import Position

#: The players raced beside the oracle, in the order of each row.
PLAYERS = ("model player", "model (shipped)", "planner:16")


class _Exact:
    """The model's values as solved in this run (floats, not the shipped rounding)."""

    def __init__(self, value: list[float]) -> None:
        self.value = value

    def __call__(self, tops: Sequence[int], points: int, hidden: int, waste: int | None) -> float:
        return self.value[state_index(tops, points, hidden, waste)]


_VALUE: list[float] = []


def _init(value: list[float]) -> None:
    _VALUE[:] = value


Row = tuple[int | None, ...]


def _race_deal(seed: int) -> list[Row]:
    """(oracle, model player, shipped model, planner) moves to the call for each seat;
    None: no call."""
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    rows: list[Row] = []
    for player in range(2):
        position = Position.deal(player, cards[player])
        best = OracleBot().race(position)
        row: list[int | None] = [best.moves if best.proven else None]
        for bot in (
            ModelBot(seed, 16, value=_Exact(_VALUE)),
            ModelBot(seed, 16),
            PlannerBot(seed=seed, iterations=16),
        ):
            race = solo_race(bot, position)
            row.append(race.moves if race.called else None)
        rows.append(tuple(row))
    return rows


def _solution(values: Path | None) -> list[float]:
    """The model solved now, or read from ``values`` (written there the first time)."""
    if values is not None and values.exists():
        print(f"reading the model's solution from {values}")
        return list(np.load(values).reshape(-1).tolist())
    print("solving the order-blind model ...")

    def progress(sweep: int, change: float) -> None:
        if sweep % 25 == 0:
            print(f"  sweep {sweep}: largest change {change:.5f}", flush=True)

    value = solve_values(progress=progress)
    if values is not None:
        np.save(values, value)
    print(f"  {value.size:,} state values")
    return list(value.reshape(-1).tolist())


def main(
    seed: int = typer.Option(0, help="First deal."),
    deals: int = typer.Option(200, min=1, help="Deals (two seats each)."),
    workers: int = typer.Option(2, min=1, help="Processes racing the deals."),
    values: str = typer.Option("", help="A .npy file keeping the model's solution between runs."),
) -> None:
    """Solve the order-blind model, then race it and the planner against the oracle."""
    flat = _solution(Path(values) if values else None)
    with ProcessPoolExecutor(workers, initializer=_init, initargs=(flat,)) as pool:
        rows = [row for deal in pool.map(_race_deal, range(seed, seed + deals)) for row in deal]
    usable = [[float(moves) for moves in r if moves is not None] for r in rows if None not in r]
    oracle = [r[0] for r in usable]
    report: dict[str, Any] = {}
    for column, name in enumerate(PLAYERS, start=1):
        races = [r[column] for r in usable]
        gap = gap_interval(races, oracle)
        same = sum(1 for r in usable if r[column] == r[0])
        report[name] = (math.fsum(races) / len(races), gap, same)
    print(f"deals {seed}-{seed + deals - 1}: {len(usable)} of {len(rows)} races called by all")
    print(f"  oracle          {math.fsum(oracle) / len(oracle):.3f} moves")
    for name, (mean, gap, same) in report.items():
        print(
            f"  {name:<15} {mean:.3f} moves, gap {100 * gap.mean:+.1f} % "
            f"(95 % CI {100 * gap.low:+.1f} … {100 * gap.high:+.1f}), "
            f"as short as the oracle in {same} races"
        )
    # The shipped bot's gap less the model player's: the gap of the paired races
    # shipped - exact + oracle to the oracle's (the same ratio estimator).
    shifted = [r[2] - r[1] + r[0] for r in usable]
    diff = gap_interval(shifted, oracle)
    print(
        f"  model (shipped) less the model player: {100 * diff.mean:+.2f} points "
        f"(95 % CI {100 * diff.low:+.2f} … {100 * diff.high:+.2f}); "
        f"{sum(1 for r in usable if r[1] != r[2])} races differ"
    )


if __name__ == "__main__":
    typer.run(main)
