"""The command line's ``--help`` in the reader's language.

Every help text of ``cardtable`` and its commands is a catalogue message
(``cli:help.<command>.<option>``, docs/translating.md). Typer reads a command's help
when the command is declared, long before the reader's language is known (a ``--lang``
on the command line is parsed only when the command line is), so the commands declare
the English text through :func:`help_text`, which remembers which message it was; when
the help is shown, :func:`translated` gives that message in the reader's language.
A text not declared here (one of Click's own) stays as it is.

>>> english = help_text("common.quiet")
>>> english, translated(english, "de"), translated("Not declared.", "uk")
('No progress bar.', 'Kein Fortschrittsbalken.', 'Not declared.')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from cardtable.catalogue import words

__all__ = ["declared_key", "help_message", "help_text", "translated"]

#: The help texts declared so far: each English text with its message key and values.
_DECLARED: Final[dict[str, tuple[str, Mapping[str, object]]]] = {}


def help_message(key: str, lang: str, **values: object) -> str:
    """The help message ``cli:help.<key>`` in ``lang``, formatted with ``values``
    (English when the language lacks it)."""
    text = _helps(lang).get(key) or _helps("en")[key]
    return text.format(**values) if values else text


@functools.cache
def _helps(lang: str) -> Mapping[str, str]:
    """Every help message of ``lang`` by its key (``cli:help.deal.seed`` → ``deal.seed``)."""
    return MappingProxyType(
        {
            key.removeprefix("help."): str(text)
            for key, text in words("cli", lang).items()
            if key.startswith("help.")
        }
    )


def help_text(key: str, **values: object) -> str:
    """The English text of the help ``cli:help.<key>`` (formatted with ``values``), as a
    command declares it; :func:`translated` says it in another language.

    An unknown key is a :class:`KeyError` when the command is declared: a help that the
    catalogues lack is a bug, found by importing the command line."""
    text = help_message(key, "en", **values)
    _DECLARED[text] = (key, MappingProxyType(dict(values)))
    return text


def declared_key(text: str) -> str | None:
    """The key of the help whose English text is ``text``, or None for a text not
    declared by :func:`help_text` (a test keeps every help of the command line declared)."""
    declared = _DECLARED.get(text)
    return declared[0] if declared is not None else None


def translated(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a help declared by :func:`help_text`; any other
    text as it is."""
    declared = _DECLARED.get(text)
    if declared is None or lang == "en":
        return text
    key, values = declared
    return help_message(key, lang, **values)
