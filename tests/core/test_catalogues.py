"""The word catalogues (src/cardtable/locale, docs/translating.md): every id in every
language with the same placeholders, every id rendered in every language, the compiled
``.mo`` saying what its ``.po`` says, CLDR's plural rules, and every id the code names
present in the catalogues."""

from __future__ import annotations

import importlib.util
import re
import string
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel import Locale
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from cardtable.catalogue import Text, languages, load, plural_index, words
from cardtable.glossary import GLOSSARY
from cardtable.messages import CATALOG, param_content, plural, render, say
from cardtable.tui.i18n import tr

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src/cardtable"
LANGS = languages()
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")


def forms(text: Text) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def fields(text: Text) -> set[str]:
    """The placeholders of every form of a message (``{card}``, ``{count}``…); a web
    text's glossary words (``{@pile}``) are the language's own choice, not counted."""
    return {
        name
        for form in forms(text)
        for _, name, _, _ in string.Formatter().parse(form)
        if name and not name.startswith("@")
    }


def plural_specs(text: str) -> list[str]:
    """The inline plural fields of a template (``{count:# card|# cards}``), or the whole
    text when it is one plural spec itself (the terminal's ``# move|# moves``)."""
    found = [spec for _, _, spec, _ in string.Formatter().parse(text) if spec and "|" in spec]
    if not found and "{" not in text and "|" in text and "#" in text:
        found = [text]
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_id_is_in_every_catalogue_with_the_same_placeholders(lang: str) -> None:
    english, other = load("en").messages, load(lang).messages
    assert set(other) == set(english), (
        f"missing or untranslated (or fuzzy) in {lang}: {sorted(set(english) - set(other))}; "
        f"unknown in English: {sorted(set(other) - set(english))}"
    )
    wrong = {ctx: (fields(text), fields(other[ctx])) for ctx, text in english.items()}
    assert {ctx: pair for ctx, pair in wrong.items() if pair[0] != pair[1]} == {}


@pytest.mark.parametrize("lang", LANGS)
def test_plural_messages_have_the_languages_forms(lang: str) -> None:
    catalogue = load(lang)
    for ctx, text in catalogue.messages.items():
        if isinstance(text, tuple):
            assert len(text) == catalogue.nplurals, ctx
        for spec in plural_specs(text if isinstance(text, str) else ""):
            assert len(spec.split("|")) == catalogue.nplurals, (ctx, spec)


def sample(name: str, spec: str | None) -> str | int:
    """A value for parameter ``name`` of the kind its name says."""
    if spec and "|" in spec:
        return 3
    return {
        "card": "QS",
        "cards": "7S 8H",
        "rank": "Q",
        "ranks": "9-10-J",
        "suit": "S",
        "term": "term.spade",
    }.get(param_content(name), "8")


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders_in_every_language(lang: str) -> None:
    for code, texts in CATALOG.items():
        template = texts["en"]
        params = {
            name: sample(name, spec)
            for _, name, spec, _ in string.Formatter().parse(template)
            if name
        }
        for text in (render(code, params, lang), say(code, params, lang)):
            assert text, code
            assert not re.search(r"\{\w", text), (code, text)
    for key, text in words("tui", lang).items():
        values = dict.fromkeys(fields(text), "8")
        shown = tr(lang, key, **values)
        if plural_specs(str(text)):
            shown = plural(3, shown, lang)
        assert shown, key
        assert not re.search(r"\{\w", shown), (key, shown)
    for key, text in words("web", lang).items():
        for form in forms(text):
            for term in re.findall(r"\{@\^?([\w.]+)\}", form):
                assert term in GLOSSARY, (key, term)
            assert not re.search(r"\{(?![\w@^.]+\})", form.replace("{{", "")), (key, form)


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalogue_says_what_its_po_says(lang: str) -> None:
    path = SRC / "locale" / lang / "LC_MESSAGES" / "cardtable.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale=lang)
    said = {
        message.context: tuple(message.string) if message.pluralizable else message.string
        for message in catalog
        if message.id and message.context and not message.fuzzy and any(forms(message.string))
    }
    assert dict(load(lang).messages) == said


