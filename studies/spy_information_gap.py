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
   call of the best order-blind player *of the model*.
2. **The model player in the real game.** While the racing deck is unknown it makes the
   move with the fewest expected moves: one step of expectimax over the rank the move
   shows, weighted by the player's real counts of unseen cards, valued by the model
   below; placing the waste top shows the card under it, which the player has seen.
   Once the deck is known (S9) it hands over to the planner, which then searches
   exactly.
3. Both players, and the oracle, race every seat of the deals; the script prints the
   means, each player's gap to the oracle with its 95 % interval (the paired ratio
   estimator of ``cardtable analyse spy``) and how many of the races each matched.

The model player and the planner reach their gaps by unrelated means (an exact solution
of a model versus sampled look-ahead), so when both stall at the same gap the rest is
most likely the price of not seeing the cards. Needs numpy (``pip install -e .[rl]``).

Run: ``python -m studies.spy_information_gap --seed 0 --deals 200`` (about four minutes
on two cores: most of it the value iteration).
"""

from __future__ import annotations

import itertools
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import typer

from cardtable.arena.analysis import gap_interval
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_oracle import OracleBot
from cardtable.bots.spy_planner import PlannerBot
from cardtable.games.spy.actions import CALL, MAX_PILES, OPEN_POINTS, OPEN_WASTE, RESIGN, TURN
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.info import SpyInfo
from cardtable.games.spy.position import Position

RANKS = 13
NO_CARD = RANKS  # the waste-top index of "no waste card"
HIDDEN = 5  # points cards under the top: 0..4 (S3: a pile of five)
TOP_SETS: list[tuple[int, ...]] = [
    tops
    for size in range(4, MAX_PILES + 1)
    for tops in itertools.combinations_with_replacement(range(RANKS), size)
]
TOP_INDEX = {tops: i for i, tops in enumerate(TOP_SETS)}


def _replace(tops: tuple[int, ...], old: int, new: int) -> int:
    rest = list(tops)
    rest.remove(old)
    return TOP_INDEX[tuple(sorted((*rest, new)))]


def _opened(tops: tuple[int, ...], new: int) -> int:
    return TOP_INDEX[tuple(sorted((*tops, new)))] if len(tops) < MAX_PILES else -1


def solve_model(tolerance: float = 1e-5, echo: bool = True) -> np.ndarray:
    """Value iteration over the model (module docstring): ``V[tops, hidden, waste]``,
    the fewest expected moves to the call (the call included) with the points top at
    rank 0 and the other ranks rotated with it."""
    count = len(TOP_SETS)
    rotate = np.array(
        [
            [TOP_INDEX[tuple(sorted((t - r) % RANKS for t in tops))] for r in range(RANKS)]
            for tops in TOP_SETS
        ]
    )
    waste_rotate = np.array(
        [[NO_CARD if w == NO_CARD else (w - r) % RANKS for r in range(RANKS)] for w in range(14)]
    )
    # The points top (rank 0) onto a pile showing 1 or 12 (S6), or onto a new pile (S8).
    points_to = np.full((count, 3), -1)
    # The waste top w onto a pile showing w - 1 or w + 1, or onto a new pile.
    waste_to = np.full((count, 14, 3), -1)
    for i, tops in enumerate(TOP_SETS):
        if 1 in tops:
            points_to[i, 0] = _replace(tops, 1, 0)
        if 12 in tops:
            points_to[i, 1] = _replace(tops, 12, 0)
        points_to[i, 2] = _opened(tops, 0)
        for w in range(RANKS):
            low, high = (w - 1) % RANKS, (w + 1) % RANKS
            if low in tops:
                waste_to[i, w, 0] = _replace(tops, low, w)
            if high in tops:
                waste_to[i, w, 1] = _replace(tops, high, w)
            waste_to[i, w, 2] = _opened(tops, w)
    never = 1e9
    value = np.zeros((count, HIDDEN, 14))
    start = time.perf_counter()
    for sweep in range(10_000):
        # Turn: the waste top becomes a random rank (S9).
        best = np.broadcast_to(1.0 + value[:, :, :RANKS].mean(axis=2, keepdims=True), value.shape)
        best = best.copy()
        for option in range(3):
            legal = points_to[:, option] >= 0
            after = rotate[np.where(legal, points_to[:, option], 0)]
            cost = np.full(value.shape, never)
            cost[:, 0, :] = 2.0  # the last points card, then the call (S10)
            for hidden in range(1, HIDDEN):
                shown = value[after[:, :, None], hidden - 1, waste_rotate.T[None, :, :]]
                cost[:, hidden, :] = 1.0 + shown.mean(axis=1)
            cost[~legal] = never
            np.minimum(best, cost, out=best)
        for option in range(3):
            legal = waste_to[:, :, option] >= 0
            after = np.where(legal, waste_to[:, :, option], 0)
            cost = 1.0 + value[after, :, NO_CARD].transpose(0, 2, 1)
            np.minimum(best, np.where(legal[:, None, :], cost, never), out=best)
        change = float(np.abs(best - value).max())
        value = best
        if echo and sweep % 25 == 0:
            spent = time.perf_counter() - start
            print(f"  sweep {sweep}: largest change {change:.5f} ({spent:.0f} s)")
        if change < tolerance:
            break
    return value


class ModelPlayer:
    """The model's best move while the racing deck is unknown; the planner after."""

    name = "model"

    def __init__(self, value: list[float], seed: int, iterations: int = 16) -> None:
        self.value = value
        self.planner = PlannerBot(seed=seed, iterations=iterations)

    def _v(self, tops: list[int], points: int, hidden: int, waste: int | None) -> float:
        index = TOP_INDEX[tuple(sorted((t - points) % RANKS for t in tops))]
        shown = NO_CARD if waste is None else (waste - points) % RANKS
        return self.value[(index * HIDDEN + hidden) * 14 + shown]

    def move_values(self, info: SpyInfo) -> dict[int, float]:
        """Expected moves to the call after each legal move (the move included)."""
        assert info.points_top is not None
        points = info.points_top % RANKS
        hidden = info.points_count - 1
        counts = [0] * RANKS
        for kind in info.unseen:
            counts[kind % RANKS] += 1
        total = sum(counts)
        odds = [(rank, n / total) for rank, n in enumerate(counts) if n]
        tops = [kind % RANKS for kind in info.tops]
        waste = info.waste[-1] % RANKS if info.waste else None
        under = info.waste[-2] % RANKS if len(info.waste) > 1 else None
        values: dict[int, float] = {}
        for local in info.locals:
            if local in (CALL, RESIGN):
                continue
            after = tops[:]
            if local == TURN:
                values[local] = 1 + sum(p * self._v(tops, points, hidden, r) for r, p in odds)
                continue
            from_points = 1 <= local <= 6 or local == OPEN_POINTS
            card = points if from_points else waste
            assert card is not None
            if local in (OPEN_POINTS, OPEN_WASTE):
                after.append(card)
            else:
                after[(local - 1) % 6] = card
            if not from_points:
                values[local] = 1 + self._v(after, points, hidden, under)
            elif hidden == 0:
                values[local] = 2.0  # the last points card, then the call
            else:
                values[local] = 1 + sum(p * self._v(after, r, hidden - 1, waste) for r, p in odds)
        return values

    def choose(self, info: SpyInfo) -> int:
        """The move with the fewest expected moves (ties: the lowest local id)."""
        locals_ = info.locals
        if info.blocked or locals_ == [RESIGN]:
            return info.action(RESIGN)
        if CALL in locals_:
            return info.action(CALL)
        if info.deck is not None or info.deck_count == 0:
            return self.planner.choose(info)
        values = self.move_values(info)
        return info.action(min(values, key=lambda local: (values[local], local)))


