"""Storage: tables, moves and ratings in SQLite or PostgreSQL (SQLAlchemy 2 + Alembic).

The database URL picks the backend: ``sqlite:///cardtable.db`` (the default, a file) or
``postgresql://user@host/db`` (driven by psycopg 3). :func:`open_storage` runs the
migrations shipped in this package before anything else.

Writes go through one writer thread with *group commit*: the event loop queues a write
and awaits its future; the writer takes every write queued so far, commits them in one
transaction and then resolves the futures. So "every accepted move is committed before
it is broadcast" costs one commit per batch, not per move, and many tables share it.
If a batch fails, its writes are retried one by one so one bad write fails alone.
Reads run on worker threads with their own sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, delete, event, insert, select, text, update
from sqlalchemy import Table as Table_
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from cardtable.games.base import Game
from cardtable.server import leases
from cardtable.server.botapi.store import pool_of
from cardtable.server.leases import Fence
from cardtable.server.models import AccountRow, MoveRow, RatingHistoryRow, RatingRow, TableRow
from cardtable.server.ratings import Rating, rate
from cardtable.table import MoveEntry, Pacing, Seat, Source, Status, Table, TimeControl

T = TypeVar("T")

#: Most writes committed together in one transaction.
BATCH_MAX = 256


def database_url(url: str) -> str:
    """Normalise a URL: PostgreSQL URLs without a driver use psycopg 3.

    >>> database_url("postgresql://postgres@127.0.0.1/test")
    'postgresql+psycopg://postgres@127.0.0.1/test'
    >>> database_url("sqlite:///cardtable.db")
    'sqlite:///cardtable.db'
    """
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL and foreign keys."""
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL survives a killed process (not a power cut) without an fsync
            # per commit.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


