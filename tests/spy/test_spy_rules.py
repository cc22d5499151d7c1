"""One test (at least) per rule of docs/rules/spy.en.md, S1-S17, named with its tag."""

from __future__ import annotations

import random

import pytest
from spy_helpers import hands

from cardtable.cards import KIND_TEXT, parse_card_kind
from cardtable.errors import BadOptions, BadRecord, IllegalMove
from cardtable.games.spy import GAME, SpyOptions, SpyState, text_to_action
from cardtable.games.spy.position import Position, fits
from cardtable.games.spy.race import (
    FixedTime,
    GreedyPolicy,
    RandomPolicy,
    run_race,
)
from cardtable.games.spy.records import replay_record
from cardtable.games.spy.views import SeatWindow

#: Every rule holds on both engines: the pure-Python reference and the compiled core.
pytestmark = pytest.mark.usefixtures("spy_engine")

K = parse_card_kind


def kinds(*texts: str) -> list[int]:
    return [K(t) for t in texts]


def reason(state: SpyState, move: str) -> str:
    with pytest.raises(IllegalMove) as info:
        state.apply(move)
    return info.value.reason


def test_s1_two_to_eight_players() -> None:
    for players in range(2, 9):
        assert SpyState.deal(players, seed=1).num_players == players
    for players in (0, 1, 9):
        with pytest.raises(ValueError, match="2 to 8 players"):
            SpyState.deal(players, seed=1)
    with pytest.raises(BadOptions, match="S1"):
        GAME.new_record(seed=1, players=[f"P{i}" for i in range(9)], options={})


def test_s2_two_players_share_one_deck_others_have_a_full_deck() -> None:
    state = SpyState.deal(2, seed=5)
    first, second = state.played_rounds()[0][0]
    assert len(first) == len(second) == 26
    assert sorted(first + second) == list(range(52))
    full = SpyState.deal(2, seed=5, options=SpyOptions(full_decks=True))
    for hand in full.played_rounds()[0][0]:
        assert sorted(hand) == list(range(52))
    for hand in SpyState.deal(3, seed=5).played_rounds()[0][0]:
        assert sorted(hand) == list(range(52))  # with 3+ players full_decks changes nothing
    record = SpyState.deal(2, seed=5, options=SpyOptions(full_decks=True)).to_record()
    record["options"]["full_decks"] = False
    with pytest.raises(BadRecord, match=r"rounds\[0\]\.cards\[0\].*26 cards"):
        replay_record(record)


def test_s3_points_pile_square_and_racing_deck() -> None:
    cards = hands(["2S", "3S", "4S", "5S", "6S", "7H", "8H", "9H", "10H", "JD"], ["AC"])
    state = SpyState.from_cards(2, cards)
    seat = state.position(0)
    assert seat.points[::-1] == kinds("2S", "3S", "4S", "5S", "6S")  # top first
    assert [pile[-1] for pile in seat.piles] == kinds("7H", "8H", "9H", "10H")
    assert seat.deck[-1] == K("JD")
    assert len(seat.deck) == 26 - 9
    view = state.view(0).seats[0]
    assert [KIND_TEXT[k] for k in view.pile_tops] == ["7H", "8H", "9H", "10H"]
    assert view.deck_count == 17
    assert view.waste_count == 0
    full = SpyState.deal(4, seed=2)
    assert all(len(s.deck) == 43 and len(s.points) == 5 for s in full.seats)


def test_s4_points_top_face_up_rest_hidden() -> None:
    cards = hands(["9S", "3S", "4D", "5S", "6S", "10H", "8H", "2C", "KD"], ["AC"])
    state = SpyState.from_cards(2, cards)
    assert state.view(None).seats[0].points_top == K("9S")
    events = state.apply("0 place points 1")  # 9S onto 10H
    assert [e.type for e in events] == ["place", "reveal"]
    assert events[1].card == K("3S")
    assert state.view(1).seats[0].points_top == K("3S")
    assert state.view(1).seats[0].points_count == 4
    # the cards under the top are in no view, not even the owner's
    other = hands(["9S", "4D", "3S", "6S", "5S", "10H", "8H", "2C", "KD"], ["AC"])
    assert SpyState.from_cards(2, other).view(0) == SpyState.from_cards(2, cards).view(0)


