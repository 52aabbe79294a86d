"""The seats' rules (issue 22 items 5-7): a chess clock per game, absent players' seats
handed to bots, and the requests the players answer (pause, resume, takeback, an absent seat
to a bot).  Four new tables; nothing else changes (seat_tables.py).

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

NAME = 64  # rules/game/settings.py MAX_NAME_LENGTH when this migration was written


def upgrade() -> None:
    op.create_table(
        "seat_rules",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("clock_bank", sa.Float, nullable=True),
        sa.Column("clock_increment", sa.Float, nullable=True),
        sa.Column("clock_at_zero", sa.String(8), nullable=True),
        sa.Column("zero_bot", sa.String(32), nullable=True),
        sa.Column("absent_after", sa.Float, nullable=True),
        sa.Column("settled_at", sa.Integer, nullable=False, server_default="0"),
        sa.Column("paused_since", sa.Float, nullable=True),
    )
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.String(NAME), primary_key=True),
        sa.Column("bank", sa.Float, nullable=False),
        sa.Column("running_since", sa.Float, nullable=True),
        sa.Column("flagged_at", sa.Float, nullable=True),
    )
    op.create_table(
        "stand_ins",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.String(NAME), primary_key=True),
        sa.Column("bot", sa.String(32), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
    )
    op.create_table(
        "consents",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("asker", sa.String(NAME), nullable=False),
        sa.Column("subject", sa.JSON, nullable=False),
        sa.Column("voters", sa.JSON, nullable=False),
        sa.Column("votes", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("at_actions", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("resolved_at", sa.Float, nullable=True),
        sa.Column("outcome", sa.JSON, nullable=True),
        sa.UniqueConstraint("game_id", "number", name="uq_consents_game_number"),
    )
    op.create_index("ix_consents_game_id", "consents", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_consents_game_id", "consents")
    for table in ("consents", "stand_ins", "seat_clocks", "seat_rules"):
        op.drop_table(table)
