"""The games' titles: one catalogue word per game and language (``term:game_title.*``),
and every face — the games' declared facts, the web client's words, the terminal's
title line and help, the command line's transcripts and ``--help`` — names the game
with it."""

from __future__ import annotations

import pytest

from cardtable.catalogue import languages, words
from cardtable.games.registry import GAME_NAMES, find_game
from cardtable.glossary import term
from cardtable.tui.i18n import tr

LANGS = languages()

#: The titles a native speaker says (docs/translating.md, each language's conventions).
EXPECTED = {
    ("candidate", "en"): "Candidate",
    ("candidate", "uk"): "Кандидат",
    ("candidate", "de"): "Kandidat",
    ("candidate", "es"): "Candidato",
    ("candidate", "pl"): "Kandydat",
    ("spy", "en"): "Spy vs Spy",
    ("spy", "uk"): "Шпигун проти шпигуна",
    ("spy", "de"): "Spion gegen Spion",
    ("spy", "es"): "Espía contra espía",
    ("spy", "pl"): "Szpieg kontra szpieg",
}


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_a_title_for_each_game(game: str, lang: str) -> None:
    title = words("term", lang).get(f"game_title.{game}")
    assert isinstance(title, str)
    assert title.strip() == title != ""
    assert find_game(game).info.title(lang) == title
    if (game, lang) in EXPECTED:
        assert title == EXPECTED[game, lang]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_declared_titles_are_the_catalogues_in_every_language(game: str) -> None:
    info = find_game(game).info
    assert dict(info.titles) == {lang: term(f"game_title.{game}", lang) for lang in LANGS}
    assert info.title("xx") == info.title("en")  # a language not shipped: English


@pytest.mark.parametrize("lang", LANGS)
def test_every_face_names_the_game_by_the_catalogues_title(lang: str) -> None:
    candidate, spy = term("game_title.candidate", lang), term("game_title.spy", lang)
    web = words("web", lang)
    assert web["candidate"] == "{@game_title.candidate}"
    assert web["spy"] == "{@game_title.spy}"
    shown = {
        tr(lang, "cand_title", game=candidate, deal=1, deals=2, dealer="A", leader="B"),
        tr(lang, "cand_title_over", game=candidate),
    }
    assert all(text.startswith(candidate + " · ") for text in shown), shown
    shown = {
        tr(lang, "spy_title", game=spy, round=1, rounds=2),
        tr(lang, "spy_title_over", game=spy),
    }
    assert all(text.startswith(spy + " · ") for text in shown), shown
    assert tr(lang, "help_candidate").startswith(candidate + " — ")
    assert tr(lang, "help_spy").startswith(spy + " — ")
    command_line = words("cli", lang)
    assert candidate in str(command_line["candidate.title"])
    assert spy in str(command_line["spy.title"])
    assert candidate in str(command_line["help.app"])  # cardtable --help
    assert spy in str(command_line["help.app"])
