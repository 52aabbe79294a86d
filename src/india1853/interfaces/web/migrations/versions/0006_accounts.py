"""Accounts and open seats (issue 22 items 1-2): accounts (a name, an argon2 password hash),
their sessions (the SHA-256 of each), and the games created with open seats (``seatings``)
with each seat: taken by a guest (its token's SHA-256) or an account, or a bot, or open.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_account_sessions_expires_at", "account_sessions", ["expires_at"])
    op.create_table(
        "seatings",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("creator", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
    )
    op.create_index("ix_seatings_started_at", "seatings", ["started_at"])
    op.create_table(
        "seating_seats",
        sa.Column("seating_id", sa.String(32), sa.ForeignKey("seatings.id"),
                  primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.Float, nullable=True),
    )
    op.create_index("ix_seating_seats_account_id", "seating_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seating_seats_account_id", "seating_seats")
    op.drop_table("seating_seats")
    op.drop_index("ix_seatings_started_at", "seatings")
    op.drop_table("seatings")
    op.drop_index("ix_account_sessions_expires_at", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