def test_s5_racing_deck_hidden_waste_top_playable() -> None:
    state = SpyState.deal(2, seed=8, options=SpyOptions(rounds=1))
    swapped = state.clone()
    swapped.position(0).deck.reverse()
    assert state.view(0) == swapped.view(0)  # the order is in nobody's view
    top = state.position(0).deck[-1]
    events = state.apply("0 turn")
    assert events[0].card == top
    assert state.view(None).seats[0].waste_top == top
    seat = Position.from_parts(
        0, points=kinds("KS"), piles=[kinds("4H")], deck=[], waste=kinds("9C", "5D")
    )
    # only the waste's top (9C) may be played, not the 5D under it
    assert seat.legal == [0, 13, 14, 16]


def test_s6_one_rank_up_or_down_cyclic_suits_ignored() -> None:
    assert fits(K("2H"), K("AS"))
    assert fits(K("AS"), K("2H"))
    assert fits(K("AD"), K("KC"))
    assert fits(K("KC"), K("AD"))
    assert fits(K("8S"), K("7S"))
    assert fits(K("6H"), K("7S"))
    assert not fits(K("7H"), K("7S"))
    assert not fits(K("3H"), K("AS"))
    cards = hands(["7H", "3S", "4D", "5S", "6S", "2C", "QS", "3C", "KD"], ["AC"])
    state = SpyState.from_cards(2, cards)
    assert reason(state, "0 place points 2") == (
        "7H does not fit on pile 2 (top QS): a card goes on a pile one rank above or below it"
    )
    assert reason(state, "0 place points 5").startswith("there is no pile 5")


def test_s7_only_points_top_and_waste_top_are_playable() -> None:
    cards = hands(["9S", "8S", "4D", "5S", "6S", "2C", "QS", "3C", "KD", "JH"], ["AC"])
    state = SpyState.from_cards(2, cards)
    legal = set(state.legal_actions(0))
    assert text_to_action("0 place points 1") not in legal  # 9S fits nowhere
    assert reason(state, "0 place waste 2") == "the waste is empty: turn a card first"
    state.apply("0 turn")  # JH onto the waste: it fits QS (pile 2)
    state.apply("0 place waste 2")
    assert state.position(0).piles[1] == kinds("QS", "JH")


def test_s8_open_up_to_six_piles_at_any_time() -> None:
    cards = hands(["3S", "9D", "4D", "5S", "6S", "2C", "QS", "3C", "KD"], ["AC"])
    state = SpyState.from_cards(2, cards)
    assert "0 place points 1" in [state_text(a) for a in state.legal_actions(0)]
    events = state.apply("0 open points")  # allowed although 3S fits on 2C
    assert (events[0].type, events[0].pile, events[0].card) == ("open", 5, K("3S"))
    state.apply("0 turn")
    state.apply("0 open waste")
    assert len(state.position(0).piles) == 6
    assert reason(state, "0 open points") == "all 6 piles are open: no more piles may be opened"


def state_text(action: int) -> str:
    from cardtable.games.spy import action_to_text

    return action_to_text(action)


def test_s9_turning_and_recycling_the_waste() -> None:
    seat = Position.from_parts(
        0, points=kinds("KS"), piles=[kinds("4H")], deck=kinds("2C", "3C", "5C"), waste=[]
    )
    for _ in range(3):
        seat.play(0)
    assert seat.waste[::-1] == kinds("5C", "3C", "2C")
    assert not seat.deck
    seat.play(0)  # the waste turns over: the first-turned 2C is on top again
    assert seat.waste == kinds("2C")
    assert seat.deck[::-1] == kinds("3C", "5C")
    for _ in range(30):  # unlimited
        seat.play(0)
    assert sorted(seat.deck + seat.waste) == sorted(kinds("2C", "3C", "5C"))
    empty = Position.from_parts(0, points=kinds("KS"), piles=[kinds("4H")], deck=[], waste=[])
    assert 0 not in empty.legal


def test_s10_call_only_with_an_empty_points_pile_first_call_wins() -> None:
    result = run_race(2, [GreedyPolicy(), GreedyPolicy()], seed=3, options=SpyOptions(rounds=1))
    state = result.state
    finisher = state.results[0].finisher
    assert finisher is not None
    assert state.results[0].points_left[finisher] == 0
    record = state.to_record()
    assert record["rounds"][0]["moves"][-1] == f"{finisher} call"  # the round ended at once
    record["rounds"][0]["moves"].append(f"{1 - finisher} turn")
    with pytest.raises(IllegalMove, match=r"round 1, move \d+: .*already over"):
        replay_record(record)
    fresh = SpyState.deal(2, seed=3)
    assert reason(fresh, "1 call") == (
        "the points pile still holds 5 cards: call only when it is empty"
    )


