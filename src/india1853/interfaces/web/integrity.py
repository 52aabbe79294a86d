"""The stored log's integrity: every action row is checked before it is replayed.

An action row carries the SHA-256 digest of ``(game id, index, the action's canonical JSON,
the deciding seat)``, written in the transaction that accepts the action.  Before a game is
rebuilt from its rows (a server start, a cache miss, another process's action) every row is
read as raw text and checked: it parses as a JSON object, its ``id`` is its index, the indices
run 1..N with N the game row's count of actions, and its digest matches.  A row that fails is
reported (logged, and the request answered ``500 {"detail": "game ...: the stored log is
corrupted at action N: ..."}``); the game is never replayed from it, so a damaged row can
never silently turn into a different game.  ``india1853 admin check`` runs the same check on
every game.

A row without a digest is damage like a wrong digest (a digest set to NULL would otherwise
let any change through).  Rows written before migration 0002 had none: they are accepted only
when the operator says so (``--accept-undigested`` of ``india1853 admin check``, ``restore``
and ``migrate``; ``migrate`` then computes their digests, after which the server loads the
game), and even then only as the first rows of their game: a row written before digests
cannot follow one written with a digest.  The server itself never accepts one.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Text, cast, select

from india1853.interfaces.web.db import actions

log = logging.getLogger("india1853.web")


class CorruptLog(Exception):
    """A game's stored log that must not be replayed."""

    def __init__(self, game_id: str, index: int, reason: str) -> None:
        self.game_id = game_id
        self.index = index
        self.reason = reason
        super().__init__(f"game {game_id}: the stored log is corrupted at action {index}: "
                         f"{reason}; it is not replayed (restore a backup: india1853 admin "
                         "restore)")


@dataclass(frozen=True)
class Row:
    data: dict[str, Any]
    seat: str | None
    digested: bool = True  # False: accepted without a digest (written before digests)


# (index, the action's JSON text, the deciding seat, the digest) as stored
Stored = tuple[int, str | None, str | None, str | None]


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def row_digest(game_id: str, index: int, data: dict[str, Any], seat: str | None) -> str:
    text = canonical([game_id, index, data, seat])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_rows(conn: Connection, game_id: str, count: int, *,
              accept_undigested: bool = False) -> list[Row]:
    """The game's action rows, checked (CorruptLog on the first bad one)."""
    result = conn.execute(select(actions.c.idx, cast(actions.c.data, Text).label("raw"),
                                 actions.c.seat, actions.c.digest)
                          .where(actions.c.game_id == game_id).order_by(actions.c.idx)).all()
    # More rows than the count read before them: actions committed since (not replayed now;
    # the write path checks the count again under its lock).
    rows = check_rows(game_id, ((r.idx, r.raw, r.seat, r.digest) for r in result[:count]),
                      accept_undigested=accept_undigested)
    if len(rows) < count:
        raise CorruptLog(game_id, len(rows) + 1, f"the game has {count} actions but "
                         f"{len(rows)} rows (rows lost)")
    return rows


def check_rows(game_id: str, stored: Iterable[Stored], *,
               accept_undigested: bool = False) -> list[Row]:
    """Each stored row checked in order (CorruptLog on the first bad one).  With
    ``accept_undigested`` (the operator's word that they predate digests) rows without a
    digest are accepted while no row before them had one."""
    rows: list[Row] = []
    for position, (index, raw, seat, digest) in enumerate(stored, start=1):
        if digest is None and not (accept_undigested and all(not r.digested for r in rows[-1:])):
            reason = ("it has no digest, yet an earlier row of the game has one (a row written "
                      "before digests comes before every digested row)" if accept_undigested
                      else "it has no digest (removed or damaged; a row written before "
                      "digests is accepted only on the operator's word: india1853 admin "
                      "check|migrate|restore --accept-undigested)")
            raise CorruptLog(game_id, position, reason)
        rows.append(check_row(game_id, position, index, raw, seat, digest))
    return rows


def check_row(game_id: str, position: int, index: int, raw: str | None, seat: str | None,
              digest: str | None) -> Row:
    """One row's shape, order and digest (a row without a digest is checked for its shape
    and order only: whether that is allowed is :func:`check_rows`' question)."""
    if index != position:
        raise CorruptLog(game_id, position, f"row index {index} where {position} belongs "
                         "(a row is missing or out of place)")
    try:
        data = json.loads(raw) if raw is not None else None
    except json.JSONDecodeError as exc:
        raise CorruptLog(game_id, position, f"the row is not valid JSON ({exc.msg}, "
                         f"character {exc.pos}: truncated?)") from None
    if not isinstance(data, dict):
        raise CorruptLog(game_id, position, "the row is not a JSON object")
    if data.get("id") != index:
        raise CorruptLog(game_id, position, f"the action's id is {data.get('id')!r}")
    if digest is not None and digest != row_digest(game_id, index, data, seat):
        raise CorruptLog(game_id, position, "its digest does not match its content "
                         "(altered or damaged)")
    return Row(data, seat, digest is not None)


def verify_game(conn: Connection, game_id: str, count: int, *,
                accept_undigested: bool = False) -> tuple[str | None, int]:
    """(None if the game's rows are sound, else the one-line report; the number of rows
    accepted without a digest)."""
    try:
        rows = load_rows(conn, game_id, count, accept_undigested=accept_undigested)
    except CorruptLog as exc:
        return str(exc), 0
    return None, sum(not r.digested for r in rows)
