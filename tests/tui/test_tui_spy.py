"""The Spy vs Spy app driven through its keys with Textual's pilot, on a clock the
test moves."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tui_helpers import (
    greedy_move,
    pile_count,
    screen_text,
    spy_app,
    spy_keys,
    spy_run,
    spy_screen,
    sync,
)

from cardtable.cards import KIND_TEXT
from cardtable.record import read_record_file, replay
from cardtable.tui.common import HelpScreen
from cardtable.tui.driver import TableDriver
from cardtable.tui.i18n import card_label
from cardtable.tui.spy_app import RoundOverScreen, SpyApp

SIZE = (80, 24)


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
        driver = app.driver
        presses = 0
        while not driver.is_over:
            move = greedy_move(app)
            await pilot.press(*spy_keys(move, pile_count(app)))
            presses += 1
            assert presses < 3000
            # the bot makes 0.7 moves a second: the person is faster
            spy_run(app, now, now[0] + 0.2)
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        assert "You called «finished» first" in screen_text(app)  # the engine's account, S10
        view = driver.view(0)
        assert view["finishers"][-1] == 0
        assert driver.log(0)[-2]["type"] == "call" or any(
            e["type"] == "call" for e in driver.log(0)
        )
        await pilot.press("enter")
        await pilot.pause()
    assert move == "call"
    summary = replay(read_record_file(save)).summary()
    assert summary["complete"] is True
    assert summary["rounds"][0]["finisher"] == 0
    assert summary["totals"] == list(view["totals"]) == [-20, 20]


@sync
async def test_tui_spy_the_bot_races_on_its_clock_and_its_progress_shows_live() -> None:
    """The others move by the clock alone, and the screen follows them."""
    app, now = spy_app(seed=11)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = app.driver.view(0)["seats"][1]["moves"]
        assert before == 0
        spy_run(app, now, now[0] + 5.0)  # seed 11: the bot calls after 6 moves, 7.8 s in
        await pilot.pause()
        moves = app.driver.view(0)["seats"][1]["moves"]
        assert 2 <= moves <= 20  # about 0.7 moves a second
        line = next(
            x
            for x in screen_text(app).splitlines()
            if x.strip().startswith("Bot 1") and "│" in x  # its row, not a log line
        )
        assert line.split("│")[-1].split()[-3] == str(moves)  # waste deck MOVES total state


@sync
async def test_tui_spy_hidden_cards_never_reach_the_screen() -> None:
    """S4-S5: the racing deck and the points pile under its top are on no widget."""
    app, _ = spy_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        state = app.driver.match.state  # type: ignore[attr-defined]  # the truth, for the test
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
        screen = spy_screen(app)
        view = app.driver.view(0)["seats"][0]
        await pilot.press("c")
        assert "call only when it is empty" in screen.status
        await pilot.press("6")
        assert "there is no pile 6: you have 4" in screen.status
        await pilot.press("w", "1")
        assert "waste" in screen.status
        await pilot.press("z")
        assert "z does nothing here" in screen.status
        await pilot.press("x")
        assert "again to resign" in screen.status
        await pilot.press("space")
        assert app.driver.view(0)["seats"][0]["moves"] == view["moves"] + 1
        assert not app.driver.view(0)["seats"][0]["resigned"]


@sync
async def test_tui_spy_paused_between_rounds_and_help_and_language() -> None:
    """After a round the table pauses (the result and a countdown show; Enter goes on
    at once); ? shows the keys; l switches language."""
    app, now = spy_app(seed=4, rounds=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "turn a card from the racing deck" in screen_text(app)
        await pilot.press("escape", "l")
        assert "Ваш стіл" in screen_text(app)
        await pilot.press("l")
        driver = app.driver
        while not driver.paused:  # the bot races alone until it calls
            wake = driver.next_wakeup()
            assert wake is not None
            assert wake < 1000
            spy_run(app, now, wake)
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        assert "Round 2 starts in 15 s" in screen_text(app)
        moves = driver.view(0)["seats"][1]["moves"]
        spy_run(app, now, now[0] + 5.0)
        await pilot.pause()
        assert driver.view(0)["seats"][1]["moves"] == moves  # nobody moves while paused
        assert "Round 2 starts in 10 s" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert not driver.paused
        assert not isinstance(app.screen, RoundOverScreen)
        assert driver.view(0)["round"] == 2


def race_to_the_end(executor: ThreadPoolExecutor | None) -> dict[str, object]:
    """A 3-player round of bots only (the person resigns at once), on a stepped clock."""
    driver = TableDriver(
        "spy",
        seed=21,
        names=("You", "a", "b"),
        bots=(None, "greedy", "medium"),
        speeds=(None, 3.5, 2.0),
        options={"rounds": 1},
        executor=executor,
    )
    now = driver.count_left(0.0)  # the race starts when the table's count ends
    assert driver.play(0, "resign", now) is None
    while not driver.is_over:
        now += 0.25
        while driver.thinking:  # the test waits for every thought before time goes on
            time.sleep(0.001)
        driver.step(now)
        assert now < 5000
    driver.close()
    return driver.record()


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
        assert spy_screen(app).status == (
            "в очковій стопці ще 5 карт: «закінчив» оголошують, лише коли вона порожня"
        )
        await pilot.press("l", "c")
        assert spy_screen(app).status == (
            "the points pile still holds 5 cards: call only when it is empty"
        )


@sync
async def test_tui_spy_ukrainian_title_and_move_count_fit_80_columns() -> None:
    """At 80×24 in Ukrainian the title keeps the score and its «менший — кращий» (the
    game's name goes first), and the move count takes its plural: «1 хід», not
    «1 ходів»."""
    app, now = spy_app(seed=4)
    app.lang = "uk"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*spy_keys(greedy_move(app), pile_count(app)))
        spy_run(app, now, now[0] + 0.1)
        spy_screen(app).redraw_title()
        await pilot.pause()
        text = screen_text(app)
        title = text.splitlines()[0]
        assert title.strip().startswith("раунд 1 з 1")
        assert "(менший — кращий)" in title
        assert "1 хід ·" in text


def test_tui_spy_ukrainian_help_names_spy_keys_in_the_layout() -> None:
    """The Ukrainian Spy help's layout line pairs each Cyrillic letter with the Spy key
    it is (no `е (t)`: t is Candidate's hint, not a Spy key)."""
    import re

    from cardtable.tui.common import LAYOUT_KEYS
    from cardtable.tui.i18n import tr

    pairs = re.findall(r"(\w) \((\w)\)", tr("uk", "help_spy").splitlines()[-1])
    assert pairs
    for cyrillic, latin in pairs:
        assert LAYOUT_KEYS[cyrillic] == latin
        assert latin in "wcxrlq", latin


def test_tui_spy_bots_of_different_kinds_are_told_apart() -> None:
    """Bots of one kind are «Bot N»; when the kinds differ, each name says its kind
    (a level in the language, any other spec as written)."""
    driver = TableDriver(
        "spy",
        seed=3,
        names=("You", "greedy 1", "planner 2", "easy 3"),
        bots=(None, "greedy", "planner", "easy"),
        speeds=(None, 1.0, 1.0, 1.0),
        options={"rounds": 1},
    )
    app = SpyApp(driver, lang="uk", auto=False)
    assert [app.seat_name(s) for s in range(4)] == [
        "Ви",
        "Бот 1 (greedy)",
        "Бот 2 (planner)",
        "Бот 3 (легкий)",
    ]
    same, _ = spy_app(players=3)
    assert [same.seat_name(s) for s in (1, 2)] == ["Bot 1", "Bot 2"]
    driver.close()
