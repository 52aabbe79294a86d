"""Small helpers for the web server's tests (HTTP through httpx on loopback)."""

from __future__ import annotations

import contextlib
import http.client
import json
import ssl
import time
from collections.abc import Iterator
from email.message import Message
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]

# Every test client talks plain HTTP to loopback, yet httpx builds a TLS context (the CA bundle
# read and parsed) for each client it makes: about 50 ms of CPU a client, some hundred clients
# a secrecy scenario. One context, made once, serves them all (issue 20 item 6).
TLS = ssl.create_default_context()


def client(url: str, timeout: float | httpx.Timeout = 60.0) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=timeout, verify=TLS)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(c: httpx.Client | Loopback, **body: Any) -> dict[str, Any]:
    body.setdefault("players", PLAYERS)
    body.setdefault("seed", 5)
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def view(c: httpx.Client | Loopback, game_id: str, token: str | None = None,
         **params: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}", headers=auth(token) if token else {}, params=params)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def act(c: httpx.Client | Loopback, game_id: str, token: str, action: dict[str, Any],
        **params: str) -> httpx.Response | Reply:
    return c.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token),
                  params=params)


def option(state: dict[str, Any], kind: str, **fields: Any) -> dict[str, Any]:
    """The first offered action of ``kind`` whose fields match."""
    for decision in state["turn"]["decisions"]:
        for opt in decision["options"]:
            a = opt["action"]
            if a["type"] == kind and all(a.get(k) == v for k, v in fields.items()):
                return dict(a)
    raise AssertionError(f"no {kind} {fields} offered to {state['seat']}")


def wait_for(predicate: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


class EventStream:
    """A server-sent-events stream read in a thread: ``events`` collects ``(id, raw data)``."""

    def __init__(self, url: str, path: str, headers: dict[str, str] | None = None,
                 **params: str) -> None:
        import threading

        self.events: list[tuple[int, bytes]] = []
        self.raw = bytearray()
        token = params.pop("token", None)
        if token is not None:  # a token never goes into a URL (the server refuses it)
            headers = {**(headers or {}), "Authorization": f"Bearer {token}"}
        self._client = client(url, httpx.Timeout(30.0))
        self._request = self._client.build_request("GET", path, headers=headers or {},
                                                   params=params)
        self.status: int | None = None
        self._stop = False
        self._answered = threading.Event()  # the status is known (waited on, not polled)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self._answered.wait(30.0), "timed out waiting"

    def _read(self) -> None:
        response = self._client.send(self._request, stream=True)
        self.status = response.status_code
        self._answered.set()
        event_id, data = 0, b""
        try:
            for line in response.iter_lines():
                if self._stop:
                    break
                raw = line.encode()
                self.raw += raw + b"\n"
                if raw.startswith(b"id: "):
                    event_id = int(raw[4:])
                elif raw.startswith(b"data: "):
                    data = raw[6:]
                elif raw == b"" and data:
                    self.events.append((event_id, data))
                    data = b""
        except httpx.HTTPError:
            pass
        finally:
            response.close()

    def join(self, timeout: float) -> None:
        """Until the server ends the stream (AssertionError after ``timeout`` seconds)."""
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the stream did not end"

    def close(self) -> None:
        self._stop = True
        self._client.close()


class Reply:
    """A response read whole by :class:`Loopback`: ``status_code``, ``content``,
    ``headers`` (case-insensitive), ``text``, ``json()`` - as httpx's."""

    def __init__(self, status_code: int, content: bytes, headers: Message) -> None:
        self.status_code = status_code
        self.content = content
        self.headers = headers

    @property
    def text(self) -> str:
        return self.content.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.content)


class Stream(Reply):
    """A response whose body is read as it comes (an event stream)."""

    def __init__(self, connection: http.client.HTTPConnection,
                 response: http.client.HTTPResponse) -> None:
        super().__init__(response.status, b"", response.headers)
        self._connection, self._response = connection, response

    def read(self) -> bytes:
        self.content = self._response.read()
        return self.content

    def iter_lines(self) -> Iterator[str]:
        """The body's lines as httpx's ``iter_lines`` splits them (``str.splitlines``)."""
        while raw := self._response.readline():
            yield from raw.decode("utf-8").splitlines()

    def close(self) -> None:
        self._connection.close()


class Loopback:
    """A keep-alive HTTP/1.1 client on the standard library's ``http.client`` for the tests
    that send thousands of plain requests (the secrecy differentials): httpx spends about
    2 ms of CPU on each request, as much as the server answering it; this about a tenth of
    that.  The same requests on the wire (the method, path, query, headers, JSON body), the
    answer read whole; ``Accept-Encoding: identity`` unless the caller asks otherwise (no
    gzip to pack and unpack: the bytes compared are the decoded body either way)."""

    def __init__(self, url: str, timeout: float = 60.0) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.timeout = timeout
        self._connection: http.client.HTTPConnection | None = None

    def _connect(self, timeout: float | None) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port,
                                          timeout=timeout or self.timeout)

    @staticmethod
    def _message(method: str, path: str, headers: dict[str, str] | None,
                 params: dict[str, Any] | None, body: Any
                 ) -> tuple[str, bytes | None, dict[str, str]]:
        if params:
            path += ("&" if "?" in path else "?") + urlencode(params)
        sent = {"Accept-Encoding": "identity", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        elif method in ("POST", "PUT", "PATCH"):
            data = b""
        return path, data, sent

    def request(self, method: str, path: str, *, headers: dict[str, str] | None = None,
                params: dict[str, Any] | None = None, json: Any = None,
                timeout: float | None = None) -> Reply:
        target, data, sent = self._message(method, path, headers, params, json)
        for attempt in (1, 2):
            reused = self._connection is not None
            if self._connection is None:
                self._connection = self._connect(timeout)
            connection = self._connection
            connection.timeout = timeout or self.timeout
            if connection.sock is not None:
                connection.sock.settimeout(connection.timeout)
            try:
                connection.request(method, target, body=data, headers=sent)
                response = connection.getresponse()
                content = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # The server closed the idle keep-alive connection before this request
                # reached it (nothing was processed): once more on a new connection.
                connection.close()
                self._connection = None
                if not reused or attempt == 2:
                    raise
                continue
            if response.will_close:
                connection.close()
                self._connection = None
            return Reply(response.status, content, response.headers)
        raise AssertionError("unreachable")

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Reply:
        return self.request("POST", path, **kwargs)

    @contextlib.contextmanager
    def stream(self, method: str, path: str, *, headers: dict[str, str] | None = None,
               params: dict[str, Any] | None = None,
               timeout: float | None = None) -> Iterator[Stream]:
        """One request on a connection of its own, closed when the block ends (a stream is
        left unread)."""
        target, data, sent = self._message(method, path, headers, params, None)
        connection = self._connect(timeout)
        try:
            connection.request(method, target, body=data, headers=sent)
            yield Stream(connection, connection.getresponse())
        finally:
            connection.close()

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Loopback:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
