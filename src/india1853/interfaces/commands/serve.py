"""``india1853 serve``: the web server.

    india1853 serve [--host 127.0.0.1] [--port 8053] [--db URL] [--data-dir DIR]
                    [--bot-delay SECONDS] [--bot-cpu-seconds SECONDS]
                    [--cache-games N] [--cache-mb MB]
                    [--redis URL]
                    [--rate-limit N] [--create-limit N] [--import-limit N]
                    [--render-limit N] [--trusted-proxy-header NAME]
                    [--header-timeout SECONDS] [--body-timeout SECONDS]
                    [--stream-ticket-seconds SECONDS] [--stream-poll-seconds SECONDS]
                    [--sweep-seconds SECONDS]
                    [--secure-cookies auto|always|never]
                    [--smtp-host HOST --smtp-from ADDRESS [--smtp-port N] [--smtp-user NAME]
                     [--no-smtp-starttls]] [--alert-quiet-seconds S] [--alert-sweep-seconds S]
                    [--alert-webhook-private] [--public-url URL]

The database is ``--db``, else ``DATABASE_URL``, else an SQLite file in the data directory
(``--data-dir``, default ``$INDIA1853_DATA`` or ``~/.local/share/india1853``).  The schema is
migrated at start.  The address is printed once the server listens.  Several server processes
on one database carry live updates between them through Redis (``--redis``, else
``REDIS_URL``; docs/deployment.md).  The games kept in memory are bounded by count
(``--cache-games``) and by an estimate of their bytes (``--cache-mb``, else
``INDIA1853_CACHE_MB``; history responses included).  The limits a server keeps (rate limits,
slow clients, stream tickets) are described in docs/deployment.md, "Limits"; the turn alerts'
options (SMTP, quiet time) in serve_alerts.py and docs/deployment.md, "Turn alerts".
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from india1853.errors import InputError
from india1853.interfaces.commands import serve_alerts
from india1853.interfaces.web.app import POLL_SECONDS
from india1853.interfaces.web.deadlines import BODY_SECONDS, HEADER_SECONDS
from india1853.interfaces.web.security import Budgets, RateLimit
from india1853.interfaces.web.sweep import SWEEP_SECONDS
from india1853.interfaces.web.tickets import TICKET_SECONDS

DEFAULTS = Budgets()
PROXY_HEADER_ENV = "INDIA1853_TRUSTED_PROXY_HEADER"
SECURE_ENV = "INDIA1853_SECURE_COOKIES"

CACHE_MB = 512  # the default of --cache-mb (store.CACHE_BYTES)
BOT_CPU_SECONDS = 0.5  # the default of --bot-cpu-seconds (bots/strong.py's BUDGET)
MAX_BOT_CPU_SECONDS = 30.0


def default_data_dir() -> Path:
    configured = os.environ.get("INDIA1853_DATA")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "india1853"


def command_database_url(db: str | None, data_dir: Path | None) -> str:
    """The database of ``--db`` (or ``DATABASE_URL``), else the SQLite file under
    ``--data-dir`` (or the default data directory), created if needed; one-line errors."""
    from india1853.interfaces.web.db import database_url

    folder = data_dir if data_dir is not None else default_data_dir()
    try:
        return database_url(db or os.environ.get("DATABASE_URL"), folder)
    except OSError as exc:
        raise InputError(f"--data-dir: cannot create {str(folder)!r}: "
                         f"{exc.strerror or exc}") from None


def register(sub: Any) -> None:
    parser = sub.add_parser("serve", help="run the web server (JSON API and browser UI)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on "
                        "(default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8053, help="port (default 8053; 0: any "
                        "free port)")
    parser.add_argument("--db", help="database URL (default: DATABASE_URL, else an SQLite "
                        "file in the data directory)")
    parser.add_argument("--data-dir", type=Path, help="where the SQLite file lives")
    parser.add_argument("--bot-delay", type=float, default=0.5,
                        help="seconds a bot waits before each move, so that people can "
                        "follow (default 0.5)")
    parser.add_argument("--bot-cpu-seconds", type=float, default=BOT_CPU_SECONDS,
                        help="CPU seconds the strong bot may think per decision, and per "
                        f"hint (default {BOT_CPU_SECONDS:g}; at most {MAX_BOT_CPU_SECONDS:g})")
    parser.add_argument("--cache-games", type=int, default=200,
                        help="games kept in memory (default 200); others are rebuilt from "
                        "the database when needed")
    parser.add_argument("--cache-mb", type=int, default=None,
                        help="megabytes (estimated) the caches of games and history may hold "
                        f"(default: INDIA1853_CACHE_MB, else {CACHE_MB}); the least recently "
                        "used are dropped first")
    parser.add_argument("--redis", help="Redis URL for live updates between several server "
                        "processes (default: REDIS_URL, else this process alone)")
    parser.add_argument("--rate-limit", type=float, default=DEFAULTS.writes.rate,
                        help="writes (POST) a second allowed per seat (a token of the game), "
                        f"else per client address, with bursts of {DEFAULTS.writes.burst:g} "
                        f"(default {DEFAULTS.writes.rate:g}; 0: no rate limit at all)")
    parser.add_argument("--create-limit", type=float, default=DEFAULTS.creates.rate,
                        help="games created a second per address, bursts of "
                        f"{DEFAULTS.creates.burst:g} (default {DEFAULTS.creates.rate:g})")
    parser.add_argument("--import-limit", type=float, default=DEFAULTS.imports.rate,
                        help="log imports a second per address, bursts of "
                        f"{DEFAULTS.imports.burst:g} (default {DEFAULTS.imports.rate:g})")
    parser.add_argument("--render-limit", type=float, default=DEFAULTS.renders.rate,
                        help="board and stats SVGs and history views a second per seat or "
                        f"address, bursts of {DEFAULTS.renders.burst:g} (default "
                        f"{DEFAULTS.renders.rate:g})")
    parser.add_argument("--trusted-proxy-header", default=None,
                        help="behind a proxy: the header holding the client's address (e.g. "
                        "X-Forwarded-For: its last entry); default: "
                        f"{PROXY_HEADER_ENV}, else none (the connection's address)")
    parser.add_argument("--header-timeout", type=float, default=HEADER_SECONDS,
                        help="seconds a request's headers may take to arrive (default "
                        f"{HEADER_SECONDS:g})")
    parser.add_argument("--body-timeout", type=float, default=BODY_SECONDS,
                        help="seconds a request's body may take to arrive after its headers "
                        f"(default {BODY_SECONDS:g})")
    parser.add_argument("--stream-ticket-seconds", type=float, default=TICKET_SECONDS,
                        help="seconds a stream ticket stays good (default "
                        f"{TICKET_SECONDS:g})")
    parser.add_argument("--stream-poll-seconds", type=float, default=POLL_SECONDS,
                        help="seconds after which an event stream without news writes a "
                        "keepalive and looks at the database for another process's actions "
                        f"(default {POLL_SECONDS:g})")
    parser.add_argument("--sweep-seconds", type=float, default=SWEEP_SECONDS,
                        help="seconds between two looks for chess clocks at zero, takebacks "
                        "unanswered too long and (with Redis) bots another process left "
                        f"waiting (default {SWEEP_SECONDS:g})")
    parser.add_argument("--secure-cookies", choices=("auto", "always", "never"),
                        default=None, help="the session cookies' Secure attribute (accounts): "
                        "auto (default; also " + SECURE_ENV + ") sets it when the request came "
                        "over TLS, as seen here or as the trusted proxy reports it "
                        "(X-Forwarded-Proto: https, with --trusted-proxy-header); always: "
                        "behind a TLS proxy that says nothing")
    serve_alerts.register(parser)  # --smtp-*, --alert-*, --public-url
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from india1853.interfaces.web.accounts import AccountSettings
    from india1853.interfaces.web.app import create_app
    from india1853.interfaces.web.deadlines import deadline_protocol

    if not 0 <= args.port <= 65535:
        raise InputError(f"--port: must be between 0 and 65535, got {args.port}")
    if not 0 <= args.bot_delay <= 60:
        raise InputError(f"--bot-delay: must be between 0 and 60 seconds, got {args.bot_delay}")
    if not 0 < args.bot_cpu_seconds <= MAX_BOT_CPU_SECONDS:
        raise InputError(f"--bot-cpu-seconds: must be more than 0 and at most "
                         f"{MAX_BOT_CPU_SECONDS:g}, got {args.bot_cpu_seconds:g}")
    for option in ("rate_limit", "create_limit", "import_limit", "render_limit"):
        value = getattr(args, option)
        if not 0 < value <= 1e6 and not (option == "rate_limit" and value == 0):
            raise InputError(f"--{option.replace('_', '-')}: must be more than 0 and at most "
                             f"1000000, got {value:g}")
    for option in ("header_timeout", "body_timeout", "stream_ticket_seconds",
                   "stream_poll_seconds", "sweep_seconds"):
        value = getattr(args, option)
        if not 0 < value <= 3600:
            raise InputError(f"--{option.replace('_', '-')}: must be more than 0 and at most "
                             f"3600 seconds, got {value:g}")
    header = args.trusted_proxy_header or os.environ.get(PROXY_HEADER_ENV) or None
    if header is not None and not header.replace("-", "").isalnum():
        raise InputError(f"--trusted-proxy-header: {header!r} is not a header name")
    if args.cache_games < 1:
        raise InputError(f"--cache-games: must be at least 1, got {args.cache_games}")
    cache_mb = _cache_mb(args.cache_mb)
    alerts = serve_alerts.config(args)
    url = command_database_url(args.db, args.data_dir)
    _check_database(url)
    redis_url = args.redis or os.environ.get("REDIS_URL") or None
    if redis_url:
        _check_redis(redis_url)
    budgets = Budgets(
        writes=RateLimit(args.rate_limit or DEFAULTS.writes.rate, DEFAULTS.writes.burst),
        creates=RateLimit(args.create_limit, DEFAULTS.creates.burst),
        imports=RateLimit(args.import_limit, DEFAULTS.imports.burst),
        renders=RateLimit(args.render_limit, DEFAULTS.renders.burst))
    secure = args.secure_cookies or os.environ.get(SECURE_ENV) or "auto"
    if secure not in ("auto", "always", "never"):
        raise InputError(f"{SECURE_ENV}: must be auto, always or never, got {secure[:20]!r}")
    accounts = AccountSettings(secure_cookies={"auto": None, "always": True,
                                               "never": False}[secure])
    app = create_app(url, bot_delay=args.bot_delay, accounts=accounts, redis_url=redis_url,
                     budgets=budgets,
                     rate_limited=bool(args.rate_limit), cache_size=args.cache_games,
                     cache_bytes=cache_mb << 20, trusted_proxy_header=header,
                     ticket_seconds=args.stream_ticket_seconds,
                     bot_cpu_seconds=args.bot_cpu_seconds, alerts=alerts,
                     stream_poll_seconds=args.stream_poll_seconds,
                     sweep_seconds=args.sweep_seconds)
    # proxy_headers off: a client's address is read from a header only when configured
    # (--trusted-proxy-header), never from uvicorn's default trust of 127.0.0.1.
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            timeout_graceful_shutdown=2, proxy_headers=False,
                            http=deadline_protocol(args.header_timeout, args.body_timeout))
    server = _server_class()(config, partial(_close_streams, app))
    return _serve(server, args.host)


def _cache_mb(given: int | None) -> int:
    """``--cache-mb``, else ``INDIA1853_CACHE_MB``, else the default; 1 to 1,000,000."""
    where, value = "--cache-mb", given
    if value is None:
        configured = os.environ.get("INDIA1853_CACHE_MB")
        if configured is None:
            return CACHE_MB
        where = "INDIA1853_CACHE_MB"
        try:
            value = int(configured)
        except ValueError:
            raise InputError(f"{where}: must be a whole number of megabytes, got "
                             f"{configured[:40]!r}") from None
    if not 1 <= value <= 1_000_000:
        raise InputError(f"{where}: must be between 1 and 1000000 megabytes, got {value}")
    return value


def _check_database(url: str) -> None:
    """Migrate now, so that a database that cannot be used is one line, not a traceback."""
    from sqlalchemy.exc import SQLAlchemyError

    from india1853.interfaces.web.db import Database

    try:
        db = Database(url)
        try:
            db.migrate()
        finally:
            db.dispose()
    except (SQLAlchemyError, ImportError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"--db: cannot use the database: {first}") from None


def _check_redis(url: str) -> None:
    """Reach Redis now, so that a wrong URL is one line, not a traceback at start."""
    import asyncio

    from india1853.interfaces.web.events import Notifier
    from india1853.interfaces.web.pubsub import broadcast

    async def probe() -> None:
        bus = broadcast(Notifier(asyncio.get_running_loop()), url)
        await bus.start()
        await bus.stop()

    asyncio.run(probe())


STOP_POLL = 0.01  # seconds between two looks at the connections left while stopping


def _server_class() -> Any:
    """uvicorn's server, waiting on events where uvicorn polls (every server start and stop
    of the tests paid its 0.1 s ticks, and every stop with a page open the whole 2 s of
    graceful timeout):

    - it says when it listens (an event the start waits on);
    - a stop signal wakes its main loop at once (uvicorn looks every 0.1 s);
    - a stop ends the app's event streams first (app.py: the notifier), *then* waits for the
      connections: a stream is an answer that never completes, so uvicorn's order (the
      graceful wait, then the app's shutdown) held every stop with a page open for the
      whole ``timeout_graceful_shutdown``; the connections left are looked at every
      ``STOP_POLL`` seconds, the graceful timeout unchanged."""
    import asyncio
    import contextlib

    import uvicorn

    class Server(uvicorn.Server):
        def __init__(self, config: uvicorn.Config, on_stop: Callable[[], None]) -> None:
            super().__init__(config)
            self.on_stop = on_stop
            self.listening = asyncio.Event()
            self._exit = asyncio.Event()
            self._loop: asyncio.AbstractEventLoop | None = None

        async def startup(self, sockets: Any = None) -> None:
            self._loop = asyncio.get_running_loop()
            try:
                await super().startup(sockets)
            finally:
                self.listening.set()

        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            loop = self._loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self._exit.set)

        async def main_loop(self) -> None:
            counter = 0
            should_exit = await self.on_tick(counter)
            while not should_exit:
                counter = (counter + 1) % 864000
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._exit.wait(), 0.1)
                should_exit = await self.on_tick(counter)

        async def shutdown(self, sockets: Any = None) -> None:
            self.on_stop()  # app.py's streams end, their answers complete
            for server in self.servers:
                server.close()  # no new connection
            for sock in sockets or []:
                sock.close()
            for connection in list(self.server_state.connections):
                connection.shutdown()  # closed when idle, else after its answer
            loop = asyncio.get_running_loop()
            deadline = loop.time() + (self.config.timeout_graceful_shutdown or 0)
            state = self.server_state
            while (state.connections or state.tasks) and not self.force_exit \
                    and loop.time() < deadline:
                await asyncio.sleep(STOP_POLL)
            for task in list(state.tasks):
                task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
            for server in self.servers:
                await server.wait_closed()
            if not self.force_exit:
                await self.lifespan.shutdown()

    return Server


def _close_streams(app: Any) -> None:
    """End the app's event streams (once it has started: its notifier, app.py)."""
    notifier = getattr(app.state, "notifier", None)
    if notifier is not None:
        notifier.close()


def _serve(server: Any, host: str) -> int:
    """Run the server, printing its address as soon as it listens."""
    import asyncio

    async def main() -> None:
        task = asyncio.create_task(server.serve())
        listening = asyncio.create_task(server.listening.wait())
        await asyncio.wait((task, listening), return_when=asyncio.FIRST_COMPLETED)
        listening.cancel()
        if server.started:
            port = server.servers[0].sockets[0].getsockname()[1]
            shown = f"[{host}]" if ":" in host else host
            print(f"india1853 web server: http://{shown}:{port}/  (Ctrl-C stops it)",
                  flush=True)
        await task

    asyncio.run(main())
    return 0 if server.started else 1
