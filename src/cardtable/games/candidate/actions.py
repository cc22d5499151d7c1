"""Candidate moves as dense ints and as text (``docs/records.md`` notation), both ways.

The conversion is state-independent: every move has one int and one text, whatever the
position. Action ids (``NUM_ACTIONS`` = 35425):

======================  =========================================================
id                      move
======================  =========================================================
0–3                     ``deal X`` for X = S, H, D, C (C4)
4–7                     ``lobby X`` (C5, C11)
8–11                    ``draw X`` (C10)
12                      ``pass`` (C8, C12)
13 + 681·f + o          ``play …`` whose first card has kind ``f`` (0..51), where
                        ``o`` = 0 for a one-card play, ``1 + i`` for a run and
                        ``341 + i`` for a set of 2–5 cards; ``i`` numbers the suits of
                        the cards after the first (base 4, S=0 H=1 D=2 C=3), shorter
                        plays first: ``i = (4**L - 4) // 3 + digits`` for L cards after
                        the first.
======================  =========================================================

The ranks after the first card follow from the kind (a run climbs one rank a card, a set
keeps the rank), so suits are all the encoding needs. Hands hold at most 5 cards, so
every legal play (C7) has an id; ids of runs that would pass the ace are never legal.

>>> text_to_action("play 10H JH")
14316
>>> action_to_text(14316)
'play 10H JH'
>>> [action_to_text(a) for a in (0, 7, 11, 12)]
['deal S', 'lobby C', 'draw C', 'pass']
"""

from __future__ import annotations

from cardtable.cards import KIND_TEXT, parse_card_kind
from cardtable.errors import CardParseError, IllegalMove

__all__ = [
    "DEAL_BASE",
    "DRAW_BASE",
    "LOBBY_BASE",
    "MAX_PLAY",
    "NUM_ACTIONS",
    "PASS",
    "PILE_LETTERS",
    "PLAY_BASE",
    "PLAY_CARDS",
    "PLAY_LAST_RANK",
    "PLAY_STEP",
    "PLAY_STRIDE",
    "RUN_OFFSET",
    "SEQ_OFFSET",
    "SET_OFFSET",
    "action_to_text",
    "encode_play",
    "play_cards",
    "text_to_action",
]

PILE_LETTERS = "SHDC"
DEAL_BASE = 0
LOBBY_BASE = 4
DRAW_BASE = 8
PASS = 12
PLAY_BASE = 13
#: Most cards in one play: a hand holds at most 5 (C4, C10).
MAX_PLAY = 5
#: ``SEQ_OFFSET[L]``: where the plays with L cards after the first start (L = 1..4).
SEQ_OFFSET: tuple[int, ...] = (0, 0, 4, 20, 84)
RUN_OFFSET = 1
SET_OFFSET = 341
#: Ids per first card: one single, 340 runs, 340 sets.
PLAY_STRIDE = 681
NUM_ACTIONS = PLAY_BASE + 52 * PLAY_STRIDE

#: Play steps: what the rank does from one card to the next.
SINGLE, RUN, SET = 0, 1, 2


