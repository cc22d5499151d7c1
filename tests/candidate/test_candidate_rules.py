"""One test (or a few) per rule of docs/rules/candidate.en.md, C1–C17, named with the rule's tag.

Positions are built from chosen piles (conftest.dealt): dealer 0 deals from pile S, so
player 1 (the non-dealer) leads first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from candidate_helpers import arranged_piles, dealt, kinds, texts

from cardtable.cards import parse_cards
from cardtable.errors import BadOptions, BadRecord, IllegalMove
from cardtable.games.candidate import (
    GAME,
    CandidateOptions,
    CandidateState,
    capture_score,
    card_points,
    deal_piles,
    first_dealer,
    replay_record,
)
from cardtable.games.candidate.scoring import winners

#: Every rule holds on both engines: the pure-Python reference and the compiled core.
pytestmark = pytest.mark.usefixtures("candidate_engine")

# Hands used by several tests: after `deal S` and `lobby H` (9H), player 1 leads.
DEALER = "QS 8S 2S 3S 4S"
OTHER = "10S JS 9S 5S 6S"


def lobby_9h() -> CandidateState:
    state = dealt(DEALER, OTHER, H="9H")
    state.apply("lobby H")
    return state


def find_state(
    predicate: Callable[[CandidateState], bool], decks: int = 1, seeds: int = 400
) -> CandidateState:
    """The first state reached by random play (over many seeds) that satisfies
    ``predicate``."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = GAME.new_initial_state(seed, {"decks": decks, "deals": 1})
        while not state.is_terminal():
            if predicate(state):
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such state reached")


def test_c1_two_players_and_one_to_three_decks() -> None:
    assert GAME.num_players == 2
    for decks in (1, 2, 3):
        state = GAME.new_initial_state(3, {"decks": decks})
        assert sum(state.all_cards().values()) == 52 * decks
        assert all(len(state.pile(s)) == 13 * decks for s in range(4))
    for bad in (0, 4, "2", True):
        with pytest.raises(BadOptions, match=r"options\.decks"):
            CandidateOptions.from_dict({"decks": bad})
    with pytest.raises(BadOptions, match="two players"):
        GAME.new_record(seed=1, players=["A", "B", "C"], options={})


def test_c2_first_dealer_by_lot_then_alternating() -> None:
    lots = {first_dealer(seed) for seed in range(40)}
    assert lots == {0, 1}
    assert first_dealer(7) == first_dealer(7) == GAME.new_initial_state(7).dealer
    state = GAME.new_initial_state(11, {"deals": 4})
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    dealers = [deal.dealer for deal in state.history]
    assert dealers == [first_dealer(11), 1 - first_dealer(11)] * 2


def test_c2_record_with_dealers_not_alternating_is_malformed() -> None:
    state = GAME.new_initial_state(2, {"deals": 2})
    rng = random.Random(1)
    while state.deal_number == 1:
        state.apply(rng.choice(state.legal_actions()))
    record = state.to_record(["A", "B"])
    record["deals"][1]["dealer"] = record["deals"][0]["dealer"]
    with pytest.raises(BadRecord, match=r"deals\[1\]\.dealer: expected .*alternates"):
        replay_record(record)


def test_c3_each_pile_is_one_shuffled_suit_and_public() -> None:
    piles = deal_piles("x", 0, 2)
    for suit, pile in enumerate(piles):
        assert sorted(pile) == sorted([suit * 13 + r for r in range(13)] * 2)
    assert piles == deal_piles("x", 0, 2)  # the same seed, the same cards
    assert piles != deal_piles("x", 1, 2)  # each deal shuffled anew
    assert any(list(p) != sorted(p) for p in piles)
    view = GAME.new_initial_state(1).view(0)
    assert view.piles == (("S", 13), ("H", 13), ("D", 13), ("C", 13))


