"""The games' words in every language the faces speak: one glossary for all of them.

The Ukrainian words are the rules' own (docs/rules/candidate.uk.md, docs/rules/spy.uk.md):
a **стопка** (pile; not «стос»), the **лобі**, a **послідовність** (sequence) of the
kinds **сходинки** (run) and **набір** (set), and the suits as the rules name a card —
«9 **пік**» (genitive plural; not «піки»), «10 **черви**», **бубни**, **трефи**.

Every face reads these terms from here: the message catalogue
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

__all__ = ["FORBIDDEN", "GLOSSARY", "card_name", "forbidden_words", "glossary_js", "term"]

_TERMS: dict[str, dict[str, str]] = {
    # -- the table (Candidate and Spy) -------------------------------------------------
    "pile": {"en": "pile", "uk": "стопка"},
    "pile.acc": {"en": "pile", "uk": "стопку"},
    "pile.gen": {"en": "pile", "uk": "стопки"},
    "piles": {"en": "piles", "uk": "стопки"},
    "piles.gen": {"en": "piles", "uk": "стопок"},
    "lobby": {"en": "lobby", "uk": "лобі"},
    "sequence": {"en": "sequence", "uk": "послідовність"},
    "run": {"en": "run", "uk": "сходинки"},
    "set": {"en": "set", "uk": "набір"},
    "trick": {"en": "trick", "uk": "взятка"},
    "tricks": {"en": "tricks", "uk": "взятки"},
    "points_pile": {"en": "points pile", "uk": "стопка очок"},
    "points_pile.loc": {"en": "points pile", "uk": "стопці очок"},
    "points_pile.gen": {"en": "points pile", "uk": "стопки очок"},
    "waste": {"en": "waste", "uk": "відбій"},
    "deck": {"en": "deck", "uk": "колода"},
    "called": {"en": "finished", "uk": "закінчив"},
    # -- suits, as a card is named ("queen of spades", «дама пік») ----------------------
    "suit.S": {"en": "spades", "uk": "пік"},
    "suit.H": {"en": "hearts", "uk": "черви"},
    "suit.D": {"en": "diamonds", "uk": "бубни"},
    "suit.C": {"en": "clubs", "uk": "трефи"},
    # -- one suit, as the record checks name it ("not a spade", «не масті пік») ---------
    "suit_one.S": {"en": "spade", "uk": "пік"},
    "suit_one.H": {"en": "heart", "uk": "черви"},
    "suit_one.D": {"en": "diamond", "uk": "бубни"},
    "suit_one.C": {"en": "club", "uk": "трефи"},
    # -- court cards and the ace, named in full -----------------------------------------
    "rank.J": {"en": "jack", "uk": "валет"},
    "rank.Q": {"en": "queen", "uk": "дама"},
    "rank.K": {"en": "king", "uk": "король"},
    "rank.A": {"en": "ace", "uk": "туз"},
    # -- the words of the move notation (docs/records.md), as a player reads them -------
    "move.deal": {"en": "deal", "uk": "роздати"},
    "move.lobby": {"en": "lobby", "uk": "лобі"},
    "move.play": {"en": "play", "uk": "зіграти"},
    "move.pass": {"en": "pass", "uk": "пас"},
    "move.draw": {"en": "draw", "uk": "добрати"},
    "move.place": {"en": "place", "uk": "покласти"},
    "move.points": {"en": "points", "uk": "очки"},
    "move.waste": {"en": "waste", "uk": "відбій"},
    "move.open": {"en": "open", "uk": "відкрити"},
    "move.turn": {"en": "turn", "uk": "перевернути"},
    "move.call": {"en": "call", "uk": "закінчив"},
    "move.resign": {"en": "resign", "uk": "здатися"},
    # -- buttons and keys ---------------------------------------------------------------
    "clear": {"en": "Clear", "uk": "Зняти вибір"},
    # -- seats kept by bots: "Bot (easy)" / «Бот (легкий)» ------------------------------
    "bot": {"en": "Bot", "uk": "Бот"},
    "level.easy": {"en": "easy", "uk": "легкий"},
    "level.medium": {"en": "medium", "uk": "середній"},
    "level.hard": {"en": "hard", "uk": "складний"},
}

GLOSSARY: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {key: MappingProxyType(words) for key, words in _TERMS.items()}
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

    Number cards keep their number (``7 of hearts``, «7 черви»).
    """
    rank, suit = text[:-1], text[-1:]
    named = GLOSSARY.get(f"rank.{rank}")
    rank_word = named[lang] if named else rank
    suit_word = term(f"suit.{suit}", lang)
    return f"{rank_word} {suit_word}" if lang == "uk" else f"{rank_word} of {suit_word}"


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
    by_lang = {lang: {key: words[lang] for key, words in GLOSSARY.items()} for lang in ("en", "uk")}
    text = json.dumps(by_lang, ensure_ascii=False, indent=1, sort_keys=True)
    return (
        "// The games' words, served from cardtable/glossary.py: do not edit, edit that.\n"
        f"export const GLOSSARY = {text};\n"
    )
