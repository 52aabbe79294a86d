"""Requests the other players answer (issue 22 items 5-7): pause and resume the clock, take
the game back to an earlier action, hand an absent seat to a bot.

A request asks every other human seat (a seat a bot plays answers as the bots do: it
accepts); one refusal refuses it, the last acceptance accepts it, and a request nobody is
left to answer is accepted at once.  At most one request of a kind is open in a game.  The
asker may withdraw his request while it is open.  In a game with a chess clock an open
takeback holds every clock (clock.py): it expires unanswered after ``TAKEBACK_SECONDS``, so
that no player stops the clocks for long by asking; the expiry is claimed once across
processes (a conditional update, as the clock's action at zero).  The rows are the record:
the takebacks accepted keep the actions they took back (the undone branch, shown in the
history).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from india1853.interfaces.web.db import Database
from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.seat_tables import consents, seat_rules

KINDS = ("pause", "resume", "takeback", "absent")
SHOWN = 20  # resolved requests listed beside the open ones
# An open takeback holds the chess clocks; unanswered this long it expires and they run again.
TAKEBACK_SECONDS = 600.0


def open_of(conn: Connection, game_id: str, kind: str) -> Any:
    return conn.execute(select(consents).where(consents.c.game_id == game_id)
                        .where(consents.c.kind == kind)
                        .where(consents.c.status == "open")).one_or_none()


def ask(conn: Connection, game_id: str, kind: str, asker: str, subject: dict[str, Any],
        voters: Collection[str], at_actions: int, now: float) -> int:
    """A new open request (409 while one of its kind is open; an open takeback asked before
    the game moved on is void, and replaced); its number in the game (the
    write transaction holds the database's write lock on SQLite; on PostgreSQL two requests
    asked at the same moment in two processes take the same number, and the unique
    constraint refuses the second: seats_api.py answers it 409, ask again)."""
    found = open_of(conn, game_id, kind)
    if found is not None and kind == "takeback" and found.at_actions != at_actions:
        # Asked before the game moved on: it could only be void now; the new one replaces it.
        resolve(conn, game_id, found.number, "void", now,
                {"reason": "the game moved on before every seat had answered"})
    elif found is not None:
        raise ApiError(409, f"kind: a {kind} request is open in this game already; answer "
                            "it first")
    if kind == "takeback" and conn.execute(
            select(consents.c.number).where(consents.c.game_id == game_id)
            .where(consents.c.kind == kind).where(consents.c.asker == asker)
            .where(consents.c.status == "expired")
            .where(consents.c.at_actions == at_actions)).first() is not None:
        # Asked again and again, a takeback would hold the clocks for ever.
        raise ApiError(409, f"kind: {asker}'s takeback at this point of the game expired "
                            "unanswered; ask again once the game has moved on")
    number = 1 + int(conn.execute(select(func.count()).select_from(consents)
                                  .where(consents.c.game_id == game_id)).scalar_one())
    conn.execute(insert(consents).values(
        game_id=game_id, number=number, kind=kind, asker=asker, subject=subject,
        voters=sorted(voters), votes={}, status="open", at_actions=at_actions,
        created_at=now))
    return number


def get(conn: Connection, game_id: str, request_id: int, *, for_update: bool = False) -> Any:
    query = select(consents).where(consents.c.number == request_id) \
        .where(consents.c.game_id == game_id)
    if for_update:
        query = query.with_for_update()
    row = conn.execute(query).one_or_none()
    if row is None:
        raise ApiError(404, f"request: no request {request_id} in this game")
    return row


def vote(conn: Connection, row: Any, seats: Collection[str], accept: bool) -> str:
    """Record the answer of ``seats`` (the token's voters among them); the request's status
    after it: "refused" on a refusal, "accepted" once every voter accepted, else "open"."""
    if row.status != "open":
        raise ApiError(409, f"request: request {row.number} is {row.status} already")
    mine = [s for s in seats if s in row.voters]
    if not mine:
        raise ApiError(403, f"request: request {row.number} does not ask this token's seat "
                            f"(it asks {', '.join(row.voters) or 'nobody'})")
    votes = {**row.votes, **{s: accept for s in mine}}
    status = "refused" if not accept else (
        "accepted" if all(votes.get(v) for v in row.voters) else "open")
    conn.execute(update(consents).where(consents.c.id == row.id).values(votes=votes))
    return status


def withdraw(conn: Connection, row: Any, seats: Collection[str]) -> None:
    """The asker's open request withdrawn (403 for another seat's, 409 once resolved)."""
    if row.asker not in seats:
        raise ApiError(403, f"request: request {row.number} was asked by {row.asker}; only "
                            "its asker withdraws it")
    if row.status != "open":
        raise ApiError(409, f"request: request {row.number} is {row.status} already")


def expire(db: Database, now: float, game_id: str | None = None) -> list[tuple[str, int, float]]:
    """Claim every open takeback of a game with a clock left unanswered for
    ``TAKEBACK_SECONDS`` by ``now`` (of one game, or of all), each by one process (its status
    changed only where still open): the game, its count of actions when asked, and the moment
    it expired (the clocks run again from then)."""
    due = (consents.c.kind == "takeback") & (consents.c.status == "open") \
        & (consents.c.created_at + TAKEBACK_SECONDS <= now)
    query = (select(consents.c.id, consents.c.game_id, consents.c.at_actions,
                    consents.c.created_at)
             .join(seat_rules, seat_rules.c.game_id == consents.c.game_id)
             .where(due).where(seat_rules.c.clock_bank.is_not(None)))
    if game_id is not None:
        query = query.where(consents.c.game_id == game_id)
    with db.read() as conn:
        rows = conn.execute(query).all()
    claimed: list[tuple[str, int, float]] = []
    for row in rows:
        at = row.created_at + TAKEBACK_SECONDS
        with db.write() as conn:
            done = conn.execute(update(consents).where(consents.c.id == row.id).where(due)
                                .values(status="expired", resolved_at=at, outcome={
                                    "reason": f"unanswered for {TAKEBACK_SECONDS:g} s"}))
        if done.rowcount == 1:
            claimed.append((row.game_id, row.at_actions, at))
    return claimed


def resolve(conn: Connection, game_id: str, number: int, status: str, now: float,
            outcome: dict[str, Any] | None = None) -> None:
    conn.execute(update(consents).where(consents.c.game_id == game_id)
                 .where(consents.c.number == number).values(
        status=status, resolved_at=now, outcome=outcome))


def _public(row: Any) -> dict[str, Any]:
    return {"id": row.number, "kind": row.kind, "asker": row.asker,
            "subject": _plain(row.subject), "voters": list(row.voters),
            "votes": dict(row.votes), "status": row.status, "at_actions": row.at_actions,
            "created_at": row.created_at, "resolved_at": row.resolved_at,
            "outcome": _plain(row.outcome)}


def _plain(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def describe(conn: Connection, game_id: str) -> dict[str, Any]:
    """The open requests, the latest resolved ones, and every takeback accepted (the undone
    branches).  Only what the table saw: who asked what, who answered how."""
    rows = conn.execute(select(consents).where(consents.c.game_id == game_id)
                        .order_by(consents.c.number.desc())).all()
    opened = [_public(r) for r in rows if r.status == "open"]
    resolved = [_public(r) for r in rows if r.status != "open"][:SHOWN]
    branches = [_public(r) for r in reversed(rows)
                if r.kind == "takeback" and r.status == "accepted"]
    return {"open": opened, "resolved": resolved, "branches": branches}


__all__ = ["KINDS", "TAKEBACK_SECONDS", "ask", "describe", "expire", "get", "open_of",
           "resolve", "vote", "withdraw"]
