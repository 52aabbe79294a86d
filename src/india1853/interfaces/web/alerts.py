"""Turn alerts: a webhook call and an e-mail when a game's decision becomes a user's.

Where a user's alerts go is an ``alert_settings`` row (db.py, migration 0007) keyed by its
owner: a seat (``seat:<game>:<name>``, written with that seat's token, so that a guest has
alerts too), or an account (``account:<id>``: one webhook and e-mail address for every seat the
account holds, accounts.py and seating.py; a seat's own settings go before its account's).
The browser's own alerts (the tab's title, a tone, a notification while the page is open)
are the page's (game.js); this module sends the ones that reach a closed page.

When: after every change of a game (an action, a bot's move; the store's change callback) the
game is asked, in a worker thread, who must decide now - the engine's answer
(``Game.active_entities`` and ``Game.decider``, 3.4.1), never recomputed here.  A human seat
with alert settings whose decision began with the last action (it did not decide before it:
``Game.at``; after an undo or a redo, it did not decide the undo itself) is due an alert.
The send is claimed in the database first: one ``alert_claims`` row per owner and game
holds the action after which the last alert went and when; a conditional UPDATE
(``action_idx`` before this action and ``sent_at`` older than the owner's quiet time), or
the INSERT of the first row under its primary key, is won by exactly one server process
(the others see no row changed, or a duplicate key).  So at most one alert per user per game
per quiet time, each exactly once across processes.

Every process also sweeps, every ``sweep_seconds``, the recently changed games that have alert
settings and that it has not checked at their present count of actions (changed by another
process): an alert due after an action of a process that died before sending is sent by
another; the claim keeps it single.

Delivery never slows the request that made the change: it runs in background tasks (worker
threads for the blocking SMTP and HTTP calls, each with a timeout), and a failure is one line
in the server's log.  A webhook body is JSON that Discord (``content``) and Slack (``text``)
both accept.  A webhook may not call the server's own network (loopback, private, link-local
addresses are refused at send time; ``--alert-webhook-private`` allows them, for a server on a
private network and for the tests), and redirects are not followed.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import smtplib
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any, NamedTuple

from anyio import CapacityLimiter, to_thread
from sqlalchemy import Connection, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from india1853.interfaces.web.db import (
    actions,
    alert_claims,
    alert_settings,
    games,
    seating_seats,
    seats,
)
from india1853.interfaces.web.entry import ApiError, Entry
from india1853.interfaces.web.store import GameStore
from india1853.rules.game.game import Game, effective_actions

log = logging.getLogger("india1853.web")

QUIET_SECONDS = 600.0  # the default quiet time (serve --alert-quiet-seconds)
MAX_QUIET_SECONDS = 7 * 24 * 3600
SWEEP_SECONDS = 10.0  # serve --alert-sweep-seconds
SWEEP_WINDOW = 900.0  # games changed longer ago than this are not swept
SEND_TIMEOUT = 10.0
MAX_URL = 2048
MAX_EMAIL = 254
EMAIL = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+")
SETTINGS_FIELDS = ("webhook", "email", "quiet_seconds")


@dataclass(frozen=True)
class Smtp:
    """The SMTP server alerts are sent through (serve --smtp-*, INDIA1853_SMTP_*)."""

    host: str
    sender: str
    port: int = 587
    starttls: bool = True
    user: str | None = None
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class AlertConfig:
    """The server's alert settings: no SMTP server, no e-mail alerts (webhooks work)."""

    smtp: Smtp | None = None
    quiet_seconds: float = QUIET_SECONDS
    sweep_seconds: float = SWEEP_SECONDS
    webhook_private: bool = False
    public_url: str | None = None  # the server's address for links in alerts
    timeout: float = SEND_TIMEOUT


