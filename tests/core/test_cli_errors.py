"""The command line's answers to bad input: one clear line with exit status 1, never a
traceback, and never after the work is done (a file that cannot be written is refused
first)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cardtable.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["replay", "/tmp/[bold]missing"], "no file '/tmp/[bold]missing'"),
        (["analyse", "spy", "--seed", "1", "--players", "99"], "2 to 8 players"),
        (["play", "spy", "--rounds", "0"], "--rounds: expected an integer from 1 to 100"),
        (["play", "candidate", "--deals", "0"], "--deals: expected an integer from 1 to 100"),
        (["serve", "--log-level", "loud"], "unknown --log-level 'loud'"),
        (["arena", "candidate", "--bots", "greedy", "random", "--out", "NOPE/x.json"], "--out"),
        (["arena", "candidate", "--bots", "greedy", "random", "--plot", "NOPE/x.png"], "--plot"),
        (["balance", "candidate", "--games", "1", "--plot", "NOPE/x.png"], "--plot"),
        (["analyse", "candidate", "x.json", "--plot", "NOPE/x.png"], "--plot"),
    ],
)
def test_cli_bad_input_is_one_clear_line(args: list[str], message: str, tmp_path: Path) -> None:
    args = [a.replace("NOPE", str(tmp_path / "missing")) for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_summaries_are_one_line_and_keep_brackets() -> None:
    """The root help shows each command's summary as one paragraph (not broken where
    the source wrapped it) and the server extra's name in full."""
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    for name, command in group.commands.items():
        assert "\n" not in (command.help or "").partition("\n\n")[0], name
    result = runner.invoke(app, ["serve", "--help"], terminal_width=200)
    assert "cardtable[server]" in result.output


def test_cli_replay_of_empty_standard_input_says_it_is_empty() -> None:
    result = runner.invoke(app, ["replay", "-"], input="")
    assert result.exit_code == 1, result.output
    assert "the record is empty" in result.output
    assert "JSON" not in result.output
