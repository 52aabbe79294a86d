"""The security walk with accounts (issue 22): every GET route of the OpenAPI schema and the
pages, walked as each signed-in account (its session cookie), as a guest's seat (its token)
and as nobody, and "My games" asked by each: no session, no CSRF token of another browser, no
seat token, no password (nor its hash) in any answer, and a seat's secret (its bond, 2.5.2)
shown to nobody else - the accounts' seats reached by their session hold their secrets as a
token's seat does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from argon2.profiles import CHEAPEST
from fastapi.testclient import TestClient
from test_security import ANN_BOND, leaks, number, walk

from india1853.interfaces.web.accounts import AccountSettings
from india1853.interfaces.web.app import create_app

PASSWORDS = {"Ann": "ann's long password", "Bob": "bob's long password"}


class Browser:
    """One browser on the app's one client (the event stream needs the lifespan's loop): its
    own cookies sent with each request, none kept in the client."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.cookies: dict[str, str] = {}

    def _headers(self, kw: dict[str, Any]) -> dict[str, Any]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        kw["headers"] = {**(kw.get("headers") or {}), **({"Cookie": cookie} if cookie else {})}
        return kw

    def _keep(self, r: Any) -> Any:
        for k, v in r.cookies.items():
            self.cookies[k] = v
        self.c.cookies.clear()
        return r

    def get(self, url: str, **kw: Any) -> Any:
        return self._keep(self.c.get(url, **self._headers(kw)))

    def post(self, url: str, **kw: Any) -> Any:
        return self._keep(self.c.post(url, **self._headers(kw)))

    def put(self, url: str, **kw: Any) -> Any:
        return self._keep(self.c.put(url, **self._headers(kw)))

    def stream(self, method: str, url: str, **kw: Any) -> Any:
        return self.c.stream(method, url, **self._headers(kw))


