"""A live table as one server process keeps it, and the errors the live tables answer.

:class:`LiveTable` is what :mod:`.runtime` keeps around each table in memory (its lock,
connections, driver task, timers, chat and — with several processes — its lease);
:class:`HubError` is a refused request with its HTTP status and message id. Both live
here, apart from the hub, so that the modules the hub is made of (:mod:`.carry`,
:mod:`.driver`, :mod:`.table_chat`) and the cluster's interface (:mod:`.ownership`) can
name them without importing the hub.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.games.base import Game
from cardtable.games.registry import GAME_NAMES, find_game
from cardtable.server.chat import ChatRoom
from cardtable.server.connection import Connection
from cardtable.server.core import TableCore
from cardtable.server.leases import Fence
from cardtable.table import Table

__all__ = ["HubError", "LiveTable", "default_games"]


def default_games() -> dict[str, Game]:
    """Every game of the registry, by name."""
    return {name: find_game(name) for name in GAME_NAMES}


@dataclass(eq=False)
class LiveTable:
    """A table in memory with what the runtime keeps around it."""

    core: TableCore
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    #: Set whenever the table changes: its driver looks again.
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    driver: asyncio.Task[None] | None = None
    #: Seats whose bot is thinking now.
    thinking: set[int] = field(default_factory=set)
    #: Seats whose bot failed, with the seat version it failed at: not asked again until
    #: the seat's position changes.
    failed: dict[int, int] = field(default_factory=dict)
    grace: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    #: When a finished table leaves memory.
    evict: asyncio.TimerHandle | None = None
    #: The players' and spectators' chat (:mod:`.chat`).
    chat: ChatRoom = field(default_factory=ChatRoom)
    #: With several processes (:mod:`.cluster`): this process's lease of the table,
    #: checked by every write. ``None`` on a single process.
    fence: Fence | None = None
    #: The seed of each bot seat's random numbers, from :mod:`secrets` when the seat's
    #: bot first thinks in this process: never derived from anything public (a table id
    #: is public, and the same seed and information set give the same move), never
    #: stored or sent (a replay re-applies the record's moves; no bot thinks again).
    bot_seeds: dict[int, int] = field(default_factory=dict)
    #: Handed over or lost to another process: nothing more is judged or stored here.
    gone: bool = False

    @property
    def table(self) -> Table:
        """The table (replaced when it is reloaded from storage)."""
        return self.core.table

    def busy(self) -> set[int]:
        """Seats the driver does not act for now: thinking, or failed at this position."""
        versions = self.table.seat_versions
        for seat, version in list(self.failed.items()):
            if versions[seat] != version:
                del self.failed[seat]
        return self.thinking | self.failed.keys()


class HubError(Exception):
    """A request the hub refuses: an HTTP status, a code, a sentence and its message id
    with parameters; a 503 (asked again shortly, it may pass) says when to ask again,
    ``retry_after`` seconds (1 unless given)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        params: Mapping[str, Any] | None = None,
        message_id: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = dict(params or {})
        self.message_id = message_id or f"server.{code}"
        self.retry_after = retry_after if retry_after is not None or status != 503 else 1

    def detail(self) -> dict[str, Any]:
        """The ``detail`` of the HTTP error answer."""
        return {
            "code": self.code,
            "message": self.message,
            "message_id": self.message_id,
            "params": self.params,
        }
