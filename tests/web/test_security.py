"""Hostile input: security headers on every response, a per-token rate limit on writes, a cap
on bodies, and no secret reachable by any endpoint with any token (every GET route of the
OpenAPI schema walked with every seat's token and none)."""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from india1853.interfaces.web.app import create_app
from india1853.interfaces.web.security import RateLimit

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]
ANN_BOND = 173  # not a £10 step (as in test_api_secrets)


def app_client(tmp_path: Path, limit: RateLimit | None = None) -> TestClient:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", rate_limit=limit)
    return TestClient(app, raise_server_exceptions=False, client=("127.0.0.1", 5000))


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


def new_game(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/games", json={"players": PLAYERS, "seed": 11})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_every_response_has_the_security_headers(web: TestClient) -> None:
    game = new_game(web)["id"]
    responses = [web.get("/"), web.get(f"/games/{game}"), web.get("/api/games"),
                 web.get(f"/api/games/{game}/board.svg"), web.get("/api/games/nope"),
                 web.post("/api/games", content=b"{"), web.get("/openapi.json")]
    for r in responses:
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"


def test_a_flood_of_actions_from_one_token_is_limited(tmp_path: Path) -> None:
    # A slow refill: the test asserts counts, whatever the time the requests take.
    with app_client(tmp_path, RateLimit(rate=0.01, burst=5.0)) as c:
        made = new_game(c)
        ann = {"Authorization": f"Bearer {made['tokens']['Ann']}"}
        bob = {"Authorization": f"Bearer {made['tokens']['Bob']}"}
        stale = {"id": 99, "type": "pass", "entity": "Ann"}
        codes = [c.post(f"/api/games/{made['id']}/actions", json=stale, headers=ann)
                 .status_code for _ in range(12)]
        # The game creation took one of the address's writes, not the token's.
        assert codes[:5] == [409] * 5
        assert set(codes[5:]) == {429}
        r = c.post(f"/api/games/{made['id']}/actions", json=stale, headers=ann)
        assert r.json()["detail"].startswith(
            "rate limit: at most 0.01 writes a second per seat or address")
        assert int(r.headers["retry-after"]) >= 1
        # Another token has its own bucket; reading is never limited.
        assert c.post(f"/api/games/{made['id']}/actions", json=stale,
                      headers=bob).status_code == 409
        assert all(c.get(f"/api/games/{made['id']}", headers=ann).status_code == 200
                   for _ in range(20))
        game = c.get(f"/api/games/{made['id']}").json()
        assert game["last_action_id"] == 0  # nothing changed


def test_oversized_bodies_are_refused(web: TestClient) -> None:
    made = new_game(web)
    ann = {"Authorization": f"Bearer {made['tokens']['Ann']}"}
    big = b'{"id": 1, "pad": "' + b"x" * (1 << 20) + b'"}'
    r = web.post(f"/api/games/{made['id']}/actions", content=big, headers=ann)
    assert r.status_code == 413
    assert r.json() == {"detail": f"body: larger than {1 << 20} bytes"}
    r = web.post("/api/games/import", content=b"x",
                 headers={"content-length": str(64 << 20)})
    assert r.status_code == 413
    assert web.get(f"/api/games/{made['id']}").json()["last_action_id"] == 0


def number(n: int) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![0-9.])" + str(n).encode() + rb"(?![0-9])")


_PATHS: weakref.WeakKeyDictionary[TestClient, dict[str, Any]] = weakref.WeakKeyDictionary()


def _paths(c: TestClient) -> dict[str, Any]:
    """The server's OpenAPI paths: one schema per app, read once for all its walks."""
    if c not in _PATHS:
        _PATHS[c] = c.get("/openapi.json").json()["paths"]
    return _PATHS[c]


def walk(c: TestClient, game: str, token: str | None) -> dict[str, bytes]:
    """Every GET route of the OpenAPI schema (and the pages), with ``token``."""
    paths = _paths(c)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    last = c.get(f"/api/games/{game}").json()["last_action_id"]
    out: dict[str, bytes] = {}
    for path, methods in paths.items():
        if "get" not in methods:
            continue
        # A tile's picture is the same for every game (no secret in it): one tile suffices.
        url = (path.replace("{game_id}", game).replace("{n}", str(last))
               .replace("{edition}", "second").replace("{tile}", "5"))
        assert "{" not in url, f"the walk does not know {path}: add it"
        if path.endswith("/events"):
            with c.stream("GET", url, headers=headers) as r:
                raw = b""
                for chunk in r.iter_bytes():
                    raw += chunk
                    if b"\ndata: " in raw and raw.endswith(b"\n\n"):
                        break
            out[path] = raw
            continue
        out[path] = c.get(url, headers=headers).content
        if path.endswith("board.svg"):
            out[path + "?at"] = c.get(url, params={"at": last}, headers=headers).content
    out["/games/{id}"] = c.get(f"/games/{game}").content
    return out


