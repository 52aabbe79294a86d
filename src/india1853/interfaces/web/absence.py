"""Absent players (issue 22 item 7): a seat a bot plays for the time being.

A player hands his own seat to a bot (random, greedy or strong: interfaces/bots) and takes it
back; the chess clock hands it over at zero when the creator chose so (clock.py); and the
other players may vote a seat over to a bot once it has been absent - deciding now, and no
action in the game for the time the creator set (consent.py carries the vote).  The row is
read from the database by the bots' turn (store.py asks ``bots_of`` before each bot move),
so every server process plays the same seats.

While a bot plays a seat, the seat's human may not act for it (store.py refuses the action,
409, saying how to take the seat back): the bot may be thinking its move at that moment, and
the table sees the player come back before his moves, as at a real table.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select

from india1853.interfaces.web.db import Database, games
from india1853.interfaces.web.seat_tables import stand_ins

REASONS = {"own": "handed over by its player", "clock": "its clock ran out",
           "vote": "voted absent by the other players",
           "left": "its player deleted his account"}


_BOTS_OF = (select(stand_ins.c.seat, stand_ins.c.bot)
            .where(stand_ins.c.game_id == bindparam("game_id")).order_by(stand_ins.c.seat))


def bots_of(db: Database, game_id: str) -> dict[str, str]:
    """The seats bots play for the time being, and each one's bot (asked before every
    action: one small read, db.py)."""
    return {seat: bot for seat, bot in db.rows(_BOTS_OF, game_id=game_id)}


def why(db: Database, game_id: str, seat: str) -> str:
    """Why a bot plays the seat now, in words ("" if none does)."""
    with db.read() as conn:
        reason = conn.execute(select(stand_ins.c.reason).where(stand_ins.c.game_id == game_id)
                              .where(stand_ins.c.seat == seat)).scalar_one_or_none()
    return "" if reason is None else REASONS.get(reason, reason)


def unfinished_games(db: Database) -> list[str]:
    """The unfinished games with a seat a bot plays for the time being (woken at start)."""
    with db.read() as conn:
        return list(conn.execute(
            select(stand_ins.c.game_id).distinct()
            .where(stand_ins.c.game_id.in_(select(games.c.id)
                                           .where(games.c.finished.is_(False))))).scalars())


def hand_over(conn: Connection, game_id: str, seat: str, bot: str, reason: str,
              now: float) -> None:
    conn.execute(delete(stand_ins).where(stand_ins.c.game_id == game_id)
                 .where(stand_ins.c.seat == seat))
    conn.execute(insert(stand_ins).values(game_id=game_id, seat=seat, bot=bot, since=now,
                                          reason=reason))


def take_back(conn: Connection, game_id: str, seat: str) -> bool:
    """The seat its player's again; False if no bot played it."""
    done = conn.execute(delete(stand_ins).where(stand_ins.c.game_id == game_id)
                        .where(stand_ins.c.seat == seat))
    return bool(done.rowcount)


def describe(conn: Connection, game_id: str) -> dict[str, Any]:
    """The seats bots play now (public: who plays a seat is no secret)."""
    return {r.seat: {"bot": r.bot, "since": r.since, "reason": r.reason,
                     "why": REASONS.get(r.reason, r.reason)}
            for r in conn.execute(select(stand_ins).where(stand_ins.c.game_id == game_id)
                                  .order_by(stand_ins.c.seat)).all()}


__all__ = ["REASONS", "bots_of", "describe", "hand_over", "take_back", "unfinished_games",
           "why"]
