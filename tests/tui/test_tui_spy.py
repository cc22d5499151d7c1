"""The Spy vs Spy app driven through its keys with Textual's pilot, on a clock the
test moves."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tui_helpers import greedy_local, screen_text, spy_app, spy_keys, sync

from cardtable.cards import KIND_TEXT
from cardtable.games.spy.actions import CALL
from cardtable.record import read_record_file, replay
from cardtable.tui.common import HelpScreen
from cardtable.tui.i18n import card_label
from cardtable.tui.players import make_spy_racers
from cardtable.tui.spy_app import RoundOverScreen, SpyScreen
from cardtable.tui.spy_table import SpyTable

SIZE = (80, 24)


def screen(app) -> SpyScreen:  # type: ignore[no-untyped-def]
    current = app.screen
    assert isinstance(current, SpyScreen)
    return current


@sync
async def test_tui_spy_round_to_the_call_by_keys_saves_a_record_that_replays(
    tmp_path: Path,
) -> None:
    """S3-S10, S14, S17 through the app: the person races a slow bot by keys (one key
    per pile, space to turn, c to call) and calls first; the round ends at the call
    and the saved record replays to the same result."""
    save = tmp_path / "race.json"
    app, now = spy_app(seed=4, save=save)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.table
        presses = 0
        while not table.paused:
            local = greedy_local(app)
            piles = len(table.view().seats[0].pile_tops)
            await pilot.press(*spy_keys(local, piles))
            presses += 1
            assert presses < 3000
            now[0] += 0.2  # the bot makes 0.7 moves a second: the person is faster
            if not table.paused:
                screen(app).step()
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        assert "You called first" in screen_text(app)
        assert table.results[-1].finisher == 0
        assert table.events[-2].kind == "call" or any(e.kind == "call" for e in table.events)
        await pilot.press("enter")
        await pilot.pause()
    assert local == CALL
    summary = replay(read_record_file(save)).summary()
    assert summary["complete"] is True
    assert summary["rounds"][0]["finisher"] == 0
    assert summary["totals"] == list(table.totals) == [-20, 20]


@sync
async def test_tui_spy_the_bot_races_on_its_clock_and_its_progress_shows_live() -> None:
    """The others move by the clock alone, and the screen follows them."""
    app, now = spy_app(seed=11)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = app.table.view().seats[1].moves
        assert before == 0
        now[0] = 10.0
        screen(app).step()
        await pilot.pause()
        moves = app.table.view().seats[1].moves
        assert 2 <= moves <= 20  # about 0.7 moves a second
        line = next(x for x in screen_text(app).splitlines() if x.strip().startswith("greedy 1"))
        assert line.split("│")[-1].split()[-3] == str(moves)  # waste deck MOVES total state


@sync
async def test_tui_spy_hidden_cards_never_reach_the_screen() -> None:
    """S4-S5: the racing deck and the points pile under its top are on no widget."""
    app, _ = spy_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        state = app.table._state
        hidden = []
        for seat in state.seats:
            hidden += seat.deck + seat.points[:-1]
        text = screen_text(app)
        for kind in hidden:
            assert card_label(KIND_TEXT[kind], "en") not in text


@sync
async def test_tui_spy_keys_that_mean_nothing_say_why() -> None:
    """A refused key explains itself; nothing changes."""
    app, _ = spy_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.table.view().seats[0]
        await pilot.press("c")
        assert "call only when it is empty" in screen(app).status
        await pilot.press("6")
        assert "there is no pile 6: you have 4" in screen(app).status
        await pilot.press("w", "1")
        assert "waste" in screen(app).status
        await pilot.press("z")
        assert "z does nothing here" in screen(app).status
        await pilot.press("x")
        assert "again to resign" in screen(app).status
        await pilot.press("space")
        assert app.table.view().seats[0].moves == view.moves + 1
        assert not app.table.view().seats[0].resigned


@sync
async def test_tui_spy_paused_between_rounds_and_help_and_language() -> None:
    """After a round the table waits for Enter; ? shows the keys; l switches language."""
    app, now = spy_app(seed=4, rounds=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "turn a card from the racing deck" in screen_text(app)
        await pilot.press("escape", "l")
        assert "Ваш стіл" in screen_text(app)
        await pilot.press("l")
        now[0] = 1000.0
        screen(app).step()  # the bot races alone until it calls
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        assert app.table.paused
        moves = app.table.view().seats[1].moves
        now[0] = 2000.0
        app.screen_stack[-2].step()  # type: ignore[attr-defined]
        assert app.table.view().seats[1].moves == moves  # nobody moves while paused
        await pilot.press("enter")
        await pilot.pause()
        assert not app.table.paused
        assert app.table.round_number == 2


def race_to_the_end(executor: ThreadPoolExecutor | None) -> dict[str, object]:
    """A 3-player round of bots only (the person resigns at once), on a stepped clock."""
    table = SpyTable.new(
        seed=21,
        names=("You", "a", "b"),
        racers=[None, *make_spy_racers(2, ["greedy", "medium"], ["fast", "quick"], 21)],
        options={"rounds": 1},
        executor=executor,
    )
    table.start(0.0)
    table.move(16)  # resign
    now = 0.0
    while not table.paused:
        now += 0.25
        table.advance(now)
        while table.thinking:  # the test waits for every thought before time goes on
            time.sleep(0.001)
        table.advance(now)
        assert now < 5000
    table.close()
    return table.record()


def test_tui_spy_bots_thinking_in_threads_race_exactly_as_without() -> None:
    """S17: thinking in other threads changes nothing but the wall time: the same
    moves in the same order as when every decision is made on the spot."""
    alone = race_to_the_end(None)
    threaded = race_to_the_end(ThreadPoolExecutor(max_workers=2))
    assert threaded == alone
    assert len(alone["rounds"][0]["moves"]) > 10  # type: ignore[index]


@sync
async def test_tui_spy_ukrainian_player_reads_the_refusal_in_ukrainian() -> None:
    """S10: calling with cards left in the points pile is refused in the app's
    language; switching back to English gives the engine's English words."""
    app, _ = spy_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("l")
        assert app.lang == "uk"
        await pilot.press("c")
        assert screen(app).status == (
            "в очковій стопці ще 5 карт: «закінчив» оголошують, лише коли вона порожня"
        )
        await pilot.press("l", "c")
        assert screen(app).status == (
            "the points pile still holds 5 cards: call only when it is empty"
        )
