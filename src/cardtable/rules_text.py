"""The rules documents (``docs/rules/GAME.LANG.md``): where they are and their text.

The command line (``cardtable rules``), the server (``GET /api/rules/{game}``) and the
terminal's rules screen all show these pages, so finding them lives here, below every
face, and no face has to import another to reach them. This module imports only the
standard library and :mod:`cardtable.errors`.

The pages are found in two places, in this order:

- next to this module, in ``cardtable/rules/`` (an installed wheel: ``pyproject.toml``
  force-includes ``docs/rules`` there);
- in ``docs/rules/`` of a source checkout (``src/cardtable`` two levels below the root).

>>> rules_text("spy", "en").splitlines()[0]
'# Spy vs Spy («Шпигун проти шпигуна»)'
"""

from __future__ import annotations

import re
from pathlib import Path

from cardtable.errors import CardtableError

__all__ = ["RULES_DIRS", "rules_path", "rules_text"]

RULES_DIRS: tuple[Path, ...] = (
    Path(__file__).parent / "rules",  # installed wheel
    Path(__file__).resolve().parents[2] / "docs" / "rules",  # source checkout
)
"""Where the rules pages are looked for, first match wins."""

# A game or language name is one plain word: it becomes part of a file name.
_WORD = re.compile(r"[a-z0-9_]+")


def rules_path(game: str, lang: str) -> Path:
    """The file holding the rules of ``game`` in ``lang`` (e.g. ``spy``, ``uk``).

    Raises :class:`~cardtable.errors.CardtableError` when no such page is installed,
    or when a name is not one plain word (it could otherwise reach outside the folder).
    """
    name = f"{game}.{lang}.md"
    if _WORD.fullmatch(game) and _WORD.fullmatch(lang):
        for folder in RULES_DIRS:
            path = folder / name
            if path.is_file():
                return path
    raise CardtableError(f"the rules of {game} in {lang!r} are not installed (looked for {name})")


def rules_text(game: str, lang: str) -> str:
    """The rules of ``game`` in ``lang`` (docs/rules/GAME.LANG.md), as Markdown."""
    return rules_path(game, lang).read_text(encoding="utf-8")
