"""Spy analysis of a played record: every player's race, move by move (docs/analysis.md).

Players never touch each other's cards (S3), so each player's race is analysed alone,
on the cards the record dealt them, with the moves they made. After every move two
figures are kept:

- **shortest**: the oracle's shortest finish still possible — the fewest moves to the
  call (the call included) from that position, with every card visible
  (:class:`~cardtable.bots.spy_oracle.OracleBot`, exact A*). It is what the cards
  allowed, not what anyone could know.
- **fair**: the planner's estimate of the moves to the call from the same position,
  from the player's own information only (:class:`~cardtable.bots.spy_planner.PlannerBot`
  given the seat's :class:`~cardtable.games.spy.info.SpyInfo`: the deck's order is
  sampled, never read).

A move that leaves the shortest finish longer than one move less than before
*lengthened* the race; it is marked ``hindsight`` when the player could not have known
(the planner, seeing what the player saw, valued the move within :data:`FAIR_MARGIN`
moves of its best) and ``mistake`` when even a fair player would have avoided it (the
planner expected another move to save at least :data:`FAIR_MARGIN` moves).

The oracle's shortest race from the deal is set beside the player's own, with the first
move where they part. Everything is deterministic: the planner's worlds are seeded from
``seed`` and the information set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.bots.spy_oracle import OracleBot
from cardtable.bots.spy_planner import PlannerBot
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    CALL,
    RESIGN,
    action_to_text,
    text_to_action,
)
from cardtable.games.spy.info import SpyTracker
from cardtable.games.spy.position import Position
from cardtable.games.spy.records import read_record, replay_record
from cardtable.games.spy.views import SeatWindow

__all__ = [
    "FAIR_MARGIN",
    "ORACLE_NODES",
    "PLANNER_WORLDS",
    "SpyMove",
    "SpyRace",
    "review_spy_race",
    "review_spy_record",
]

#: Expected moves another move must save, by the planner's estimate, for a lengthening
#: move to count as one a fair player would have avoided (the planner's own margin).
FAIR_MARGIN = 0.5

#: Sampled worlds per planner estimate (the ``hard`` level's 16).
PLANNER_WORLDS = 16

#: Positions the oracle may expand per search before it settles for the best race found.
ORACLE_NODES = 200_000

#: Called after each analysed move with (moves done, moves in all).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class SpyMove:
    """One move of a player's race and the figures around it.

    ``shortest_before``/``shortest_after``: the oracle's moves to the call before and
    after the move (None: no call can be reached); ``lost``: moves the move added to the
    shortest finish (0 for a move on a shortest race; None when the call was lost);
    ``fair_before``: the planner's expected moves to the call before the move (after
    its best move, ``best``); ``fair_played``: its expected moves after the played move
    (each including the move itself); ``mark``: ``None``,
    ``"hindsight"`` or ``"mistake"`` (module docstring).
    """

    number: int  # 1-based within the player's race
    record_number: int  # 1-based within the round's moves
    move: str
    shortest_before: int | None
    shortest_after: int | None
    lost: int | None
    fair_before: float
    fair_played: float
    best: str
    oracle_best: str | None
    mark: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "number": self.number,
            "record_number": self.record_number,
            "move": self.move,
            "shortest_before": self.shortest_before,
            "shortest_after": self.shortest_after,
            "lost": self.lost,
            "fair_before": round(self.fair_before, 3),
            "fair_played": round(self.fair_played, 3),
            "best": self.best,
            "oracle_best": self.oracle_best,
            "mark": self.mark,
        }


@dataclass(frozen=True, slots=True)
class SpyRace:
    """One player's race in one round: the moves, the oracle's race from the deal and
    the first move where the player's race parts from it (None: it never does)."""

    round: int  # 1-based
    player: int
    name: str
    called: bool
    moves: tuple[SpyMove, ...]
    oracle_race: tuple[str, ...]
    oracle_proven: bool
    parts_at: int | None

    @property
    def marks(self) -> dict[str, int]:
        """How many moves carry each mark."""
        counts = {"hindsight": 0, "mistake": 0}
        for move in self.moves:
            if move.mark is not None:
                counts[move.mark] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "round": self.round,
            "player": self.player,
            "name": self.name,
            "called": self.called,
            "played": [m.move for m in self.moves],
            "oracle_race": list(self.oracle_race),
            "oracle_proven": self.oracle_proven,
            "parts_at": self.parts_at,
            "marks": self.marks,
            "moves": [m.to_dict() for m in self.moves],
        }


