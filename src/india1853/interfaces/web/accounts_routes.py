"""The routes of accounts, open seats and "My games" (docs/web-api.md, "Accounts" and "Open
games"), installed on the app by ``install(app, ...)``: the :class:`~accounts.Sessions`
middleware and one APIRouter.  The logic is in accounts.py (sessions, passwords, CSRF, login
limits) and seating.py (open seats, joining, starting, "My games").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from anyio import to_thread
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from india1853.interfaces.web import absence, clock
from india1853.interfaces.web.accounts import (
    Account,
    Accounts,
    AccountSettings,
    LoginLimits,
    Sessions,
    check_name,
    check_password,
    client_of,
    csrf_token,
    secure,
    session_cookies,
    signed_in,
)
from india1853.interfaces.web.entry import ApiError, encode
from india1853.interfaces.web.request_input import M, read_model
from india1853.interfaces.web.schema import model_schema
from india1853.interfaces.web.seating import Seating, SeatingSpec, SeatSpec
from india1853.interfaces.web.seats_api import MAX_SECONDS, ClockBody, seat_rules
from india1853.interfaces.web.store import GameStore

T = TypeVar("T")
MAX_BODY = 64 << 10  # a name and a password, a new game's seats, a browser's kept seats


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    password: str


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    password: str  # the present one
    new_password: str


class PasswordBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    password: str


class SeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = None
    bot: str | None = None
    open: bool = False


class OpenGameBody(BaseModel):
    """POST /api/open-games: the settings and the seats (one yours, bots, open ones)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    edition: str = "second"
    variants: list[str] = []
    seed: int | None = None
    hints: bool = False
    players: list[SeatBody]
    # The seats' rules, as POST /api/games takes them (seats_api.py): from the start.
    clock: ClockBody | None = None
    absent_after: float | None = Field(default=None, gt=0, le=MAX_SECONDS)


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = None


class StartBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    bot: str = "greedy"


class KeptSeat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    token: str


class MyGamesBody(BaseModel):
    """POST /api/my-games: the seats this browser keeps (a guest's tokens, in the body)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seats: list[KeptSeat] = []


async def _model(request: Request, model: type[M]) -> M:
    """The request's JSON body as ``model`` (an empty body: ``{}``)."""
    return await read_model(request, model, MAX_BODY, empty={})


async def _run(func: Callable[..., T], *args: Any) -> T:
    return await to_thread.run_sync(partial(func, *args))


def _json(data: Any, status: int = 200, cookies: list[str] | None = None) -> Response:
    response = Response(content=encode(data), status_code=status,
                        media_type="application/json", headers={"Cache-Control": "no-store"})
    for cookie in cookies or []:
        response.headers.append("set-cookie", cookie)
    return response


def _body_doc(model: type[BaseModel], description: str) -> dict[str, Any]:
    """The OpenAPI description of a route's JSON body (the route reads it itself)."""
    return {"requestBody": {"required": True, "description": description,
                            "content": {"application/json": {
                                "schema": model_schema(model)}}}}


def _account_json(account: Account | None, session: str | None) -> dict[str, Any]:
    return {"account": {"name": account.name} if account else None,
            "csrf": csrf_token(session) if account and session else None}


