"""Reads and writes of the tournaments' rows, each a function of a SQLAlchemy session
for :class:`~cardtable.server.storage.Storage` (its one writer thread commits them).

A tournament is read whole (:func:`load`, one :class:`Snapshot`): pairing and standings
are pure functions of it (:mod:`cardtable.tournament`), so any process recomputes the
same thing from what is stored. Writes made by the tournament's owner carry its
:class:`~cardtable.server.leases.Fence` and are checked in the same transaction
(:func:`check`), as a table's are; registrations and the organiser's commands are plain
row changes any process may make.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table as Table_
from sqlalchemy import insert, or_, select, update
from sqlalchemy.orm import Session

from cardtable.server.botapi.store import bots_among
from cardtable.server.leases import Fence, Fenced
from cardtable.server.models import TableRow
from cardtable.server.tournaments.models import GameRow, PlayerRow, RoundRow, TournamentRow
from cardtable.tournament import GameResult, Player, RoundPlan, TournamentSpec

__all__ = ["Snapshot", "load"]

_T = cast(Table_, TournamentRow.__table__)
_P = cast(Table_, PlayerRow.__table__)
_R = cast(Table_, RoundRow.__table__)
_G = cast(Table_, GameRow.__table__)

Write = Callable[[Session], Any]

#: Player statuses that take part (the others left or were never let in).
IN = ("registered", "checked_in")


def utc(moment: datetime | None) -> datetime | None:
    """``moment`` with its time zone (SQLite keeps none: stored in UTC)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _row(obj: Any, columns: Sequence[str]) -> dict[str, Any]:
    return {c: utc(v) if isinstance(v, datetime) else v for c in columns for v in [getattr(obj, c)]}


@dataclass(frozen=True)
class Snapshot:
    """A tournament as stored: its row, players, rounds and games (dicts of columns),
    and which of its players' accounts are bot accounts (marked BOT like its own bots)."""

    row: dict[str, Any]
    players: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    games: list[dict[str, Any]]
    bot_accounts: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        """The tournament's id."""
        return str(self.row["id"])

    @property
    def spec(self) -> TournamentSpec:
        """What the organiser chose."""
        return TournamentSpec.from_dict(self.row["spec"])

    @property
    def settings(self) -> dict[str, Any]:
        """The server side of the organiser's choices (clock, rated, access, …)."""
        return dict(self.row["settings"])

    def entrants(self) -> list[Player]:
        """The players as pairing and standings see them."""
        return [
            Player(
                id=p["player"],
                order=p["order"],
                joined=p["joined"],
                left=p["left"],
                bot=self.is_bot(p),
            )
            for p in self.players
        ]

    def is_bot(self, player: dict[str, Any]) -> bool:
        """Whether an entrant is a bot: the tournament's own, or a bot account."""
        return player["bot_level"] is not None or player["account_id"] in self.bot_accounts

    def plans(self) -> list[RoundPlan]:
        """Every round's seating so far."""
        return [RoundPlan.from_dict(r["plan"]) for r in self.rounds]

    def results(self) -> list[GameResult]:
        """Every game with a result (played to the end or lost by forfeit)."""
        return [
            GameResult(
                round=g["round"],
                table=g["table_no"],
                seats=tuple(g["seats"]),
                totals=tuple(float(t) for t in g["totals"]),
                forfeited=tuple(g["forfeited"]),
                resigned=tuple(g.get("resigned") or ()),
                table_id=g["table_id"],
            )
            for g in self.games
            if g["totals"] is not None
        ]

    def round_games(self, number: int) -> list[dict[str, Any]]:
        """The games of round ``number``, by table."""
        return [g for g in self.games if g["round"] == number]

    def player(self, name: str) -> dict[str, Any] | None:
        """The entrant called ``name``."""
        return next((p for p in self.players if p["player"] == name), None)

    def player_of(self, account_id: str) -> dict[str, Any] | None:
        """The entrant signed up as the account ``account_id``."""
        return next((p for p in self.players if p["account_id"] == account_id), None)

    def live_games(self) -> list[dict[str, Any]]:
        """The games whose seats may be claimed now: the current round's, or every
        game still playing in an arena (its waves overlap)."""
        if self.spec.format == "arena":
            return [g for g in self.games if g["status"] == "playing"]
        return self.round_games(self.row["round"])


