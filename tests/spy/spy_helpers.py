"""Helpers shared by the Spy vs Spy tests: explicit deals, snapshots, exhaustive search.

A module of its own (not conftest.py) so tests import it by a name no other test
folder uses."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from cardtable.cards import KIND_TEXT, parse_card_kind
from cardtable.games.spy.actions import CALL, RESIGN, TURN
from cardtable.games.spy.position import Position
from cardtable.games.spy.state import SpyState


def hands(*firsts: Sequence[str], full_decks: bool = False) -> list[list[str]]:
    """Legal cards for ``len(firsts)`` players: each player's cards start (top first)
    with the given texts and are filled up with the unused cards in kind order.

    Two players without ``full_decks`` split one deck, 26 each; otherwise each player
    holds a full deck.
    """
    players = len(firsts)
    if players == 2 and not full_decks:
        used = [parse_card_kind(t) for first in firsts for t in first]
        assert len(used) == len(set(used)), "a card is given twice"
        spare = [k for k in range(52) if k not in used]
        out = []
        for first in firsts:
            need = 26 - len(first)
            out.append([*first, *(KIND_TEXT[k] for k in spare[:need])])
            spare = spare[need:]
        return out
    out = []
    for first in firsts:
        kinds = [parse_card_kind(t) for t in first]
        assert len(kinds) == len(set(kinds))
        out.append([*first, *(KIND_TEXT[k] for k in range(52) if k not in kinds)])
    return out


def snapshot(state: SpyState) -> tuple[Any, ...]:
    """Everything that makes a state, hidden cards included, as comparable values."""
    seats = tuple(
        (
            tuple(s.points),
            tuple(tuple(p) for p in s.piles),
            tuple(s.tops),
            tuple(s.deck),
            tuple(s.waste),
            s.need,
            s.blocked,
            s.resigned,
            s.called,
            s.moves,
            tuple(s.legal),
        )
        for s in state.seats
    )
    return (
        state.phase,
        state.round_number,
        seats,
        state.results,
        tuple(state.totals),
        tuple(state.moves()),
    )


def can_ever_place(position: Position) -> bool:
    """Exhaustive search: can any sequence of moves (turns, placements, openings) from
    ``position`` ever put a card on a pile? Explores every reachable position."""
    seen: set[tuple[Any, ...]] = set()
    queue = deque([position.copy()])
    while queue:
        pos = queue.popleft()
        key = (tuple(pos.points), tuple(pos.tops), tuple(pos.deck), tuple(pos.waste))
        if key in seen:
            continue
        seen.add(key)
        for action in pos.legal:
            local = action - pos.base
            if local in (CALL, RESIGN):
                continue
            if local != TURN:
                return True  # a placement or an opening puts a card on a pile
            nxt = pos.copy()
            nxt.play(local)
            queue.append(nxt)
    return False
