"""Candidate's suit symmetry for training (cardtable.rl.symmetry): C7 — suits never
matter, so a renamed position's observation is the permuted observation, and a renamed
move is the move of the renamed cards or pile."""

from __future__ import annotations

import dataclasses
import random

import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install cardtable[train])")

import torch

from cardtable.bots.candidate_random import RandomBot
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.actions import action_to_text
from cardtable.games.candidate.encoding import encode_view
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.views import CandidateView
from cardtable.rl.symmetry import RENAMINGS, SuitSymmetry, action_renaming, observation_renaming

LETTERS = "SHDC"


def _card(text: str, perm: tuple[int, ...]) -> str:
    """A card's text (rank then suit letter) with its suit renamed."""
    return text[:-1] + LETTERS[perm[LETTERS.index(text[-1])]]


def _renamed(view: CandidateView, perm: tuple[int, ...]) -> CandidateView:
    """The view of the position with the suits renamed (C7: the same game)."""

    def cards(texts: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_card(t, perm) for t in texts)

    def suits(counts: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        out = [0, 0, 0, 0]
        for suit, count in enumerate(counts):
            out[perm[suit]] = count
        return (out[0], out[1], out[2], out[3])

    piles = [("", 0)] * 4
    for suit, (_letter, left) in enumerate(view.piles):
        piles[perm[suit]] = (LETTERS[perm[suit]], left)
    return dataclasses.replace(
        view,
        hand=None if view.hand is None else cards(view.hand),
        lobby=cards(view.lobby),
        captures=tuple(tuple(cards(c) for c in side) for side in view.captures),
        discards=cards(view.discards),
        hand_suits=(suits(view.hand_suits[0]), suits(view.hand_suits[1])),
        piles=tuple(piles),
    )


def _rename_text(text: str, perm: tuple[int, ...]) -> str:
    words = text.split()
    if words[0] == "play":
        return " ".join([words[0], *(_card(w, perm) for w in words[1:])])
    if words[0] == "pass":
        return text
    return " ".join([*words[:-1], LETTERS[perm[LETTERS.index(words[-1])]]])


def test_a_renamed_positions_observation_and_moves_are_the_renamed_ones() -> None:
    rng = random.Random(4)
    checked = 0
    for seed in range(6):
        state = CandidateState.new(seed, CandidateOptions(deals=1))
        bot = RandomBot(seed)
        while not state.is_terminal():
            player = state.current_player
            info = CandidateInfo.of(state, player)
            perm = RENAMINGS[rng.randrange(len(RENAMINGS))]
            obs = encode_view(info.view, player)
            source = observation_renaming(perm)
            assert [obs[i] for i in source] == encode_view(_renamed(info.view, perm), player)
            target = action_renaming(perm)
            for action in info.legal:
                renamed = action_to_text(target[action])
                assert renamed == _rename_text(action_to_text(action), perm)
            checked += 1
            state.apply(bot.choose(info))
    assert checked > 300


def test_the_identity_changes_nothing_and_a_batch_keeps_its_padding() -> None:
    symmetry = SuitSymmetry()
    obs = torch.arange(2 * 342, dtype=torch.float32).reshape(2, 342)
    ids = torch.tensor([[3, 12, -1], [9, 13 + 681 * 5 + 1, 7]])
    same_obs, same_ids = symmetry.rename(0, obs, ids)  # RENAMINGS[0] is the identity
    assert torch.equal(same_obs, obs)
    assert torch.equal(same_ids, ids)
    swapped = RENAMINGS.index((1, 0, 2, 3))  # spades and hearts trade names
    _, renamed = symmetry.rename(swapped, obs, ids)
    assert renamed.tolist() == [[3, 12, -1], [8, action_renaming((1, 0, 2, 3))[ids[1, 1]], 7]]
    assert action_to_text(int(renamed[1, 1])) == "play 7H 8H"
