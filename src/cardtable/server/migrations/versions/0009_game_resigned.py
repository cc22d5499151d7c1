"""Who resigned a tournament game: ``tournament_games.resigned`` (player ids).

A resigned game is lost by the resigner whatever the totals say, yet it was played over
the board (its opponent counts for the tie-breaks, unlike a forfeit's). Games stored
before this revision were all played to the end: none resigned.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add tournament_games.resigned (an empty list for every game stored so far)."""
    op.add_column(
        "tournament_games",
        sa.Column("resigned", sa.JSON(), nullable=False, server_default=sa.text("'[]'")),
    )


def downgrade() -> None:
    """Drop tournament_games.resigned (SQLite drops a column by copying the table)."""
    with op.batch_alter_table("tournament_games") as batch:
        batch.drop_column("resigned")
