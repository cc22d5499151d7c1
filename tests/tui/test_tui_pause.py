"""The terminal pauses between Spy rounds the way the server does (S17).

Both faces drive :class:`cardtable.table.Table` with the default
:class:`~cardtable.table.Pacing`: after a round the table pauses for
``Pacing().segment_pause`` seconds, refuses every move with the code ``paused``, runs
no bot, and goes on when the time is up or the person says they are ready (Enter). The
server's side of the same behaviour is tested in ``tests/server``; these tests drive
the terminal's table, as ``cardtable play spy`` builds it, through a round's end.
"""

from __future__ import annotations

import time

import pytest
from tui_helpers import screen_text, spy_app, spy_run, spy_screen, sync

from cardtable.table import Pacing, Status
from cardtable.tui import build_app
from cardtable.tui.driver import TableDriver
from cardtable.tui.spy_app import RoundOverScreen, SpyApp

SIZE = (80, 24)


def to_the_round_end(driver: TableDriver) -> float:
    """The person resigns at once; the bots race (their thoughts awaited) until the
    round ends. Returns the moment it ended."""
    now = driver.count_left(0.0)  # the race starts when the table's count ends
    assert driver.play(0, "resign", now) is None
    while not driver.paused:
        while driver.thinking:
            time.sleep(0.001)
        wake = driver.next_wakeup()
        assert wake is not None
        assert wake < 600
        now = wake
        driver.step(now)
    return now


def terminal_spy(**choices: object) -> SpyApp:
    """The app ``cardtable play spy --rounds 2`` builds (not run)."""
    app = build_app("spy", seed=4, options={"rounds": 2}, **choices)  # type: ignore[arg-type]
    assert isinstance(app, SpyApp)
    return app


@pytest.mark.parametrize("ends_by", ["time", "enter"])
def test_tui_spy_the_terminals_table_pauses_between_rounds_like_the_servers_s17(
    ends_by: str,
) -> None:
    """The terminal's table pauses for the server's pause, refuses moves with the
    table's ``paused`` refusal, moves no bot, counts down, and goes on when the time is
    up or at the person's Enter."""
    app = terminal_spy(bots=["greedy", "medium"], speeds=["fast"], players=3)
    driver = app.driver
    table = driver.table
    try:
        assert table.pacing == Pacing()  # the server's pacing: same pause, same speeds
        pause = Pacing().segment_pause
        ended = to_the_round_end(driver)
        assert table.status is Status.PLAYING
        assert driver.view(0)["round"] == 2
        assert table.paused_until == pytest.approx(ended + pause)
        assert driver.pause_left(ended + 1.0) == pytest.approx(pause - 1.0)
        shown = table.snapshot(0, ended + 2.0)["pause"]
        assert shown["seconds"] == pause - 2.0
        assert shown["ready"] == []
        assert shown["holds"] is False
        assert shown["segment"]["number"] == 1  # the engine's account of the round
        # a move during the pause is the table's to refuse
        refusal = driver.play(0, "turn", ended + 1.0)
        assert refusal is not None
        assert refusal.message_id == "table.paused_round"
        assert refusal.params == {"seconds": round(pause - 1.0)}
        assert refusal.text == f"the round is over: the next one starts in {pause - 1.0:.0f} s"
        assert driver.legal_moves(0) == []
        moves = [seat["moves"] for seat in driver.view(0)["seats"]]
        assert not driver.step(ended + pause - 0.5)  # no bot moves while paused
        assert [seat["moves"] for seat in driver.view(0)["seats"]] == moves
        assert driver.next_wakeup() == pytest.approx(ended + pause)
        if ends_by == "enter":
            assert driver.ready(ended + 3.0)  # one person at the keyboard: ready is all
            resumed = ended + 3.0
        else:
            assert driver.step(ended + pause)  # the time is up
            resumed = ended + pause
        assert not driver.paused
        assert driver.counting  # S17: round 2 starts together, after the count
        count = Pacing().start_count
        refusal = driver.play(0, "turn", resumed + 0.1)
        assert refusal is not None
        assert refusal.message_id == "table.counting"
        resumed += count
        assert driver.play(0, "turn", resumed + 0.1) is None
        assert table.due_bots(resumed) == []  # the bots start their round afresh
        wake = driver.next_wakeup()
        assert wake is not None
        assert wake > resumed
    finally:
        driver.close()


@sync
async def test_tui_spy_pause_shows_its_countdown_refuses_keys_and_enter_ends_it() -> None:
    """On the screen: the round's result with the countdown to the next round; a move
    key during the pause shows the table's refusal; Enter ends the pause at once and
    the race screen comes back with nothing old on its status line."""
    app, now = spy_app(seed=4, rounds=2)
    assert app.driver.table.pacing == Pacing()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        driver = app.driver
        while not driver.paused:
            wake = driver.next_wakeup()
            assert wake is not None
            spy_run(app, now, wake)
        ended = now[0]
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        assert "Round 2 starts in 15 s. Enter: go on now." in screen_text(app)
        spy_run(app, now, ended + 3.0)
        await pilot.pause()
        assert "Round 2 starts in 12 s." in screen_text(app)
        await pilot.press("space")
        await pilot.pause()
        assert "the round is over: the next one starts in 12 s" in screen_text(app)
        assert driver.paused
        await pilot.press("enter")
        await pilot.pause()
        assert not driver.paused
        assert not isinstance(app.screen, RoundOverScreen)
        assert spy_screen(app).status == ""
        assert "Spy vs Spy · round 2 of 2" in screen_text(app)
        # S17: round 2 starts with the table's count; a move before "Go!" is refused.
        assert "Get ready: the race starts in 3 s" in screen_text(app)
        await pilot.press("space")
        await pilot.pause()
        assert "the race starts in 3 s: everyone starts together" in screen_text(app)
        assert driver.view(0)["seats"][0]["moves"] == 0
        spy_run(app, now, now[0] + Pacing().start_count)
        await pilot.pause()
        assert spy_screen(app).status == "Go!"
        await pilot.press("space")
        assert driver.view(0)["seats"][0]["moves"] == 1
