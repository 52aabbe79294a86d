"""Who chose each game's seed: "server" (128 bits from the operating system, its SHA-256
published from the start) or "creator" (given with the create or the import).

Games created before this migration keep NULL ("unknown"): their server seeds had 31 bits.
The seed itself stays in ``games.settings`` (JSON: a 128-bit integer is kept exactly on
SQLite and PostgreSQL, tests/web/test_api_seed.py).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_chosen_by", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_chosen_by")
