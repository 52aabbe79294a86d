"""Small helpers for the web server's tests (HTTP through httpx on loopback)."""

from __future__ import annotations

import time
from typing import Any

import httpx

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]


def client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60.0)


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
