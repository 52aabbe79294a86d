"""Accounts: a name and a password, a session cookie, CSRF protection and login rate limits.

Accounts are optional: a guest plays with a seat's link as before.  A signed-in browser holds
a session: 32 random bytes in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` when the
server is reached over TLS: the request's scheme, ``X-Forwarded-Proto: https`` from a trusted
proxy, or the ``secure_cookies`` setting); the database keeps only the session's SHA-256.
Passwords are hashed with argon2id (argon2-cffi; its RFC 9106 low-memory profile), never
stored, never logged, never in any answer.

CSRF: a write (POST and every method but GET, HEAD and OPTIONS) that comes with a valid
session cookie must carry the header ``X-CSRF-Token`` with the session's CSRF token (derived
from the session, handed to the page in the readable cookie ``india1853_csrf`` and in
``GET /api/account``): a double-submit token another site can neither read nor forge.  Any
write with an ``Origin`` header naming another host than the request's is refused as well,
sign-in and sign-up included (login CSRF).  Writes without a session cookie (a guest with a
seat's token in the ``Authorization`` header) carry no ambient authority and need neither.

A change of password asks for the old one and ends every session of the account (a new one
for the browser that changed it); deleting an account asks for the password too
(seating.py's ``release`` says what becomes of its seats).  Sign-in, sign-up, a change of
password and a deletion are rate-limited per name and per client address (token buckets in this
process, as security.py's: several processes each allow the rate).

:class:`Sessions` is the ASGI middleware that reads the cookie once per request, checks CSRF,
and for a request about a game (``/api/games/{id}...``) without a token finds the account's
seat in that game (``seat_of``: seating.py): ``signed_in_seat(request)`` gives it to the
routes as the seat's token hash (``HashedToken``), so the store checks it exactly as a token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread
from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from argon2.profiles import RFC_9106_LOW_MEMORY
from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request

from india1853.interfaces.web.access import HashedToken
from india1853.interfaces.web.db import Database, account_sessions, accounts
from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.security import HEADERS, RateLimit, _Buckets, client_address

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SESSION_COOKIE = "india1853_session"
CSRF_COOKIE = "india1853_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_BYTES = 32
MAX_ACCOUNT_NAME = 32  # below the engine's MAX_NAME_LENGTH: the account's name is its seats'
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# The routes that start a session: no session of their own to check, an Origin check only.
SIGN_PATHS = ("/api/account/sign-in", "/api/account/sign-up")
GAME_PATH = re.compile(r"/api/games/([^/]+)(/.*)?")


@dataclass(frozen=True)
class AccountSettings:
    """How accounts behave (``india1853 serve`` options; docs/deployment.md).

    ``secure_cookies``: True or False forces the cookies' ``Secure`` attribute, None decides
    per request (TLS seen by this server, or ``X-Forwarded-Proto: https`` from a trusted
    proxy).  ``per_name`` and ``per_client``: the sign-in (and sign-up) budgets.  ``hasher``:
    argon2's parameters (tests choose cheap ones)."""

    session_days: float = 30.0
    secure_cookies: bool | None = None
    per_name: RateLimit = field(default_factory=lambda: RateLimit(rate=1 / 60, burst=5.0))
    per_client: RateLimit = field(default_factory=lambda: RateLimit(rate=0.1, burst=20.0))
    hash_time_cost: int = RFC_9106_LOW_MEMORY.time_cost
    hash_memory_kib: int = RFC_9106_LOW_MEMORY.memory_cost
    hash_parallelism: int = RFC_9106_LOW_MEMORY.parallelism


@dataclass(frozen=True)
class Account:
    id: int
    name: str


def name_key(name: str) -> str:
    """The key two names may not share (one account per name, whatever its case)."""
    return name.casefold()


def check_name(value: object, where: str = "name") -> str:
    """An account's name: what a player's name may be (printable, no outer spaces), at most
    ``MAX_ACCOUNT_NAME`` characters."""
    if not isinstance(value, str):
        raise ApiError(422, f"{where}: must be a string")
    if not value.strip():
        raise ApiError(422, f"{where}: must not be empty")
    if value != value.strip():
        raise ApiError(422, f"{where}: must not start or end with spaces")
    if len(value) > MAX_ACCOUNT_NAME:
        raise ApiError(422, f"{where}: at most {MAX_ACCOUNT_NAME} characters, got "
                            f"{len(value)}")
    if not value.isprintable():
        raise ApiError(422, f"{where}: holds a control character; a name must be printable")
    return value


def check_password(value: object, where: str = "password") -> str:
    if not isinstance(value, str):
        raise ApiError(422, f"{where}: must be a string")
    if len(value) < MIN_PASSWORD:
        raise ApiError(422, f"{where}: at least {MIN_PASSWORD} characters")
    if len(value) > MAX_PASSWORD:
        raise ApiError(422, f"{where}: at most {MAX_PASSWORD} characters")
    return value


def session_digest(session: str) -> str:
    return hashlib.sha256(session.encode("utf-8", "replace")).hexdigest()


