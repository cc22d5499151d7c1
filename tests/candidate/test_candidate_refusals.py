"""Every move Candidate refuses carries a message id of the catalog whose English
rendering is the refusal's text (C4-C12): random illegal ids, texts and seats at every
decision of random matches, and one refusal of each sort with its id."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cards import KIND_TEXT
from cardtable.errors import IllegalMove
from cardtable.games.candidate.actions import NUM_ACTIONS, PASS, encode_play, text_to_action
from cardtable.games.candidate.explain import refusal, why_not_next
from cardtable.games.candidate.match import CandidateMatch
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.state import CandidateState
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


def kinds(text: str) -> list[int]:
    return [KIND_TEXT.index(card) for card in text.split()]


def test_c7_lobby_refusals_each_have_their_id() -> None:
    """Why a card does not continue the lobby: a one-card lobby, a set, a run, a run
    at the ace; English as the engine always wrote it, Ukrainian beside it."""
    cases = [
        ("9S", "JH", "candidate.lobby_not_continued"),
        ("AS", "3H", "candidate.lobby_not_continued_at_ace"),
        ("9S 9H", "10D", "candidate.set_not_continued"),
        ("9S 10H JD", "KC", "candidate.run_not_continued"),
        ("QS KH AD", "2C", "candidate.run_ends_at_ace"),
    ]
    for lobby, card, code in cases:
        found = why_not_next(kinds(lobby), kinds(card)[0])
        assert found is not None
        assert found.code == code
        assert found.text("uk") != found.text("en")
    run = why_not_next(kinds("9S 10H JD"), kinds("KC")[0])
    assert run is not None
    assert run.text() == "KC does not continue the run 9-10-J: the next card must be a Q"
    assert run.text("uk") == "К♣ не продовжує сходинки 9-10-В: наступна карта має бути Д"
    assert why_not_next(kinds("9S 10H"), kinds("JC")[0]) is None


def test_c8_c12_decision_refusals_each_have_their_id() -> None:
    """Whose decision and which one; a pile that is empty; cards not held."""
    state = CandidateState.new(seed=5, options=None)
    seen = set()
    rng = random.Random(5)
    while not state.is_terminal():
        legal = set(state.legal_actions())
        for action in (0, 4, 8, 12, NUM_ACTIONS):
            if action not in legal:
                found = refusal(state, action)
                seen.add(found.code)
                with pytest.raises(IllegalMove) as caught:
                    state.apply(action)
                check(caught.value)
                assert (caught.value.code, caught.value.params) == (found.code, found.params)
        if state.decision == "play":
            hand = set(state.hand(state.current_player))
            missing = next(k for k in range(52) if k not in hand)
            seen.add(refusal(state, text_to_action(f"play {KIND_TEXT[missing]}")).code)
        state.apply(rng.choice(sorted(legal)))
    assert refusal(state, 12).code == "candidate.match_over"
    assert {
        "candidate.wrong_decision",
        "candidate.pile_empty",
        "candidate.not_a_move",
        "candidate.not_held",
    } <= seen


def test_c12_and_copies_refusals_each_have_their_id() -> None:
    """C12: the leader may not pass onto an empty lobby when the piles are used up;
    with two decks, a card held once may not be played twice."""
    passes = None
    for seed in range(50):
        state = CandidateState.new(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and passes is None:
            if state.decision == "play" and PASS not in state.legal_actions():
                passes = refusal(state, PASS)
                break
            state.apply(rng.choice(state.legal_actions()))
        if passes is not None:
            break
    assert passes is not None
    assert passes.code == "candidate.may_not_pass"
    state = CandidateState.new(seed=3, options=CandidateOptions(decks=2))
    rng = random.Random(3)
    while state.decision != "play":
        state.apply(rng.choice(state.legal_actions()))
    hand = state.hand(state.current_player)
    once = next(k for k in hand if hand.count(k) == 1)
    fewer = refusal(state, encode_play([once, once]))
    assert fewer.code == "candidate.held_fewer"
    card = KIND_TEXT[once]
    assert fewer.text() == f"you hold {card} only 1 times, not 2"
