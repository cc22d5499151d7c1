"""Snapshots of the main screens (pytest-textual-snapshot; the SVGs are committed
under ``__snapshots__``). Update them after a deliberate change of the look with
``pytest tests/tui --snapshot-update`` and review the new pictures.

Every snapshot is taken at a fixed position reached through the keys, so it changes
only when the look (or the engine's deal for a seed) changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot
from tui_helpers import (
    candidate_app,
    greedy_move,
    keys_for,
    pile_count,
    settle,
    spy_app,
    spy_keys,
    spy_run,
)

from cardtable.table import Pacing
from cardtable.tui.candidate_app import CandidateApp, CandidateScreen, HandoffScreen
from cardtable.tui.spy_app import SpyApp

SnapCompare = Callable[..., bool]


async def candidate_midgame(pilot: Pilot[None]) -> None:
    """Play (by keys) until the person has captured, the bot has captured, and it is
    the person's play decision."""
    app = pilot.app
    assert isinstance(app, CandidateApp)
    await settle(pilot, app)
    for _ in range(200):
        view = app.driver.view(0)
        if all(view["captures"]) and view["decision"] == "play" and view["current_player"] == 0:
            break
        await pilot.press(*keys_for(app, 0))
        await settle(pilot, app)
    await pilot.press("1")  # a picked card shows
    await pilot.pause()


def test_tui_snapshot_candidate_table(snap_compare: SnapCompare) -> None:
    """The Candidate table at 80×24: piles, lobby, captures, scores, hand, log."""
    assert snap_compare(candidate_app(seed=3), run_before=candidate_midgame)


def test_tui_snapshot_candidate_table_ukrainian(snap_compare: SnapCompare) -> None:
    """The same in Ukrainian: В Д К Т for the court cards."""
    assert snap_compare(candidate_app(seed=3, lang="uk"), run_before=candidate_midgame)


def test_tui_snapshot_candidate_no_color(
    snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NO_COLOR: monochrome, and the suits still tell apart by their symbols."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(candidate_app(seed=3), run_before=candidate_midgame)


def test_tui_snapshot_candidate_large_terminal(snap_compare: SnapCompare) -> None:
    """A larger terminal gives the log more room."""
    assert snap_compare(
        candidate_app(seed=3), run_before=candidate_midgame, terminal_size=(120, 36)
    )


def test_tui_snapshot_candidate_pass_the_keyboard(snap_compare: SnapCompare) -> None:
    """Two people: the pass-the-keyboard screen hides the hands."""

    async def first_handoff(pilot: Pilot[None]) -> None:
        # Bob deals first (no hand yet: no handoff); the first handoff after the deal.
        app = pilot.app
        assert isinstance(app, CandidateApp)
        await pilot.pause()
        for _ in range(5):
            if isinstance(app.screen, HandoffScreen):
                break
            screen = app.screen
            assert isinstance(screen, CandidateScreen)
            await pilot.press(*keys_for(app, screen.viewer))
            await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)

    assert snap_compare(candidate_app(seed=5, vs_human=True), run_before=first_handoff)


def test_tui_snapshot_candidate_help(snap_compare: SnapCompare) -> None:
    """? shows the keys of the screen."""

    async def ready(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, CandidateApp)
        await settle(pilot, app)

    assert snap_compare(candidate_app(seed=3), run_before=ready, press=["question_mark"])


def spy_race(moves: int, seconds: float) -> Callable[[Pilot[None]], Awaitable[None]]:
    """``moves`` moves of the person (by keys), ``seconds`` apart on the bots' clock."""

    async def race(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, SpyApp)
        await pilot.pause()
        now = app.clock_cell  # type: ignore[attr-defined]
        for _ in range(moves):
            await pilot.press(*spy_keys(greedy_move(app), pile_count(app)))
            spy_run(app, now, now[0] + seconds)
        await pilot.pause()

    return race


def _spy_app(seed: int, players: int = 2) -> SpyApp:
    app, now = spy_app(seed=seed, players=players)
    app.clock_cell = now  # type: ignore[attr-defined]
    return app


def test_tui_snapshot_spy_race(snap_compare: SnapCompare) -> None:
    """The Spy race at 80×24: your table large, the other compact, the log."""
    assert snap_compare(_spy_app(6), run_before=spy_race(10, 1.0))


def test_tui_snapshot_spy_race_eight_players(snap_compare: SnapCompare) -> None:
    """Eight players still fit 80×24."""
    assert snap_compare(_spy_app(6, players=8), run_before=spy_race(6, 0.5))


def test_tui_snapshot_spy_round_over(snap_compare: SnapCompare) -> None:
    """A round's result."""

    async def to_the_end(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, SpyApp)
        await pilot.pause()
        spy_run(app, app.clock_cell, 1000.0)  # type: ignore[attr-defined]
        await pilot.pause()

    assert snap_compare(_spy_app(4), run_before=to_the_end)


def test_tui_snapshot_spy_pause_between_rounds(snap_compare: SnapCompare) -> None:
    """A round's result while the table pauses: the countdown to the next round."""

    async def to_the_pause(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, SpyApp)
        await pilot.pause()
        now = app.clock_cell  # type: ignore[attr-defined]
        while not app.driver.paused:
            wake = app.driver.next_wakeup()
            assert wake is not None
            spy_run(app, now, wake)
        spy_run(app, now, now[0] + 2.5)
        await pilot.pause()

    app, now = spy_app(seed=4, rounds=2)
    app.clock_cell = now  # type: ignore[attr-defined]
    assert snap_compare(app, run_before=to_the_pause)


async def candidate_deal_over(pilot: Pilot[None]) -> None:
    """Play (by keys) to the end of the first of two deals: its summary shows."""
    app = pilot.app
    assert isinstance(app, CandidateApp)
    await settle(pilot, app)
    for _ in range(200):
        if app.driver.paused:
            break
        await pilot.press(*keys_for(app, 0))
        await settle(pilot, app)
    await pilot.pause(0.2)
    app.pump()
    await pilot.pause()


def test_tui_snapshot_candidate_deal_over_ukrainian(snap_compare: SnapCompare) -> None:
    """C13: the deal's summary, in Ukrainian, waiting for Enter."""
    pacing = Pacing(turn_delay=0, segment_pause=0.05)  # then it holds for the person
    app = candidate_app(seed=3, lang="uk", deals=2, pacing=pacing)
    assert snap_compare(app, run_before=candidate_deal_over)


def test_tui_snapshot_candidate_asks_before_leaving(snap_compare: SnapCompare) -> None:
    """q during a game asks first."""
    assert snap_compare(candidate_app(seed=3), press=["q"])