def bot_name(level: str, snap: Snapshot) -> str:
    """A bot entrant's marked name, unused in the tournament."""
    taken = {p["player"] for p in snap.players}
    name = f"Bot ({level})"
    number = 2
    while name in taken:
        name = f"Bot ({level}) {number}"
        number += 1
    return name


_T_COLUMNS = [c.name for c in _T.columns]
_P_COLUMNS = [c.name for c in _P.columns]
_R_COLUMNS = [c.name for c in _R.columns]
_G_COLUMNS = [c.name for c in _G.columns]


def load(tournament_id: str) -> Callable[[Session], Snapshot | None]:
    """A read of one whole tournament, or ``None``."""

    def run(session: Session) -> Snapshot | None:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            return None
        players = session.scalars(
            select(PlayerRow)
            .where(PlayerRow.tournament_id == tournament_id)
            .order_by(PlayerRow.order)
        ).all()
        rounds = session.scalars(
            select(RoundRow).where(RoundRow.tournament_id == tournament_id).order_by(RoundRow.round)
        ).all()
        games = session.scalars(
            select(GameRow)
            .where(GameRow.tournament_id == tournament_id)
            .order_by(GameRow.round, GameRow.table_no)
        ).all()
        return Snapshot(
            _row(row, _T_COLUMNS),
            [_row(p, _P_COLUMNS) for p in players],
            [_row(r, _R_COLUMNS) for r in rounds],
            [_row(g, _G_COLUMNS) for g in games],
            frozenset(bots_among(p.account_id for p in players)(session)),
        )

    return run


def listing(status: str | None, limit: int) -> Callable[[Session], list[Snapshot]]:
    """A read of the tournaments of a status (all when ``None``), soonest first, each
    with its players (for the count) but not its games."""

    def run(session: Session) -> list[Snapshot]:
        query = select(TournamentRow)
        if status is not None:
            query = query.where(TournamentRow.status == status)
        order = (
            TournamentRow.finished_at.desc()
            if status == "finished"
            else TournamentRow.starts_at.asc()
        )
        rows = session.scalars(query.order_by(order).limit(limit)).all()
        ids = [r.id for r in rows]
        players: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        if ids:
            for p in session.scalars(select(PlayerRow).where(PlayerRow.tournament_id.in_(ids))):
                players[p.tournament_id].append(_row(p, _P_COLUMNS))
        return [Snapshot(_row(r, _T_COLUMNS), players[r.id], [], []) for r in rows]

    return run


def seated_tournaments(account_id: str) -> Callable[[Session], list[str]]:
    """A read of the running tournaments the account plays in."""

    def run(session: Session) -> list[str]:
        return list(
            session.scalars(
                select(TournamentRow.id)
                .join(PlayerRow, PlayerRow.tournament_id == TournamentRow.id)
                .where(PlayerRow.account_id == account_id, TournamentRow.status == "running")
            ).all()
        )

    return run


def entered_without_bots(account_id: str) -> Callable[[Session], list[str]]:
    """A read of the tournaments not yet over that the account is in (registered,
    checked in or seated) and that do not allow bot accounts: an account in one may
    not become a bot (it would then play there as one)."""

    def run(session: Session) -> list[str]:
        rows = session.execute(
            select(TournamentRow.id, TournamentRow.settings)
            .join(PlayerRow, PlayerRow.tournament_id == TournamentRow.id)
            .where(
                PlayerRow.account_id == account_id,
                PlayerRow.status.in_(IN),
                TournamentRow.status.in_(("upcoming", "running")),
            )
        ).all()
        return [tid for tid, settings in rows if not (settings or {}).get("bots")]

    return run


