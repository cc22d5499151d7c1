"""The rules documents (``docs/rules/GAME.LANG.md``): where they are and their text.

The command line (``cardtable rules``), the server (``GET /api/rules/{game}``) and the
terminal's rules screen all show these pages, so finding them lives here, below every
face, and no face has to import another to reach them. This module imports the
standard library and :mod:`cardtable.errors`; :func:`rules_html` also markdown-it-py
(which rich, a dependency of every install, brings).

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

from cardtable.catalogue import languages
from cardtable.errors import CardtableError
from cardtable.messages import render

__all__ = ["RULES_DIRS", "markdown_html", "rules_html", "rules_path", "rules_text"]

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
    """The rules of ``game`` in ``lang`` (docs/rules/GAME.LANG.md), as Markdown; for a
    shipped language with no page of its own yet, the English page under a note in that
    language (the catalogues' ``msg:rules.english_only``)."""
    try:
        return rules_path(game, lang).read_text(encoding="utf-8")
    except CardtableError:
        if lang == "en" or lang not in languages():
            raise
    note = render("rules.english_only", {}, lang)
    return f"> {note}\n\n" + rules_path(game, "en").read_text(encoding="utf-8")


def rules_html(game: str, lang: str) -> str:
    """The rules of ``game`` in ``lang`` as HTML, for the web client's rules page."""
    return markdown_html(rules_text(game, lang))


def markdown_html(markdown: str) -> str:
    r"""CommonMark with tables as HTML: nested lists stay nested, raw HTML in the text is
    escaped (nothing in a page becomes markup), and every heading is one level lower
    (the page's ``#`` title becomes an ``h2`` under the app's ``h1``).

    >>> print(markdown_html("# Rules\n\n- **C7** a:\n  - run\n  - set"))
    <h2>Rules</h2>
    <ul>
    <li><strong>C7</strong> a:
    <ul>
    <li>run</li>
    <li>set</li>
    </ul>
    </li>
    </ul>
    <BLANKLINE>
    >>> markdown_html("<script>x</script>")
    '<p>&lt;script&gt;x&lt;/script&gt;</p>\n'
    """
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(markdown)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1:]) + 1)}"
    return str(parser.renderer.render(tokens, parser.options, {}))
