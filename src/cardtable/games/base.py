"""What every game package offers the rest of cardtable.

A game package (``cardtable.games.<name>``) exposes ``GAME``, an object satisfying
:class:`GameModule`. The command line, the record machinery and later faces talk to a
game only through it, so adding a game never means touching them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Replay(Protocol):
    """The result of replaying a record (complete or stopped anywhere)."""

    def summary(self) -> dict[str, Any]:
        """The replay summary of RECORDS.md as a JSON-ready dict."""
        ...

    def transcript(self, lang: str = "en") -> str:
        """A readable account of the game: the deal, each move, every score."""
        ...


class GameModule(Protocol):
    """A game as the generic machinery sees it."""

    #: The name used in records and on the command line (``"candidate"``).
    name: str
    #: The game's title for people (``"Candidate («Кандидат»)"``).
    title: str

    def new_record(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A record (RECORDS.md) of a fresh game dealt from ``seed``, with no moves."""
        ...

    def replay(self, record: Mapping[str, Any]) -> Replay:
        """Validate and replay a record (as parsed JSON).

        Raises :class:`~cardtable.errors.BadRecord` for a malformed record and
        :class:`~cardtable.errors.IllegalMove` (with its position) for a bad move.
        """
        ...
