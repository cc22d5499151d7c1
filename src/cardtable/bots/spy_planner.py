"""Spy ``planner``: the move with the fewest expected moves to the call.

The player does not know the cards under the points-pile top nor, before the first
time the waste is turned over, the racing deck's order (S4-S5). The planner samples
``iterations`` complete worlds consistent with what it knows
(:meth:`SpyInfo.sample_world`) and values every move on all of them (common samples:
move differences are not blurred by sampling noise).

Searching each sampled world on its own would see that world's deck order, so "turn
and see what comes" would look as cheap as the nearest useful card (strategy fusion).
The planner instead searches a small tree of *information sets* over the sampled
worlds: after a move that shows a card (a turn shows the new waste top, placing the
points-pile top shows the card under it), the worlds are split by the rank that card
has (only ranks matter, S6), and each group must then choose one move for all its
worlds, as the player would, knowing only what was shown. Below :data:`DEPTH` moves a
world is valued by a blend of two races from there: the exact shortest race
(:func:`~cardtable.bots.spy_search.race_moves`, which knows that world's order: a
lower bound on what a player can do) and the greedy race (which does not: an upper
bound), weighted by :data:`LEAF_EXACT`. A world where no call can be reached counts
as :data:`NO_CALL_PENALTY` moves.

Measured on deals 0-29 (16 worlds): a tree of depth 2 values the moves no better than
depth 1 (both about 12 % above the oracle) at twice the think time, and blending in the
greedy race below the tree made it worse, so the defaults are depth 1 and the exact
race alone. Below the tree the worlds still show their deck order, so the planner keeps
the greedy move unless another saves :data:`MARGIN` moves, and a turn must save
:data:`WAIT_MARGIN` moves to displace a points-card placement.

The exact race is a lower bound on what a player can do; while the racing deck is
unknown the planner therefore blends in the *blind race* (weight :data:`BLIND`): the
greedy rule, which never reads the deck, plays on in the world until every deck card
the player has not seen has been turned, and the exact race takes over only then, when
the whole stock is known (S9). The blind race is an upper bound (the greedy rule is not
the best order-blind play); a turn is valued between the two. Measured with 16
worlds (moves, oracle beside): deals 0-29 8.66 -> 8.53 (7.76), deals 1000-1049 8.94 ->
8.82 (7.92); blind weights 0.3 and 0.7, 1.0 (the blind race alone) and 24 worlds were no
better.

Forced situations need no search: a call is made at once; a single sensible move is
made at once; a blocked player resigns (S12).
"""

from __future__ import annotations

import math

from cardtable.bots.base import Analysis, Budget, MoveValue, decision_rng
from cardtable.bots.spy_common import PREFERENCE
from cardtable.bots.spy_greedy import _public_position
from cardtable.bots.spy_search import RaceState, greedy_local, greedy_race, race_moves, race_state
from cardtable.games.spy.actions import CALL, OPEN_POINTS, PLACE_POINTS, RESIGN, TURN
from cardtable.games.spy.info import SpyInfo
from cardtable.games.spy.position import Position

__all__ = ["BLIND", "DEPTH", "LEAF_EXACT", "MARGIN", "NO_CALL_PENALTY", "WAIT_MARGIN", "PlannerBot"]

#: What a world without any way to the call costs, in moves: a round lost.
NO_CALL_PENALTY = 60

#: How many moves another move must be expected to save to be preferred to greedy's.
MARGIN = 0.5

#: The larger saving a turn must promise to be preferred to placing a points card:
#: below the tree every world shows its deck order, so turning still looks cheap there.
WAIT_MARGIN = 3.0

#: Moves searched over information sets before the sampled worlds are valued alone.
DEPTH = 1

#: The weight of the exact (all-seeing) race in a world's value below the tree; the
#: greedy race takes the rest.
LEAF_EXACT = 1.0

#: While the racing deck is unknown, the weight of the blind race (greedy until every
#: unseen deck card has been turned, then exact) in a world's value below the tree; the
#: exact race takes the rest.
BLIND = 0.5

_POINTS_MOVES = frozenset((*range(PLACE_POINTS, PLACE_POINTS + 6), OPEN_POINTS))


