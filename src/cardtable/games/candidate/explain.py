"""Why a Candidate move is refused: every illegal-move reason of the engine, in English.

:func:`explain` says, in a player's words, why an action is not legal in a position
(C7, C8, C12 and whose decision it is); :meth:`CandidateState.apply
<cardtable.games.candidate.state.CandidateState.apply>` raises
:class:`~cardtable.errors.IllegalMove` with it. :func:`deal_over` is the refusal of a
record move after its deal ended. Only refusals are computed here, never legality: the
legal moves come from :mod:`~cardtable.games.candidate.plays`. The texts are the
engine's English for the CLI and records. Rules: ``docs/rules/candidate.en.md``.

>>> from cardtable.games.candidate.state import CandidateState
>>> from cardtable.games.candidate.actions import text_to_action
>>> state = CandidateState.new(seed=7)
>>> explain(state, text_to_action("pass"))
'now is not the time for that: the player to move must deal the hands: deal S, H, D or C'
"""

from __future__ import annotations

from collections import Counter

from cardtable.cards import KIND_TEXT
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

__all__ = ["deal_over", "explain", "why_not_next"]

_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def explain(state: CandidatePosition, action: int) -> str:
    """Why ``action`` is not legal now in ``state``, in a player's words."""
    decision = state.decision
    if decision is None:
        return "the match is over: no more moves"
    if not 0 <= action < NUM_ACTIONS or (
        action >= PLAY_BASE and not PLAY_CARDS[action - PLAY_BASE]
    ):
        return f"{action} is not a move (action ids run from 0 to {NUM_ACTIONS - 1})"
    wanted = {
        "deal": "deal the hands: deal S, H, D or C",
        "lobby": "turn a lobby card: lobby X for a non-empty pile X",
        "draw": "draw a card: draw X for a non-empty pile X",
        "play": "play cards onto the lobby or pass",
    }[decision]
    kind_of_move = (
        "play"
        if action >= PLAY_BASE or action == PASS
        else "draw"
        if action >= DRAW_BASE
        else "lobby"
        if action >= LOBBY_BASE
        else "deal"
    )
    if kind_of_move != decision:
        return f"now is not the time for that: the player to move must {wanted}"
    if decision in ("lobby", "draw"):
        return f"pile {PILE_LETTERS[(action - LOBBY_BASE) % 4]} is empty"
    hand = state.hand(state.current_player)
    if action == PASS:
        return (
            "the piles are used up and the lobby is empty: the leader must start the "
            "lobby with a card from hand and may not pass (C12)"
        )
    cards = PLAY_CARDS[action - PLAY_BASE]
    held = Counter(hand)
    for kind, count in Counter(cards).items():
        if held[kind] < count:
            if held[kind] == 0:
                return f"you do not hold {KIND_TEXT[kind]}"
            return f"you hold {KIND_TEXT[kind]} only {held[kind]} times, not {count}"
    lobby = list(state.lobby)
    for kind in cards:
        reason = why_not_next(lobby, kind)
        if reason:
            return reason
        lobby.append(kind)
    return "that move is not legal now"


def deal_over(deal_number: int) -> str:
    """A record gives a move after deal ``deal_number`` (from 1) ended, or after the
    match ended (docs/records.md)."""
    return f"deal {deal_number} is over: no more moves belong to it"


def why_not_next(lobby: list[int], kind: int) -> str | None:
    """Why ``kind`` cannot be placed next on ``lobby`` (C7), or None if it can."""
    if not lobby:
        return None  # C12: any card starts an empty lobby
    rank = kind % 13
    last = lobby[-1] % 13
    card = KIND_TEXT[kind]
    if len(lobby) == 1:
        if rank == last or rank == last + 1:
            return None
        options = f"a {_RANKS[last + 1]} (a run) or " if last < 12 else ""
        return (
            f"{card} does not continue the lobby {KIND_TEXT[lobby[0]]}: the next card must "
            f"be {options}a {_RANKS[last]} (a set)"
        )
    if lobby[0] % 13 == lobby[1] % 13:
        if rank == last:
            return None
        return (
            f"{card} does not continue the set of {_RANKS[last]}s: "
            f"the next card must be a {_RANKS[last]}"
        )
    if rank == last + 1:
        return None
    run = "-".join(_RANKS[k % 13] for k in lobby)
    if last == 12:
        return f"{card} does not continue the run {run}: a run stops at A (C7)"
    return f"{card} does not continue the run {run}: the next card must be a {_RANKS[last + 1]}"
