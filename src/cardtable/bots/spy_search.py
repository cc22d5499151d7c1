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

from cardtable.games.spy.actions import CALL, MAX_PILES, RESIGN, TURN
from cardtable.games.spy.position import FITS, Position

__all__ = ["RaceSearch", "greedy_local", "greedy_race", "heuristic", "shortest_race"]


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
    when the search found none) is returned with ``proven`` False.
    """
    if pos.called:
        return RaceSearch(0, (), True, 0)
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
