"""Docstrings, comments and documents cite the project's own pages.

The rules are ``docs/rules/candidate.en.md`` and ``docs/rules/spy.en.md`` (tags C1…,
S1…), the record notation is ``docs/records.md``. Files outside the repository (the
rulings and records notes the project started from) are never cited: a reader could not
follow the reference.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Citations of pages that are not in the repository.
FOREIGN = re.compile(r"\b(?:RULINGS|RECORDS|ARCHITECTURE)\.md\b|\bshared/")

# Where citations are looked for, and which files there are read.
SCANNED = ("src", "docs", "tests")
SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".txt", ".toml", ".json"}

THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()


def foreign_citations(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of every line of ``text`` citing a page not in the repo.

    >>> foreign_citations("ok: docs/records.md\\nsee RULINGS.md C4\\n")
    [(2, 'see RULINGS.md C4')]
    """
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if FOREIGN.search(line)
    ]


def test_the_pattern_catches_each_foreign_page() -> None:
    found = foreign_citations(
        "RULINGS.md C1\n(RECORDS.md)\nshared/RECORDS.md\nARCHITECTURE.md\nBAD_RECORDS = []\n"
        "docs/records.md and docs/rules/spy.en.md\n"
    )
    assert [number for number, _ in found] == [1, 2, 3, 4]


def test_no_file_cites_a_page_outside_the_repository() -> None:
    cited = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            name = path.relative_to(ROOT).as_posix()
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            if name == THIS_FILE:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            cited += [f"{name}:{n}: {line}" for n, line in foreign_citations(text)]
    assert not cited, "cite docs/rules/*.md or docs/records.md instead:\n" + "\n".join(cited)