def test_no_answer_holds_a_session_a_token_a_password_or_anothers_secret(
        tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", rate_limited=False,
                     accounts=AccountSettings(hash_time_cost=CHEAPEST.time_cost,
                                              hash_memory_kib=CHEAPEST.memory_cost,
                                              hash_parallelism=CHEAPEST.parallelism))
    with TestClient(app) as one:
        nobody = Browser(one)
        clients = {name: Browser(one) for name in PASSWORDS}
        answers: list[bytes] = []
        for name, c in clients.items():
            r = c.post("/api/account/sign-up", json={"name": name, "password": PASSWORDS[name]})
            assert r.status_code == 201
            answers.append(r.content)
        csrf = {name: {"X-CSRF-Token": c.cookies["india1853_csrf"]}
                for name, c in clients.items()}
        r = clients["Ann"].post("/api/open-games", headers=csrf["Ann"], json={
            "players": [{}, {"open": True}, {"open": True}], "seed": 11})
        game = r.json()["id"]
        answers.append(r.content)
        guest = Browser(one)
        r = guest.post(f"/api/open-games/{game}/join", json={"name": "Cat"})
        token = r.json()["token"]  # the guest's own, answered to him once
        r = clients["Bob"].post(f"/api/open-games/{game}/join", json={},
                                headers=csrf["Bob"])
        assert r.json()["started"] is True
        answers.append(r.content)
        cat = {"Authorization": f"Bearer {token}"}

        def walk_all() -> dict[str | None, dict[str, bytes]]:
            out = {"Bob": walk(clients["Bob"], game, None),  # type: ignore[arg-type]
                   "Cat": walk(guest, game, token),  # type: ignore[arg-type]
                   None: walk(nobody, game, None)}  # type: ignore[arg-type]
            for who, c, headers, kept in (("Bob", clients["Bob"], csrf["Bob"], []),
                                          ("Cat", guest, {}, [{"game": game, "token": token}]),
                                          (None, nobody, {}, [])):
                out[who]["my-games"] = c.post("/api/my-games", json={"seats": kept},
                                              headers=headers).content
            return out

        state = clients["Ann"].get(f"/api/games/{game}").json()
        assert state["seat"] == "Ann"
        bond = next(o["action"] for d in state["turn"]["decisions"] for o in d["options"]
                    if o["action"]["type"] == "place_bond")
        before = walk_all()
        r = clients["Ann"].post(f"/api/games/{game}/actions", headers=csrf["Ann"],
                                json={**bond, "amount": ANN_BOND})
        assert r.status_code == 200, r.text
        after = walk_all()
        assert leaks(before, after, number(ANN_BOND)) == []
        own = walk(clients["Ann"], game, None)  # type: ignore[arg-type]
        assert number(ANN_BOND).search(own["/api/games/{game_id}"])  # hers, by her session
        assert json.loads(after["Bob"]["/api/games/{game_id}"])["seat"] == "Bob"  # by session
        assert b'"seat":"Bob"' in after["Bob"]["/api/games/{game_id}/events"]
        assert json.loads(after[None]["/api/games/{game_id}"])["seat"] is None
        assert json.loads(before["Bob"]["my-games"])["games"][0]["seat"] == "Bob"
        assert json.loads(before["Cat"]["my-games"])["games"][0]["seat"] == "Cat"
        assert json.loads(before[None]["my-games"])["games"] == []
        assert "/api/open-games/{game_id}" in after[None]  # the walk covers the new routes
        assert "/api/account" in after[None]

        secrets = [token.encode(), *(p.encode() for p in PASSWORDS.values()), b"$argon2"]
        for c in clients.values():
            secrets.append(c.cookies["india1853_session"].encode())
        # The account's writes (every POST of /api/account) answer nothing of the kind either:
        # a change of password, a deletion (a third account), sign-out.
        newer = "bob's newer password"
        secrets.append(newer.encode())
        written: dict[str, bytes] = {}
        r = clients["Bob"].post("/api/account/password", headers=csrf["Bob"],
                                json={"password": PASSWORDS["Bob"], "new_password": newer})
        assert r.status_code == 200, r.text
        written["/api/account/password"] = r.content
        secrets.append(clients["Bob"].cookies["india1853_session"].encode())  # the new one
        cy = Browser(one)
        written["/api/account/sign-up"] = cy.post(
            "/api/account/sign-up", json={"name": "Cy", "password": "cy's long password"}).content
        secrets.extend([b"cy's long password", cy.cookies["india1853_session"].encode()])
        cy_csrf = {"X-CSRF-Token": cy.cookies["india1853_csrf"]}
        written["/api/account/sign-in"] = Browser(one).post("/api/account/sign-in", json={
            "name": "Cy", "password": "cy's long password"}).content
        r = cy.post("/api/account/delete", headers=cy_csrf,
                    json={"password": "cy's long password"})
        assert r.status_code == 200, r.text
        written["/api/account/delete"] = r.content
        written["/api/account/sign-out"] = clients["Ann"].post(
            "/api/account/sign-out", headers=csrf["Ann"]).content
        written["/api/account/alerts"] = clients["Bob"].put(
            "/api/account/alerts", headers={"X-CSRF-Token": clients["Bob"].cookies[
                "india1853_csrf"]}, json={"webhook": None}).content
        paths = nobody.get("/openapi.json").json()["paths"]
        assert {p for p, methods in paths.items() if p.startswith("/api/account")
                and set(methods) - {"get"}} == set(written), "a new account route: add it"
        answers.extend(written.values())
        everything = [*answers, *own.values(),
                      *(raw for pages in (*before.values(), *after.values())
                        for raw in pages.values())]
        for raw in everything:
            for secret in secrets:
                assert secret not in raw, secret
        # Each browser's CSRF token is only in its own account answer, never another's.
        for who, pages in after.items():
            for name in PASSWORDS:
                if name != who:
                    mark = csrf[name]["X-CSRF-Token"].encode()
                    assert all(mark not in raw for raw in pages.values())
        assert b"Cat" in after["Cat"]["/api/games/{game_id}"]
        assert guest.get(f"/api/games/{game}", headers=cat).json()["seat"] == "Cat"
