"""What every bot is: a seeded, budgeted player that sees only its own seat.

A bot is asked about an *information set* — the view of one seat plus what that seat
may legally do — never about the true state of the game. It answers two questions:

- :meth:`Bot.choose`: which move to make;
- :meth:`Bot.analyse`: how good each legal move is (the basis of hints and analysis).

Bots are deterministic: the same seed, the same budget (in iterations) and the same
information set give the same answer, on every machine and in every process. Each
decision draws its randomness from :func:`decision_rng`, a generator seeded from the
bot's seed and the information set's own key, so a bot's answer does not depend on
what it was asked before, nor on anything hidden from it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from cardtable.errors import BadOptions

__all__ = [
    "Analysis",
    "Bot",
    "Budget",
    "MoveValue",
    "decision_rng",
    "stable_seed",
]

InfoT_contra = TypeVar("InfoT_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a searching bot may think per move.

    ``iterations`` (simulations, sampled worlds, …) keeps the bot deterministic;
    ``seconds`` caps wall time as well (whichever ends first) and makes the answer
    depend on the machine's speed, so arenas and tests use iterations only.
    """

    iterations: int
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise BadOptions(f"a budget needs at least 1 iteration, got {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise BadOptions(f"a time budget must be positive, got {self.seconds}")


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move and how good the bot thinks it is.

    ``value`` is on the scale named by :attr:`Analysis.unit`, higher always better;
    ``visits`` is how much search went into it (0 for bots that do not search).
    """

    action: int
    text: str
    value: float
    visits: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "move": self.text,
            "action": self.action,
            "value": self.value,
            "visits": self.visits,
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every legal move with its value, best first (ties keep the action order).

    >>> a = Analysis((MoveValue(3, "pass", 1.5), MoveValue(1, "play QS", -2.0)), "points")
    >>> a.best.text
    'pass'
    """

    moves: tuple[MoveValue, ...]
    unit: str

    @property
    def best(self) -> MoveValue:
        """The move the bot would make."""
        return self.moves[0]

    @classmethod
    def ranked(cls, moves: Iterable[MoveValue], unit: str) -> Analysis:
        """Sort ``moves`` best first; equal values keep increasing action order."""
        ordered = sorted(moves, key=lambda m: (-m.value, -m.visits, m.action))
        if not ordered:
            raise ValueError("an analysis needs at least one legal move")
        return cls(tuple(ordered), unit)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "unit": self.unit,
            "best": self.best.text,
            "moves": [m.to_dict() for m in self.moves],
        }


class Bot(Protocol[InfoT_contra]):
    """A player for one game. ``InfoT`` is that game's information-set type."""

    #: The registry name (``"ismcts"``).
    name: str
    #: The game it plays (``"candidate"``).
    game: str

    def choose(self, info: InfoT_contra) -> int:
        """The move (action id) to make in ``info``; always one of its legal moves."""
        ...

    def analyse(self, info: InfoT_contra) -> Analysis:
        """Every legal move of ``info`` with its value, best first."""
        ...


def stable_seed(*parts: object) -> int:
    """A 64-bit seed from any printable parts, the same in every process.

    (Python's ``hash`` of a string changes between processes, so it is never used.)

    >>> stable_seed("arena", 1, "greedy") == stable_seed("arena", 1, "greedy")
    True
    """
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def decision_rng(seed: int, key: str) -> random.Random:
    """The generator for one decision: a function of the bot's seed and the
    information-set key only (see the module docstring)."""
    return random.Random(stable_seed(seed, key))
