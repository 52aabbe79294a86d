"""Small helpers for the web server's tests (HTTP through httpx on loopback)."""

from __future__ import annotations

import ssl
import time
from typing import Any

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


def create(c: httpx.Client, **body: Any) -> dict[str, Any]:
    body.setdefault("players", PLAYERS)
    body.setdefault("seed", 5)
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def view(c: httpx.Client, game_id: str, token: str | None = None,
         **params: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}", headers=auth(token) if token else {}, params=params)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def act(c: httpx.Client, game_id: str, token: str, action: dict[str, Any],
        **params: str) -> httpx.Response:
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
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        wait_for(lambda: self.status is not None, 30.0)

    def _read(self) -> None:
        response = self._client.send(self._request, stream=True)
        self.status = response.status_code
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

    def close(self) -> None:
        self._stop = True
        self._client.close()
