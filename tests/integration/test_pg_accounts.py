"""Accounts and open seats on PostgreSQL with two server processes (issue 22 items 1-2):
migration 0006 on PostgreSQL, a session made by one process good at the other, a seat joined
at one and taken by the account at the other, and two guests racing for the last open seat
at two processes at once: one gets it, the other is told the game has started."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import services
from cluster import Server, auth, client


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with services.postgres() as url:
        yield url


def csrf(c: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": c.cookies["india1853_csrf"]}


def test_accounts_and_joining_across_two_processes(pg_url: str, tmp_path: Path) -> None:
    one, two = Server(tmp_path / "one", pg_url), Server(tmp_path / "two", pg_url)
    try:
        ann, bob = client(one.url), client(two.url)
        r = ann.post("/api/account/sign-up", json={"name": "Ann", "password": "ann password"})
        assert r.status_code == 201, r.text
        made = ann.post("/api/open-games", headers=csrf(ann), json={
            "players": [{}, {"open": True}, {"open": True}, {"open": True}]}).json()
        game = made["id"]
        # Ann's session, made by process one, is good at process two.
        at_two = client(two.url)
        at_two.cookies.update(ann.cookies)
        assert at_two.get("/api/account").json()["account"] == {"name": "Ann"}
        r = bob.post("/api/account/sign-up", json={"name": "Bob", "password": "bob password"})
        assert r.status_code == 201
        assert bob.post(f"/api/open-games/{game}/join", json={},
                        headers=csrf(bob)).json()["started"] is False
        # Two guests at two processes race for the two last seats, and a third for none.
        answers: list[httpx.Response] = []

        def join(url: str, name: str) -> None:
            with client(url) as c:
                answers.append(c.post(f"/api/open-games/{game}/join", json={"name": name}))

        racers = [threading.Thread(target=join, args=(url, name))
                  for url, name in ((one.url, "Cat"), (two.url, "Dan"), (one.url, "Eve"))]
        for t in racers:
            t.start()
        for t in racers:
            t.join()
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 200, 409], [r.text for r in answers]
        refused = next(r for r in answers if r.status_code == 409)
        assert refused.json()["detail"] == "join: the game has started; no seat is open"
        seated = [r.json() for r in answers if r.status_code == 200]
        assert sorted(s["started"] for s in seated) == [False, True]
        # Every seat is its own at either process: the accounts by session, guests by token.
        assert at_two.get(f"/api/games/{game}").json()["seat"] == "Ann"
        assert client(one.url).get(f"/api/games/{game}",
                                   headers=auth(seated[0]["token"])).json()["seat"] == \
            seated[0]["seat"]
        players = [p["name"] for p in bob.get(f"/api/games/{game}").json()["game"]["players"]]
        assert players[:2] == ["Ann", "Bob"] and sorted(players[2:]) == sorted(
            s["seat"] for s in seated)
    finally:
        one.stop()
        two.stop()