@dataclass(frozen=True)
class Alert:
    owner: str
    game_id: str
    seat: str
    action: int
    round: str
    webhook: str | None
    email: str | None

    def text(self, public_url: str | None) -> str:
        """The alert's words: public facts only (the seat, the round, the action count),
        never the seat's view: a webhook may post to a channel others read."""
        link = f" {public_url.rstrip('/')}/games/{self.game_id}" if public_url else ""
        return (f"1853: your turn, {self.seat} (game {self.game_id}, {self.round} round, "
                f"after action {self.action}).{link}")


def seat_owner(game_id: str, seat: str) -> str:
    return f"seat:{game_id}:{seat}"


def account_owner(account_id: int) -> str:
    return f"account:{account_id}"


# --- settings ---------------------------------------------------------------------------------


def checked_settings(body: object, config: AlertConfig) -> dict[str, Any]:
    """A settings body ``{"webhook", "email", "quiet_seconds"}`` (each may be null: none)
    checked, or a clear error naming the field (nothing is written)."""
    if not isinstance(body, dict):
        raise ApiError(422, "body: must be a JSON object {\"webhook\", \"email\", "
                            "\"quiet_seconds\"}")
    extra = sorted(set(body) - set(SETTINGS_FIELDS))
    if extra:
        raise ApiError(422, f"{extra[0]}: unknown field (alerts have "
                            f"{', '.join(SETTINGS_FIELDS)})")
    webhook = body.get("webhook")
    if webhook is not None:
        webhook = _webhook_url(webhook)
    email = body.get("email")
    if email is not None:
        if not isinstance(email, str) or len(email) > MAX_EMAIL or not EMAIL.fullmatch(email):
            raise ApiError(422, "email: must be an e-mail address (name@example.org), at "
                                f"most {MAX_EMAIL} characters")
        if config.smtp is None:
            raise ApiError(422, "email: this server sends no e-mail (no SMTP server set: "
                                "docs/deployment.md)")
    quiet = body.get("quiet_seconds")
    if quiet is not None and (not isinstance(quiet, int) or isinstance(quiet, bool)
                              or not 0 <= quiet <= MAX_QUIET_SECONDS):
        raise ApiError(422, f"quiet_seconds: must be a whole number from 0 to "
                            f"{MAX_QUIET_SECONDS} (null: the server's {config.quiet_seconds:g})")
    return {"webhook": webhook, "email": email, "quiet_seconds": quiet}


