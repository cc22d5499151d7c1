"""Carry the hand-written word tables into the gettext catalogues, and build the ``.mo``.

cardtable's words once lived in four hand-written tables: the engine's refusals
(``messages.py``), the games' words (``glossary.py``), the terminal's (``tui/i18n.py``)
and the web client's (``server/static/js/i18n.js``). They now live in one catalogue per
language, ``src/cardtable/locale/<lang>/LC_MESSAGES/cardtable.po`` (docs/translating.md).
This script reads whichever of those tables a source tree still has, from the working
tree or from a git revision, and writes what they hold into the catalogues:

- an id the catalogues lack is added (after its neighbour in the table), with its
  English and Ukrainian texts and the table's section comment for translators;
- an id whose text the table changed gets the new text; the other languages keep theirs,
  marked fuzzy when the English changed (a translator looks again);
- nothing is ever removed, and ids the tables do not name are left as they are.

With ``--rev`` the tables are read from that revision, and only what the revision
changed since its merge base with ``HEAD`` is taken (``--base`` to name another base):
a branch that added a few strings to the old tables brings just those. With no table
left in the tree the script only rewrites the catalogues (and compiles every ``.mo``),
so it is safe to run at any time. ``--check`` writes nothing and fails when a file
would change (a ``.po`` edited by hand with its ``.mo`` not rebuilt, for instance).

    .venv/bin/python scripts/i18n_port.py                 # the working tree
    .venv/bin/python scripts/i18n_port.py --rev feature   # a branch's new strings
    .venv/bin/python scripts/i18n_port.py --check

Needs Babel (the project's dependency) and, for the web client's table, Node.js.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src/cardtable/locale"
DOMAIN = "cardtable"
#: The languages the old tables were written in; English is the catalogues' source.
TABLE_LANGS = ("en", "uk")
#: A fixed date for the headers, so that a rerun changes no byte of an unchanged file.
STAMP = datetime(2026, 12, 1, tzinfo=UTC)

MESSAGES = "src/cardtable/messages.py"
GLOSSARY = "src/cardtable/glossary.py"
TUI = "src/cardtable/tui/i18n.py"
WEB = "src/cardtable/server/static/js/i18n.js"
MAIL = "src/cardtable/server/mail/texts.py"
#: The command line's transcripts (``cardtable replay``), one table per game.
RECORDS = {
    "spy": "src/cardtable/games/spy/records.py",
    "candidate": "src/cardtable/games/candidate/records.py",
}

Text = str | tuple[str, ...]


@dataclass
class Entry:
    """One message: its id (the context, ``area:key``), its texts and comments."""

    ctx: str
    texts: dict[str, Text]
    comments: list[str] = field(default_factory=list)
    fuzzy: set[str] = field(default_factory=set)


# -- reading the tables ----------------------------------------------------------------


def source(path: str, rev: str | None) -> str | None:
    """The text of ``path`` in the working tree or at ``rev`` (None when it is absent)."""
    if rev is None:
        file = ROOT / path
        return file.read_text(encoding="utf-8") if file.exists() else None
    done = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def _section_comments(text: str, indent: str, key_pattern: str, mark: str) -> dict[str, str]:
    """Each key of a table with the section comment above it (``# -- cards --`` → cards)."""
    out: dict[str, str] = {}
    comment = ""
    for line in text.splitlines():
        if line.startswith(indent + mark) and not line.startswith(indent + " "):
            comment = line[len(indent + mark) :].strip().strip("-").strip()
        elif found := re.match(indent + key_pattern, line):
            out.setdefault(found.group(1), comment)
    return out


def _python_tables(text: str, names: tuple[str, ...]) -> dict[str, dict[str, object]]:
    """The dict literals assigned to ``names`` at a module's top level, their values
    evaluated with the module's constant strings (entries that are not literals, such
    as ``dict(GLOSSARY[...])``, are left out: they are not texts of their own)."""
    tree = ast.parse(text)
    scope: dict[str, object] = {}
    tables: dict[str, dict[str, object]] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        value = getattr(node, "value", None)
        if not isinstance(target, ast.Name) or value is None:
            continue
        if target.id in names and isinstance(value, ast.Dict):
            table: dict[str, object] = {}
            for key, item in zip(value.keys, value.values, strict=True):
                if isinstance(key, ast.Constant) and not isinstance(item, ast.Call):
                    table[str(key.value)] = _evaluate(item, scope)
            tables[target.id] = table
            continue
        try:
            scope[target.id] = _evaluate(value, scope)
        except Exception:  # not a constant: of no use to the tables
            continue
    return tables


def _evaluate(node: ast.expr, scope: dict[str, object]) -> object:
    code = compile(ast.Expression(body=node), "<table>", "eval")
    return eval(code, {"__builtins__": {}}, dict(scope))


def read_messages(text: str) -> list[Entry]:
    """The refusals (``msg:``) and the card faces of each language (``term:rank_face.*``)."""
    tables = _python_tables(text, ("_CATALOG", "_RANK_FACES"))
    notes = _section_comments(text, "    ", r'"([\w.]+)": ', "#")
    entries = [
        Entry(f"msg:{code}", {lang: str(t) for lang, t in texts.items()}, _notes(notes, code))  # type: ignore[attr-defined]
        for code, texts in tables.get("_CATALOG", {}).items()
    ]
    faces = tables.get("_RANK_FACES", {})
    if faces:
        for rank in ("J", "Q", "K", "A"):
            texts = {lang: faces.get(lang, {}).get(rank, rank) for lang in TABLE_LANGS}  # type: ignore[attr-defined]
            entries.append(Entry(f"term:rank_face.{rank}", texts, [_FACE_NOTE]))
    return entries


_FACE_NOTE = (
    "how a card's rank letter is written on a card in this language "
    "(J Q K A in English, В Д К Т in Ukrainian); one letter or number"
)


def read_glossary(text: str) -> list[Entry]:
    """The games' words (``term:``)."""
    tables = _python_tables(text, ("_TERMS",))
    notes = _section_comments(text, "    ", r'"([\w.]+)": ', "#")
    return [
        Entry(f"term:{key}", {lang: str(t) for lang, t in texts.items()}, _notes(notes, key))  # type: ignore[attr-defined]
        for key, texts in tables.get("_TERMS", {}).items()
    ]


def read_tui(text: str) -> list[Entry]:
    """The terminal's words (``tui:``), from its English and Ukrainian tables (a word
    the Ukrainian table lacks is left untranslated, for the catalogue checks to name)."""
    tables = _python_tables(text, ("_EN", "_UK"))
    if "_EN" not in tables:
        return []
    notes = _section_comments(text, "    ", r'"([\w.]+)": ', "#")
    uk = tables.get("_UK", {})
    return [
        Entry(
            f"tui:{key}",
            {"en": str(en)} | ({"uk": str(uk[key])} if key in uk else {}),
            _notes(notes, key),
        )
        for key, en in tables["_EN"].items()
    ]


def read_records(game: str, text: str) -> list[Entry]:
    """A game's transcript words (``cli:GAME.key``), from its ``_WORDS`` table."""
    table = _python_tables(text, ("_WORDS",)).get("_WORDS", {})
    english = table.get("en", {})
    return [
        Entry(
            f"cli:{game}.{key}",
            {lang: str(words[key]) for lang, words in table.items() if key in words},  # type: ignore[attr-defined]
            [f"the transcript of a {game} record (cardtable replay)"],
        )
        for key in english  # type: ignore[attr-defined]
    ]


def read_mail(text: str) -> list[Entry]:
    """The emails (``mail:KIND.subject``, ``mail:KIND.body``, ``mail:signature``)."""
    tables = _python_tables(text, ("_TEXTS", "_SIGNATURE"))
    entries = []
    for kind, by_lang in tables.get("_TEXTS", {}).items():
        for i, part in enumerate(("subject", "body")):
            entries.append(
                Entry(
                    f"mail:{kind}.{part}",
                    {lang: str(texts[i]) for lang, texts in by_lang.items()},  # type: ignore[attr-defined]
                    [f"the {part} of the {kind} email"],
                )
            )
    signature = tables.get("_SIGNATURE", {})
    if signature:
        texts = {lang: str(text) for lang, text in signature.items()}
        entries.append(Entry("mail:signature", texts, ["the end of every email"]))
    return entries


_NODE_READER = r"""
const text = require("fs").readFileSync(0, "utf8");
const start = text.indexOf("const WORDS = ");
if (start < 0) { process.stdout.write("null"); process.exit(0); }
const body = text.slice(start + "const WORDS = ".length, text.indexOf("\n};", start) + 2);
process.stdout.write(JSON.stringify((0, eval)("(" + body + ")")));
"""


def read_web(text: str) -> list[Entry]:
    """The web client's words (``web:``): its ``WORDS`` literal, read by Node.js."""
    if "const WORDS = " not in text:
        return []
    done = subprocess.run(
        ["node", "-e", _NODE_READER], input=text, capture_output=True, text=True, check=True
    )
    words = json.loads(done.stdout)
    if not words:
        return []
    notes = _section_comments(text, "    ", r"(\w+): ", "//")
    entries = []
    for key in words["en"]:
        texts: dict[str, Text] = {}
        for lang in TABLE_LANGS:
            value = words.get(lang, {}).get(key)
            if value is not None:  # a word the table lacks stays to be translated
                texts[lang] = tuple(value) if isinstance(value, list) else value
        entries.append(Entry(f"web:{key}", texts, _notes(notes, key)))
    return entries


def _notes(sections: dict[str, str], key: str) -> list[str]:
    section = sections.get(key, "")
    return [section] if section else []


def read_tables(rev: str | None) -> list[Entry]:
    """Every entry of every table the tree (or ``rev``) still holds."""
    readers = (
        (MESSAGES, read_messages),
        (GLOSSARY, read_glossary),
        (TUI, read_tui),
        (MAIL, read_mail),
    )
    entries: list[Entry] = []
    for path, reader in (*readers, (WEB, read_web)):
        text = source(path, rev)
        if text is not None:
            entries.extend(reader(text))
    for game, path in RECORDS.items():
        text = source(path, rev)
        if text is not None:
            entries.extend(read_records(game, text))
    return entries


# -- the catalogues ----------------------------------------------------------------------


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    """English first, then every language with a catalogue, then the tables' own."""
    found = {path.parent.parent.name for path in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    return ["en", *sorted((found | set(TABLE_LANGS)) - {"en"})]


def load() -> dict[str, Entry]:
    """The entries of the catalogues as they are, in the English catalogue's order."""
    entries: dict[str, Entry] = {}
    for lang in languages():
        path = po_path(lang)
        if not path.exists():
            continue
        with path.open("rb") as file:
            catalog = read_po(file, locale=lang)
        for message in catalog:
            if not message.id or not message.context:
                continue
            entry = entries.setdefault(message.context, Entry(message.context, {}))
            if lang == "en":
                entry.comments = list(message.auto_comments)
            string = message.string
            text: Text = tuple(string) if isinstance(message.id, tuple) else str(string)
            if text and any(text if isinstance(text, tuple) else [text]):
                entry.texts[lang] = text
            if message.fuzzy:
                entry.fuzzy.add(lang)
    return entries


def merge(entries: dict[str, Entry], tables: list[Entry], base: list[Entry]) -> list[str]:
    """Bring the tables' texts into ``entries`` (in place); the ids it touched."""
    unchanged = {(e.ctx, json.dumps(e.texts, sort_keys=True)) for e in base}
    order = list(entries)
    touched = []
    previous: str | None = None
    for new in tables:
        here, previous = previous, new.ctx
        if (new.ctx, json.dumps(new.texts, sort_keys=True)) in unchanged:
            continue
        old = entries.get(new.ctx)
        if old is None:
            entries[new.ctx] = new
            order.insert(order.index(here) + 1 if here in order else len(order), new.ctx)
            touched.append(new.ctx)
            continue
        if all(old.texts.get(lang) == text for lang, text in new.texts.items()):
            continue
        if old.texts.get("en") != new.texts["en"]:
            old.fuzzy |= set(old.texts) - set(new.texts)
        old.texts.update(new.texts)
        old.fuzzy -= set(new.texts)
        touched.append(new.ctx)
    ordered = {ctx: entries[ctx] for ctx in order}
    entries.clear()
    entries.update(ordered)
    return touched


class _Catalog(Catalog):
    """A catalogue whose header names no Babel version, so the files do not change
    with the Babel that writes them."""

    def _get_mime_headers(self) -> list[tuple[str, str]]:
        headers = super()._get_mime_headers()
        return [(k, "Babel\n" if k == "Generated-By" else v) for k, v in headers]

    mime_headers = property(_get_mime_headers, Catalog._set_mime_headers)


def plural_rule(lang: str) -> tuple[int, str] | None:
    """The plural rule a language's catalogue already has (its count of forms and its
    expression), or None for a new catalogue, which takes the rule Babel writes.

    The rule stays as the catalogue has it: Babel's releases write equal rules in
    different words (CLDR's and gettext's), and the forms' order must not move under
    the translations. A test checks every rule against CLDR's categories."""
    path = po_path(lang)
    if not path.exists():
        return None
    with path.open("rb") as file:
        catalog = read_po(file, locale=lang)
    return catalog.num_plurals, catalog.plural_expr


def catalogue(lang: str | None, entries: dict[str, Entry]) -> Catalog:
    """The catalogue of ``lang`` (the template, without translations, for None)."""
    catalog = _Catalog(
        locale=lang,
        domain=DOMAIN,
        project="cardtable",
        version="1",
        copyright_holder="cardtable maintainers",
        msgid_bugs_address="cardtable maintainers",
        creation_date=STAMP,
        revision_date=STAMP,
        language_team=f"cardtable {lang or 'template'}",
        last_translator="cardtable maintainers",
        header_comment=_HEADER,
        fuzzy=False,
    )
    rule = plural_rule(lang) if lang is not None else None
    if rule is not None:
        count, expression = rule
        catalog.mime_headers = [("Plural-Forms", f"nplurals={count}; plural={expression};")]
    for entry in entries.values():
        english = entry.texts["en"]
        string: Text = "" if lang is None else entry.texts.get(lang, "")
        if isinstance(english, tuple):
            msgid: Text = english[:2] if len(english) > 1 else (english[0], english[0])
            string = string if isinstance(string, tuple) else ()
        else:
            msgid = english
        flags = ("fuzzy",) if lang in entry.fuzzy else ()
        catalog.add(msgid, string, auto_comments=_comments(entry), flags=flags, context=entry.ctx)
    return catalog


_HEADER = """\
# The words of cardtable: the engine's refusals, the games' words, the terminal and the
# web client. The context of each message (msgctxt) is its id: area:key. See
# docs/translating.md for how to add a language and check it."""


def _comments(entry: Entry) -> list[str]:
    notes = list(entry.comments)
    english = entry.texts["en"]
    sample = " ".join(english) if isinstance(english, tuple) else english
    area = entry.ctx.split(":", 1)[0]
    if area == "msg" and "|" in sample and "{" in sample:
        note = "{n:one|few|...}: one form per plural form of the language, # is the number"
        if note not in notes:
            notes.append(note)
    if area == "web" and "{@" in sample:
        note = "{@term} is the glossary's word term:term; {@^term} starts with a capital"
        if note not in notes:
            notes.append(note)
    return notes


def render(catalog: Catalog) -> tuple[bytes, bytes]:
    """The ``.po`` text and the compiled ``.mo`` of ``catalog``."""
    po, mo = io.BytesIO(), io.BytesIO()
    write_po(po, catalog, width=100, omit_header=False)
    write_mo(mo, catalog, use_fuzzy=False)
    return po.getvalue(), mo.getvalue()


def outputs(entries: dict[str, Entry]) -> dict[Path, bytes]:
    """Every file the catalogues consist of, with its bytes."""
    files: dict[Path, bytes] = {}
    template, _ = render(catalogue(None, entries))
    files[LOCALE / f"{DOMAIN}.pot"] = template
    for lang in languages():
        po, mo = render(catalogue(lang, entries))
        files[po_path(lang)] = po
        files[po_path(lang).with_suffix(".mo")] = mo
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="read the tables at this git revision")
    parser.add_argument("--base", help="take only what --rev changed since this revision")
    parser.add_argument("--check", action="store_true", help="fail if a file would change")
    args = parser.parse_args(argv)
    entries = load()
    base: list[Entry] = []
    if args.rev:
        base_rev = (
            args.base
            or subprocess.run(
                ["git", "merge-base", args.rev, "HEAD"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        )
        base = read_tables(base_rev)
    touched = merge(entries, read_tables(args.rev), base)
    stale = []
    for path, data in outputs(entries).items():
        if path.exists() and path.read_bytes() == data:
            continue
        stale.append(path.relative_to(ROOT))
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for ctx in touched:
        print(f"taken from the tables: {ctx}")
    for path in stale:
        print(f"{'out of date' if args.check else 'written'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
