"""Resign, abort and takeback in the terminal's Candidate against a bot, by keys: the
same table as the server's decides, and the saved record says how the match ended."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import candidate_app, keys_for, screen_text, settle, sync

from cardtable.record import read_record_file, replay


@sync
async def test_tui_takeback_then_resign_with_a_confirmation(tmp_path: Path) -> None:
    save = tmp_path / "resigned.json"
    app = candidate_app(seed=3, save=save)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("u")  # nothing of mine to take back yet
        assert "no move to take back" in screen_text(app)
        before = app.driver.view(0)
        await pilot.press(*keys_for(app, 0))
        await settle(pilot, app)
        assert app.driver.table.moves, "the move was made"
        await pilot.press("u")
        await settle(pilot, app)
        assert app.driver.view(0) == before  # exactly where the move was made from
        await pilot.press("x")
        assert "Press x again" in screen_text(app)
        await pilot.press("escape", "x")  # any other key first: no resignation
        assert not app.driver.is_over
        await pilot.press("x")
        assert app.driver.is_over
        assert "You resigned: Bot (easy) wins" in screen_text(app)
        assert "match over" in screen_text(app).lower()
    record = read_record_file(save)
    assert record["ended"] == {"how": "resigned", "seat": 0}
    assert replay(record).summary()["winners"] == [1]


@sync
async def test_tui_abort_before_the_first_move_in_ukrainian() -> None:
    app = candidate_app(seed=5, lang="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("a")
        assert app.driver.is_over
        assert "скасовує гру до першого ходу" in screen_text(app)
        assert app.driver.table.result()["ending"] == "aborted"  # type: ignore[index]


@sync
async def test_tui_two_people_cannot_take_back() -> None:
    app = candidate_app(seed=3, vs_human=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("u")
        assert "only for a casual game against bots" in screen_text(app)