def test_c4_deal_five_each_one_at_a_time_non_dealer_first() -> None:
    state = CandidateState.from_piles(arranged_piles(S="3S 2S 5S 4S 7S 6S 9S 8S JS 10S"), 0)
    assert state.decision == "deal"
    assert state.current_player == 0
    events = state.apply("deal S")
    assert texts(state.hand(1)) == ["3S", "5S", "7S", "9S", "JS"]  # non-dealer: 1st, 3rd…
    assert texts(state.hand(0)) == ["2S", "4S", "6S", "8S", "10S"]
    assert len(state.pile(0)) == 3  # the rest stays as the S pile
    assert [e.type for e in events] == ["dealt", "received", "received"]
    assert [e.player for e in events[1:]] == [1, 0]


def test_c5_dealer_turns_the_first_lobby_card_from_a_pile_of_choice() -> None:
    state = dealt(DEALER, OTHER, H="9H", D="KD")
    assert (state.decision, state.current_player) == ("lobby", 0)
    assert state.legal_moves() == ["lobby S", "lobby H", "lobby D", "lobby C"]
    events = state.apply("lobby D")
    assert texts(state.lobby) == ["KD"]
    assert events[0].type == "lobby_turned"
    assert events[0].pile == "D"


def test_c6_non_dealer_leads_with_one_or_more_cards_or_a_pass() -> None:
    state = lobby_9h()
    assert (state.decision, state.current_player) == ("play", 1)
    assert state.legal_moves() == ["pass", "play 9S", "play 10S", "play 10S JS"]
    state.apply("play 10S JS")
    assert texts(state.lobby) == ["9H", "10S", "JS"]
    assert state.current_player == 0


def test_c7_run_goes_up_one_rank_at_a_time() -> None:
    state = lobby_9h()
    state.apply("play 10S JS")
    assert state.lobby_shape == "run"
    with pytest.raises(IllegalMove) as info:
        state.apply("play 8S")
    assert info.value.reason == "8S does not continue the run 9-10-J: the next card must be a Q"
    assert state.legal_moves() == ["pass", "play QS"]
    state.apply("play QS")
    assert texts(state.lobby) == ["9H", "10S", "JS", "QS"]


def test_c7_run_only_goes_up_and_stops_at_the_ace() -> None:
    state = dealt("AS 2S 3S 4S 5S", "KS 6S 7S 8S 9S", H="QH")
    state.apply("lobby H")
    state.apply("play KS")
    assert state.current_player == 0
    assert state.legal_moves() == ["pass", "play AS"]  # no J (down), no wrap
    state.apply("play AS")
    state.apply("pass")
    with pytest.raises(IllegalMove, match="a run stops at A"):
        state.apply("play 2S")  # no wrap from A to 2


def test_c7_same_rank_makes_a_set_and_fixes_the_kind() -> None:
    state = lobby_9h()
    state.apply("play 9S")
    assert state.lobby_shape == "set"
    state.apply("pass")
    with pytest.raises(IllegalMove) as info:
        state.apply("play 10S")  # a run no longer fits
    assert info.value.reason == "10S does not continue the set of 9s: the next card must be a 9"


def test_c7_first_card_onto_a_lone_lobby_card_must_be_same_or_next_rank() -> None:
    state = lobby_9h()
    with pytest.raises(IllegalMove) as info:
        state.apply("play 5S")
    assert "5S does not continue the lobby 9H" in info.value.reason
    assert "a 10 (a run) or a 9 (a set)" in info.value.reason
    with pytest.raises(IllegalMove, match="you do not hold QS"):
        state.apply("play QS")


def test_c8_pass_is_allowed_even_when_a_play_is_possible() -> None:
    state = lobby_9h()
    assert "play 10S" in state.legal_moves()
    state.apply("pass")
    assert (state.decision, state.current_player) == ("play", 0)
    state.apply("pass")  # two passes in a row end the trick
    assert state.lobby == ()


def test_c9_last_player_to_place_takes_the_whole_lobby() -> None:
    state = lobby_9h()
    state.apply("play 10S")
    state.apply("pass")
    events = state.apply("pass")
    assert [texts(c) for c in state.captures(1)] == [["9H", "10S"]]
    taken = next(e for e in events if e.type == "trick_taken")
    assert (taken.player, taken.score) == (1, 4)


