"""Stream tickets: a browser's event stream opens without its seat's token in the URL.

``EventSource`` cannot send an ``Authorization`` header, and a token in a query string ends
up in proxies' access logs.  A page asks ``POST /api/games/{id}/stream-ticket`` with its token
(in the header) for a ticket, and opens ``/events?ticket=...`` with it: the ticket is random
(192 bits), good for ``seconds`` (30 by default) and for one stream only, and names the
token's SHA-256 (the stream views as that token would).  Tickets are rows of the database
(their SHA-256, never the ticket itself), so the process that redeems a ticket need not be
the one that issued it (several processes behind one proxy, docs/deployment.md); redeeming
is one ``DELETE`` whose count of rows says whether this request was the first.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable

from sqlalchemy import delete, insert, select

from india1853.interfaces.web.db import Database, stream_tickets

TICKET_BYTES = 24
TICKET_SECONDS = 30.0


class TicketRefused(Exception):
    """The ticket is unknown, already used, expired or another game's (one line)."""


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode("utf-8", "replace")).hexdigest()


class StreamTickets:
    """Issue and redeem tickets (blocking: run in a thread)."""

    def __init__(self, db: Database, seconds: float = TICKET_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.seconds = seconds
        self.clock = clock

    def issue(self, game_id: str, token_hash: str) -> str:
        """A new ticket for the holder of the token whose digest is ``token_hash`` (the
        caller has checked the token's access to the game); expired tickets are dropped."""
        ticket = secrets.token_urlsafe(TICKET_BYTES)
        now = self.clock()
        with self.db.write() as conn:
            conn.execute(delete(stream_tickets).where(stream_tickets.c.expires_at < now))
            conn.execute(insert(stream_tickets).values(
                digest=_digest(ticket), game_id=game_id, token_hash=token_hash,
                expires_at=now + self.seconds))
        return ticket

    def redeem(self, game_id: str, ticket: str) -> str:
        """The token digest the ticket was issued for; the ticket is spent.  Raises
        ``TicketRefused`` for a ticket unknown, spent, expired or of another game."""
        digest = _digest(ticket)
        with self.db.write() as conn:
            row = conn.execute(select(stream_tickets)
                               .where(stream_tickets.c.digest == digest)).one_or_none()
            if row is None:
                raise TicketRefused("ticket: unknown or already used (a ticket opens one "
                                    "stream: ask POST /api/games/{id}/stream-ticket again)")
            spent = conn.execute(delete(stream_tickets)
                                 .where(stream_tickets.c.digest == digest)).rowcount
        if spent != 1:
            raise TicketRefused("ticket: already used (a ticket opens one stream)")
        if row.game_id != game_id:
            raise TicketRefused("ticket: not a ticket of this game")
        if row.expires_at <= self.clock():
            raise TicketRefused(f"ticket: expired (a ticket is good for {self.seconds:g} s)")
        return str(row.token_hash)