@pytest.mark.parametrize("lang", LANGS)
def test_plural_rules_are_cldrs(lang: str) -> None:
    """The catalogue's rule has as many forms as CLDR gives the language, and it picks
    the form of CLDR's category for every count (the order the browser's Intl uses
    too). Its words may differ from those a given Babel release writes: the script
    keeps a catalogue's rule as it is."""
    path = SRC / "locale" / lang / "LC_MESSAGES" / "cardtable.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale=lang)
    assert catalog.num_plurals == get_plural(lang).num_plurals
    rule = Locale.parse(lang).plural_form
    order = [category for category in CLDR_ORDER if category in rule.tags | {"other"}]
    for number in range(250):
        expected = min(order.index(rule(number)), load(lang).nplurals - 1)
        assert plural_index(number, lang) == expected, number


def test_the_catalogue_files_are_up_to_date() -> None:
    """The template and every ``.mo`` are what scripts/i18n_port.py writes from the
    ``.po`` files (a ``.po`` edited by hand needs the script run again)."""
    assert port_script().main(["--check"]) == 0


def port_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_port", ROOT / "scripts/i18n_port.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# -- the ids the code names ------------------------------------------------------------

#: How the code names a message, by the catalogue area it is in.
NAMED = (
    ("web", "server/static/js/*.js", re.compile(r"\bt\(\s*[\"']([\w.]+)[\"']")),
    ("tui", "**/*.py", re.compile(r"\btr\(\s*[\w.]+,\s*[\"'](\w+)[\"']")),
    ("term", "**/*.py", re.compile(r"\bterm\(\s*[\"']([\w.]+)[\"']")),
    (
        "msg",
        "**/*.py",
        re.compile(
            r"(?:\b(?:make_refusal|render|say)\(\s*|message_id\W[^\n]*?)[\"']([a-z]+\.[a-z_]+)[\"']"
        ),
    ),
)


def named_ids(area: str, pattern: re.Pattern[str], text: str) -> set[str]:
    return {f"{area}:{key}" for key in pattern.findall(text)}


def known_ids() -> set[str]:
    english = set(load("en").messages)
    # the terminal's game words and the record checks' suit terms come from the glossary
    english |= {f"tui:{key}" for key in ("piles", "lobby", "run", "set", "waste", "deck", "bot")}
    return english | {f"msg:{code}" for code in CATALOG}


def test_every_id_the_code_names_is_in_the_catalogues() -> None:
    known = known_ids()
    missing = []
    count = 0
    for area, files, pattern in NAMED:
        for path in sorted(SRC.glob(files)):
            found = named_ids(area, pattern, path.read_text(encoding="utf-8"))
            count += len(found)
            missing += [f"{path.relative_to(ROOT)}: {ctx}" for ctx in sorted(found - known)]
    assert count > 500, "the check reads the code's names of messages"
    assert not missing, "\n".join(missing)


def test_the_code_check_finds_a_missing_id() -> None:
    known = known_ids()
    samples = {
        "web": 'el.textContent = t("noSuchWord", { n });',
        "tui": 'self.notify(tr(lang, "no_such_word"))',
        "term": 'term("no_such_term", lang)',
        "msg": 'raise make_refusal("spy.no_such_refusal", card=text).illegal()',
    }
    for area, _, pattern in NAMED:
        assert named_ids(area, pattern, samples[area]) - known, area
    assert named_ids("msg", NAMED[3][2], 'message_id=x or "server.requested"') <= known


ESLINT = ROOT / "node_modules/.bin/eslint"


