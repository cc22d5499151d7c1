"""The tables behind the screens: moves through the engine, views only, the keys'
meaning (no Textual needed)."""

from __future__ import annotations

import pytest

from cardtable.cards import KIND_TEXT
from cardtable.errors import IllegalMove
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.tui.candidate_table import CandidateTable
from cardtable.tui.players import make_candidate_bot, make_spy_racers, parse_speed
from cardtable.tui.spy_table import NoSuchPile, SpyTable

P0_POINTS = ["5S", "10H", "3C", "7C", "JD"]  # top first
P0_PILES = ["4H", "9C", "KD", "2S"]
P0_DECK = ["6D", "8S", "QS", "AS", "2H", "3H", "6H", "7H", "8H", "9H", "JH", "QH", "KH", "AH"]
P0_DECK += ["2D", "3D", "4D"]


def spy_table() -> SpyTable:
    """Two players with one deck split: player 0's cards chosen, player 1 the rest."""
    mine = P0_POINTS + P0_PILES + P0_DECK[:17]
    rest = [t for t in KIND_TEXT if t not in mine]
    state = SpyState.from_cards(["You", "Bot"], [mine, rest], options=SpyOptions(rounds=1))
    racers = [None, *make_spy_racers(1, ["greedy"], ["steady"])]
    table = SpyTable(state, racers, seed=1)
    table.start(0.0)
    return table


def test_tui_spy_pile_key_takes_the_points_top_first_then_the_waste() -> None:
    """S6-S8: a pile key places the points-pile top when it fits, else the waste top;
    the key after the last pile opens one; w keeps to the waste."""
    table = spy_table()
    table.pile_move(1)  # 5S onto 4H
    seat = table.view().seats[0]
    assert KIND_TEXT[seat.pile_tops[0]] == "5S"
    assert KIND_TEXT[seat.points_top or 0] == "10H"
    table.move(0)  # turn 6D onto the waste
    table.pile_move(1)  # 10H does not fit 5S; the waste's 6D does
    seat = table.view().seats[0]
    assert KIND_TEXT[seat.pile_tops[0]] == "6D"
    assert seat.points_count == 4
    table.pile_move(5)  # the next pile: opened with the points-pile top 10H
    seat = table.view().seats[0]
    assert [KIND_TEXT[t] for t in seat.pile_tops][-1] == "10H"
    with pytest.raises(NoSuchPile, match="no pile 7: you have 5"):
        table.pile_move(7)
    table.move(0)  # turn 8S
    with pytest.raises(IllegalMove):
        table.pile_move(3, from_waste=True)  # 8S does not fit KD: the engine says why
    assert table.view().seats[0].waste_count == 1
    table.pile_move(2, from_waste=True)  # 8S onto 9C
    seat = table.view().seats[0]
    assert KIND_TEXT[seat.pile_tops[1]] == "8S"
    assert seat.points_count == 3  # the points pile was left alone


def test_tui_spy_refuses_moves_while_paused() -> None:
    """After a round's end no key counts until the person goes on."""
    table = spy_table()
    table.advance(10_000.0)  # the bot races alone to its call (or a block)
    assert table.paused
    with pytest.raises(IllegalMove, match="round is over"):
        table.move(0)


def test_tui_candidate_log_hides_the_other_hand() -> None:
    """C4, C10: each seat's log shows its own cards received and drawn, never the
    other's."""
    table = CandidateTable.new(seed=2, options={"deals": 1}, names=("A", "B"))
    dealer = table.current_player
    assert dealer is not None
    table.apply("deal S")
    mine = [e for e in table.log(dealer) if e.kind == "received" and e.player == dealer]
    theirs = [e for e in table.log(dealer) if e.kind == "received" and e.player != dealer]
    assert len(mine[0].cards) == 5
    assert theirs[0].cards == ()
    assert table.view(dealer).hand == tuple(sorted(mine[0].texts, key=KIND_TEXT.index))


def test_tui_candidate_bot_and_hint_answer_with_legal_moves() -> None:
    """The bot's move and the hint come from the seat's information set and are legal."""
    table = CandidateTable.new(
        seed=4,
        options={"deals": 1},
        names=("You", "Bot"),
        bots=(None, make_candidate_bot("medium", 1)),
        hint_bot=make_candidate_bot("easy", 2),
    )
    for _ in range(30):
        player = table.current_player
        assert player is not None
        if table.bot_to_move:
            action = table.bot_choice()
            assert action in table.view(player).legal_actions
            table.apply(action)
        else:
            hint = table.hint(player)
            assert hint in table.view(player).legal_moves
            assert table.hint(1 - player) is None
            table.apply(hint)


def test_tui_speeds() -> None:
    """Speed profiles and numbers; a bad one names what is accepted."""
    assert parse_speed("fast") == 3.5
    assert parse_speed(" 0.5 ") == 0.5
    with pytest.raises(ValueError, match="slow, steady, quick, fast"):
        parse_speed("0")