def tournament_of(table_id: str) -> Callable[[Session], str | None]:
    """A read of the tournament a table was made for, or ``None``."""

    def run(session: Session) -> str | None:
        return session.scalars(
            select(GameRow.tournament_id).where(GameRow.table_id == table_id).limit(1)
        ).first()

    return run


def version_of(tournament_id: str) -> Callable[[Session], int | None]:
    """A read of the tournament's version (it goes up with every change), or ``None``."""

    def run(session: Session) -> int | None:
        return session.scalars(
            select(TournamentRow.version).where(TournamentRow.id == tournament_id)
        ).first()

    return run


def unfinished() -> Callable[[Session], list[str]]:
    """A read of every tournament not finished (a starting process runs them)."""

    def run(session: Session) -> list[str]:
        return list(
            session.scalars(select(TournamentRow.id).where(TournamentRow.status != "finished"))
        )

    return run


def table_results(table_ids: Sequence[str]) -> Callable[[Session], dict[str, dict[str, Any]]]:
    """A read of the stored tables among ``table_ids``: status, result and seats by id."""

    def run(session: Session) -> dict[str, dict[str, Any]]:
        if not table_ids:
            return {}
        rows = session.execute(
            select(TableRow.id, TableRow.status, TableRow.result, TableRow.meta).where(
                TableRow.id.in_(list(table_ids))
            )
        ).all()
        return {r.id: {"status": r.status, "result": r.result, "meta": r.meta} for r in rows}

    return run


# --------------------------------------------------------------------- writes
class NotRunning(Exception):
    """A round was about to be stored for a tournament that has finished meanwhile."""


def check(session: Session, tournament_id: str, fence: Fence | None) -> None:
    """Refuse (:class:`Fenced`) unless ``fence`` still owns the tournament (nothing
    to check on a single process: ``fence`` ``None``)."""
    if fence is None:
        return
    done = session.execute(
        update(_T)
        .where(_T.c.id == tournament_id, _T.c.owner == fence.owner, _T.c.lease_token == fence.token)
        .values(lease_token=fence.token)
    )
    if getattr(done, "rowcount", 0) != 1:
        raise Fenced(f"tournament {tournament_id}: {fence.owner} no longer owns it")


def insert_tournament(values: dict[str, Any]) -> Write:
    """A write that stores a new tournament."""

    def run(session: Session) -> None:
        session.execute(insert(_T).values(**values))

    return run


def change(
    tournament_id: str,
    values: dict[str, Any],
    *,
    fence: Fence | None = None,
    when: dict[str, Any] | None = None,
) -> Callable[[Session], bool]:
    """A write that changes the tournament's row (its version goes up); with ``when``
    only if those columns still hold those values. False when nothing changed."""

    def run(session: Session) -> bool:
        check(session, tournament_id, fence)
        query = update(_T).where(_T.c.id == tournament_id)
        for column, value in (when or {}).items():
            query = query.where(_T.c[column] == value)
        done = session.execute(query.values(**values, version=_T.c.version + 1))
        return getattr(done, "rowcount", 0) == 1

    return run


def add_player(tournament_id: str, values: dict[str, Any]) -> Write:
    """A write that adds an entrant (its order: after everyone so far)."""

    def run(session: Session) -> None:
        count = len(
            session.scalars(
                select(PlayerRow.player).where(PlayerRow.tournament_id == tournament_id)
            ).all()
        )
        session.execute(insert(_P).values(tournament_id=tournament_id, order=count, **values))
        session.execute(update(_T).where(_T.c.id == tournament_id).values(version=_T.c.version + 1))

    return run


def set_player(
    tournament_id: str, player: str, values: dict[str, Any], fence: Fence | None = None
) -> Write:
    """A write that changes an entrant (and the tournament's version)."""

    def run(session: Session) -> None:
        check(session, tournament_id, fence)
        session.execute(
            update(_P)
            .where(_P.c.tournament_id == tournament_id, _P.c.player == player)
            .values(**values)
        )
        session.execute(update(_T).where(_T.c.id == tournament_id).values(version=_T.c.version + 1))

    return run


