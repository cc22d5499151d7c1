"""Candidate as a :class:`~cardtable.games.base.Match`: one seat decides at a time.

Every face plays Candidate through :class:`CandidateMatch`: the seat to decide (deal,
lobby, play or draw; C3-C12 in ``docs/rules/candidate.en.md``), its legal moves, the
checked move with its events and their audiences (a hand dealt and a card drawn are
secret to the player who got them), the views, the information set a bot is given,
and the result ranked by the highest total (C17).

>>> match = CandidateMatch.new(seed=1, players=["Ann", "Bob"], options={"deals": 1})
>>> seat = match.to_move()
>>> applied = match.apply(seat, match.legal_moves(seat)[0])
>>> applied.text.startswith("deal"), sorted(applied.affected)
(True, [0, 1])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, Final

from cardtable.games.base import (
    Applied,
    GameInfo,
    MatchEvent,
    Result,
    SegmentResult,
    running_totals,
)
from cardtable.games.candidate.actions import NUM_ACTIONS, action_to_text, text_to_action
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.state import CandidateState
from cardtable.games.candidate.views import CandidateView
from cardtable.glossary import GLOSSARY
from cardtable.messages import make_refusal

__all__ = ["INFO", "CandidateMatch"]

#: Candidate's declared facts (C1: two players; C17: the highest total wins).
INFO: Final = GameInfo(
    name="candidate",
    titles=GLOSSARY["game_title.candidate"],
    min_players=2,
    max_players=2,
    realtime=False,
    num_distinct_actions=NUM_ACTIONS,
    higher_is_better=True,
    segment="deal",
)

_BOTH: Final = frozenset({0, 1})
_VIEW_FIELDS: Final = tuple(f.name for f in fields(CandidateView))


class CandidateMatch:
    """A Candidate match between two named seats (see the module docstring)."""

    __slots__ = ("_players", "state")

    info: Final = INFO

    def __init__(self, state: CandidateState, players: Sequence[str]) -> None:
        self.state = state
        self._players = tuple(players)

    @classmethod
    def new(
        cls,
        *,
        seed: int | str,
        players: Sequence[str],
        options: CandidateOptions | Mapping[str, Any] | None = None,
    ) -> CandidateMatch:
        """A match dealt from ``seed`` (the first dealer by lot, C2)."""
        if not isinstance(options, CandidateOptions):
            options = CandidateOptions.from_dict(options or {})
        return cls(CandidateState.new(seed, options), players)

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        return self._players

    @property
    def seats(self) -> int:
        """Always two (C1)."""
        return 2

    def to_move(self) -> int | None:
        """The seat to decide, ``None`` once the match is over."""
        return None if self.state.is_terminal() else self.state.current_player

    def legal_actions(self, seat: int) -> list[int]:
        """The deciding seat's legal action ids; nothing for the other seat."""
        state = self.state
        if state.is_terminal() or seat != state.current_player:
            return []
        return list(state.legal_actions())

    def legal_moves(self, seat: int) -> list[str]:
        """The deciding seat's legal moves as record texts; nothing for the other seat."""
        return [action_to_text(a) for a in self.legal_actions(seat)]

    def apply(self, seat: int, move: int | str) -> Applied:
        """Checked: the seat must be the one deciding and the move legal."""
        text = move if isinstance(move, str) else None
        state = self.state
        if state.is_terminal():
            raise make_refusal("candidate.match_over").illegal(text)  # C17
        if seat != state.current_player:
            raise make_refusal("candidate.not_your_turn").illegal(text)
        action = text_to_action(move) if isinstance(move, str) else move
        deal = state.deal_number
        events = state.apply(action)
        return Applied(
            seat=seat,
            action=action,
            text=action_to_text(action),
            events=tuple(map(MatchEvent, events)),
            affected=_BOTH,
            segment_ended=state.is_terminal() or state.deal_number != deal,
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view (a spectator sees no hand), JSON-ready.

        Its JSON equals that of ``CandidateView.to_dict()``; the fields are taken as
        they are (tuples write as JSON lists) rather than through
        ``dataclasses.asdict``'s deep copies, since a view is made for every recipient
        of every move.
        """
        view = self.state.view(seat)
        return {name: getattr(view, name) for name in _VIEW_FIELDS}

    def bot_info(self, seat: int) -> CandidateInfo:
        """The seat's information set now, on a private copy of the state (a bot may
        determinise it, never read it)."""
        return CandidateInfo.of(self.state.clone(), seat)

    def segment(self) -> int:
        """The deal in play (or the last one), from 1."""
        return self.state.deal_number

    def is_terminal(self) -> bool:
        """Every deal played (C17)."""
        return self.state.is_terminal()

    def segment_results(self) -> tuple[SegmentResult, ...]:
        """Each finished deal: played out (C13), its scores and the totals after it."""
        history = self.state.history
        totals = running_totals([d.scores for d in history])
        return tuple(
            SegmentResult(number=i + 1, scores=d.scores, totals=after, ending="played")
            for i, (d, after) in enumerate(zip(history, totals, strict=True))
        )

    def result(self) -> Result:
        """Totals, winners (the highest total, C17) and ranks."""
        return Result.of(self.state.totals(), higher_is_better=True)

    def record(self) -> dict[str, Any]:
        """The record as the engine writes it."""
        return self.state.to_record(self._players)

    def clone(self) -> CandidateMatch:
        """An independent copy."""
        return CandidateMatch(self.state.clone(), self._players)

    def __repr__(self) -> str:
        return f"<CandidateMatch players={list(self._players)} state={self.state!r}>"
