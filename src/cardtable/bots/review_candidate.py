"""Candidate analysis of a played record: every decision judged in points (docs/analysis.md).

For each decision of each player the analysis asks, from that player's information
set only (:class:`~cardtable.games.candidate.info.CandidateInfo`, never the true hidden
cards):

1. **Which moves to weigh**: the strongest bot, ISMCTS
   (:class:`~cardtable.bots.candidate_ismcts.IsmctsBot`), searches the decision; its
   :data:`TOP` most visited moves and the move played are weighed.
2. **What each is worth, in points**: :data:`SAMPLES` determinisations — full deals
   consistent with what the player saw, the unseen cards dealt anew by the engine — are
   drawn once and shared by every weighed move (common samples: the differences between
   moves are not blurred by the luck of the draw). On each, the move is made and the
   deal is played out by the greedy bot for both players (C4-C15); the value is the
   deal's final score margin, the player's score minus the opponent's (C15). A move's
   evaluation is the mean over the samples with its standard error.
3. **How bad the move played was**: its *loss* is the best weighed move's mean minus the
   played move's. It is labelled ``inaccuracy``, ``mistake`` or ``blunder`` when the loss
   reaches :data:`INACCURACY`, :data:`MISTAKE` or :data:`BLUNDER` points and also exceeds
   twice the standard error of the paired difference (a loss within the noise of the
   samples is not called a fault). Play-outs after different moves soon part ways, so
   that error is large (docs/analysis.md gives measured figures).

Forced decisions (a single legal move) are evaluated too, for the graph, and never
labelled. Every random draw is seeded from ``seed`` and the information set's key, so
the analysis is deterministic and does not change when cards hidden from the player are
reshuffled.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.bots.base import decision_rng
from cardtable.bots.candidate_greedy import greedy_action
from cardtable.bots.candidate_ismcts import IsmctsBot
from cardtable.games.candidate.actions import action_to_text, text_to_action
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.records import parse_record, record_seed, replay_record
from cardtable.games.candidate.state import CandidateState

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "ISMCTS_ITERATIONS",
    "MISTAKE",
    "SAMPLES",
    "TOP",
    "Decision",
    "MoveEval",
    "ReviewSettings",
    "evaluate_decision",
    "label_for",
    "review_candidate_record",
]

#: Loss, in points of the deal's margin, from which a move is an inaccuracy.
INACCURACY = 3.0
#: … a mistake.
MISTAKE = 6.0
#: … a blunder.
BLUNDER = 12.0

#: Determinisations each weighed move is played out on.
SAMPLES = 16
#: ISMCTS iterations per decision (the ``medium`` level's search is 200, ``hard`` 2000).
ISMCTS_ITERATIONS = 500
#: How many of ISMCTS's most visited moves are weighed beside the move played.
TOP = 2

#: Called after each analysed decision with (decisions done, decisions in all).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How hard the analysis looks (see the module docstring for each figure)."""

    seed: int = 0
    samples: int = SAMPLES
    iterations: int = ISMCTS_ITERATIONS
    top: int = TOP

    def __post_init__(self) -> None:
        if self.samples < 2:
            raise ValueError(f"the analysis needs at least 2 samples, got {self.samples}")
        if self.iterations < 1 or self.top < 1:
            raise ValueError("the analysis needs at least 1 iteration and 1 move weighed")

    def to_dict(self) -> dict[str, int]:
        """JSON-ready form."""
        return {
            "seed": self.seed,
            "samples": self.samples,
            "iterations": self.iterations,
            "top": self.top,
        }


