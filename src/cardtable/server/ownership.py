"""The two small interfaces between one process's live tables and the processes that
share them.

:mod:`.runtime` (the live tables of one process) and :mod:`.cluster` (several processes
sharing one database, docs/deploy.md) never import each other. Each names the other
only through a :class:`~typing.Protocol` of this module:

* :class:`Ownership` is what the hub and the routes use of the cluster: who owns a table
  (:meth:`~Ownership.locate`), this process's leases to keep renewed
  (:meth:`~Ownership.hold`, :meth:`~Ownership.let_go`), a hand-over to announce
  (:meth:`~Ownership.released`), a WebSocket to relay to another owner, an *errand* run
  by a table's owner wherever it is asked for (:meth:`~Ownership.ask`, the tournaments'
  seat claims and forfeits) and *news* told to every process (:meth:`~Ownership.tell`).
* :class:`Tables` is what the cluster uses of the hub: the live tables, storage, and the
  steps a change of owner takes (adopt, drop, hand over) and a relayed connection's
  (connect, handle, disconnect).

:func:`cardtable.server.app.create_app` makes both and joins them
(``hub.cluster = Cluster(hub, settings)``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from cardtable.server.connection import Connection, Socket
from cardtable.server.leases import Fence
from cardtable.server.live import LiveTable
from cardtable.server.settings import Settings
from cardtable.server.storage import Storage

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from cardtable.server.metrics import Metrics

__all__ = ["GO_TO_OWNER", "RECONNECT", "Errand", "Ownership", "Tables", "Unanswered"]

#: WebSocket close code telling a client to connect again, to any process: the table
#: moved to another owner, or this process is stopping ("service restart").
RECONNECT = 1012

#: WebSocket close code telling a client that asked to be routed (``?route=``) to come
#: back with ``?route=`` the close's reason: the name of the process that owns the table,
#: which a proxy sends it to (docs/protocol.md, "Reconnecting").
GO_TO_OWNER = 4307

#: An errand run by a table's owner: its arguments (JSON) in, its answer (JSON) out.
#: An answer ``{"moved": true}`` says the table is not here (any more): the asker
#: looks for its owner again.
Errand = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Unanswered(Exception):
    """An errand no process answered in time (the table's owner died or is busy, or
    this process is stopping): ask again later."""


class Ownership(Protocol):
    """This process's part in a group of processes sharing tables (:mod:`.cluster`)."""

    #: This process's instance id (the owner named in its leases).
    me: str
    #: SIGTERM received: the health check answers 503 while the process still serves.
    stopping: bool
    #: Handing over: no table is taken any more, new sockets are sent elsewhere.
    draining: bool
    #: Tables this process took over from another (killed or stopping) owner.
    taken_over: int

    async def start(self) -> None:
        """Join the group: listen, keep the leases renewed, look for orphaned tables."""
        ...

    async def stop(self) -> None:
        """Leave the group (after the hub handed its tables over or stopped)."""
        ...

    async def drain(self) -> None:
        """SIGTERM: hand every table over to a named successor, then stop relaying."""
        ...

    async def route_of(self, instance: str) -> str | None:
        """The name a proxy routes sockets to process ``instance`` by, if any."""
        ...

    async def locate(self, table_id: str, *, any_age: bool = False) -> str | None:
        """The process that owns ``table_id`` (claiming it when nobody does), or None."""
        ...

    def hold(self, table_id: str, fence: Fence) -> None:
        """Keep renewing this process's lease of ``table_id`` (just made or claimed)."""
        ...

    def let_go(self, table_id: str, fence: Fence) -> None:
        """Stop renewing the lease of ``table_id`` held with ``fence`` (forgotten,
        released or lost)."""
        ...

    def heir(self, table_id: str) -> str | None:
        """The process a stopping one hands ``table_id`` to (None: none is known)."""
        ...

    def released(self, table_id: str, heir: str | None) -> None:
        """``table_id`` was handed to ``heir`` (None: released for anyone): tell it."""
        ...

    def dropped(self, table_id: str) -> None:
        """The hub forgot ``table_id``: the connections relayed to it here end."""
        ...

    async def relay(
        self, websocket: WebSocket, table_id: str, owner: str, account: str | None
    ) -> None:
        """Carry an accepted WebSocket's frames to ``owner`` and its answers back."""
        ...

    def serve(self, name: str, errand: Errand) -> None:
        """Run ``errand`` here when a process asks for ``name`` (:meth:`ask`)."""
        ...

    async def ask(self, table_id: str, name: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Run errand ``name`` on the owner of ``table_id`` (here or elsewhere, claiming
        the table when nobody holds it); its answer, ``None`` when there is no such
        table, or :class:`Unanswered`."""
        ...

    def listen(self, name: str, hear: Callable[[str], None]) -> None:
        """Call ``hear`` with the subject of each ``name`` news another process tells."""
        ...

    def tell(self, name: str, subject: str) -> None:
        """Tell every other process ``name`` news about ``subject`` (at most once, no
        answer: a hint to look at storage now rather than at the next look)."""
        ...


class Tables(Protocol):
    """What the cluster uses of one process's live tables (:class:`.runtime.Hub`)."""

    tables: dict[str, LiveTable]
    storage: Storage
    settings: Settings
    metrics: Metrics

    async def adopt(
        self, table_id: str, fence: Fence, *, any_age: bool = False
    ) -> LiveTable | None:
        """Go live with a table this process just claimed."""
        ...

    async def drop(self, live: LiveTable) -> None:
        """Forget a table another process owns now."""
        ...

    async def hand_over(self, live: LiveTable) -> None:
        """Give a table up at once (release its lease) and send its clients away."""
        ...

    async def connect(
        self, live: LiveTable, socket: Socket, account: str | None = None
    ) -> Connection:
        """Register a connection (a relayed one too)."""
        ...

    async def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """Forget a connection."""
        ...

    async def handle(self, live: LiveTable, conn: Connection, raw: str | bytes | None) -> None:
        """One message from a client."""
        ...
