"""Rule options of Candidate (C1, C17 in ``docs/rules/candidate.en.md``).

>>> CandidateOptions()
CandidateOptions(decks=1, deals=12)
>>> CandidateOptions.from_dict({"decks": 2, "deals": 1}).to_dict()
{'decks': 2, 'deals': 1}
>>> CandidateOptions.from_dict({"decks": 4})
Traceback (most recent call last):
...
cardtable.errors.BadOptions: options.decks: expected an integer from 1 to 3, got 4
>>> CandidateOptions.from_dict({"deals": 10**9})
Traceback (most recent call last):
...
cardtable.errors.BadOptions: options.deals: expected an integer from 1 to 100, got 1000000000
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from cardtable.errors import BadOptions
from cardtable.messages import Refusal, make_refusal

__all__ = ["MAX_DEALS", "MAX_DECKS", "CandidateOptions"]

#: C1: one, two or three decks.
MAX_DECKS = 3
#: C17: at most this many deals in a match (12 is the rule; longer matches are allowed,
#: but a bound keeps a table's record and its time finite).
MAX_DEALS = 100


@dataclass(frozen=True, slots=True)
class CandidateOptions:
    """The options a Candidate match is played with.

    ``decks`` — C1: decks in play (1–3); every suit pile holds ``13 * decks`` cards.
    ``deals`` — C17: deals in the match (1–100).
    """

    decks: int = 1
    deals: int = 12

    def __post_init__(self) -> None:
        _check(self.decks, "decks", 1, MAX_DECKS, "options", _bad_options)
        _check(self.deals, "deals", 1, MAX_DEALS, "options", _bad_options)

    @classmethod
    def from_dict(
        cls, mapping: Mapping[str, Any] | None, field: str = "options", *, record: bool = False
    ) -> CandidateOptions:
        """Options from a JSON-like mapping; missing options take their defaults.

        Errors name the option (``options.decks: …``): :class:`BadOptions`, or
        :class:`BadRecord` with ``record=True`` (when reading a game record).
        """
        fail = _bad_record if record else _bad_options
        if mapping is None:
            return cls()
        if not isinstance(mapping, Mapping):
            fail(field, make_refusal("candidate.options_not_object"))
        for key in mapping:
            if key not in ("decks", "deals"):
                fail(f"{field}.{key}", make_refusal("candidate.option_unknown"))
        decks = mapping.get("decks", 1)
        deals = mapping.get("deals", 12)
        _check(decks, "decks", 1, MAX_DECKS, field, fail)
        _check(deals, "deals", 1, MAX_DEALS, field, fail)
        return cls(decks=decks, deals=deals)

    def to_dict(self) -> dict[str, int]:
        """The options as JSON-ready data (every option written out)."""
        return {"decks": self.decks, "deals": self.deals}


def _bad_options(field: str, refusal: Refusal) -> NoReturn:
    params = {**refusal.params, "option": field}
    raise BadOptions(f"{field}: {refusal.text()}", code=refusal.code, params=params)


def _bad_record(field: str, refusal: Refusal) -> NoReturn:
    raise refusal.bad_record(field)


def _check(
    value: object,
    name: str,
    low: int,
    high: int | None,
    field: str,
    fail: Callable[[str, Refusal], NoReturn],
) -> None:
    where = f"{field}.{name}"
    if isinstance(value, bool) or not isinstance(value, int):
        fail(where, make_refusal("option.not_integer", got=repr(value)))
    if value < low or (high is not None and value > high):
        if high is None:
            fail(where, make_refusal("value.int_at_least", low=low, value=value))
        fail(where, make_refusal("value.int_range", low=low, high=high, value=value))
