"""The pieces of a table's state: its status, its seats, its moves and its answers.

:class:`~cardtable.table.table.Table` holds them; the server stores them
(:meth:`Seat.to_dict`) and shows their public part (:meth:`Seat.public`). Seat tokens are
kept only as SHA-256 digests (:func:`hash_token`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cardtable.errors import CardtableError
from cardtable.games.base import Applied, MatchEvent

__all__ = [
    "Answer",
    "MoveEntry",
    "Seat",
    "Source",
    "Status",
    "TableError",
    "TimeControl",
    "hash_token",
]


class Status(StrEnum):
    """Where a table is in its life."""

    WAITING = "waiting"  # seats still open
    PLAYING = "playing"
    FINISHED = "finished"


class Source(StrEnum):
    """Who made an accepted move."""

    PLAYER = "player"  # the seat's own client
    BOT = "bot"  # a bot seat
    SUBSTITUTE = "substitute"  # a bot standing in for an absent player (or handed the seat)
    CLOCK = "clock"  # a bot moving because the seat's time ran out


class TableError(CardtableError):
    """A request the table refuses; ``code`` is machine-readable (see docs/protocol.md),
    ``params`` the parameters of its message."""

    def __init__(self, code: str, message: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: Mapping[str, Any] = params or {}


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A clock per seat: ``initial_ms`` to start with, ``increment_ms`` added per move."""

    initial_ms: int
    increment_ms: int

    def to_dict(self) -> dict[str, float]:
        """As the API shows it, in seconds."""
        return {"initial": self.initial_ms / 1000, "increment": self.increment_ms / 1000}


def hash_token(token: str) -> str:
    """Seat tokens are stored and compared only as SHA-256 digests."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    """One seat: a bot (``bot_level``) or a person (open until someone joins).

    ``bot_level`` is a level (``easy``, ``medium``, ``hard``) or a bot of the registry
    (``planner:16``); ``bot_speed`` its race speed in moves per second (``None``: the
    level's speed of :class:`~.pacing.Pacing`).
    """

    index: int
    bot_level: str | None = None
    bot_speed: float | None = None
    name: str | None = None
    token_hash: str | None = None
    invite: str | None = None
    #: A bot is moving for this absent person until they come back.
    substituted: bool = False
    #: The person's client is connected (bots are always present).
    connected: bool = False
    #: The account the person sat down as (proven by their session when they joined);
    #: ``None`` for a guest or a bot. Only accounts are rated.
    account: str | None = None

    @property
    def is_bot(self) -> bool:
        """A bot seat (not a person)."""
        return self.bot_level is not None

    @property
    def filled(self) -> bool:
        """Taken by a bot or a person."""
        return self.is_bot or self.token_hash is not None

    @property
    def bot_driven(self) -> bool:
        """Its moves are made by a bot now (a bot seat or a substituted person)."""
        return self.is_bot or self.substituted

    def public(self) -> dict[str, Any]:
        """What everyone may know about the seat."""
        return {
            "index": self.index,
            "role": "bot" if self.is_bot else ("human" if self.filled else "open"),
            "name": self.name,
            "level": self.bot_level,
            "connected": self.is_bot or self.connected,
            "substituted": self.substituted,
            "signed_in": self.account is not None,
            # A person without an account: faces mark the name as a guest's.
            "guest": self.filled and not self.is_bot and self.account is None,
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything, for storage (the token only as its digest)."""
        return {
            "index": self.index,
            "bot_level": self.bot_level,
            "bot_speed": self.bot_speed,
            "name": self.name,
            "token_hash": self.token_hash,
            "invite": self.invite,
            "substituted": self.substituted,
            "account": self.account,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seat:
        """Inverse of :meth:`to_dict` (a restored person counts as disconnected)."""
        return cls(
            index=int(data["index"]),
            bot_level=data.get("bot_level"),
            bot_speed=data.get("bot_speed"),
            name=data.get("name"),
            token_hash=data.get("token_hash"),
            invite=data.get("invite"),
            substituted=bool(data.get("substituted", False)),
            account=data.get("account"),
        )


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """An accepted move: the version it produced, who, what, the client's id, by whom.

    ``time`` is, in a race, the seconds the round's race had run when the move came
    (``None`` in a turn-based game, and for a move replayed from storage); ``events``
    are what the move showed, each with what every seat may see of it, so a client that
    reconnects gets the same move list as one that watched (not stored: a restored
    table replays them from its moves).
    """

    version: int
    seat: int
    move: str
    move_id: str | None
    source: Source
    time: float | None = None
    events: tuple[MatchEvent, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Answer:
    """The table's answer to a move; a repeated move id gets the same one back.

    ``outcome`` is ``"accepted"`` (with the ``entry`` and what the move did,
    ``applied``), ``"stale"`` (answered with a resync) or ``"refused"``. A stale or refused
    answer has a ``code`` (machine-readable), a ``message`` (English) and the message id
    ``message_id`` with its ``params``, from which a face shows it in a player's language.
    """

    outcome: str
    move_id: str | None
    version: int
    code: str | None = None
    message: str | None = None
    entry: MoveEntry | None = None
    applied: Applied | None = None
    message_id: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
