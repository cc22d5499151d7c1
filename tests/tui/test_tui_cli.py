"""`cardtable play`: the command line builds the right app, or says what is wrong."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.table.pacing import LEVEL_SPEEDS, SPEEDS
from cardtable.tui import build_app
from cardtable.tui.candidate_app import CandidateApp
from cardtable.tui.common import TableApp
from cardtable.tui.spy_app import SpyApp

runner = CliRunner()


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[TableApp]:
    """Apps the command would run (they are recorded instead of taking the terminal)."""
    apps: list[TableApp] = []
    monkeypatch.setattr(TableApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_tui_cli_play_candidate_against_a_level(launched: list[TableApp]) -> None:
    result = runner.invoke(
        app, ["play", "candidate", "--vs", "hard", "--lang", "uk", "--deals", "2", "--seed", "9"]
    )
    assert result.exit_code == 0, result.output
    (tui,) = launched
    assert isinstance(tui, CandidateApp)
    assert tui.lang == "uk"
    assert tui.driver.names == ("You", "Bot (hard)")
    assert tui.driver.people == (0,)
    assert tui.driver.view(0)["deals"] == 2
    tui.driver.close()


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # a language not shipped: English
        ({"LANG": "uk_UA.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "uk_UA"}, "uk"),
        ({"LANG": "C"}, "en"),
    ],
)
def test_tui_cli_play_speaks_the_environments_language_unless_told(
    launched: list[TableApp], environment: dict[str, str], expected: str
) -> None:
    cleared = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
    args = ["play", "candidate", "--vs", "easy", "--seed", "9"]
    result = runner.invoke(app, args, env={**cleared, **environment})
    assert result.exit_code == 0, result.output
    told = runner.invoke(app, [*args, "--lang", "en"], env={**cleared, **environment})
    assert told.exit_code == 0, told.output
    assert [tui.lang for tui in launched] == [expected, "en"]
    for tui in launched:
        tui.driver.close()


def test_tui_cli_rules_speak_the_environments_language() -> None:
    uk = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "uk_UA.UTF-8"}
    assert "Карткова гра" in runner.invoke(app, ["rules", "candidate"], env=uk).output
    told = runner.invoke(app, ["rules", "candidate", "--lang", "en"], env=uk).output
    assert "Карткова гра" not in told


def test_tui_cli_play_candidate_two_people(launched: list[TableApp]) -> None:
    result = runner.invoke(app, ["play", "candidate", "--vs", "human", "--names", "Ann,Bob"])
    assert result.exit_code == 0, result.output
    (tui,) = launched
    assert isinstance(tui, CandidateApp)
    assert tui.driver.people == (0, 1)
    assert tui.driver.names == ("Ann", "Bob")
    tui.driver.close()


def test_tui_cli_play_spy_with_bots_and_speeds(launched: list[TableApp]) -> None:
    result = runner.invoke(
        app,
        ["play", "spy", "--players", "4", "--bots", "planner,random", "--speed", "fast,0.5"],
    )
    assert result.exit_code == 0, result.output
    (tui,) = launched
    assert isinstance(tui, SpyApp)
    seats = tui.driver.table.seats
    assert seats[0].bot_level is None
    assert [s.bot_level for s in seats[1:]] == ["planner", "random", "random"]
    assert [s.bot_speed for s in seats[1:]] == [3.5, 0.5, 0.5]
    assert [tui.driver.table.bot_speed(s) for s in (1, 2, 3)] == [3.5, 0.5, 0.5]
    tui.driver.close()


def test_tui_cli_play_spy_races_at_the_easy_pace_by_default(launched: list[TableApp]) -> None:
    result = runner.invoke(app, ["play", "spy", "--players", "3"])
    assert result.exit_code == 0, result.output
    (tui,) = launched
    assert isinstance(tui, SpyApp)
    easy = SPEEDS[LEVEL_SPEEDS["easy"]]
    assert [tui.driver.table.bot_speed(s) for s in (1, 2)] == [easy, easy]
    tui.driver.close()
    shown = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).output
    assert "easy gentle (0.3/s), medium slow (0.7/s), hard steady (1.2/s)" in shown


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["spy", "--players", "9"], "2 to 8 players"),
        (["spy", "--bots", "minimax"], "unknown spy bot 'minimax'"),
        (["spy", "--bots", "oracle"], "cannot take a seat in a fair game"),
        (["spy", "--speed", "warp"], "bad speed 'warp'"),
        (["spy", "--deals", "3"], "--deals and --decks are for Candidate"),
        (["candidate", "--rounds", "3"], "--rounds is for Spy"),
        (["candidate", "--vs", "human", "--names", "Ann"], "two people"),
        (["candidate", "--vs", "minimax"], "unknown candidate bot 'minimax'"),
        (["candidate", "--vs", "learned:no/such/policy.pt"], "no checkpoint at"),
        (["candidate", "--decks", "4"], "decks"),
    ],
)
def test_tui_cli_play_refuses_bad_choices_in_one_line(
    launched: list[TableApp], args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert not launched


def test_tui_build_app_fresh_seed_each_time() -> None:
    """Without --seed every game is dealt anew."""
    first = build_app("candidate", vs="easy")
    second = build_app("candidate", vs="easy")
    assert isinstance(first, CandidateApp)
    assert isinstance(second, CandidateApp)
    assert first.driver.record()["deals"] != second.driver.record()["deals"]
    first.driver.close()
    second.driver.close()