def test_c9_unplayed_lobby_card_is_discarded_and_the_same_player_leads() -> None:
    state = lobby_9h()
    state.apply("pass")
    events = state.apply("pass")
    assert [e.type for e in events] == ["passed", "lobby_discarded"]
    assert texts(state.discards) == ["9H"]
    assert state.captures(0) == state.captures(1) == ()
    assert (state.decision, state.current_player) == ("lobby", 0)  # the non-leader turns
    state.apply("lobby H")
    assert (state.decision, state.current_player, state.leader) == ("play", 1, 1)


def test_c10_taker_draws_up_to_five_then_the_opponent() -> None:
    state = lobby_9h()
    state.apply("play 10S JS")  # player 1 keeps 3 cards
    state.apply("play QS")  # player 0 keeps 4 cards
    state.apply("pass")
    state.apply("pass")  # player 0 takes 9H 10S JS QS
    assert [texts(c) for c in state.captures(0)] == [["9H", "10S", "JS", "QS"]]
    assert (state.decision, state.current_player) == ("draw", 0)
    state.apply("draw C")  # one card, then player 0 holds 5
    assert len(state.hand(0)) == 5
    assert (state.decision, state.current_player) == ("draw", 1)
    state.apply("draw D")
    assert (state.decision, state.current_player) == ("draw", 1)
    events = state.apply("draw D")
    assert events[0].type == "drew"
    assert events[0].secret_to == 1
    assert len(state.hand(1)) == 5
    assert state.decision == "lobby"


def test_c10_a_player_with_five_cards_does_not_draw() -> None:
    state = lobby_9h()
    state.apply("play 10S")
    state.apply("pass")
    state.apply("pass")  # player 1 takes with 4 cards; player 0 still has 5
    state.apply("draw H")
    assert len(state.hand(1)) == 5
    assert len(state.hand(0)) == 5
    assert (state.decision, state.current_player) == ("lobby", 0)


def test_c10_drawing_stops_when_the_piles_run_out() -> None:
    def short_draw(state: CandidateState) -> bool:
        return state.decision == "play" and not state.lobby and len(state.hand(state.leader)) < 5

    state = find_state(short_draw)
    assert all(len(state.pile(s)) == 0 for s in range(4))
    assert state.decision == "play"


def test_c11_non_taker_turns_the_lobby_and_taker_leads() -> None:
    state = lobby_9h()
    state.apply("play 10S")
    state.apply("pass")
    state.apply("pass")
    state.apply("draw H")
    assert (state.decision, state.current_player) == ("lobby", 0)
    state.apply("lobby C")
    assert (state.decision, state.current_player) == ("play", 1)


def test_c12_with_empty_piles_the_leader_must_start_the_lobby_from_hand() -> None:
    state = find_state(lambda s: s.decision == "play" and not s.lobby and bool(s.hand(s.leader)))
    leader = state.current_player
    hand = state.hand(leader)
    starts = {m.split()[1] for m in state.legal_moves()}
    assert starts == set(texts(hand))  # any card may start
    assert "pass" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"must start the lobby .* \(C12\)"):
        state.apply("pass")
    state.apply(state.legal_actions()[0])
    assert len(state.lobby) >= 1


def test_c12_leader_without_cards_passes_and_the_opponent_must_start() -> None:
    state = find_state(lambda s: s.decision == "play" and not s.lobby and not s.hand(s.leader))
    leader = state.current_player
    assert state.legal_moves() == ["pass"]
    state.apply("pass")
    assert (state.current_player, state.leader) == (1 - leader, 1 - leader)
    assert "pass" not in state.legal_moves()


