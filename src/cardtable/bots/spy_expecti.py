"""Spy ``expectimax``: chance nodes over the rank of the next hidden card.

While the racing deck is unknown (S5), a turn shows a card the player cannot predict,
and so does placing the points-pile top (S4: the card under it turns face-up). The
planner's sampled worlds each see their deck order, so in each of them turning looks
as cheap as the nearest useful card. This search never looks at an order: its chance
nodes are the *rank* of the next unseen card, weighted by how many cards of each rank
the player has not seen (suits never matter, S6; every unseen card is equally likely
to come next), and its decision nodes are the player's moves, one per distinct
multiset of pile tops. Below :data:`DEPTH` chance nodes a position is valued either by
:func:`count_leaf`, an estimate from counts alone, or (:data:`SAMPLES` > 0) by the
planner's leaf — its exact and blind races blended — averaged over a few worlds drawn
from the unseen ranks. The greedy move is kept unless another is expected to save
:data:`MARGIN` moves.

Once the waste has been turned over the whole stock is known (S9) and the planner's
search over sampled worlds takes over (only the points cards under the top are then
hidden, and they show in the order they are placed).

Measured (moves to the call, oracle beside; ``docs/bots.md`` has the intervals): on
deals 0-29 the count estimate alone gave 13.7-16.7 (7.76) — it prices the hidden points
cards far too dearly — and the sampled leaf with two worlds 9.29 at margin 0.5 and 9.03
at margin 1.5, against the planner's 8.53; the planner stays the default.
"""

from __future__ import annotations

import math
import random

from cardtable.bots.base import Analysis, MoveValue, decision_rng
from cardtable.bots.spy_common import PREFERENCE
from cardtable.bots.spy_greedy import _public_position
from cardtable.bots.spy_planner import BLIND, NO_CALL_PENALTY, PlannerBot, _Tree
from cardtable.bots.spy_search import greedy_local
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
from cardtable.games.spy.position import FITS, Position

__all__ = ["ExpectiBot", "Node", "count_leaf", "expected_costs"]

#: An abstract position: sorted pile-top ranks, the points-pile top rank (-1: none),
#: points cards left, unseen cards per rank, the waste's ranks (top last) and how many
#: racing-deck cards are still unseen.
Node = tuple[tuple[int, ...], int, int, tuple[int, ...], tuple[int, ...], int]

#: A move up to symmetry: its action group (place or open, points or waste, turn) and the
#: pile-top rank it covers (None for an opening or a turn).
MoveKey = tuple[int, int | None]

#: Chance nodes searched before the count estimate.
DEPTH = 1

#: Worlds drawn per leaf to value it by the planner's races (0: the count estimate).
SAMPLES = 2

#: Moves another move must be expected to save to be preferred to the greedy move.
MARGIN = 1.5

#: Extra moves charged when a points card can only be freed by luck beyond the stock.
_STUCK = 20.0


def _need(tops: tuple[int, ...]) -> int:
    need = 0
    for top in tops:
        need |= FITS[top]
    return need


def _find_cost(
    bridge: int, counts: tuple[int, ...], unseen: int, waste: tuple[int, ...], deck: int
) -> float:
    """Expected moves to bring a card of a rank in bitmask ``bridge`` to the waste top
    and play it: the waste top at once, else turn through the ``deck`` unseen cards
    (each a bridge with the pool's odds), else on into the known waste (S9)."""
    if waste and bridge >> waste[-1] & 1:
        return 1.0
    hits = sum(counts[r] for r in range(13) if bridge >> r & 1)
    p = hits / unseen if unseen else 0.0
    if p > 0.0:
        miss = (1.0 - p) ** deck
        turns = (1.0 - miss) / p
    else:
        miss, turns = 1.0, 0.0
    if miss > 0.0:
        # After the deck, the waste (bottom first) comes round again.
        later = next((i for i, r in enumerate(waste) if bridge >> r & 1), None)
        turns += miss * (deck + 1 + later if later is not None else _STUCK)
    return turns + 1.0


def count_leaf(node: Node) -> float:
    """An order-blind estimate of the moves to the call (the call included): one move
    per points card and the call, the expected cost of finding a bridge for the
    points-pile top when it fits nowhere, and for the hidden points cards the expected
    number that will fit no pile top (beyond the free pile slots) times the mean cost
    of finding a bridge for one."""
    tops, top, left, counts, waste, deck = node
    if left == 0:
        return 1.0
    cost = float(left + 1)
    need = _need(tops)
    free = MAX_PILES - len(tops)
    unseen = sum(counts)
    if not need >> top & 1:
        if free:
            free -= 1  # the top will open a pile
        else:
            cost += _find_cost(FITS[top] & need, counts, unseen, waste, deck)
    hidden = left - 1
    if hidden and unseen:
        misfit = 0
        find = 0.0
        for rank in range(13):
            count = counts[rank]
            if count and not need >> rank & 1:
                misfit += count
                find += count * _find_cost(FITS[rank] & need, counts, unseen, waste, deck)
        if misfit:
            beyond = max(0.0, hidden * misfit / unseen - free)
            cost += beyond * find / misfit
    return cost