def open_round(
    tournament_id: str,
    round_row: dict[str, Any],
    games: list[dict[str, Any]],
    fence: Fence | None,
) -> Write:
    """A write that stores a round's seating and its games and makes it the current
    round, in one transaction. A round stored before (by a crashed run or another
    process) makes it fail on the round's primary key: it is never paired twice. A
    tournament that is no longer running (the organiser ended it while the round was
    being paired) stores nothing: :class:`NotRunning`."""

    def run(session: Session) -> None:
        check(session, tournament_id, fence)
        session.execute(insert(_R).values(tournament_id=tournament_id, **round_row))
        if games:
            session.execute(insert(_G), [{"tournament_id": tournament_id, **g} for g in games])
        done = session.execute(
            update(_T)
            .where(_T.c.id == tournament_id, _T.c.status == "running")
            .values(round=round_row["round"], version=_T.c.version + 1)
        )
        if getattr(done, "rowcount", 0) != 1:
            raise NotRunning(f"tournament {tournament_id} is not running")

    return run


def set_game(
    tournament_id: str, number: int, table_no: int, values: dict[str, Any], fence: Fence | None
) -> Write:
    """A write that changes one game (its result, its seats' secrets)."""

    def run(session: Session) -> None:
        check(session, tournament_id, fence)
        session.execute(
            update(_G)
            .where(
                _G.c.tournament_id == tournament_id,
                _G.c.round == number,
                _G.c.table_no == table_no,
            )
            .values(**values)
        )
        session.execute(update(_T).where(_T.c.id == tournament_id).values(version=_T.c.version + 1))

    return run


def finish_round(tournament_id: str, number: int, fence: Fence | None, now: float) -> Write:
    """A write that marks a round played at ``now`` (Unix seconds)."""

    def run(session: Session) -> None:
        check(session, tournament_id, fence)
        session.execute(
            update(_R)
            .where(_R.c.tournament_id == tournament_id, _R.c.round == number)
            .values(finished=True, finished_at=now)
        )
        session.execute(update(_T).where(_T.c.id == tournament_id).values(version=_T.c.version + 1))

    return run


# --------------------------------------------------------------------- leases
def claim_lease(
    tournament_id: str, owner: str, now: float, until: float
) -> Callable[[Session], Fence | None]:
    """A write that makes ``owner`` run the tournament until ``until`` when nobody
    else holds it at ``now`` (a compare-and-set on the token: of two claims, one wins)."""

    def run(session: Session) -> Fence | None:
        row = session.execute(
            select(_T.c.owner, _T.c.lease_token, _T.c.lease_until).where(_T.c.id == tournament_id)
        ).first()
        if row is None:
            return None
        held_by, token, expires = row
        if held_by == owner:
            session.execute(update(_T).where(_T.c.id == tournament_id).values(lease_until=until))
            return Fence(owner, int(token))
        if held_by is not None and expires > now:
            return None
        done = session.execute(
            update(_T)
            .where(_T.c.id == tournament_id, _T.c.lease_token == token)
            .values(owner=owner, lease_token=token + 1, lease_until=until)
        )
        return Fence(owner, int(token) + 1) if getattr(done, "rowcount", 0) == 1 else None

    return run


def release_lease(tournament_id: str, fence: Fence) -> Callable[[Session], bool]:
    """A write that lets the tournament's lease go (still held with ``fence``), so
    another process takes it at its next look rather than after the lease runs out."""

    def run(session: Session) -> bool:
        done = session.execute(
            update(_T)
            .where(
                _T.c.id == tournament_id,
                _T.c.owner == fence.owner,
                _T.c.lease_token == fence.token,
            )
            .values(lease_until=0.0)
        )
        return getattr(done, "rowcount", 0) == 1

    return run


def free_tournaments(now: float) -> Callable[[Session], list[str]]:
    """A read of the unfinished tournaments nobody holds at ``now``."""

    def run(session: Session) -> list[str]:
        return list(
            session.scalars(
                select(_T.c.id).where(
                    _T.c.status != "finished",
                    or_(_T.c.owner.is_(None), _T.c.lease_until <= now),
                )
            )
        )

    return run
