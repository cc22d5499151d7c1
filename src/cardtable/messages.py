"""Refusals in every language the faces speak: message ids, templates and rendering.

Every refusal the engine raises — an :class:`~cardtable.errors.IllegalMove`, a
:class:`~cardtable.errors.BadRecord`, a :class:`~cardtable.errors.CardParseError` —
carries a stable message id (``code``) and its parameters (``params``) beside its
English text. The English text is the catalog's English template rendered with those
parameters, so the CLI, the records and ``str(exc)`` read as before; a face renders the
same id in the player's language instead:

The templates live in the catalogues (:mod:`cardtable.catalogue`, their ``msg:`` ids),
one gettext catalogue per language, so that every face reads one source and a language
is added as a file (docs/translating.md).

>>> refusal = make_refusal("spy.no_fit", card="QS", pile=2, top_card="7D")
>>> refusal.text("en")
'QS does not fit on pile 2 (top 7D): a card goes on a pile one rank above or below it'
>>> print(refusal.text("uk"))  # doctest: +NORMALIZE_WHITESPACE
Д♠ не підходить на стопку 2 (зверху 7♦): карту кладуть на стопку, верхня карта якої на
одне значення вища або нижча
>>> exc = refusal.illegal("0 place points 2")
>>> exc.code, render(exc.code, exc.params, "en") == exc.reason
('spy.no_fit', True)

Templates are :meth:`str.format` templates with these fields:

================  ==================================================================
``{name}``        the parameter, shown the way its content is shown in the language
``{name!r}``      the parameter's Python ``repr`` (how English quotes what was typed)
``{name:a}``      with the English indefinite article: ``a 7``, ``an 8``, ``an A``
``{name:f1|f2}``  a plural form chosen by the integer parameter, ``#`` standing for
                  the number: one form per plural form of the catalogue's CLDR rule
                  (English one, other; Ukrainian one, few, many)
``{{`` ``}}``     literal braces
================  ==================================================================

A parameter's content (what it holds) follows from its name:

=====================  ========================================================
``card``, ``*_card``   one card's plain text (``QS``): in Ukrainian ``Д♠``
``cards``, ``*_cards`` card texts separated by single spaces
``rank``, ``*_rank``   a rank (``2``…``10``, ``J``, ``Q``, ``K``, ``A``): ``В Д К Т``
``ranks``, ``*_ranks`` ranks joined by ``-`` (a run: ``9-10-J``)
``suit``, ``*_suit``   a suit letter (``S H D C``): in Ukrainian ``♠ ♥ ♦ ♣``
``term``, ``*_term``   the id of a ``term.*`` entry, shown in the language
anything else          as it is
=====================  ========================================================

Cards are shown as the project shows them to people in each language: the faces (the
browser, the terminal) say a refusal with :func:`say`, which writes every card with its
suit symbol (``Q♠`` in English, ``Д♠`` in Ukrainian), as the table draws it.
:func:`render` in English keeps the plain text of the records (``QS``), which is what the
CLI, the records and ``str(exc)`` read. The web client renders the same catalog, served
as JSON by the server for the faces (:func:`catalog_json`), so every face reads one source.

>>> say("spy.no_fit", {"card": "QS", "pile": 2, "top_card": "7D"}, "en")
'Q♠ does not fit on pile 2 (top 7♦): a card goes on a pile one rank above or below it'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from cardtable.catalogue import languages, plural_index, words
from cardtable.errors import BadRecord, CardParseError, IllegalMove, UnreadableFile
from cardtable.glossary import GLOSSARY

__all__ = [
    "CATALOG",
    "LANGS",
    "Refusal",
    "catalog_json",
    "make_refusal",
    "param_content",
    "placeholders",
    "plural",
    "render",
    "say",
]

#: The languages every message id is written in: one catalogue each
#: (:mod:`cardtable.catalogue`, ``locale/<lang>/LC_MESSAGES/cardtable.po``).
LANGS: Final = languages()

#: The record checks name one suit in the glossary's words (:mod:`cardtable.glossary`).
_GLOSSARY_TERMS: Final = {
    "term.spade": "suit_one.S",
    "term.heart": "suit_one.H",
    "term.diamond": "suit_one.D",
    "term.club": "suit_one.C",
}


def _catalog() -> dict[str, dict[str, str]]:
    """Every message id with its template in each language, from the catalogues."""
    by_lang = {lang: words("msg", lang) for lang in LANGS}
    out: dict[str, dict[str, str]] = {}
    for code in by_lang["en"]:
        out[code] = {
            lang: str(texts.get(code, by_lang["en"][code])) for lang, texts in by_lang.items()
        }
    for code, key in _GLOSSARY_TERMS.items():
        out[code] = dict(GLOSSARY[key])
    return out


_CATALOG: Final = _catalog()

#: Every message id with its template in each language of :data:`LANGS`.
CATALOG: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {code: MappingProxyType(texts) for code, texts in _CATALOG.items()}
)

#: How each language shows a rank and a suit letter of a card's plain text (English
#: keeps the plain text; the others as the catalogue's card faces say, ``term:rank_face.*``,
#: with suit symbols).
_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_FACES: Final[Mapping[str, Mapping[str, str]]] = {
    lang: {rank: GLOSSARY[f"rank_face.{rank}"][lang] for rank in "JQKA"} for lang in LANGS
}
_SUIT_SYMBOLS: Final[Mapping[str, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_FACES: Final[Mapping[str, Mapping[str, str]]] = {
    lang: {} if lang == "en" else _SUIT_SYMBOLS for lang in LANGS
}

_Piece = tuple[str, str | None, str | None, str | None]
_PARSED: Final[dict[tuple[str, str], tuple[_Piece, ...]]] = {
    (code, lang): tuple(string.Formatter().parse(template))
    for code, texts in _CATALOG.items()
    for lang, template in texts.items()
}


def say(code: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message ``code`` in ``lang`` as a face shows it to a player: like
    :func:`render`, but every card and suit is written with its suit symbol in every
    language (``Q♠``, ``♥``), the way the table draws cards, never as a record's code.

    >>> say("candidate.bad_run_card", {"cards": "7S 8H 10D", "position": 3, "rank": "9"})
    '7♠ 8♥ 10♦ is not a run: card 3 must be a 9'
    """
    return _render(code, params, lang, _SUIT_SYMBOLS)


