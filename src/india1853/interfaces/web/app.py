"""The web server's FastAPI application: the JSON API, live updates (SSE) and the browser UI.

``create_app(url)`` builds the app on a database URL; ``india1853 serve`` runs it with
uvicorn.  Every engine call runs in the thread pool (``anyio.to_thread``), never on the event
loop.  The API is described in docs/web-api.md and served as OpenAPI at ``/openapi.json``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import re
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, TypeVar

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.middleware.gzip import GZipMiddleware

from india1853.data.loader import load_edition
from india1853.errors import InputError
from india1853.interfaces.render import render_tile_svg
from india1853.interfaces.web import social
from india1853.interfaces.web.access import HashedToken, token_hash
from india1853.interfaces.web.accounts import AccountSettings
from india1853.interfaces.web.accounts_routes import install as install_accounts
from india1853.interfaces.web.alerts import AlertConfig
from india1853.interfaces.web.boards import GZIP_LEVEL
from india1853.interfaces.web.bots import BotRunner
from india1853.interfaces.web.db import Database
from india1853.interfaces.web.docs import install as install_docs
from india1853.interfaces.web.entry import ApiError, encode
from india1853.interfaces.web.events import Notifier
from india1853.interfaces.web.pubsub import broadcast
from india1853.interfaces.web.request_input import bearer as _bearer
from india1853.interfaces.web.request_input import read_body as _body
from india1853.interfaces.web.schema import install as install_schema
from india1853.interfaces.web.schema import model_schema
from india1853.interfaces.web.seats_api import ClockBody, attach, install, router, seat_rules
from india1853.interfaces.web.security import Budgets, Guard, RateLimit
from india1853.interfaces.web.store import CACHE_BYTES, GameStore, NewGame, NewSeat
from india1853.interfaces.web.sweep import SWEEP_SECONDS, BotSweep
from india1853.interfaces.web.tickets import TICKET_SECONDS, StreamTickets, TicketRefused
from india1853.rules.game.settings import EDITIONS, player_counts
from india1853.rules.game.variants import catalogue
from india1853.rules.router import warm_up as warm_up_router

log = logging.getLogger("india1853.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1 << 20  # 1 MiB: one action, or a new game's settings
MAX_IMPORT = 16 << 20  # a whole log file
# A stream with nothing to send writes a keepalive comment this often, and asks the database
# whether another server process has written an action to the game meanwhile (the default of
# serve --stream-poll-seconds).
POLL_SECONDS = 5.0
# Smaller answers go as they are: gzip saves nothing worth its time on them.
GZIP_MIN_BYTES = 1000
EVENT_ID = re.compile(r"[0-9]{1,18}")  # Last-Event-ID: an action id this server sent
# The cyclic garbage collector's thresholds while the server runs.  With Python's defaults
# (700, 10, 10) a server holding a game of some 800 actions ran a full collection every few
# seconds, 0.1-0.2 s of CPU each with every request waiting (bench/web_board.py): one click in
# twenty waited for one.  Almost everything the server makes is freed by reference counting
# (answers, states); collecting young objects every 20,000 allocations and the old ones after
# 20 x 20 young collections keeps the little cyclic garbage small and makes the full pass a
# matter of minutes, not seconds.  docs/performance.md, "Board delivery".
GC_THRESHOLDS = (20_000, 20, 20)

T = TypeVar("T")
# A tile's picture depends only on the edition, the tile and its rotation: the browser keeps it
# (the page's URL carries the picture's version, docs/web-api.md "Tile pictures").
TILE_CACHE = "public, max-age=31536000, immutable"


class PlayerBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    bot: str | None = None


class NewGameBody(BaseModel):
    """POST /api/games: the settings of a new game and who sits where."""

    model_config = ConfigDict(extra="forbid", strict=True)
    edition: str = "second"
    variants: list[str] = []
    seed: int | None = None
    players: list[PlayerBody]
    hotseat: bool = False
    hints: bool = False
    # The seats' rules (seats_api.py): a chess clock, and the seconds without an action
    # after which the others may vote an absent seat over to a bot.
    clock: ClockBody | None = None
    absent_after: float | None = Field(default=None, gt=0, le=60.0 * 60 * 24 * 60)


def _one_line(exc: ValidationError | RequestValidationError) -> str:
    """The first validation error as ``field: message`` on one line."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
    return f"{loc}: {err.get('msg', 'invalid')}"


