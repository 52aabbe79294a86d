"""Operators' tasks on the web server's database: backup, restore, migrate, check.

A backup is one JSON file, independent of the database engine (so it also moves games from
SQLite to PostgreSQL): ``{"format": "india1853-backup", "version": 1, "games": [...]}``, each
game's row (``actions`` its count of actions), ``seats`` (token digests only: the players'
links keep working after a restore), ``rows``, its actions with their integrity digests, and
``chat``, its chat messages (seat, text, time; none in a backup from before the chat).
It is read in one transaction (a consistent snapshot while the server runs) and written to a
temporary file renamed at the end.  A restore checks every game's rows (integrity.py) before
it writes anything, refuses a game id the database already holds, and writes all games in one
transaction.

A row without a digest is damage (integrity.py) unless the operator accepts rows written
before digests (``accept_undigested``): ``check`` then counts them instead, ``restore`` writes
them with their digests computed, and ``seal`` (``india1853 admin migrate
--accept-undigested``) computes the digests of those already in the database.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from india1853.errors import InputError
from india1853.interfaces.web.db import Database, actions, chat_messages, games, seats
from india1853.interfaces.web.integrity import (
    CorruptLog,
    check_rows,
    load_rows,
    row_digest,
    verify_game,
)

FORMAT = "india1853-backup"
VERSION = 1
GAME_FIELDS = ("id", "engine_version", "settings", "hotseat_hash", "created_at", "updated_at",
               "actions", "round", "finished")
# Fields a backup may lack (written by a server before they existed): who chose the seed
# (migration 0003; None: unknown).
OPTIONAL_GAME_FIELDS = ("seed_chosen_by",)
SEED_CHOOSERS = (None, "server", "creator")
SEAT_FIELDS = ("position", "name", "bot", "token_hash")
ACTION_FIELDS = ("idx", "data", "seat", "created_at", "digest")
# A game's chat (migration 0007), the oldest first; a backup without it: no chat.
CHAT_FIELDS = ("seat", "text", "created_at")


@contextmanager
def _snapshot(db: Database) -> Iterator[Connection]:
    with db.read() as conn:
        if not db.sqlite:  # one consistent view of every table while the server writes
            conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield conn


def backup(db: Database, path: Path) -> int:
    """Write every game to ``path``; the number of games."""
    with _snapshot(db) as conn:
        game_rows = conn.execute(select(games).order_by(games.c.created_at)).mappings().all()
        out: list[dict[str, Any]] = []
        for g in game_rows:
            seat_rows = conn.execute(select(seats).where(seats.c.game_id == g["id"])
                                     .order_by(seats.c.position)).mappings().all()
            action_rows = conn.execute(select(actions).where(actions.c.game_id == g["id"])
                                       .order_by(actions.c.idx)).mappings().all()
            chat_rows = conn.execute(select(chat_messages)
                                     .where(chat_messages.c.game_id == g["id"])
                                     .order_by(chat_messages.c.id)).mappings().all()
            out.append({**{k: g[k] for k in (*GAME_FIELDS, *OPTIONAL_GAME_FIELDS)},
                        "seats": [{k: s[k] for k in SEAT_FIELDS} for s in seat_rows],
                        "rows": [{k: a[k] for k in ACTION_FIELDS} for a in action_rows],
                        "chat": [{k: m[k] for k in CHAT_FIELDS} for m in chat_rows]})
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"format": FORMAT, "version": VERSION, "games": out}, f,
                      ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"backup: cannot write {str(path)!r}: {exc.strerror or exc}") from None
    return len(out)


def _read_backup(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"restore: cannot read {str(path)!r}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"restore: {str(path)!r} is not a JSON backup ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"restore: {str(path)!r} is not an india1853 backup (format)")
    if data.get("version") != VERSION:
        raise InputError(f"restore: backup version {data.get('version')!r} is not {VERSION}")
    found = data.get("games")
    if not isinstance(found, list) or not all(isinstance(g, dict) for g in found):
        raise InputError("restore: games: must be a list of objects")
    return found


def _checked(i: int, game: dict[str, Any], accept_undigested: bool) -> dict[str, Any]:
    """The game as the tables take it; InputError naming the first bad field or row."""
    where = f"restore: games[{i}]"
    missing = [k for k in (*GAME_FIELDS, "seats", "rows") if k not in game]
    if missing:
        raise InputError(f"{where}: missing {', '.join(missing)}")
    if not isinstance(game["id"], str) or not game["id"]:
        raise InputError(f"{where}.id: must be a game id")
    for key in ("seats", "rows"):
        if not isinstance(game[key], list) or not all(isinstance(r, dict) for r in game[key]):
            raise InputError(f"{where}.{key}: must be a list of objects")
    if game.get("seed_chosen_by") not in SEED_CHOOSERS:
        raise InputError(f"{where}.seed_chosen_by: must be \"server\", \"creator\" or null")
    if game["actions"] != len(game["rows"]):
        raise InputError(f"{where}.actions: {game['actions']!r} but {len(game['rows'])} rows")
    for j, seat in enumerate(game["seats"]):
        missing = [k for k in SEAT_FIELDS if k not in seat]
        if missing:
            raise InputError(f"{where}.seats[{j}]: missing {', '.join(missing)}")
    for position, row in enumerate(game["rows"], start=1):
        missing = [k for k in ACTION_FIELDS if k not in row]
        if missing:
            raise InputError(f"{where}.rows[{position - 1}]: missing {', '.join(missing)}")
    chat = game.get("chat", [])
    if not isinstance(chat, list) or not all(
            isinstance(m, dict) and isinstance(m.get("seat"), str)
            and isinstance(m.get("text"), str)
            and isinstance(m.get("created_at"), int | float) for m in chat):
        raise InputError(f"{where}.chat: must be a list of {{seat, text, created_at}}")
    try:
        checked = check_rows(game["id"], ((r["idx"], json.dumps(r["data"]), r["seat"],
                                           r["digest"]) for r in game["rows"]),
                             accept_undigested=accept_undigested)
    except CorruptLog as exc:
        raise InputError(f"{where}: {exc}") from None
    # Rows accepted without a digest (the operator's word) are written with one.
    rows = [r if c.digested else {**r, "digest": row_digest(game["id"], r["idx"], c.data,
                                                             c.seat)}
            for r, c in zip(game["rows"], checked, strict=True)]
    return {**game, "rows": rows}


def restore(db: Database, path: Path, *, accept_undigested: bool = False) -> int:
    """Write every game of the backup at ``path`` into the database; the number of games.
    ``accept_undigested``: rows without a digest (a backup of rows written before digests)
    are accepted, and written with their digests."""
    found = [_checked(i, g, accept_undigested) for i, g in enumerate(_read_backup(path))]
    ids = [g["id"] for g in found]
    if len(set(ids)) != len(ids):
        raise InputError("restore: the backup holds a game id twice")
    with db.write() as conn:
        for chunk in range(0, len(ids), 500):
            present = conn.execute(select(games.c.id).where(
                games.c.id.in_(ids[chunk:chunk + 500]))).scalars().first()
            if present is not None:
                raise InputError(f"restore: game {present} is already in the database "
                                 "(restore into an empty database)")
        for g in found:
            conn.execute(insert(games).values(**{k: g[k] for k in GAME_FIELDS},
                                              **{k: g.get(k) for k in OPTIONAL_GAME_FIELDS}))
            if g["seats"]:
                conn.execute(insert(seats), [{"game_id": g["id"], **{k: s[k] for k in
                                                                     SEAT_FIELDS}}
                                             for s in g["seats"]])
            if g["rows"]:
                conn.execute(insert(actions), [{"game_id": g["id"], **{k: r[k] for k in
                                                                       ACTION_FIELDS}}
                                               for r in g["rows"]])
            if g.get("chat"):
                conn.execute(insert(chat_messages), [{"game_id": g["id"], **{
                    k: m[k] for k in CHAT_FIELDS}} for m in g["chat"]])
    return len(found)


def check(db: Database, *, accept_undigested: bool = False) -> tuple[int, list[str], int]:
    """Every game's rows checked: the number of games, one line per damaged game, and the
    number of rows accepted without a digest (``accept_undigested`` only)."""
    with _snapshot(db) as conn:
        rows = conn.execute(select(games.c.id, games.c.actions)).all()
        found = [verify_game(conn, r.id, int(r.actions), accept_undigested=accept_undigested)
                 for r in rows]
    return len(rows), [p for p, _n in found if p], sum(n for _p, n in found)


def seal(db: Database) -> tuple[int, list[str]]:
    """The operator's word that the rows without a digest were written before digests: each
    gets its digest (one transaction).  The number of rows sealed, and one line per damaged
    game (left as it is)."""
    sealed = 0
    problems: list[str] = []
    with db.write() as conn:
        for game in conn.execute(select(games.c.id, games.c.actions)).all():
            try:
                rows = load_rows(conn, game.id, int(game.actions), accept_undigested=True)
            except CorruptLog as exc:
                problems.append(str(exc))
                continue
            for index, row in enumerate(rows, start=1):
                if row.digested:
                    break  # undigested rows come first (check_rows)
                conn.execute(update(actions).where(actions.c.game_id == game.id)
                             .where(actions.c.idx == index).where(actions.c.digest.is_(None))
                             .values(digest=row_digest(game.id, index, row.data, row.seat)))
                sealed += 1
    return sealed, problems


def count_games(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(games)).scalar_one())