def csrf_token(session: str) -> str:
    """The session's CSRF token: derived from the session (nothing stored), useless without
    it, and no way back to it."""
    return hmac.new(session.encode("utf-8", "replace"), b"india1853 csrf",
                    hashlib.sha256).hexdigest()


class Accounts:
    """The accounts and sessions of one database (blocking: run in a thread)."""

    def __init__(self, db: Database, settings: AccountSettings,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock
        self.hasher = PasswordHasher(time_cost=settings.hash_time_cost,
                                     memory_cost=settings.hash_memory_kib,
                                     parallelism=settings.hash_parallelism, type=Type.ID)
        # A sign-in with an unknown name verifies against this, so that it takes the time a
        # known name's does (no way to tell which names exist from the time taken).
        self._decoy: str | None = None

    def sign_up(self, name: str, password: str) -> tuple[Account, str]:
        """A new account and a session for it; 409 if the name is taken."""
        hashed = self.hasher.hash(password)
        now = self.clock()
        try:
            with self.db.write() as conn:
                found = conn.execute(select(accounts.c.id)
                                     .where(accounts.c.name_key == name_key(name))).first()
                if found is not None:
                    raise ApiError(409, f"name: {name!r} is taken; sign in, or choose "
                                        "another name")
                account_id = conn.execute(insert(accounts).values(
                    name=name, name_key=name_key(name), password_hash=hashed,
                    created_at=now)).inserted_primary_key
        except IntegrityError:  # another process took it between the check and the insert
            raise ApiError(409, f"name: {name!r} is taken; sign in, or choose another "
                                "name") from None
        assert account_id is not None
        account = Account(int(account_id[0]), name)
        return account, self._new_session(account.id)

    def sign_in(self, name: str, password: str) -> tuple[Account, str]:
        """A session for the account, if the password is its own; else 401 (the same words
        whether the name exists or not)."""
        with self.db.read() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == name_key(name))
                               ).first()
        if row is None and self._decoy is None:
            self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
        stored = str(row.password_hash if row is not None else self._decoy)
        try:
            self.hasher.verify(stored, password)
            good = row is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            good = False
        if not good or row is None:
            raise ApiError(401, "password: wrong name or password")
        if self.hasher.check_needs_rehash(stored):
            with self.db.write() as conn:
                conn.execute(accounts.update().where(accounts.c.id == row.id)
                             .values(password_hash=self.hasher.hash(password)))
        return Account(int(row.id), str(row.name)), self._new_session(int(row.id))

    def _new_session(self, account_id: int) -> str:
        with self.db.write() as conn:
            return self._insert_session(conn, account_id)

    def _insert_session(self, conn: Connection, account_id: int) -> str:
        session = secrets.token_urlsafe(SESSION_BYTES)
        now = self.clock()
        conn.execute(delete(account_sessions).where(account_sessions.c.expires_at < now))
        conn.execute(insert(account_sessions).values(
            digest=session_digest(session), account_id=account_id, created_at=now,
            expires_at=now + self.settings.session_days * 86400))
        return session

    def verify(self, account: Account, password: str) -> None:
        """401 unless ``password`` is the account's (asked again before a change of password
        and before the account is deleted: a session alone - a browser left open - is not
        enough)."""
        with self.db.read() as conn:
            stored = conn.execute(select(accounts.c.password_hash)
                                  .where(accounts.c.id == account.id)).scalar()
        try:
            good = stored is not None and self.hasher.verify(str(stored), password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            good = False
        if not good:
            raise ApiError(401, "password: wrong password")

    def change_password(self, account: Account, old: str, new: str) -> str:
        """The new password's hash stored and every session of the account ended (other
        browsers are signed out); a new session for this browser."""
        self.verify(account, old)
        hashed = self.hasher.hash(new)
        with self.db.write() as conn:
            conn.execute(accounts.update().where(accounts.c.id == account.id)
                         .values(password_hash=hashed))
            conn.execute(delete(account_sessions)
                         .where(account_sessions.c.account_id == account.id))
            return self._insert_session(conn, account.id)

    def sign_out(self, session: str) -> None:
        with self.db.write() as conn:
            conn.execute(delete(account_sessions)
                         .where(account_sessions.c.digest == session_digest(session)))

    def session(self, session: str) -> Account | None:
        """The account the session belongs to; None if unknown or expired."""
        with self.db.read() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name, account_sessions.c.expires_at)
                .join(accounts, accounts.c.id == account_sessions.c.account_id)
                .where(account_sessions.c.digest == session_digest(session))).first()
        if row is None or row.expires_at <= self.clock():
            return None
        return Account(int(row.id), str(row.name))


