"""Candidate move context: what a move does to the position it is played in.

The learned networks score a move by fixed features of the move itself (the cards it
spends, the pile it takes; :mod:`cardtable.bots.learned_net`), weighted by what the
network reads of the position. What a play is worth depends on the lobby it joins —
the capture score (C15) of the lobby with the play added — and a product of position
and move features can only approximate that. The policy-and-value network of expert
iteration therefore also reads :data:`CONTEXT_FEATURES` numbers per move, computed
here from the lobby, who placed its last card and the pile sizes:

0. the one-move heuristic's value of the move (``greedy``'s, :mod:`.candidate_greedy`);
1. for a play, the capture score of the lobby with its cards added;
2. for a play, what it adds to the lobby's capture score;
3. for a pass, 1 when the lobby's last card is the mover's (passing takes it);
4. for a pass, the lobby's worth, positive when the mover would take it and negative
   when the opponent would;
5. for a deal, lobby or draw move, the size of its pile.

Scores are divided by :data:`SCORE_SCALE`, pile sizes by 13. All of it is public or
the mover's own: the same in every state drawn from the mover's information set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cardtable.bots.candidate_greedy import SPEND, lobby_is_ours
from cardtable.cards import parse_card_kind
from cardtable.games.candidate import CandidateState, capture_score, card_points
from cardtable.games.candidate.actions import PASS, play_cards
from cardtable.games.candidate.info import CandidateInfo

__all__ = [
    "CONTEXT_FEATURES",
    "SCORE_SCALE",
    "Context",
    "context_of_info",
    "context_of_state",
    "move_context",
]

#: Numbers per move (module docstring).
CONTEXT_FEATURES = 6
#: Capture scores are divided by this (a long run of high cards scores a few hundred).
SCORE_SCALE = 50.0


class Context(NamedTuple):
    """What the move context reads of a position: the lobby's card kinds in the order
    placed, whether its last card is the mover's, and the four piles' sizes (S H D C)."""

    lobby: tuple[int, ...]
    ours: bool
    sizes: tuple[int, int, int, int]


def context_of_info(info: CandidateInfo) -> Context:
    """The context of the seat's own decision."""
    view = info.view
    sizes = dict(view.piles)
    return Context(
        tuple(parse_card_kind(t) for t in view.lobby),
        lobby_is_ours(info),
        (sizes.get("S", 0), sizes.get("H", 0), sizes.get("D", 0), sizes.get("C", 0)),
    )


def context_of_state(state: CandidateState) -> Context:
    """The context of the player to move in ``state`` (the same numbers as
    :func:`context_of_info` of that player's information set; the tests hold them
    equal)."""
    lobby = tuple(state.lobby)
    moves = state.moves
    # lobby_is_ours: the last move was the opponent's pass after the mover's own card.
    ours = bool(moves) and moves[-1] == PASS and bool(lobby)
    ours = ours and (len(lobby) > 1 or state.leader == state.current_player)
    sizes = (
        len(state.pile(0)),
        len(state.pile(1)),
        len(state.pile(2)),
        len(state.pile(3)),
    )
    return Context(lobby, ours, sizes)


def move_context(context: Context, action: int) -> tuple[float, ...]:
    """The :data:`CONTEXT_FEATURES` numbers of ``action`` in ``context`` (docstring)."""
    lobby = context.lobby
    if action < PASS:  # deal, lobby or draw from pile action % 4
        size = context.sizes[action % 4] / 13.0
        return (size, 0.0, 0.0, 0.0, 0.0, size)
    worth = capture_score(lobby) / SCORE_SCALE if lobby else 0.0
    if action == PASS:
        if context.ours:
            return (worth, 0.0, 0.0, 1.0, worth, 0.0)
        return (0.0, 0.0, 0.0, 0.0, -worth, 0.0)
    cards: Sequence[int] = play_cards(action)
    after = capture_score(list(lobby) + list(cards)) / SCORE_SCALE
    spent = SPEND * sum(card_points(k) for k in cards) / SCORE_SCALE
    return (after - spent, after, after - worth, 0.0, 0.0, 0.0)
