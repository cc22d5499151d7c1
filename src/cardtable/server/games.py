"""The server's one view of a game: a small adapter interface over the rules engines.

The table logic, the bots and the storage never touch an engine directly; they speak to a
:class:`GameKind` (a game as a whole: its options and seat counts, how to create a match)
and to a :class:`GameSession` (one match in progress). Moves cross this boundary only as
texts in the record notation of RECORDS.md, views only as JSON-ready dicts built by the
engine's own ``view(player)``, so the server cannot leak what the engine hides.

Turn-based games (Candidate) name the seat whose decision it is; real-time games (Spy)
answer :data:`ANYONE`: every seat may move at any moment and the table orders the moves
as they arrive.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

#: ``to_move()`` of a real-time game in progress: every seat may move now.
ANYONE: Final = -1


@dataclass(frozen=True, slots=True)
class Applied:
    """What an accepted move changed.

    ``affected`` are the seats whose own position (and so whose pending decisions) the
    move changed: every seat in a turn-based game, only the mover in a race unless the
    move ended a round. The table uses it to decide which clients' moves became stale.
    """

    affected: frozenset[int]


class GameSession(Protocol):
    """One match in progress, as the server sees it."""

    @property
    def seats(self) -> int:
        """The number of seats (players) of the match."""
        ...

    def to_move(self) -> int | None:
        """The seat whose decision it is, :data:`ANYONE` in a race, ``None`` once over."""
        ...

    def legal_moves(self, seat: int) -> list[str]:
        """The moves ``seat`` may make now, as record texts (empty when it may not move)."""
        ...

    def apply(self, seat: int, move: str) -> Applied:
        """Make ``seat``'s move; raises :class:`~cardtable.errors.IllegalMove` if illegal."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator, public information only).

        JSON-ready: ``json.dumps`` writes it as it is (tuples become lists).
        """
        ...

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        ...

    def result(self) -> dict[str, Any]:
        """``{"totals": [...], "winners": [...], "ranks": [...]}``; ranks 1 = best, ties share.

        Meaningful once :meth:`is_terminal`; before, it ranks the totals so far.
        """
        ...

    def record(self) -> dict[str, Any]:
        """The full game record (RECORDS.md): options, deal and every move so far."""
        ...


class GameKind(Protocol):
    """A game as the server offers it."""

    #: Record name (``"candidate"``, ``"spy"``).
    name: str
    #: Title for people.
    title: str
    #: Real-time (every seat moves freely) rather than turn-based.
    realtime: bool
    #: Allowed numbers of seats, inclusive.
    min_seats: int
    max_seats: int

    def check_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """Validate rule options for ``seats`` players; raises ``BadOptions`` if wrong."""
        ...

    def create(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> GameSession:
        """A fresh match dealt from ``seed``: the same arguments give the same match."""
        ...


def state_hash(session: GameSession) -> str:
    """A digest of everything every seat and a spectator can see.

    Two sessions with equal hashes look the same to every client; the crash-recovery
    tests compare it before a kill and after the restart. It is never sent to clients
    (a hash of hidden state could be searched for the hidden cards).
    """
    views = [session.view(seat) for seat in range(session.seats)]
    views.append(session.view(None))
    text = json.dumps(views, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def ranks_from_totals(totals: Sequence[int], *, higher_is_better: bool) -> list[int]:
    """Competition ranks (1 = best, equal totals share the rank) from final totals.

    >>> ranks_from_totals([12, 30, 12], higher_is_better=True)
    [2, 1, 2]
    >>> ranks_from_totals([-20, 20, 20], higher_is_better=False)
    [1, 2, 2]
    """
    sign = -1 if higher_is_better else 1
    keyed = [sign * t for t in totals]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]
