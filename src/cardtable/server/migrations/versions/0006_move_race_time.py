"""A race move's time: ``moves.race_time``, the seconds its round's race had run.

The table records it when it accepts the move; a replay and a restored table's move list
show it. Moves stored before this revision have none (a replay then counts from the
moves' storage times, as it did).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add moves.race_time (empty for a turn-based game's moves)."""
    op.add_column("moves", sa.Column("race_time", sa.Float(), nullable=True))


def downgrade() -> None:
    """Drop moves.race_time (SQLite drops a column by copying the table)."""
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("race_time")