def test_s11_cards_on_piles_never_move() -> None:
    state = SpyState.deal(3, seed=9, options=SpyOptions(rounds=1), move_limit=80)
    rng = random.Random(1)
    before = [[p[:] for p in s.piles] for s in state.seats]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            break
        for old, seat in zip(before, state.seats, strict=True):
            for pile_before, pile_now in zip(old, seat.piles, strict=False):
                assert pile_now[: len(pile_before)] == pile_before
        before = [[p[:] for p in s.piles] for s in state.seats]


def test_s12_blocked_definition() -> None:
    six = [kinds(t) for t in ("7S", "7H", "7D", "7C", "2S", "2H")]  # fits: 6 8 A 3
    blocked = Position.from_parts(
        0, points=kinds("10S", "8S"), piles=six, deck=kinds("KD"), waste=kinds("5C")
    )
    assert blocked.blocked
    assert blocked.is_blocked()
    assert blocked.legal == [0, 16]  # a blocked player may still turn or resign
    free = Position.from_parts(0, points=kinds("10S"), piles=six, deck=kinds("KD", "3C"), waste=[])
    assert not free.blocked  # 3C is deep in the deck but will come up
    five = Position.from_parts(0, points=kinds("10S"), piles=six[:5], deck=[], waste=[])
    assert not five.blocked  # a sixth pile may still be opened
    done = Position.from_parts(0, points=[], piles=six, deck=kinds("KD"), waste=[])
    assert not done.blocked  # an empty points pile calls


def test_s12_round_ends_with_no_winner_when_everyone_left_is_blocked() -> None:
    result = run_race(
        ["Ann", "Bob"],
        [RandomPolicy(), RandomPolicy()],
        seed=72,
        options=SpyOptions(rounds=1),
        move_limit=400,
    )
    outcome = result.state.results[0]
    assert outcome.finisher is None
    assert outcome.blocked == (True, True)
    assert outcome.scores == (0, 0)
    summary = replay_record(result.state.to_record()).summary()
    assert summary["rounds"][0]["blocked"] == [True, True]
    assert summary["complete"]


def test_s13_resign() -> None:
    state = SpyState.deal(3, seed=4, options=SpyOptions(rounds=1))
    events = state.apply("1 resign")
    assert events[0].type == "resign"
    assert state.legal_actions(1) == []
    assert reason(state, "1 turn") == "player 1 has resigned this round and makes no more moves"
    state.apply("0 resign")
    events = state.apply("2 resign")  # all resigned: the round ends with no winner
    assert [e.type for e in events] == ["resign", "round_end", "match_end"]
    assert state.results[0].finisher is None
    assert state.results[0].blocked == (False,) * 3


def test_s14_first_caller_minus_bonus_others_plus_bonus() -> None:
    result = run_race(3, [GreedyPolicy()] * 3, seed=12, options=SpyOptions(rounds=1))
    outcome = result.state.results[0]
    assert outcome.finisher is not None
    assert outcome.scores == tuple(-20 if p == outcome.finisher else 20 for p in range(3))


def test_s15_bonus_and_count_points_pile_options() -> None:
    options = SpyOptions(rounds=1, bonus=7, count_points_pile=True)
    result = run_race(2, [GreedyPolicy(), GreedyPolicy()], seed=1, options=options)
    outcome = result.state.results[0]
    assert outcome.finisher is not None
    for p in range(2):
        base = -7 if p == outcome.finisher else 7
        assert outcome.scores[p] == base + outcome.points_left[p]
    assert max(outcome.points_left) > 0  # the option made a difference


def test_s16_match_of_rounds_lowest_total_wins_ties_share() -> None:
    result = run_race(2, [GreedyPolicy(), GreedyPolicy()], seed=1, options=SpyOptions(rounds=4))
    state = result.state
    assert len(state.results) == 4
    assert state.is_terminal()
    assert state.totals == [sum(r.scores[p] for r in state.results) for p in range(2)]
    best = min(state.totals)
    assert state.winners() == [p for p in range(2) if state.totals[p] == best]
    tied = SpyState.deal(2, seed=1, options=SpyOptions(rounds=1))
    tied.apply("0 resign")
    tied.apply("1 resign")
    assert tied.winners() == [0, 1]
    record = state.to_record()
    record["options"]["rounds"] = 3
    with pytest.raises(BadRecord, match=r"4 rounds, but options\.rounds is 3"):
        replay_record(record)


