"""What one player (or a spectator) may see of a Candidate match.

A view is the only way hidden state leaves the engine: bots, clients and spectators
are built from views. It is immutable and turns into JSON-ready data with
:meth:`CandidateView.to_dict`. Cards are plain text (``QS``). :func:`build_view` makes
one from a position; :meth:`CandidateState.view
<cardtable.games.candidate.state.CandidateState.view>` adds the deciding player's legal
moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cardtable.cards import KIND_TEXT
from cardtable.games.candidate.actions import PILE_LETTERS, action_to_text
from cardtable.games.candidate.position import CandidatePosition
from cardtable.games.candidate.scoring import capture_score

__all__ = ["CandidateView", "build_view"]


@dataclass(frozen=True, slots=True)
class CandidateView:
    """Everything ``viewer`` may see now (``viewer`` None: a spectator).

    Public: pile suits and sizes, the lobby, captures and scores, discards, hand sizes
    and each hand's count per suit (every card enters a hand from a pile whose suit is
    public). Private: ``hand`` (the viewer's own cards; None for a spectator). The
    deciding player's view also lists the legal moves.
    """

    viewer: int | None
    deal_number: int
    deals: int
    decks: int
    dealer: int
    #: Who decides now, and what (``deal``, ``lobby``, ``play``, ``draw``); None when over.
    current_player: int | None
    decision: str | None
    #: Who leads the current (or next) trick.
    leader: int
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, int]
    hand_suits: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
    #: ``(suit letter, cards left)`` for S, H, D, C.
    piles: tuple[tuple[str, int], ...]
    lobby: tuple[str, ...]
    #: The lobby's shape, ``run`` or ``set``, once fixed (C7); None for an empty or
    #: one-card lobby.
    lobby_shape: str | None
    captures: tuple[tuple[tuple[str, ...], ...], ...]
    capture_scores: tuple[tuple[int, ...], ...]
    discards: tuple[str, ...]
    deal_scores: tuple[int, int]
    past_deal_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, int]
    legal_actions: tuple[int, ...]
    legal_moves: tuple[str, ...]
    is_over: bool
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (tuples become lists)."""
        return _lists(asdict(self))  # type: ignore[no-any-return]

    def describe(self) -> str:
        """A few lines for people."""
        who = "spectator" if self.viewer is None else f"player {self.viewer}"
        lines = [f"Deal {self.deal_number}/{self.deals}, dealer {self.dealer} — seen by {who}"]
        lines.append("Piles: " + ", ".join(f"{s} {n}" for s, n in self.piles))
        if self.hand is not None:
            lines.append("Hand: " + (" ".join(self.hand) or "-"))
        lines.append(f"Hand sizes: {self.hand_sizes[0]}, {self.hand_sizes[1]}")
        shape = f" ({self.lobby_shape})" if self.lobby_shape else ""
        lines.append("Lobby: " + (" ".join(self.lobby) or "-") + shape)
        lines.append(f"Deal scores: {self.deal_scores[0]}, {self.deal_scores[1]}")
        lines.append(f"Totals: {self.totals[0]}, {self.totals[1]}")
        if self.is_over:
            lines.append("Match over; winners: " + ", ".join(map(str, self.winners)))
        else:
            lines.append(f"Player {self.current_player} to {self.decision}")
        if self.legal_moves:
            lines.append("Legal: " + ", ".join(self.legal_moves))
        return "\n".join(lines)


def build_view(
    state: CandidatePosition, player: int | None, legal: tuple[int, ...]
) -> CandidateView:
    """Exactly what ``player`` may see of ``state`` (None: a spectator, who sees no hand).

    ``legal``: the legal actions to show, those of the deciding player in their own
    view and none otherwise (a position does not compute them).
    """
    text = KIND_TEXT.__getitem__
    over = state.is_terminal()
    history = state.history
    options = state.options
    if over:  # the last deal, as it ended
        last = history[-1]
        taken: Sequence[Sequence[tuple[int, ...]]] = last.captures
        deal_scores = (last.scores[0], last.scores[1])
        discarded: Sequence[int] = last.discards
    else:
        taken = (state.captures(0), state.captures(1))
        deal_scores = state.deal_scores
        discarded = state.discards
    suits = (state.hand_suits(0), state.hand_suits(1))
    return CandidateView(
        viewer=player,
        deal_number=state.deal_number,
        deals=options.deals,
        decks=options.decks,
        dealer=state.dealer,
        current_player=None if over else state.current_player,
        decision=state.decision,
        leader=state.leader,
        hand=None if player is None else tuple(map(text, state.hand(player))),
        hand_sizes=(sum(suits[0]), sum(suits[1])),
        hand_suits=suits,
        piles=tuple([(PILE_LETTERS[s], len(state.pile(s))) for s in range(4)]),
        lobby=tuple(map(text, state.lobby)),
        lobby_shape=state.lobby_shape,
        captures=tuple([tuple([tuple(map(text, c)) for c in taken[p]]) for p in (0, 1)]),
        capture_scores=tuple([tuple(map(capture_score, taken[p])) for p in (0, 1)]),
        discards=tuple(map(text, discarded)),
        deal_scores=deal_scores,
        past_deal_scores=tuple([d.scores for d in history]),
        totals=state.totals(),
        legal_actions=legal,
        legal_moves=tuple(map(action_to_text, legal)),
        is_over=over,
        winners=tuple(state.winners()) if over else (),
    )


def _lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_lists(v) for v in value]
    return value
