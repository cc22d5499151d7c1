"""Lease renewal on a thread of its own: a slow owner keeps its tables.

Why a thread. A table's owner must renew its lease before it runs out, or another
process takes the table. Renewing from the event loop ties the leases to the loop's
latency: a CPU-starved process (a busy host, every request late) renews late, loses
tables it was still serving, and the clients pay for the move twice (a 1012, a
reconnect, a restore). The lease should say "this process lives", not "its loop is
quick". So :class:`LeaseKeeper` renews every lease this process holds from one thread,
with its own database connection (never queued behind the moves' writes, never
waiting for the loop) and its own Redis connection for the ``alive`` heartbeat. A
thread needs little: one ``UPDATE`` for all the leases every ``renew_seconds``; in
CPython it gets the interpreter within a switch interval (5 ms) of asking, however busy
the loop is.

What stays correct. Fencing is unchanged (:mod:`..leases`): every write of a table
checks the owner's token in its own transaction, so an owner that really stopped (the
whole process frozen or cut off past its lease) still cannot write after a takeover —
its thread stopped too and its lease ran out. A renewal that finds a lease taken
reports it (``lost``) to the loop, which drops the table.

The margin. Each renewal records how much time the leases it extends had left
(:attr:`LeaseKeeper.min_margin`, ``cardtable_lease_margin_seconds``): the distance
between "renewed" and "would have expired". With the defaults (lease 3 s, every 0.5 s)
it starts at 2.5 s; docs/deploy.md gives what it fell to under load.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from cardtable.server.leases import Fence

__all__ = ["LeaseKeeper"]

log = logging.getLogger("cardtable.server.cluster")

#: Extends the given leases to a time; returns those still held.
Renew = Callable[[list[str], float], set[str]]


class LeaseKeeper:
    """Renews this process's leases every ``every`` seconds on its own thread.

    ``renew(table_ids, until)`` extends the leases and returns those still held;
    ``heartbeat(now)`` says the process lives; ``lost({table_id: fence})`` is called
    (on the keeper's thread) with the leases found taken. ``clock`` gives Unix time.
    """

    def __init__(
        self,
        *,
        lease_seconds: float,
        every: float,
        renew: Renew,
        heartbeat: Callable[[float], None],
        lost: Callable[[dict[str, Fence]], None],
        observe: Callable[[float, float | None], None] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.lease_seconds = lease_seconds
        self.every = every
        self._renew = renew
        self._heartbeat = heartbeat
        self._lost = lost
        self._observe = observe
        self._clock = clock
        self._held: dict[str, Fence] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: The expiry the last successful renewal gave (0: none yet).
        self._until = 0.0
        #: Renewals done, and the smallest time a lease had left when renewed.
        self.renewals = 0
        self.min_margin: float | None = None
        self._done = threading.Condition()

    # ------------------------------------------------------------------ tables
    def hold(self, table_id: str, fence: Fence) -> None:
        """Renew ``table_id``'s lease (held with ``fence``) from now on."""
        with self._lock:
            self._held[table_id] = fence

    def let_go(self, table_id: str, fence: Fence) -> None:
        """Stop renewing ``table_id``'s lease held with ``fence`` (a newer fence of the
        same table, claimed again since, is kept)."""
        with self._lock:
            if self._held.get(table_id) == fence:
                del self._held[table_id]

    def held(self) -> dict[str, Fence]:
        """The leases renewed now."""
        with self._lock:
            return dict(self._held)

    # ------------------------------------------------------------------ thread
    def start(self) -> None:
        """Start the thread (a daemon: it never keeps a process from exiting)."""
        self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop renewing (the leases left run out unless released) and join the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.step()
            self._stop.wait(self.every)

    def step(self) -> None:
        """One renewal of every held lease, then the heartbeat; errors are logged and
        the next period tries again (a lease has several periods of margin)."""
        started = time.perf_counter()
        margin: float | None = None
        try:
            held = self.held()
            now = self._clock()
            until = now + self.lease_seconds
            if held:
                kept = self._renew(list(held), until)
                if self._until:
                    margin = self._until - now
                    if self.min_margin is None or margin < self.min_margin:
                        self.min_margin = margin
                self._until = until
                lost = {t: f for t, f in held.items() if t not in kept}
                if lost:
                    with self._lock:
                        for table_id, fence in lost.items():
                            if self._held.get(table_id) == fence:
                                del self._held[table_id]
                    self._lost(lost)
            else:
                self._until = 0.0
            self._heartbeat(now)
        except Exception:
            log.exception("renewing the leases failed; trying again in %.2f s", self.every)
        if self._observe is not None:
            self._observe(time.perf_counter() - started, margin)
        with self._done:
            self.renewals += 1
            self._done.notify_all()

    def wait_renewals(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` more renewals are done (tests); False on ``timeout``."""
        with self._done:
            target = self.renewals + count
            return self._done.wait_for(lambda: self.renewals >= target, timeout)