#: Key of the PostgreSQL advisory lock that serialises migrations.
MIGRATION_LOCK = 15_0004


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the migrations shipped in this package.

    On PostgreSQL the migration holds an advisory lock for its transaction, so several
    server processes starting at once on an empty database migrate one after the other
    (the later ones find the schema up to date)."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _settle(future: Future[Any], value: Any) -> None:
    """Give a write's waiter its result; one that stopped waiting (cancelled, e.g. at
    shutdown) gets nothing, and the writer thread goes on (the write is committed)."""
    with contextlib.suppress(InvalidStateError):
        future.set_result(value)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as loaded from storage, ready for :meth:`Table.restore`."""

    row: dict[str, Any]
    moves: list[MoveEntry]
    #: When each move was stored (a replay counts a race move's time from these when
    #: the move has no recorded ``time``: one stored before they were kept).
    times: list[datetime] = field(default_factory=list)

    def restore(
        self,
        game: Game,
        now: float,
        pacing: Pacing | None = None,
        stand_in_level: str = "medium",
    ) -> Table:
        """The table as stored, its moves replayed (:meth:`Table.restore`), its clocks
        counted from ``now``: the one way a stored row becomes a table again."""
        row = self.row
        tc = row["time_control"]
        return Table.restore(
            table_id=row["id"],
            game=game,
            options=row["options"],
            seed=row["seed"],
            time_control=TimeControl(tc["initial_ms"], tc["increment_ms"]) if tc else None,
            rated=row["rated"],
            status=Status(row["status"]),
            version=row["version"],
            meta=row["meta"],
            moves=self.moves,
            rematch_of=row["rematch_of"],
            now=now,
            pacing=pacing,
            stand_in_level=stand_in_level,
        )


class Storage:
    """The server's database: synchronous methods, plus async ones for the event loop."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self.engine = make_engine(url)
        migrate(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._queue: queue.SimpleQueue[tuple[Callable[[Session], Any], Future[Any]] | None]
        self._queue = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, name="storage-writer", daemon=True)
        self._writer.start()
        self.commits = 0  # batches committed, for the benchmark

    # ------------------------------------------------------------ writer thread
    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < BATCH_MAX:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._run_batch(batch)
                    return
                batch.append(more)
            self._run_batch(batch)

    def _run_batch(self, batch: list[tuple[Callable[[Session], Any], Future[Any]]]) -> None:
        results: list[Any] = []
        try:
            with self._sessions.begin() as session:
                for write, _future in batch:
                    results.append(write(session))
                    session.flush()
            self.commits += 1
        except Exception:
            # Retry one by one so a single bad write fails alone.
            for write, future in batch:
                try:
                    with self._sessions.begin() as session:
                        value = write(session)
                    self.commits += 1
                    _settle(future, value)
                except Exception as exc:
                    with contextlib.suppress(InvalidStateError):
                        future.set_exception(exc)
            return
        for (_write, future), value in zip(batch, results, strict=True):
            _settle(future, value)

    def write(self, fn: Callable[[Session], T]) -> Future[T]:
        """Queue ``fn(session)`` for the writer thread; the future resolves after commit."""
        future: Future[T] = Future()
        self._queue.put((fn, future))
        return future

    async def awrite(self, fn: Callable[[Session], T]) -> T:
        """:meth:`write`, awaited from the event loop."""
        return await asyncio.wrap_future(self.write(fn))

    async def aread(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` on a worker thread in its own read-only session."""
        return await asyncio.to_thread(self.read, fn)

    def read(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` now, in this thread."""
        with self._sessions() as session:
            return fn(session)

    def close(self) -> None:
        """Finish queued writes, stop the writer and release the connections."""
        self._queue.put(None)
        self._writer.join(timeout=10)
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    @staticmethod
    def insert_table(
        table: Table, lease: tuple[str, float] | None = None, *, lease_seconds: float = 0.0
    ) -> Callable[[Session], None]:
        """A write that stores a new table; with ``lease`` (an owner and until when,
        several processes sharing the database) also its lease, token 1. With
        ``lease_seconds`` the lease runs that long from when the write runs (a write
        queued behind others on a busy process must not store a lease already over)."""
        values = _table_values(table)

        def run(session: Session) -> None:
            now = _now()
            session.add(TableRow(**values, created_at=now, updated_at=now))
            if lease is not None:
                session.flush()
                owner, until = lease
                if lease_seconds:
                    until = max(until, time.time() + lease_seconds)
                leases.start_lease(session, values["id"], owner, until)

        return run

    @staticmethod
    def update_table(table: Table, fence: Fence | None = None) -> Callable[[Session], None]:
        """A write that stores the table's state (seats, version, clocks); with
        ``fence``, only while that owner still holds the table (:mod:`.leases`)."""
        table_id = table.id
        values = _state_values(table)

        def run(session: Session) -> None:
            if fence is not None:
                leases.check(session, table_id, fence)
            _update_row(session, table_id, {**values, "updated_at": _now()})

        return run

    @staticmethod
    def append_move(
        table: Table, entry: MoveEntry, fence: Fence | None = None
    ) -> Callable[[Session], None]:
        """A write that stores an accepted move with the table's new state.

        When the move finished the game it also stores the result and the full record
        and, for a rated game, updates the ratings, all in the same transaction. Plain
        SQL statements (no ORM unit of work): this is the server's hottest write. With
        ``fence`` the lease is checked first in the same transaction: a process that
        lost the table cannot store a move (:class:`~.leases.Fenced`).
        """
        table_id = table.id
        values = _state_values(table)
        finish = _finishing(table)
        move = {
            "table_id": table_id,
            "version": entry.version,
            "seat": entry.seat,
            "move": entry.move,
            "move_id": entry.move_id,
            "source": entry.source.value,
            "race_time": entry.time,
        }

        def run(session: Session) -> None:
            if fence is not None:
                leases.check(session, table_id, fence)
            now = _now()
            session.execute(insert(_MOVES), [{**move, "created_at": now}])
            _update_row(session, table_id, {**values, "updated_at": now})
            if finish is not None:
                finish(session, now)

        return run

    @staticmethod
    def end_table(table: Table, fence: Fence | None = None) -> Callable[[Session], None]:
        """A write that stores a match ended without a move — resigned or aborted —
        with its result and record and, for a rated resigned game, the ratings (the
        resigner loses); an aborted game rates nobody."""
        table_id = table.id
        values = _state_values(table)
        finish = _finishing(table)

        def run(session: Session) -> None:
            if fence is not None:
                leases.check(session, table_id, fence)
            now = _now()
            _update_row(session, table_id, {**values, "updated_at": now})
            if finish is not None:
                finish(session, now)

        return run

    @staticmethod
    def take_back(
        table: Table, first: int, fence: Fence | None = None
    ) -> Callable[[Session], None]:
        """A write that forgets the moves taken back (version ``first`` on) and stores
        the table's state: a restarted server replays only the moves kept."""
        table_id = table.id
        values = _state_values(table)

        def run(session: Session) -> None:
            if fence is not None:
                leases.check(session, table_id, fence)
            session.execute(
                delete(_MOVES).where(_MOVES.c.table_id == table_id, _MOVES.c.version >= first)
            )
            _update_row(session, table_id, {**values, "updated_at": _now()})

        return run

    @staticmethod
    def delete_waiting(table_id: str) -> Callable[[Session], bool]:
        """A write that deletes a table still waiting for its players (no moves, no
        record); False when it is not there or has started."""

        def run(session: Session) -> bool:
            done = session.execute(
                delete(_TABLES).where(
                    _TABLES.c.id == table_id, _TABLES.c.status == Status.WAITING.value
                )
            )
            return getattr(done, "rowcount", 0) == 1

        return run

    # ------------------------------------------------------------------- reads
    @staticmethod
    def load_unfinished(session: Session) -> list[StoredTable]:
        """Every table not finished yet, with its moves in order."""
        rows = session.scalars(
            select(TableRow).where(TableRow.status != Status.FINISHED.value)
        ).all()
        return [_stored(session, row) for row in rows]

    @staticmethod
    def rematch_id(session: Session, table_id: str) -> str | None:
        """The id of a table's rematch, or ``None`` (no rematch, or no such table)."""
        meta = session.scalar(select(TableRow.meta).where(TableRow.id == table_id))
        found = meta.get("rematch_id") if isinstance(meta, dict) else None
        return found if isinstance(found, str) else None

    @staticmethod
    def load(session: Session, table_id: str) -> StoredTable | None:
        """One table with its moves, or ``None``."""
        row = session.get(TableRow, table_id)
        return _stored(session, row) if row is not None else None

    @staticmethod
    def list_live(
        session: Session, status: str | None, game: str | None, limit: int
    ) -> list[dict[str, Any]]:
        """Tables waiting or playing (``status`` one of them, or both), oldest first,
        as :meth:`Table.info` shows them: the lobby when several processes share the
        database (each holds only the tables it owns)."""
        query = select(TableRow)
        if status is not None:
            query = query.where(TableRow.status == status)
        else:
            query = query.where(TableRow.status != Status.FINISHED.value)
        if game is not None:
            query = query.where(TableRow.game == game)
        rows = session.scalars(query.order_by(TableRow.created_at).limit(limit)).all()
        return [_live_info(row) for row in rows]

    @staticmethod
    def find_code(session: Session, code: str) -> tuple[dict[str, Any], int | None, bool] | None:
        """What a code stands for among the stored tables waiting or playing: a table's
        id (its info, ``None``, False) or an open seat's invite (its info, the seat,
        whether the seat is taken). For several processes, where each holds only its
        own tables; reads every live table's seats, which suits a lobby of hundreds."""
        row = session.get(TableRow, code)
        if row is not None and row.status != Status.FINISHED.value:
            return _live_info(row), None, False
        rows = session.scalars(
            select(TableRow).where(TableRow.status != Status.FINISHED.value)
        ).all()
        for row in rows:
            for seat in row.meta["seats"]:
                if seat.get("invite") == code:
                    taken = Seat.from_dict(seat).filled
                    return _live_info(row), int(seat["index"]), taken
        return None

    @staticmethod
    def finished_table(session: Session, table_id: str) -> dict[str, Any] | None:
        """A finished table's public facts with its result and record, or ``None``."""
        row = session.get(TableRow, table_id)
        if row is None:
            return None
        return _row_dict(row)

    @staticmethod
    def list_finished(session: Session, game: str | None, limit: int) -> list[dict[str, Any]]:
        """The most recently finished tables."""
        query = select(TableRow).where(TableRow.status == Status.FINISHED.value)
        if game is not None:
            query = query.where(TableRow.game == game)
        rows = session.scalars(query.order_by(TableRow.finished_at.desc()).limit(limit)).all()
        return [_row_dict(row) for row in rows]

    @staticmethod
    def leaderboard(session: Session, game: str, limit: int) -> list[dict[str, Any]]:
        """The best-rated accounts of ``game``: settled ratings first, then provisional
        ones, each best first (:mod:`.ratings`). Ratings bots earned before games
        against bots stopped counting are left out, and so are banned accounts (their
        rated results stay in the other players' ratings)."""
        rows = session.scalars(
            select(RatingRow)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.game == game, AccountRow.banned_at.is_(None))
        ).all()
        ratings = [(r, Rating(r.mu, r.sigma, r.games)) for r in rows]
        ratings.sort(key=lambda e: (e[1].provisional, -e[1].rating, -e[1].ordinal, e[0].name))
        return [
            {
                "name": r.name,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": rating.ordinal,
                **rating.shown(),
                "games": r.games,
                "wins": r.wins,
                "losses": r.losses,
                "account": True,
            }
            for r, rating in ratings[:limit]
        ]


