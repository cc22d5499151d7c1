"""The message catalog of refusals: every id in both languages with the same
placeholders, the template fields it knows, cards shown as the project shows them,
a sample of Ukrainian checked by hand, and every refusal the engine constructs made
with an id (read from the source)."""

from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import Any

import pytest

from cardtable.cards import KIND_TEXT, Card, Rank, Suit
from cardtable.catalogue import load
from cardtable.errors import BadRecord, CardParseError, IllegalMove
from cardtable.messages import (
    CATALOG,
    LANGS,
    catalog_json,
    make_refusal,
    param_content,
    placeholders,
    render,
    say,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "cardtable"

#: A sample value for each parameter content (docs in cardtable/messages.py).
SAMPLE: dict[str, Any] = {
    "card": "QS",
    "cards": "2S 7S",
    "rank": "J",
    "ranks": "10-J-Q",
    "suit": "H",
    "term": "term.spade",
    "text": 3,
}


#: Words written alike in both languages.
SAME_IN_BOTH = {"term.json_null"}


def fields(template: str) -> list[tuple[str, str, str | None]]:
    """(name, spec, conversion) of each field of a template."""
    return [
        (name, spec or "", conversion)
        for _, name, spec, conversion in string.Formatter().parse(template)
        if name is not None
    ]


def sample_params(code: str) -> dict[str, Any]:
    return {name: SAMPLE[param_content(name)] for name in placeholders(CATALOG[code]["en"])}


def test_every_id_is_in_every_language_with_the_same_placeholders() -> None:
    assert LANGS[0] == "en"
    assert "uk" in LANGS
    for code, texts in CATALOG.items():
        assert tuple(texts) == LANGS, code
        for lang in LANGS:
            assert placeholders(texts["en"]) == placeholders(texts[lang]), (code, lang)
            assert texts[lang].strip(), (code, lang)
            if lang != "en" and texts["en"] == texts[lang]:
                assert code in SAME_IN_BOTH, f"{code} is not translated into {lang}"


def test_templates_use_only_the_fields_the_renderers_know() -> None:
    """Plain fields, ``!r``, ``:a`` (English articles) and plural forms: two in English
    (one, other), three in Ukrainian (one, few, many). Terms take no parameters."""
    for code, texts in CATALOG.items():
        for lang, template in texts.items():
            for name, spec, conversion in fields(template):
                assert name.isidentifier(), (code, name)
                assert conversion in (None, "r"), (code, name)
                if "|" in spec:
                    assert len(spec.split("|")) == load(lang).nplurals, (code, lang, spec)
                    assert param_content(name) == "text", (code, name)
                else:
                    assert spec in ("", "a"), (code, spec)
                    assert spec != "a" or lang == "en", (code, "articles are English")
        if code.startswith("term."):
            assert not placeholders(texts["en"]), code


def test_every_message_renders_in_every_language() -> None:
    for code in CATALOG:
        for lang in LANGS:
            text = render(code, sample_params(code), lang)
            assert text.strip(), (code, lang)
            assert text == text.strip(), (code, lang)


def test_unknown_ids_languages_and_parameters_are_refused() -> None:
    with pytest.raises(KeyError, match="unknown message id"):
        make_refusal("spy.no_such_message")
    with pytest.raises(KeyError, match="unknown message id"):
        render("spy.no_such_message", {}, "en")
    with pytest.raises(ValueError, match="unknown language"):
        render("spy.match_over", {}, "fr")
    with pytest.raises(ValueError, match="unknown language"):
        catalog_json("fr")
    with pytest.raises(KeyError):
        render("spy.no_fit", {"card": "QS"}, "en")


def test_cards_ranks_and_suits_are_shown_as_the_project_shows_them() -> None:
    """In text English keeps the records' plain text; Ukrainian is ``Card.symbol("uk")``.
    To a player (``say`` and the served catalog) every language writes suit symbols,
    as the table draws cards: ``Q♠`` in English too."""
    for kind, text in enumerate(KIND_TEXT):
        card = Card.from_kind(kind)
        params = {"card": text, "pile": 1, "top_card": text}
        assert render("spy.no_fit", params, "en").startswith(f"{text} does not fit")
        assert render("spy.no_fit", params, "uk").startswith(f"{card.symbol('uk')} не ")
        assert say("spy.no_fit", params, "en").startswith(f"{card.symbol('en')} does not fit")
        assert say("spy.no_fit", params, "uk") == render("spy.no_fit", params, "uk")
    uk = catalog_json("uk")
    en = catalog_json("en")
    for rank in Rank:
        assert uk["ranks"][rank.text] == rank.text_uk
        assert en["ranks"][rank.text] == rank.text
    for suit in Suit:
        assert uk["suits"][suit.letter] == suit.symbol
        assert en["suits"][suit.letter] == suit.symbol
    assert set(uk["messages"]) == set(CATALOG)


#: Ukrainian renderings read and checked by a person.
UKRAINIAN = [
    (
        "candidate.not_sequence",
        {"cards": "2S 7S", "first_card": "2S", "next_rank": "3", "rank": "2"},
        "2♠ 7♠ — не послідовність: після 2♠ йде 3 (сходинки) або 2 (набір)",
    ),
    (
        "candidate.not_sequence_at_ace",
        {"cards": "AH 5C", "first_card": "AH", "rank": "A"},
        "Т♥ 5♣ — не послідовність: після Т♥ може йти лише Т (набір)",
    ),
    (
        "candidate.bad_run_card",
        {"cards": "9D 10D QS", "position": 3, "rank": "J"},
        "9♦ 10♦ Д♠ — не сходинки: карта 3 має бути В",
    ),
    (
        "spy.no_fit",
        {"card": "KC", "pile": 4, "top_card": "JH"},
        "К♣ не підходить на стопку 4 (зверху В♥): карту кладуть на стопку, верхня карта "
        "якої на одне значення вища або нижча",
    ),
    (
        "spy.call_too_early",
        {"count": 1},
        "в очковій стопці ще 1 карта: «закінчив» оголошують, лише коли вона порожня",
    ),
    (
        "spy.call_too_early",
        {"count": 3},
        "в очковій стопці ще 3 карти: «закінчив» оголошують, лише коли вона порожня",
    ),
    (
        "spy.call_too_early",
        {"count": 12},
        "в очковій стопці ще 12 карт: «закінчив» оголошують, лише коли вона порожня",
    ),
    ("spy.resigned", {"player": 2}, "гравець 2 здався в цьому раунді й більше не ходить"),
    (
        "card.suit_first",
        {"text": "sq", "fixed": "QS"},
        "«sq» — не карта: літеру масті пишуть після значення (напишіть QS); очікується "
        "значення (2-10, В, Д, К, Т) і масть (S, H, D, C або ♠ ♥ ♦ ♣), напр. Д♠ або 10♥",
    ),
    (
        "candidate.pile_wrong_suit",
        {"card": "5H", "suit_term": "term.spade", "pile_suit": "S"},
        "5♥ не масті «пік»: у стопці ♠ лише карти масті «пік»",
    ),
    (
        "candidate.pile_copies",
        {"suit_term": "term.club", "decks": 2, "count": 26, "card": "7C", "have": 1},
        "кожна карта масті «трефи» має бути 2 рази (26 карт, колод: 2), але 7♣ тут 1 раз",
    ),
    (
        "value.not_string",
        {"got_term": "term.json_list"},
        "очікується рядок, а тут список",
    ),
    (
        "spy.not_one_deck",
        {"whose_term": "term.both_players_cards", "twice_cards": "QS", "missing_cards": "QH"},
        "карти обох гравців мають скласти рівно одну колоду з 52 карт; повторюються: Д♠; "
        "бракує: Д♥",
    ),
    (
        "candidate.wrong_decision",
        {"wanted_term": "term.decision_draw"},
        "зараз не час для цього: гравець, що ходить, має добрати карту: draw X для "
        "непорожньої стопки X",
    ),
    (
        "candidate.lobby_not_continued",
        {"card": "JH", "lobby_card": "9S", "next_rank": "10", "rank": "9"},
        "В♥ не продовжує лобі 9♠: наступна карта має бути 10 (сходинки) або 9 (набір)",
    ),
    ("candidate.held_fewer", {"card": "QS", "held": 1, "count": 2}, "у вас Д♠ лише 1 раз, а не 2"),
    ("candidate.pile_empty", {"pile_suit": "D"}, "стопка ♦ порожня"),
    (
        "candidate.options_not_object",
        {},
        'очікується об\'єкт на зразок {"decks": 1, "deals": 12}',
    ),
]


@pytest.mark.parametrize(("code", "params", "expected"), UKRAINIAN)
def test_ukrainian_samples_read_as_checked_by_hand(
    code: str, params: dict[str, Any], expected: str
) -> None:
    assert render(code, params, "uk") == expected


def test_english_keeps_the_engines_words() -> None:
    """Articles and plural forms as the English texts always had them."""
    assert render("candidate.bad_set_card", {"cards": "8S 8H 9D", "position": 3, "rank": "8"}) == (
        "8S 8H 9D is not a set: card 3 must be an 8"
    )
    assert render(
        "candidate.not_sequence",
        {"cards": "KS 2S", "first_card": "KS", "next_rank": "A", "rank": "K"},
    ) == ("KS 2S is not a sequence: after KS comes an A (a run) or a K (a set)")
    copies = {"suit_term": "term.heart", "count": 13, "card": "2H"}
    assert render("candidate.pile_copies", {**copies, "decks": 1, "have": 0}) == (
        "expected each heart once (13 cards with 1 deck), but 2H is there 0 times"
    )
    assert render("candidate.pile_copies", {**copies, "decks": 2, "have": 1}) == (
        "expected each heart 2 times (13 cards with 2 decks), but 2H is there 1 time"
    )
    assert render("card.not_card", {"text": "it's"}).startswith(
        '"it\'s" is not a card: expected a rank'
    )


def test_a_refusal_makes_each_error_with_its_id() -> None:
    refusal = make_refusal("spy.no_pile", pile=6, count=4)
    illegal = refusal.illegal("0 place waste 6")
    assert isinstance(illegal, IllegalMove)
    assert str(illegal) == "illegal move '0 place waste 6': there is no pile 6: there are 4 piles"
    assert (illegal.code, dict(illegal.params)) == ("spy.no_pile", {"pile": 6, "count": 4})
    located = illegal.at("round 1, move 3")
    assert (located.code, located.params) == (illegal.code, illegal.params)
    bad = make_refusal("record.field_missing").bad_record("rounds[0].cards")
    assert isinstance(bad, BadRecord)
    assert str(bad) == "malformed record: rounds[0].cards: missing (this field is required)"
    assert bad.code == "record.field_missing"
    card = make_refusal("card.no_suit", text="Q").bad_card()
    assert isinstance(card, CardParseError)
    assert (
        card.reason
        == str(card)
        == "'Q' is not a card: the suit is missing; "
        + ("expected a rank (2-10, J, Q, K, A) and a suit (S, H, D, C), e.g. QS or 10H")
    )


#: The engine: the modules whose refusals carry a message id.
ENGINE = [
    SRC / "cards.py",
    SRC / "record.py",
    SRC / "messages.py",
    *sorted(SRC.glob("games/**/*.py")),
]
REFUSALS = {"IllegalMove", "BadRecord", "CardParseError"}


def test_every_refusal_the_engine_constructs_has_a_message_id() -> None:
    """Read from the source: every ``IllegalMove(…)``, ``BadRecord(…)`` and
    ``CardParseError(…)`` in the engine passes ``code=`` (usually through
    :meth:`cardtable.messages.Refusal.illegal` and its siblings)."""
    missing = []
    for path in ENGINE:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name in REFUSALS and not any(k.arg == "code" for k in node.keywords):
                missing.append(f"{path.relative_to(SRC)}:{node.lineno}: {name}")
    assert missing == []
