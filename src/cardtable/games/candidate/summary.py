"""The replay summary as a player's screen shows it: each capture with its score.

The replay summary of ``docs/records.md`` lists every deal's captured sequences and the
deal's scores; a screen that shows a deal's end also shows what each capture scored
(C15 in ``docs/rules/candidate.en.md``), scored here by the engine so no face scores a
capture itself. The record's summary itself is unchanged (its golden files stay).
"""

from __future__ import annotations

from typing import Any

from cardtable.cards import parse_card_kind
from cardtable.games.candidate.scoring import capture_score

__all__ = ["with_capture_scores"]


def with_capture_scores(summary: dict[str, Any]) -> dict[str, Any]:
    """``summary`` with each deal's ``capture_scores`` beside its ``captures`` (C15):
    per player, the score of each captured sequence, in the same order.

    >>> with_capture_scores({"game": "candidate", "deals": [
    ...     {"captures": [[["9C", "10D"]], [["10D", "10C", "10S"]]], "scores": [4, 9]}]}
    ... )["deals"][0]["capture_scores"]
    [[4], [9]]
    """
    for deal in summary["deals"]:
        deal["capture_scores"] = [
            [capture_score([parse_card_kind(card) for card in seq]) for seq in side]
            for side in deal["captures"]
        ]
    return summary
