"""``india1853 admin``: the web server's database for operators.

    india1853 admin backup FILE   [--db URL] [--data-dir DIR]
    india1853 admin restore FILE  [--db URL] [--data-dir DIR] [--accept-undigested]
    india1853 admin migrate       [--db URL] [--data-dir DIR] [--accept-undigested]
    india1853 admin check         [--db URL] [--data-dir DIR] [--accept-undigested]

The database is found as ``india1853 serve`` finds it (``--db``, ``DATABASE_URL``, else the
SQLite file in the data directory).  ``backup`` writes every game, account, game waiting
for players and alert setting to one JSON file (safe while the server runs); ``restore``
loads such a file into a database that does not hold those games or accounts
(any engine: SQLite to PostgreSQL works); ``migrate`` brings the schema to the newest version
(the server also does at start); ``check`` verifies every game's stored log (exit 1 if one is
damaged).  A stored row without its integrity digest is damage, unless the operator says the
rows without one were written before digests existed (``--accept-undigested``: ``check``
accepts them, ``restore`` and ``migrate`` compute their digests).  See docs/deployment.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from india1853.errors import InputError


def register(sub: Any) -> None:
    parser = sub.add_parser("admin", help="operators: backup, restore, migrate or check the "
                            "web server's database")
    parser.add_argument("task", choices=("backup", "restore", "migrate", "check"),
                        help="what to do")
    parser.add_argument("file", nargs="?", type=Path, help="the backup file (backup, restore)")
    parser.add_argument("--db", help="database URL (default: DATABASE_URL, else the SQLite "
                        "file in the data directory)")
    parser.add_argument("--data-dir", type=Path, help="where the SQLite file lives")
    parser.add_argument("--accept-undigested", action="store_true",
                        help="rows without an integrity digest were written before digests "
                        "(migration 0002): accept them (check), give them their digests "
                        "(migrate, restore); otherwise such a row is damage")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from india1853.interfaces.commands.serve import command_database_url
    from india1853.interfaces.web import admin
    from india1853.interfaces.web.db import Database

    if args.task in ("backup", "restore") and args.file is None:
        raise InputError(f"admin {args.task}: FILE is required")
    if args.task in ("migrate", "check") and args.file is not None:
        raise InputError(f"admin {args.task}: takes no FILE")
    if args.task == "backup" and args.accept_undigested:
        raise InputError("--accept-undigested: only for check, migrate and restore")
    url = command_database_url(args.db, args.data_dir)
    try:
        db = Database(url)
        try:
            db.migrate()
            return _task(args, db, admin)
        finally:
            db.dispose()
    except (SQLAlchemyError, ImportError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"--db: cannot use the database: {first}") from None


def _task(args: argparse.Namespace, db: Any, admin: Any) -> int:
    if args.task == "backup":
        n = admin.backup(db, args.file)
        print(f"backup: {n.games} games written to {args.file} ({n.besides()})")
    elif args.task == "restore":
        n = admin.restore(db, args.file, accept_undigested=args.accept_undigested)
        print(f"restore: {n.games} games restored from {args.file} ({n.besides()})")
    elif args.task == "migrate":
        print(f"migrate: the database is at the newest schema ({admin.count_games(db)} games)")
        if args.accept_undigested:
            sealed, problems = admin.seal(db)
            for line in problems:
                print(f"damaged: {line}")
            print(f"migrate: {sealed} rows written before digests given their digests")
            return 1 if problems else 0
    else:
        n, problems, undigested = admin.check(db, accept_undigested=args.accept_undigested)
        for line in problems:
            print(f"damaged: {line}")
        accepted = f", {undigested} rows without a digest accepted" if undigested else ""
        print(f"check: {n} games, {len(problems)} damaged{accepted}")
        return 1 if problems else 0
    return 0
