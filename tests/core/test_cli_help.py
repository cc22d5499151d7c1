"""The command line's ``--help`` in the reader's language: ``--lang`` before the
command, else ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``; every help text a catalogue
message (``cli:help.*``) in every language."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cardtable.catalogue import languages, words
from cardtable.cli import app
from cardtable.cli_help import declared_key, help_message

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
#: A terminal wide enough that no help line wraps, so texts are found whole.
WIDE = "1000"


def env_for(lang: str) -> dict[str, str]:
    """The environment of a reader whose locale is ``lang`` (``LANG`` alone set)."""
    return {"LANG": f"{lang}_XX.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "COLUMNS": WIDE}


def show_help(args: list[str], env: dict[str, str]) -> str:
    result = runner.invoke(app, [*args, "--help"], env=env)
    assert result.exit_code == 0, result.output
    return result.output


def shown_as(text: str) -> str:
    """A help text as the terminal shows it: ``\\[`` is Rich's escaped bracket."""
    return text.replace("\\[", "[")


def commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command of the command line with its path (``("admin", "grant-moderator")``)."""
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from commands(sub, (*path, name))


def test_every_help_text_is_a_catalogue_message() -> None:
    """No help of a command, option or argument is written in English alone."""
    group = typer.main.get_command(app)
    missing = []
    for path, command in commands(group):
        texts = [("", command.help)] + [(param.name, param.help) for param in command.params]
        for name, text in texts:
            if text and declared_key(text) is None:
                missing.append(f"{' '.join(path) or 'cardtable'} {name}: {text}")
    assert missing == []


@pytest.mark.parametrize("lang", languages())
def test_every_help_message_is_in_every_catalogue_with_its_placeholders(lang: str) -> None:
    english = {k.removeprefix("help.") for k in words("cli", "en") if k.startswith("help.")}
    assert len(english) > 100
    assert {k.removeprefix("help.") for k in words("cli", lang) if k.startswith("help.")} == english
    for key in english:
        assert help_message(key, lang).count("{") == help_message(key, "en").count("{"), key


@pytest.mark.parametrize("lang", ["de", "uk"])
def test_the_programs_help_follows_the_locale(lang: str) -> None:
    shown = show_help([], env_for(lang))
    assert help_message("app", lang) in shown
    for panel in ("options", "commands"):
        assert help_message(f"panel.{panel}", lang) in shown
    for key in ("deal", "replay", "play", "serve", "connect", "common.version", "common.help"):
        assert shown_as(help_message(key, lang)) in shown, key
    assert "Show this message and exit." not in shown
    assert help_message("app", "en") not in shown


@pytest.mark.parametrize("lang", ["de", "uk"])
def test_a_commands_help_follows_the_locale(lang: str) -> None:
    """Every option of ``play`` in the language, with Typer's own marks."""
    shown = show_help(["play"], env_for(lang))
    assert help_message("play", lang) in shown
    play = typer.main.get_command(app).commands["play"]  # type: ignore[attr-defined]
    for param in play.params:
        key = declared_key(param.help)
        assert key is not None
        values = {"paces": "", "quick": "", "fast": ""} if key == "play.speed" else {}
        first = help_message(key, lang, **values).split("{")[0][:30]
        assert first in shown, (param.name, first)
    assert help_message("panel.required", lang) in shown
    assert help_message("panel.default", lang).split("{")[0] in shown
    assert help_message("panel.arguments", lang) in shown
    assert "[default:" not in shown


def test_lang_before_the_command_wins_over_the_environment() -> None:
    shown = show_help(["--lang", "uk", "replay"], env_for("de"))
    assert help_message("replay", "uk") in shown
    assert help_message("replay", "de") not in shown


@pytest.mark.parametrize("locale", ["C", "fr_FR.UTF-8", ""])
def test_the_help_is_english_for_a_language_not_shipped(locale: str) -> None:
    shown = show_help(["deal"], {"LANG": locale, "LC_ALL": "", "LC_MESSAGES": "", "COLUMNS": WIDE})
    assert "Write a record of a freshly dealt game, with no moves yet." in shown
    assert "Show this message and exit." in shown
    assert "[required]" in shown


def test_lang_before_the_command_also_chooses_the_transcripts_language(tmp_path: Path) -> None:
    record = tmp_path / "deal.json"
    made = runner.invoke(app, ["deal", "candidate", "--seed", "1", "--out", str(record)])
    assert made.exit_code == 0, made.output
    env = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}
    shown = runner.invoke(app, ["--lang", "uk", "replay", str(record)], env=env).output
    assert str(words("cli", "uk")["candidate.title"]) in shown


def test_the_installed_command_speaks_german_with_a_german_locale() -> None:
    """``LANG=de_DE.UTF-8 cardtable --help``, as a person runs it."""
    env = {**os.environ, **env_for("de"), "LANG": "de_DE.UTF-8"}
    env["PYTHONPATH"] = str(ROOT / "src")
    shown = subprocess.run(
        [sys.executable, "-m", "cardtable", "--help"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert help_message("app", "de") in shown
    assert "Befehle" in shown
