"""The one glossary: the seed's words in every shipped text, no word it forbids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.catalogue import languages, words
from cardtable.glossary import FORBIDDEN, GLOSSARY, card_name, forbidden_words, glossary_js, term
from cardtable.messages import CATALOG, render

ROOT = Path(__file__).resolve().parents[2]
#: Every text the project ships: the code and the catalogues (their strings are what
#: faces show), the web client, the rules pages and the other docs. The glossary itself
#: names the forbidden words, so it is the one file left out.
SHIPPED = [
    *sorted(
        path
        for pattern in (
            "src/cardtable/**/*.py",
            "src/cardtable/locale/**/*.po",
            "src/cardtable/server/static/**/*",
            "docs/**/*.md",
        )
        for path in ROOT.glob(pattern)
        if path.is_file() and path.suffix in (".py", ".po", ".js", ".html", ".css", ".md")
        if path.name != "glossary.py"
    ),
    ROOT / "README.md",
]


def test_glossary_the_shipped_texts_use_no_forbidden_word() -> None:
    faults = [
        f"{path.relative_to(ROOT)}:{number}: «{word}» — say {instead}"
        for path in SHIPPED
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for word, instead in forbidden_words(line)
    ]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize(
    "text",
    ["Оберіть стос", "у СТОСІ очок", "дама піки", "Піки", "чирви", "Скинути вибір", "з стопки"],
)
def test_glossary_finds_each_forbidden_word(text: str) -> None:
    assert forbidden_words(text)


@pytest.mark.parametrize("text", ["це стосується всіх", "дама пік", "стопка", "скинути карту"])
def test_glossary_leaves_other_words_alone(text: str) -> None:
    assert not forbidden_words(text)


def test_glossary_names_the_seeds_words() -> None:
    assert [term(f"suit.{s}", "uk") for s in "SHDC"] == ["пік", "черви", "бубни", "трефи"]
    assert (term("pile", "uk"), term("piles", "uk"), term("lobby", "uk")) == (
        "стопка",
        "стопки",
        "лобі",
    )
    assert term("sequence", "uk") == "послідовність"
    assert card_name("QS", "uk") == "дама пік"
    assert card_name("AH", "en") == "ace of hearts"
    for key, texts in GLOSSARY.items():
        assert set(texts) == set(languages()), key
        for word in texts.values():
            assert word, key
            assert not forbidden_words(word), key


def test_glossary_is_what_the_messages_and_the_web_client_read() -> None:
    # The catalogue's suit terms are the glossary's words, in every message using them.
    assert CATALOG["term.spade"]["uk"] == term("suit_one.S", "uk")
    text = render(
        "candidate.pile_wrong_suit",
        {"card": "QH", "suit_term": "term.spade", "pile_suit": "S"},
        "uk",
    )
    assert "пік" in text
    assert not forbidden_words(text)
    # The web client's module is the same glossary, every term in both languages.
    module = glossary_js()
    assert module.startswith("//")
    assert "export const GLOSSARY = " in module
    for key in GLOSSARY:
        assert f'"{key}": "{term(key, "uk")}"' in module


def test_glossary_web_client_texts_name_only_known_terms() -> None:
    texts = [
        form
        for lang in languages()
        for text in words("web", lang).values()
        for form in (text if isinstance(text, tuple) else (text,))
    ]
    used = set(re.findall(r"\{@\^?([\w.]+)\}", "\n".join(texts)))
    assert used, "the web client reads its game words from the glossary"
    assert used <= set(GLOSSARY), used - set(GLOSSARY)


def test_glossary_forbidden_patterns_are_whole_words() -> None:
    for pattern in FORBIDDEN:
        re.compile(pattern)
