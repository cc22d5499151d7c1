"""Account recovery and moderation: an account's email address, language and moderation
state; the one-time links sent by email; reports and the moderators' log.

``accounts`` gains ``email`` (the verified address, none so far), ``lang`` (its emails'
language, English so far), ``moderator`` (no one so far: ``cardtable admin
grant-moderator``), ``banned_at`` and ``muted_until`` (nobody so far). New tables:
``account_tokens`` (:mod:`cardtable.server.recovery.models`), ``reports`` and
``moderation_actions`` (:mod:`cardtable.server.moderation.models`).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _account_column(name: str) -> sa.Column[str]:
    """A column naming an account (deleted with it)."""
    return sa.Column(
        name, sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    """Add the accounts' columns; create account_tokens, reports, moderation_actions."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(
            sa.Column("lang", sa.String(8), nullable=False, server_default=sa.text("'en'"))
        )
        batch.add_column(
            sa.Column("moderator", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_accounts_email", "accounts", ["email"])
    op.create_table(
        "account_tokens",
        sa.Column("digest", sa.String(64), primary_key=True),
        _account_column("account_id"),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_account_tokens_account_id", "account_tokens", ["account_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _account_column("reporter_id"),
        sa.Column("reporter_name", sa.String(64), nullable=False),
        _account_column("target_id"),
        sa.Column("target_name", sa.String(64), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
    )
    for column in ("reporter_id", "target_id", "status"):
        op.create_index(f"ix_reports_{column}", "reports", [column])
    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("moderator_id", sa.String(32), nullable=True),
        sa.Column("moderator_name", sa.String(64), nullable=False),
        sa.Column("target_id", sa.String(32), nullable=True),
        sa.Column("target_name", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("report_id", sa.Integer(), nullable=True),
    )
    for column in ("created_at", "target_id"):
        op.create_index(f"ix_moderation_actions_{column}", "moderation_actions", [column])


def downgrade() -> None:
    """Drop the three tables and the accounts' new columns."""
    for column in ("created_at", "target_id"):
        op.drop_index(f"ix_moderation_actions_{column}", "moderation_actions")
    op.drop_table("moderation_actions")
    for column in ("reporter_id", "target_id", "status"):
        op.drop_index(f"ix_reports_{column}", "reports")
    op.drop_table("reports")
    op.drop_index("ix_account_tokens_account_id", "account_tokens")
    op.drop_table("account_tokens")
    op.drop_index("ix_accounts_email", "accounts")
    with op.batch_alter_table("accounts") as batch:
        for column in ("muted_until", "banned_at", "moderator", "lang", "email"):
            batch.drop_column(column)