def eslint_refusals(source: str) -> list[tuple[int, str]]:
    """What ``make jscheck``'s ESLint says of ``source`` as a module of the web client:
    (line, message) for each refusal."""
    import json
    import subprocess

    done = subprocess.run(
        [
            str(ESLINT),
            "--format",
            "json",
            "--stdin",
            "--stdin-filename",
            str(SRC / "server/static/js/probe.js"),
        ],
        input=source,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return [(m["line"], m["message"]) for r in json.loads(done.stdout) for m in r["messages"]]


@pytest.mark.skipif(not ESLINT.exists(), reason="the web client's tools are not installed")
def test_the_web_clients_check_refuses_text_written_in_the_code() -> None:
    """Words for the player in the client's code fail ``make jscheck``; names (CSS classes,
    a move's text, the brand) pass."""
    text = [
        'export const a = "Your turn now";',
        "export const b = (name) => `Hello ${name}, welcome`;",
        'export const c = "Пас, далі";',
        'export const d = "Zug zurück";',
        "export const e = (n) => `${n} ходів зроблено`;",
    ]
    names = [
        'export const f = "card face lifted";',
        "export const g = (n) => `place points ${n}`;",
        "export const h = (t) => `${t} · cardtable`;",
        "export const i = (x) => `translate(${x}px, 0px)`;",
    ]
    refused = eslint_refusals("\n".join(text + names) + "\n")
    assert all("catalogues" in said for _, said in refused), refused
    assert sorted({line for line, _ in refused}) == list(range(1, len(text) + 1))


def test_the_port_takes_a_branchs_new_and_changed_words_only() -> None:
    port = port_script()
    entry = port.Entry
    entries = {
        "web:a": entry("web:a", {"en": "A", "uk": "А", "de": "A auf Deutsch"}),
        "web:b": entry("web:b", {"en": "B", "uk": "Б"}),
    }
    base = [entry("web:a", {"en": "A", "uk": "А"}), entry("web:b", {"en": "B", "uk": "Б"})]
    branch = [
        entry("web:a", {"en": "A2", "uk": "А2"}),
        entry("web:new", {"en": "N", "uk": "Н"}),
        entry("web:b", {"en": "B", "uk": "Б"}),
    ]
    assert port.merge(entries, branch, base) == ["web:a", "web:new"]
    assert list(entries) == ["web:a", "web:new", "web:b"]  # beside its neighbour
    assert entries["web:a"].texts == {"en": "A2", "uk": "А2", "de": "A auf Deutsch"}
    assert entries["web:a"].fuzzy == {"de"}  # the English changed: look again
    # A text the branch did not change is not taken back from it.
    entries["web:b"].texts["en"] = "B, as the catalogue now says"
    assert port.merge(entries, branch, base) == []
    assert entries["web:b"].texts["en"] == "B, as the catalogue now says"


def test_the_command_line_offers_every_shipped_language() -> None:
    from cardtable.cli import Lang

    assert tuple(Lang) == LANGS


def test_a_language_without_rules_pages_shows_the_english_ones_under_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardtable import rules_text as pages
    from cardtable.errors import CardtableError

    english = pages.rules_text("spy", "en")
    found = pages.rules_path

    def without_german(game: str, lang: str) -> Path:
        if lang == "de":
            raise CardtableError("not installed")
        return found(game, lang)

    monkeypatch.setattr(pages, "rules_path", without_german)
    note = render("rules.english_only", {}, "de")
    assert pages.rules_text("spy", "de") == f"> {note}\n\n" + english
    with pytest.raises(CardtableError):
        pages.rules_text("spy", "fr")  # not a shipped language at all


@pytest.mark.parametrize("game", ["candidate", "spy"])
def test_the_transcripts_speak_every_language(game: str) -> None:
    """``cardtable replay --lang``: every language's words fill the transcript, with the
    language's card faces and plural forms; English and Ukrainian as they always were
    (the golden transcripts of tests/spy and tests/candidate)."""
    from cardtable.record import read_record_file, replay

    result = replay(read_record_file(str(ROOT / "samples" / f"{game}-sample.json")))
    for lang in LANGS:
        text = result.transcript(lang)
        assert not re.search(r"\{\w+\}|#", text), (lang, text[:200])
    german = result.transcript("de")
    assert german.startswith("Kandidat" if game == "candidate" else "Spion gegen Spion")
    assert "D♠" in german


@pytest.mark.parametrize("lang", LANGS)
def test_every_email_is_written_in_every_language(lang: str) -> None:
    from cardtable.server.mail.texts import KINDS, mail_text

    fields = ("name", "link", "hours", "minutes", "reason", "until", "new_name", "against")
    fields += ("event",)
    for kind in KINDS:
        subject, body = mail_text(kind, lang, **dict.fromkeys(fields, "8"))
        assert subject
        assert body.endswith("cardtable"), kind
        assert not re.search(r"\{\w+\}", subject + body), (kind, lang)
        if lang != "en":
            assert (subject, body) != mail_text(kind, "en", **dict.fromkeys(fields, "8"))
