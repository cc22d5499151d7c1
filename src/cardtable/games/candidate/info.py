"""What a Candidate bot is given: one seat's information set.

:class:`CandidateInfo` carries the seat's view (:class:`CandidateView`), its legal
moves and the engine's perfect-recall information-state key. The state it was built
from is kept private and used for one thing only: drawing full states consistent with
everything the seat may see, the unseen cards (the opponent's hand and the piles)
dealt anew at random by the engine — one at a time with
:meth:`CandidateInfo.determinize` (``CandidateState.resample_hidden``), or many, fast,
with :meth:`CandidateInfo.sampler` (``CandidateState.hidden_sampler``). A bot never
reads the true state.
"""

from __future__ import annotations

import random

from cardtable.games.candidate.actions import action_to_text
from cardtable.games.candidate.state import CandidateState, HiddenSampler
from cardtable.games.candidate.views import CandidateView

__all__ = ["CandidateInfo"]


class CandidateInfo:
    """One seat's information set (see the module docstring).

    The view, the key and the legal moves are worked out from the private snapshot when
    first asked for, so a bot pays only for what it reads (a random bot never builds the
    view).
    """

    __slots__ = ("_key", "_legal", "_state", "_view", "player")

    player: int
    _state: CandidateState
    _view: CandidateView | None
    _key: str | None
    _legal: tuple[int, ...] | None

    @classmethod
    def of(cls, state: CandidateState, player: int) -> CandidateInfo:
        """The information set of ``player`` in ``state`` (kept, not copied: give it a
        state nothing else changes, such as a clone)."""
        info = cls.__new__(cls)
        info.player = player
        info._state = state
        info._view = None
        info._key = None
        info._legal = None
        return info

    @property
    def view(self) -> CandidateView:
        """What the seat sees (:meth:`CandidateState.view`)."""
        if self._view is None:
            self._view = self._state.view(self.player)
        return self._view

    @property
    def key(self) -> str:
        """The seat's perfect-recall information-state key."""
        if self._key is None:
            self._key = self._state.information_state_string(self.player)
        return self._key

    @property
    def legal(self) -> tuple[int, ...]:
        """The seat's legal action ids, sorted (empty when it is not its decision)."""
        if self._legal is None:
            if self._view is not None:
                self._legal = self._view.legal_actions
            else:
                state = self._state
                deciding = not state.is_terminal() and state.current_player == self.player
                self._legal = tuple(state.legal_actions()) if deciding else ()
        return self._legal

    def text(self, action: int) -> str:
        """A move's record text."""
        return action_to_text(action)

    def determinize(self, rng: random.Random) -> CandidateState:
        """A full state consistent with this information set (a fresh copy)."""
        return self._state.resample_hidden(self.player, rng)

    def sampler(self) -> HiddenSampler:
        """A fast sampler of full states consistent with this information set, for a
        search that draws many (``CandidateState.hidden_sampler``); each draw is a
        fresh state whose past is masked, not rewritten."""
        return self._state.hidden_sampler(self.player)
