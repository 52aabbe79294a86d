"""The first schema: games, seats, actions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("engine_version", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("hotseat_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("round", sa.String(32), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("seat", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "idx", name="uq_actions_game_idx"),
    )
    op.create_index("ix_games_created_at", "games", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_games_created_at", "games")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("games")