def _with(tops: tuple[int, ...], old: int | None, new: int) -> tuple[int, ...]:
    """Pile tops with one ``old`` top replaced by ``new`` (a new pile when None)."""
    out = list(tops)
    if old is None:
        out.append(new)
    else:
        out.remove(old)
        out.append(new)
    return tuple(sorted(out))


def sample_world(node: Node, player: int, rng: random.Random) -> Position:
    """A position consistent with ``node``: the hidden points cards and the unseen
    racing deck drawn from the unseen ranks (suits never matter, S6; the copies of a
    rank get distinct kinds)."""
    tops, top, left, counts, waste, deck = node
    pool = [rank for rank in range(13) for _ in range(counts[rank])]
    drawn = rng.sample(pool, max(left - 1, 0) + deck) if left else rng.sample(pool, deck)
    hidden = drawn[: max(left - 1, 0)]
    points = [] if left == 0 else [top, *hidden]  # top first
    stock = drawn[len(hidden) :]
    copies = [0] * 13

    def kind(rank: int) -> int:
        copies[rank] += 1
        return rank + 13 * ((copies[rank] - 1) % 4)

    return Position.from_parts(
        player,
        points=[kind(r) for r in points],
        piles=[[kind(t)] for t in tops],
        deck=[kind(r) for r in stock],
        waste=[kind(r) for r in reversed(waste)],
    )


class _Search:
    """One decision's expectimax, memoised on the abstract node and depth."""

    __slots__ = ("memo", "player", "rng", "samples", "tree")

    def __init__(self, samples: int = 0, player: int = 0, seed: int = 0) -> None:
        self.memo: dict[tuple[Node, int], float] = {}
        self.samples = samples
        self.player = player
        self.rng = random.Random(seed)
        self.tree = _Tree(300, 1.0, BLIND)

    def leaf(self, node: Node) -> float:
        """The count estimate, or the planner's leaf (exact and blind races blended)
        averaged over ``samples`` worlds drawn from the unseen ranks."""
        if not self.samples:
            return count_leaf(node)
        total = 0.0
        for _ in range(self.samples):
            world = sample_world(node, self.player, self.rng)
            total += self.tree.leaf(world) if world.deck else self.tree.exact_race(world)
        return total / self.samples

    def children(self, node: Node) -> list[tuple[MoveKey, list[tuple[float, Node]], bool]]:
        """Distinct moves (:func:`_move_key`), each with its outcomes
        (probability, node) and whether it is a chance move."""
        tops, top, left, counts, waste, deck = node
        free = len(tops) < MAX_PILES
        unseen = sum(counts)
        moves: list[tuple[MoveKey, list[tuple[float, Node]], bool]] = []

        def shown() -> list[tuple[float, tuple[tuple[int, ...], int]]]:
            return [
                (counts[r] / unseen, ((*counts[:r], counts[r] - 1, *counts[r + 1 :]), r))
                for r in range(13)
                if counts[r]
            ]

        # The points-pile top onto each distinct fitting top, or a new pile (S6-S8).
        targets: list[MoveKey] = []
        if top >= 0:
            seen = 0
            for t in tops:
                if FITS[t] >> top & 1 and not seen >> t & 1:
                    seen |= 1 << t
                    targets.append((PLACE_POINTS, t))
            if free:
                targets.append((OPEN_POINTS, None))
        for group, old in targets:
            new_tops = _with(tops, old, top)
            if left == 1 or not unseen:
                moves.append(((group, old), [(1.0, (new_tops, -1, 0, counts, waste, deck))], False))
            else:
                outs = [(p, (new_tops, r, left - 1, rest, waste, deck)) for p, (rest, r) in shown()]
                moves.append(((group, old), outs, True))
        # The waste top onto each distinct fitting top, or a new pile.
        if waste:
            card = waste[-1]
            wtargets: list[MoveKey] = []
            seen = 0
            for t in tops:
                if FITS[t] >> card & 1 and not seen >> t & 1:
                    seen |= 1 << t
                    wtargets.append((PLACE_WASTE, t))
            if free:
                wtargets.append((OPEN_WASTE, None))
            for group, old in wtargets:
                child = (_with(tops, old, card), top, left, counts, waste[:-1], deck)
                moves.append(((group, old), [(1.0, child)], False))
        # Turn (S9): an unseen card of each rank, with the pool's odds.
        if deck and unseen:
            outs = [(p, (tops, top, left, rest, (*waste, r), deck - 1)) for p, (rest, r) in shown()]
            moves.append(((TURN, None), outs, True))
        return moves

    def value(self, node: Node, depth: int) -> float:
        """Expected moves to the call from ``node``, the call included."""
        if node[2] == 0:
            return 1.0
        if depth <= 0:
            key = (node, 0)
            cached = self.memo.get(key)
            if cached is None:
                cached = self.memo[key] = self.leaf(node)
            return cached
        key = (node, depth)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        best = math.inf
        for _, outs, chance in self.children(node):
            best = min(best, self.cost(outs, depth - 1 if chance else depth))
        if best == math.inf:
            # No move but the turn over to the known stock (or none at all): counts alone.
            best = self.leaf(node) if node[5] == 0 and node[4] else float(NO_CALL_PENALTY)
        self.memo[key] = best
        return best

    def cost(self, outs: list[tuple[float, Node]], depth: int) -> float:
        """One move, then the expected value of its outcomes."""
        return 1.0 + sum(p * self.value(child, depth) for p, child in outs)


