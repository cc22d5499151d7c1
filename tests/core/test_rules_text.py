"""The rules pages (``cardtable.rules_text``): every game in every language is found,
and a name that is not a plain word never reaches the file system."""

from __future__ import annotations

import re

import pytest

from cardtable.catalogue import languages
from cardtable.errors import CardtableError
from cardtable.games.registry import GAME_NAMES
from cardtable.rules_text import RULES_DIRS, rules_path, rules_text


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_has_its_rules_in_every_language(game: str, lang: str) -> None:
    path = rules_path(game, lang)
    assert path.name == f"{game}.{lang}.md"
    assert path.parent in RULES_DIRS
    text = rules_text(game, lang)
    assert text.startswith("# ")
    # The pages carry the rule tags the code and tests cite, every one of the English.
    tags = re.compile(r"\*\*([CS]\d+a?)\*\*")
    assert tags.findall(text) == tags.findall(rules_text(game, "en"))
    assert ("C17" if game == "candidate" else "S17") in text


@pytest.mark.parametrize(
    ("game", "lang"),
    [("chess", "en"), ("spy", "fr"), ("../spy", "en"), ("spy", "en/../uk"), ("Spy", "en")],
)
def test_a_missing_or_odd_name_is_refused(game: str, lang: str) -> None:
    with pytest.raises(CardtableError, match=r"the rules of .* are not installed"):
        rules_text(game, lang)
