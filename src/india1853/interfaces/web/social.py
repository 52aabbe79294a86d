"""The routes of the players' table talk: a game's chat, its seats' and the accounts' turn
alerts.

An APIRouter that app.py includes; the logic is in chat.py and alerts.py, the services are
made at the server's start (:func:`start`) and kept on ``app.state``.  Every answer is JSON,
every refusal ``{"detail": "one line naming the field"}`` (schema.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from anyio import to_thread
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response

from india1853.interfaces.web.accounts import signed_in
from india1853.interfaces.web.alerts import AlertConfig, Alerts
from india1853.interfaces.web.chat import MAX_CHARS, Chat
from india1853.interfaces.web.entry import ApiError, encode
from india1853.interfaces.web.pubsub import LocalBroadcast
from india1853.interfaces.web.request_input import bearer, read_body
from india1853.interfaces.web.store import GameStore

MAX_SOCIAL_BODY = 16 << 10  # a chat message or alert settings: a few hundred bytes

router = APIRouter()
T = TypeVar("T")


@dataclass
class Social:
    chat: Chat
    alerts: Alerts
    bus: LocalBroadcast

    async def stop(self) -> None:
        await self.alerts.stop()


async def start(app: FastAPI, store: GameStore, bus: LocalBroadcast,
                config: AlertConfig | None) -> Social:
    """The chat and the alerts of this process; the store's changes also wake the alerts."""
    alerts = Alerts(store, config or AlertConfig())
    await alerts.start()
    announce = store.on_change

    def changed(game_id: str) -> None:
        if announce is not None:
            announce(game_id)
        alerts.changed(game_id)

    store.on_change = changed
    social = Social(Chat(store), alerts, bus)
    app.state.social = social
    return social


def _social(request: Request) -> Social:
    found: Social = request.app.state.social
    return found


async def _json(request: Request) -> object:
    return await read_body(request, MAX_SOCIAL_BODY)


def _token(request: Request) -> str | None:
    return bearer(request)


def _answer(data: object, status: int = 200) -> Response:
    return Response(content=encode(data), status_code=status, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


async def _run(func: Callable[..., T], *args: Any) -> T:
    return await to_thread.run_sync(partial(func, *args))


@router.get("/api/games/{game_id}/chat")
async def read_chat(game_id: str, request: Request, after: int = 0) -> Response:
    """The game's chat (the messages after message ``after``, at most 200, the oldest
    first): everyone who can watch the game reads it, no token needed."""
    return _answer(await _run(_social(request).chat.read, game_id, after))


@router.post("/api/games/{game_id}/chat", status_code=201, openapi_extra={"requestBody": {
    "required": True, "description": f"{{\"text\": \"...\"}}: plain text, at most {MAX_CHARS} "
    "characters", "content": {"application/json": {"schema": {
        "type": "object", "required": ["text"], "additionalProperties": False,
        "properties": {"text": {"type": "string", "maxLength": MAX_CHARS}}}}}}})
async def post_chat(game_id: str, request: Request, seat: str | None = None) -> Response:
    """Write a chat message as the token's seat (429 beyond 10 a minute per seat); the
    game's event streams carry it (``event: chat``)."""
    token = _token(request)
    body = await _json(request)
    social = _social(request)
    message = await _run(social.chat.post, game_id, token, seat, body)
    social.bus.changed(game_id)
    return _answer(message, 201)


@router.get("/api/games/{game_id}/alerts")
async def read_alerts(game_id: str, request: Request, seat: str | None = None) -> Response:
    """The token's seat's turn alerts: its webhook, e-mail address and quiet time (only to
    that seat's own token)."""
    token = _token(request)
    return _answer(await _run(_social(request).alerts.settings, game_id, token, seat))


_ALERTS_SCHEMA = {
    "type": "object", "additionalProperties": False, "properties": {
        "webhook": {"type": ["string", "null"], "maxLength": 2048},
        "email": {"type": ["string", "null"], "maxLength": 254},
        "quiet_seconds": {"type": ["integer", "null"], "minimum": 0}}}


@router.put("/api/games/{game_id}/alerts", openapi_extra={"requestBody": {
    "required": True, "description": "where the seat's turn alerts go (null: nowhere)",
    "content": {"application/json": {"schema": _ALERTS_SCHEMA}}}})
async def save_alerts(game_id: str, request: Request, seat: str | None = None) -> Response:
    """Set the token's seat's turn alerts (a Discord- or Slack-compatible webhook, an e-mail
    address if the server has SMTP, the quiet time in seconds); all null: no alerts."""
    token = _token(request)
    body = await _json(request)
    if body is None:
        raise ApiError(422, "body: must be a JSON object")
    return _answer(await _run(_social(request).alerts.save, game_id, token, seat, body))


def _account_id(request: Request) -> int:
    account = signed_in(request)
    if account is None:
        raise ApiError(401, "account: sign in first (an account's alerts are for its seats)")
    return account.id


@router.get("/api/account/alerts")
async def read_account_alerts(request: Request) -> Response:
    """The signed-in account's turn alerts: one webhook and e-mail address for all its seats
    (a seat's own settings go before them)."""
    account_id = _account_id(request)
    return _answer(await _run(_social(request).alerts.account_settings, account_id))


@router.put("/api/account/alerts", openapi_extra={"requestBody": {
    "required": True, "description": "where the account's turn alerts go (null: nowhere)",
    "content": {"application/json": {"schema": _ALERTS_SCHEMA}}}})
async def save_account_alerts(request: Request) -> Response:
    """Set the signed-in account's turn alerts (with the session's X-CSRF-Token)."""
    account_id = _account_id(request)
    body = await _json(request)
    if body is None:
        raise ApiError(422, "body: must be a JSON object")
    return _answer(await _run(_social(request).alerts.save_account, account_id, body))
