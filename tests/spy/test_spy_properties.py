"""Property tests over random deals (2-8 players, full decks on and off) and random
legal play: every round ends, every card is accounted for, views hide what S4-S5
hide, checked and unchecked moves agree, records and move texts round-trip, and the
O(piles) blocked detector (S12) agrees with an exhaustive search."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spy_helpers import can_ever_place, snapshot

from cardtable.games.spy import SpyOptions, SpyState, action_to_text, text_to_action
from cardtable.games.spy.actions import NUM_ACTIONS
from cardtable.games.spy.deal import RoundGenerator, _shuffled_deck, deal_cards
from cardtable.games.spy.position import Position
from cardtable.games.spy.records import replay_record

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

tables = st.tuples(
    st.integers(2, 8),  # players
    st.booleans(),  # full_decks
    st.integers(0, 2**32),  # deal seed
    st.integers(0, 2**32),  # play seed
    st.integers(1, 2),  # rounds
    # 0: any legal move; 1: no resigning unless forced; 2: no resigning nor calling
    # unless forced (long rounds: recycling, six piles, blocks, the move limit)
    st.integers(0, 2),
)


LIMIT = 120


def pick(rng: random.Random, legal: list[int], mode: int) -> int:
    """A random legal move; mode 1 avoids resigning, mode 2 resigning and calling."""
    if mode:
        avoid = (16,) if mode == 1 else (15, 16)
        others = [a for a in legal if a % 17 not in avoid]
        if others:
            return rng.choice(others)
    return rng.choice(legal)


def play_randomly(table, check):
    """Random legal play of a whole match with a move limit, calling ``check`` after
    every move; returns the final state and the number of moves made."""
    players, full, seed, play_seed, rounds, mode = table
    options = SpyOptions(full_decks=full, rounds=rounds)
    state = SpyState.deal(players, seed=seed, options=options, move_limit=LIMIT)
    rng = random.Random(play_seed)
    moves = 0
    # Each player makes at most LIMIT + 1 moves a round (then the forced resign).
    bound = rounds * players * (LIMIT + 1)
    while not state.is_terminal():
        assert moves < bound, "a round did not end"
        state.apply_action(pick(rng, state.legal_actions(), mode))
        moves += 1
        check(state)
    return state, moves


@FAST
@given(tables)
def test_every_round_ends_and_every_card_is_accounted_for(table) -> None:
    players, _, _, _, rounds, _ = table
    dealt: dict[int, list[Counter[int]]] = {}

    def check(state: SpyState) -> None:
        if state.round_over:
            return
        if state.round_number not in dealt:
            cards = state.played_rounds()[-1][0]
            dealt[state.round_number] = [Counter(hand) for hand in cards]
        for seat, hand in zip(state.seats, dealt[state.round_number], strict=True):
            assert Counter(seat.cards()) == hand

    state, _ = play_randomly(table, check)
    assert state.is_terminal()
    assert len(state.results) == rounds
    assert state.totals == [sum(r.scores[p] for r in state.results) for p in range(players)]


@FAST
@given(tables)
def test_checked_and_unchecked_moves_agree_and_texts_round_trip(table) -> None:
    players, full, seed, play_seed, _, mode = table
    options = SpyOptions(full_decks=full, rounds=1)
    fast = SpyState.deal(players, seed=seed, options=options, move_limit=LIMIT)
    checked = fast.clone()
    rng = random.Random(play_seed)
    while not fast.is_terminal():
        legal = fast.legal_actions()
        assert legal == sorted(legal)
        assert legal == [a for p in range(players) for a in fast.legal_actions(p)]
        for action in legal:
            assert text_to_action(action_to_text(action)) == action
            assert fast.illegal_reason(action) is None
        for action in rng.sample(range(NUM_ACTIONS), 5):
            assert (fast.illegal_reason(action) is None) == (action in legal)
        action = pick(rng, legal, mode)
        fast.apply_action(action)
        events = checked.apply(action_to_text(action) if rng.random() < 0.5 else action)
        assert events
        assert events[0].player == action // 17
        assert snapshot(fast) == snapshot(checked)
        for seat in fast.seats:  # the in-place update equals the from-scratch one
            if not (seat.resigned or seat.called or fast.round_over):
                fresh = seat.copy()
                fresh.refresh()
                assert fresh.legal == seat.legal
                assert seat.blocked == seat.is_blocked()


@FAST
@given(tables)
def test_records_round_trip(table) -> None:
    state, _ = play_randomly(table, lambda s: None)
    record = state.to_record()
    replayed = replay_record(record)
    assert replayed.state.to_record() == record
    assert replayed.state.results == state.results
    assert replayed.summary()["totals"] == state.totals
    # a record cut anywhere replays too, and reports the round in play
    moves = record["rounds"][0]["moves"]
    cut = {**record, "rounds": [{**record["rounds"][0], "moves": moves[: len(moves) // 2]}]}
    summary = replay_record(cut).summary()
    assert summary["complete"] is False
    assert summary["next"] == {"player": None, "decision": "move"}
    assert summary["rounds"][0]["finisher"] is None


@FAST
@given(tables, st.integers(0, 200))
def test_views_hide_the_racing_deck_and_points_under_the_top(table, steps) -> None:
    players, full, seed, play_seed, _, _ = table
    state = SpyState.deal(players, seed=seed, options=SpyOptions(full_decks=full, rounds=1))
    rng = random.Random(play_seed)
    for _ in range(steps):
        legal = [a for a in state.legal_actions() if a % 17 != 16]  # no resigning
        if state.round_over or not legal:
            break
        state.apply_action(rng.choice(legal))
    if state.round_over:
        return
    other = state.clone()
    for seat in other.seats:  # reorder only what S4-S5 hide
        rng.shuffle(seat.deck)
        if len(seat.points) > 2:
            under = seat.points[:-1]
            rng.shuffle(under)
            seat.points[:-1] = under
    for viewer in [None, *range(players)]:
        assert state.view(viewer) == other.view(viewer)
        assert state.view(viewer).to_dict() == other.view(viewer).to_dict()
    assert state.view(0).seats == state.view(None).seats  # the owner sees no more


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=1, max_size=6),
    st.sets(st.integers(0, 12), min_size=1, max_size=3),
    st.data(),
)
def test_blocked_detector_agrees_with_exhaustive_search(tops, rank_pool, data) -> None:
    """S12: blocked exactly when the points pile is not empty and no sequence of moves
    can ever put a card on a pile. Cards come from a few ranks so blocks are common."""
    pool = sorted(rank_pool)
    card = st.builds(lambda r, s: s * 13 + r, st.sampled_from(pool), st.integers(0, 3))
    points = data.draw(st.lists(card, max_size=3))
    deck = data.draw(st.lists(card, max_size=3))
    waste = data.draw(st.lists(card, max_size=3))
    piles = [[s * 13 + t] for s, t in enumerate(tops)]
    pos = Position.from_parts(0, points=points, piles=piles, deck=deck, waste=waste)
    expected = bool(points) and not can_ever_place(pos)
    assert pos.blocked == expected
    assert pos.is_blocked() == expected
    # and the incremental flag stays right as the position is played
    rng = random.Random(len(points) * 7 + len(deck))
    for _ in range(8):
        moves = [a for a in pos.legal if a not in (15, 16)]
        if not moves:
            break
        pos.play(rng.choice(moves))
        assert pos.blocked == (bool(pos.points) and not can_ever_place(pos))


def test_blocked_detector_sees_blocks_and_non_blocks() -> None:
    """The exhaustive comparison above meets both answers (guards the strategy)."""
    blocked = Position.from_parts(
        0, points=[0], piles=[[4], [4], [4], [4], [8], [8]], deck=[0, 13], waste=[26]
    )
    assert blocked.blocked
    assert not can_ever_place(blocked)
    free = Position.from_parts(
        0, points=[0], piles=[[4], [4], [4], [4], [8], [8]], deck=[3], waste=[]
    )
    assert not free.blocked
    assert can_ever_place(free)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64), st.integers(1, 50), st.integers(2, 8), st.booleans())
def test_deals_are_exact_decks_and_deterministic(seed, round_number, players, full) -> None:
    cards = deal_cards(seed=seed, round_number=round_number, players=players, full_decks=full)
    again = deal_cards(seed=seed, round_number=round_number, players=players, full_decks=full)
    assert cards == again
    if players == 2 and not full:
        assert sorted(cards[0] + cards[1]) == list(range(52))
    else:
        assert all(sorted(hand) == list(range(52)) for hand in cards)


def test_paired_shuffle_is_the_plain_fisher_yates_shuffle() -> None:
    """Decoding factorial digits two at a time gives the plain one-at-a-time shuffle."""
    for key in range(300):
        number = RoundGenerator(str(key)).next_number() % math.factorial(52)
        deck = list(range(52))
        for i in range(51, 0, -1):
            number, j = divmod(number, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        assert _shuffled_deck(RoundGenerator(str(key))) == deck


def test_deal_is_fixed_across_machines() -> None:
    """The deal of a seed is pinned: any change to dealing shows up here."""
    cards = deal_cards(seed=1, round_number=1, players=2, full_decks=False)
    from cardtable.cards import format_cards

    assert format_cards(cards[0][:9]) == "QS 9D 9C JD JC 6D 6C 2S 3C"
