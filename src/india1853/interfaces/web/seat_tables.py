"""The tables of the seats' rules (migration 0008): a game's chess clock, its absent players'
seats handed to bots, and the requests the players answer (pause, resume, takeback, an absent
seat to a bot).

Every row is read from the database when asked (never kept in a process), so that several
server processes agree: a clock's time left is derived from its stored bank and the moment it
started running, and the action at zero is claimed once by a conditional update
(``clock.py``).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from india1853.interfaces.web.db import metadata
from india1853.rules.game.settings import MAX_NAME_LENGTH

# One row per game that has a clock or an absence time (chosen at creation).
seat_rules = Table(
    "seat_rules",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("clock_bank", Float, nullable=True),  # seconds per player at the start
    Column("clock_increment", Float, nullable=True),  # seconds added as a turn ends
    Column("clock_at_zero", String(8), nullable=True),  # "flag" or "bot"
    Column("zero_bot", String(32), nullable=True),  # the bot that takes a seat at zero
    Column("absent_after", Float, nullable=True),  # seconds without an action: absent
    # The game's count of actions the clocks were last settled for (clock.py).
    Column("settled_at", Integer, nullable=False, default=0),
    Column("paused_since", Float, nullable=True),
)

# One row per human seat of a game with a clock.
seat_clocks = Table(
    "seat_clocks",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(MAX_NAME_LENGTH), primary_key=True),
    Column("bank", Float, nullable=False),  # seconds left when it started running (or now)
    Column("running_since", Float, nullable=True),  # None: stopped
    Column("flagged_at", Float, nullable=True),  # zero reached; its action taken once
)

# A seat a bot plays for the time being (its player hands it over, the clock ran out, or the
# others voted him absent); the player takes it back by deleting the row.
stand_ins = Table(
    "stand_ins",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(MAX_NAME_LENGTH), primary_key=True),
    Column("bot", String(32), nullable=False),
    Column("since", Float, nullable=False),
    Column("reason", String(16), nullable=False),  # "own", "clock", "vote"
)

# A request the other human seats answer: pause, resume, takeback, absent.
consents = Table(
    "consents",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("number", Integer, nullable=False),  # 1, 2, ... within the game: its API id
    Column("kind", String(16), nullable=False),
    Column("asker", String(MAX_NAME_LENGTH), nullable=False),
    Column("subject", JSON, nullable=False),  # takeback: {"to": N}; absent: {"seat", "bot"}
    Column("voters", JSON, nullable=False),  # the human seats asked
    Column("votes", JSON, nullable=False),  # {seat: true (accepts) | false (refuses)}
    Column("status", String(16), nullable=False),  # open, accepted, refused, void
    Column("at_actions", Integer, nullable=False),  # the game's count of actions then
    Column("created_at", Float, nullable=False),
    Column("resolved_at", Float, nullable=True),
    Column("outcome", JSON, nullable=True),  # takeback: the actions taken back (the branch)
    UniqueConstraint("game_id", "number", name="uq_consents_game_number"),
)

Index("ix_consents_game_id", consents.c.game_id)

__all__ = ["consents", "seat_clocks", "seat_rules", "stand_ins"]
