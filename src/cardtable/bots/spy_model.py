"""Spy ``model``: the exactly solved order-blind model player — the fair-play floor.

A fair player sees neither the racing deck's order before its first pass (S5) nor the
points cards under the top (S4). The *order-blind model* of one player's race is a
small game of chance: a state is the multiset of pile-top ranks (4-6 piles, S8), the
points-pile top, how many points cards lie hidden under it (0-4, S3) and the waste top
(or none). Moves are the game's (S6-S10): place or open with the points top (the next
points card is then a random rank), place or open with the waste top (the waste then
shows nothing the model remembers), turn (the waste top becomes a random rank). Every
move costs one; the call ends the race. Ranks are cyclic (S6), so a state is stored up
to rotation, with the points top at rank 0: 26,572 sets of pile tops × 5 × 14 =
1,860,040 states. Value iteration (:func:`solve_values`, numpy, a few minutes: docs/bots.md)
gives each state's fewest expected moves to the call, the call included.

The values ship with the package (``spy_model_values.xz``: each value rounded to
1/:data:`SCALE` of a move as an unsigned 16-bit number, xz-compressed) and are read once
per process (:func:`model_values`), never solved during play. ``python -m
cardtable.bots.spy_model`` solves the model again and writes the file (needs numpy:
``pip install -e .[rl]``).

:class:`ModelBot` plays the real game with them. While the racing deck is unknown it
makes the move with the fewest expected moves: one step of expectimax over the rank the
move shows (a turn shows the next waste card, placing the points top the card under
it), weighted by the seat's own counts of the ranks it has not seen
(:attr:`SpyInfo.unseen <cardtable.games.spy.info.SpyInfo.unseen>`), each outcome valued
by the table; placing the waste top shows the card under it, which the seat has seen.
Once the deck is known (S9) it hands over to the planner, which then searches exactly
(``iterations`` worlds for the points cards still hidden). It reads nothing but the
seat's information set.
"""

from __future__ import annotations

import itertools
import lzma
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable.bots.base import Analysis, MoveValue
from cardtable.bots.spy_common import PREFERENCE
from cardtable.bots.spy_planner import NO_CALL_PENALTY, PlannerBot
from cardtable.games.spy.actions import (
    CALL,
    MAX_PILES,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_POINTS,
    PLACE_WASTE,
    RESIGN,
    TURN,
)
from cardtable.games.spy.info import SpyInfo

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HIDDEN",
    "NO_CARD",
    "RANKS",
    "SCALE",
    "TOP_INDEX",
    "TOP_SETS",
    "ModelBot",
    "model_move_costs",
    "model_value",
    "model_values",
    "solve_values",
    "state_index",
]

RANKS = 13
#: The waste-top index of "no waste card".
NO_CARD = RANKS
#: Points cards under the top: 0..4 (S3: a pile of five).
HIDDEN = 5
#: The shipped values are whole numbers of 1/SCALE of a move (the largest, 85.7
#: moves, still fits 16 bits).
SCALE = 500
#: Every multiset of 4-6 pile-top ranks, each sorted; a state's first coordinate.
TOP_SETS: tuple[tuple[int, ...], ...] = tuple(
    tops
    for size in range(4, MAX_PILES + 1)
    for tops in itertools.combinations_with_replacement(range(RANKS), size)
)
TOP_INDEX: dict[tuple[int, ...], int] = {tops: i for i, tops in enumerate(TOP_SETS)}
#: How many values the table holds.
STATES = len(TOP_SETS) * HIDDEN * (RANKS + 1)

_TABLE = "spy_model_values.xz"


@lru_cache(maxsize=1)
def model_values() -> array[int]:
    """The shipped table, read once per process, in 1/:data:`SCALE` moves, indexed by
    :func:`state_index` (:func:`model_value` reads it)."""
    data = lzma.decompress(resources.files(__package__).joinpath(_TABLE).read_bytes())
    values = array("H")
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    if len(values) != STATES:
        raise RuntimeError(f"{_TABLE} holds {len(values)} values, not {STATES}: rebuild it")
    return values


def state_index(tops: Sequence[int], points: int, hidden: int, waste: int | None) -> int:
    """Where the table keeps the state with pile-top ranks ``tops``, points top rank
    ``points``, ``hidden`` points cards under it and waste top rank ``waste`` (None: no
    waste card): every rank rotated with the points top to 0 (S6)."""
    index = TOP_INDEX[tuple(sorted((t - points) % RANKS for t in tops))]
    shown = NO_CARD if waste is None else (waste - points) % RANKS
    return (index * HIDDEN + hidden) * (RANKS + 1) + shown