def _build_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    cards: list[tuple[int, ...]] = []
    steps: list[int] = []
    last: list[int] = []
    for first in range(52):
        rank = first % 13
        cards.append((first,))
        steps.append(SINGLE)
        last.append(rank)
        for step in (RUN, SET):
            climb = 1 if step == RUN else 0
            for length in range(1, MAX_PLAY):
                top = rank + climb * length
                for digits in range(4**length):
                    if top > 12:
                        cards.append(())
                        steps.append(-1)
                        last.append(-1)
                        continue
                    suits = [(digits // 4 ** (length - 1 - j)) % 4 for j in range(length)]
                    seq = [first] + [s * 13 + rank + climb * (j + 1) for j, s in enumerate(suits)]
                    cards.append(tuple(seq))
                    steps.append(step)
                    last.append(top)
    return tuple(cards), tuple(steps), tuple(last)


#: Indexed by ``action - PLAY_BASE``: the cards (kinds) a play puts down, in order, or
#: ``()`` for an id no play can have (a run past the ace).
PLAY_CARDS: tuple[tuple[int, ...], ...]
#: Indexed by ``action - PLAY_BASE``: 0 one card, 1 run, 2 set, -1 impossible.
PLAY_STEP: tuple[int, ...]
#: Indexed by ``action - PLAY_BASE``: the rank index (0 = 2 … 12 = A) of the last card.
PLAY_LAST_RANK: tuple[int, ...]
PLAY_CARDS, PLAY_STEP, PLAY_LAST_RANK = _build_tables()

_FIXED_TEXT: tuple[str, ...] = (
    *(f"deal {x}" for x in PILE_LETTERS),
    *(f"lobby {x}" for x in PILE_LETTERS),
    *(f"draw {x}" for x in PILE_LETTERS),
    "pass",
)
_FIXED_ACTION: dict[str, int] = {t: a for a, t in enumerate(_FIXED_TEXT)}
_WORDS = "expected deal X, lobby X, draw X (X one of S H D C), pass, or play and cards"


def encode_play(kinds: tuple[int, ...] | list[int]) -> int:
    """The action id of playing these card kinds in this order.

    Raises :class:`IllegalMove` when the cards are no sequence (C7) or too many (C4).

    >>> encode_play([parse_card_kind("9S")]) == PLAY_BASE + 7 * PLAY_STRIDE
    True
    """
    count = len(kinds)
    if count == 0:
        raise IllegalMove("a play needs at least one card")
    if count > MAX_PLAY:
        raise IllegalMove(f"a play has at most {MAX_PLAY} cards (a hand holds at most 5)")
    first = kinds[0]
    base = PLAY_BASE + first * PLAY_STRIDE
    if count == 1:
        return base
    rank = first % 13
    step = kinds[1] % 13 - rank
    if step not in (0, 1):
        raise IllegalMove(
            f"{_cards_text(kinds)} is not a sequence: after {KIND_TEXT[first]} comes "
            + (f"{_article(_rank_text(rank + 1))} (a run) or " if rank < 12 else "")
            + f"{_article(_rank_text(rank))} (a set)"
        )
    digits = 0
    for j, kind in enumerate(kinds[1:], start=1):
        want = rank + step * j
        if kind % 13 != want:
            what = "run" if step else "set"
            need = _article(_rank_text(want)) if want <= 12 else "nothing: a run stops at A"
            raise IllegalMove(f"{_cards_text(kinds)} is not a {what}: card {j + 1} must be {need}")
        digits = digits * 4 + kind // 13
    return base + (RUN_OFFSET if step else SET_OFFSET) + SEQ_OFFSET[count - 1] + digits


def play_cards(action: int) -> tuple[int, ...]:
    """The card kinds of a play action, in order (``IllegalMove`` if it is not a play)."""
    index = action - PLAY_BASE
    cards = PLAY_CARDS[index] if 0 <= index < len(PLAY_CARDS) else ()
    if not cards:
        raise IllegalMove(f"{action} is not a play action")
    return cards


def action_to_text(action: int) -> str:
    """The record text (``docs/records.md``) of an action id; raises
    :class:`IllegalMove` for a bad id."""
    if 0 <= action < PLAY_BASE:
        return _FIXED_TEXT[action]
    if not PLAY_BASE <= action < NUM_ACTIONS:
        raise IllegalMove(f"{action} is not an action id: expected 0 to {NUM_ACTIONS - 1}")
    return "play " + _cards_text(play_cards(action))


def text_to_action(text: str) -> int:
    """The action id of a move's text; accepts any card spelling of
    ``docs/records.md``.

    Raises :class:`IllegalMove` (with the text) when the text is not a move.

    >>> text_to_action("pass"), text_to_action("draw D")
    (12, 10)
    >>> text_to_action("play ♠Q") == PLAY_BASE + 10 * PLAY_STRIDE
    True
    """
    fixed = _FIXED_ACTION.get(text)
    if fixed is not None:
        return fixed
    words = text.split()
    if not words:
        raise IllegalMove(f"an empty move: {_WORDS}", move=text)
    head = words[0].lower()
    if head in ("deal", "lobby", "draw", "pass"):
        normal = " ".join([head, *(w.upper() for w in words[1:])])
        fixed = _FIXED_ACTION.get(normal)
        if fixed is not None:
            return fixed
        if head == "pass":
            raise IllegalMove("'pass' takes nothing after it", move=text)
        raise IllegalMove(f"'{head}' takes one pile letter: S, H, D or C", move=text)
    if head != "play":
        raise IllegalMove(f"unknown move '{words[0]}': {_WORDS}", move=text)
    try:
        kinds = [parse_card_kind(w) for w in words[1:]]
    except CardParseError as exc:
        raise IllegalMove(str(exc), move=text) from None
    try:
        return encode_play(kinds)
    except IllegalMove as exc:
        raise IllegalMove(exc.reason, move=text) from None


def _rank_text(rank_index: int) -> str:
    return ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")[rank_index]


def _article(rank_text: str) -> str:
    return ("an " if rank_text[0] in "8A" else "a ") + rank_text


def _cards_text(kinds: tuple[int, ...] | list[int]) -> str:
    return " ".join(KIND_TEXT[k] for k in kinds)
