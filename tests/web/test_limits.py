"""What a server promises about limits (issue 19, items 3, 4, 7 and 9; docs/web-api.md):
player names of at most ``MAX_NAME_LENGTH`` characters, a log of many undo/redo pairs imported
as the engine loads it, caches bounded in bytes, and a stored row without its digest refused
as damage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webclient import client, create, view

from india1853.rules.game.settings import MAX_NAME_LENGTH

ROOT = Path(__file__).resolve().parents[2]


def _log(players: list[str]) -> dict[str, Any]:
    return {"engine_version": "1", "actions": [],
            "settings": {"edition": "second", "players": players, "seed": 3, "variants": []}}


def test_a_name_longer_than_the_limit_is_refused_by_create_and_import(server_url: str) -> None:
    c = client(server_url)
    long = "É" * (MAX_NAME_LENGTH + 1)  # characters, not bytes: PostgreSQL's varchar counts so
    r = c.post("/api/games", json={"players": [{"name": long}, {"name": "Bob"},
                                               {"name": "Cat"}]})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail.startswith("settings.players: a name of 65 characters")
    assert f"at most {MAX_NAME_LENGTH}" in detail and len(detail) < 200
    r = c.post("/api/games/import", json=_log(["Ann", long, "Cat"]))
    assert r.status_code == 422, r.text
    assert r.json()["detail"].startswith("settings.players: a name of 65 characters")
    huge = "x" * 340_000  # the hostile tester's name: refused, never echoed back
    r = c.post("/api/games", json={"players": [{"name": huge}, {"name": "Bob"},
                                               {"name": "Cat"}]})
    assert r.status_code == 422 and len(r.text) < 300, r.text[:300]
    assert c.get("/api/games").json()["games"] == []


def test_a_name_of_the_limit_is_kept_whole(server_url: str) -> None:
    c = client(server_url)
    name = "É" * MAX_NAME_LENGTH
    made = create(c, players=[{"name": name}, {"name": "Bob"}, {"name": "Cat"}])
    assert [p["name"] for p in view(c, made["id"])["game"]["players"]] == [name, "Bob", "Cat"]
