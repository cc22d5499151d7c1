"""Ranks, suits and cards, with the text forms of ``docs/records.md`` (Cards).

A card's plain text is its rank then its suit letter: ``QS``, ``10H``, ``2C``. The
parser is generous, so that people and the seed texts can write cards their own way:

>>> Card.parse("QS"), Card.parse("♠Q"), Card.parse("Q♠"), Card.parse("qs")
(Card.parse('QS'), Card.parse('QS'), Card.parse('QS'), Card.parse('QS'))
>>> Card.parse("TH") == Card.parse("10H")      # Latin T is the ten
True
>>> str(Card.parse("♠ Т"))                      # Cyrillic Т (туз) is the ace
'AS'
>>> [str(c) for c in parse_cards("♦ В, ♠ Д, ♣ К, ♠ Т")]
['JD', 'QS', 'KC', 'AS']

The court cards may be typed with the letters any shipped language writes on them (the
catalogues' card faces, :func:`court_faces`): German B D K A, Polish W D K A.

>>> [str(c) for c in parse_cards("BS, dh, W♣")]
['JS', 'QH', 'JC']

Output is always the plain form; :meth:`Card.symbol` gives the display form ``Q♠``.

Engines work with small ints for speed: a card's *kind* is ``suit * 13 + rank - 2``
(0..51). Copies of a card from several decks share a kind; :class:`Card` keeps the
deck index too, for code that wants to tell the physical copies apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import Final, NamedTuple

from cardtable.glossary import GLOSSARY
from cardtable.messages import Refusal, make_refusal

__all__ = [
    "KIND_TEXT",
    "NUM_KINDS",
    "RANKS",
    "RANK_TEXT",
    "SUITS",
    "Card",
    "Rank",
    "Suit",
    "court_faces",
    "format_cards",
    "kind_of",
    "parse_card_kind",
    "parse_cards",
    "rank_of",
    "standard_deck",
    "suit_of",
]


class Suit(IntEnum):
    """The four suits, in the order ♠ ♥ ♦ ♣ (S H D C)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """Plain text form: ``S``, ``H``, ``D`` or ``C``."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """Display form: ``♠``, ``♥``, ``♦`` or ``♣``."""
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red (for display only: suits never matter in play)."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter (``S``/``s``) or symbol (``♠``).

        >>> Suit.parse("h"), Suit.parse("♣")
        (<Suit.HEARTS: 1>, <Suit.CLUBS: 3>)
        """
        key = text.strip()
        suit = _SUIT_FROM_TEXT.get(key.upper(), _SUIT_FROM_SYMBOL.get(key))
        if suit is None:
            raise make_refusal("card.not_suit", text=text).bad_card()
        return suit


