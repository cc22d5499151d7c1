"""Moves of Spy vs Spy as dense ints and as record text (``docs/records.md``, Spy vs Spy).

There are no turns, so every move names its player. An action id is
``player * ACTIONS_PER_PLAYER + local`` where ``local`` is one of:

=======  =====================  ==========================================
local    text                   rule
=======  =====================  ==========================================
0        ``P turn``             S9: turn the racing deck's top onto the waste
1..6     ``P place points N``   S6-S7: points-pile top onto pile N
7..12    ``P place waste N``    S6-S7: waste top onto pile N
13       ``P open points``      S8: points-pile top starts a new pile
14       ``P open waste``       S8: waste top starts a new pile
15       ``P call``             S10: "finished" (points pile empty)
16       ``P resign``           S13
=======  =====================  ==========================================

Both conversions are exact and need no state:

>>> action_to_text(24)
'1 place waste 1'
>>> text_to_action("1 place waste 1")
24
>>> all(text_to_action(action_to_text(a)) == a for a in range(NUM_ACTIONS))
True
"""

from __future__ import annotations

from cardtable.errors import IllegalMove
from cardtable.games.spy.options import MAX_PLAYERS

__all__ = [
    "ACTIONS_PER_PLAYER",
    "CALL",
    "MAX_PILES",
    "NUM_ACTIONS",
    "OPEN_POINTS",
    "OPEN_WASTE",
    "PLACE_POINTS",
    "PLACE_WASTE",
    "RESIGN",
    "TURN",
    "action_to_text",
    "local_action",
    "make_action",
    "player_of",
    "text_to_action",
]

#: S8: at most six piles (the four of the square, then a 5th and a 6th).
MAX_PILES = 6

TURN = 0
#: ``PLACE_POINTS + i`` puts the points-pile top on pile ``i + 1`` (i = 0..5).
PLACE_POINTS = 1
#: ``PLACE_WASTE + i`` puts the waste top on pile ``i + 1`` (i = 0..5).
PLACE_WASTE = 7
OPEN_POINTS = 13
OPEN_WASTE = 14
CALL = 15
RESIGN = 16
ACTIONS_PER_PLAYER = 17
#: Distinct action ids of the largest table (8 players).
NUM_ACTIONS = MAX_PLAYERS * ACTIONS_PER_PLAYER


def _local_text(local: int) -> str:
    if local == TURN:
        return "turn"
    if PLACE_POINTS <= local < PLACE_POINTS + MAX_PILES:
        return f"place points {local - PLACE_POINTS + 1}"
    if PLACE_WASTE <= local < PLACE_WASTE + MAX_PILES:
        return f"place waste {local - PLACE_WASTE + 1}"
    return {OPEN_POINTS: "open points", OPEN_WASTE: "open waste", CALL: "call", RESIGN: "resign"}[
        local
    ]


_TEXTS: tuple[str, ...] = tuple(
    f"{a // ACTIONS_PER_PLAYER} {_local_text(a % ACTIONS_PER_PLAYER)}" for a in range(NUM_ACTIONS)
)
_FROM_TEXT: dict[str, int] = {t: a for a, t in enumerate(_TEXTS)}
_FORMS = (
    "'P turn', 'P place points N', 'P place waste N', 'P open points', "
    "'P open waste', 'P call' or 'P resign' (P a player 0-7, N a pile 1-6)"
)


def make_action(player: int, local: int) -> int:
    """The action id of a player's local move."""
    return player * ACTIONS_PER_PLAYER + local


def player_of(action: int) -> int:
    """The player an action id belongs to."""
    return action // ACTIONS_PER_PLAYER


def local_action(action: int) -> int:
    """The local move (0..16) of an action id."""
    return action % ACTIONS_PER_PLAYER


def action_to_text(action: int) -> str:
    """The record text of an action id (``"1 place waste 4"``).

    Raises :class:`~cardtable.errors.IllegalMove` for an id outside 0..NUM_ACTIONS-1.
    """
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise IllegalMove(f"{action!r} is not an action id: expected 0 to {NUM_ACTIONS - 1}")
    return _TEXTS[action]


def text_to_action(text: str) -> int:
    """The action id of a move's record text.

    Move words are lower case and separated by single spaces (``docs/records.md``).
    Raises :class:`~cardtable.errors.IllegalMove` naming the text when it is no move.

    >>> text_to_action("0 call")
    15
    >>> try:
    ...     text_to_action("0 place waste 7")
    ... except IllegalMove as exc:
    ...     print(exc.reason)
    there is no pile 7: piles are numbered 1 to 6
    """
    action = _FROM_TEXT.get(text)
    if action is not None:
        return action
    raise IllegalMove(_diagnose(text), text)


def _diagnose(text: str) -> str:
    """Why ``text`` is not a move, as specifically as possible."""
    if not isinstance(text, str):
        return f"a move is text, not {type(text).__name__}"
    words = text.split(" ")
    if text != text.strip() or "" in words:
        return "move words are separated by single spaces, with none before or after"
    head = words[0]
    if not head.isdigit() or not head.isascii():
        return f"a move starts with the player's number; expected {_FORMS}"
    if int(head) >= MAX_PLAYERS or (len(head) > 1 and head[0] == "0"):
        return f"there is no player {head}: players are numbered 0 to {MAX_PLAYERS - 1}"
    rest = words[1:]
    if len(rest) == 3 and rest[0] == "place" and rest[1] in ("points", "waste"):
        if not rest[2].isdigit():
            return f"{rest[2]!r} is not a pile number: piles are numbered 1 to {MAX_PILES}"
        return f"there is no pile {rest[2]}: piles are numbered 1 to {MAX_PILES}"
    if rest and rest[0] != rest[0].lower():
        return f"move words are lower case; expected {_FORMS}"
    return f"unknown move; expected {_FORMS}"
