"""Shortest races: A* search over one player's Spy position when every card is known.

A Spy player races alone (players never touch each other's cards), so the fewest
moves from a position to the call is a single-agent shortest-path problem on that
player's :class:`~cardtable.games.spy.position.Position`. The engine's own ``play``
makes every move, so the search can only ever make legal moves (S6-S10).

Two positions are the same search node when they agree on what can still matter: the
number of points cards left with their ranks, the multiset of pile-top ranks, and the
ranks of the racing deck and the waste in order (suits never matter, S6; which pile
holds which top does not matter either). The heuristic — one move per points card
left, one for the call, one more when the points-pile top fits nowhere and no pile
can be opened — never overestimates, so a search that finishes is optimal.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import NamedTuple

from cardtable.games.spy import engine
from cardtable.games.spy.actions import CALL, MAX_PILES, RESIGN, TURN
from cardtable.games.spy.position import FITS, Position

__all__ = [
    "COVER",
    "RaceCount",
    "RaceSearch",
    "RaceState",
    "greedy_local",
    "greedy_race",
    "heuristic",
    "race_moves",
    "race_state",
    "shortest_race",
]


@dataclass(frozen=True, slots=True)
class RaceSearch:
    """The outcome of a search from one position.

    ``moves`` is the number of moves to the call (the call included) or None when no
    call was found; ``path`` the local moves (0..16) of the best race found;
    ``proven`` says the search finished, so ``moves`` is the minimum (or, when None,
    that no sequence of moves ever reaches the call); ``nodes`` counts expansions.
    """

    moves: int | None
    path: tuple[int, ...]
    proven: bool
    nodes: int


def _key(pos: Position) -> tuple[object, ...]:
    return (
        tuple(k % 13 for k in pos.points),
        tuple(sorted(pos.tops)),
        tuple(k % 13 for k in pos.deck),
        tuple(k % 13 for k in pos.waste),
    )


def heuristic(pos: Position) -> int:
    """A lower bound on the moves to the call (see the module docstring)."""
    points = pos.points
    if not points:
        return 1
    bound = len(points) + 1
    if len(pos.tops) == MAX_PILES and not pos.need >> (points[-1] % 13) & 1:
        bound += 1
    return bound


def greedy_local(pos: Position, stalled: bool = False) -> int:
    """The greedy move (a local id): call; place the points-pile top; open a pile with
    it; place the waste top when it *bridges* (the points-pile top fits on it) — or on
    any pile when ``stalled`` (a whole pass of the deck went by with no card placed);
    open a pile with such a waste card while two or more pile slots are free; else turn.
    Resign only when nothing else is legal or when blocked.

    Placing points cards is the only progress; a waste card is worth placing when it
    makes the points-pile top fit. Placing other waste cards only spoils pile tops the
    hidden points cards may need, unless turning alone has stopped helping. The last
    free pile slot is kept for a points card.
    """
    base = pos.base
    legal = pos.legal
    if pos.blocked or not legal:
        return RESIGN
    locals_ = [a - base for a in legal]
    if CALL in locals_:
        return CALL
    for local in locals_:
        if 1 <= local <= 6:
            return local  # place the points-pile top (S6-S7)
    if 13 in locals_:
        return 13  # open points (S8)
    points = pos.points
    waste = pos.waste
    if waste:
        bridge = not points or bool(FITS[waste[-1] % 13] >> (points[-1] % 13) & 1)
        for local in locals_:
            if 7 <= local <= 12 and (bridge or stalled or TURN not in locals_):
                return local  # a waste card that lets the points-pile top fit next
        if 14 in locals_ and (bridge or stalled) and len(pos.tops) <= MAX_PILES - 2:
            return 14
    if TURN in locals_:
        return TURN
    return locals_[0]


def shortest_race(pos: Position, node_limit: int = 200_000) -> RaceSearch:
    """A* from ``pos`` to the call, expanding at most ``node_limit`` positions.

    Without a proof within the limit, the best race found so far (the greedy race
    when the search found none) is returned with ``proven`` False. The compiled core,
    when in use, runs the same search (same expansions, same result).
    """
    if pos.called:
        return RaceSearch(0, (), True, 0)
    compiled = engine.core()
    if compiled is not None:
        moves, path, proven, nodes = compiled.shortest_race(pos, node_limit)
        return RaceSearch(moves, path, True, nodes) if proven else _greedy_race(pos, nodes)
    start = pos.copy()
    start.limit = 1 << 62
    start.refresh()
    counter = 0
    frontier: list[tuple[int, int, int, Position, tuple[int, ...]]] = [
        (heuristic(start), 0, counter, start, ())
    ]
    best_g: dict[tuple[object, ...], int] = {_key(start): 0}
    nodes = 0
    while frontier:
        _, neg_g, _, node, path = heapq.heappop(frontier)
        g = -neg_g
        if best_g.get(_key(node), 1 << 30) < g:
            continue
        if nodes >= node_limit:
            break
        nodes += 1
        base = node.base
        for action in node.legal:
            local = action - base
            if local == RESIGN:
                continue
            if local == CALL:
                # The heuristic is exact (1) when the points pile is empty, so the
                # first call popped with f == g + 1 is optimal; push it as a goal.
                counter += 1
                heapq.heappush(frontier, (g + 1, -(g + 1), counter, node, (*path, CALL)))
                continue
            child = node.copy()
            child.play(local)
            if child.blocked:
                continue
            key = _key(child)
            if best_g.get(key, 1 << 30) <= g + 1:
                continue
            best_g[key] = g + 1
            counter += 1
            heapq.heappush(
                frontier, (g + 1 + heuristic(child), -(g + 1), counter, child, (*path, local))
            )
        # Goals are pushed with their full cost; pop order makes the first one optimal.
        if frontier and frontier[0][4] and frontier[0][4][-1] == CALL:
            cost, _, _, _, goal = frontier[0]
            return RaceSearch(cost, goal, True, nodes)
    if not frontier:
        return RaceSearch(None, (), True, nodes)
    return _greedy_race(pos, nodes)


def _greedy_race(pos: Position, nodes: int, cap: int = 2000) -> RaceSearch:
    """The greedy race from ``pos`` (an upper bound when the search ran out)."""
    node = pos.copy()
    node.limit = 1 << 62
    node.refresh()
    path: list[int] = []
    idle = 0
    for _ in range(cap):
        local = greedy_local(node, idle > len(node.deck) + len(node.waste))
        idle = idle + 1 if local == TURN else 0
        if local == RESIGN:
            return RaceSearch(None, tuple(path), False, nodes)
        path.append(local)
        if local == CALL:
            return RaceSearch(len(path), tuple(path), False, nodes)
        node.play(local)
    return RaceSearch(None, tuple(path), False, nodes)


def greedy_race(pos: Position, cap: int = 300) -> int | None:
    """Moves to the call when the greedy rule plays on from ``pos``, or None."""
    compiled = engine.core()
    if compiled is not None:
        moves: int | None = compiled.greedy_race(pos, cap)
        return moves
    node = pos.copy()
    moves = 0
    idle = 0
    while moves < cap:
        local = greedy_local(node, idle > len(node.deck) + len(node.waste))
        if local == RESIGN:
            return None
        moves += 1
        if local == CALL:
            return moves
        idle = idle + 1 if local == TURN else 0
        node.play(local)
        if node.blocked:
            return None
    return None


# --- Fast exact search over "turn to a card, then play it" steps -------------------------
#
# Turning changes nothing but which stock card is on top of the waste, and a points-pile
# placement commutes with turns, so some shortest race has every run of turns directly
# before a waste card is played. The search below therefore moves in steps: play the
# points-pile top (1 move), or turn until stock card ``j`` is the waste top and play it
# (the turns + 1 moves). The stock is the waste (bottom first) followed by the racing
# deck (top first): turning walks along it and, at its end, starts again from its
# first card (S9), so its order never changes; played cards simply leave it.


def _cover(ranks: int) -> int:
    """The fewest ranks whose neighbours (S6) include every rank in bitmask ``ranks``.

    Rank ``w`` has neighbours ``w - 1`` and ``w + 1``: stepping by two around the 13
    ranks visits every rank once, so the ranks form one cycle in which each card's
    two neighbours are consecutive; a run of ``n`` ranks needs ``ceil(n / 2)`` cards.
    """
    if ranks == (1 << 13) - 1:
        return 7
    cycle = [(2 * i) % 13 for i in range(13)]
    start = next(i for i in range(13) if not ranks >> cycle[i] & 1)
    count = run = 0
    for step in range(1, 14):
        if ranks >> cycle[(start + step) % 13] & 1:
            run += 1
        else:
            count += (run + 1) // 2
            run = 0
    return count


#: ``COVER[mask]``: :func:`_cover` for every 13-bit rank mask.
COVER: tuple[int, ...] = tuple(_cover(m) for m in range(1 << 13))

#: A stock/points state for :func:`race_moves`: points ranks (next first), pile-top
#: ranks, stock ranks in turn order, and how many of the stock's cards are on the waste.
RaceState = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def race_state(pos: Position) -> RaceState:
    """The parts of ``pos`` a race depends on: ranks only (S6: suits never matter)."""
    waste = pos.waste
    return (
        tuple(k % 13 for k in reversed(pos.points)),
        tuple(pos.tops),
        tuple(k % 13 for k in waste) + tuple(k % 13 for k in reversed(pos.deck)),
        len(waste),
    )


class RaceCount(NamedTuple):
    """What :func:`race_moves` found: ``moves`` to the call (the call included), None
    when there is no way to the call; ``proven`` False when the search ran out of
    expansions first, ``moves`` then None and ``bound`` a lower bound on them."""

    moves: int | None
    proven: bool
    bound: int


def race_moves(state: RaceState, node_limit: int = 50_000) -> RaceCount:
    """The fewest moves from ``state`` to the call (the call included): A* over steps.
    The bound — one move per points card left, one for the call, and one per waste card
    that must still be played (:data:`COVER` of the ranks of the points cards that fit
    neither a pile top now nor a points card before them, less the free pile slots) —
    never overestimates, so the first call reached is the shortest.
    A points-pile top that fits no pile, with no pile to open and no card left in the
    stock that could ever go under it, ends that branch (S12 and more: it never moves).
    The compiled core, when in use, runs the same search (same expansions, same result).
    """
    points, tops0, seq, waste_count = state
    compiled = engine.core()
    if compiled is not None and len(seq) < 64:
        return RaceCount(*compiled.race_moves(points, tops0, seq, waste_count, node_limit))
    total = len(points)
    present = (1 << len(seq)) - 1
    q0 = (present & ((1 << waste_count) - 1)).bit_length()
    # For each rank, the stock positions holding one of its two neighbours (S6).
    near = [0] * 13
    for j, rank in enumerate(seq):
        for r in ((rank + 1) % 13, (rank - 1) % 13):
            near[r] |= 1 << j
    fits = FITS
    start_tops = tuple(sorted(tops0))
    seen: dict[tuple[int, tuple[int, ...], int, int], int] = {}
    frontier: list[tuple[int, int, int, tuple[int, ...], int, int]] = []

    # For each points card, the ranks of the points cards that could be placed on it.
    extra_cache: dict[tuple[int, int], int] = {}

    def extra(k: int, need: int, free: int) -> int:
        """Waste cards that must still be played: each points card fitting neither a
        pile top now nor a points card before it needs a waste card beside it (one
        waste rank serves its two neighbours) unless it opens a free pile."""
        lonely = extra_cache.get((k, need))
        if lonely is None:
            lonely = 0
            earlier = need
            for m in range(k, total):
                rank = points[m]
                if not earlier >> rank & 1:
                    lonely |= 1 << rank
                earlier |= fits[rank]
            lonely = extra_cache[(k, need)] = COVER[lonely]
        return lonely - free if lonely > free else 0

    def push(g: int, k: int, tops: tuple[int, ...], mask: int, q: int) -> None:
        key = (k, tops, mask, q)
        if seen.get(key, 1 << 30) <= g:
            return
        seen[key] = g
        if k == total:
            heapq.heappush(frontier, (g + 1, -g, k, tops, mask, q))
            return
        rank = points[k]
        need = 0
        for top in tops:
            need |= fits[top]
        if not need >> rank & 1 and len(tops) == MAX_PILES and not near[rank] & mask:
            return  # nothing can ever go under the points-pile top
        bound = g + total - k + 1 + extra(k, need, MAX_PILES - len(tops))
        heapq.heappush(frontier, (bound, -g, k, tops, mask, q))

    push(0, 0, start_tops, present, q0)
    start_bound = frontier[0][0] if frontier else 0
    nodes = 0
    while frontier:
        bound, neg_g, k, tops, mask, q = heapq.heappop(frontier)
        g = -neg_g
        if seen.get((k, tops, mask, q), -1) < g:
            continue  # a shorter way here was found after this entry was pushed
        if k == total:
            return RaceCount(g + 1, True, g + 1)  # the call
        if nodes >= node_limit:
            return RaceCount(None, False, max(bound, start_bound))
        nodes += 1
        need = 0
        for top in tops:
            need |= fits[top]
        free = len(tops) < MAX_PILES
        rank = points[k]
        # Play the points-pile top: onto each distinct fitting top, or a new pile.
        if need >> rank & 1:
            done = 0
            for i, top in enumerate(tops):
                if fits[top] >> rank & 1 and not done >> top & 1:
                    done |= 1 << top
                    push(g + 1, k + 1, tuple(sorted((*tops[:i], rank, *tops[i + 1 :]))), mask, q)
        if free:
            push(g + 1, k + 1, tuple(sorted((*tops, rank))), mask, q)
        # Turn to stock card j and play it. Turn order: the waste top (no turn), the
        # deck's cards, then from the stock's first card again.
        if not mask:
            continue
        below = mask & ((1 << q) - 1)
        above = mask & ~((1 << q) - 1)
        order: list[int] = []
        if below:
            order.append(below.bit_length() - 1)
        bits = above
        while bits:
            low = bits & -bits
            order.append(low.bit_length() - 1)
            bits ^= low
        bits = below & ~(1 << (below.bit_length() - 1)) if below else 0
        while bits:
            low = bits & -bits
            order.append(low.bit_length() - 1)
            bits ^= low
        turns = 0 if below else 1
        for j in order:
            card = seq[j]
            if need >> card & 1 or free:
                rest = mask & ~(1 << j)
                nq = (rest & ((1 << j) - 1)).bit_length()
                cost = g + turns + 1
                if need >> card & 1:
                    done = 0
                    for i, top in enumerate(tops):
                        if fits[top] >> card & 1 and not done >> top & 1:
                            done |= 1 << top
                            push(
                                cost, k, tuple(sorted((*tops[:i], card, *tops[i + 1 :]))), rest, nq
                            )
                if free:
                    push(cost, k, tuple(sorted((*tops, card))), rest, nq)
            turns += 1
    return RaceCount(None, True, 1 << 30)
