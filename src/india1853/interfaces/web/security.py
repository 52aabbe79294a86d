"""Hostile-input guards around the whole application (an ASGI middleware).

- Security headers on every response, errors included: a Content Security Policy (scripts
  only from this server, no plugin, no framing), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``.
- Rate limits (token buckets; ``429 {"detail": ...}`` with ``Retry-After`` instead of the
  machine's CPU), each with its own budget: every write (POST), and lower ones for the heavy
  routes: creating a game, importing a log, and the renders (board and stats SVG, history
  ``at/N``), reads included.  A bucket belongs to a seat when the request carries a token of
  the game in its path (the store recognises it: ``recognise``), else to the client's address
  (an IPv6 address by its /64 network): a made-up token is only an address.  Behind a proxy
  the address is read from a configured header (``trusted_header``, e.g.
  ``X-Forwarded-For``: its last entry, the one the proxy wrote), never from a header that
  was not configured.  The buckets live in this process (several processes each allow the
  rate).
- A cap on any request body's declared length (``413`` before the route runs); the routes
  that read a body also count it as it arrives (1 MiB for an action, 16 MiB for a log).
- An unexpected error is a ``500 {"detail": ...}`` with the headers (its traceback in the
  log); a client gone mid-request is one line in the log.

Tokens themselves are compared in constant time by the store (``hmac.compare_digest`` on
their SHA-256 digests); buckets are keyed by a digest too, so no token is kept here.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread
from starlette.requests import ClientDisconnect

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
# (game id, token) -> whether the token is a seat's (or the hotseat) token of that game.
Recognise = Callable[[str, str], bool]

log = logging.getLogger("india1853.web")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
MAX_ANY_BODY = 17 << 20  # above the largest route cap (a 16 MiB log import)
MAX_BUCKETS = 10_000
KNOWN_TOKENS = 10_000  # digests of recognised tokens kept (a game's tokens never change)
GAME_PATH = re.compile(r"/api/games/([^/]+)(/.*)?")
# The heavy reads: pictures, history views, and a hint (the strong bot's search).
RENDERS = re.compile(r"/(board\.svg|stats\.svg|at/[^/]*|hint)")


@dataclass(frozen=True)
class RateLimit:
    """``rate`` requests a second on average, ``burst`` at once, per seat (or address)."""

    rate: float = 20.0
    burst: float = 60.0


@dataclass(frozen=True)
class Budgets:
    """The rate limits of the routes, each its own bucket per seat or address: every write,
    and the heavy routes' lower budgets (docs/deployment.md, "Limits")."""

    writes: RateLimit = field(default_factory=RateLimit)
    creates: RateLimit = field(default_factory=lambda: RateLimit(rate=1.0, burst=10.0))
    imports: RateLimit = field(default_factory=lambda: RateLimit(rate=0.2, burst=5.0))
    renders: RateLimit = field(default_factory=lambda: RateLimit(rate=10.0, burst=60.0))


