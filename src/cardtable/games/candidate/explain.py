"""Why a Candidate move is refused: every illegal-move reason of the engine.

:func:`refusal` says why an action is not legal in a position (C7, C8, C12 and whose
decision it is) as a message id of :mod:`cardtable.messages` and its parameters;
:meth:`CandidateState.apply <cardtable.games.candidate.state.CandidateState.apply>`
raises :class:`~cardtable.errors.IllegalMove` with it, and a face says it in the
player's language. :func:`explain` is the same reason in the engine's English, the
text of the CLI and records. :func:`deal_over` is the refusal of a record move after its
deal ended. Only refusals are computed here, never legality: the legal moves come from
:mod:`~cardtable.games.candidate.plays`. Rules: ``docs/rules/candidate.en.md``.

>>> from cardtable.games.candidate.state import CandidateState
>>> from cardtable.games.candidate.actions import text_to_action
>>> state = CandidateState.new(seed=7)
>>> explain(state, text_to_action("pass"))
'now is not the time for that: the player to move must deal the hands: deal S, H, D or C'
>>> refusal(state, text_to_action("pass")).code
'candidate.wrong_decision'
>>> print(refusal(state, text_to_action("pass")).text("uk"))
зараз не час для цього: гравець, що ходить, має роздати руки: deal S, H, D або C
"""

from __future__ import annotations

from collections import Counter

from cardtable.cards import KIND_TEXT, RANK_TEXT
from cardtable.games.candidate.actions import (
    DRAW_BASE,
    LOBBY_BASE,
    NUM_ACTIONS,
    PASS,
    PILE_LETTERS,
    PLAY_BASE,
    PLAY_CARDS,
)
from cardtable.games.candidate.position import CandidatePosition
from cardtable.messages import Refusal, make_refusal

__all__ = ["deal_over", "explain", "refusal", "why_not_next"]


def explain(state: CandidatePosition, action: int) -> str:
    """Why ``action`` is not legal now in ``state``, in a player's words (English)."""
    return refusal(state, action).text()


#: The message term of what each decision asks for.
_WANTED = {
    "deal": "term.decision_deal",
    "lobby": "term.decision_lobby",
    "draw": "term.decision_draw",
    "play": "term.decision_play",
}


def refusal(state: CandidatePosition, action: int) -> Refusal:
    """Why ``action`` is not legal now in ``state``: a message id and its parameters."""
    decision = state.decision
    if decision is None:
        return make_refusal("candidate.match_over")  # C17
    if not 0 <= action < NUM_ACTIONS or (
        action >= PLAY_BASE and not PLAY_CARDS[action - PLAY_BASE]
    ):
        return make_refusal("candidate.not_a_move", action=action, last=NUM_ACTIONS - 1)
    decision_of_move = (
        "play"
        if action >= PLAY_BASE or action == PASS
        else "draw"
        if action >= DRAW_BASE
        else "lobby"
        if action >= LOBBY_BASE
        else "deal"
    )
    if decision_of_move != decision:
        return make_refusal("candidate.wrong_decision", wanted_term=_WANTED[decision])
    if decision in ("lobby", "draw"):
        return make_refusal(
            "candidate.pile_empty", pile_suit=PILE_LETTERS[(action - LOBBY_BASE) % 4]
        )
    hand = state.hand(state.current_player)
    if action == PASS:
        return make_refusal("candidate.may_not_pass")  # C12
    cards = PLAY_CARDS[action - PLAY_BASE]
    held = Counter(hand)
    for kind, count in Counter(cards).items():
        if held[kind] < count:
            if held[kind] == 0:
                return make_refusal("candidate.not_held", card=KIND_TEXT[kind])
            return make_refusal(
                "candidate.held_fewer", card=KIND_TEXT[kind], held=held[kind], count=count
            )
    lobby = list(state.lobby)
    for kind in cards:
        reason = why_not_next(lobby, kind)
        if reason:
            return reason
        lobby.append(kind)
    return make_refusal("candidate.move_not_legal")


def deal_over(deal_number: int) -> Refusal:
    """A record gives a move after deal ``deal_number`` (from 1) ended, or after the
    match ended (docs/records.md)."""
    return make_refusal("candidate.deal_over", deal=deal_number)


def why_not_next(lobby: list[int], kind: int) -> Refusal | None:
    """Why ``kind`` cannot be placed next on ``lobby`` (C7), or None if it can."""
    if not lobby:
        return None  # C12: any card starts an empty lobby
    rank = kind % 13
    last = lobby[-1] % 13
    card = KIND_TEXT[kind]
    if len(lobby) == 1:
        if rank == last or rank == last + 1:
            return None
        if last < 12:
            return make_refusal(
                "candidate.lobby_not_continued",
                card=card,
                lobby_card=KIND_TEXT[lobby[0]],
                next_rank=RANK_TEXT[last + 1],
                rank=RANK_TEXT[last],
            )
        return make_refusal(
            "candidate.lobby_not_continued_at_ace",
            card=card,
            lobby_card=KIND_TEXT[lobby[0]],
            rank=RANK_TEXT[last],
        )
    if lobby[0] % 13 == lobby[1] % 13:
        if rank == last:
            return None
        return make_refusal("candidate.set_not_continued", card=card, rank=RANK_TEXT[last])
    if rank == last + 1:
        return None
    run = "-".join(RANK_TEXT[k % 13] for k in lobby)
    if last == 12:
        return make_refusal("candidate.run_ends_at_ace", card=card, run_ranks=run)
    return make_refusal(
        "candidate.run_not_continued", card=card, run_ranks=run, next_rank=RANK_TEXT[last + 1]
    )
