"""Tournaments: ``tournaments``, ``tournament_players``, ``tournament_rounds`` (one row
per round: its primary key makes a round's pairing happen once) and
``tournament_games`` (each table of a round).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _tournament_key() -> sa.Column[str]:
    return sa.Column(
        "tournament_id",
        sa.String(32),
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    )


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("organiser_id", sa.String(64), nullable=False),
        sa.Column("organiser", sa.String(64), nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("secret_seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("owner", sa.String(128), nullable=True),
        sa.Column("lease_token", sa.Integer(), nullable=False),
        sa.Column("lease_until", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_players",
        _tournament_key(),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(64), nullable=True, index=True),
        sa.Column("bot_level", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("order", sa.Integer(), nullable=False),
        sa.Column("joined", sa.Integer(), nullable=False),
        sa.Column("left", sa.Integer(), nullable=True),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_rounds",
        _tournament_key(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("plan", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("forfeit_at", sa.Float(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "tournament_games",
        _tournament_key(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table_no", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, index=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("secrets", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=True),
        sa.Column("forfeited", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    """Drop the four tables."""
    for name in ("tournament_games", "tournament_rounds", "tournament_players", "tournaments"):
        op.drop_table(name)
