"""Words and cards as the terminal app shows them, in English and Ukrainian.

Every string a screen shows comes from :func:`tr`, which reads the catalogues
(:mod:`cardtable.catalogue`, their ``tui:`` ids), so the language switch (``l``)
changes the whole app at once. Cards are shown with suit symbols, which differ in shape
(♠ ♥ ♦ ♣), so they stay distinguishable without colour (``NO_COLOR``); red suits are
also coloured when colour is on. In Ukrainian the court cards use the letters В Д К Т.

>>> card_label("QS", "en"), card_label("QS", "uk"), card_label("10H", "uk")
('Q♠', 'Д♠', '10♥')
>>> tr("uk", "pass")
'пас'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from rich.text import Text

from cardtable.cards import Rank, Suit, parse_card_kind
from cardtable.catalogue import languages
from cardtable.catalogue import words as catalogue_words
from cardtable.errors import IllegalMove
from cardtable.glossary import GLOSSARY, term
from cardtable.messages import CATALOG, say
from cardtable.tui.driver import Refusal

__all__ = [
    "LANGS",
    "bot_name",
    "card_label",
    "card_text",
    "cards_text",
    "game_title",
    "other_lang",
    "refusal_text",
    "switch_label",
    "tr",
    "words",
    "yes_keys",
]

#: The shipped languages, in the catalogues' order (English first).
LANGS = languages()


#: The language English switches to when the app started in English: the project's
#: first translation.
SECOND_LANG = "uk"


def other_lang(lang: str, home: str = SECOND_LANG) -> str:
    """The language the switch (``l``) goes to from ``lang``: English from any other
    language, and from English back to ``home``, the language the app started in
    (``--lang`` or ``LANG``; :data:`SECOND_LANG` when that was English)."""
    if lang != "en":
        return "en"
    return home if home != "en" and home in LANGS else SECOND_LANG


def yes_keys(lang: str) -> frozenset[str]:
    """The letters that answer yes to a question in ``lang``: the language's own
    (``tui:yes_key``: «т» for так, «j» for ja, «s» for sí, «t» for tak) and ``y``, which
    answers yes in every language (a player who learned the keys in English keeps them).

    >>> sorted(yes_keys("uk")), sorted(yes_keys("en"))
    (['y', 'т'], ['y'])
    """
    return frozenset({tr(lang, "yes_key").lower(), "y"})


def switch_label(lang: str, home: str = SECOND_LANG) -> str:
    """What the key bar in ``lang`` says the switch does: the next language's own name
    in that language ("мова: українська")."""
    return tr(other_lang(lang, home), "lang_switch")


def card_label(text: str, lang: str) -> str:
    """A card's display form: rank (the language's card face: В Д К Т in ``uk``) then
    suit symbol."""
    kind = parse_card_kind(text)
    rank = Rank(kind % 13 + 2).text
    face = GLOSSARY.get(f"rank_face.{rank}")
    return (face[lang] if face else rank) + Suit(kind // 13).symbol


def card_text(text: str, lang: str) -> Text:
    """A card as styled text: bold, red suits in red (colour is only a help: the
    symbol alone tells the suit)."""
    suit = Suit(parse_card_kind(text) // 13)
    return Text(card_label(text, lang), style="bold red" if suit.is_red else "bold")


def cards_text(texts: Iterable[str], lang: str, sep: str = " ") -> Text:
    """Several cards as styled text, separated by ``sep``."""
    out = Text()
    for i, text in enumerate(texts):
        if i:
            out.append(sep)
        out.append_text(card_text(text, lang))
    return out


def refusal_text(exc: IllegalMove | Refusal, lang: str) -> str:
    """Why the engine or the table refused a move, in ``lang``: its message id rendered
    from the catalog of :mod:`cardtable.messages` (the English reason when it has none).

    >>> from cardtable.games.candidate.actions import text_to_action
    >>> try:
    ...     text_to_action("play 2S 7S")
    ... except IllegalMove as exc:
    ...     print(refusal_text(exc, "uk"))
    2♠ 7♠ — не послідовність: після 2♠ йде 3 (сходинки) або 2 (набір)
    """
    if isinstance(exc, IllegalMove):
        code, fallback = exc.code, exc.reason
    else:
        code, fallback = exc.message_id, exc.text
    if code is None or code not in CATALOG:
        return fallback
    return say(code, exc.params, lang)


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _game_words(lang: str) -> dict[str, str]:
    """The games' own words in ``lang``, from the glossary every face reads."""
    return {
        "piles": _capital(term("piles", lang)),
        "lobby": _capital(term("lobby", lang)),
        "run": term("run", lang),
        "set": term("set", lang),
        "waste": term("waste", lang),
        "deck": term("deck", lang),
        "bot": term("bot", lang),
    }


def game_title(game: str, lang: str) -> str:
    """The game's title in ``lang`` («Kandidat», «Шпигун проти шпигуна»): the glossary's
    ``game_title.<game>``, the same the web lobby and the command line show."""
    return term(f"game_title.{game}", lang)


def bot_name(level: str, lang: str) -> str:
    """A bot seat's name from its level, in ``lang``: ``Bot (easy)``, «Бот (легкий)»;
    a spec that is not a level (``greedy``) is kept as it is."""
    try:
        return f"{term('bot', lang)} ({term(f'level.{level}', lang)})"
    except KeyError:
        return f"{term('bot', lang)} ({level})"


def tr(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang`` (English when missing), formatted with ``values``."""
    table = _words(lang)
    template = table.get(key) or _words("en")[key]
    return template.format(**values) if values else template


def words(lang: str) -> dict[str, str]:
    """Every string of the terminal in ``lang``: its catalogue's ``tui:`` ids and the
    games' own words from the glossary."""
    return dict(_words(lang))


@functools.cache
def _words(lang: str) -> dict[str, str]:
    table = {key: str(text) for key, text in catalogue_words("tui", lang).items()}
    table.update(_game_words(lang))
    return table
