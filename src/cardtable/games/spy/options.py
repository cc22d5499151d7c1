"""Rule options of Spy vs Spy (S2, S2a, S15, S16) and the player limits (S1), as
``docs/rules/spy.en.md`` states them.

>>> SpyOptions().to_dict()
{'full_decks': False, 'bonus': 20, 'count_points_pile': False, 'rounds': 5}
>>> SpyOptions.from_dict({"rounds": 1, "bonus": 10})
SpyOptions(full_decks=False, bonus=10, count_points_pile=False, rounds=1, same_deal=False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.messages import make_refusal

__all__ = [
    "MAX_BONUS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MIN_PLAYERS",
    "SpyOptions",
    "check_player_count",
]

#: S1: two or more players; the product supports up to eight.
MIN_PLAYERS = 2
MAX_PLAYERS = 8
#: S16: at most this many rounds in a match (5 is the default), so a table's record and
#: its time stay finite.
MAX_ROUNDS = 100
#: S14, S15: the bonus is from 0 (no bonus) to this many points.
MAX_BONUS = 1000


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
    - ``bonus`` (S14, S15): the first caller scores ``-bonus``, everyone else ``+bonus``
      (−1000 to 1000: S15 allows any whole number, a negative one
      included; the bound keeps scores in range).
    - ``count_points_pile`` (S15): add the cards left in each points pile to the score.
    - ``rounds`` (S16): rounds in a match (1–100).
    - ``same_deal`` (S2a): every player gets a full deck of their own, all in the same
      shuffled order (duplicate tournaments). Written out only when set, so the
      options of every other match read as before.
    """

    full_decks: bool = False
    bonus: int = 20
    count_points_pile: bool = False
    rounds: int = 5
    same_deal: bool = False

    def __post_init__(self) -> None:
        # Options built in code get the same checks as options read from a record.
        _checked(self.to_dict(), "options")

    def to_dict(self) -> dict[str, Any]:
        """The options as a record's ``options`` object (every option written out;
        ``same_deal`` only when set).

        >>> SpyOptions(same_deal=True).to_dict()["same_deal"]
        True
        """
        data: dict[str, Any] = {
            "full_decks": self.full_decks,
            "bonus": self.bonus,
            "count_points_pile": self.count_points_pile,
            "rounds": self.rounds,
        }
        if self.same_deal:
            data["same_deal"] = True
        return data

    @classmethod
    def from_dict(cls, mapping: Mapping[str, Any], field: str = "options") -> SpyOptions:
        """Read options; options not given take their defaults.

        Errors are :class:`~cardtable.errors.BadRecord` naming the option's path
        (``options.rounds``), so a record's author sees which entry is wrong.

        >>> from cardtable.errors import BadRecord
        >>> try:
        ...     SpyOptions.from_dict({"rounds": 0})
        ... except BadRecord as exc:
        ...     print(exc.field, "-", exc.reason)
        options.rounds - expected an integer from 1 to 100, got 0
        >>> try:
        ...     SpyOptions.from_dict({"bonus": 10**400})
        ... except BadRecord as exc:
        ...     print(exc.field, "-", exc.code, exc.params["high"])
        options.bonus - value.int_range 1000
        """
        return cls(**_checked(mapping, field))


_KNOWN = ("full_decks", "bonus", "count_points_pile", "rounds", "same_deal")


def _checked(mapping: Mapping[str, Any], field: str) -> dict[str, Any]:
    """The options of ``mapping`` after checking names, types and ranges."""
    if not isinstance(mapping, Mapping):
        raise make_refusal("spy.options_not_object").bad_record(field)
    for key in mapping:
        if key not in _KNOWN:
            raise make_refusal("spy.option_unknown", known=", ".join(_KNOWN)).bad_record(
                f"{field}.{key}"
            )
    values: dict[str, Any] = {}
    for key in ("full_decks", "count_points_pile", "same_deal"):
        if key in mapping:
            value = mapping[key]
            if not isinstance(value, bool):
                raise make_refusal("option.not_bool", got=repr(value)).bad_record(f"{field}.{key}")
            values[key] = value
    for key, low, high in (("bonus", -MAX_BONUS, MAX_BONUS), ("rounds", 1, MAX_ROUNDS)):
        if key in mapping:
            value = mapping[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise make_refusal("option.not_integer", got=repr(value)).bad_record(
                    f"{field}.{key}"
                )
            if not low <= value <= high:
                raise make_refusal("value.int_range", low=low, high=high, value=value).bad_record(
                    f"{field}.{key}"
                )
            values[key] = value
    return values
