"""Operators' tasks on the web server's database: backup, restore, migrate, check.

A backup is one JSON file, independent of the database engine (so it also moves games from
SQLite to PostgreSQL): ``{"format": "india1853-backup", "version": 2, "games": [...],
"accounts": [...], "seatings": [...], "alert_settings": [...], "alert_claims": [...]}``.  Each
game: its row (``actions`` its count of actions), ``seats`` (token digests only: the players'
links keep working after a restore), ``rows``, its actions with their integrity digests,
``chat``, and its seats' rules, clocks, stand-ins and requests (backup.py says what each
holds).  It is read in one transaction (a consistent snapshot while the server runs) and
written to a temporary file renamed at the end.  A restore checks every field and every
game's rows (integrity.py) before it writes anything, refuses a game id or an account name
the database already holds, and writes everything in one transaction.  A backup of version
1 (the games alone, from before accounts) restores as it did.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from india1853.errors import InputError
from india1853.interfaces.web.accounts import name_key
from india1853.interfaces.web.alerts import account_owner, seat_owner
from india1853.interfaces.web.backup import (
    ACCOUNTS,
    ALERT_CLAIMS,
    ALERT_SETTINGS,
    GAME_PARTS,
    GAME_ROW,
    SEATING_SEATS,
    SEATINGS,
    by_parent,
    checked_game_parts,
    checked_row,
    checked_rows,
    insert_rows,
    rows_of,
)
from india1853.interfaces.web.db import (
    Database,
    accounts,
    actions,
    games,
    seating_seats,
    seatings,
    seats,
)
from india1853.interfaces.web.integrity import (
    CorruptLog,
    check_rows,
    load_rows,
    row_digest,
    verify_game,
)
from india1853.interfaces.web.seat_tables import seat_clocks, stand_ins

FORMAT = "india1853-backup"
VERSION = 2
READABLE = (1, 2)  # version 1: the games alone (before the tables of online play)
SEED_CHOOSERS = (None, "server", "creator")
ACTION_FIELDS = ("idx", "data", "seat", "created_at", "digest")
SEATS = GAME_PARTS[0]


@dataclass(frozen=True)
class Counts:
    """What a backup wrote or a restore brought back."""

    games: int
    accounts: int = 0
    waiting: int = 0  # games waiting for players

    def besides(self) -> str:
        return f"{self.accounts} accounts, {self.waiting} games waiting for players"


@contextmanager
def _snapshot(db: Database) -> Iterator[Connection]:
    with db.read() as conn:
        if not db.sqlite:  # one consistent view of every table while the server writes
            conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield conn


def backup(db: Database, path: Path) -> Counts:
    """Write every game, account, game waiting for players and alert setting to ``path``."""
    with _snapshot(db) as conn:
        parts = {p.key: by_parent(conn, p) for p in GAME_PARTS}
        out: list[dict[str, Any]] = []
        for g in rows_of(conn, GAME_ROW):
            game: dict[str, Any] = dict(g)
            for p in GAME_PARTS:
                found = parts[p.key].get(g["id"], [])
                game[p.key] = (found[0] if found else None) if p.one else found
            out.append(game)
        seated = by_parent(conn, SEATING_SEATS)
        waiting = [{**s, "seats": seated.get(s["id"], [])} for s in rows_of(conn, SEATINGS)]
        people = rows_of(conn, ACCOUNTS)
        data = {"format": FORMAT, "version": VERSION, "games": out,
                "accounts": people, "seatings": waiting,
                "alert_settings": rows_of(conn, ALERT_SETTINGS),
                "alert_claims": rows_of(conn, ALERT_CLAIMS)}
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"backup: cannot write {str(path)!r}: {exc.strerror or exc}") from None
    return Counts(len(out), len(people),
                  sum(s["started_at"] is None for s in waiting))


def _read_backup(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"restore: cannot read {str(path)!r}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"restore: {str(path)!r} is not a JSON backup ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"restore: {str(path)!r} is not an india1853 backup (format)")
    if data.get("version") not in READABLE:
        raise InputError(f"restore: backup version {data.get('version')!r} is not one of "
                         f"{', '.join(map(str, READABLE))}")
    found = data.get("games")
    if not isinstance(found, list) or not all(isinstance(g, dict) for g in found):
        raise InputError("restore: games: must be a list of objects")
    return data


def _checked(i: int, game: dict[str, Any], accept_undigested: bool) -> dict[str, Any]:
    """The game as the tables take it; InputError naming the first bad field or row."""
    where = f"restore: games[{i}]"
    missing = [k for k in (*GAME_ROW.required, "seats", "rows") if k not in game]
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
    for position, row in enumerate(game["rows"], start=1):
        missing = [k for k in ACTION_FIELDS if k not in row]
        if missing:
            raise InputError(f"{where}.rows[{position - 1}]: missing {', '.join(missing)}")
    row = checked_row(where, game, GAME_ROW)
    seat_rows = checked_rows(f"{where}.seats", game["seats"], SEATS)
    extra = checked_game_parts(where, game)
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
    return {**row, "seats": seat_rows, "rows": rows, **extra}


def _checked_accounts(found: object) -> list[dict[str, Any]]:
    people = checked_rows("restore: accounts", found, ACCOUNTS)
    keys: set[str] = set()
    ids: set[int] = set()
    for j, a in enumerate(people):
        where = f"restore: accounts[{j}]"
        if not a["password_hash"].startswith("$argon2"):
            raise InputError(f"{where}.password_hash: not an argon2 hash (a backup holds "
                             "password hashes, never a password)")
        key = name_key(a["name"])
        if key in keys:
            raise InputError(f"{where}.name: {a['name']!r} twice in the backup")
        if a["id"] in ids:
            raise InputError(f"{where}.id: {a['id']} twice in the backup")
        keys.add(key)
        ids.add(a["id"])
    return people


def _checked_seatings(found: object, game_ids: set[str],
                      account_ids: set[int]) -> list[dict[str, Any]]:
    """The games created with open seats: those started must be games of the backup, those
    waiting must not; each seat's account one of the backup's."""
    if found is None:
        return []
    if not isinstance(found, list):
        raise InputError("restore: seatings: must be a list of objects")
    out = []
    for j, s in enumerate(found):
        where = f"restore: seatings[{j}]"
        row = checked_row(where, s, SEATINGS)
        seated = checked_rows(f"{where}.seats", s.get("seats"), SEATING_SEATS)
        if not seated or not 0 <= row["creator"] < len(seated):
            raise InputError(f"{where}.creator: {row['creator']} is not one of its "
                             f"{len(seated)} seats")
        if (row["started_at"] is not None) != (row["id"] in game_ids):
            raise InputError(f"{where}.started_at: game {row['id']} is "
                             + ("not in the backup" if row["started_at"] is not None
                                else "in the backup, yet the seating waits for players"))
        for k, seat in enumerate(seated):
            if seat["account_id"] is not None and seat["account_id"] not in account_ids:
                raise InputError(f"{where}.seats[{k}].account_id: no account "
                                 f"{seat['account_id']} in the backup")
        out.append({**row, "seats": seated})
    return out


def _account_of(owner: str) -> int | None:
    """The account id of an ``account:<id>`` owner (alerts.py), None for a seat's."""
    kind, _, rest = owner.partition(":")
    return int(rest) if kind == "account" and rest.isdigit() else None