def _finishing(table: Table) -> Callable[[Session, datetime], None] | None:
    """What storing a finished table adds (``None`` while it runs): its result, record
    and finishing time and, for a rated game with a result, the ratings."""
    result = table.result()
    if result is None:
        return None
    record = table.record()
    players = rated_players(table)
    game = table.game.info.name
    rate_it = table.rated and result["ending"] != "aborted"
    table_id = table.id

    def run(session: Session, now: datetime) -> None:
        _update_row(session, table_id, {"result": result, "record": record, "finished_at": now})
        if rate_it:  # a bot account at any seat: the bots' pool (docs/bot-api.md)
            pool = pool_of(session, game, [p.account for p in players])
            _update_ratings(session, pool, table_id, players, result["ranks"], now)

    return run


def _table_values(table: Table) -> dict[str, Any]:
    return {
        "id": table.id,
        "game": table.game.info.name,
        "options": dict(table.options),
        "seed": table.seed,
        "time_control": (
            {
                "initial_ms": table.time_control.initial_ms,
                "increment_ms": table.time_control.increment_ms,
            }
            if table.time_control
            else None
        ),
        "rated": table.rated,
        "status": table.status.value,
        "version": table.version,
        "meta": table.meta(),
        "rematch_of": table.rematch_of,
    }