def _webhook_url(url: object) -> str:
    if not isinstance(url, str) or len(url) > MAX_URL:
        raise ApiError(422, f"webhook: must be an http(s) URL of at most {MAX_URL} characters")
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ApiError(422, "webhook: must be an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise ApiError(422, "webhook: a user or password in the URL is not accepted")
    if any(c.isspace() or ord(c) < 32 for c in url):
        raise ApiError(422, "webhook: must not contain spaces or control characters")
    return url


_SETTINGS_OF = (select(alert_settings.c.webhook, alert_settings.c.email,
                       alert_settings.c.quiet_seconds)
                .where(alert_settings.c.owner == bindparam("owner")))


class _SettingsRow(NamedTuple):
    webhook: str | None
    email: str | None
    quiet_seconds: int | None


def _settings_answer(row: Any, config: AlertConfig) -> dict[str, Any]:
    return {"webhook": row.webhook if row else None, "email": row.email if row else None,
            "quiet_seconds": row.quiet_seconds if row else None,
            "default_quiet_seconds": config.quiet_seconds,
            "email_available": config.smtp is not None}


# --- the service ------------------------------------------------------------------------------


class Alerts:
    """Turn alerts of one server process: settings, claims, background delivery."""

    def __init__(self, store: GameStore, config: AlertConfig) -> None:
        self.store = store
        self.config = config
        self.sent = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._limiter = CapacityLimiter(2)
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._sends: set[asyncio.Task[None]] = set()
        self._sweep: asyncio.Task[None] | None = None
        # The count of actions each game had when this process last checked it: the sweep
        # looks again only at games another process has changed since.
        self._seen: dict[str, int] = {}

    # settings, for a seat's token (social.py)

    def settings(self, game_id: str, token: str | None, seat: str | None) -> dict[str, Any]:
        owner, _seat = self._owner(game_id, token, seat)
        return _settings_answer(self._settings_of(owner), self.config)

    def _settings_of(self, owner: str) -> Any:
        """The owner's settings row (None: none): one small read (db.py), a seat's page
        asks for them."""
        found = self.store.db.rows(_SETTINGS_OF, owner=owner)
        return _SettingsRow(*found[0]) if found else None

    def save(self, game_id: str, token: str | None, seat: str | None,
             body: object) -> dict[str, Any]:
        """Write the seat's settings (all fields null: deleted)."""
        owner, name = self._owner(game_id, token, seat)
        values = checked_settings(body, self.config)
        with self.store.db.write() as conn:
            conn.execute(delete(alert_settings).where(alert_settings.c.owner == owner))
            if values["webhook"] or values["email"]:
                conn.execute(insert(alert_settings).values(
                    owner=owner, game_id=game_id, seat=name, updated_at=time.time(),
                    **values))
        return self.settings(game_id, token, seat)

    # settings of an account: one for all its seats (accounts.py; social.py)

    def account_settings(self, account_id: int) -> dict[str, Any]:
        return _settings_answer(self._settings_of(account_owner(account_id)), self.config)

    def save_account(self, account_id: int, body: object) -> dict[str, Any]:
        """Write the account's settings (all fields null: deleted); a seat's own settings,
        where it has any, go before them."""
        values = checked_settings(body, self.config)
        owner = account_owner(account_id)
        with self.store.db.write() as conn:
            conn.execute(delete(alert_settings).where(alert_settings.c.owner == owner))
            if values["webhook"] or values["email"]:
                conn.execute(insert(alert_settings).values(
                    owner=owner, account_id=account_id, updated_at=time.time(), **values))
        return self.account_settings(account_id)

    def _owner(self, game_id: str, token: str | None, seat: str | None) -> tuple[str, str]:
        if token is None:
            raise ApiError(401, "token: alert settings are a seat's (Authorization: Bearer)")
        access = self.store.access(game_id, token, seat)
        if access.hotseat:
            raise ApiError(403, "token: alerts are set with a seat's own link, not the shared "
                                "screen's")
        assert access.seat is not None
        return seat_owner(game_id, access.seat), access.seat

    # what is due: the engine's deciders, the claim

    def due(self, game_id: str) -> list[Alert]:
        """The alerts this process has claimed after the game's last change (blocking)."""
        owners = self._owners(game_id)
        if not owners:
            return []
        game, humans = self.store.inspect(game_id, _fork)
        count = len(game.log)
        if game.finished or not count:
            return []
        with self.store.db.read() as conn:
            last_seat = conn.execute(select(actions.c.seat).where(actions.c.game_id == game_id)
                                     .where(actions.c.idx == count)).scalar_one_or_none()
            claimed = {r.owner: r.action_idx for r in conn.execute(
                select(alert_claims).where(alert_claims.c.game_id == game_id)).all()}
        round_ = str(game.state.round)
        out = []
        for seat in newly_deciding(game, humans, last_seat):
            row = owners.get(seat)
            if row is None or claimed.get(row.owner, -1) >= count:
                continue
            quiet = row.quiet_seconds if row.quiet_seconds is not None \
                else self.config.quiet_seconds
            if self.claim(row.owner, game_id, count, quiet):
                out.append(Alert(row.owner, game_id, seat, count, round_, row.webhook,
                                 row.email))
        self._seen[game_id] = count
        return out

    def _owners(self, game_id: str) -> dict[str, Any]:
        """The alert settings of each seat of the game that has any: the seat's own (set with
        its token), else those of the account holding it (a game started from open seats)."""
        with self.store.db.read() as conn:
            held = {r.name: account_owner(r.account_id) for r in conn.execute(
                select(seats.c.name, seating_seats.c.account_id)
                .join(seating_seats, (seating_seats.c.seating_id == seats.c.game_id)
                      & (seating_seats.c.position == seats.c.position))
                .where(seats.c.game_id == game_id)
                .where(seating_seats.c.account_id.is_not(None))).all()}
            rows = conn.execute(select(alert_settings).where(
                (alert_settings.c.game_id == game_id)
                | alert_settings.c.owner.in_(list(held.values())))).all()
        by_owner = {r.owner: r for r in rows}
        owners = {seat: by_owner[owner] for seat, owner in held.items() if owner in by_owner}
        owners.update({r.seat: r for r in rows if r.game_id == game_id})
        return owners

    def claim(self, owner: str, game_id: str, action: int, quiet: float) -> bool:
        """Whether this process won the send of ``owner``'s alert after ``action``."""
        now = time.time()
        with self.store.db.write() as conn:
            done = conn.execute(update(alert_claims)
                                .where(alert_claims.c.owner == owner)
                                .where(alert_claims.c.game_id == game_id)
                                .where(alert_claims.c.action_idx < action)
                                .where(alert_claims.c.sent_at <= now - quiet)
                                .values(action_idx=action, sent_at=now)).rowcount
            if done == 1:
                return True
            return _first_claim(conn, owner, game_id, action, now)

    # background: checks after changes, the sweep, delivery

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.config.sweep_seconds > 0:
            self._sweep = self._loop.create_task(self._sweep_loop())

    def changed(self, game_id: str) -> None:
        """Thread-safe: the store committed a change to the game."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._kick, game_id)

    def _kick(self, game_id: str) -> None:
        if game_id in self._running:
            self._again.add(game_id)
            return
        assert self._loop is not None
        self._running[game_id] = self._loop.create_task(self._check(game_id))

    async def _check(self, game_id: str) -> None:
        try:
            while True:
                try:
                    for alert in await to_thread.run_sync(self.due, game_id,
                                                          limiter=self._limiter):
                        task = asyncio.get_running_loop().create_task(self._deliver(alert))
                        self._sends.add(task)
                        task.add_done_callback(self._sends.discard)
                except ApiError as exc:
                    log.warning("alerts for game %s: %s", game_id, exc.detail)
                except Exception:
                    log.exception("alerts for game %s failed", game_id)
                if game_id not in self._again:
                    return
                self._again.discard(game_id)
        finally:
            self._running.pop(game_id, None)
            self._again.discard(game_id)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                recent = await to_thread.run_sync(self._recent, time.time())
                self._seen = {g: n for g, n in self._seen.items() if g in recent}
                for game_id, count in recent.items():
                    if self._seen.get(game_id) != count:
                        self._kick(game_id)
            except Exception as exc:  # the database away for a moment: look again later
                log.warning("alert sweep: %s", exc)

    def _recent(self, now: float) -> dict[str, int]:
        """Unfinished games with alert settings changed in the sweep's window, and their
        counts of actions."""
        accounts = select(alert_settings.c.account_id).where(
            alert_settings.c.account_id.is_not(None))
        with self.store.db.read() as conn:
            rows = conn.execute(
                select(games.c.id, games.c.actions).where(games.c.finished.is_(False))
                .where(games.c.updated_at > now - SWEEP_WINDOW)
                .where(games.c.id.in_(select(alert_settings.c.game_id))
                       | games.c.id.in_(select(seating_seats.c.seating_id).where(
                           seating_seats.c.account_id.in_(accounts))))).all()
        return {r.id: int(r.actions) for r in rows}

    async def _deliver(self, alert: Alert) -> None:
        text = alert.text(self.config.public_url)
        channels: list[tuple[str, Callable[[str, str], None], str]] = []
        if alert.webhook:
            channels.append(("webhook", self._post_webhook, alert.webhook))
        if alert.email and self.config.smtp is not None:
            channels.append(("e-mail", self._send_mail, alert.email))
        for kind, send, where in channels:
            try:
                await asyncio.wait_for(to_thread.run_sync(send, where, text),
                                       self.config.timeout + 5)
                self.sent += 1
            except Exception as exc:  # the alert is lost, the server goes on
                log.warning("alert to %s (%s) for game %s failed: %s", alert.seat, kind,
                            alert.game_id, exc)

    def _post_webhook(self, url: str, text: str) -> None:
        if not self.config.webhook_private:
            _refuse_private(url)
        body = json.dumps({"content": text, "text": text}).encode("utf-8")
        request = urllib.request.Request(url, data=body, method="POST", headers={
            "Content-Type": "application/json", "User-Agent": "india1853-alerts"})
        with _OPENER.open(request, timeout=self.config.timeout) as response:
            response.read(1024)

    def _send_mail(self, address: str, text: str) -> None:
        smtp = self.config.smtp
        assert smtp is not None
        message = EmailMessage()
        message["From"] = smtp.sender
        message["To"] = address
        message["Subject"] = "1853: your turn"
        message.set_content(text)
        with smtplib.SMTP(smtp.host, smtp.port, timeout=self.config.timeout) as client:
            if smtp.starttls:
                client.starttls(context=ssl.create_default_context())
            if smtp.user:
                client.login(smtp.user, smtp.password or "")
            client.send_message(message)

    async def stop(self) -> None:
        tasks = [*self._running.values(), *self._sends]
        if self._sweep is not None:
            tasks.append(self._sweep)
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)


def _fork(entry: Entry) -> tuple[Game, tuple[str, ...]]:
    """A copy of the game to ask outside its lock (cheap: the states are shared), and its
    human seats that no bot plays for the time being (a bot's decision is no alert to the
    player who left it the seat)."""
    return entry.game.fork(), tuple(h for h in entry.humans() if h not in entry.stand_ins)


def _deciding(game: Game, humans: tuple[str, ...]) -> list[str]:
    """The human seats that must decide now: the engine's active entities and who decides
    for each (3.4.1)."""
    out: list[str] = []
    if not game.finished:
        for entity, _ in game.active_entities():
            player = game.decider(entity)
            if player is not None and player in humans and player not in out:
                out.append(player)
    return out


def newly_deciding(game: Game, humans: tuple[str, ...],
                   last_seat: str | None) -> list[str]:
    """The human seats whose decision began with the game's last action: deciding now, and
    not before it (the engine's position before the last action in force, ``Game.at``).
    After an undo or a redo (no such position), those deciding now who did not decide the
    last action.  Bonds are placed by all at once (2.5.2): one seat's bond is no news to the
    others."""
    now = _deciding(game, humans)
    if not game.log:
        return []
    last = game.log[-1]
    if last.get("type") in ("undo", "redo"):
        return [s for s in now if s != last_seat]
    before = _deciding(game.at(len(effective_actions(game.log)) - 1), humans)
    return [s for s in now if s not in before]


def _first_claim(conn: Connection, owner: str, game_id: str, action: int, now: float) -> bool:
    """The first alert of the owner in the game: the INSERT under the primary key wins once;
    False if the row exists already (the quiet time or an earlier claim holds)."""
    exists = conn.execute(select(alert_claims.c.owner).where(alert_claims.c.owner == owner)
                          .where(alert_claims.c.game_id == game_id)).first()
    if exists is not None:
        return False
    try:
        with conn.begin_nested():
            conn.execute(insert(alert_claims).values(owner=owner, game_id=game_id,
                                                     action_idx=action, sent_at=now))
    except IntegrityError:
        return False  # another process inserted it first: its alert
    return True


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a redirect is an error: it could lead into the server's network


_OPENER = urllib.request.build_opener(_NoRedirect)


def _refuse_private(url: str) -> None:
    """Refuse a webhook whose host resolves to a loopback, private, link-local or otherwise
    non-public address (the server's own network)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP):
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            raise ValueError(f"webhook host {host!r} is a non-public address ({address}); "
                             "allowed only with --alert-webhook-private")
