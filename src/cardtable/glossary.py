"""The games' words in every language the faces speak: one glossary for all of them.

The Ukrainian words are the rules' own (docs/rules/candidate.uk.md, docs/rules/spy.uk.md):
a **стопка** (pile; not «стос»), the **лобі**, a **послідовність** (sequence) of the
kinds **сходинки** (run) and **набір** (set), and the suits as the rules name a card —
«9 **пік**» (genitive plural; not «піки»), «10 **черви**», **бубни**, **трефи**.

The words themselves live in the catalogues (:mod:`cardtable.catalogue`, their
``term:`` ids), with each language's card faces (``rank_face.Q``: Q, Д). Every face
reads these terms from here: the message catalogue
(:mod:`cardtable.messages`, its ``term.*`` entries), the terminal (:mod:`cardtable.tui.i18n`)
and the web client (``static/js/glossary.js``, served from :func:`glossary_js`). Words
the project does not use are listed in :data:`FORBIDDEN` with the word to use instead;
a test reads every shipped text and fails on any of them.

>>> term("pile", "uk"), term("suit.S", "uk"), term("suit.H", "uk")
('стопка', 'пік', 'черви')
>>> card_name("QS", "uk"), card_name("10H", "en")
('дама пік', '10 of hearts')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from cardtable.catalogue import languages, words

__all__ = ["FORBIDDEN", "GLOSSARY", "card_name", "forbidden_words", "glossary_js", "term"]


def _terms() -> dict[str, dict[str, str]]:
    """Every term id with its word in each language, from the catalogues (``term:`` ids;
    a language that lacks a word says the English one)."""
    by_lang = {lang: words("term", lang) for lang in languages()}
    return {
        key: {lang: str(texts.get(key, english)) for lang, texts in by_lang.items()}
        for key, english in by_lang["en"].items()
    }


_TERMS: Final = _terms()

GLOSSARY: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {key: MappingProxyType(texts) for key, texts in _TERMS.items()}
)
"""Every term id with its word in each language."""

FORBIDDEN: Final[Mapping[str, str]] = MappingProxyType(
    {
        # pattern (a whole word, any case) -> what to say instead
        r"стос(?:и|у|і|ом|ів|ам|ами|ах)?": "стопка, стопки (the rules’ word)",
        r"піки": "пік (genitive plural, as in «9 пік»)",
        r"чирви": "черви",
        r"скинути вибір": "зняти вибір (скинути reads as discarding cards)",
        r"з стопк\w*": "зі стопки («зі» before «ст»)",
    }
)
"""Words the Ukrainian texts must not use, as regular expressions over whole words."""


def term(key: str, lang: str) -> str:
    """The word for term ``key`` in ``lang`` (a :class:`KeyError` for an unknown term
    or language: a missing word is a bug, not something to guess)."""
    return GLOSSARY[key][lang]


def card_name(text: str, lang: str) -> str:
    """A card named in words, for the ear: ``QS`` → ``queen of spades`` / «дама пік».

    Number cards keep their number (``7 of hearts``, «7 черви»); the order of the words
    is the language's (its ``card_name`` term).
    """
    rank, suit = text[:-1], text[-1:]
    named = GLOSSARY.get(f"rank.{rank}")
    rank_word = named[lang] if named else rank
    return term("card_name", lang).format(rank=rank_word, suit=term(f"suit.{suit}", lang))


def forbidden_words(text: str) -> list[tuple[str, str]]:
    """Each forbidden word in ``text`` with what to say instead.

    >>> [word for word, _ in forbidden_words("Оберіть стос; це стосується всіх. Дама піки.")]
    ['стос', 'піки']
    """
    found = []
    for pattern, instead in FORBIDDEN.items():
        for match in re.finditer(rf"(?<!\w){pattern}(?!\w)", text, flags=re.IGNORECASE):
            found.append((match.group(0), instead))
    return found


def glossary_js() -> str:
    """The glossary as an ES module for the web client (``/js/glossary.js``):
    ``export const GLOSSARY = {"en": {...}, "uk": {...}};``"""
    by_lang = {lang: {key: texts[lang] for key, texts in GLOSSARY.items()} for lang in languages()}
    text = json.dumps(by_lang, ensure_ascii=False, indent=1, sort_keys=True)
    return (
        "// The games' words, served from cardtable/glossary.py: do not edit, edit that.\n"
        f"export const GLOSSARY = {text};\n"
    )
