"""The terminal's driver of the shared table: moves through the table, views only,
the keys' meaning (no Textual needed)."""

from __future__ import annotations

import pytest

from cardtable.cards import KIND_TEXT
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy.match import SpyMatch
from cardtable.table import Pacing, Source, parse_speed
from cardtable.tui.driver import Refusal, TableDriver
from cardtable.tui.i18n import tr
from cardtable.tui.spy_app import pile_moves

P0_POINTS = ["5S", "10H", "3C", "7C", "JD"]  # top first
P0_PILES = ["4H", "9C", "KD", "2S"]
P0_DECK = ["6D", "8S", "QS", "AS", "2H", "3H", "6H", "7H", "8H", "9H", "JH", "QH", "KH", "AH"]
P0_DECK += ["2D", "3D", "4D"]


def spy_driver() -> TableDriver:
    """Two players with one deck split: player 0's cards chosen, player 1 the rest (the
    table's match replaced by one dealt from these cards)."""
    driver = TableDriver(
        "spy",
        seed=1,
        names=("You", "Bot"),
        bots=(None, "greedy"),
        options={"rounds": 1},
        pacing=Pacing(start_count=0.0),  # the race at once (test_tui_pause.py has the count)
    )
    mine = P0_POINTS + P0_PILES + P0_DECK[:17]
    rest = [t for t in KIND_TEXT if t not in mine]
    state = SpyState.from_cards(["You", "Bot"], [mine, rest], options=SpyOptions(rounds=1))
    driver.table.match = SpyMatch(state)
    return driver


def pile_key(driver: TableDriver, number: int, from_waste: bool = False) -> Refusal | None:
    """What the race screen does for a pile key: the first of its moves that is legal,
    else the first (refused with the engine's reason)."""
    seat = driver.view(0)["seats"][0]
    moves = pile_moves(number, len(seat["piles"]), from_waste)
    assert moves is not None
    legal = driver.legal_moves(0)
    return driver.play(0, next((m for m in moves if f"0 {m}" in legal), moves[0]), 0.0)


def tops(driver: TableDriver) -> list[str]:
    return [pile["top"] for pile in driver.view(0)["seats"][0]["piles"]]


def test_tui_spy_pile_key_takes_the_points_top_first_then_the_waste() -> None:
    """S6-S8: a pile key places the points-pile top when it fits, else the waste top;
    the key after the last pile opens one; w keeps to the waste."""
    driver = spy_driver()
    assert pile_key(driver, 1) is None  # 5S onto 4H
    seat = driver.view(0)["seats"][0]
    assert tops(driver)[0] == "5S"
    assert seat["points_top"] == "10H"
    assert driver.play(0, "turn", 0.0) is None  # turn 6D onto the waste
    assert pile_key(driver, 1) is None  # 10H does not fit 5S; the waste's 6D does
    assert tops(driver)[0] == "6D"
    assert driver.view(0)["seats"][0]["points_count"] == 4
    assert pile_key(driver, 5) is None  # the next pile: opened with the points-pile top 10H
    assert tops(driver)[-1] == "10H"
    assert pile_moves(7, 5, False) is None
    assert "no pile 7: you have 5" in tr("en", "spy_no_pile", n=7, count=5, next=6)
    assert driver.play(0, "turn", 0.0) is None  # turn 8S
    refusal = pile_key(driver, 3, from_waste=True)  # 8S does not fit KD: the engine says why
    assert refusal is not None
    assert refusal.text
    assert driver.view(0)["seats"][0]["waste_count"] == 1
    assert pile_key(driver, 2, from_waste=True) is None  # 8S onto 9C
    seat = driver.view(0)["seats"][0]
    assert tops(driver)[1] == "8S"
    assert seat["points_count"] == 3  # the points pile was left alone


def test_tui_spy_refuses_moves_while_paused() -> None:
    """After a round's end the table pauses: no move counts until the pause is over
    or the person goes on."""
    driver = TableDriver(
        "spy", seed=1, names=("You", "Bot"), bots=(None, "greedy"), options={"rounds": 2}
    )
    now = 0.0
    while not driver.paused:  # the bot races alone to its call (or a block)
        wake = driver.next_wakeup()
        assert wake is not None
        now = wake
        driver.step(now)
    refusal = driver.play(0, "turn", now + 1)
    assert refusal is not None
    assert refusal.message_id == "table.paused_round"
    assert "round is over" in refusal.text


def test_tui_candidate_log_hides_the_other_hand() -> None:
    """C4, C10: each seat's log shows its own cards received and drawn, never the
    other's."""
    driver = TableDriver(
        "candidate", seed=2, names=("A", "B"), bots=(None, None), options={"deals": 1}
    )
    dealer = driver.to_move()
    assert dealer is not None
    assert driver.play(dealer, "deal S", 0.0) is None
    log = driver.log(dealer)
    mine = [e for e in log if e["type"] == "received" and e["player"] == dealer]
    theirs = [e for e in log if e["type"] == "received" and e["player"] != dealer]
    assert len(mine[0]["cards"]) == 5
    assert theirs[0]["cards"] == []
    assert tuple(driver.view(dealer)["hand"]) == tuple(
        sorted(mine[0]["cards"], key=KIND_TEXT.index)
    )


def test_tui_candidate_bot_and_hint_answer_with_legal_moves() -> None:
    """The bot's move and the hint come from the seat's information set and are legal."""
    driver = TableDriver(
        "candidate",
        seed=4,
        names=("You", "Bot"),
        bots=(None, "medium"),
        options={"deals": 1},
        hint="easy",
    )
    now = 0.0
    for _ in range(30):
        player = driver.to_move()
        assert player is not None
        if driver.bot_to_move:
            legal = driver.legal_moves(player)
            wake = driver.next_wakeup()
            assert wake is not None
            now = wake
            assert driver.step(now)
            entry = driver.table.moves[-1]
            assert entry.seat == player
            assert entry.source is Source.BOT
            assert entry.move in legal
        else:
            task = driver.hint_task(player)
            assert task is not None
            hint = task()
            assert hint in driver.view(player)["legal_moves"]
            assert driver.hint_task(1 - player) is None
            assert driver.play(player, hint, now) is None


def test_tui_speeds() -> None:
    """Speed profiles and numbers (the table's, as the server's); a bad one names what
    is accepted."""
    assert parse_speed("fast") == 3.5
    assert parse_speed(" 0.5 ") == 0.5
    with pytest.raises(ValueError, match="slow, steady, quick, fast"):
        parse_speed("0")