def render(code: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message ``code`` in ``lang``, its parameters shown as the language shows them
    in text (English: a record's plain card text, ``QS``; faces use :func:`say`).

    Raises :class:`KeyError` for an unknown id or a missing parameter and
    :class:`ValueError` for a language not in :data:`LANGS`.

    >>> render("spy.call_too_early", {"count": 1}, "en")
    'the points pile still holds 1 card: call only when it is empty'
    >>> render("spy.call_too_early", {"count": 3}, "uk")
    'в очковій стопці ще 3 карти: «закінчив» оголошують, лише коли вона порожня'
    >>> render("candidate.bad_run_card", {"cards": "7S 8H 10D", "position": 3, "rank": "9"})
    '7S 8H 10D is not a run: card 3 must be a 9'
    """
    return _render(code, params, lang, _SUIT_FACES.get(lang, {}))


def _render(code: str, params: Mapping[str, Any], lang: str, suits: Mapping[str, str]) -> str:
    """``code`` in ``lang``, its suits shown by ``suits`` (the rules of :func:`render`)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    pieces = _PARSED.get((code, lang))
    if pieces is None:
        raise KeyError(f"unknown message id {code!r}")
    out: list[str] = []
    for literal, name, spec, conversion in pieces:
        out.append(literal)
        if name is None:
            continue
        value = params[name]
        if conversion == "r":
            out.append(repr(value))
        elif spec and "|" in spec:
            out.append(_plural(int(value), spec, lang))
        else:
            text = _param_text(name, value, lang, suits)
            out.append(_article(text) + text if spec == "a" else text)
    return "".join(out)


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template uses.

    >>> sorted(placeholders("{card} on {pile} ({count:# card|# cards})"))
    ['card', 'count', 'pile']
    """
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def param_content(name: str) -> str:
    """What a parameter holds, from its name: ``card``, ``cards``, ``rank``, ``ranks``,
    ``suit``, ``term`` or ``text`` (shown as it is).

    >>> [param_content(name) for name in ("top_card", "cards", "got_term", "pile")]
    ['card', 'cards', 'term', 'text']
    """
    content = name.rsplit("_", 1)[-1]
    return content if content in ("card", "cards", "rank", "ranks", "suit", "term") else "text"


def _param_text(name: str, value: Any, lang: str, suits: Mapping[str, str]) -> str:
    content = param_content(name)
    if content == "text":
        return str(value)
    if content == "term":
        return CATALOG[str(value)][lang]
    if content == "suit":
        return suits.get(str(value), str(value))
    if content == "rank":
        return _RANK_FACES[lang].get(str(value), str(value))
    if content == "ranks":
        faces = _RANK_FACES[lang]
        return "-".join(faces.get(rank, rank) for rank in str(value).split("-"))
    if content == "card":
        return _card(str(value), lang, suits)
    return " ".join(_card(card, lang, suits) for card in str(value).split(" ")) if value else ""


def _card(text: str, lang: str, suits: Mapping[str, str]) -> str:
    rank, suit = text[:-1], text[-1:]
    return _RANK_FACES[lang].get(rank, rank) + suits.get(suit, suit)


def _article(text: str) -> str:
    """The English indefinite article before a rank or number: ``an 8``, ``an A``."""
    return "an " if text[:1] in ("8", "A") else "a "


def plural(number: int, spec: str, lang: str) -> str:
    """The form of ``spec`` for ``number``, ``#`` standing for the number: one form per
    plural form of the language, in the catalogue's order (English ``one|other``,
    Ukrainian ``one|few|many``), chosen by the catalogue's CLDR rule.

    >>> plural(1, "# move|# moves", "en"), plural(3, "# хід|# ходи|# ходів", "uk")
    ('1 move', '3 ходи')
    """
    return _plural(number, spec, lang)


def _plural(number: int, spec: str, lang: str) -> str:
    """The form of ``spec`` for ``number`` (the rule of :func:`plural`)."""
    forms = spec.split("|")
    index = plural_index(number, lang)
    return forms[min(index, len(forms) - 1)].replace("#", str(number))


class Refusal(NamedTuple):
    """A reason to refuse: a message id and its parameters, not yet said in any language.

    :meth:`text` says it; :meth:`illegal`, :meth:`bad_record` and :meth:`bad_card` make
    the error to raise, its English text rendered from the catalog.
    """

    code: str
    params: Mapping[str, str | int]

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang``."""
        return render(self.code, self.params, lang)

    def illegal(self, move: str | None = None) -> IllegalMove:
        """An :class:`~cardtable.errors.IllegalMove` for ``move`` (its text, if known)."""
        return IllegalMove(self.text(), move, code=self.code, params=self.params)

    def bad_record(self, field: str) -> BadRecord:
        """A :class:`~cardtable.errors.BadRecord` naming the record ``field``."""
        return BadRecord(field, self.text(), code=self.code, params=self.params)

    def bad_card(self) -> CardParseError:
        """A :class:`~cardtable.errors.CardParseError`."""
        return CardParseError(self.text(), code=self.code, params=self.params)

    def unreadable_file(self) -> UnreadableFile:
        """An :class:`~cardtable.errors.UnreadableFile`."""
        return UnreadableFile(self.text(), code=self.code, params=self.params)


def make_refusal(code: str, /, **params: str | int) -> Refusal:
    """A :class:`Refusal` of the catalog's message ``code`` (an unknown id is a bug:
    :class:`KeyError` at once, not when someone reads the message)."""
    if code not in CATALOG:
        raise KeyError(f"unknown message id {code!r}")
    return Refusal(code, params)


def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog in ``lang`` for a face that renders the messages itself: every
    template and how the language shows ranks and suits to a player (as :func:`say`:
    suit symbols in every language).

    >>> data = catalog_json("uk")
    >>> data["messages"]["spy.match_over"], data["ranks"]["Q"], data["suits"]["S"]
    ('матч закінчено', 'Д', '♠')
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    return {
        "lang": lang,
        "messages": {code: texts[lang] for code, texts in CATALOG.items()},
        "ranks": {rank: _RANK_FACES[lang].get(rank, rank) for rank in _RANKS},
        "suits": dict(_SUIT_SYMBOLS),
    }
