"""Writing a Candidate match as a game record (``docs/records.md``).

A record is the options, the players and every deal begun so far: its dealer, its four
piles as dealt and its moves as text. Reading, checking and replaying a record is
:mod:`~cardtable.games.candidate.records`; this module only writes one, from a position,
so that :meth:`CandidateState.to_record
<cardtable.games.candidate.state.CandidateState.to_record>` can use it.

>>> from cardtable.games.candidate.state import CandidateState
>>> record = to_record(CandidateState.new(seed=7), ["Ann", "Bob"])
>>> record["players"], record["deals"][0]["dealer"], record["deals"][0]["moves"]
(['Ann', 'Bob'], 1, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.cards import KIND_TEXT
from cardtable.games.candidate.actions import PILE_LETTERS, action_to_text
from cardtable.games.candidate.position import CandidatePosition

__all__ = ["deal_records", "to_record"]


def deal_records(state: CandidatePosition) -> list[dict[str, Any]]:
    """The ``deals`` of the match's record (docs/records.md): every deal begun so far."""
    deals = [(d.dealer, d.piles, d.moves) for d in state.history]
    if not state.is_terminal():
        deals.append((state.dealer, state.piles, tuple(state.moves)))
    return [
        {
            "dealer": dealer,
            "piles": {PILE_LETTERS[s]: [KIND_TEXT[k] for k in piles[s]] for s in range(4)},
            "moves": [action_to_text(a) for a in moves],
        }
        for dealer, piles, moves in deals
    ]


def to_record(
    state: CandidatePosition, players: Sequence[str] = ("Player 1", "Player 2")
) -> dict[str, Any]:
    """The match as a game record (docs/records.md): options, every deal's piles and moves.

    The current deal is included even before its first move, so a saved game resumes
    with the same cards.
    """
    return {
        "game": "candidate",
        "options": state.options.to_dict(),
        "players": list(players),
        "deals": deal_records(state),
    }
