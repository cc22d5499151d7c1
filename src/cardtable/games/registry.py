"""Find a game by name.

>>> find_game("candidate").name
'candidate'
"""

from __future__ import annotations

import importlib
from typing import cast

from cardtable.errors import CardtableError
from cardtable.games.base import Game

#: The games cardtable knows, by record/command-line name.
GAME_NAMES: tuple[str, ...] = ("candidate", "spy")


class UnknownGame(CardtableError):
    """A game name that cardtable does not know."""


def find_game(name: str) -> Game:
    """The game called ``name`` (``"candidate"`` or ``"spy"``)."""
    if name not in GAME_NAMES:
        known = ", ".join(GAME_NAMES)
        raise UnknownGame(f"unknown game {name!r}: expected one of {known}")
    module = importlib.import_module(f"cardtable.games.{name}")
    return cast(Game, module.GAME)