def test_c12_a_lone_card_started_from_hand_scores_its_points() -> None:
    state = find_state(lambda s: s.decision == "play" and not s.lobby and bool(s.hand(s.leader)))
    leader = state.current_player
    card = state.hand(leader)[0]
    state.apply(f"play {texts([card])[0]}")
    before = state.deal_scores[leader]
    state.apply("pass")
    state.apply("pass")
    assert state.captures(leader)[-1] == (card,)
    assert state.deal_scores[leader] - before == card_points(card)


def test_c13_deal_ends_when_hands_and_piles_are_empty() -> None:
    for decks in (1, 2, 3):
        state = GAME.new_initial_state(decks, {"decks": decks, "deals": 1})
        rng = random.Random(decks)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        deal = state.history[0]
        taken = Counter(k for caps in deal.captures for c in caps for k in c)
        taken.update(deal.discards)
        assert taken == Counter(k for k in range(52) for _ in range(decks))


def test_c14_card_points() -> None:
    assert [card_points(k) for k in kinds("2S 9H 10D JC QS KH AD")] == [1, 1, 1, 2, 2, 2, 2]


def test_c15_run_set_and_single_scores() -> None:
    assert capture_score(kinds("9H 10S JS")) == (1 + 1 + 2) * 3
    assert capture_score(kinds("KH KS")) == 4  # a set: n × n
    assert capture_score(kinds("AS")) == 2
    assert capture_score(kinds("5S")) == 1


# C16: the seed's own examples, in the seed's own notation.
SEED_EXAMPLES = [
    ("♣ 9, ♦ 10", 4),
    ("♠ Д, ♣ К", 8),
    ("♦ 7, ♥ 8, ♠ 9", 9),
    ("♥ 10, ♣ В, ♦ Д", 15),
    ("♦ В, ♠ Д, ♣ К, ♠ Т", 32),
    ("♦ 10, ♣ 10, ♠ 10", 9),
    ("♥ Д, ♠ Д, ♣ Д, ♦ Д", 16),
]


@pytest.mark.parametrize(("seed_text", "points"), SEED_EXAMPLES)
def test_c16_seed_scoring_examples(seed_text: str, points: int) -> None:
    cards = parse_cards(seed_text)
    assert capture_score([c.kind for c in cards]) == points


def test_c16_seed_example_scored_when_taken_in_play() -> None:
    state = dealt("QS 2S 3S 4S 5S", "KS 6S 7S 8S AS", D="JD")
    state.apply("lobby D")
    state.apply("pass")
    state.apply("play QS")
    state.apply("play KS AS")  # ♦ В, ♠ Д, ♠ К, ♠ Т
    state.apply("pass")
    state.apply("pass")
    assert state.deal_scores == (0, 32)


def test_c17_match_of_n_deals_highest_total_wins() -> None:
    state = GAME.new_initial_state(8, {"deals": 3})
    rng = random.Random(8)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history) == 3
    totals = state.totals()
    assert totals == tuple(sum(d.scores[p] for d in state.history) for p in (0, 1))
    expected = [0.0, 0.0] if totals[0] == totals[1] else None
    if expected is None:
        win = 0 if totals[0] > totals[1] else 1
        expected = [1.0, -1.0] if win == 0 else [-1.0, 1.0]
        assert state.winners() == [win]
    assert state.returns() == expected
    assert winners([30, 30]) == [0, 1]  # equal totals draw
    assert winners([12, 40]) == [1]


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"deals": 10**9}, "options.deals"),
        ({"deals": 0}, "options.deals"),
        ({"decks": 4}, "options.decks"),
    ],
)
def test_c1_c17_options_have_bounds(options: dict[str, int], option: str) -> None:
    """C1, C17: ``decks`` is 1-3 and ``deals`` 1-100; outside, the option is refused
    with its message id and path (docs/rules/candidate.en.md, Options)."""
    with pytest.raises(BadOptions) as refused:
        GAME.check_options(options, 2)
    assert refused.value.code == "value.int_range"
    assert refused.value.params["option"] == option
    assert GAME.check_options({"deals": 100, "decks": 3}, 2)["deals"] == 100