_json = encode


async def _run(func: Callable[..., T], *args: Any) -> T:
    return await to_thread.run_sync(partial(func, *args))


def _json_response(data: bytes, status: int = 200) -> Response:
    return Response(content=data, status_code=status, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


def _openapi_body(model: type[BaseModel] | None, description: str) -> dict[str, Any]:
    schema: dict[str, Any] = model_schema(model) if model else {"type": "object"}
    return {"requestBody": {"required": True, "description": description,
                            "content": {"application/json": {"schema": schema}}}}


def create_app(url: str, *, cache_size: int = 200, cache_bytes: int = CACHE_BYTES,
               bot_delay: float = 0.0,
               redis_url: str | None = None, rate_limit: RateLimit | None = None,
               rate_limited: bool = True, budgets: Budgets | None = None,
               trusted_proxy_header: str | None = None,
               ticket_seconds: float = TICKET_SECONDS,
               bot_cpu_seconds: float | None = None,
               alerts: AlertConfig | None = None,
               accounts: AccountSettings | None = None,
               stream_poll_seconds: float = POLL_SECONDS,
               sweep_seconds: float = SWEEP_SECONDS) -> FastAPI:
    """The application on the database at ``url`` (migrated to the newest schema at start);
    bots wait ``bot_delay`` seconds before each move; live updates go through Redis pub/sub
    when ``redis_url`` is given (several server processes, docs/deployment.md); the caches
    hold at most ``cache_size`` games and ``cache_bytes`` estimated bytes (store.py).  Rate
    limits: ``budgets`` (``rate_limit``, if given, is the budget of writes), none unless
    ``rate_limited``; the client's address is read from ``trusted_proxy_header`` when given
    (security.py); a stream ticket is good for ``ticket_seconds`` (tickets.py); the strong
    bot's decisions and the hints take at most about ``bot_cpu_seconds`` CPU seconds each
    (None: the bot's default, 0.5); ``alerts``: the turn alerts' SMTP server, quiet time
    and sweep (alerts.py; None: webhooks only, the defaults).  ``accounts``: sessions,
    cookies and login limits (accounts.py).  A stream without news writes a keepalive and
    looks at the database every ``stream_poll_seconds``; the bots and clocks are swept every
    ``sweep_seconds`` (sweep.py)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        db = Database(url)
        await _run(db.migrate)
        # The router's compiled kernel loads from numba's cache in 0.3-0.7 s: load it beside the
        # start so that the first route asked for does not wait for it (docs/routes.md).
        threading.Thread(target=warm_up_router, name="router-kernel-warm", daemon=True).start()
        notifier = Notifier(asyncio.get_running_loop())
        bus = broadcast(notifier, redis_url)
        await bus.start()
        store = GameStore(db, cache_size=cache_size, cache_bytes=cache_bytes,
                          on_change=bus.changed, bot_cpu_seconds=bot_cpu_seconds)
        bus.heard = store.changed_elsewhere  # a stand-in changed in another process
        talk = await social.start(app, store, bus, alerts)  # chat and turn alerts
        runner = BotRunner(store, bot_delay)
        app.state.store, app.state.notifier, app.state.bots = store, notifier, runner
        app.state.tickets = StreamTickets(db, ticket_seconds)
        app.state.poll_seconds = stream_poll_seconds
        for game_id in await _run(store.games_waiting_for_bots):
            runner.kick(game_id)
        # sweep.py: several processes, one may die; and the clocks run out (seats_api.py)
        sweep = BotSweep(store, runner, sweep_seconds, stalled=bool(redis_url),
                         looks=attach(store))
        sweep.start()
        try:
            yield
        finally:
            notifier.close()
            await talk.stop()
            await sweep.stop()
            await runner.stop()
            await bus.stop()
            db.dispose()
            gc.set_threshold(*thresholds)

    # docs.py serves /docs from packaged assets (FastAPI's own pages load them from a CDN,
    # which the Content Security Policy forbids); there is no /redoc.
    app = FastAPI(title="india1853", version="1",
                  description="1853 (India) on the web: games, seats, actions, live views. "
                  "See docs/web-api.md.", lifespan=lifespan, docs_url=None, redoc_url=None)

    def store() -> GameStore:
        result: GameStore = app.state.store
        return result

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(exc)}, status_code=422)

    @app.post("/api/games", status_code=201,
              openapi_extra=_openapi_body(NewGameBody, "the new game's settings and seats"))
    async def create_game(request: Request) -> Response:
        """Create a game: one private token per human seat (and a hotseat token if asked)."""
        try:
            body = NewGameBody.model_validate(await _body(request, MAX_BODY))
        except ValidationError as exc:
            raise ApiError(422, _one_line(exc)) from None
        spec = NewGame(players=tuple(NewSeat(p.name, p.bot) for p in body.players),
                       edition=body.edition, variants=tuple(body.variants), seed=body.seed,
                       hotseat=body.hotseat, hints=body.hints)
        out = await _run(store().create, spec)
        await _run(install, store(), out["id"], seat_rules(body.clock, body.absent_after))
        app.state.bots.kick(out["id"])
        return _json_response(_json(out), 201)

    @app.post("/api/games/import", status_code=201,
              openapi_extra=_openapi_body(None, "a log file as the command line writes it"))
    async def import_game(request: Request, hotseat: bool = False,
                          hints: bool = False) -> Response:
        """Create a game from a log file (every action checked again); ``hints``: the humans
        may ask for the strong bot's advice (always with a bot seat)."""
        data = await _body(request, MAX_IMPORT)
        out = await _run(store().import_log, data, hotseat, hints)
        app.state.bots.kick(out["id"])
        return _json_response(_json(out), 201)

    @app.get("/api/variants")
    async def list_variants() -> Response:
        """The variants each edition may be played with (name, rule, title, and those the
        rulebook forbids it to be combined with) and its numbers of players (TABLE 3), for the
        lobby."""
        return _json_response(_json({"editions": {e: catalogue(e) for e in EDITIONS},
                                     "players": {e: list(player_counts(e)) for e in EDITIONS}}))

    @app.get("/api/games")
    async def list_games() -> Response:
        """Every game (newest first, at most 200): no seed, no token."""
        games = await _run(store().list_games)
        return _json_response(_json({"games": games}))

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, request: Request, seat: str | None = None,
                       cover: bool = False) -> Response:
        """The game as the token's seat sees it (no token: a spectator; ``cover`` with the
        hotseat token: the public view and the human seat to act next, ``next_seat``)."""
        token = _bearer(request)
        _last, data = await _run(store().view_json, game_id, token, seat, cover)
        return _json_response(data)

    @app.post("/api/games/{game_id}/actions",
              openapi_extra=_openapi_body(None, "one action as in docs/actions.md"))
    async def post_action(game_id: str, request: Request, seat: str | None = None,
                          cover: bool = False) -> Response:
        """Apply one action (its id must be the turn's next_id); the new view on success
        (``cover`` with the hotseat token: the covered answer, as GET's)."""
        token = _bearer(request)
        action = await _body(request, MAX_BODY)
        data = await _run(store().act_json, game_id, token, action, seat, cover)
        app.state.bots.kick(game_id)
        return _json_response(data)

    @app.post("/api/games/{game_id}/preview",
              openapi_extra=_openapi_body(None, "one action as in docs/actions.md"))
    async def preview_action(game_id: str, request: Request,
                             seat: str | None = None, draft: bool = False) -> Response:
        """The option an action would be (its cost, effect, rule), or the engine's refusal;
        the game is unchanged (the browser's composed secret bid: its bond, 14.4).  With
        ``draft`` a run being drawn: each route so far and the verdict (200 if refused)."""
        token = _bearer(request)
        action = await _body(request, MAX_BODY)
        data = await _run(store().preview_json, game_id, token, action, seat, draft)
        return _json_response(data)

    @app.get("/api/games/{game_id}/hint")
    async def game_hint(game_id: str, request: Request, seat: str | None = None) -> Response:
        """What the strong bot would do now for the token's seat and why, in one line with
        the options it weighed (computed from that seat's view only; 403 when hints are off
        in this game, 409 when it is not the seat's decision)."""
        token = _bearer(request)
        return _json_response(await _run(store().hint_json, game_id, token, seat))

    @app.get("/api/games/{game_id}/log")
    async def game_log(game_id: str, after: int = 0) -> Response:
        """The public log in words (the actions after ``after``); the whole log file once
        the game has ended."""
        return _json_response(await _run(store().public_log_json, game_id, after))

    @app.get("/api/games/{game_id}/at/{n}")
    async def game_at(game_id: str, n: int) -> Response:
        """The public view after action ``n`` (history)."""
        return _json_response(await _run(store().at_json, game_id, n))

    @app.get("/api/games/{game_id}/board.svg")
    async def board_svg(game_id: str, request: Request, at: int | None = None) -> Response:
        """The board as SVG, now or after action ``at``.  The live board has an ETag naming
        its content (``If-None-Match``: 304 while the board is unchanged) and is sent
        gzipped as kept (boards.py)."""
        if at is not None:
            svg = await _run(store().board_svg, game_id, at)
            return Response(content=svg, media_type="image/svg+xml")
        picture = await _run(store().board_picture, game_id)
        headers = {"ETag": picture.etag, "Cache-Control": "no-cache",
                   "Vary": "Accept-Encoding"}
        if picture.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(content=picture.gzipped, media_type="image/svg+xml",
                            headers={**headers, "Content-Encoding": "gzip"})
        return Response(content=picture.svg, media_type="image/svg+xml", headers=headers)

    @app.get("/api/tiles/{edition}/{tile}.svg")
    async def tile_svg(edition: str, tile: str, rotation: int = 0) -> Response:
        """One tile as it lies at ``rotation`` (0-5), drawn by the board's renderer: the
        pictures of the tile choices.  The same for every game: cached by the browser."""
        if edition not in EDITIONS:
            raise ApiError(404, f"edition: {edition!r} is not one of {', '.join(EDITIONS)}")
        try:
            svg = await _run(_tile_picture, edition, tile, rotation)
        except InputError as exc:
            raise ApiError(404, str(exc)) from None
        return Response(content=svg, media_type="image/svg+xml",
                        headers={"Cache-Control": TILE_CACHE})

    @app.get("/api/games/{game_id}/stats.svg")
    async def stats_svg(game_id: str) -> Response:
        """The charts of ``india1853 stats`` (the end screen shows them)."""
        svg = await _run(store().stats_svg, game_id)
        return Response(content=svg, media_type="image/svg+xml")

    @app.post("/api/games/{game_id}/stream-ticket")
    async def stream_ticket(game_id: str, request: Request,
                            seat: str | None = None) -> Response:
        """A ticket that opens this token's event stream once, within a few seconds
        (``/events?ticket=...``): no token in a URL (tickets.py)."""
        token = _bearer(request)
        if token is None:
            raise ApiError(401, "token: a ticket is for a seat's token (Authorization: "
                                "Bearer); a spectator's stream needs none")
        await _run(store().check_access, game_id, token, seat)
        tickets: StreamTickets = app.state.tickets
        ticket = await _run(tickets.issue, game_id, token_hash(token))
        return _json_response(_json({"ticket": ticket, "expires_in": tickets.seconds}))

    @app.get("/api/games/{game_id}/events")
    async def game_events(game_id: str, request: Request, ticket: str | None = None,
                          seat: str | None = None, after: int | None = None) -> Response:
        """Server-sent events: the GET view at every change (``id:`` the last action id);
        resumes after ``Last-Event-ID`` (or ``?after=N``).  A seat's stream opens with
        ``?ticket=`` (POST .../stream-ticket) or the ``Authorization`` header."""
        if "token" in request.query_params:
            raise ApiError(400, "token: a token in the URL is refused (URLs reach access "
                                "logs): open the stream with ?ticket= from POST "
                                f"/api/games/{game_id}/stream-ticket, or send Authorization: "
                                "Bearer")
        token = _bearer(request)
        if ticket is not None:
            if token is not None:
                raise ApiError(400, "ticket: send a ticket or a token, not both")
            tickets: StreamTickets = app.state.tickets
            try:
                token = HashedToken(await _run(tickets.redeem, game_id, ticket))
            except TicketRefused as exc:
                raise ApiError(401, str(exc)) from None
        await _run(store().check_access, game_id, token, seat)
        last = request.headers.get("last-event-id")
        if last is not None and not EVENT_ID.fullmatch(last.strip()):
            raise ApiError(422, "Last-Event-ID: must be an action id (digits) sent by this "
                                "server")
        resume = int(last) if last is not None else after
        stream = _stream(app, game_id, token, seat, resume)
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    @app.get("/", include_in_schema=False)
    async def lobby() -> Response:
        return _page("index.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Response:
        await _run(store().last_action_id, game_id)  # 404 for an unknown game
        return _page("game.html")

    app.include_router(social.router)  # social.py: the chat and the turn alerts
    app.include_router(router)  # seats_api.py: clock, takebacks, absent players
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    install_docs(app, STATIC)  # docs.py: /docs from packaged assets, under the CSP

    def recognise(game_id: str, token: str) -> bool:
        return store().known_token(game_id, token)

    install_accounts(app, STATIC, accounts, trusted_proxy_header)  # accounts, open seats
    chosen = budgets or Budgets()
    if rate_limit is not None:
        chosen = replace(chosen, writes=rate_limit)
    # security.py: headers, rate limits per seat or address, body cap, errors
    # Every answer above GZIP_MIN_BYTES gzipped for a client that accepts it (views, logs,
    # scripts); the event stream is left as it is (Starlette never buffers text/event-stream)
    # and the board comes gzipped already.  zlib's level 6, as the board's (boards.py): as
    # small as Starlette's default 9 within 0.2 %, in 60 % of its CPU (the scripts of a page).
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES, compresslevel=GZIP_LEVEL)
    app.add_middleware(Guard, budgets=chosen, rate_limited=rate_limited, recognise=recognise,
                       trusted_header=trusted_proxy_header)
    install_schema(app)  # schema.py: errors documented as they are ({"detail": "..."})
    return app


