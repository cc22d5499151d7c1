"""Candidate's suit symmetry, for training: C7 — suits never matter.

A Candidate position and its moves mean the same game when the four suits are renamed
(the piles with them: each pile holds one suit, C3): card points (C14), sequences (C7)
and scores (C15) read only ranks. So every training sample of expert iteration stands
for 24 samples, one per renaming, with the same visit shares and the same value. The
trainer draws a renaming per batch (:class:`SuitSymmetry`), which gives the network
24 times the positions for nothing and teaches it that the suits' names do not matter.

A renaming ``perm`` sends suit ``s`` to ``perm[s]`` (S H D C = 0 1 2 3): a card kind
``s·13 + r`` to ``perm[s]·13 + r``, the pile of suit ``s`` to pile ``perm[s]``. The
observation (:mod:`cardtable.games.candidate.encoding`) is permuted index by index
(kind blocks and per-suit blocks), and an action id is mapped to the id of the renamed
move (a deal, lobby or draw move to its renamed pile, a play to the play of the renamed
cards). A move's context numbers (:mod:`cardtable.bots.candidate_context`) do not
depend on suit names, so they travel with their move unchanged.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from itertools import permutations

import torch

from cardtable.errors import IllegalMove
from cardtable.games.candidate import NUM_ACTIONS
from cardtable.games.candidate.actions import PASS, encode_play, play_cards
from cardtable.games.candidate.encoding import (
    DISCARDS,
    HAND,
    LOBBY,
    LOBBY_LAST,
    MY_CAPTURES,
    MY_SUITS,
    OBSERVATION_SIZE,
    PILES,
    THEIR_CAPTURES,
    THEIR_SUITS,
)

__all__ = ["RENAMINGS", "SuitSymmetry", "action_renaming", "observation_renaming"]

#: The 24 renamings of the suits (the first is the identity).
RENAMINGS: tuple[tuple[int, ...], ...] = tuple(permutations(range(4)))
_KIND_BLOCKS = (HAND, LOBBY, LOBBY_LAST, MY_CAPTURES, THEIR_CAPTURES, DISCARDS)
_SUIT_BLOCKS = (PILES, MY_SUITS, THEIR_SUITS)


def _kind(kind: int, perm: tuple[int, ...]) -> int:
    return perm[kind // 13] * 13 + kind % 13


def observation_renaming(perm: tuple[int, ...]) -> list[int]:
    """``source`` such that ``obs[source]`` is the observation of the renamed position:
    index ``i`` of the renamed observation is index ``source[i]`` of the original."""
    source = list(range(OBSERVATION_SIZE))
    for base in _KIND_BLOCKS:
        for kind in range(52):
            source[base + _kind(kind, perm)] = base + kind
    for base in _SUIT_BLOCKS:
        for suit in range(4):
            source[base + perm[suit]] = base + suit
    return source


@lru_cache(maxsize=len(RENAMINGS))
def action_renaming(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The id of the renamed move, for every action id (an id that names no move maps
    to itself: it is never legal)."""
    target = list(range(NUM_ACTIONS))
    for action in range(PASS):  # deal, lobby, draw: from pile action % 4
        target[action] = action - action % 4 + perm[action % 4]
    for action in range(PASS + 1, NUM_ACTIONS):
        try:
            kinds = play_cards(action)
        except IllegalMove:
            continue
        target[action] = encode_play([_kind(k, perm) for k in kinds])
    return tuple(target)


class SuitSymmetry:
    """The 24 renamings as index tensors, for permuting a batch (module docstring)."""

    @cached_property
    def observations(self) -> torch.Tensor:
        """``(24, 342)``: :func:`observation_renaming` of each renaming."""
        return torch.tensor([observation_renaming(p) for p in RENAMINGS], dtype=torch.int64)

    @cached_property
    def actions(self) -> torch.Tensor:
        """``(24, NUM_ACTIONS)``: :func:`action_renaming` of each renaming."""
        return torch.tensor([action_renaming(p) for p in RENAMINGS], dtype=torch.int64)

    def rename(
        self, which: int, obs: torch.Tensor, ids: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """A batch's observations ``(b, 342)`` and legal ids ``(b, k)`` (−1 padding kept)
        under renaming ``which`` (an index of :data:`RENAMINGS`)."""
        renamed = self.actions[which][ids.clamp(min=0)]
        return obs[:, self.observations[which]], torch.where(ids >= 0, renamed, ids)
