"""Every move Spy vs Spy refuses carries a message id of the catalog whose English
rendering is the refusal's text (S6-S13): random illegal ids, texts and seats at
random moments of random matches, and one refusal of each sort with its id."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cards import KIND_TEXT
from cardtable.errors import IllegalMove
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy.actions import NUM_ACTIONS, action_to_text, text_to_action
from cardtable.games.spy.match import SpyMatch
from cardtable.messages import CATALOG, render

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = ["0", "1", "3", "7", "9", "01", "x", "turn", "Turn", "place", "points", "waste", "open"]
WORDS += ["call", "resign", "CALL", "6", "7", "p", ""]


def check(exc: IllegalMove) -> None:
    assert exc.code in CATALOG, f"no message id: {exc}"
    assert render(exc.code, exc.params, "en") == exc.reason
    assert render(exc.code, exc.params, "uk") != exc.reason
    json.dumps(dict(exc.params))


def attempt(rng: random.Random, state: SpyState) -> Any:
    """Something to try as a move: an id (any, in range or not), a text (a legal one's
    words shuffled or cut, or random words), rarely not even an int or a text."""
    roll = rng.random()
    if roll < 0.5:
        return rng.randrange(-3, NUM_ACTIONS + 5)
    if roll < 0.8:
        words = [rng.choice(WORDS) for _ in range(rng.randrange(1, 5))]
        return rng.choice([" ", "  "]).join(words)
    if roll < 0.95:
        legal = state.legal_actions()
        text = action_to_text(rng.choice(legal)) if legal else "0 turn"
        return rng.choice([text.upper(), " " + text, text.replace("1", "9"), text[:-1]])
    return rng.choice([True, 2.0, None, b"0 turn"])


@SETTINGS
@given(st.integers(2, 8), st.booleans(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_every_refusal_of_a_random_move_has_a_message_id(
    players: int, full: bool, seed: int, play: int
) -> None:
    state = SpyState.deal(
        players, seed=seed, options=SpyOptions(full_decks=full, rounds=2), move_limit=40
    )
    rng = random.Random(play)
    refused = 0
    for _ in range(300):
        if state.is_terminal():
            break
        move = attempt(rng, state)
        try:
            state.apply(move)
        except IllegalMove as exc:
            check(exc)
            refused += 1
        legal = state.legal_actions()
        racing = [a for a in legal if a % 17 != 16]  # resigning only when forced
        if legal:
            state.apply(rng.choice(racing or legal))
    assert refused


@SETTINGS
@given(st.integers(0, 10**6), st.integers(0, 7), st.text(max_size=12))
def test_every_refusal_of_a_seat_move_has_a_message_id(seed: int, seat: int, text: str) -> None:
    match = SpyMatch.new(seed=seed, players=["Ann", "Bob", "Cyd"], options={"rounds": 1})
    for move in (text, f"{seat} turn", f"{seat} {text}", seat * 17 + 15):
        try:
            match.apply(seat % 3, move)
        except IllegalMove as exc:
            check(exc)


def refusal(state: SpyState, move: int | str) -> IllegalMove:
    try:
        state.apply(move)
    except IllegalMove as exc:
        check(exc)
        return exc
    raise AssertionError(f"{move!r} was accepted")


def test_s6_to_s13_refusals_each_have_their_id() -> None:
    state = SpyState.deal(2, seed=4, options=SpyOptions(rounds=1), move_limit=3)
    assert refusal(state, "0 call").code == "spy.call_too_early"  # S10
    assert refusal(state, "0 open waste").code == "spy.waste_empty"  # S8
    assert refusal(state, "0 place points 5").code == "spy.no_pile"
    top = state.seats[0].points[-1]
    piles = [p for p in range(4) if (state.seats[0].piles[p][-1] - top) % 13 not in (1, 12)]
    exc = refusal(state, f"0 place points {piles[0] + 1}")  # S6
    assert exc.code == "spy.no_fit"
    assert exc.params["card"] == KIND_TEXT[top]
    assert refusal(state, "2 turn").code == "spy.no_player"
    assert refusal(state, "9 turn").code == "spy.move_bad_player"
    assert refusal(state, "0 place waste 7").code == "spy.move_no_pile"
    assert refusal(state, "0 place waste x").code == "spy.move_bad_pile_number"
    assert refusal(state, "0 Turn").code == "spy.move_upper_case"
    assert refusal(state, "0  turn").code == "spy.move_spaces"
    assert refusal(state, "turn").code == "spy.move_no_player"
    assert refusal(state, "0 jump").code == "spy.move_unknown"
    assert refusal(state, NUM_ACTIONS).code == "move.bad_action_id"
    assert refusal(state, True).code == "move.not_action_id"
    for _ in range(3):
        state.apply("1 turn")
    assert refusal(state, "1 turn").code == "spy.move_limit"  # S13
    state.apply("1 resign")
    assert refusal(state, "1 resign").code == "spy.resigned"
    match = SpyMatch.new(seed=1, players=["Ann", "Bob"], options={"rounds": 1})
    with pytest.raises(IllegalMove) as caught:
        match.apply(0, "1 turn")
    check(caught.value)
    assert caught.value.code == "spy.not_your_seat"
    with pytest.raises(IllegalMove) as caught:
        text_to_action(7)  # type: ignore[arg-type]
    check(caught.value)
    assert caught.value.code == "spy.move_not_text"