def model_value(tops: Sequence[int], points: int, hidden: int, waste: int | None) -> float:
    """The model's fewest expected moves to the call (the call included) in the state
    of :func:`state_index`."""
    return model_values()[state_index(tops, points, hidden, waste)] / SCALE


def model_move_costs(
    tops: Sequence[int],
    points: int,
    hidden: int,
    waste: int | None,
    under: int | None,
    odds: Sequence[tuple[int, float]],
    value: Callable[[Sequence[int], int, int, int | None], float] = model_value,
) -> dict[int, float]:
    """Expected moves to the call after each move of the model (the move included),
    by local move id: the points top ``points`` (rank) onto each pile whose top fits
    (S6) or onto a new pile (S8), the same with the waste top ``waste``, and turn.
    A move that shows an unknown card averages over ``odds`` (rank, probability); a
    placed waste card shows ``under`` (None: nothing). Several placements leaving the
    same tops each get their value."""
    costs: dict[int, float] = {}
    expected_turn = sum(p * value(tops, points, hidden, rank) for rank, p in odds)
    costs[TURN] = 1.0 + expected_turn

    def after(card: int, pile: int | None) -> list[int]:
        new = list(tops)
        if pile is None:
            new.append(card)
        else:
            new[pile] = card
        return new

    slots: list[int | None] = [
        pile for pile, top in enumerate(tops) if (top - points) % RANKS in (1, RANKS - 1)
    ]
    opens: list[int | None] = [None] if len(tops) < MAX_PILES else []
    for pile in slots + opens:
        local = OPEN_POINTS if pile is None else PLACE_POINTS + pile
        piles = after(points, pile)
        if hidden == 0:
            costs[local] = 2.0  # the last points card, then the call (S10)
        else:
            shown = sum(p * value(piles, rank, hidden - 1, waste) for rank, p in odds)
            costs[local] = 1.0 + shown
    if waste is not None:
        slots = [pile for pile, top in enumerate(tops) if (top - waste) % RANKS in (1, RANKS - 1)]
        for pile in slots + opens:
            local = OPEN_WASTE if pile is None else PLACE_WASTE + pile
            costs[local] = 1.0 + value(after(waste, pile), points, hidden, under)
    return costs


class ModelBot:
    """The model player (module docstring): the table's best move while the racing
    deck is unknown, the planner with ``iterations`` worlds once it is known."""

    name = "model"
    game = "spy"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 16,
        value: Callable[[Sequence[int], int, int, int | None], float] | None = None,
    ) -> None:
        self.seed = seed
        self.planner = PlannerBot(seed=seed, iterations=iterations)
        if value is None:
            model_values()  # read the table now, not during the first move
        #: The state values (:func:`model_value`: the shipped table); a study may pass
        #: its own solution.
        self.value = model_value if value is None else value

    @staticmethod
    def _forced(info: SpyInfo) -> int | None:
        """The local move needing no thought: resign when blocked, call when possible."""
        locals_ = info.locals
        if info.blocked or locals_ == [RESIGN]:
            return RESIGN
        if CALL in locals_:
            return CALL
        return None

    @staticmethod
    def _deck_known(info: SpyInfo) -> bool:
        """The planner's part: the deck is known, or the next turn makes it known (S9)."""
        return info.deck is not None or info.deck_count == 0

    def move_costs(self, info: SpyInfo) -> dict[int, float]:
        """Expected moves to the call after each legal move (the move included), from
        the table and the seat's counts of unseen ranks; the deck must still be unknown."""
        if info.points_top is None:
            raise ValueError("the points pile is empty: the only move is the call")
        counts = [0] * RANKS
        for kind in info.unseen:
            counts[kind % RANKS] += 1
        total = sum(counts)
        odds = [(rank, n / total) for rank, n in enumerate(counts) if n]
        waste = info.waste[-1] % RANKS if info.waste else None
        under = info.waste[-2] % RANKS if len(info.waste) > 1 else None
        costs = model_move_costs(
            [kind % RANKS for kind in info.tops],
            info.points_top % RANKS,
            min(info.points_count - 1, HIDDEN - 1),
            waste,
            under,
            odds,
            self.value,
        )
        legal = set(info.locals)
        return {local: cost for local, cost in costs.items() if local in legal}

    def choose(self, info: SpyInfo) -> int:
        """The move with the fewest expected moves (ties: the lowest local id)."""
        forced = self._forced(info)
        if forced is not None:
            return info.action(forced)
        if self._deck_known(info):
            return self.planner.choose(info)
        costs = self.move_costs(info)
        return info.action(min(costs, key=lambda local: (costs[local], local)))

    def analyse(self, info: SpyInfo) -> Analysis:
        """Minus the expected moves to the call of each legal move (the planner's
        analysis once the deck is known); moves the model does not weigh come last."""
        forced = self._forced(info)
        if forced is None and self._deck_known(info):
            return self.planner.analyse(info)
        if forced is None:
            costs = self.move_costs(info)
        else:
            costs = {forced: 1.0 if forced == CALL else 0.0}
        order = {local: i for i, local in enumerate(PREFERENCE)}
        best = info.action(min(costs, key=lambda local: (costs[local], local)))
        moves = []
        for local in info.locals:
            cost = costs.get(local)
            value = -float(NO_CALL_PENALTY + 1 + order[local]) if cost is None else -cost
            moves.append(MoveValue(info.action(local), info.text(info.action(local)), value))
        base = info.action(0)
        ranked = sorted(moves, key=lambda m: (m.action != best, -m.value, order[m.action - base]))
        return Analysis(tuple(ranked), "minus the expected moves to the call")


