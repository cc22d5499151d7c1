"""The community: ``follows``, ``blocks``, ``challenges``, ``correspondence_games`` and
``notices`` (server/community/models.py). Rows naming an account go with it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _account(name: str, *, primary: bool = False) -> sa.Column[str]:
    """An account id column deleted with its account."""
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=primary,
        nullable=False,
    )


def upgrade() -> None:
    """Create the five tables and their indexes."""
    op.create_table(
        "follows",
        _account("follower_id", primary=True),
        _account("followed_id", primary=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "blocks",
        _account("blocker_id", primary=True),
        _account("blocked_id", primary=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        _account("challenger_id"),
        _account("challenged_id"),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=True),
    )
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_challenged_id", "challenges", ["challenged_id"])
    op.create_index("ix_challenges_status", "challenges", ["status"])
    op.create_table(
        "correspondence_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("accounts", sa.JSON(), nullable=False),
        sa.Column("tokens", sa.JSON(), nullable=False),
        sa.Column("players", sa.String(200), nullable=False),
        sa.Column("to_move", sa.Integer(), nullable=True),
        sa.Column("to_move_account", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_correspondence_games_deadline", "correspondence_games", ["deadline"])
    op.create_index("ix_correspondence_games_finished", "correspondence_games", ["finished"])
    op.create_index(
        "ix_correspondence_games_to_move_account", "correspondence_games", ["to_move_account"]
    )
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _account("account_id"),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("read", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_notices_account_id", "notices", ["account_id"])


def downgrade() -> None:
    """Drop the five tables."""
    for name in ("notices", "correspondence_games", "challenges", "blocks", "follows"):
        op.drop_table(name)