_TABLES = cast(Table_, TableRow.__table__)
_MOVES = cast(Table_, MoveRow.__table__)


def _state_values(table: Table) -> dict[str, Any]:
    """The columns a table's life changes (the rest is fixed at creation)."""
    return {"status": table.status.value, "version": table.version, "meta": table.meta()}


def _update_row(session: Session, table_id: str, values: dict[str, Any]) -> None:
    done = session.execute(update(_TABLES).where(_TABLES.c.id == table_id).values(**values))
    if getattr(done, "rowcount", 1) != 1:
        raise LookupError(f"table {table_id} is not stored")


def _row_dict(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "seed": row.seed,
        "time_control": row.time_control,
        "rated": row.rated,
        "status": row.status,
        "version": row.version,
        "meta": row.meta,
        "result": row.result,
        "record": row.record,
        "rematch_of": row.rematch_of,
        "finished_at": row.finished_at,
    }


def _live_info(row: TableRow) -> dict[str, Any]:
    """A stored table's public facts, the same as :meth:`Table.info`."""
    meta = row.meta
    tc = row.time_control
    return {
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "status": row.status,
        "version": row.version,
        "seats": [Seat.from_dict(s).public() for s in meta["seats"]],
        "time_control": (
            TimeControl(tc["initial_ms"], tc["increment_ms"]).to_dict() if tc else None
        ),
        "rated": row.rated,
        "hints": bool(meta.get("hints")),
        "rematch_of": row.rematch_of,
        "rematch": meta.get("rematch_id"),
    }


