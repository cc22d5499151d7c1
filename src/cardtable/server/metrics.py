"""What one server process counts for ``GET /metrics``, in the Prometheus text format.

Each application has its own :class:`prometheus_client.CollectorRegistry` (tests make
many applications in one process; the default global registry would mix them). The
names and what they count are listed in docs/deploy.md ("Metrics and alerts"), with a
sample alert rule.

The gauges of the live tables and sockets are read when scraped (callbacks on the
hub); everything else is counted where it happens: a move's time in
:meth:`.runtime.Hub.handle`, a refusal where it is sent or raised, a lease change in
:mod:`.cluster`, a bot over its budget in :mod:`.thinking`, a refusal at the door in
:mod:`.admission`.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

__all__ = ["CONTENT_TYPE", "LEASE_REASONS", "Metrics"]

#: The content type of :meth:`Metrics.render`.
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: Why a lease changed hands (the ``reason`` label of ``cardtable_lease_changes_total``):
#: ``created`` a new table, ``claimed`` an orphan (its owner died or let it go),
#: ``released`` on a hand-over or an eviction, ``lost`` found taken by another process
#: (the alert's subject: a live owner should never lose a table), ``dropped`` told by
#: another process that it took the table.
LEASE_REASONS = ("created", "claimed", "released", "lost", "dropped")

#: Move latency buckets in seconds: the goal is a p99 well under 0.25 s.
_MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The counters, gauges and histograms of one server process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.move_seconds = Histogram(
            "cardtable_move_seconds",
            "Server time of one move message: read, judged, stored and every update queued",
            buckets=_MOVE_BUCKETS,
            registry=r,
        )
        self.live_tables = Gauge(
            "cardtable_live_tables", "Tables this process holds in memory", registry=r
        )
        self.sockets = Gauge(
            "cardtable_sockets",
            "Table connections this process serves (relayed ones too)",
            registry=r,
        )
        self.relayed_sockets = Gauge(
            "cardtable_relayed_sockets",
            "Table WebSockets this process relays to another process that owns the table",
            registry=r,
        )
        self.lease_changes = Counter(
            "cardtable_lease_changes",
            "Table leases this process gained or gave up, by reason",
            ["reason"],
            registry=r,
        )
        self.lease_renewal_seconds = Histogram(
            "cardtable_lease_renewal_seconds",
            "Time one renewal of all this process's leases took (its own thread)",
            buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=r,
        )
        self.lease_margin_seconds = Gauge(
            "cardtable_lease_margin_seconds",
            "Smallest time left on a lease when it was renewed, since the start",
            registry=r,
        )
        self.bot_overruns = Counter(
            "cardtable_bot_overruns",
            "Bot moves that took longer than the bot budget",
            registry=r,
        )
        self.bot_degraded = Counter(
            "cardtable_bot_degraded",
            "Bot moves thought at a lower level because the bots were behind",
            registry=r,
        )
        self.refusals = Counter(
            "cardtable_refusals",
            "Requests and messages refused, by code",
            ["code"],
            registry=r,
        )
        self.admission_rejections = Counter(
            "cardtable_admission_rejections",
            "New tables, joins and seeks turned away with 503 because the process was busy",
            ["kind"],
            registry=r,
        )
        self.in_flight = Gauge(
            "cardtable_work_in_flight", "Requests and messages being handled now", registry=r
        )
        self.loop_lag_seconds = Gauge(
            "cardtable_event_loop_lag_seconds",
            "How late the event loop last woke up for a timer",
            registry=r,
        )
        for reason in LEASE_REASONS:
            self.lease_changes.labels(reason)

    def watch(self, live_tables: Callable[[], float], sockets: Callable[[], float]) -> None:
        """Read the live tables and sockets from these callbacks when scraped."""
        self.live_tables.set_function(live_tables)
        self.sockets.set_function(sockets)

    def lease(self, reason: str, count: int = 1) -> None:
        """Count ``count`` lease changes for ``reason`` (one of :data:`LEASE_REASONS`)."""
        self.lease_changes.labels(reason).inc(count)

    def refused(self, code: str) -> None:
        """Count one refusal with ``code``."""
        self.refusals.labels(code).inc()

    def render(self) -> bytes:
        """Everything, in the Prometheus text format."""
        return generate_latest(self.registry)