def options(state: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [o["action"] for d in state["turn"]["decisions"] for o in d["options"]
            if o["type"] == kind]


def leaks(before: dict[str | None, dict[str, bytes]], after: dict[str | None, dict[str, bytes]],
          pattern: re.Pattern[bytes]) -> list[tuple[str | None, str]]:
    """(token, route) where the secret shows more often than before it existed."""
    return [(who, path) for who, pages in after.items() for path, raw in pages.items()
            if len(pattern.findall(raw)) > len(pattern.findall(before[who][path]))]


def test_no_endpoint_shows_a_secret_to_another_token(web: TestClient) -> None:
    made = new_game(web)
    game, tokens = made["id"], made["tokens"]
    auth = {name: {"Authorization": f"Bearer {t}"} for name, t in tokens.items()}
    others = ("Bob", "Cat", None)

    def walk_all() -> dict[str | None, dict[str, bytes]]:
        return {t: walk(web, game, tokens.get(t)) for t in others}

    # Ann's bond (2.5.2): secret until every bond is in.
    state = web.get(f"/api/games/{game}", headers=auth["Ann"]).json()
    before = walk_all()
    r = web.post(f"/api/games/{game}/actions",
                 json={**options(state, "place_bond")[0], "amount": ANN_BOND},
                 headers=auth["Ann"])
    assert r.status_code == 200, r.text
    assert number(ANN_BOND).search(r.content)
    after = walk_all()
    assert sum(len(pages) for pages in after.values()) >= 3 * 8
    assert leaks(before, after, number(ANN_BOND)) == []
    assert leaks(before, after, number(730 - ANN_BOND)) == []  # her cash after it

    # Ann's claimed city (2.5.4): secret from the others while the claims go on.
    for name in ("Bob", "Cat"):
        state = web.get(f"/api/games/{game}", headers=auth[name]).json()
        bond = options(state, "place_bond")[0]
        assert web.post(f"/api/games/{game}/actions", json=bond,
                        headers=auth[name]).status_code == 200
    state = web.get(f"/api/games/{game}", headers=auth["Ann"]).json()
    claims = options(state, "claim_city")
    assert claims, "Ann (the largest bond) claims first"
    before = walk_all()
    claim = claims[len(claims) // 2]
    r = web.post(f"/api/games/{game}/actions", json=claim, headers=auth["Ann"])
    assert r.status_code == 200, r.text
    city = re.compile(re.escape(claim["city"].encode()))
    after = walk_all()
    # A seat on turn is offered every city it may claim (public): its own options aside.
    for who in ("Bob", "Cat"):
        own = web.get(f"/api/games/{game}", headers=auth[who]).json()
        if own["turn"]["decisions"]:
            after[who].pop("/api/games/{game_id}", None)
            after[who].pop("/api/games/{game_id}/events", None)
    assert leaks(before, after, city) == []


def test_a_takeback_never_shows_the_undone_secret(web: TestClient) -> None:
    """Issue 22 item 6: Ann's bond taken back by consent stays hers alone - in the log's
    undone branch, the seats' answers and every other GET route (the walk covers
    ``/seats``)."""
    made = new_game(web)
    game, tokens = made["id"], made["tokens"]
    auth = {name: {"Authorization": f"Bearer {t}"} for name, t in tokens.items()}
    others = ("Bob", "Cat", None)
    state = web.get(f"/api/games/{game}", headers=auth["Ann"]).json()
    before = {t: walk(web, game, tokens.get(t)) for t in others}
    r = web.post(f"/api/games/{game}/actions",
                 json={**options(state, "place_bond")[0], "amount": ANN_BOND},
                 headers=auth["Ann"])
    assert r.status_code == 200, r.text
    r = web.post(f"/api/games/{game}/requests", json={"kind": "takeback", "to": 0},
                 headers=auth["Ann"])
    assert r.status_code == 200, r.text
    request = r.json()["requests"]["open"][0]["id"]
    answers = [web.post(f"/api/games/{game}/requests/{request}", json={"accept": True},
                        headers=auth[name]) for name in ("Bob", "Cat")]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[1].json()["requests"]["branches"][0]["outcome"]["taken_back"] == [1]
    after = {t: walk(web, game, tokens.get(t)) for t in others}
    assert "/api/games/{game_id}/seats" in after[None]
    assert leaks(before, after, number(ANN_BOND)) == []
    assert leaks(before, after, number(730 - ANN_BOND)) == []
    assert not any(number(ANN_BOND).search(a.content) for a in answers)
    # Ann sees her own undone bond in her own view of the log no more than the table does:
    # the public log's line of it withholds the amount.
    log = web.get(f"/api/games/{game}/log").json()["actions"]
    assert [line["action"]["type"] for line in log] == ["place_bond", "undo"]
    assert not number(ANN_BOND).search(web.get(f"/api/games/{game}/log").content)
