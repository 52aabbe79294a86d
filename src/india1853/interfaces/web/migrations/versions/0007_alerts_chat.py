"""Turn alerts and chat (issue 22 items 3-4).

``alert_settings``: where a user's turn alerts go (a webhook, an e-mail address) and his quiet
time; keyed by ``owner``, today a seat (``seat:<game>:<name>``, set with the seat's token),
later also an account (``account:<id>``).  ``alert_claims``: one row per owner and game, the
last action after which an alert was sent and when; a conditional UPDATE (or the INSERT of the
first row, under the primary key) claims a send, so that of several server processes exactly
one sends it (alerts.py).  ``chat_messages``: a game's chat, kept with the game (chat.py).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NAME = 64  # settings.MAX_NAME_LENGTH, as the seats table has it


def upgrade() -> None:
    op.create_table(
        "alert_settings",
        sa.Column("owner", sa.String(200), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.String(NAME), nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("webhook", sa.String(2048), nullable=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("quiet_seconds", sa.Integer, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_alert_settings_game", "alert_settings", ["game_id"])
    op.create_index("ix_alert_settings_account", "alert_settings", ["account_id"])
    op.create_table(
        "alert_claims",
        sa.Column("owner", sa.String(200), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("action_idx", sa.Integer, nullable=False),
        sa.Column("sent_at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.String(NAME), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_messages_game", "chat_messages", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_game", "chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("alert_claims")
    op.drop_index("ix_alert_settings_account", "alert_settings")
    op.drop_index("ix_alert_settings_game", "alert_settings")
    op.drop_table("alert_settings")
