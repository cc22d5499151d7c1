"""Table chat: ``chat_lines``, the lines of both chats of every table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create chat_lines (deleted with their table)."""
    op.create_table(
        "chat_lines",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("signed_in", sa.Boolean(), nullable=False),
        sa.Column("spectator", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop chat_lines."""
    op.drop_table("chat_lines")
