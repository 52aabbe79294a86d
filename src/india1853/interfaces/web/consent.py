"""Requests the other players answer (issue 22 items 5-7): pause and resume the clock, take
the game back to an earlier action, hand an absent seat to a bot.

A request asks every other human seat (a seat a bot plays answers as the bots do: it
accepts); one refusal refuses it, the last acceptance accepts it, and a request nobody is
left to answer is accepted at once.  At most one request of a kind is open in a game.  The
rows are the record: the takebacks accepted keep the actions they took back (the undone
branch, shown in the history).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.seat_tables import consents

KINDS = ("pause", "resume", "takeback", "absent")
SHOWN = 20  # resolved requests listed beside the open ones


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


__all__ = ["KINDS", "ask", "describe", "get", "open_of", "resolve", "vote"]