def _checked_alerts(data: dict[str, Any], game_ids: set[str], account_ids: set[int]
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    settings = checked_rows("restore: alert_settings", data.get("alert_settings"),
                            ALERT_SETTINGS)
    for j, a in enumerate(settings):
        where = f"restore: alert_settings[{j}]"
        if a["account_id"] is not None:
            if a["account_id"] not in account_ids:
                raise InputError(f"{where}.account_id: no account {a['account_id']} in the "
                                 "backup")
            expected = account_owner(a["account_id"])
        elif a["game_id"] in game_ids and a["seat"] is not None:
            expected = seat_owner(a["game_id"], a["seat"])
        else:
            raise InputError(f"{where}.game_id: a seat's alerts need a game of the backup "
                             "and a seat")
        if a["owner"] != expected:
            raise InputError(f"{where}.owner: {a['owner']!r} is not {expected!r}")
    claims = checked_rows("restore: alert_claims", data.get("alert_claims"), ALERT_CLAIMS)
    for j, c in enumerate(claims):
        where = f"restore: alert_claims[{j}]"
        if c["game_id"] not in game_ids:
            raise InputError(f"{where}.game_id: game {c['game_id']} is not in the backup")
        account = _account_of(c["owner"])
        if account is not None and account not in account_ids:
            raise InputError(f"{where}.owner: no account {account} in the backup")
    return settings, claims


def _refuse_present(conn: Connection, table: Any, column: Any, keys: list[Any],
                    what: str) -> None:
    for chunk in range(0, len(keys), 500):
        present = conn.execute(select(column).where(
            column.in_(keys[chunk:chunk + 500]))).scalars().first()
        if present is not None:
            raise InputError(f"restore: {what} {present} is already in the database "
                             "(restore into an empty database)")


def restore(db: Database, path: Path, *, accept_undigested: bool = False) -> Counts:
    """Write everything the backup at ``path`` holds into the database (one transaction,
    after every field is checked).  ``accept_undigested``: rows without a digest (a backup
    of rows written before digests) are accepted, and written with their digests.  Accounts
    get new ids (the target may hold others); their seats and alert settings follow."""
    data = _read_backup(path)
    found = [_checked(i, g, accept_undigested) for i, g in enumerate(data["games"])]
    ids = [g["id"] for g in found]
    if len(set(ids)) != len(ids):
        raise InputError("restore: the backup holds a game id twice")
    people = _checked_accounts(data.get("accounts"))
    account_ids = {a["id"] for a in people}
    waiting = _checked_seatings(data.get("seatings"), set(ids), account_ids)
    settings, claims = _checked_alerts(data, set(ids), account_ids)
    with db.write() as conn:
        _refuse_present(conn, games, games.c.id, ids, "game")
        _refuse_present(conn, seatings, seatings.c.id, [s["id"] for s in waiting], "game")
        _refuse_present(conn, accounts, accounts.c.name_key,
                        [name_key(a["name"]) for a in people], "account")
        new_id: dict[int, int] = {}
        for a in people:
            made = conn.execute(insert(accounts).values(
                name=a["name"], name_key=name_key(a["name"]), password_hash=a["password_hash"],
                created_at=a["created_at"])).inserted_primary_key
            assert made is not None
            new_id[a["id"]] = int(made[0])
        for g in found:
            insert_rows(conn, GAME_ROW, None, [g])
            for part in GAME_PARTS:
                value = g[part.key]
                insert_rows(conn, part, g["id"],
                            ([value] if value is not None else []) if part.one else value)
        for s in waiting:
            insert_rows(conn, SEATINGS, None, [s])
            insert_rows(conn, SEATING_SEATS, s["id"], [
                {**seat, "account_id": new_id.get(seat["account_id"])} for seat in s["seats"]])
        insert_rows(conn, ALERT_SETTINGS, None, [
            {**a, "account_id": new_id[a["account_id"]],
             "owner": account_owner(new_id[a["account_id"]])} if a["account_id"] is not None
            else a for a in settings])
        insert_rows(conn, ALERT_CLAIMS, None, [
            {**c, "owner": account_owner(new_id[account])}
            if (account := _account_of(c["owner"])) is not None else c for c in claims])
    return Counts(len(found), len(people), sum(s["started_at"] is None for s in waiting))


def check(db: Database, *, accept_undigested: bool = False) -> tuple[int, list[str], int]:
    """Every game's rows checked, and the links of online play (``links``): the number of
    games, one line per damaged game or broken link, and the number of rows accepted without
    a digest (``accept_undigested`` only)."""
    with _snapshot(db) as conn:
        rows = conn.execute(select(games.c.id, games.c.actions)).all()
        found = [verify_game(conn, r.id, int(r.actions), accept_undigested=accept_undigested)
                 for r in rows]
        broken = links(conn)
    return len(rows), [p for p, _n in found if p] + broken, sum(n for _p, n in found)


def links(conn: Connection) -> list[str]:
    """What ties accounts, seats, clocks and stand-ins to the games, checked: a game started
    from open seats has its game, an account's seat in it has a seat row with a token digest
    (the account reaches it by that), and every clock and stand-in is a seat of its game."""
    problems: list[str] = []
    names = {(r.game_id, r.name): r for r in conn.execute(
        select(seats.c.game_id, seats.c.position, seats.c.name, seats.c.bot,
               seats.c.token_hash))}
    by_position = {(r.game_id, r.position): r for r in names.values()}
    started = {r.id for r in conn.execute(select(seatings.c.id)
                                          .where(seatings.c.started_at.is_not(None)))}
    present = set(conn.execute(select(games.c.id)).scalars())
    for game_id in sorted(started - present):
        problems.append(f"game {game_id}: started from open seats, but the game is missing")
    for s in conn.execute(select(seating_seats).where(seating_seats.c.account_id.is_not(None))
                          .where(seating_seats.c.seating_id.in_(started))):
        seat = by_position.get((s.seating_id, s.position))
        if s.seating_id in present and (seat is None or seat.token_hash is None):
            problems.append(f"game {s.seating_id}: account {s.account_id}'s seat "
                            f"{s.position} has no seat row with a token digest")
    for table, what in ((seat_clocks, "a clock"), (stand_ins, "a stand-in")):
        for r in conn.execute(select(table.c.game_id, table.c.seat)):
            if (r.game_id, r.seat) not in names:
                problems.append(f"game {r.game_id}: {what} of {r.seat!r}, no seat of the game")
    return problems


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