def _local_text(action: int) -> str:
    """A move's text without the player's index (``turn``, ``place points 2``)."""
    return action_to_text(action).split(" ", 1)[1]


def review_spy_race(
    cards: tuple[int, ...],
    player: int,
    actions: list[tuple[int, int]],
    *,
    seed: int = 0,
    worlds: int = PLANNER_WORLDS,
    oracle_nodes: int = ORACLE_NODES,
    round_number: int = 1,
    name: str = "",
    progress: Callable[[], None] | None = None,
) -> SpyRace:
    """Analyse one player's race: ``cards`` as dealt (a record's ``cards[p]``) and the
    player's ``actions`` as (record move number, action id), in order, all legal."""
    oracle = OracleBot(iterations=oracle_nodes)
    planner = PlannerBot(seed=seed, iterations=worlds)
    pos = Position.deal(player, cards)
    tracker = SpyTracker(SeatWindow(pos))
    start = oracle.race(pos)
    oracle_race = tuple(_local_text(local) for local in start.path)
    shortest = start.moves
    moves: list[SpyMove] = []
    parts_at: int | None = None
    for index, (record_number, action) in enumerate(actions):
        local = action - pos.base
        if parts_at is None and (index >= len(start.path) or start.path[index] != local):
            parts_at = index + 1
        analysis = planner.analyse(tracker.info(pos.legal))
        by_action = {m.action: -m.value for m in analysis.moves}
        fair_before = -analysis.best.value
        fair_played = by_action[action]
        before = shortest
        oracle_best: str | None = None
        if before is not None and before > 0:
            oracle_best = _local_text(oracle.choose_true(pos))
        pos.play(local)
        if local in (CALL, RESIGN):
            after: int | None = 0 if local == CALL else None
        else:
            tracker.moved(local)
            after = None if pos.blocked else oracle.race(pos).moves
        lost: int | None
        if before is None:
            lost = 0  # no call was reachable any more: nothing left to lose
        elif after is None:
            lost = None
        else:
            lost = after + 1 - before
        mark: str | None = None
        if lost is None or lost > 0:
            mark = "mistake" if fair_played - fair_before >= FAIR_MARGIN else "hindsight"
        moves.append(
            SpyMove(
                number=index + 1,
                record_number=record_number,
                move=_local_text(action),
                shortest_before=before,
                shortest_after=after,
                lost=lost,
                fair_before=fair_before,
                fair_played=fair_played,
                best=_local_text(analysis.best.action),
                oracle_best=oracle_best,
                mark=mark,
            )
        )
        shortest = after
        if progress is not None:
            progress()
    return SpyRace(
        round=round_number,
        player=player,
        name=name,
        called=pos.called,
        moves=tuple(moves),
        oracle_race=oracle_race,
        oracle_proven=start.proven,
        parts_at=parts_at,
    )


def review_spy_record(
    record: Mapping[str, Any],
    *,
    seed: int = 0,
    worlds: int = PLANNER_WORLDS,
    oracle_nodes: int = ORACLE_NODES,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Analyse every player's race of every round of a Spy record (module docstring).

    The record is replayed first, so a malformed record or an illegal move raises the
    engine's located error (``round 2, move 3``) before any analysis is done.
    """
    replay_record(record)
    checked = read_record(record)
    per_race: list[tuple[int, int, tuple[int, ...], list[tuple[int, int]]]] = []
    for r, (cards, texts) in enumerate(checked.rounds):
        by_player: dict[int, list[tuple[int, int]]] = {p: [] for p in range(len(cards))}
        for j, text in enumerate(texts):
            action = text_to_action(text)
            by_player[action // ACTIONS_PER_PLAYER].append((j + 1, action))
        for player, actions in by_player.items():
            if not actions:
                continue  # a round begun but not yet played by this player
            per_race.append((r + 1, player, cards[player], actions))
    total = sum(len(actions) for *_, actions in per_race)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    races = [
        review_spy_race(
            cards,
            player,
            actions,
            seed=seed,
            worlds=worlds,
            oracle_nodes=oracle_nodes,
            round_number=number,
            name=checked.players[player],
            progress=step,
        )
        for number, player, cards, actions in per_race
    ]
    return {
        "game": "spy",
        "players": list(checked.players),
        "settings": {"seed": seed, "worlds": worlds, "oracle_nodes": oracle_nodes},
        "fair_margin": FAIR_MARGIN,
        "races": [race.to_dict() for race in races],
    }
