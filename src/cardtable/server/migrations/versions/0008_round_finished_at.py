"""When a tournament round finished: ``tournament_rounds.finished_at`` (Unix seconds).

The next round of a Swiss or race tournament is paired ``break_seconds`` after it (the
organiser's break between rounds, shown as a countdown). Rounds finished before this
revision have none; their next round is paired at once, as it was.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add tournament_rounds.finished_at."""
    op.add_column("tournament_rounds", sa.Column("finished_at", sa.Float(), nullable=True))


def downgrade() -> None:
    """Drop tournament_rounds.finished_at (SQLite drops a column by copying the table)."""
    with op.batch_alter_table("tournament_rounds") as batch:
        batch.drop_column("finished_at")
