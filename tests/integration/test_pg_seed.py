"""A 128-bit seed on PostgreSQL (issue 19, item 6): the seed lives in the ``games.settings``
JSON column, which keeps any integer exactly; a server restarted on the database (no cache)
publishes the same commitment and deals the same hand."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import services
from cluster import Server, auth, client

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}, {"name": "Dan"}]


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with services.postgres() as url:
        yield url


def test_a_128_bit_seed_survives_postgresql(pg_url: str, tmp_path: Path) -> None:
    seed = 2**128 - 3
    server = Server(tmp_path / "one", pg_url)
    try:
        with client(server.url) as c:
            r = c.post("/api/games", json={"players": PLAYERS, "seed": seed,
                                           "edition": "first", "variants": ["mik2"]})
            assert r.status_code == 201, r.text
            made = r.json()
            ann = c.get(f"/api/games/{made['id']}", headers=auth(made["tokens"]["Ann"])).content
    finally:
        server.stop()
    again = Server(tmp_path / "two", pg_url)
    try:
        with client(again.url) as c:
            view = c.get(f"/api/games/{made['id']}", headers=auth(made["tokens"]["Ann"]))
            assert view.content == ann
            assert view.json()["game"]["seed"]["sha256"] == hashlib.sha256(
                str(seed).encode()).hexdigest()
            assert view.json()["game"]["seed"]["chosen_by"] == "creator"
    finally:
        again.stop()