def _replace(tops: tuple[int, ...], old: int, new: int) -> int:
    rest = list(tops)
    rest.remove(old)
    return TOP_INDEX[tuple(sorted((*rest, new)))]


def _opened(tops: tuple[int, ...], new: int) -> int:
    return TOP_INDEX[tuple(sorted((*tops, new)))] if len(tops) < MAX_PILES else -1


def solve_values(
    tolerance: float = 1e-5, progress: Callable[[int, float], None] | None = None
) -> npt.NDArray[np.float64]:
    """Value iteration over the model (module docstring): ``V[tops, hidden, waste]``,
    the fewest expected moves to the call (the call included) with the points top at
    rank 0 and the other ranks rotated with it. ``progress(sweep, change)`` is told
    after every sweep. Needs numpy."""
    import numpy as np

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
    for sweep in range(10_000):
        # Turn: the waste top becomes a random rank (S9).
        best = np.broadcast_to(1.0 + value[:, :, :RANKS].mean(axis=2, keepdims=True), value.shape)
        best = best.copy()
        for option in range(3):
            legal = points_to[:, option] >= 0
            moved = rotate[np.where(legal, points_to[:, option], 0)]
            cost = np.full(value.shape, never)
            cost[:, 0, :] = 2.0  # the last points card, then the call (S10)
            for hidden in range(1, HIDDEN):
                shown = value[moved[:, :, None], hidden - 1, waste_rotate.T[None, :, :]]
                cost[:, hidden, :] = 1.0 + shown.mean(axis=1)
            cost[~legal] = never
            np.minimum(best, cost, out=best)
        for option in range(3):
            legal = waste_to[:, :, option] >= 0
            moved = np.where(legal, waste_to[:, :, option], 0)
            cost = 1.0 + value[moved, :, NO_CARD].transpose(0, 2, 1)
            np.minimum(best, np.where(legal[:, None, :], cost, never), out=best)
        change = float(np.abs(best - value).max())
        value = best
        if progress is not None:
            progress(sweep, change)
        if change < tolerance:
            break
    return value


def pack_table(value: npt.NDArray[np.float64], path: Path) -> int:
    """Write solved values as the shipped table (module docstring); its size in bytes."""
    codes = (value.reshape(-1) * SCALE).round()
    if codes.size != STATES:
        raise ValueError(f"expected {STATES} values, got {codes.size}")
    if codes.max() >= 1 << 16:
        raise ValueError(f"a value of {codes.max() / SCALE:.1f} moves does not fit 16 bits")
    packed = lzma.compress(codes.astype("<u2").tobytes(), preset=9 | lzma.PRESET_EXTREME)
    path.write_bytes(packed)
    return len(packed)


def write_table(path: Path) -> dict[str, Any]:
    """Solve the model and write the shipped table to ``path``; what it took."""
    start = time.perf_counter()

    def progress(sweep: int, change: float) -> None:
        if sweep % 25 == 0:
            spent = time.perf_counter() - start
            print(f"  sweep {sweep}: largest change {change:.6f} ({spent:.0f} s)", flush=True)

    value = solve_values(progress=progress)
    solved = time.perf_counter() - start
    return {"states": int(value.size), "seconds": solved, "bytes": pack_table(value, path)}


if __name__ == "__main__":
    target = Path(__file__).with_name(_TABLE)
    print(f"solving the order-blind Spy model into {target} ...", flush=True)
    done = write_table(target)
    print(
        f"{done['states']:,} values solved in {done['seconds']:.0f} s; "
        f"{done['bytes']:,} bytes written"
    )
