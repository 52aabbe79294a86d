"""Each action row's digest (integrity.py): a corrupted or altered row is detected at replay.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows written before this migration keep NULL: damage to the server, until the operator
    # gives them their digests (india1853 admin migrate --accept-undigested; integrity.py).
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("digest", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("digest")
