"""Property tests over random deals (1–3 decks) and random legal play."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cards import KIND_TEXT
from cardtable.errors import IllegalMove
from cardtable.games.candidate import (
    GAME,
    CandidateState,
    action_to_text,
    replay_record,
    text_to_action,
)
from cardtable.games.candidate.actions import NUM_ACTIONS, PASS, encode_play
from cardtable.games.candidate.explain import explain
from cardtable.games.candidate.plays import legal_plays

games = st.tuples(st.integers(0, 10**6), st.integers(1, 3), st.integers(0, 10**6))
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def full_deck(decks: int) -> Counter[int]:
    return Counter(k for k in range(52) for _ in range(decks))


def new(seed: int, decks: int) -> CandidateState:
    return GAME.new_initial_state(seed, {"decks": decks, "deals": 1})


@SETTINGS
@given(games)
def test_every_deal_ends_and_every_card_is_accounted_for(game: tuple[int, int, int]) -> None:
    seed, decks, choices = game
    state = new(seed, decks)
    rng = random.Random(choices)
    limit = GAME.max_game_length(state.options)
    moves = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a non-terminal decision has a legal move"
        assert legal == sorted(set(legal))
        state.apply(rng.choice(legal))
        moves += 1
        assert moves <= limit
        if not state.is_terminal():
            assert state.all_cards() == full_deck(decks)
            assert all(len(state.hand(p)) <= 5 for p in (0, 1))
    deal = state.history[0]
    taken = Counter(k for caps in deal.captures for c in caps for k in c)
    taken.update(deal.discards)
    assert taken == full_deck(decks)


@SETTINGS
@given(games)
def test_checked_and_unchecked_moves_give_identical_states(game: tuple[int, int, int]) -> None:
    seed, decks, choices = game
    checked = new(seed, decks)
    fast = checked.clone()
    rng = random.Random(choices)
    while not checked.is_terminal():
        action = rng.choice(checked.legal_actions())
        assert fast.legal_actions() == checked.legal_actions()
        checked.apply(action)
        fast.apply_action(action)
        assert fast == checked
    assert fast.returns() == checked.returns()


@SETTINGS
@given(games)
def test_move_ids_and_texts_round_trip(game: tuple[int, int, int]) -> None:
    seed, decks, choices = game
    state = new(seed, decks)
    rng = random.Random(choices)
    while not state.is_terminal():
        for action in state.legal_actions():
            assert text_to_action(action_to_text(action)) == action
        state.apply_action(rng.choice(state.legal_actions()))


def test_every_play_id_round_trips() -> None:
    count = 0
    for action in range(NUM_ACTIONS):
        try:
            text = action_to_text(action)
        except ValueError:
            continue  # ids of runs past the ace name no move
        assert text_to_action(text) == action
        count += 1
    assert count > 20_000


def brute_force_plays(hand: list[int], lobby: list[int]) -> set[int]:
    """Every play by trying every ordered choice of cards against C7 and C12."""
    found = set()
    for size in range(1, len(hand) + 1):
        for order in itertools.permutations(range(len(hand)), size):
            cards = [hand[i] for i in order]
            seq = lobby + cards
            if len(seq) >= 2:
                step = seq[1] % 13 - seq[0] % 13
                if step not in (0, 1):
                    continue
                if any(seq[j + 1] % 13 - seq[j] % 13 != step for j in range(len(seq) - 1)):
                    continue
            found.add(encode_play(cards))
    return found


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=0, max_size=5),
    st.lists(st.integers(0, 51), min_size=0, max_size=3),
    st.booleans(),
)
def test_legal_plays_match_a_brute_force_search(
    hand: list[int], lobby_cards: list[int], make_set: bool
) -> None:
    # A valid lobby: a single card, a set or a run (no wrap).
    lobby: list[int] = []
    if lobby_cards:
        first = lobby_cards[0]
        rank = first % 13
        lobby = [first]
        for j, other in enumerate(lobby_cards[1:], start=1):
            step = 0 if make_set else 1
            if rank + step * j > 12:
                break
            lobby.append((other // 13) * 13 + rank + step * j)
    if len(lobby) == 1:
        run_need, set_need = (lobby[0] % 13 + 1 if lobby[0] % 13 < 12 else -1), lobby[0] % 13
    elif lobby:
        last = lobby[-1] % 13
        if lobby[0] % 13 == lobby[1] % 13:
            run_need, set_need = -1, last
        else:
            run_need, set_need = (last + 1 if last < 12 else -1), -1
    else:
        run_need = set_need = -1
    present = 0
    for kind in hand:
        present |= 1 << kind
    multi = len(set(hand)) < len(hand)  # copies of a card: several decks
    got = legal_plays(hand, present, not lobby, run_need, set_need, multi, [])
    assert got == sorted(set(got))
    assert set(got) == brute_force_plays(hand, lobby)


def visible_cards(view_dict: dict[str, object]) -> Counter[str]:
    cards: Counter[str] = Counter()
    cards.update(view_dict["hand"] or [])  # type: ignore[arg-type]
    cards.update(view_dict["lobby"])  # type: ignore[arg-type]
    cards.update(view_dict["discards"])  # type: ignore[arg-type]
    for per_player in view_dict["captures"]:  # type: ignore[attr-defined]
        for captured in per_player:
            cards.update(captured)
    return cards


@SETTINGS
@given(games, st.sampled_from([0, 1, None]))
def test_views_hide_exactly_the_hidden_cards(
    game: tuple[int, int, int], viewer: int | None
) -> None:
    seed, decks, choices = game
    state = new(seed, decks)
    rng = random.Random(choices)
    steps = 0
    while not state.is_terminal():
        if steps % 7 == 0:
            other = state.resample_hidden(viewer, random.Random(steps))
            assert other.all_cards() == state.all_cards()
            assert other.view(viewer) == state.view(viewer)
            if viewer is not None:
                key = state.information_state_string(viewer)
                assert other.information_state_string(viewer) == key
            # The resampled world is a full, legal game: its record replays to it.
            assert replay_record(other.to_record()).state == other
            view = state.view(viewer).to_dict()
            json.dumps(view)
            own = [KIND_TEXT[k] for k in state.hand(viewer)] if viewer is not None else []
            public = Counter(KIND_TEXT[k] for k in state.lobby)
            public.update(KIND_TEXT[k] for k in state.discards)
            for p in (0, 1):
                for captured in state.captures(p):
                    public.update(KIND_TEXT[k] for k in captured)
            assert visible_cards(view) == public + Counter(own)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


@SETTINGS
@given(games)
def test_hidden_cards_do_change_under_resampling(game: tuple[int, int, int]) -> None:
    seed, decks, _ = game
    state = new(seed, decks)
    state.apply("deal S")
    hands = {state.resample_hidden(0, random.Random(i)).hand(1) for i in range(30)}
    assert len(hands) > 1  # the opponent's hand is really redrawn
    assert all(len(h) == 5 and all(k // 13 == 0 for k in h) for h in hands)  # all spades


@SETTINGS
@given(games, st.integers(0, 400))
def test_a_written_record_replays_to_the_same_state(game: tuple[int, int, int], stop: int) -> None:
    seed, decks, choices = game
    state = GAME.new_initial_state(seed, {"decks": decks, "deals": 2})
    rng = random.Random(choices)
    for _ in range(stop):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.to_record(["A", "B"])))
    replay = replay_record(record, seed=state.seed)  # records hold no seed for later deals
    assert replay.state is not None
    assert replay.state == state
    assert replay.summary()["complete"] == state.is_terminal()


def test_pass_is_the_smallest_id_and_leads_legal_lists() -> None:
    state = GAME.new_initial_state(3, {"deals": 1})
    rng = random.Random(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.decision == "play" and state.lobby:
            assert legal[0] == PASS
        state.apply_action(rng.choice(legal))


@SETTINGS
@given(games)
def test_legal_moves_in_play_match_a_brute_force_search(game: tuple[int, int, int]) -> None:
    seed, decks, choices = game
    state = new(seed, decks)
    rng = random.Random(choices)
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.decision == "play":
            hand = list(state.hand(state.current_player))
            lobby = list(state.lobby)
            expected = brute_force_plays(hand, lobby)
            if lobby or not hand:
                expected.add(PASS)  # C8; C12: a leader with no cards passes
            assert set(legal) == expected
        state.apply_action(rng.choice(legal))


@SETTINGS
@given(games)
def test_every_refused_move_is_given_its_own_reason_c7_c8_c12(game: tuple[int, int, int]) -> None:
    # Every illegal pile move, pass and play of one to three held cards (in any order)
    # is refused with a specific reason, never the catch-all, and apply raises it.
    seed, decks, choices = game
    state = new(seed, decks)
    rng = random.Random(choices)
    while not state.is_terminal():
        legal = state.legal_actions()
        hand = state.hand(state.current_player)
        tried = set(range(PASS + 1))
        for size in (1, 2, 3):
            for cards in itertools.permutations(hand, size):
                with contextlib.suppress(IllegalMove):  # no sequence: the notation refuses
                    tried.add(encode_play(list(cards)))
        for action in sorted(tried - set(legal)):
            reason = explain(state, action)
            assert reason != "that move is not legal now"
            if action == PASS or rng.random() < 0.05:
                with pytest.raises(IllegalMove) as refused:
                    state.apply(action)
                assert refused.value.reason == reason
        state.apply_action(rng.choice(legal))


def test_deals_are_shuffled_evenly() -> None:
    from cardtable.games.candidate import deal_piles

    tops = Counter(deal_piles(seed, 0, 1)[0][0] for seed in range(2600))
    assert set(tops) == set(range(13))
    assert all(140 <= n <= 260 for n in tops.values())  # 200 expected for each
