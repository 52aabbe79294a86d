"""Hostile-input guards around the whole application (an ASGI middleware).

- Security headers on every response: a Content Security Policy (scripts only from this
  server, no plugin, no framing), ``X-Frame-Options: DENY``, ``X-Content-Type-Options:
  nosniff`` and ``Referrer-Policy: no-referrer`` (an event stream's URL carries its token).
- A per-token rate limit on every write (POST): a token bucket per token, or per client
  address for requests without one (creating games), so that a flood of actions gets
  ``429 {"detail": ...}`` with ``Retry-After`` instead of the machine's CPU.  The buckets live
  in this process (several processes each allow the rate).
- A cap on any request body's declared length (``413`` before the route runs); the routes
  that read a body also count it as it arrives (1 MiB for an action, 16 MiB for a log).

Tokens themselves are compared in constant time by the store (``hmac.compare_digest`` on
their SHA-256 digests); buckets are keyed by a digest too, so no token is kept here.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

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


@dataclass(frozen=True)
class RateLimit:
    """``rate`` writes a second on average, ``burst`` at once, per token (or address)."""

    rate: float = 20.0
    burst: float = 60.0


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


def _client_key(scope: Scope) -> str:
    """The bucket of a request: its token's digest, else its client address."""
    token: str | None = None
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            token = value.decode("latin-1").partition(" ")[2].strip() or None
    if token is None:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [None])[0]
    if token:
        return "t:" + hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
    client = scope.get("client") or ("?", 0)
    return f"a:{client[0]}"


async def _refuse(send: Send, status: int, detail: str,
                  extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), *HEADERS, *extra]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The middleware: headers on every HTTP response, rate limit on writes, body cap."""

    def __init__(self, app: ASGIApp, limit: RateLimit | None = None,
                 rate_limited: bool = True, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.rate_limited = rate_limited
        self.buckets = _Buckets(limit or RateLimit())
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.rate_limited and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            wait = self.buckets.take(_client_key(scope), self.clock())
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                await _refuse(send, 429, f"rate limit: at most {self.buckets.limit.rate:g} "
                              f"writes a second per token; retry in {seconds} s",
                              ((b"retry-after", str(seconds).encode()),))
                return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > MAX_ANY_BODY:
                await _refuse(send, 413, f"body: larger than {MAX_ANY_BODY} bytes")
                return
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()),
                                      *(h for h in HEADERS if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)
