"""Events, views and information states: who may see what."""

from __future__ import annotations

import json
import random

import pytest
from candidate_helpers import dealt, texts

from cardtable.errors import IllegalMove
from cardtable.games.candidate import GAME, CandidateState, action_to_text
from cardtable.games.candidate.events import Event

DEALER = "QS 8S 2S 3S 4S"
OTHER = "10S JS 9S 5S 6S"


def after_take() -> tuple[CandidateState, list[Event]]:
    state = dealt(DEALER, OTHER, H="9H")
    state.apply("lobby H")
    state.apply("play 10S")
    state.apply("pass")
    return state, state.apply("pass")


def test_drawn_card_is_seen_only_by_the_drawer() -> None:
    state, _ = after_take()
    (drew,) = state.apply("draw C")
    assert drew.type == "drew"
    assert drew.player == 1
    assert drew.pile == "C"
    assert drew.seen_by(1).texts == ("2C",)
    assert drew.seen_by(0).cards == ()
    assert drew.seen_by(None).cards == ()
    assert drew.seen_by(0).to_dict() == {
        "type": "drew",
        "player": 1,
        "pile": "C",
        "cards": [],
        "secret_to": 1,
    }


def test_dealt_hands_are_secret_to_their_owners() -> None:
    state = CandidateState.new(4)
    events = state.apply("deal D")
    received = [e for e in events if e.type == "received"]
    for event in received:
        assert event.player is not None
        assert sorted(event.seen_by(event.player).cards) == list(state.hand(event.player))
        assert event.seen_by(1 - event.player).cards == ()


def test_a_take_reports_cards_and_score() -> None:
    _, events = after_take()
    assert [e.type for e in events] == ["passed", "trick_taken"]
    assert events[1].texts == ("9H", "10S")
    assert events[1].score == 4
    json.dumps([e.to_dict() for e in events])


def test_the_last_move_ends_the_deal_and_the_match() -> None:
    state = GAME.new_initial_state(6, {"deals": 1})
    rng = random.Random(6)
    events: list[Event] = []
    while not state.is_terminal():
        events = state.apply(rng.choice(state.legal_actions()))
    types = [e.type for e in events]
    assert types[-2:] == ["deal_ended", "match_ended"]
    assert events[-1].totals == state.totals()
    assert list(events[-1].winners or ()) == state.winners()


def test_views_show_own_hand_sizes_and_public_suits() -> None:
    state = dealt(DEALER, OTHER, H="9H")
    mine = state.view(0)
    assert mine.hand == tuple(texts(state.hand(0)))
    assert mine.hand_sizes == (5, 5)
    assert mine.hand_suits == ((5, 0, 0, 0), (5, 0, 0, 0))  # all dealt from S
    assert mine.piles == (("S", 3), ("H", 13), ("D", 13), ("C", 13))
    assert mine.decision == "lobby"
    assert mine.current_player == 0
    assert mine.legal_moves == ("lobby S", "lobby H", "lobby D", "lobby C")
    theirs = state.view(1)
    assert theirs.legal_moves == ()
    assert theirs.hand == tuple(texts(state.hand(1)))
    spectator = state.view(None)
    assert spectator.hand is None
    assert spectator.legal_actions == ()
    data = spectator.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert "5S" not in json.dumps(spectator.to_dict())  # a card in hand 1, hidden


def test_view_of_a_finished_match() -> None:
    state = GAME.new_initial_state(2, {"deals": 1})
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    view = state.view(0)
    assert view.is_over
    assert view.current_player is None
    assert view.decision is None
    assert view.totals == state.totals()
    assert list(view.winners) == state.winners()
    assert view.deal_scores == state.history[-1].scores == view.totals  # one deal
    assert sum(view.capture_scores[0]) + sum(view.capture_scores[1]) == sum(view.totals)
    assert "Match over" in str(state)


def test_information_state_keys() -> None:
    state = dealt(DEALER, OTHER, H="9H")
    other_world = dealt(DEALER, "10S JS 9S 5S 7S", H="9H")  # player 1 differs by one card
    assert state.information_state_string(0) == other_world.information_state_string(0)
    assert state.information_state_string(1) != other_world.information_state_string(1)
    assert state.information_state_string(0) != state.information_state_string(1)
    state.apply("lobby H")
    assert "lobby H=9H" in state.information_state_string(1)


def test_resampling_keeps_own_hand_and_public_counts() -> None:
    state, _ = after_take()
    state.apply("draw C")
    for seed in range(5):
        other = state.resample_hidden(1, random.Random(seed))
        assert other.hand(1) == state.hand(1)
        assert other.hand_suits(0) == state.hand_suits(0)
        assert [len(other.pile(s)) for s in range(4)] == [len(state.pile(s)) for s in range(4)]
        assert other.legal_actions() == state.legal_actions()


def test_illegal_move_leaves_the_state_unchanged() -> None:
    state = dealt(DEALER, OTHER, H="9H")
    before = state.clone()
    with pytest.raises(IllegalMove):
        state.apply("play 2S")
    with pytest.raises(IllegalMove, match="not a move"):
        state.apply(99_999)
    assert state == before


def test_ids_out_of_range_have_no_text() -> None:
    with pytest.raises(IllegalMove, match="not an action id"):
        action_to_text(-1)
    with pytest.raises(IllegalMove, match="not a play action"):
        action_to_text(13 + 12 * 681 + 1)  # a run from an ace: no such play
