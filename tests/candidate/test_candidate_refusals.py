"""Every move Candidate refuses carries a message id of the catalog whose English
rendering is the refusal's text (C4-C12): random illegal ids, texts and seats at every
kind of decision of random matches, and one refusal of each kind with its id."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cards import KIND_TEXT
from cardtable.errors import IllegalMove
from cardtable.games.candidate.actions import NUM_ACTIONS, encode_play, text_to_action
from cardtable.games.candidate.match import CandidateMatch
from cardtable.messages import CATALOG, render

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HEADS = ["deal", "lobby", "draw", "pass", "play", "Play", "PASS", "jump", ""]
PILES = ["S", "h", "X", "", "S H"]


def check(exc: IllegalMove) -> None:
    assert exc.code in CATALOG, f"no message id: {exc}"
    assert render(exc.code, exc.params, "en") == exc.reason
    assert render(exc.code, exc.params, "uk") != exc.reason
    json.dumps(dict(exc.params))


def attempt(rng: random.Random, match: CandidateMatch, seat: int) -> int | str:
    """Something to try: an id (any), a play of cards from the seat's hand or not, a
    pile move for any pile, or a text of random words."""
    roll = rng.random()
    if roll < 0.3:
        return rng.randrange(-2, NUM_ACTIONS + 3)
    state = match.state
    if roll < 0.7:
        hand = [KIND_TEXT[k] for k in state.hand(seat)] or ["2S"]
        cards = [rng.choice([*hand, rng.choice(KIND_TEXT)]) for _ in range(rng.randrange(0, 7))]
        return " ".join(["play", *cards])
    if roll < 0.85:
        return f"{rng.choice(['deal', 'lobby', 'draw'])} {rng.choice('SHDC')}"
    words = [rng.choice(HEADS), rng.choice([*PILES, "QS", "1X", "♠Д", "10HH"])]
    return " ".join(words[: rng.randrange(1, 3)])


@SETTINGS
@given(st.integers(0, 10**6), st.integers(1, 3), st.integers(0, 10**6))
def test_every_refusal_of_a_random_move_has_a_message_id(seed: int, decks: int, play: int) -> None:
    match = CandidateMatch.new(
        seed=seed, players=["Ann", "Bob"], options={"decks": decks, "deals": 1}
    )
    rng = random.Random(play)
    refused = 0
    while not match.is_terminal():
        seat = match.to_move()
        assert seat is not None
        for who in (seat, 1 - seat):
            try:
                match.apply(who, attempt(rng, match, who))
            except IllegalMove as exc:
                check(exc)
                refused += 1
        if match.is_terminal():
            break
        seat = match.to_move()
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_moves(seat)))
    with pytest.raises(IllegalMove) as caught:
        match.apply(0, "pass")
    check(caught.value)
    assert refused


def refused(move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        text_to_action(move)
    check(caught.value)
    return caught.value


def test_c4_c7_move_text_refusals_each_have_their_id() -> None:
    assert refused("").code == "candidate.move_empty"
    assert refused("pass S").code == "candidate.pass_alone"
    assert refused("draw").code == "candidate.pile_letter"
    assert refused("jump S").code == "candidate.move_unknown"
    assert refused("play").code == "candidate.play_empty"
    assert refused("play 2S 3S 4S 5S 6S 7S").code == "candidate.play_too_many"  # C4
    assert refused("play 2S 7S").code == "candidate.not_sequence"  # C7
    assert refused("play AS 3S").code == "candidate.not_sequence_at_ace"
    assert refused("play 2S 3S 5S").code == "candidate.bad_run_card"
    assert refused("play KS AS AH").code == "candidate.run_past_ace"
    assert refused("play 2S 2H 3D").code == "candidate.bad_set_card"
    exc = refused("play 1X")
    assert exc.code == "card.not_card"
    assert exc.move == "play 1X"
    with pytest.raises(IllegalMove) as caught:
        encode_play([0, 12, 0, 0, 0, 0])
    assert caught.value.code == "candidate.play_too_many"
    match = CandidateMatch.new(seed=2, players=["Ann", "Bob"], options={"deals": 1})
    seat = match.to_move()
    assert seat is not None
    with pytest.raises(IllegalMove) as caught:
        match.apply(1 - seat, "pass")
    check(caught.value)
    assert caught.value.code == "candidate.not_your_turn"