def _solo_call_moves(cards: tuple[int, ...]) -> int | None:
    seat = Position.deal(0, cards)
    policy = GreedyPolicy()
    window = SeatWindow(seat)
    while not seat.called and not seat.blocked and not seat.resigned:
        seat.play(policy.choose(window, seat.legal) - seat.base)
    return seat.moves if seat.called else None


def test_s17_finishing_time_is_the_sum_of_move_times() -> None:
    times = [FixedTime(2.0), FixedTime(0.5)]
    result = run_race(
        2, [GreedyPolicy(), GreedyPolicy()], seed=5, times=times, options=SpyOptions(rounds=1)
    )
    race = result.rounds[0]
    finisher = race.finisher
    assert finisher is not None
    moves = [
        text
        for text in result.state.to_record()["rounds"][0]["moves"]
        if text.startswith(f"{finisher} ")
    ]
    assert race.finish_times[finisher] == len(moves) * times[finisher].seconds
    assert race.end_time == race.finish_times[finisher]


def test_s17_equal_finishing_times_broken_by_a_seeded_coin_not_seat_order() -> None:
    winners = set()
    for seed in range(200):
        state = SpyState.deal(2, seed=seed, options=SpyOptions(rounds=1))
        calls = [_solo_call_moves(h) for h in state.played_rounds()[0][0]]
        if calls[0] is None or calls[0] != calls[1]:
            continue
        race = run_race(
            2, [GreedyPolicy(), GreedyPolicy()], seed=seed, options=SpyOptions(rounds=1)
        ).rounds[0]
        assert race.finisher == race.order[0]  # the coin's first player wins the tie
        winners.add(race.finisher)
    assert winners == {0, 1}


@pytest.mark.parametrize(
    ("options", "option", "high"),
    [
        ({"rounds": 10**9}, "options.rounds", 100),
        ({"rounds": 0}, "options.rounds", 100),
        ({"bonus": 10**400}, "options.bonus", 1000),
        ({"bonus": -1001}, "options.bonus", 1000),
    ],
)
def test_s14_s16_options_have_bounds(options: dict[str, int], option: str, high: int) -> None:
    """S14, S15, S16: ``bonus`` is -1000 to 1000 (S15: any whole number, so a negative
    one too) and ``rounds`` 1-100; outside, the option is
    refused with its message id and path (docs/rules/spy.en.md, Options)."""
    with pytest.raises(BadOptions) as refused:
        GAME.check_options(options, 2)
    assert refused.value.code == "value.int_range"
    assert refused.value.params["option"] == option
    assert refused.value.params["high"] == high
    assert GAME.check_options({"rounds": 100, "bonus": 1000}, 2)["rounds"] == 100
    assert GAME.check_options({"bonus": 0}, 2)["bonus"] == 0
    assert GAME.check_options({"bonus": -1000}, 2)["bonus"] == -1000  # S15


def test_s2a_same_deal_every_player_the_same_full_deck_order() -> None:
    # S2a: with same_deal every player holds the same full deck in the same order, and
    # the order depends only on the seed, not on how many players the table seats.
    options = {"same_deal": True, "rounds": 2}

    def hands_of(players: int, seed: int, opts: dict[str, object]) -> list[list[str]]:
        names = [f"P{i}" for i in range(players)]
        record = GAME.new_record(seed=seed, players=names, options=opts)
        return [list(hand) for hand in record["rounds"][0]["cards"]]

    for players in (2, 3, 8):
        cards = hands_of(players, 11, options)
        assert all(len(hand) == 52 for hand in cards)
        assert all(hand == cards[0] for hand in cards)
    assert hands_of(2, 11, options)[0] == hands_of(8, 11, options)[0]
    assert hands_of(3, 12, options)[0] != hands_of(3, 11, options)[0]
    plain = hands_of(3, 11, {"rounds": 2})
    assert not plain[0] == plain[1] == plain[2]
    # The record says so and replays; hands that differ are refused.
    record = GAME.new_record(seed=11, players=["A", "B", "C"], options=options)
    assert record["options"]["same_deal"] is True
    replay_record(record)
    record["rounds"][0]["cards"][1] = record["rounds"][0]["cards"][1][::-1]
    with pytest.raises(BadRecord, match="player 2"):
        replay_record(record)
