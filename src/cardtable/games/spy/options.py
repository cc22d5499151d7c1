"""Rule options of Spy vs Spy (S2, S15, S16) and the player limits (S1), as
``docs/rules/spy.en.md`` states them.

>>> SpyOptions().to_dict()
{'full_decks': False, 'bonus': 20, 'count_points_pile': False, 'rounds': 5}
>>> SpyOptions.from_dict({"rounds": 1, "bonus": 10})
SpyOptions(full_decks=False, bonus=10, count_points_pile=False, rounds=1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.errors import BadRecord

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "SpyOptions", "check_player_count"]

#: S1: two or more players; the product supports up to eight.
MIN_PLAYERS = 2
MAX_PLAYERS = 8


def check_player_count(players: int) -> None:
    """S1: raise :class:`ValueError` unless 2 <= players <= 8."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"Spy vs Spy is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}"
        )


@dataclass(frozen=True, slots=True)
class SpyOptions:
    """The rule options; the defaults are the game as the project ships it.

    - ``full_decks`` (S2): give each of two players a full deck instead of half a deck
      each (with three or more players everyone has a full deck anyway).
    - ``bonus`` (S14, S15): the first caller scores ``-bonus``, everyone else ``+bonus``.
    - ``count_points_pile`` (S15): add the cards left in each points pile to the score.
    - ``rounds`` (S16): rounds in a match (at least 1).
    """

    full_decks: bool = False
    bonus: int = 20
    count_points_pile: bool = False
    rounds: int = 5

    def __post_init__(self) -> None:
        # Options built in code get the same checks as options read from a record.
        _checked(self.to_dict(), "options")

    def to_dict(self) -> dict[str, Any]:
        """The options as a record's ``options`` object (every option written out)."""
        return {
            "full_decks": self.full_decks,
            "bonus": self.bonus,
            "count_points_pile": self.count_points_pile,
            "rounds": self.rounds,
        }

    @classmethod
    def from_dict(cls, mapping: Mapping[str, Any], field: str = "options") -> SpyOptions:
        """Read options; options not given take their defaults.

        Errors are :class:`~cardtable.errors.BadRecord` naming the option's path
        (``options.rounds``), so a record's author sees which entry is wrong.

        >>> try:
        ...     SpyOptions.from_dict({"rounds": 0})
        ... except BadRecord as exc:
        ...     print(exc.field, "-", exc.reason)
        options.rounds - expected an integer of at least 1, got 0
        """
        return cls(**_checked(mapping, field))


_KNOWN = ("full_decks", "bonus", "count_points_pile", "rounds")


def _checked(mapping: Mapping[str, Any], field: str) -> dict[str, Any]:
    """The options of ``mapping`` after checking names, types and ranges."""
    if not isinstance(mapping, Mapping):
        raise BadRecord(field, "expected an object of rule options")
    for key in mapping:
        if key not in _KNOWN:
            raise BadRecord(
                f"{field}.{key}", f"unknown option (Spy vs Spy options: {', '.join(_KNOWN)})"
            )
    values: dict[str, Any] = {}
    for key in ("full_decks", "count_points_pile"):
        if key in mapping:
            value = mapping[key]
            if not isinstance(value, bool):
                raise BadRecord(f"{field}.{key}", f"expected true or false, got {value!r}")
            values[key] = value
    for key, low in (("bonus", None), ("rounds", 1)):
        if key in mapping:
            value = mapping[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadRecord(f"{field}.{key}", f"expected an integer, got {value!r}")
            if low is not None and value < low:
                raise BadRecord(
                    f"{field}.{key}", f"expected an integer of at least {low}, got {value}"
                )
            values[key] = value
    return values
