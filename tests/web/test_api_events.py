"""Live updates: the SSE stream sends the GET view at once and after every change, and a
page that reconnects resumes from the last action id it saw."""

from __future__ import annotations

import json

import httpx
import pytest
from webclient import EventStream, act, auth, client, create, option, view, wait_for


@pytest.fixture
def c(server_url: str) -> httpx.Client:
    return client(server_url)


def test_stream_sends_the_view_now_and_after_each_action(server_url: str,
                                                         c: httpx.Client) -> None:
    made = create(c)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    stream = EventStream(server_url, f"/api/games/{game}/events", token=ann)
    try:
        assert stream.status == 200
        wait_for(lambda: len(stream.events) == 1, 30)
        first_id, first = stream.events[0]
        assert first_id == 0 and json.loads(first) == view(c, game, ann)
        act(c, game, bob, option(view(c, game, bob), "place_bond")).raise_for_status()
        wait_for(lambda: len(stream.events) == 2, 30)
        event_id, data = stream.events[1]
        assert event_id == 1 and json.loads(data) == view(c, game, ann)
        assert json.loads(data)["seat"] == "Ann"
    finally:
        stream.close()


def test_reconnect_resumes_after_the_last_event_id(server_url: str, c: httpx.Client) -> None:
    made = create(c)
    game, ann = made["id"], made["tokens"]["Ann"]
    act(c, game, ann, option(view(c, game, ann), "place_bond")).raise_for_status()
    # Up to date (Last-Event-ID 1): nothing until the game changes.
    current = EventStream(server_url, f"/api/games/{game}/events",
                          headers={"Last-Event-ID": "1"}, token=ann)
    # Behind (it saw action 0 only): the current view at once.
    behind = EventStream(server_url, f"/api/games/{game}/events", token=ann, after="0")
    try:
        wait_for(lambda: len(behind.events) == 1, 30)
        assert behind.events[0][0] == 1
        assert current.events == []
        bob = made["tokens"]["Bob"]
        act(c, game, bob, option(view(c, game, bob), "place_bond")).raise_for_status()
        wait_for(lambda: len(current.events) == 1 and len(behind.events) == 2, 30)
        assert current.events[0][0] == 2 and behind.events[1][0] == 2
    finally:
        current.close()
        behind.close()


def test_stream_refuses_bad_tokens_and_unknown_games(server_url: str,
                                                     c: httpx.Client) -> None:
    made = create(c)
    game = made["id"]
    r = c.get(f"/api/games/{game}/events", headers=auth("z" * 32))
    assert r.status_code == 401 and "not a token" in r.json()["detail"]
    r = c.get(f"/api/games/{game}/events", params={"ticket": "z" * 32})
    assert r.status_code == 401 and r.json()["detail"].startswith("ticket: unknown")
    r = c.get("/api/games/nosuchgame/events")
    assert r.status_code == 404
    r = c.get(f"/api/games/{game}/events", params={"seat": "Bob"},
              headers=auth(made["tokens"]["Ann"]))
    assert r.status_code == 403
    spectator = EventStream(server_url, f"/api/games/{game}/events")
    try:
        wait_for(lambda: len(spectator.events) == 1, 30)
        assert json.loads(spectator.events[0][1])["seat"] is None
    finally:
        spectator.close()
