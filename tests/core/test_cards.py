"""Cards and their text forms (docs/records.md, "Cards")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import (
    KIND_TEXT,
    NUM_KINDS,
    Card,
    Rank,
    Suit,
    court_faces,
    format_cards,
    kind_of,
    parse_card_kind,
    parse_cards,
    rank_of,
    standard_deck,
    suit_of,
)
from cardtable.catalogue import languages
from cardtable.errors import CardParseError
from cardtable.messages import say


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("QS", "QS"),
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("2c", "2C"),
        ("AD", "AD"),
        ("♠Q", "QS"),
        ("Q♠", "QS"),
        ("♦10", "10D"),
        ("10♦", "10D"),
        ("♦ 10", "10D"),
        ("♥ Д", "QH"),
        ("♠ Т", "AS"),  # Cyrillic Т is the ace (туз)
        ("♠ т", "AS"),
        ("В♣", "JC"),
        ("к♦", "KD"),
        ("♤A", "AS"),
        (" K S ", "KS"),
    ],
)
def test_parse_accepts_every_documented_spelling(text: str, plain: str) -> None:
    assert str(Card.parse(text)) == plain


def test_latin_t_is_ten_and_cyrillic_t_is_ace() -> None:
    assert Card.parse("TS").rank is Rank.TEN  # U+0054
    assert Card.parse("\u0422S").rank is Rank.ACE  # U+0422
    assert Card.parse("\u0442S").rank is Rank.ACE  # U+0442


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1X", "expected a rank"),
        ("QС", "Cyrillic 'С' is not a suit"),  # U+0421
        ("SQ", "a suit letter comes after the rank"),
        ("Q", "the suit is missing"),
        ("♠Q♠", "two suits"),
        ("", "empty"),
        ("11H", "expected a rank"),
        ("QSS", "expected a rank"),
    ],
)
def test_bad_text_names_the_text_and_what_is_expected(text: str, fragment: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)


def test_seed_examples_parse() -> None:
    assert format_cards(parse_cards("♦ В, ♠ Д, ♣ К, ♠ Т")) == "JD QS KC AS"
    assert format_cards(parse_cards("♣ 9, ♦ 10")) == "9C 10D"
    assert format_cards(parse_cards("♥ Д, ♠ Д, ♣ Д, ♦ Д")) == "QH QS QC QD"


def test_lists_without_commas_bind_symbols_by_the_first_card() -> None:
    assert format_cards(parse_cards("♦ 10 ♣ J")) == "10D JC"
    assert format_cards(parse_cards("10 ♦ J ♣")) == "10D JC"
    assert format_cards(parse_cards("10H JH QH")) == "10H JH QH"
    assert parse_cards("  ") == []
    assert format_cards(parse_cards("QS,")) == "QS"


def test_display_forms() -> None:
    card = Card.parse("QS")
    assert card.symbol() == "Q♠"
    assert card.symbol("uk") == "Д♠"
    assert Card.parse("AH").symbol("uk") == "Т♥"
    assert repr(card) == "Card.parse('QS')"
    assert repr(Card.parse("QS", deck=2)) == "Card.parse('QS', deck=2)"


@given(st.integers(0, NUM_KINDS - 1), st.integers(0, 2))
def test_kind_text_and_card_round_trip(kind: int, deck: int) -> None:
    card = Card.from_kind(kind, deck)
    assert card.kind == kind
    assert str(card) == KIND_TEXT[kind]
    assert Card.parse(str(card), deck) == card
    assert Card.parse(card.symbol()).kind == kind
    assert Card.parse(card.symbol("uk")).kind == kind
    assert eval(repr(card), {"Card": Card}) == card  # repr round-trips
    assert parse_card_kind(str(card)) == kind
    assert kind_of(rank_of(kind), suit_of(kind)) == kind


def test_standard_deck_has_every_kind_once_per_deck() -> None:
    for decks in (1, 2, 3):
        cards = standard_deck(decks)
        assert len(cards) == 52 * decks
        assert sorted(c.kind for c in cards) == sorted(list(range(52)) * decks)
        assert len(set(cards)) == 52 * decks  # deck identity keeps copies apart


def test_suits_and_ranks() -> None:
    assert [s.letter for s in Suit] == ["S", "H", "D", "C"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert Suit.parse("♣") is Suit.CLUBS
    assert Suit.parse("s") is Suit.SPADES
    with pytest.raises(CardParseError, match="not a suit"):
        Suit.parse("X")
    assert [r.text for r in Rank][-4:] == ["J", "Q", "K", "A"]
    assert [r.text_uk for r in Rank][-4:] == ["В", "Д", "К", "Т"]
    with pytest.raises(CardParseError, match="not a rank"):
        Rank.parse("1")
    with pytest.raises(CardParseError):
        Card.from_kind(52)


@pytest.mark.parametrize("lang", languages())
def test_every_languages_court_letters_are_read_as_its_cards(lang: str) -> None:
    """A card may be typed with the letters the player's language writes on it (B D K A
    in German, W D K A in Polish, В Д К Т in Ukrainian: the catalogues' card faces), in
    either case and with a suit letter or symbol; J Q K A are read in every language."""
    for face, plain in zip(court_faces(lang), ("J", "Q", "K", "A"), strict=True):
        for text in (f"{face}S", f"{face.lower()}h", f"♦{face}", f"{face} ♣"):
            assert str(Card.parse(text))[:-1] == plain, (lang, text)
        assert Rank.parse(face) == Rank.parse(plain)
    assert [str(c) for c in parse_cards("JS, QH, KD, AC")] == ["JS", "QH", "KD", "AC"]


def test_the_court_letters_keep_their_meaning_across_languages() -> None:
    """No language's letter means another rank than the same letter elsewhere: Latin T
    stays the ten and Cyrillic Т the ace, D is the queen in German and Polish alike."""
    meaning: dict[str, str] = {"T": "10"}
    for lang in languages():
        for face, plain in zip(court_faces(lang), ("J", "Q", "K", "A"), strict=True):
            assert meaning.setdefault(face.upper(), plain) == plain, (lang, face)
    assert str(Card.parse("TS")) == "10S"
    assert str(Card.parse("ТS")) == "AS"  # Cyrillic Т


@pytest.mark.parametrize("lang", languages())
def test_a_text_that_is_no_rank_is_told_the_letters_of_the_languages(lang: str) -> None:
    with pytest.raises(CardParseError) as caught:
        Rank.parse("Z")
    said = say("card.not_rank", caught.value.params, lang)
    assert "B D K A" in said
    assert "В Д К Т" in said
    assert "W D K A" in said
