"""The tournaments' database schema (SQLAlchemy models on the server's one ``Base``).

``tournaments`` (one row per event: what the organiser chose, where it is, its lease),
``tournament_players`` (its entrants), ``tournament_rounds`` (each round's seating,
primary key ``(tournament_id, round)``: a round is paired once, even when two
processes or a restarted one try again) and ``tournament_games`` (each table of a
round: the table's id, each seat's invite and secret token, whether the seat's
person has claimed it, and the result once known). Created by migration 0007.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.server.models import Base

__all__ = ["GameRow", "PlayerRow", "RoundRow", "TournamentRow"]


class TournamentRow(Base):
    """A tournament: the organiser's choices, its status and its owner's lease."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(16))
    #: :meth:`TournamentSpec.to_dict`.
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Clock, rated, access, bots, late joins, check-in and forfeit times (docs/server.md).
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    organiser_id: Mapped[str] = mapped_column(String(64))
    organiser: Mapped[str] = mapped_column(String(64))
    invite_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: ``upcoming``, ``running`` or ``finished``.
    status: Mapped[str] = mapped_column(String(16), index=True)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    round: Mapped[int] = mapped_column(Integer, default=0)
    #: The seed every duplicate round's deal is made from (never shown while running).
    secret_seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Several processes: the process running it, its fencing token, until when (Unix).
    owner: Mapped[str | None] = mapped_column(String(128), nullable=True)
    lease_token: Mapped[int] = mapped_column(Integer, default=0)
    lease_until: Mapped[float] = mapped_column(Float, default=0.0)


class PlayerRow(Base):
    """An entrant: an account (``account_id``) or a bot the organiser allowed."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    #: The player's id in the tournament: the account's name (a bot: its marked name).
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    bot_level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: ``registered``, ``checked_in``, ``withdrawn`` or ``removed``.
    status: Mapped[str] = mapped_column(String(16))
    order: Mapped[int] = mapped_column(Integer)
    joined: Mapped[int] = mapped_column(Integer, default=1)
    left: Mapped[int | None] = mapped_column(Integer, nullable=True)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoundRow(Base):
    """A round's seating (:meth:`RoundPlan.to_dict`); its key makes pairing happen once."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    plan: Mapped[dict[str, Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Absent players forfeit once this passes (Unix time).
    forfeit_at: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    #: When its last game ended (Unix time): the break before the next round counts
    #: from here.
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class GameRow(Base):
    """One table of a round: its seats' invites and tokens, who has claimed a seat,
    and the result (totals per seat, forfeits) once known."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[str]] = mapped_column(JSON)
    #: Per seat: ``{"invite", "token", "claimed"}`` (a bot seat: ``null``).
    secrets: Mapped[list[dict[str, Any] | None]] = mapped_column(JSON)
    #: ``playing``, ``finished`` (a result) or ``forfeit`` (absent players).
    status: Mapped[str] = mapped_column(String(16))
    totals: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    forfeited: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: Seats whose player resigned (lost, though played over the board; migration 0009).
    resigned: Mapped[list[str]] = mapped_column(JSON, default=list)