class _Buckets:
    """Token buckets, least recently used dropped beyond ``MAX_BUCKETS`` (thread-safe)."""

    def __init__(self, limit: RateLimit) -> None:
        self.limit = limit
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._guard = threading.Lock()

    def take(self, key: str, now: float) -> float:
        """0 if the request may go ahead, else the seconds until it may."""
        with self._guard:
            level, stamp = self._buckets.pop(key, (self.limit.burst, now))
            level = min(self.limit.burst, level + (now - stamp) * self.limit.rate)
            wait = 0.0
            if level >= 1.0:
                level -= 1.0
            else:
                wait = (1.0 - level) / self.limit.rate
            self._buckets[key] = (level, now)
            while len(self._buckets) > MAX_BUCKETS:
                self._buckets.popitem(last=False)
            return wait


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _bearer(scope: Scope) -> str | None:
    header = _header(scope, b"authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def client_address(scope: Scope, trusted_header: bytes | None) -> str:
    """The client's address: the configured proxy header's last entry (the one the proxy
    wrote; those before it are the client's own word), else the connection's peer.  An IPv6
    address stands for its /64 network (one machine may hold a whole /64)."""
    address = ""
    if trusted_header is not None:
        address = (_header(scope, trusted_header) or "").rsplit(",", 1)[-1].strip()
    if not address:
        client = scope.get("client") or ("?", 0)
        address = str(client[0])
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address[:64]
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _budget(scope: Scope) -> tuple[str, str | None] | None:
    """The request's budget (``writes``, ``creates``, ``imports``, ``renders``; None: not
    limited) and the game its path names."""
    path: str = scope.get("path", "")
    method = scope["method"]
    if path == "/api/games/import":
        return ("imports", None) if method == "POST" else None
    if path in ("/api/games", "/api/open-games"):  # a new game, or one with open seats
        return ("creates", None) if method == "POST" else None
    found = GAME_PATH.fullmatch(path)
    game = found.group(1) if found else None
    if method not in ("GET", "HEAD", "OPTIONS"):
        return "writes", game
    if found and found.group(2) and RENDERS.fullmatch(found.group(2)):
        return "renders", game
    return None


async def _refuse(send: Send, status: int, detail: str,
                  extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), *HEADERS, *extra]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The middleware: headers on every HTTP response, rate limits, body cap, errors."""

    def __init__(self, app: ASGIApp, budgets: Budgets | None = None,
                 rate_limited: bool = True, recognise: Recognise | None = None,
                 trusted_header: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.rate_limited = rate_limited
        self.budgets = budgets or Budgets()
        self.buckets = {name: _Buckets(getattr(self.budgets, name))
                        for name in ("writes", "creates", "imports", "renders")}
        self.recognise = recognise
        self.trusted_header = trusted_header.lower().encode() if trusted_header else None
        self.clock = clock
        self._known: OrderedDict[str, None] = OrderedDict()  # "game:digest" recognised
        self._known_guard = threading.Lock()

    async def _key(self, scope: Scope, game: str | None) -> str:
        """The bucket's owner: the seat of a token the store recognises for the game in the
        path (its digest: one token per seat), else the client's address."""
        token = _bearer(scope)
        if game is not None and token is not None and self.recognise is not None:
            digest = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
            known = f"{game}:{digest}"
            with self._known_guard:
                hit = known in self._known
            if not hit and await to_thread.run_sync(self.recognise, game, token):
                with self._known_guard:
                    self._known[known] = None
                    while len(self._known) > KNOWN_TOKENS:
                        self._known.popitem(last=False)
                hit = True
            if hit:
                return "seat:" + known
        return "address:" + client_address(scope, self.trusted_header)

    async def _limited(self, scope: Scope, send: Send) -> bool:
        """Whether the request was refused with 429 (its budget spent)."""
        found = _budget(scope) if self.rate_limited else None
        if found is None:
            return False
        name, game = found
        buckets = self.buckets[name]
        wait = buckets.take(await self._key(scope, game), self.clock())
        if wait <= 0:
            return False
        seconds = max(1, math.ceil(wait))
        await _refuse(send, 429, f"rate limit: at most {buckets.limit.rate:g} {name} a second "
                      f"per seat or address (bursts of {buckets.limit.burst:g}); retry in "
                      f"{seconds} s", ((b"retry-after", str(seconds).encode()),))
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if await self._limited(scope, send):
            return
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > MAX_ANY_BODY:
            await _refuse(send, 413, f"body: larger than {MAX_ANY_BODY} bytes")
            return
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()),
                                      *(h for h in HEADERS if h[0] not in present)]
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except ClientDisconnect:
            log.warning("%s %s: the client went away before its request was complete",
                        scope["method"], scope.get("path", ""))
        except Exception:
            log.exception("%s %s: unexpected error", scope["method"], scope.get("path", ""))
            if started:
                raise
            await _refuse(send, 500, "internal error: the server's log has the details")
