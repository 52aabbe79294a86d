"""What a backup holds beside the games' logs: the tables of online play, each row's fields
read from a snapshot, and checked field by field before a restore writes them.

A backup keeps everything a running server holds for its games and players except what must
never leave it or lives only minutes: sessions (a player signs in again) and stream tickets.
Beside each game's row, seats and actions (admin.py) it keeps, per game, its chat, its seats'
rules (``seat_rules``: the clock's settings and the absence time), its clocks (each seat's
bank), its stand-ins (seats bots play for the time being) and its requests (``consents``:
pauses, votes, takebacks open and decided, with the branch each takeback took back); and,
for the whole server, the accounts (name, argon2 hash, creation time: a password is never
stored, so never in a backup), the games created with open seats (``seatings``, started or
waiting for players, with each seat's account or guest token digest: the links between
accounts and seats), the alert settings and the alert claims (which action was last alerted:
no alert goes twice after a restore).

The fields of a row are its table's columns (``Part``): a column added later is kept by every
backup written after it, and a backup written before it restores with the column empty when
it may be empty (null); a non-null column missing is an error naming the field.  Every value
is checked against its column's type before anything is written, so a bad backup is refused
with one line naming the field (``restore: games[0].clocks[1].bank: must be a number``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    Float,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
)

from india1853.errors import InputError
from india1853.interfaces.web.db import (
    accounts,
    actions,
    alert_claims,
    alert_settings,
    chat_messages,
    games,
    seating_seats,
    seatings,
    seats,
)
from india1853.interfaces.web.seat_tables import consents, seat_clocks, seat_rules, stand_ins


@dataclass(frozen=True)
class Part:
    """One table in a backup: under ``key``, its rows without ``parent`` (the game's or the
    seating's id, given by where the rows sit) and without ``skip`` (surrogate keys and
    derived columns), in ``order``; ``one``: a single row or null."""

    key: str
    table: Table
    parent: str | None = None
    order: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    one: bool = False

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.table.columns
                     if c.name != self.parent and c.name not in self.skip)

    @property
    def required(self) -> tuple[str, ...]:
        """The fields every row must have (a backup older than a nullable column lacks it)."""
        return tuple(k for k in self.fields if not self.table.c[k].nullable)


# A game's parts (admin.py keeps "seats" and "rows" as before, checked by integrity.py too).
GAME_ROW = Part("games", games, order=("created_at",))
GAME_PARTS = (
    Part("seats", seats, "game_id", ("position",)),
    Part("rows", actions, "game_id", ("idx",)),
    Part("chat", chat_messages, "game_id", ("id",), skip=("id",)),
    Part("seat_rules", seat_rules, "game_id", one=True),
    Part("clocks", seat_clocks, "game_id", ("seat",)),
    Part("stand_ins", stand_ins, "game_id", ("seat",)),
    Part("consents", consents, "game_id", ("number",), skip=("id",)),
)
ACCOUNTS = Part("accounts", accounts, order=("id",), skip=("name_key",))
SEATINGS = Part("seatings", seatings, order=("created_at",))
SEATING_SEATS = Part("seats", seating_seats, "seating_id", ("position",))
ALERT_SETTINGS = Part("alert_settings", alert_settings, order=("owner",))
ALERT_CLAIMS = Part("alert_claims", alert_claims, order=("owner", "game_id"))


def rows_of(conn: Connection, part: Part) -> list[dict[str, Any]]:
    """Every row of the part's table, as a backup keeps it (with its parent's id)."""
    table = part.table
    keys = ([table.c[part.parent]] if part.parent else []) + [table.c[k] for k in part.order]
    kept = (*part.fields, *((part.parent,) if part.parent else ()))
    return [{k: r[k] for k in kept}
            for r in conn.execute(select(table).order_by(*keys)).mappings()]


def by_parent(conn: Connection, part: Part) -> dict[str, list[dict[str, Any]]]:
    """The part's rows grouped by their parent's id, without it."""
    assert part.parent is not None
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows_of(conn, part):
        out.setdefault(row.pop(part.parent), []).append(row)
    return out


def _what(table: Table, key: str) -> tuple[str, Any]:
    kind = table.c[key].type
    if isinstance(kind, Boolean):
        return "true or false", lambda v: isinstance(v, bool)
    if isinstance(kind, Integer):
        return "a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool)
    if isinstance(kind, Float):
        return "a number", lambda v: (isinstance(v, int | float) and not isinstance(v, bool)
                                      and math.isfinite(v))
    if isinstance(kind, String | Text):
        length = getattr(kind, "length", None)
        what = f"a string of at most {length} characters" if length else "a string"
        return what, lambda v: isinstance(v, str) and (length is None or len(v) <= length)
    assert isinstance(kind, JSON), f"{table.name}.{key}: a column type a backup cannot check"
    return "JSON", lambda v: True


def checked_row(where: str, row: object, part: Part) -> dict[str, Any]:
    """The row with every field of the part (missing nullable ones null), or InputError
    naming the first missing or wrong field."""
    if not isinstance(row, dict):
        raise InputError(f"{where}: must be an object")
    missing = [k for k in part.required if k not in row]
    if missing:
        raise InputError(f"{where}: missing {', '.join(missing)}")
    out: dict[str, Any] = {}
    for key in part.fields:
        value = row.get(key)
        if value is None:
            if key in part.required:
                raise InputError(f"{where}.{key}: must not be null")
        else:
            what, fits = _what(part.table, key)
            if not fits(value):
                raise InputError(f"{where}.{key}: must be {what}")
        out[key] = value
    return out


def checked_rows(where: str, found: object, part: Part) -> list[dict[str, Any]]:
    """A list of the part's rows (absent: none, a backup from before the table)."""
    if found is None:
        return []
    if not isinstance(found, list):
        raise InputError(f"{where}: must be a list of objects")
    return [checked_row(f"{where}[{j}]", r, part) for j, r in enumerate(found)]


def checked_game_parts(where: str, game: Mapping[str, Any]) -> dict[str, Any]:
    """A game's parts beyond its seats and rows, checked (absent: none)."""
    out: dict[str, Any] = {}
    for part in GAME_PARTS[2:]:
        found = game.get(part.key)
        if part.one:
            out[part.key] = (None if found is None
                             else checked_row(f"{where}.{part.key}", found, part))
        else:
            out[part.key] = checked_rows(f"{where}.{part.key}", found, part)
    return out


def insert_rows(conn: Connection, part: Part, parent: str | None,
                rows: Iterable[Mapping[str, Any]]) -> None:
    """Write rows of the part under ``parent`` (the game's or the seating's id)."""
    values = [{**({part.parent: parent} if part.parent else {}),
               **{k: r.get(k) for k in part.fields}} for r in rows]
    if values:
        conn.execute(insert(part.table), values)


__all__ = ["ACCOUNTS", "ALERT_CLAIMS", "ALERT_SETTINGS", "GAME_PARTS", "GAME_ROW", "SEATINGS",
           "SEATING_SEATS", "Part", "by_parent", "checked_game_parts", "checked_row",
           "checked_rows", "insert_rows", "rows_of"]
