"""What a Candidate bot is given: one seat's information set.

:class:`CandidateInfo` carries the seat's view (:class:`CandidateView`), its legal
moves and the engine's perfect-recall information-state key. The state it was built
from is kept private and used for one thing only: :meth:`CandidateInfo.determinize`,
which returns a full state consistent with everything the seat may see, the unseen
cards (the opponent's hand and the piles) dealt anew at random by the engine
(``CandidateState.resample_hidden``). A bot never reads the true state.
"""

from __future__ import annotations

import random

from cardtable.games.candidate.actions import action_to_text
from cardtable.games.candidate.state import CandidateState
from cardtable.games.candidate.views import CandidateView

__all__ = ["CandidateInfo"]


class CandidateInfo:
    """One seat's information set (see the module docstring)."""

    __slots__ = ("_state", "key", "player", "view")

    player: int
    view: CandidateView
    key: str
    _state: CandidateState

    @classmethod
    def of(cls, state: CandidateState, player: int) -> CandidateInfo:
        """The information set of ``player`` in ``state``."""
        info = cls.__new__(cls)
        info.player = player
        info.view = state.view(player)
        info.key = state.information_state_string(player)
        info._state = state
        return info

    @property
    def legal(self) -> tuple[int, ...]:
        """The seat's legal action ids, sorted (empty when it is not its decision)."""
        return self.view.legal_actions

    def text(self, action: int) -> str:
        """A move's record text."""
        return action_to_text(action)

    def determinize(self, rng: random.Random) -> CandidateState:
        """A full state consistent with this information set (a fresh copy)."""
        return self._state.resample_hidden(self.player, rng)
