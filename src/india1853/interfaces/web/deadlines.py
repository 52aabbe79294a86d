"""Time limits for slow clients, in the server itself (not only in a proxy before it).

uvicorn closes a connection idle *between* requests (``timeout_keep_alive``), but h11 has
no limit on the time a request's headers or body take to arrive: a client that opens a
connection and sends nothing, or half its headers, or half its body, held the connection
(and its memory) for ever.  The protocol class here is uvicorn's h11 protocol with two
deadlines, watched through h11's own state machine (``their_state``):

- ``headers``: from the moment a connection may send a request (opened, or its previous
  response complete) its request line and headers must be complete within this many seconds;
  otherwise ``408`` (if it sent a part of them) and the connection is closed;
- ``body``: from the end of the headers the body must be complete within this many seconds;
  otherwise the connection is closed (the route reading the body sees the client gone:
  one line in the log, security.py).

A response being sent (an event stream for hours) is not limited: the client's request is
complete by then (``DONE``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

TIMEOUT_408 = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
               b"connection: close\r\ncontent-length: 38\r\n\r\n"
               b"request headers: not complete in time\n")
assert len(TIMEOUT_408.split(b"\r\n\r\n", 1)[1]) == 38

HEADER_SECONDS = 10.0
BODY_SECONDS = 60.0


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections whose requests come too slowly."""

    header_seconds = HEADER_SECONDS
    body_seconds = BODY_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._phase: str | None = None  # "headers", "body" or None (not waiting)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._arm(None)
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Arm the deadline of what the connection waits for now (kept while it waits for
        the same thing: the deadline counts from the start of the wait)."""
        state = self.conn.their_state
        if state is h11.IDLE:
            self._arm("headers")
        elif state is h11.SEND_BODY:
            self._arm("body")
        else:
            self._arm(None)

    def _arm(self, phase: str | None) -> None:
        if phase == self._phase:
            return
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = phase
        if phase is not None and not self.transport.is_closing():
            seconds = self.header_seconds if phase == "headers" else self.body_seconds
            self._deadline = self.loop.call_later(seconds, self._expired, phase)

    def _expired(self, phase: str) -> None:
        self._deadline = None
        if self._phase != phase or self.transport.is_closing():
            return
        if phase == "headers" and self.conn.trailing_data[0]:
            self.transport.write(TIMEOUT_408)  # a part of a request came: say why
        self.transport.close()


def deadline_protocol(header_seconds: float, body_seconds: float) -> type[DeadlineProtocol]:
    """The protocol class for uvicorn's ``http=`` setting with these limits."""
    return type("DeadlineProtocol", (DeadlineProtocol,),
                {"header_seconds": header_seconds, "body_seconds": body_seconds})
