"""One entry to the analysis of a played record, whatever its game (docs/analysis.md).

:func:`analyse_record` runs :mod:`.review_candidate` or :mod:`.review_spy` at a
:class:`ReviewBudget` and adds to every judged move its ``step``: its place, counted
from 1, in the record's moves taken in order over every deal or round — the step of the
replay (``GET /api/tables/{id}/replay``) that shows the position after the move. The
server's analysis board and the CLI share it, so neither branches on a game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from cardtable.bots.review_candidate import (
    ISMCTS_ITERATIONS,
    SAMPLES,
    ReviewSettings,
    review_candidate_record,
)
from cardtable.bots.review_spy import ORACLE_NODES, PLANNER_WORLDS, review_spy_record

__all__ = ["ANALYSED_GAMES", "ReviewBudget", "analyse_record"]

#: The games an analysis exists for.
ANALYSED_GAMES = ("candidate", "spy")

#: Called after each analysed move with (moves done, moves in all).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """How hard the analysis looks; the defaults are the CLI's (docs/analysis.md).

    Candidate: ``samples`` determinisations per weighed move and ``iterations`` of
    ISMCTS per decision; Spy: the planner's ``worlds`` and the oracle's ``oracle_nodes``.
    """

    seed: int = 0
    samples: int = SAMPLES
    iterations: int = ISMCTS_ITERATIONS
    worlds: int = PLANNER_WORLDS
    oracle_nodes: int = ORACLE_NODES

    def to_dict(self) -> dict[str, int]:
        """JSON-ready form."""
        return asdict(self)


def analyse_record(
    game: str,
    record: Mapping[str, Any],
    budget: ReviewBudget = ReviewBudget(),
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The analysis of a ``game`` record (the JSON of :mod:`.review_candidate` or
    :mod:`.review_spy`), each judged move with its replay ``step``.

    Raises :class:`ValueError` for a game without an analysis, and the engine's located
    error for a malformed record.
    """
    if game == "candidate":
        settings = ReviewSettings(
            seed=budget.seed, samples=budget.samples, iterations=budget.iterations
        )
        data = review_candidate_record(record, settings, progress)
        offsets = _offsets(record, "deals")
        for decision in data["decisions"]:
            decision["step"] = offsets[decision["deal"] - 1] + decision["number"]
        return data
    if game == "spy":
        data = review_spy_record(
            record,
            seed=budget.seed,
            worlds=budget.worlds,
            oracle_nodes=budget.oracle_nodes,
            progress=progress,
        )
        offsets = _offsets(record, "rounds")
        for race in data["races"]:
            for move in race["moves"]:
                move["step"] = offsets[race["round"] - 1] + move["record_number"]
        return data
    raise ValueError(f"no analysis for the game {game!r}")


def _offsets(record: Mapping[str, Any], key: str) -> list[int]:
    """The moves before each deal or round (the record is checked already)."""
    offsets = [0]
    for segment in record[key]:
        offsets.append(offsets[-1] + len(segment["moves"]))
    return offsets
