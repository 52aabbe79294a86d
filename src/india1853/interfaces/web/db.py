"""Persistence: the tables, the database engines and the migrations run at server start.

A game row holds the settings (seed included: the server's secret), the engine version and
the count of actions; every accepted action is a row ``(game_id, idx)`` under a unique
constraint, written in the same transaction that accepts it.  Seats are rows too: a human
seat keeps only the SHA-256 of its token, never the token.

SQLite (the default: a file under the data directory) runs in WAL mode; writes open with
``BEGIN IMMEDIATE`` so that the check of the last action index and the insert of the next
action are one atomic step even between processes.  PostgreSQL (a ``postgresql://`` URL)
gets the same guarantee from ``SELECT ... FOR UPDATE`` on the game row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Select,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)

from india1853.errors import InputError
from india1853.rules.game.settings import MAX_NAME_LENGTH

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("engine_version", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("hotseat_hash", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("actions", Integer, nullable=False, default=0),
    Column("round", String(32), nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    # "server" or "creator" (0003; NULL: a game from before, "unknown")
    Column("seed_chosen_by", String(16), nullable=True),
    # Hints enabled by the creator (0005; NULL: off; a game with a bot has them anyway)
    Column("hints", Boolean, nullable=True),
)

Index("ix_games_created_at", games.c.created_at)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("position", Integer, primary_key=True),
    # A player's name: the engine's limit (settings.py), so that no name it accepts is
    # refused here (migration 0001 created it as String(64), the same number).
    Column("name", String(MAX_NAME_LENGTH), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("data", JSON, nullable=False),
    # The player who decided the action (the entity itself, or a company's director or
    # manager then): undo is allowed to that player's token (and to the hotseat token).
    Column("seat", String(MAX_NAME_LENGTH), nullable=True),
    Column("created_at", Float, nullable=False),
    # integrity.py: SHA-256 of (game, idx, data, seat), checked before every replay (0002)
    Column("digest", String(64), nullable=True),
    UniqueConstraint("game_id", "idx", name="uq_actions_game_idx"),
)

# tickets.py: a ticket opens one event stream (its SHA-256 stored, redeemed once, 0004)
stream_tickets = Table(
    "stream_tickets",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column("game_id", String(32), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("expires_at", Float, nullable=False),
)

Index("ix_stream_tickets_expires_at", stream_tickets.c.expires_at)

# Accounts (accounts.py, 0006): a name and an argon2 hash of the password; a signed-in browser
# holds a session whose SHA-256 is a row (the session itself is only in its HttpOnly cookie).
accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(MAX_NAME_LENGTH), nullable=False),
    Column("name_key", String(MAX_NAME_LENGTH), nullable=False, unique=True),  # casefolded
    Column("password_hash", String(255), nullable=False),
    Column("created_at", Float, nullable=False),
)

account_sessions = Table(
    "account_sessions",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

Index("ix_account_sessions_expires_at", account_sessions.c.expires_at)

# Games with open seats (seating.py, 0006): the settings while players join (the game's row
# is written when the last seat is taken, under the same id), and each seat: its name once
# taken, its bot, the account that holds it (or the SHA-256 of a guest's token until start).
seatings = Table(
    "seatings",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("settings", JSON, nullable=False),  # edition, variants, seed (null: the server's)
    Column("hints", Boolean, nullable=False),
    Column("creator", Integer, nullable=False),  # the creator's seat's position
    Column("created_at", Float, nullable=False),
    Column("started_at", Float, nullable=True),  # null: waiting for players
)

Index("ix_seatings_started_at", seatings.c.started_at)

seating_seats = Table(
    "seating_seats",
    metadata,
    Column("seating_id", String(32), ForeignKey("seatings.id"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("name", String(MAX_NAME_LENGTH), nullable=True),  # null: open
    Column("bot", String(32), nullable=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("joined_at", Float, nullable=True),
)

Index("ix_seating_seats_account_id", seating_seats.c.account_id)
# alerts.py: where a user's turn alerts go, keyed by owner ("seat:<game>:<name>", later
# "account:<id>"), and the claims that make one process send each alert (0007)
alert_settings = Table(
    "alert_settings",
    metadata,
    Column("owner", String(200), primary_key=True),
    Column("game_id", String(32), nullable=True),
    Column("seat", String(MAX_NAME_LENGTH), nullable=True),
    Column("account_id", Integer, nullable=True),
    Column("webhook", String(2048), nullable=True),
    Column("email", String(254), nullable=True),
    Column("quiet_seconds", Integer, nullable=True),
    Column("updated_at", Float, nullable=False),
)

Index("ix_alert_settings_game", alert_settings.c.game_id)
Index("ix_alert_settings_account", alert_settings.c.account_id)

alert_claims = Table(
    "alert_claims",
    metadata,
    Column("owner", String(200), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("action_idx", Integer, nullable=False),
    Column("sent_at", Float, nullable=False),
)

# chat.py: a game's chat, kept with the game (0007)
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", String(MAX_NAME_LENGTH), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

Index("ix_chat_messages_game", chat_messages.c.game_id, chat_messages.c.id)

MIGRATIONS = Path(__file__).parent / "migrations"


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def newest_migration() -> str | None:
    """The head revision of the migrations shipped in the package (read once a process)."""
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


BUSY_TIMEOUT_MS = 30_000
MAX_PLANS = 256  # Database.rows's statements are module constants: a few dozen


class _Plan(NamedTuple):
    """A select compiled for SQLite (Database.rows): its SQL, the positional values from the
    named ones, the values fixed in the statement (``limit(200)``, ``kind == "takeback"``) and
    the types' conversions of the columns (empty: none converts)."""

    sql: str
    values: Callable[[dict[str, Any]], tuple[Any, ...]]
    fixed: dict[str, Any]
    results: tuple[Callable[[Any], Any] | None, ...]