def _stored(session: Session, row: TableRow) -> StoredTable:
    moves = session.scalars(
        select(MoveRow).where(MoveRow.table_id == row.id).order_by(MoveRow.version)
    ).all()
    entries = [
        MoveEntry(m.version, m.seat, m.move, m.move_id, Source(m.source), m.race_time)
        for m in moves
    ]
    return StoredTable(_row_dict(row), entries, [m.created_at for m in moves])


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """A seat of a rated game that is rated: an account's (see :func:`rated_players`)."""

    seat: int
    key: str
    name: str
    account: str | None


def rated_players(table: Table) -> list[RatedPlayer]:
    """The seats a rated game rates: its accounts (``account:<id>``), and only when
    people sat at every seat. A game with a bot at any seat rates nobody: ratings
    measure people against people (docs/server.md). A guest's seat (only on a rated
    table made before accounts existed) is left out: nobody's rating may move for a
    name nobody proved."""
    if any(seat.is_bot for seat in table.seats):
        return []
    players = []
    for seat in table.seats:
        name = seat.name or f"Player {seat.index + 1}"
        if seat.account is not None:
            players.append(RatedPlayer(seat.index, f"account:{seat.account}", name, seat.account))
    return players


def _update_ratings(
    session: Session,
    game: str,
    table_id: str,
    players: Sequence[RatedPlayer],
    all_ranks: Sequence[int],
    now: datetime,
) -> None:
    """Rate the players of one finished game; each account also gets a history point."""
    keys = [p.key for p in players]
    ranks = [all_ranks[p.seat] for p in players]
    rows = {
        r.player: r
        for r in session.scalars(
            select(RatingRow).where(RatingRow.game == game, RatingRow.player.in_(set(keys)))
        ).all()
    }
    current = {key: Rating(r.mu, r.sigma, r.games) for key, r in rows.items()}
    best = min(ranks, default=0)
    everyone_tied = len(set(ranks)) <= 1
    for key, new in rate(current, keys, ranks).items():
        player = next(p for p in players if p.key == key)
        rank = min(r for p, r in zip(players, ranks, strict=True) if p.key == key)
        won = not everyone_tied and rank == best
        lost = not everyone_tied and rank > best
        row = rows.get(key)
        if row is None:
            row = RatingRow(
                game=game,
                player=key,
                account_id=player.account,
                name=player.name,
                games=0,
                wins=0,
                losses=0,
            )
            session.add(row)
        row.mu, row.sigma, row.games, row.updated_at = new.mu, new.sigma, new.games, now
        row.name = player.name
        row.wins += int(won)
        row.losses += int(lost)
        if player.account is not None:
            session.add(
                RatingHistoryRow(
                    account_id=player.account,
                    game=game,
                    table_id=table_id,
                    rank=rank,
                    mu=new.mu,
                    sigma=new.sigma,
                    created_at=now,
                )
            )