def root_node(info: SpyInfo) -> Node:
    """The abstract node of an information set whose racing deck is unknown."""
    counts = [0] * 13
    for kind in info.unseen:
        counts[kind % 13] += 1
    return (
        tuple(sorted(t % 13 for t in info.tops)),
        -1 if info.points_top is None else info.points_top % 13,
        info.points_count,
        tuple(counts),
        tuple(k % 13 for k in info.waste),
        info.deck_count,
    )


def expected_costs(info: SpyInfo, depth: int, samples: int = 0, seed: int = 0) -> dict[int, float]:
    """Expected moves to the call after each legal local move (itself included),
    by expectimax over unseen ranks (module docstring). Resigning is left out."""
    search = _Search(samples, info.player, seed)
    node = root_node(info)
    tops = tuple(t % 13 for t in info.tops)
    by_key: dict[MoveKey, float] = {}
    for key, outs, chance in search.children(node):
        by_key[key] = search.cost(outs, depth - 1 if chance else depth)
    costs: dict[int, float] = {}
    for local in info.locals:
        if local == CALL:
            costs[local] = 1.0
        elif local != RESIGN:
            found = by_key.get(_move_key(local, tops))
            if found is not None:
                costs[local] = found
    return costs


def _move_key(local: int, tops: tuple[int, ...]) -> MoveKey:
    """A move's action group and the pile-top rank it covers: moves with equal keys leave the
    same multiset of pile tops."""
    if PLACE_POINTS <= local < PLACE_POINTS + 6:
        return (PLACE_POINTS, tops[local - PLACE_POINTS])
    if PLACE_WASTE <= local < PLACE_WASTE + 6:
        return (PLACE_WASTE, tops[local - PLACE_WASTE])
    if local == OPEN_POINTS:
        return (OPEN_POINTS, None)
    return (local, None)


class ExpectiBot(PlannerBot):
    """Expectimax over unseen ranks while the racing deck is unknown; the planner's
    sampled worlds once it is known (S9). ``iterations`` is the planner's world count."""

    name = "expectimax"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 16,
        depth: int = DEPTH,
        margin: float = MARGIN,
        samples: int = SAMPLES,
    ) -> None:
        super().__init__(seed, iterations)
        self.chance_depth = depth
        self.ex_margin = margin
        self.samples = samples

    def analyse(self, info: SpyInfo) -> Analysis:
        """Minus the expected moves to the call of each move."""
        candidates = self._candidates(info)
        if info.deck is not None or len(candidates) == 1:
            return super().analyse(info)
        rng = decision_rng(self.seed, info.key)
        costs = expected_costs(info, self.chance_depth, self.samples, rng.randrange(1 << 30))
        order = {local: i for i, local in enumerate(PREFERENCE)}
        values = []
        for local in info.locals:
            cost = costs.get(local, math.inf)
            value = -cost if cost != math.inf else -float(NO_CALL_PENALTY + 1 + order[local])
            values.append(MoveValue(info.action(local), info.text(info.action(local)), value, 1))
        ranked = sorted(values, key=lambda m: (-m.value, order[m.action - info.action(0)]))
        return Analysis(tuple(ranked), "minus the expected moves to the call")

    def choose(self, info: SpyInfo) -> int:
        """The move with the fewest expected moves to the call."""
        if info.deck is not None or len(self._candidates(info)) == 1:
            return super().choose(info)
        analysis = self.analyse(info)
        default = info.action(greedy_local(_public_position(info), info.stalled))
        by_action = {m.action: m.value for m in analysis.moves}
        if analysis.best.value - by_action.get(default, -math.inf) < self.ex_margin:
            return default
        return analysis.best.action