_UNPLANNED: Any = object()


def _values(names: tuple[str, ...], binds: Sequence[Callable[[Any], Any] | None],
            ) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The positional parameters of a compiled statement from the named ones, each converted
    as its type converts it."""
    if any(binds):
        return lambda named: tuple(named[n] if f is None else f(named[n])
                                   for n, f in zip(names, binds, strict=True))
    if len(names) == 1:
        name = names[0]
        return lambda named: (named[name],)
    return itemgetter(*names) if names else (lambda _named: ())


def database_url(db: str | None, data_dir: Path) -> str:
    """``db`` if given (``--db`` or ``DATABASE_URL``), else an SQLite file in ``data_dir``."""
    if db:
        if "://" not in db:
            raise InputError(f"--db: {db!r} is not a database URL (sqlite:///FILE, "
                             "postgresql://...)")
        return db
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'india1853.sqlite3').resolve()}"


def _sqlite_engine(url: str, begin: str) -> Engine:
    engine = create_engine(url, connect_args={"check_same_thread": False,
                                              "timeout": BUSY_TIMEOUT_MS / 1000},
                           pool_size=8, max_overflow=16)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # pysqlite's own transaction handling is switched off so that BEGIN is ours.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the death of the process (kill -9), which is
        # the guarantee tested; FULL would also survive a power cut at an fsync per action.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql(begin)

    return engine


class Database:
    """The engines of one database: ``read()`` and ``write()`` transactions."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        if self.sqlite:
            self._reader = _sqlite_engine(url, "BEGIN")
            self._writer = _sqlite_engine(url, "BEGIN IMMEDIATE")
        else:
            self._reader = self._writer = create_engine(url, pool_size=8, max_overflow=16,
                                                         pool_pre_ping=True)
        self._plans: dict[Select[Any], _Plan | None] = {}

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self._reader.begin() as conn:
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: on SQLite it holds the database's write lock from its start;
        elsewhere the caller locks the game row (``with_for_update``)."""
        with self._writer.begin() as conn:
            yield conn

    def rows(self, query: Select[Any], **params: Any) -> list[tuple[Any, ...]]:
        """The rows of one small read, ``query`` written once as a SQLAlchemy select whose
        varying values are named ``bindparam``s given here as ``params``.

        On SQLite the statement runs on a pooled connection's raw sqlite3 connection, outside
        any transaction (the statement is its own snapshot), its SQL compiled once per
        statement and cached (the types' conversions applied as SQLAlchemy would): a tenth of
        the cost of a read transaction, for the reads most requests make (the game's count,
        the stand-ins before each action, the chat).  On PostgreSQL, and for a statement that
        expands a list (``in_``), SQLAlchemy runs it in a read transaction."""
        plan = self._plans.get(query, _UNPLANNED) if self.sqlite else None
        if plan is _UNPLANNED:
            plan = self._plan(query)
        if plan is None:
            with self.read() as conn:
                return [tuple(r) for r in conn.execute(query, params)]
        values = plan.values({**plan.fixed, **params})
        with self._reader.connect() as conn:
            raw: Any = conn.connection.dbapi_connection
            found = raw.execute(plan.sql, values).fetchall()
        if plan.results:
            return [tuple(v if f is None else f(v) for f, v in zip(plan.results, row, strict=True))
                    for row in found]
        return found  # type: ignore[no-any-return]

    def scalar(self, query: Select[Any], **params: Any) -> Any | None:
        """The first value of the first row of :meth:`rows` (None: no row)."""
        found = self.rows(query, **params)
        return found[0][0] if found else None

    def _plan(self, query: Select[Any]) -> _Plan | None:
        """``query`` compiled for SQLite once (None: it expands a list, SQLAlchemy runs it)."""
        if len(self._plans) > MAX_PLANS:  # statements built per call: compiled each time
            self._plans.clear()
        dialect = self._reader.dialect
        compiled = query.compile(dialect=dialect)
        plan = None
        if not compiled.post_compile_params:
            names = tuple(compiled.positiontup or ())
            given = {b.key: None for b in compiled.binds.values() if b.required}
            binds = [compiled.binds[n].type.bind_processor(dialect) for n in names]
            results = tuple(c.type.result_processor(dialect, None)
                            for c in query.selected_columns)
            plan = _Plan(compiled.string, _values(names, binds),
                         dict(compiled.construct_params(given)),
                         results if any(results) else ())
        self._plans[query] = plan
        return plan

    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic, shipped in the package).

        A database already at the newest migration is left as it is without running
        Alembic's environment (every start of ``india1853 serve`` migrates twice: once to
        check the database, once as the application starts; a restart finds it current):
        the version is read in the same transaction, after the lock, that would upgrade."""
        with self._writer.begin() as conn:
            if not self.sqlite:
                # Several processes starting at once migrate one after the other (SQLite's
                # BEGIN IMMEDIATE already does that); the lock ends with the transaction.
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(1853)")
            if MigrationContext.configure(conn).get_current_heads() == (newest_migration(),):
                return
            config = _alembic_config()
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def dispose(self) -> None:
        self._reader.dispose()
        self._writer.dispose()