class LoginLimits:
    """Sign-in and sign-up attempts per name and per client address (429 when spent)."""

    def __init__(self, settings: AccountSettings,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.names = _Buckets(settings.per_name)
        self.clients = _Buckets(settings.per_client)
        self.clock = clock

    def take(self, name: str, client: str) -> None:
        now = self.clock()
        for buckets, key, what in ((self.clients, client, "client address"),
                                   (self.names, name_key(name), "name")):
            wait = buckets.take(key, now)
            if wait > 0:
                seconds = max(1, int(wait + 0.999))
                raise ApiError(429, f"rate limit: too many sign-ins for this {what} (at most "
                                    f"{buckets.limit.burst:g} at once, then one every "
                                    f"{1 / buckets.limit.rate:g} s); retry in {seconds} s")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def cookie_value(scope: Scope, name: str) -> str | None:
    header = _header(scope, b"cookie")
    if not header:
        return None
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name and value:
            return value
    return None


def secure(scope: Scope, settings: AccountSettings, trusted_proxy: bool) -> bool:
    """Whether the cookies are ``Secure``: forced by the setting, else TLS seen here or
    reported by a trusted proxy (``X-Forwarded-Proto: https``)."""
    if settings.secure_cookies is not None:
        return settings.secure_cookies
    if scope.get("scheme") == "https":
        return True
    proto = _header(scope, b"x-forwarded-proto") if trusted_proxy else None
    return (proto or "").split(",")[-1].strip().lower() == "https"


def session_cookies(session: str | None, max_age: int, is_secure: bool) -> list[str]:
    """The ``Set-Cookie`` values: the session (HttpOnly) and its CSRF token (readable by the
    page's script); ``None``: both cleared."""
    tail = "; Path=/; SameSite=Lax" + ("; Secure" if is_secure else "")
    if session is None:
        return [f"{SESSION_COOKIE}=; Max-Age=0; HttpOnly{tail}", f"{CSRF_COOKIE}=; Max-Age=0{tail}"]
    return [f"{SESSION_COOKIE}={session}; Max-Age={max_age}; HttpOnly{tail}",
            f"{CSRF_COOKIE}={csrf_token(session)}; Max-Age={max_age}{tail}"]


def _foreign_origin(scope: Scope, trusted_proxy: bool) -> bool:
    """Whether the request's ``Origin`` names another host than the one it was sent to (the
    ``Host`` header, or behind a trusted proxy the ``X-Forwarded-Host`` it wrote)."""
    origin = _header(scope, b"origin")
    if origin is None:
        return False
    if origin == "null":
        return True
    hosts = {(_header(scope, b"host") or "").lower()}
    if trusted_proxy:
        hosts.add((_header(scope, b"x-forwarded-host") or "").rsplit(",", 1)[-1].strip().lower())
    return origin.split("://", 1)[-1].rstrip("/").lower() not in hosts - {""}


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


class Sessions:
    """The middleware: the session read, CSRF checked, the account's seat found."""

    def __init__(self, app: ASGIApp, accounts: Callable[[], Accounts],
                 seat_of: Callable[[int, str], str | None],
                 trusted_proxy: bool = False) -> None:
        self.app = app
        self.trusted_proxy = trusted_proxy
        self.accounts = accounts
        self.seat_of = seat_of  # (account id, game id) -> the seat's token hash (seating.py)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        path: str = scope.get("path", "")
        unsafe = scope["method"] not in SAFE_METHODS
        session = cookie_value(scope, SESSION_COOKIE)
        cookie_write = unsafe and (session is not None or path in SIGN_PATHS)
        if cookie_write and _foreign_origin(scope, self.trusted_proxy):
            await _refuse(send, 403, "Origin: a write with this server's session must come "
                                     "from this server's own pages")
            return
        account = None
        if session is not None and path.startswith("/api/"):  # pages and assets need none
            account = await to_thread.run_sync(self.accounts().session, session)
        if account is not None and session is not None:
            state["account"], state["session"] = account, session
            if unsafe and path not in SIGN_PATHS:
                sent = _header(scope, CSRF_HEADER.encode()) or ""
                if not hmac.compare_digest(sent.encode(), csrf_token(session).encode()):
                    await _refuse(send, 403, "X-CSRF-Token: missing or wrong: a signed-in "
                                             "write sends the token of the india1853_csrf "
                                             "cookie in this header")
                    return
            found = GAME_PATH.fullmatch(path)
            if found and _header(scope, b"authorization") is None and path != "/api/games/import":
                digest = await to_thread.run_sync(self.seat_of, account.id,
                                                  found.group(1))
                if digest is not None:
                    state["seat_hash"] = digest
        await self.app(scope, receive, send)


def signed_in_seat(request: Request) -> str | None:
    """The signed-in account's seat in the request's game, as its token hash (the store checks
    it as it checks a token); None: no account, or no seat of it in this game."""
    digest = request.scope.get("state", {}).get("seat_hash")
    return HashedToken(digest) if isinstance(digest, str) else None


def signed_in(request: Request) -> Account | None:
    account = request.scope.get("state", {}).get("account")
    return account if isinstance(account, Account) else None


def client_of(request: Request, trusted_header: str | None) -> str:
    return client_address(request.scope,
                          trusted_header.lower().encode() if trusted_header else None)


__all__ = ["CSRF_COOKIE", "CSRF_HEADER", "SESSION_COOKIE", "Account", "AccountSettings",
           "Accounts", "LoginLimits", "Sessions", "check_name", "check_password",
           "client_of", "csrf_token", "secure", "session_cookies", "signed_in",
           "signed_in_seat"]
