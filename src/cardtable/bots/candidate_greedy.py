"""Candidate ``greedy``: the documented one-move heuristic.

- **Play** (C6-C8): score every legal play by what the lobby would be worth if the
  trick ended now — the capture score (C15) of the lobby with the play added —
  minus the points of the cards it spends from hand (:data:`SPEND`, a card in hand is
  worth keeping for later tricks). Passing scores 0 when the lobby's last card is the
  opponent's (they would take it) and the lobby's worth when it is ours (we would take
  it). Pick the best; a play beats a pass on a tie. This plays long runs, joins sets,
  and passes when it already owns a good lobby the opponent cannot easily extend.
- **Deal, lobby, draw** (C4, C5, C10, C11): the heuristic knows nothing of the hidden
  orders; it deals from and draws from the largest pile (the most choice later;
  lowest suit first on a tie) and turns the lobby card from the largest pile too.
"""

from __future__ import annotations

from cardtable.bots.base import Analysis, MoveValue
from cardtable.cards import parse_card_kind
from cardtable.games.candidate import CandidateState, capture_score, card_points
from cardtable.games.candidate.actions import PASS, play_cards
from cardtable.games.candidate.info import CandidateInfo

__all__ = ["SPEND", "GreedyBot", "greedy_action", "greedy_values", "lobby_is_ours"]

#: What spending one card point from hand costs, in capture points.
SPEND = 0.5

_PILES = "SHDC"


def greedy_values(info: CandidateInfo) -> dict[int, float]:
    """The heuristic value of every legal move (module docstring)."""
    view = info.view
    legal = info.legal
    values: dict[int, float] = {}
    if view.decision == "play":
        lobby = [parse_card_kind(t) for t in view.lobby]
        ours = lobby_is_ours(info)
        worth = capture_score(lobby) if lobby else 0
        for action in legal:
            if action == PASS:
                values[action] = float(worth) if ours and lobby else 0.0
                continue
            cards = [parse_card_kind(t) for t in info.text(action).split()[1:]]
            after = lobby + cards
            values[action] = capture_score(after) - SPEND * sum(card_points(k) for k in cards)
            values[action] += 1e-3  # a play wins a tie with a pass
        return values
    sizes = dict(view.piles)
    for action in legal:
        letter = info.text(action).split()[-1]
        values[action] = float(sizes.get(letter, 0)) - _PILES.index(letter) * 1e-3
    return values


def greedy_action(state: CandidateState) -> int:
    """The greedy move of the player to move in ``state``, read from the state itself.

    The same move as ``GreedyBot().choose(CandidateInfo.of(state, state.current_player))``
    (the tests hold them equal) without building the information set's view and key,
    which cost far more than the heuristic: for playouts that play whole deals greedily.
    The values are computed by the same expressions (so the same floats) and the best
    is the first of the highest in action order, as :meth:`Analysis.ranked` ranks them.
    """
    legal = state.legal_actions()
    best = legal[0]
    top = -float("inf")
    if state.decision == "play":
        lobby = list(state.lobby)
        moves = state.moves
        # lobby_is_ours: the key's last word is the current deal's last move.
        ours = bool(moves) and moves[-1] == PASS and bool(lobby)
        ours = ours and (len(lobby) > 1 or state.leader == state.current_player)
        worth = capture_score(lobby) if lobby else 0
        for action in legal:
            if action == PASS:
                value = float(worth) if ours and lobby else 0.0
            else:
                cards = list(play_cards(action))
                value = capture_score(lobby + cards) - SPEND * sum(card_points(k) for k in cards)
                value += 1e-3
            if value > top:
                best, top = action, value
        return best
    for action in legal:  # deal, lobby or draw: from pile ``action % 4`` (S H D C)
        pile = action % 4
        value = float(len(state.pile(pile))) - pile * 1e-3
        if value > top:
            best, top = action, value
    return best


def lobby_is_ours(info: CandidateInfo) -> bool:
    """Did this seat place the lobby's last card?

    The last public move (the end of the information-state key) must be the opponent's
    pass: a pass hands the decision to the other player, and two passes in a row end
    the trick (C8). Before that pass came this seat's own move: a play, unless the
    lobby is only its turned card and the opponent leads (C6, C11) — then the opponent
    passed on the turned card, nobody placed a card, and a second pass discards it
    (C9). A one-card lobby this seat leads was started from its hand (C12): its own.
    """
    words = info.key.split()
    lobby = info.view.lobby
    if not words or words[-1] != "pass" or not lobby:
        return False
    return len(lobby) > 1 or info.view.leader == info.player


class GreedyBot:
    """The one-move heuristic (module docstring); deterministic."""

    name = "greedy"
    game = "candidate"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def analyse(self, info: CandidateInfo) -> Analysis:
        """Every legal move with its heuristic value."""
        values = greedy_values(info)
        return Analysis.ranked(
            (MoveValue(a, info.text(a), v) for a, v in values.items()), "heuristic points"
        )

    def choose(self, info: CandidateInfo) -> int:
        """The move with the best heuristic value."""
        return self.analyse(info).best.action