@lru_cache(maxsize=1024)
def _tile_picture(edition: str, tile: str, rotation: int) -> bytes:
    return render_tile_svg(load_edition(edition), tile, rotation).encode("utf-8")


def _page(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        raise ApiError(404, f"{name}: the browser UI is not installed")
    return FileResponse(path, headers={"Cache-Control": "no-cache"})


async def _stream(app: FastAPI, game_id: str, token: str | None, seat: str | None,
                  resume: int | None) -> AsyncIterator[str]:
    store: GameStore = app.state.store
    notifier: Notifier = app.state.notifier
    chat = app.state.social.chat
    poll: float = app.state.poll_seconds
    yield "retry: 1000\n\n"
    seen: int | None = None
    at: int | None = None  # the last action id the page has
    sent: bytes | None = None  # the last view sent (a wake by a chat message changes none)
    chat_at: int | None = None  # the last chat message sent (None: none yet, chat.py)
    first = True
    while not notifier.closing.is_set():
        event = notifier.event(game_id)
        revision = notifier.revision(game_id)
        if revision != seen:
            seen = revision
            try:
                action_id, data = await _run(store.view_json, game_id, token, seat)
            except ApiError as exc:
                yield f"event: error\ndata: {json.dumps({'detail': exc.detail})}\n\n"
                return
            fresh = not (first and resume is not None and resume == action_id) and data != sent
            if fresh:
                yield f"id: {action_id}\ndata: {data.decode('utf-8')}\n\n"
            if action_id == at or chat_at is None:  # no action: maybe a chat message
                chat_at, text = await _run(chat.event, game_id, chat_at)
                if text:
                    yield text
                elif not fresh and not first:
                    # Woken with the same view and no chat: a seat's request, vote or
                    # stand-in changed (seats_api.py); the page asks /seats again.
                    yield "event: seats\ndata: {}\n\n"
            at, sent, first = action_id, data, False
            continue
        try:
            await asyncio.wait_for(event.wait(), poll)
        except TimeoutError:
            yield ": keepalive\n\n"
            try:
                if await _run(store.database_count, game_id) != at:
                    seen = None  # written by another process: send the view again
                chat_at, text = await _run(chat.event, game_id, chat_at)
                if text:
                    yield text
            except ApiError:
                return