class _Tree:
    """One decision's search: the leaf values of the sampled worlds, cached."""

    __slots__ = ("blind", "exact", "node_limit", "races")

    def __init__(self, node_limit: int, exact: float, blind: float = 0.0) -> None:
        self.node_limit = node_limit
        self.exact = exact
        self.blind = blind
        self.races: dict[RaceState, float] = {}

    def leaf(self, world: Position) -> float:
        """A world's moves to the call, the call included: exact and greedy blended,
        blended with the blind race (:meth:`blind_race`) by the weight :attr:`blind`."""
        if self.blind:
            exact = self.exact_race(world)
            return self.blind * self.blind_race(world) + (1.0 - self.blind) * exact
        return self.exact_race(world)

    def blind_race(self, world: Position, cap: int = 200) -> float:
        """The greedy rule plays on while the world's racing deck still holds cards the
        player has not seen (it never reads them: it turns and sees what comes); once
        they are all turned, the stock is known (S9) and the exact race takes over."""
        node = world.copy()
        moves = 0
        idle = 0
        while node.deck and moves < cap:
            local = greedy_local(node, idle > len(node.deck) + len(node.waste))
            if local in (RESIGN, CALL):
                return moves + (1.0 if local == CALL else float(NO_CALL_PENALTY))
            idle = idle + 1 if local == TURN else 0
            node.play(local)
            moves += 1
            if node.blocked:
                return moves + float(NO_CALL_PENALTY)
        return moves + self.exact_race(node)

    def exact_race(self, world: Position) -> float:
        """A world's exact moves to the call (the call included), cached by race state."""
        state = race_state(world)
        cached = self.races.get(state)
        if cached is not None:
            return cached
        count = race_moves(state, self.node_limit)
        exact = count.moves if count.proven else count.bound
        greedy = greedy_race(world)
        if exact is None:
            value = float(NO_CALL_PENALTY)
        else:
            slow = NO_CALL_PENALTY if greedy is None else max(greedy, exact)
            value = self.exact * exact + (1.0 - self.exact) * slow
        self.races[state] = value
        return value

    def move_cost(self, worlds: list[Position], local: int, depth: int) -> float:
        """Mean moves to the call over ``worlds`` after ``local`` (itself included);
        below this move the worlds are split by the rank it shows (S4-S5)."""
        groups: dict[int, list[Position]] = {}
        total = 0.0
        for world in worlds:
            child = world.copy()
            child.play(local)
            if child.blocked:
                total += 1 + NO_CALL_PENALTY
                continue
            if local == TURN:
                shown = child.waste[-1] % 13
            elif local in _POINTS_MOVES:
                shown = child.points[-1] % 13 if child.points else -1
            else:
                shown = -1
            groups.setdefault(shown, []).append(child)
        for group in groups.values():
            total += len(group) * (1 + self.value(group, depth))
        return total / len(worlds)

    def value(self, worlds: list[Position], depth: int) -> float:
        """Mean moves to the call over ``worlds`` (one information set: they agree on
        everything the player has seen), choosing one move for all of them."""
        first = worlds[0]
        if not first.points:
            return 1.0  # the call (S10)
        if depth <= 0:
            return sum(self.leaf(world) for world in worlds) / len(worlds)
        best = math.inf
        for local in _distinct_moves(first):
            best = min(best, self.move_cost(worlds, local, depth - 1))
        return best


def _distinct_moves(pos: Position) -> list[int]:
    """The local moves worth searching: no resign, and of several placements that
    leave the same multiset of pile tops only the first."""
    base = pos.base
    seen: set[tuple[int, ...]] = set()
    moves: list[int] = []
    for action in pos.legal:
        local = action - base
        if local == RESIGN:
            continue
        if 1 <= local <= 12:
            pile = (local - 1) % 6
            card = pos.points[-1] if local <= 6 else pos.waste[-1]
            tops = list(pos.tops)
            tops[pile] = card % 13
            key = (local > 6, *sorted(tops))
            if key in seen:
                continue
            seen.add(key)
        moves.append(local)
    return moves


class PlannerBot:
    """Look-ahead over information sets of sampled worlds (module docstring)."""

    name = "planner"
    game = "spy"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 8,
        node_limit: int = 300,
        margin: float = MARGIN,
        depth: int = DEPTH,
        leaf_exact: float = LEAF_EXACT,
        wait_margin: float = WAIT_MARGIN,
        blind: float = BLIND,
    ) -> None:
        self.blind = blind
        self.wait_margin = wait_margin
        self.seed = seed
        self.margin = margin
        self.budget = Budget(iterations)
        self.node_limit = node_limit
        self.depth = depth
        self.leaf_exact = leaf_exact

    def _candidates(self, info: SpyInfo) -> list[int]:
        locals_ = info.locals
        if info.blocked or locals_ == [RESIGN]:
            return [RESIGN]
        if CALL in locals_:
            return [CALL]
        return [m for m in locals_ if m != RESIGN]

    def analyse(self, info: SpyInfo) -> Analysis:
        """Minus the expected moves to the call of each legal move (resigning, and
        moves not searched when a call is possible, get −∞ … shown as a large cost)."""
        candidates = self._candidates(info)
        costs: dict[int, float] = {}
        visits = 0
        if len(candidates) == 1:
            costs[candidates[0]] = 1.0 if candidates[0] == CALL else 0.0
        else:
            rng = decision_rng(self.seed, info.key)
            worlds = [info.sample_world(rng) for _ in range(self.budget.iterations)]
            tree = _Tree(self.node_limit, self.leaf_exact, self.blind if info.deck is None else 0.0)
            for local in candidates:
                costs[local] = tree.move_cost(worlds, local, self.depth - 1)
            visits = self.budget.iterations
        order = {local: i for i, local in enumerate(PREFERENCE)}
        values = []
        for local in info.locals:
            cost = costs.get(local, math.inf)
            value = -cost if cost != math.inf else -float(NO_CALL_PENALTY + 1 + order[local])
            values.append(
                MoveValue(info.action(local), info.text(info.action(local)), value, visits)
            )
        ranked = sorted(values, key=lambda m: (-m.value, order[m.action - info.action(0)]))
        return Analysis(tuple(ranked), "minus the expected moves to the call")

    def choose(self, info: SpyInfo) -> int:
        """The move with the fewest expected moves to the call; the greedy move unless
        another is expected to save at least :data:`MARGIN` moves (sampling noise
        must not talk it out of a sound move); the greedy move, too, once two whole
        passes of the stock went by with nothing placed."""
        default = info.action(greedy_local(_public_position(info), info.stalled))
        if info.idle > 2 * (info.deck_count + len(info.waste)):
            # Two whole passes of the stock went by with nothing placed: the search
            # finds no way on, and turning on would go round forever. The greedy rule
            # places what fits until the call or a block (S12 note); no search needed.
            return default
        analysis = self.analyse(info)
        by_action = {m.action: m.value for m in analysis.moves}
        best = analysis.best
        margin = self.margin
        if best.action - info.action(0) == TURN and default - info.action(0) in _POINTS_MOVES:
            margin = self.wait_margin
        if best.value - by_action.get(default, -math.inf) < margin:
            return default
        return best.action
