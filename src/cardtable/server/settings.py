"""Tunable behaviour of a running server (the defaults suit people playing).

The pacing of the tables (bot speeds, the pause between deals and rounds) is the one
model of :mod:`cardtable.table.pacing`, so the server and the terminal app behave the
same; tests give a short or zero pause and fast bots.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from cardtable.bots.review import ReviewBudget
from cardtable.table import Pacing

__all__ = ["Settings"]


@dataclass
class Settings:
    """What ``cardtable serve`` runs with; keyword arguments of :func:`cardtable.server.serve`."""

    #: Seconds a player may be away before a bot takes over their seat.
    grace_seconds: float = 20.0
    #: Bot level that stands in for an absent player or a flagged clock.
    stand_in_level: str = "medium"
    #: Bot speeds in a race, a turn-based bot's delay, the pause between deals/rounds.
    pacing: Pacing = field(default_factory=Pacing)
    #: Seconds a bot may think about one move. The bots' budgets are in iterations;
    #: only an overloaded machine makes one late, and then the game's easiest level
    #: answers for it (:mod:`.thinking`): a table waits one budget at most.
    bot_budget: float = 5.0
    #: Thoughts in flight past which every bot thinks one level lower, and seconds the
    #: bots keep thinking lower after one ran over its budget.
    bot_backlog: int = 16
    bot_relief_seconds: float = 30.0
    #: Worker processes the bots think in (0: threads of the server process instead).
    #: Processes keep a searching bot from taking the event loop's CPU time.
    bot_processes: int = 1
    #: Threads the bots think on when ``bot_processes`` is 0.
    bot_threads: int = 4
    #: Admission control (:mod:`.admission`): with more than ``admission_in_flight``
    #: requests and messages in progress, or the event loop running later than
    #: ``admission_lag_seconds``, new tables, joins and seeks are answered 503 with
    #: ``Retry-After: admission_retry_seconds``; moves and everything at a live table
    #: are always served. ``admission_lag_seconds`` ``None`` turns the lag test off: a
    #: server made in code (tests, embedding) sheds by work in flight alone, while
    #: ``cardtable serve`` watches the lag too (``--max-lag``, 0.5 s by default).
    admission_in_flight: int = 64
    admission_lag_seconds: float | None = None
    admission_retry_seconds: int = 2
    #: Messages per second a connection may send, and the burst it may save up.
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    #: Messages a slow reader may have waiting before it is disconnected.
    send_queue: int = 256
    #: Seconds a finished table stays in memory after its last connection left.
    keep_finished_seconds: float = 600.0
    #: Hints (``POST /api/tables/{id}/hint``): each seat may ask ``hint_seat_burst`` in a
    #: row, then one every ``hint_seat_seconds``; each address ``hint_address_burst``,
    #: then one every ``hint_address_seconds`` (beyond: 429 with Retry-After).
    hint_seat_burst: int = 3
    hint_seat_seconds: float = 10.0
    hint_address_burst: int = 12
    hint_address_seconds: float = 5.0
    #: Hints think on their own workers (processes when ``bot_processes`` > 0, else
    #: threads), never on the bots' executor, so hints cannot slow any table's bots;
    #: past ``hint_waiting`` hints in progress a new one is refused (503, Retry-After).
    hint_workers: int = 1
    hint_waiting: int = 4
    #: Analysis of finished games (``/api/games/{id}/analysis``, docs/analysis.md): run on
    #: ``analysis_workers`` processes of their own at a lower CPU priority (threads when
    #: the bots think in threads), never on the bots' or the hints' executor; at most
    #: ``analysis_waiting`` analyses queued or running on the server (beyond: 503), one
    #: per player at a time (409). Each account may start ``analysis_burst`` in a row,
    #: then one every ``analysis_seconds``; each guest address ``analysis_guest_burst``,
    #: then one every ``analysis_guest_seconds`` (beyond: 429 with Retry-After).
    analysis_workers: int = 1
    analysis_waiting: int = 2
    analysis_burst: int = 6
    analysis_seconds: float = 600.0
    analysis_guest_burst: int = 2
    analysis_guest_seconds: float = 1800.0
    #: How hard an analysis looks (tests give a small budget).
    analysis_budget: ReviewBudget = field(default_factory=ReviewBudget)
    #: For tests and benchmarks only: accept a client's ``seed`` for an unrated table
    #: (a rated table with one is still refused). Off, the server alone deals, from
    #: :mod:`secrets`, and a client's seed is refused: whoever knows the seed knows
    #: every hidden card.
    allow_client_seeds: bool = False
    #: Time every move inside the process for ``GET /api/timing`` (benchmarks; also
    #: on with ``CARDTABLE_TIME_MOVES=1`` in the environment).
    time_moves: bool = field(default_factory=lambda: os.environ.get("CARDTABLE_TIME_MOVES") == "1")
    #: Several processes sharing tables (docs/server.md, "Several processes"): the
    #: Redis URL that carries messages between them (``None``: one process, as ever),
    #: the prefix of every key and channel (pub/sub ignores Redis's database number,
    #: so runs sharing a Redis need their own), and this process's instance id
    #: (``None``: made from the host name and process id).
    redis_url: str | None = None
    redis_prefix: str = "cardtable:"
    instance: str | None = None
    #: The name a proxy sends this process the WebSockets asked for with
    #: ``?route=NAME`` by (HAProxy's ``use-server``; docs/deploy.md): a socket that
    #: reaches a process not owning its table is then sent to the owner's name, and
    #: served there instead of relayed (``None``: sockets are relayed, as ever).
    route: str | None = None
    #: Seconds a table's owner holds its lease without renewing it: a process killed
    #: outright loses its tables to another this long after its last renewal. Ten
    #: seconds, because a live owner must never lose a table: on a host at load 30-40
    #: (2 cores) the lease thread was measured renewing with only 0.15 s left of a
    #: 3 s lease, and losing some (docs/deploy.md). A SIGTERM hand-over never waits
    #: for it.
    lease_seconds: float = 10.0
    #: Seconds between an owner's renewals (and every process's look for tables
    #: whose owner is gone).
    renew_seconds: float = 1.0
    #: Seconds a process told to stop (SIGTERM) keeps serving while its health check
    #: answers 503, so a proxy stops sending it newcomers before it hands its tables
    #: over and closes its sockets with 1012.
    drain_seconds: float = 0.0
    #: Mail (:mod:`.mail`): the SMTP server's URL (``serve --smtp``; ``None``: every
    #: mail is written to the log instead), and the site's address the links in mails
    #: start with (``serve --public-url``; ``None``: the address each request came to).
    smtp_url: str | None = None
    public_url: str | None = None