@dataclass(frozen=True, slots=True)
class MoveEval:
    """A weighed move: the mean final margin of the deal for the deciding player, in
    points, and the standard error of that mean over the samples."""

    move: str
    mean: float
    error: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"move": self.move, "mean": round(self.mean, 3), "error": round(self.error, 3)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision judged: the played move's evaluation, the best weighed move's, the
    loss between them with the standard error of the paired difference, and the label
    (None, ``inaccuracy``, ``mistake``, ``blunder``)."""

    played: MoveEval
    best: MoveEval
    weighed: tuple[MoveEval, ...]
    loss: float
    loss_error: float
    label: str | None
    forced: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "played": self.played.to_dict(),
            "best": self.best.to_dict(),
            "weighed": [m.to_dict() for m in self.weighed],
            "loss": round(self.loss, 3),
            "loss_error": round(self.loss_error, 3),
            "label": self.label,
            "forced": self.forced,
        }


def label_for(loss: float, loss_error: float) -> str | None:
    """The label of a loss in points (module docstring, step 3).

    >>> label_for(13.0, 1.0), label_for(7.0, 1.0), label_for(3.5, 1.0), label_for(13.0, 7.0)
    ('blunder', 'mistake', 'inaccuracy', None)
    """
    if loss <= 2 * loss_error:
        return None
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def _playout(world: CandidateState, action: int) -> tuple[int, int]:
    """Make ``action`` in ``world`` (changed) and play the deal out greedily (the greedy
    bot's moves, read from the state: :func:`greedy_action`); the totals at the deal's
    end."""
    deal = world.deal_number
    world.apply_action(action)
    while not world.is_terminal() and world.deal_number == deal:
        world.apply_action(greedy_action(world))
    return world.totals()  # a next deal begun has scored nothing yet (C15, C17)


def evaluate_decision(
    info: CandidateInfo,
    played: int,
    deal_start: tuple[int, int],
    settings: ReviewSettings = ReviewSettings(),
) -> Decision:
    """Judge the move ``played`` in the information set ``info`` (module docstring).

    ``deal_start`` is the totals before the deal began (public), so every value is the
    deal's final margin for ``info.player``. Only ``info`` is read: its key seeds the
    search and the samples, its determinisations deal the unseen cards.
    """
    legal = info.legal
    if played not in legal:
        raise ValueError(f"{action_to_text(played)!r} is not a legal move here")
    forced = len(legal) == 1
    weighed = [played]
    if not forced:
        bot = IsmctsBot(seed=settings.seed, iterations=settings.iterations)
        ranked = [m.action for m in bot.analyse(info).moves[: settings.top]]
        weighed = ranked + [a for a in weighed if a not in ranked]
    rng = decision_rng(settings.seed, "review/" + info.key)
    worlds = [info.determinize(rng) for _ in range(settings.samples)]
    me = info.player
    margins: dict[int, list[float]] = {}
    for action in weighed:
        values = []
        for world in worlds:
            end = _playout(world.clone(), action)
            values.append(float((end[me] - deal_start[me]) - (end[1 - me] - deal_start[1 - me])))
        margins[action] = values
    evals = {a: _move_eval(a, v) for a, v in margins.items()}
    # On a tie the move played is as good as the best; otherwise ISMCTS's order decides.
    best = max(weighed, key=lambda a: (evals[a].mean, a == played))
    diffs = [b - p for b, p in zip(margins[best], margins[played], strict=True)]
    loss = max(0.0, statistics.fmean(diffs))
    loss_error = statistics.stdev(diffs) / math.sqrt(len(diffs))
    return Decision(
        played=evals[played],
        best=evals[best],
        weighed=tuple(evals[a] for a in weighed),
        loss=loss,
        loss_error=loss_error,
        label=None if forced else label_for(loss, loss_error),
        forced=forced,
    )


def _move_eval(action: int, values: list[float]) -> MoveEval:
    return MoveEval(
        action_to_text(action),
        statistics.fmean(values),
        statistics.stdev(values) / math.sqrt(len(values)),
    )


def review_candidate_record(
    record: Mapping[str, Any],
    settings: ReviewSettings = ReviewSettings(),
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Judge every decision of a Candidate record (module docstring).

    The record is replayed first, so a malformed record or an illegal move raises the
    engine's located error (``deal 1, move 17``) before any analysis is done. Each
    decision's ``eval`` is the evaluation of the position for player 0 (the best
    weighed move's mean, turned to player 0's side): the series the graph draws.
    """
    replay_record(record)
    parsed = parse_record(record)
    total = sum(len(deal.moves) for deal in parsed.deals)
    decisions: list[dict[str, Any]] = []
    if not parsed.deals:
        return _result(parsed.players, settings, decisions)
    first = parsed.deals[0]
    state = CandidateState.from_piles(
        first.piles, first.dealer, parsed.options, seed=record_seed(parsed)
    )
    done = 0
    for d, deal in enumerate(parsed.deals):
        if d:
            state.set_deal_piles(deal.piles)
        deal_start = state.totals()
        for j, text in enumerate(deal.moves):
            player = state.current_player
            action = text_to_action(text)
            info = CandidateInfo.of(state.clone(), player)
            judged = evaluate_decision(info, action, deal_start, settings)
            side = 1.0 if player == 0 else -1.0
            decisions.append(
                {
                    "deal": d + 1,
                    "number": j + 1,
                    "player": player,
                    "move": action_to_text(action),
                    "eval": round(side * judged.best.mean, 3),
                    "eval_error": round(judged.best.error, 3),
                    **judged.to_dict(),
                }
            )
            state.apply_action(action)
            done += 1
            if progress is not None:
                progress(done, total)
    return _result(parsed.players, settings, decisions)


def _result(
    players: tuple[str, str], settings: ReviewSettings, decisions: list[dict[str, Any]]
) -> dict[str, Any]:
    counts = [{"inaccuracy": 0, "mistake": 0, "blunder": 0} for _ in players]
    losses: list[list[float]] = [[] for _ in players]
    for decision in decisions:
        if decision["label"] is not None:
            counts[decision["player"]][decision["label"]] += 1
        if not decision["forced"]:
            losses[decision["player"]].append(decision["loss"])
    return {
        "game": "candidate",
        "players": list(players),
        "settings": settings.to_dict(),
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "summary": [
            {
                "player": p,
                "name": players[p],
                "labels": counts[p],
                "mean_loss": round(statistics.fmean(losses[p]), 3) if losses[p] else 0.0,
            }
            for p in range(len(players))
        ],
        "decisions": decisions,
    }