class Rank(IntEnum):
    """Ranks from 2 (low) to A (high); the value is the pip count, J=11 … A=14."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def text(self) -> str:
        """Plain text form: ``2``…``10``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_TEXT[self - 2]

    @property
    def text_uk(self) -> str:
        """Ukrainian display form: ``2``…``10``, ``В``, ``Д``, ``К``, ``Т``."""
        return _RANK_TEXT_UK[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A rank from any accepted spelling (``10``, ``T``, ``J``, ``В``, ``Т`` …).

        >>> Rank.parse("T"), Rank.parse("Т")
        (<Rank.TEN: 10>, <Rank.ACE: 14>)
        """
        rank = _RANK_FROM_TEXT.get(text.strip().upper())
        if rank is None:
            raise make_refusal("card.not_rank", text=text, faces=_OTHER_FACES).bad_card()
        return rank


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
NUM_KINDS = 52

#: The plain text of each rank, 2 first (``RANK_TEXT[rank - 2]``).
RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_TEXT_UK = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т")
#: The court cards' plain letters, J Q K A.
_COURTS: Final = RANK_TEXT[-4:]


def court_faces(lang: str) -> tuple[str, ...]:
    """The letters ``lang`` writes on the court cards J Q K A, from the catalogues' card
    faces (``term:rank_face.J`` … ``A``).

    >>> court_faces("uk"), court_faces("de"), court_faces("pl")
    (('В', 'Д', 'К', 'Т'), ('B', 'D', 'K', 'A'), ('W', 'D', 'K', 'A'))
    """
    return tuple(GLOSSARY[f"rank_face.{plain}"][lang] for plain in _COURTS)


def _rank_spellings() -> dict[str, Rank]:
    """Every upper-cased spelling of a rank: the plain text (``2`` … ``10``, J Q K A),
    ``T`` for the ten, and every shipped language's court-card letters. Latin ``T`` is
    the ten, Cyrillic ``Т`` (U+0422, туз) the ace. The plain spellings win: a language's
    letter that already names another rank is left out (a test checks that every
    language's letters read as its own cards)."""
    spellings = {text: Rank(i + 2) for i, text in enumerate(RANK_TEXT)}
    spellings["T"] = Rank.TEN
    for lang in GLOSSARY["rank_face.J"]:
        for face, plain in zip(court_faces(lang), _COURTS, strict=True):
            spellings.setdefault(face.upper(), spellings[plain])
    return spellings


_RANK_FROM_TEXT: Final = _rank_spellings()
#: The court-card letters of the languages that do not write J Q K A, as the refusal of
#: a text that is no rank lists them: ``B D K A, W D K A, В Д К Т``.
_OTHER_FACES: Final = ", ".join(
    dict.fromkeys(
        " ".join(faces) for faces in map(court_faces, GLOSSARY["rank_face.J"]) if faces != _COURTS
    )
)
_SUIT_FROM_TEXT: dict[str, Suit] = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
}
_SUIT_FROM_SYMBOL: dict[str, Suit] = {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_SYMBOLS = "".join(_SUIT_FROM_SYMBOL)
_LETTERS = "".join(sorted(text for text in _RANK_FROM_TEXT if not text.isdigit()))
_RANK_PATTERN = rf"10|[2-9]|[{re.escape(_LETTERS)}]"
# Whole-card pattern, matched against upper-cased text with all whitespace removed:
# an optional symbol before, a rank, then a symbol or a Latin letter after.
_CARD_RE = re.compile(rf"^([{_SYMBOLS}])?({_RANK_PATTERN})([{_SYMBOLS}]|[SHDC])?$")

#: Plain text of every kind, indexed by kind: ``KIND_TEXT[10] == "QS"``.
KIND_TEXT: tuple[str, ...] = tuple(RANK_TEXT[k % 13] + "SHDC"[k // 13] for k in range(NUM_KINDS))


def kind_of(rank: int, suit: int) -> int:
    """The kind (0..51) of a rank (2..14) and suit (0..3): ``suit * 13 + rank - 2``."""
    return suit * 13 + rank - 2


def rank_of(kind: int) -> Rank:
    """The rank of a kind."""
    return Rank(kind % 13 + 2)


def suit_of(kind: int) -> Suit:
    """The suit of a kind."""
    return Suit(kind // 13)


class Card(NamedTuple):
    """One physical card: rank, suit and which deck it came from (0 for the first).

    Cards of different decks are interchangeable in play and are written the same; the
    deck index only tells physical copies apart. Compare kinds with :attr:`kind`.
    """

    rank: Rank
    suit: Suit
    deck: int = 0

    @property
    def kind(self) -> int:
        """The card's kind, 0..51 (``suit * 13 + rank - 2``); deck copies share it."""
        return self.suit * 13 + self.rank - 2

    @classmethod
    def from_kind(cls, kind: int, deck: int = 0) -> Card:
        """The card of a kind (0..51)."""
        if not 0 <= kind < NUM_KINDS:
            raise make_refusal("card.not_kind", value=repr(kind)).bad_card()
        return cls(Rank(kind % 13 + 2), Suit(kind // 13), deck)

    @classmethod
    def parse(cls, text: str, deck: int = 0) -> Card:
        """Read one card from any accepted spelling (see the module docstring).

        Raises :class:`~cardtable.errors.CardParseError` naming the text.
        """
        compact = "".join(text.split()).replace("\ufe0f", "").upper()
        match = _CARD_RE.match(compact)
        if match is None:
            raise _diagnose(text, compact).bad_card()
        before, rank_text, after = match.groups()
        if before and after:
            raise make_refusal("card.two_suits", text=text).bad_card()
        suit_text = before or after
        if suit_text is None:
            raise make_refusal("card.no_suit", text=text).bad_card()
        suit = (
            _SUIT_FROM_SYMBOL[suit_text]
            if suit_text in _SUIT_FROM_SYMBOL
            else _SUIT_FROM_TEXT[suit_text]
        )
        return cls(_RANK_FROM_TEXT[rank_text], suit, deck)

    def __str__(self) -> str:
        return self.rank.text + self.suit.letter

    def __repr__(self) -> str:
        if self.deck:
            return f"Card.parse({str(self)!r}, deck={self.deck})"
        return f"Card.parse({str(self)!r})"

    def symbol(self, lang: str = "en") -> str:
        """Display form for people: ``Q♠`` (``Д♠`` with ``lang="uk"``, ``D♠`` in German:
        the catalogue's card faces, ``term:rank_face.*``)."""
        face = GLOSSARY.get(f"rank_face.{self.rank.text}")
        rank = face.get(lang, self.rank.text) if face else self.rank.text
        return rank + self.suit.symbol


def _diagnose(text: str, compact: str) -> Refusal:
    """A specific reason why ``text`` is not a card, for the error message."""
    if not compact:
        return make_refusal("card.empty", text=text)
    if "С" in compact:  # Cyrillic Es looks like C
        return make_refusal("card.cyrillic_es", text=text)
    if compact[0] in "SHDC" and len(compact) > 1:
        return make_refusal("card.suit_first", text=text, fixed=compact[1:] + compact[0])
    return make_refusal("card.not_card", text=text)


_SPACE_AFTER_SYMBOL = re.compile(rf"([{_SYMBOLS}])\s+")
_SPACE_BEFORE_SYMBOL = re.compile(rf"\s+([{_SYMBOLS}])")


def parse_cards(text: str, deck: int = 0) -> list[Card]:
    """Read a list of cards separated by commas or spaces.

    Items separated by commas may contain spaces (``♦ В, ♠ Д``). Without commas a
    suit symbol binds to its rank the way the first card shows: ``♦ 10 ♣ J`` (symbols
    first) or ``10 ♦ J ♣`` (symbols after).

    >>> [str(c) for c in parse_cards("♦ 10 ♣ J")]
    ['10D', 'JC']
    >>> [str(c) for c in parse_cards("10H JH QH")]
    ['10H', 'JH', 'QH']
    """
    stripped = text.replace("\ufe0f", "").strip()
    if not stripped:
        return []
    if "," in stripped:
        items = stripped.split(",")
        if items and not items[-1].strip():
            items.pop()  # a trailing comma is harmless
    else:
        binder = _SPACE_AFTER_SYMBOL if stripped[0] in _SYMBOLS else _SPACE_BEFORE_SYMBOL
        items = binder.sub(r"\1", stripped).split()
    return [Card.parse(item, deck) for item in items]


def parse_card_kind(text: str) -> int:
    """The kind (0..51) of a card's text; a fast path for plain ``QS``-style text."""
    kind = _KIND_FROM_PLAIN.get(text)
    if kind is None:
        kind = Card.parse(text).kind
    return kind


_KIND_FROM_PLAIN: dict[str, int] = {t: k for k, t in enumerate(KIND_TEXT)}


def format_cards(cards: Iterable[Card | int]) -> str:
    """Plain text of cards (or kinds), separated by single spaces: ``10H JH``."""
    return " ".join(KIND_TEXT[c] if isinstance(c, int) else str(c) for c in cards)


def standard_deck(decks: int = 1) -> list[Card]:
    """``decks`` full 52-card decks, in suit then rank order, deck by deck."""
    return [Card(rank, suit, d) for d in range(decks) for suit in SUITS for rank in RANKS]


def iter_kinds(cards: Sequence[Card]) -> Iterator[int]:
    """The kinds of a sequence of cards."""
    return (c.kind for c in cards)
