"""The word catalogues: every text a face shows, one gettext catalogue per language.

The catalogues live beside this module, ``locale/<lang>/LC_MESSAGES/cardtable.po``
(docs/translating.md), each compiled to the ``.mo`` read here with the standard library
alone, so the engine can say its refusals without a third-party import. A message's id
is its gettext context, ``area:key``:

========  ====================================================================
``msg``   the engine's and the server's refusals (:mod:`cardtable.messages`)
``term``  the games' words (:mod:`cardtable.glossary`), and each language's card
          faces (``term:rank_face.Q``)
``tui``   the terminal app (:mod:`cardtable.tui.i18n`)
``web``   the web client (served as ``/js/words.js``)
``cli``   the command line's transcripts (``games/*/records.py``)
``mail``  the emails (``server/mail/texts.py``)
========  ====================================================================

A plural message (``msgid_plural``) holds one form per plural form of the language;
which form a number takes is the catalogue's ``Plural-Forms`` rule (CLDR's, written by
Babel), evaluated by :func:`gettext.c2py`.

>>> words("term", "uk")["pile"]
'стопка'
>>> plural_index(3, "uk"), plural_index(5, "uk"), plural_index(5, "en")
(1, 2, 1)
"""

from __future__ import annotations

import functools
import gettext
import re
import struct
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Final, NamedTuple

__all__ = [
    "LOCALE_DIR",
    "Catalogue",
    "lang_pattern",
    "languages",
    "load",
    "plural_index",
    "words",
]

#: The folder of the catalogues.
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
DOMAIN: Final = "cardtable"

#: A message's text: one string, or one string per plural form.
Text = str | tuple[str, ...]


class Catalogue(NamedTuple):
    """One language's catalogue: every message by its id, and its plural rule."""

    lang: str
    messages: Mapping[str, Text]
    nplurals: int
    plural: Callable[[int], int]


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages with a compiled catalogue: English first, then by code."""
    found = {path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")}
    return ("en", *sorted(found - {"en"}))


def lang_pattern() -> str:
    """A regular expression matching exactly the shipped language codes (``^(en|uk)$``),
    for the server's parameters that name a language."""
    return "^(" + "|".join(languages()) + ")$"


@functools.cache
def load(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (a :class:`ValueError` for a language not shipped)."""
    if lang not in languages():
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(languages())}")
    data = (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()
    messages: dict[str, Text] = {}
    header = ""
    for key, value in _mo_pairs(data):
        if not key:
            header = value
            continue
        context, sep, msgid = key.partition("\x04")
        if not sep:
            continue
        messages[context] = tuple(value.split("\x00")) if "\x00" in msgid else value
    nplurals, rule = _plural_forms(header)
    return Catalogue(lang, MappingProxyType(messages), nplurals, rule)


def words(area: str, lang: str) -> dict[str, Text]:
    """Every message of ``area`` in ``lang`` by its key (the id without ``area:``)."""
    prefix = area + ":"
    return {
        ctx[len(prefix) :]: text
        for ctx, text in load(lang).messages.items()
        if ctx.startswith(prefix)
    }


def plural_index(number: int, lang: str) -> int:
    """Which plural form ``number`` takes in ``lang`` (0 for the first)."""
    catalogue = load(lang)
    return min(max(catalogue.plural(abs(number)), 0), catalogue.nplurals - 1)


def _mo_pairs(data: bytes) -> list[tuple[str, str]]:
    """The (original, translation) pairs of a GNU ``.mo`` file, decoded as UTF-8."""
    order = "<" if struct.unpack_from("<I", data)[0] == 0x950412DE else ">"
    _, count, keys_at, values_at = struct.unpack_from(order + "4I", data, 4)
    keys = struct.unpack_from(f"{order}{2 * count}I", data, keys_at)
    values = struct.unpack_from(f"{order}{2 * count}I", data, values_at)
    return [
        (
            data[keys[2 * i + 1] : keys[2 * i + 1] + keys[2 * i]].decode("utf-8"),
            data[values[2 * i + 1] : values[2 * i + 1] + values[2 * i]].decode("utf-8"),
        )
        for i in range(count)
    ]


def _plural_forms(header: str) -> tuple[int, Callable[[int], int]]:
    """The number of plural forms and the rule from a catalogue's header."""
    found = re.search(r"^Plural-Forms:\s*nplurals=(\d+);\s*plural=(.+?);?\s*$", header, re.M)
    if found is None:
        return 2, lambda n: int(n != 1)
    return int(found.group(1)), gettext.c2py(found.group(2))
