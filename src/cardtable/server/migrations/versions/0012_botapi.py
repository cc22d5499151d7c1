"""Bots: ``api_tokens`` (personal API tokens, stored as digests), ``bot_accounts``
(accounts turned into bots) and ``bot_games`` (each bot's seats and their tokens)
(server/botapi/models.py). Rows naming an account go with it.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
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
    """Create the three tables and their indexes."""
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        _account("account_id"),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=True),
        sa.Column("revoked_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])
    op.create_table(
        "bot_accounts",
        _account("account_id", primary=True),
        sa.Column("since", sa.Float(), nullable=False),
    )
    op.create_table(
        "bot_games",
        _account("account_id", primary=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_bot_games_finished", "bot_games", ["finished"])


def downgrade() -> None:
    """Drop the three tables."""
    for name in ("bot_games", "bot_accounts", "api_tokens"):
        op.drop_table(name)
