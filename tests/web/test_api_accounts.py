"""Accounts, CSRF, login rate limits, open seats, joining and "My games" over HTTP (issue 22
items 1-2; docs/web-api.md "Accounts" and "Open games").  One in-process app per module
(Starlette's TestClient: real HTTP semantics, cookies kept per client) with cheap argon2
parameters; every client below is one browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2.profiles import CHEAPEST
from fastapi import FastAPI
from fastapi.testclient import TestClient

from india1853.interfaces.web.accounts import AccountSettings
from india1853.interfaces.web.app import create_app
from india1853.interfaces.web.security import RateLimit

CHEAP = {"hash_time_cost": CHEAPEST.time_cost, "hash_memory_kib": CHEAPEST.memory_cost,
         "hash_parallelism": CHEAPEST.parallelism}
PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    db = tmp_path_factory.mktemp("accounts") / "db.sqlite3"
    made = create_app(f"sqlite:///{db}", rate_limited=False,
                      trusted_proxy_header="X-Forwarded-For",
                      accounts=AccountSettings(per_name=RateLimit(rate=0.001, burst=3.0),
                                               **CHEAP))  # type: ignore[arg-type]
    with TestClient(made):  # the lifespan: the store, the bots
        yield made


def browser(app: FastAPI, address: str = "127.0.0.1") -> TestClient:
    return TestClient(app, raise_server_exceptions=False, client=(address, 5000))


def sign_up(c: TestClient, name: str) -> dict[str, Any]:
    r = c.post("/api/account/sign-up", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def csrf(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.cookies["india1853_csrf"]}


def open_game(c: TestClient, players: list[dict[str, Any]],
              headers: dict[str, str] | None = None) -> dict[str, Any]:
    r = c.post("/api/open-games", json={"players": players, "seed": 5}, headers=headers or {})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def bond(c: TestClient, game: str, headers: dict[str, str]) -> int:
    state = c.get(f"/api/games/{game}", headers=headers).json()
    action = next(o["action"] for d in state["turn"]["decisions"] for o in d["options"]
                  if o["action"]["type"] == "place_bond")
    r = c.post(f"/api/games/{game}/actions", json=action, headers=headers)
    return r.status_code


def test_sign_up_in_and_out_with_the_cookies_attributes(app: FastAPI) -> None:
    c = browser(app)
    assert c.get("/api/account").json() == {"account": None, "csrf": None}
    r = c.post("/api/account/sign-up", json={"name": "Ann", "password": PASSWORD})
    assert r.status_code == 201, r.text
    cookies = r.headers.get_list("set-cookie")
    session = next(x for x in cookies if x.startswith("india1853_session="))
    assert "HttpOnly" in session and "SameSite=Lax" in session and "Secure" not in session
    readable = next(x for x in cookies if x.startswith("india1853_csrf="))
    assert "HttpOnly" not in readable
    me = c.get("/api/account").json()
    assert me["account"] == {"name": "Ann"} and me["csrf"] == c.cookies["india1853_csrf"]
    # Nothing answered holds the session or a password hash.
    assert c.cookies["india1853_session"] not in r.text + str(me)
    assert "argon2" not in r.text + str(me)
    r = c.post("/api/account/sign-out", headers=csrf(c))
    assert r.status_code == 200 and c.get("/api/account").json()["account"] is None
    other = browser(app)
    r = other.post("/api/account/sign-in", json={"name": "ann", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["account"] == {"name": "Ann"}
    assert other.get("/api/account").json()["account"] == {"name": "Ann"}


def test_secure_cookies_over_tls_as_the_trusted_proxy_says(app: FastAPI) -> None:
    c = browser(app)
    r = c.post("/api/account/sign-up", json={"name": "Tls", "password": PASSWORD},
               headers={"X-Forwarded-Proto": "https"})
    assert all("; Secure" in x for x in r.headers.get_list("set-cookie"))
    r = c.post("/api/account/sign-in", json={"name": "Tls", "password": PASSWORD})
    assert all("; Secure" not in x for x in r.headers.get_list("set-cookie"))
    # Behind the trusted proxy the page's origin is the host the proxy names.
    proxied = {"Origin": "https://games.example", "X-Forwarded-Host": "games.example"}
    r = c.post("/api/account/sign-in", json={"name": "Tls", "password": PASSWORD},
               headers=proxied)
    assert r.status_code == 200, r.text
    r = c.post("/api/account/sign-in", json={"name": "Tls", "password": PASSWORD},
               headers={**proxied, "Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["detail"].startswith("Origin:")


def test_bad_sign_ups_name_the_field_and_change_nothing(app: FastAPI) -> None:
    c = browser(app)
    sign_up(c, "Bea")
    cases = [({"name": "", "password": PASSWORD}, 422, "name: must not be empty"),
             ({"name": " Bo", "password": PASSWORD}, 422, "name: must not start or end"),
             ({"name": "x" * 33, "password": PASSWORD}, 422, "name: at most 32 characters"),
             ({"name": "Bo\x1b", "password": PASSWORD}, 422, "name: holds a control"),
             ({"name": "Bo", "password": "short"}, 422, "password: at least 8"),
             ({"name": "Bo", "password": 12345678}, 422, "password: Input should be"),
             ({"name": "Bo", "password": PASSWORD, "admin": True}, 422, "admin: Extra"),
             ({"name": "BEA", "password": PASSWORD}, 409, "name: 'BEA' is taken")]
    for body, status, words in cases:
        r = browser(app).post("/api/account/sign-up", json=body)
        assert r.status_code == status and r.json()["detail"].startswith(words), r.text
    assert browser(app).post("/api/account/sign-in",
                             json={"name": "Bo", "password": PASSWORD}).status_code == 401
    wrong = browser(app).post("/api/account/sign-in", json={"name": "Bea", "password": "x" * 9})
    unknown = browser(app).post("/api/account/sign-in",
                                json={"name": "Nobody", "password": "x" * 9})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "password: wrong name or password"}


def test_a_signed_in_write_needs_the_csrf_token_and_this_servers_origin(app: FastAPI) -> None:
    c = browser(app)
    sign_up(c, "Cy")
    seats = [{}, {"open": True}, {"name": "Bot", "bot": "greedy"}]
    r = c.post("/api/open-games", json={"players": seats})
    assert r.status_code == 403 and r.json()["detail"].startswith("X-CSRF-Token: missing")
    r = c.post("/api/open-games", json={"players": seats},
               headers={"X-CSRF-Token": "0" * 64})
    assert r.status_code == 403
    r = c.post("/api/open-games", json={"players": seats},
               headers={**csrf(c), "Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["detail"].startswith("Origin:")
    r = browser(app).post("/api/account/sign-in", json={"name": "Cy", "password": PASSWORD},
                          headers={"Origin": "https://evil.example"})
    assert r.status_code == 403  # login CSRF
    assert c.get("/api/open-games").json()["games"] == []  # nothing was created
    made = open_game(c, seats, {**csrf(c), "Origin": "http://testserver"})
    assert made["seat"] == "Cy" and "token" not in made  # an account's seat: no token


def test_sign_in_is_rate_limited_per_name_and_per_client(app: FastAPI) -> None:
    sign_up(browser(app, "10.0.0.1"), "Dee")
    codes = [browser(app, f"10.0.1.{i}").post(
        "/api/account/sign-in", json={"name": "Dee", "password": "wrong password"}).status_code
        for i in range(4)]
    assert codes == [401, 401, 429, 429]  # burst 3 per name, the sign-up was one
    r = browser(app, "10.0.2.1").post("/api/account/sign-in",
                                      json={"name": "Dee", "password": PASSWORD})
    assert r.status_code == 429 and "for this name" in r.json()["detail"]
    # Another name from the same clients is not held back by Dee's budget.
    assert browser(app, "10.0.1.1").post(
        "/api/account/sign-in", json={"name": "Else", "password": "wrong password"}
    ).status_code == 401
    # Per client: 20 at once, whatever the names.
    codes = [browser(app, "10.0.3.1").post(
        "/api/account/sign-in", json={"name": f"n{i}", "password": "wrong password"}
    ).status_code for i in range(21)]
    assert codes[:20] == [401] * 20 and codes[20] == 429


def test_open_seats_joined_by_a_guest_and_an_account_start_the_game(app: FastAPI) -> None:
    eve, fay, guest = browser(app), browser(app), browser(app)
    sign_up(eve, "Eve")
    sign_up(fay, "Fay")
    made = open_game(eve, [{}, {"open": True}, {"open": True}], csrf(eve))
    game = made["id"]
    assert made == {"id": game, "seat": "Eve", "started": False, "invite": f"/join/{game}",
                    "link": f"/games/{game}"}
    listed = next(g for g in guest.get("/api/open-games").json()["games"] if g["id"] == game)
    assert listed["open"] == 2 and [s["name"] for s in listed["seats"]] == ["Eve", None, None]
    assert guest.get(f"/api/games/{game}").status_code == 404  # not started yet
    assert eve.get(f"/api/open-games/{game}").json()["yours"] is True
    assert guest.get(f"/api/open-games/{game}").json()["yours"] is False
    # Bad joins change nothing.
    for body, status, words in [({}, 422, "name: a guest joins"),
                                ({"name": "eve"}, 409, "name: 'eve' is taken"),
                                ({"name": "NWR"}, 422, "name: 'NWR' is a company's"),
                                ({"name": 5}, 422, "name: Input should be")]:
        r = guest.post(f"/api/open-games/{game}/join", json=body)
        assert r.status_code == status and r.json()["detail"].startswith(words), r.text
    assert eve.post(f"/api/open-games/{game}/join", json={},
                    headers=csrf(eve)).json()["detail"].startswith("join: you hold a seat")
    assert guest.get(f"/api/open-games/{game}").json()["open"] == 2
    joined = guest.post(f"/api/open-games/{game}/join", json={"name": "Gus"}).json()
    assert joined["seat"] == "Gus" and joined["started"] is False and joined["token"]
    waiting = guest.post("/api/my-games", json={"seats": [{"game": game,
                                                            "token": joined["token"]}]}).json()
    assert [(g["id"], g["status"], g["open"]) for g in waiting["games"]] == [
        (game, "waiting for players", 1)]
    last = fay.post(f"/api/open-games/{game}/join", json={}, headers=csrf(fay)).json()
    assert last == {"id": game, "seat": "Fay", "started": True, "invite": f"/join/{game}",
                    "link": f"/games/{game}"}
    assert game not in [g["id"] for g in guest.get("/api/open-games").json()["games"]]
    r = browser(app).post(f"/api/open-games/{game}/join", json={"name": "Hal"})
    assert r.status_code == 409 and r.json()["detail"] == "join: the game has started; no " \
                                                          "seat is open"
    # Each seat as its own: the accounts by their session, the guest by his token.
    gus = {"Authorization": f"Bearer {joined['token']}"}
    assert eve.get(f"/api/games/{game}").json()["seat"] == "Eve"
    assert fay.get(f"/api/games/{game}").json()["seat"] == "Fay"
    assert guest.get(f"/api/games/{game}", headers=gus).json()["seat"] == "Gus"
    assert guest.get(f"/api/games/{game}").json()["seat"] is None  # no token: a spectator
    # A signed-in action without the CSRF token is refused, with it it is applied.
    state = eve.get(f"/api/games/{game}").json()
    action = next(o["action"] for d in state["turn"]["decisions"] for o in d["options"]
                  if o["action"]["type"] == "place_bond")
    assert eve.post(f"/api/games/{game}/actions", json=action).status_code == 403
    assert eve.post(f"/api/games/{game}/actions", json=action,
                    headers=csrf(eve)).status_code == 200
    # Another browser where Eve signs in has her seat.
    again = browser(app)
    assert again.post("/api/account/sign-in",
                      json={"name": "Eve", "password": PASSWORD}).status_code == 200
    mine = again.post("/api/my-games", json={}, headers=csrf(again)).json()
    entry = next(g for g in mine["games"] if g["id"] == game)
    assert entry["seat"] == "Eve" and entry["my_turn"] is False
    assert sorted(entry["to_act"]) == ["Fay", "Gus"]  # the engine's: their bonds are due
    fays = fay.post("/api/my-games", json={}, headers=csrf(fay)).json()["games"]
    assert fays[0]["id"] == game and fays[0]["status"] == "your turn"
    assert bond(guest, game, gus) == 200
    assert bond(fay, game, csrf(fay)) == 200
    mine = again.post("/api/my-games", json={}, headers=csrf(again)).json()
    entry = next(g for g in mine["games"] if g["id"] == game)
    assert entry["status"] == "your turn" and entry["to_act"] == ["Eve"]  # the first claim


def test_the_creator_starts_early_with_bots(app: FastAPI) -> None:
    guest, other = browser(app), browser(app)
    made = open_game(guest, [{"name": "Ida"}, {"open": True}, {"open": True}])
    game, token = made["id"], made["token"]
    r = other.post(f"/api/open-games/{game}/start", json={"bot": "greedy"})
    assert r.status_code == 403 and r.json()["detail"].startswith("start: only the game's")
    r = guest.post(f"/api/open-games/{game}/start", json={"bot": "nobot"},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 422 and r.json()["detail"].startswith("bot: unknown bot")
    assert guest.get(f"/api/games/{game}").status_code == 404
    r = guest.post(f"/api/open-games/{game}/start", json={"bot": "random"},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    view = guest.get(f"/api/games/{game}",
                     headers={"Authorization": f"Bearer {token}"}).json()
    assert view["seat"] == "Ida"
    assert view["game"]["players"] == [{"name": "Ida", "bot": None},
                                       {"name": "Bot 1", "bot": "random"},
                                       {"name": "Bot 2", "bot": "random"}]


def test_bad_open_games_name_the_field_and_create_nothing(app: FastAPI) -> None:
    c = browser(app)
    before = c.get("/api/open-games").json()
    cases = [([{"open": True}, {"open": True}, {"open": True}], "players: exactly one seat"),
             ([{"name": "A"}, {"name": "B"}, {"open": True}], "players: exactly one seat"),
             ([{}, {"open": True}, {"open": True}], "players[0].name: your seat needs"),
             ([{"name": "A"}, {"open": True, "name": "B"}, {"open": True}], "players[1]: an"),
             ([{"name": "A"}, {"name": "B", "bot": "x"}, {"open": True}], "players[1].bot"),
             ([{"name": "A"}, {"open": True}], "settings.players: 3 to"),
             ([{"name": "A"}, {"name": "a", "bot": "greedy"}, {"open": True}],
              "settings.players: player names must differ")]
    for players, words in cases:
        r = c.post("/api/open-games", json={"players": players})
        assert r.status_code == 422 and r.json()["detail"].startswith(words), (players, r.text)
    r = c.post("/api/open-games", json={"players": [{"name": "A"}, {"open": True},
                                                    {"open": True}], "variants": ["nope"]})
    assert r.status_code == 422
    assert c.get("/api/open-games").json() == before
    assert c.get("/api/open-games/nope").status_code == 404
    assert c.post("/api/open-games/nope/join", json={"name": "A"}).status_code == 404


def test_my_games_lists_a_finished_game_with_its_scores_last(app: FastAPI) -> None:
    import json

    log = json.loads((Path(__file__).parent.parent / "games" / "first" /
                      "greedy-5p-seed8-amended-share-limits.json").read_text())
    c = browser(app)
    r = c.post("/api/games/import", params={"hotseat": "true"},
               json={k: log[k] for k in ("engine_version", "settings", "actions")})
    assert r.status_code == 201, r.text
    done = r.json()
    waiting = open_game(c, [{"name": "Jo"}, {"open": True}, {"open": True}])
    kept = [{"game": done["id"], "token": done["hotseat_token"]},
            {"game": waiting["id"], "token": waiting["token"]},
            {"game": "no-such-game", "token": "x"},
            {"game": waiting["id"], "token": "not its token"}]
    games = c.post("/api/my-games", json={"seats": kept}).json()["games"]
    assert [(g["id"], g["status"]) for g in games] == [
        (waiting["id"], "waiting for players"), (done["id"], "finished")]
    scores = games[1]["scores"]
    assert [s["score"] for s in scores] == sorted((s["score"] for s in scores), reverse=True)
    assert {s["name"] for s in scores} == set(log["settings"]["players"])
    assert games[1]["my_turn"] is False and games[1]["to_act"] == []
    assert done["hotseat_token"] not in json.dumps(games)
    assert waiting["token"] not in json.dumps(games)
    r = c.post("/api/my-games", json={"seats": [{"game": "g", "token": "t"}] * 201})
    assert r.status_code == 422 and r.json()["detail"] == "seats: at most 200, got 201"


def test_the_secure_cookies_setting_wins_over_what_a_request_says() -> None:
    from india1853.interfaces.web.accounts import secure

    plain = {"scheme": "http", "headers": [(b"x-forwarded-proto", b"https")]}
    tls = {"scheme": "https", "headers": []}
    assert secure(plain, AccountSettings(secure_cookies=True), False) is True
    assert secure(tls, AccountSettings(secure_cookies=False), True) is False
    assert secure(tls, AccountSettings(), False) is True
    assert secure(plain, AccountSettings(), False) is False  # no trusted proxy
    assert secure(plain, AccountSettings(), True) is True