def install(app: FastAPI, static: Path, settings: AccountSettings | None = None,
            trusted_proxy_header: str | None = None) -> None:
    """The middleware and the routes on ``app`` (whose lifespan sets ``app.state.store``)."""
    chosen = settings or AccountSettings()
    limits = LoginLimits(chosen)
    router = APIRouter()

    def accounts() -> Accounts:
        found: Accounts | None = getattr(app.state, "accounts", None)
        if found is None or found.db is not app.state.store.db:
            found = app.state.accounts = Accounts(app.state.store.db, chosen)
        return found

    def seating() -> Seating:
        found: Seating | None = getattr(app.state, "seating", None)
        if found is None or found.store is not app.state.store:
            found = app.state.seating = Seating(app.state.store)
        return found

    def cookies(request: Request, session: str | None) -> list[str]:
        return session_cookies(session, int(chosen.session_days * 86400),
                               secure(request.scope, chosen, trusted_proxy_header is not None))

    app.add_middleware(Sessions, accounts=accounts,
                       seat_of=lambda account_id, game_id: seating().account_seat(account_id,
                                                                                    game_id),
                       trusted_proxy=trusted_proxy_header is not None)

    # --- accounts ---------------------------------------------------------------------------

    @router.get("/api/account")
    async def who_am_i(request: Request) -> Response:
        """The signed-in account (null for a guest) and the session's CSRF token, which every
        signed-in write sends as ``X-CSRF-Token``."""
        return _json(_account_json(signed_in(request), _session(request)))

    @router.post("/api/account/sign-up", status_code=201,
                 openapi_extra=_body_doc(Credentials, "a name and a password"))
    async def sign_up(request: Request) -> Response:
        """A new account (a name and a password of at least 8 characters), signed in: the
        session cookie (HttpOnly, SameSite=Lax, Secure over TLS) and the CSRF cookie."""
        body = await _model(request, Credentials)
        name, password = check_name(body.name), check_password(body.password)
        limits.take(name, client_of(request, trusted_proxy_header))
        account, session = await _run(accounts().sign_up, name, password)
        return _json(_account_json(account, session), 201, cookies(request, session))

    @router.post("/api/account/sign-in",
                 openapi_extra=_body_doc(Credentials, "a name and a password"))
    async def sign_in(request: Request) -> Response:
        """Sign in (rate-limited per name and per client address: 429 with the seconds to
        wait); 401 for a wrong name or password, in the same words either way."""
        body = await _model(request, Credentials)
        limits.take(body.name, client_of(request, trusted_proxy_header))
        account, session = await _run(accounts().sign_in, body.name, body.password)
        return _json(_account_json(account, session), 200, cookies(request, session))

    @router.post("/api/account/sign-out")
    async def sign_out(request: Request) -> Response:
        """End this browser's session (its row deleted, both cookies cleared)."""
        session = _session(request)
        if session is not None:
            await _run(accounts().sign_out, session)
        return _json({"account": None, "csrf": None}, 200, cookies(request, None))

    @router.post("/api/account/password",
                 openapi_extra=_body_doc(PasswordChange, "the password and the new one"))
    async def change_password(request: Request) -> Response:
        """A new password (the present one asked again; rate-limited as sign-in): every
        session of the account ends - other browsers are signed out - and this browser gets
        a new session (both cookies set again)."""
        account = _account(request)
        body = await _model(request, PasswordChange)
        new = check_password(body.new_password, "new_password")
        limits.take(account.name, client_of(request, trusted_proxy_header))
        session = await _run(accounts().change_password, account, body.password, new)
        return _json(_account_json(account, session), 200, cookies(request, session))

    @router.post("/api/account/delete",
                 openapi_extra=_body_doc(PasswordBody, "the account's password"))
    async def delete_account(request: Request) -> Response:
        """Delete the signed-in account (its password asked again; rate-limited as
        sign-in): its sessions and alert settings are gone; a game waiting for players
        opens its seat again (one it created is withdrawn); in a started game its seat
        stays under its name and a bot plays it on (``left``: those seats; ``withdrawn``:
        the games withdrawn).  Both cookies are cleared."""
        account = _account(request)
        body = await _model(request, PasswordBody)
        limits.take(account.name, client_of(request, trusted_proxy_header))
        await _run(accounts().verify, account, body.password)
        handed, withdrawn = await _run(seating().release, account.id)
        for game_id in dict.fromkeys(g for g, _seat in handed):
            await _run(bots_take_over, app.state.store, game_id)
            app.state.bots.kick(game_id)
        return _json({"account": None, "csrf": None,
                      "left": [{"game": g, "seat": s} for g, s in handed],
                      "withdrawn": withdrawn}, 200, cookies(request, None))

    # --- open games -------------------------------------------------------------------------

    @router.post("/api/open-games", status_code=201,
                 openapi_extra=_body_doc(OpenGameBody, "the settings and the seats"))
    async def create_open_game(request: Request) -> Response:
        """A game with open seats: ``players`` in their order, each ``{"open": true}``, a bot
        ``{"name", "bot"}``, or yours (``{"name"}``; signed in, the name defaults to the
        account's).  Answers your seat, the invite link and, for a guest, your seat's token
        (yours alone: nobody receives another seat's token)."""
        body = await _model(request, OpenGameBody)
        spec = SeatingSpec(seats=tuple(SeatSpec(p.name, p.bot, p.open) for p in body.players),
                           edition=body.edition, variants=tuple(body.variants),
                           seed=body.seed, hints=body.hints,
                           rules=seat_rules(body.clock, body.absent_after))
        out = await _run(seating().create, spec, signed_in(request))
        if out["started"]:
            app.state.bots.kick(out["id"])
        return _json(out, 201)

    @router.get("/api/open-games")
    async def list_open_games() -> Response:
        """The games waiting for players (newest first, at most 100): seats, open ones."""
        return _json({"games": await _run(seating().open_games)})

    @router.get("/api/open-games/{game_id}")
    async def open_game(game_id: str, request: Request) -> Response:
        """One game created with open seats (the invite link's page), started or not;
        ``yours``: the signed-in account holds a seat in it."""
        return _json(await _run(seating().one, game_id, signed_in(request)))

    @router.post("/api/open-games/{game_id}/join",
                 openapi_extra=_body_doc(JoinBody, "your name in the game"))
    async def join(game_id: str, request: Request) -> Response:
        """Take the first open seat under ``name`` (signed in: the account's name unless
        given).  A guest receives his seat's token once, in this answer.  The game starts
        when its last seat is taken."""
        body = await _model(request, JoinBody)
        name = None if body.name is None else check_name(body.name)
        out = await _run(seating().join, game_id, name, signed_in(request))
        if out["started"]:
            app.state.bots.kick(game_id)
        return _json(out)

    @router.post("/api/open-games/{game_id}/start",
                 openapi_extra=_body_doc(StartBody, "the bot for the open seats"))
    async def start(game_id: str, request: Request) -> Response:
        """The creator (signed in, or with his seat's token as ``Authorization: Bearer``)
        fills the open seats with ``bot`` and starts the game."""
        body = await _model(request, StartBody)
        header = request.headers.get("authorization") or ""
        scheme, _, token = header.partition(" ")
        out = await _run(seating().start, game_id, body.bot, signed_in(request),
                         token.strip() if scheme.lower() == "bearer" and token.strip()
                         else None)
        app.state.bots.kick(game_id)
        return _json(out)

    @router.post("/api/my-games",
                 openapi_extra=_body_doc(MyGamesBody, "the seats this browser keeps"))
    async def my_games(request: Request) -> Response:
        """Every game of the signed-in account and of the seats this browser keeps
        (``seats``: game id and token each, in the body): whose turn it is (the engine's),
        the games waiting for you first; finished games with their scores."""
        body = await _model(request, MyGamesBody)
        account = signed_in(request)
        found = await _run(seating().my_games, account,
                           [(s.game, s.token) for s in body.seats])
        return _json({"account": {"name": account.name} if account else None,
                      "games": found})

    # --- pages ------------------------------------------------------------------------------

    @router.get("/join/{game_id}", include_in_schema=False)
    async def join_page(game_id: str) -> Response:
        return FileResponse(static / "index.html", headers={"Cache-Control": "no-cache"})

    @router.get("/my-games", include_in_schema=False)
    async def my_games_page() -> Response:
        return FileResponse(static / "mine.html", headers={"Cache-Control": "no-cache"})

    app.include_router(router)


def _account(request: Request) -> Account:
    """The signed-in account, or 401."""
    account = signed_in(request)
    if account is None:
        raise ApiError(401, "session: sign in first (no account is signed in here)")
    return account


def bots_take_over(store: GameStore, game_id: str) -> None:
    """A bot plays a seat now (absence.py's row is written): the seat's clock stops, the
    game's answers are built again and its pages told (as when a player hands his seat)."""
    with store.held(game_id) as entry:
        clock.restart(store.db, game_id, entry.game, time.time())
    store.seats_changed(game_id, absence.bots_of(store.db, game_id))


def _session(request: Request) -> str | None:
    session = request.scope.get("state", {}).get("session")
    return session if isinstance(session, str) else None


__all__ = ["install"]