_VALUE: list[float] = []


def _init(value: list[float]) -> None:
    _VALUE[:] = value


def _race_deal(seed: int) -> list[tuple[int | None, int | None, int | None]]:
    """(oracle, model player, planner) moves to the call for each seat; None: no call."""
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    rows: list[tuple[int | None, int | None, int | None]] = []
    for player in range(2):
        position = Position.deal(player, cards[player])
        best = OracleBot().race(position)
        model = solo_race(ModelPlayer(_VALUE, seed), position)
        planner = solo_race(PlannerBot(seed=seed, iterations=16), position)
        rows.append(
            (
                best.moves if best.proven else None,
                model.moves if model.called else None,
                planner.moves if planner.called else None,
            )
        )
    return rows


def main(
    seed: int = typer.Option(0, help="First deal."),
    deals: int = typer.Option(200, min=1, help="Deals (two seats each)."),
    workers: int = typer.Option(2, min=1, help="Processes racing the deals."),
) -> None:
    """Solve the order-blind model, then race it and the planner against the oracle."""
    print("solving the order-blind model ...")
    value = solve_model()
    flat: list[float] = value.reshape(-1).tolist()
    print(f"  {value.size:,} state values")
    with ProcessPoolExecutor(workers, initializer=_init, initargs=(flat,)) as pool:
        rows = [row for deal in pool.map(_race_deal, range(seed, seed + deals)) for row in deal]
    usable = [[float(moves) for moves in r if moves is not None] for r in rows if None not in r]
    oracle = [r[0] for r in usable]
    report: dict[str, Any] = {}
    for column, name in ((1, "model player"), (2, "planner:16")):
        races = [r[column] for r in usable]
        gap = gap_interval(races, oracle)
        same = sum(1 for r in usable if r[column] == r[0])
        report[name] = (math.fsum(races) / len(races), gap, same)
    print(f"deals {seed}-{seed + deals - 1}: {len(usable)} of {len(rows)} races called by all")
    print(f"  oracle        {math.fsum(oracle) / len(oracle):.3f} moves")
    for name, (mean, gap, same) in report.items():
        print(
            f"  {name:<13} {mean:.3f} moves, gap {100 * gap.mean:+.1f} % "
            f"(95 % CI {100 * gap.low:+.1f} … {100 * gap.high:+.1f}), "
            f"as short as the oracle in {same} races"
        )


if __name__ == "__main__":
    typer.run(main)
