"""What an arena worker is given (the configuration) and what it gives back (results).

:class:`ArenaConfig` and a :class:`~cardtable.arena.schedule.Job` go in, a
:class:`GameResult` comes out. The game drivers (``candidate_games``, ``spy_races``)
and the dispatcher (:mod:`cardtable.arena.play`) both build on these types, which
is why they live apart from the dispatcher: a driver importing the dispatcher that
imports it back would be an import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.bots.registry import BotSpec

__all__ = ["ArenaConfig", "GameResult"]


@dataclass(frozen=True)
class ArenaConfig:
    """Everything a worker needs besides the job: game, bots, seed and rule options."""

    game: str
    bots: tuple[BotSpec, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        """Distinct report names of the bots (a repeated spec gets ``#2``, ``#3`` …)."""
        seen: dict[str, int] = {}
        labels = []
        for spec in self.bots:
            seen[spec.label] = seen.get(spec.label, 0) + 1
            count = seen[spec.label]
            labels.append(spec.label if count == 1 else f"{spec.label}#{count}")
        return labels


@dataclass(frozen=True)
class GameResult:
    """The outcome of one job, seat by seat.

    ``scores`` are the game's own scores (Candidate: points, higher better; Spy: the
    round score S14, lower better); ``ranks`` put them in order, 1 best, equal ranks
    tie — as the match ranks them (:meth:`cardtable.games.base.Match.result`).
    ``metrics`` holds per-seat measurements (e.g. Spy ``moves`` to the call) and
    ``facts`` game-level ones (e.g. the dealer seat, a blocked round).
    """

    index: int
    deal: int
    group: int
    seats: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    metrics: tuple[Mapping[str, float], ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (for saved arena runs)."""
        return {
            "index": self.index,
            "deal": self.deal,
            "group": self.group,
            "seats": list(self.seats),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "metrics": [dict(m) for m in self.metrics],
            "facts": dict(self.facts),
        }
