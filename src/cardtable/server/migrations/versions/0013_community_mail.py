"""Notices by email: ``notice_mail`` (server/community/models.py), one row per account
and kind of notice the player also wants by email (nobody so far). Rows go with their
account.

Revision ID: 0013
Revises: 0011
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``notice_mail``."""
    op.create_table(
        "notice_mail",
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sa.Column("kind", sa.String(32), primary_key=True, nullable=False),
    )


def downgrade() -> None:
    """Drop ``notice_mail``."""
    op.drop_table("notice_mail")
