"""Whether a game's creator enabled hints (issue 23): the strong bot's advice for the seat that
asks.  Off by default in a game between humans; a game with a bot seat has them whatever this
says.  Games created before this migration keep NULL (off).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hints")
