"""Stream tickets (tickets.py): a seat's event stream opens with a single-use ticket, so
that no token is written in a URL; a ticket is a row, so any server process redeems it.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stream_tickets",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_stream_tickets_expires_at", "stream_tickets", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_stream_tickets_expires_at", "stream_tickets")
    op.drop_table("stream_tickets")
