"""The JSON API through real HTTP: every endpoint, with bad input (right status, a clear
one-line message, nothing changed)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import forkserver
import httpx
import pytest
from webclient import act, auth, client, create, option, view, wait_for

GAMES = Path(__file__).parents[1] / "games"
SEED = re.compile(rb"(?<![0-9.])424242(?![0-9.])")  # the seed as a number of its own


@pytest.fixture
def c(server_url: str) -> httpx.Client:
    return client(server_url)


def snapshot(c: httpx.Client, game_id: str, token: str) -> tuple[int, Any]:
    state = view(c, game_id, token)
    return state["last_action_id"], state["turn"]["view"]


def test_create_gives_one_token_per_human_seat_and_lists_no_secret(c: httpx.Client) -> None:
    made = create(c, players=[{"name": "Ann"}, {"name": "Bob", "bot": "greedy"},
                              {"name": "Cat"}], seed=424242)
    assert set(made["tokens"]) == {"Ann", "Cat"}
    assert "hotseat_token" not in made
    assert made["spectator"] == f"/games/{made['id']}"
    assert made["links"]["Ann"] == f"/games/{made['id']}#token={made['tokens']['Ann']}"
    # >= 128 random bits: 192 bits in URL-safe base64 are 32 characters.
    assert all(len(t) >= 32 for t in made["tokens"].values())
    assert len(set(made["tokens"].values())) == 2
    raw = c.get("/api/games").content
    listed = json.loads(raw)["games"]
    mine = next(g for g in listed if g["id"] == made["id"])
    assert mine["players"] == [{"name": "Ann", "bot": None}, {"name": "Bob", "bot": "greedy"},
                               {"name": "Cat", "bot": None}]
    assert {"id", "edition", "variants", "round", "finished", "created_at", "actions"} <= set(mine)
    for token in made["tokens"].values():
        assert token.encode() not in raw
    # Only the seed's commitment and who chose it (docs/web-api.md), never the seed.
    assert not SEED.search(raw) and mine["seed"]["value"] is None
    assert mine["seed"]["chosen_by"] == "creator"
    spectator = c.get(f"/api/games/{made['id']}").content
    assert not SEED.search(spectator)
    assert json.loads(spectator)["game"]["seed"] == mine["seed"]


def test_hotseat_token_acts_for_every_human_seat(c: httpx.Client) -> None:
    made = create(c, hotseat=True)
    hot = made["hotseat_token"]
    assert made["hotseat_link"].endswith(hot)
    state = view(c, made["id"], hot)
    assert state["seats"] == ["Ann", "Bob", "Cat"] and state["seat"] == "Ann"
    for name in ("Ann", "Bob"):
        state = view(c, made["id"], hot, seat=name)
        assert state["seat"] == name
        r = act(c, made["id"], hot, option(state, "place_bond", amount=100), seat=name)
        assert r.status_code == 200, r.text
    assert view(c, made["id"], hot)["seat"] == "Cat"  # the human seat that must act next
    r = c.get(f"/api/games/{made['id']}", params={"seat": "Dan"}, headers=auth(hot))
    assert r.status_code == 403 and "Dan" in r.json()["detail"]


@pytest.mark.parametrize(("body", "status", "message"), [
    (b"{not json", 422, "body: not valid JSON"),
    (b"[1, 2]", 422, "Input should be"),
    (b'{"seed": 1}', 422, "players: Field required"),
    (b'{"players": [{"name": "Ann"}, {"name": "Bob"}]}', 422, "3 to 6 players"),
    (b'{"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat", "bot": "clever"}]}',
     422, "players[2].bot: unknown bot 'clever'"),
    (b'{"players": [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}, '
     b'{"name": "C", "bot": "random"}]}', 422, "at least one seat must be a human"),
    (b'{"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}], "colour": 1}',
     422, "colour: Extra inputs are not permitted"),
    (b'{"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}], "seed": "7"}',
     422, "seed: Input should be a valid integer"),
    (b'{"players": [{"name": "Ann"}, {"name": "Ann"}, {"name": "Cat"}]}', 422,
     "names must differ"),
    (b'{"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}], "edition": "third"}',
     422, "unknown edition"),
    (b'{"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}], "variants": ["x"]}',
     422, "x"),
    (b'{"players": []}' + b" " * (1 << 20), 413, "body: larger than"),
])
def test_create_refuses_bad_input(c: httpx.Client, body: bytes, status: int,
                                  message: str) -> None:
    before = len(c.get("/api/games").json()["games"])
    r = c.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and message in detail, detail
    assert len(c.get("/api/games").json()["games"]) == before


def test_get_unknown_game_and_bad_tokens(c: httpx.Client) -> None:
    made = create(c)
    r = c.get("/api/games/nosuchgame")
    assert r.status_code == 404 and "no such game" in r.json()["detail"]
    r = c.get(f"/api/games/{made['id']}", headers=auth("x" * 32))
    assert r.status_code == 401 and "not a token of this game" in r.json()["detail"]
    r = c.get(f"/api/games/{made['id']}", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401 and "Bearer" in r.json()["detail"]
    other = create(c)
    r = c.get(f"/api/games/{made['id']}", headers=auth(other["tokens"]["Ann"]))
    assert r.status_code == 401
    r = c.get(f"/api/games/{made['id']}", params={"seat": "Bob"},
              headers=auth(made["tokens"]["Ann"]))
    assert r.status_code == 403 and "Ann's, not 'Bob''s" in r.json()["detail"]
    # A seat asked for by name is the client's text: the refusal quotes it on one line.
    r = c.get(f"/api/games/{made['id']}", params={"seat": "Bob\nX"},
              headers=auth(made["tokens"]["Ann"]))
    assert r.status_code == 403 and r.json()["detail"] == (
        "seat: this token is Ann's, not 'Bob\\nX''s")
    spectator = view(c, made["id"])
    assert spectator["seat"] is None and spectator["seats"] == []
    assert spectator["turn"]["decisions"] == []
    ann = view(c, made["id"], made["tokens"]["Ann"])
    assert ann["seat"] == "Ann" and ann["seats"] == ["Ann"]
    assert all(d["player"] == "Ann" for d in ann["turn"]["decisions"])
    assert ann["turn"]["next_id"] == ann["last_action_id"] + 1 == 1


def test_an_accepted_action_returns_the_new_turn(c: httpx.Client) -> None:
    made = create(c)
    ann = made["tokens"]["Ann"]
    state = view(c, made["id"], ann)
    r = act(c, made["id"], ann, option(state, "place_bond", amount=120))
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["last_action_id"] == 1 and after["turn"]["next_id"] == 2
    me = next(p for p in after["turn"]["view"]["players"] if p["name"] == "Ann")
    assert me["bond"] == 120
    assert view(c, made["id"], ann) == after


def test_action_errors_change_nothing(c: httpx.Client) -> None:
    made = create(c)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    state = view(c, game, ann)
    act(c, game, ann, option(state, "place_bond", amount=100)).raise_for_status()
    before = snapshot(c, game, bob)
    bond = {"type": "place_bond", "entity": "Bob", "entity_type": "player", "amount": 100,
            "id": 2, "created_at": 0}
    url = f"/api/games/{game}/actions"
    cases: list[tuple[httpx.Response, int, str]] = [
        (c.post(url, json=bond), 401, "needs a seat's token"),
        (c.post(url, json=bond, headers=auth("y" * 32)), 401, "not a token of this game"),
        (c.post("/api/games/nosuchgame/actions", json=bond, headers=auth(bob)), 404,
         "no such game"),
        (c.post(url, json={**bond, "entity": "Cat"}, headers=auth(bob)), 403,
         "Cat is not decided by this token's seat"),
        (c.post(url, json={**bond, "id": 1}, headers=auth(bob)), 409, "expected 2, got 1"),
        (c.post(url, json={**bond, "id": 3}, headers=auth(bob)), 409, "expected 2, got 3"),
        (c.post(url, json={**bond, "amount": 5}, headers=auth(bob)), 422, "rule 2.5.2"),
        (c.post(url, json={**bond, "amount": 2000}, headers=auth(bob)), 422, "rule 2.5.2"),
        (c.post(url, json={**bond, "type": "fly"}, headers=auth(bob)), 422, "fly"),
        (c.post(url, json={k: v for k, v in bond.items() if k != "id"}, headers=auth(bob)),
         422, "action.id"),
        (c.post(url, json={**bond, "entity": "Zed"}, headers=auth(bob)), 422,
         "unknown player or company 'Zed'"),
        (c.post(url, json=[bond], headers=auth(bob)), 422, "action: must be a JSON object"),
        (c.post(url, content=b'{"type": ', headers=auth(bob)), 422, "body: not valid JSON"),
        (c.post(url, json={**bond, "pad": "x" * (1 << 20)}, headers=auth(bob)), 413,
         "body: larger than"),
        (c.post(url, json={"type": "undo", "entity": "Bob", "entity_type": "player",
                           "id": 2, "created_at": 0}, headers=auth(bob)), 403,
         "decided by Ann"),
    ]
    for r, status, message in cases:
        assert r.status_code == status, (message, r.text)
        detail = r.json()["detail"]
        assert isinstance(detail, str) and "\n" not in detail and message in detail, detail
    assert snapshot(c, game, bob) == before


def test_undo_own_last_action_only_and_redo(c: httpx.Client) -> None:
    made = create(c)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    assert view(c, game, ann)["can_undo"] is False
    state = act(c, game, ann, option(view(c, game, ann), "place_bond", amount=100)).json()
    assert state["can_undo"] is True and view(c, game, bob)["can_undo"] is False
    undo = state["undo"]
    assert undo == {"type": "undo", "entity": "Ann", "entity_type": "player", "id": 2,
                    "created_at": 0}
    r = act(c, game, bob, {**undo, "entity": "Bob"})
    assert r.status_code == 403
    after = act(c, game, ann, undo)
    assert after.status_code == 200, after.text
    me = next(p for p in after.json()["turn"]["view"]["players"] if p["name"] == "Ann")
    assert me["bond"] is None and after.json()["can_redo"] is True
    redone = act(c, game, ann, after.json()["redo"]).json()
    me = next(p for p in redone["turn"]["view"]["players"] if p["name"] == "Ann")
    assert me["bond"] == 100
    # Once Bob has acted, Ann's action is no longer the last: no undo for her.
    act(c, game, bob, option(view(c, game, bob), "place_bond", amount=90)).raise_for_status()
    assert view(c, game, ann)["can_undo"] is False
    r = act(c, game, ann, {**undo, "id": 5})
    assert r.status_code == 403


def test_undo_never_crosses_a_revealed_secret(c: httpx.Client) -> None:
    made = create(c, hotseat=True)
    game, hot = made["id"], made["hotseat_token"]
    for name in ("Ann", "Bob", "Cat"):
        state = view(c, game, hot, seat=name)
        act(c, game, hot, option(state, "place_bond", amount=100), seat=name).raise_for_status()
    state = view(c, game, hot)
    assert state["can_undo"] is False
    r = act(c, game, hot, {"type": "undo", "entity": "Cat", "entity_type": "player",
                           "id": 4, "created_at": 0})
    assert r.status_code == 422 and "revealed secret information" in r.json()["detail"]
    assert view(c, game, hot)["last_action_id"] == 3


@pytest.mark.parametrize("bots", [("greedy", "random"), ("strong", "strong")])
def test_bots_play_as_soon_as_it_is_their_turn(c: httpx.Client, bots: tuple[str, str]) -> None:
    # The lobby's difficulties: every bot name is a seat the server's sweep plays.
    made = create(c, players=[{"name": "Ann"}, {"name": "Bob", "bot": bots[0]},
                              {"name": "Cat", "bot": bots[1]}])
    game, ann = made["id"], made["tokens"]["Ann"]
    # Bonds are written at once: both bots place theirs without waiting for Ann.
    wait_for(lambda: view(c, game, ann)["last_action_id"] == 2)
    state = view(c, game, ann)
    act(c, game, ann, option(state, "place_bond")).raise_for_status()
    # Then the claims go round; the bots claim until Ann must decide again.
    wait_for(lambda: any(d["player"] == "Ann"
                         for d in view(c, game, ann)["turn"]["decisions"]))
    state = view(c, game, ann)
    assert state["bot_error"] is None and state["last_action_id"] >= 3


def test_log_hides_secrets_until_the_end(c: httpx.Client) -> None:
    made = create(c, seed=424242)
    game, ann = made["id"], made["tokens"]["Ann"]
    act(c, game, ann, option(view(c, game, ann), "place_bond", amount=140)).raise_for_status()
    r = c.get(f"/api/games/{game}/log")
    assert r.status_code == 200
    data = r.json()
    assert data["finished"] is False and "log" not in data
    assert data["actions"][0]["action"]["type"] == "place_bond"
    assert "amount" not in data["actions"][0]["action"]
    # As a number of its own (a time stamp may hold the digits 140).
    assert not re.search(rb"(?<![0-9])140(?![0-9])", r.content)
    assert not SEED.search(r.content)
    assert data["settings"] == {"edition": "second", "players": ["Ann", "Bob", "Cat"],
                                "variants": []}
    assert c.get("/api/games/nosuchgame/log").status_code == 404


def test_import_a_finished_game_then_log_history_and_board(c: httpx.Client) -> None:
    # The shortest finished second-edition game stored (1,097 actions; the server checks,
    # narrates and charts each: the random 3-player game's 1,610 cost half again).
    text = (GAMES / "greedy-3p-seed3.json").read_bytes()
    r = c.post("/api/games/import", content=text)
    assert r.status_code == 201, r.text
    made = r.json()
    game = made["id"]
    logged = json.loads(text)
    state = view(c, game, made["tokens"]["Ann"] if "Ann" in made["tokens"]
                 else next(iter(made["tokens"].values())))
    assert state["game"]["finished"] is True
    assert state["last_action_id"] == len(logged["actions"])
    full = c.get(f"/api/games/{game}/log").json()
    assert full["finished"] is True and full["log"]["actions"] == logged["actions"]
    assert full["log"]["settings"] == logged["settings"]
    assert [a["id"] for a in full["actions"]] == list(range(1, len(logged["actions"]) + 1))
    assert all(a["lines"] for a in full["actions"])
    tail = c.get(f"/api/games/{game}/log", params={"after": 100}).json()
    assert tail["actions"] == full["actions"][100:]
    r = c.get(f"/api/games/{game}/log", params={"after": -1})
    assert r.status_code == 422 and "after: must be 0 or more" in r.json()["detail"]
    start = c.get(f"/api/games/{game}/at/0").json()
    assert start["last_action_id"] == 0 and start["turn"]["round"] == "bonds"
    r = c.get(f"/api/games/{game}/at/{len(logged['actions']) + 1}")
    assert r.status_code == 422 and "at: must be between 0" in r.json()["detail"]
    assert c.get(f"/api/games/{game}/at/x").status_code == 422
    # Forward steps (processed on the history game), then back (replayed): the same views.
    forward = [c.get(f"/api/games/{game}/at/{n}").json() for n in (100, 101, 102, 160)]
    back = [c.get(f"/api/games/{game}/at/{n}").json() for n in (160, 102, 101, 100)]
    assert forward == back[::-1]
    assert [v["last_action_id"] for v in forward] == [100, 101, 102, 160]
    assert forward[0]["turn"]["next_id"] == 101 and forward[0]["turn"]["decisions"] == []
    assert forward[0] != forward[1]
    end = c.get(f"/api/games/{game}/at/{len(logged['actions'])}").json()
    assert end["turn"]["finished"] is True
    charts = c.get(f"/api/games/{game}/stats.svg")
    assert charts.status_code == 200 and "<svg" in charts.text
    svg = c.get(f"/api/games/{game}/board.svg", params={"at": 40})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.lstrip().startswith("<svg") or svg.text.lstrip().startswith("<?xml")
    assert c.get(f"/api/games/{game}/board.svg", params={"at": 40}).text == svg.text
    assert c.get(f"/api/games/{game}/board.svg", params={"at": 41}).status_code == 200
    now = c.get(f"/api/games/{game}/board.svg").text
    assert now == c.get(f"/api/games/{game}/board.svg",
                        params={"at": len(logged["actions"])}).text
    assert c.get(f"/api/games/{game}/board.svg", params={"at": -1}).status_code == 422


def test_the_board_goes_gzipped_named_by_its_content_and_the_log_from_where_one_is(
        c: httpx.Client) -> None:
    """Issue 21 item 9: the live board comes gzipped with an ETag naming its content - the
    same answer (304, no body) until a tile or base changes it; answers are gzipped, the event
    stream is not (it would be held back); the log is asked for from the last line held."""
    logged = json.loads((GAMES / "greedy-3p-seed3.json").read_text())
    body = {k: logged[k] for k in ("engine_version", "settings")}
    body["actions"] = logged["actions"][:28]  # GIP lays track next (action 29)
    made = c.post("/api/games/import", params={"hotseat": "true"}, json=body).json()
    game, hot = made["id"], auth(made["hotseat_token"])
    url = f"/api/games/{game}/board.svg"
    first = c.get(url, headers={"Accept-Encoding": "gzip"})
    assert first.headers["content-encoding"] == "gzip" and first.headers["etag"]
    assert first.num_bytes_downloaded * 5 < len(first.content)  # about 12x smaller
    plain = c.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == first.content
    etag = first.headers["etag"]
    again = c.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    lay = {**logged["actions"][28], "id": 29}
    assert c.post(f"/api/games/{game}/actions", json=lay, headers=hot).status_code == 200
    changed = c.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert changed.text != first.text and changed.text == c.get(url, params={"at": 29}).text
    # A second tile; then a pass and trains leave the board as it was: 304 again.
    assert c.post(f"/api/games/{game}/actions", json=logged["actions"][29],
                  headers=hot).status_code == 200
    etag = c.get(url).headers["etag"]
    assert etag != changed.headers["etag"]
    assert [a["type"] for a in logged["actions"][30:33]] == ["pass", "buy_train", "buy_train"]
    for action in logged["actions"][30:33]:
        assert c.post(f"/api/games/{game}/actions", json=action, headers=hot).status_code == 200
    assert c.get(url, headers={"If-None-Match": etag}).status_code == 304
    # A view is gzipped; the log from the last line held.
    seen = c.get(f"/api/games/{game}", headers={**hot, "Accept-Encoding": "gzip"})
    assert seen.headers["content-encoding"] == "gzip"
    tail = c.get(f"/api/games/{game}/log", params={"after": 30}).json()["actions"]
    assert [line["id"] for line in tail] == [31, 32, 33]
    with c.stream("GET", f"/api/games/{game}/events", headers={"Accept-Encoding": "gzip"}) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in r.headers
        assert next(r.iter_lines()).startswith("retry:")


@pytest.mark.parametrize(("body", "message"), [
    (b"{", "body: not valid JSON"),
    (b"[]", "log: must be a JSON object"),
    (b'{"engine_version": "0", "settings": {}, "actions": []}', "log.engine_version"),
    (b'{"engine_version": "1", "settings": {"players": ["A", "B"]}, "actions": []}',
     "3 to 6 players"),
    (b'{"engine_version": "1", "settings": {"players": ["A", "B", "C"]}, "actions": '
     b'[{"type": "place_bond", "entity": "A", "entity_type": "player", "amount": 1, '
     b'"id": 1, "created_at": 0}]}', "actions[0]: rule 2.5.2"),
    (b'{"engine_version": "1", "settings": {"players": ["A", "B", "C"]}, "actions": [], '
     b'"table": {"bots": {"A": "random", "B": "random", "C": "random"}}}',
     "at least one seat must be a human"),
    (b'{"engine_version": "1", "settings": {"players": ["A", "B", "C"]}, "actions": [], '
     b'"table": {"bots": {"D": "random"}}}', "'D' is not a player"),
])
def test_import_refuses_bad_logs(c: httpx.Client, body: bytes, message: str) -> None:
    before = len(c.get("/api/games").json()["games"])
    r = c.post("/api/games/import", content=body)
    assert r.status_code == 422, r.text
    assert message in r.json()["detail"]
    assert len(c.get("/api/games").json()["games"]) == before


def test_openapi_document_names_every_endpoint(c: httpx.Client) -> None:
    paths = c.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/import", "/api/games/{game_id}",
                 "/api/games/{game_id}/actions", "/api/games/{game_id}/log",
                 "/api/games/{game_id}/events", "/api/games/{game_id}/at/{n}",
                 "/api/games/{game_id}/board.svg", "/api/games/{game_id}/preview",
                 "/api/games/{game_id}/hint", "/api/tiles/{edition}/{tile}.svg"):
        assert path in paths, path


def test_game_page_of_unknown_game_is_404(c: httpx.Client) -> None:
    r = c.get("/games/nosuchgame")
    assert r.status_code == 404 and "no such game" in r.json()["detail"]


@pytest.mark.parametrize(("args", "message"), [
    (["--port", "70000"], "error: --port: must be between 0 and 65535, got 70000"),
    (["--db", "nourl"], "error: --db: 'nourl' is not a database URL"),
    (["--db", "sqlite:////nonexistent-dir/x/india.db"], "error: --db: cannot use the database"),
    (["--bot-delay", "-1"], "error: --bot-delay: must be between 0 and 60 seconds"),
    (["--bot-cpu-seconds", "0"], "error: --bot-cpu-seconds: must be more than 0 and at most"),
    (["--sweep-seconds", "0"], "error: --sweep-seconds: must be more than 0 and at most 3600"),
])
def test_serve_refuses_bad_options_in_one_line(args: list[str], message: str) -> None:
    done = forkserver.run(["serve", *args], timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr


def test_variants_lists_each_editions_catalogue(server_url: str) -> None:
    """GET /api/variants: what the lobby offers, from the rules layer (no legacy variant), and
    the numbers of players of each edition (its TABLE 3)."""
    body = httpx.get(server_url + "/api/variants").json()
    assert body["players"] == {"first": [3, 4, 5, 6], "second": [3, 4, 5, 6]}
    data = body["editions"]
    first = {v["name"]: v for v in data["first"]}
    assert {"simplified", "minimum_companies", "amended_share_limits", "shortened_game",
            "long_game", "alt_start", "alt_market", "alt_bbci", "alt_train_sales", "mik2",
            "mik2_regions"} == set(first)
    assert "minimum_companies" in first["simplified"]["excludes"]
    assert [v["name"] for v in data["second"]] == ["shortened_game"]
    assert all(v["title"] and v["rule"] for vs in data.values() for v in vs)


def test_preview_prices_a_composed_bid_and_refuses_a_bad_one_changing_nothing(
        c: httpx.Client) -> None:
    """14.2-14.4: the preview of a first-edition bid gives its bond, or the engine's refusal;
    only the bidder's token may ask, and the game is unchanged."""
    made = create(c, edition="first")
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    before = snapshot(c, game, ann)
    decision = view(c, game, ann)["turn"]["decisions"][0]
    composer = decision["composer"]
    assert composer["min_cities"] == 4 and composer["max_cities"] == 6  # three players
    delhi = next(city for city in composer["cities"] if city["name"] == "Delhi")
    assert "EIR" in delhi["companies"] and delhi["bond_value"] == 40
    bid = {"type": "submit_bid", "entity": "Ann", "entity_type": "player",
           "claims": [{"city": city, "company": "EIR"}
                      for city in ("Delhi", "Cawnpore", "Lucknow")]
           + [{"city": "Jaipur", "company": "GIP"}]}
    url = f"/api/games/{game}/preview"
    r = c.post(url, json=bid, headers=auth(ann))
    assert r.status_code == 200, r.text
    assert r.json()["option"]["cost"] == 100 and r.json()["option"]["rule"] == "14"
    short = {**bid, "claims": bid["claims"][:3]}
    r = c.post(url, json=short, headers=auth(ann))
    assert r.status_code == 422 and r.json()["detail"].startswith("rule 14.2: a bid names 4")
    assert c.post(url, json=bid, headers=auth(bob)).status_code == 403
    assert c.post(url, json=bid).status_code == 401
    assert snapshot(c, game, ann) == before


def test_import_escapes_control_characters_in_old_names_as_the_command_line_does(
        c: httpx.Client) -> None:
    """Issue 13: a log written before names were checked loads with each control character
    escaped, in the settings, the actions and the table's seats (docs/cli.md); an escaped name
    equal to another is refused as the settings refuse it."""
    bad, shown = "Ann\x1b[2J\x1b]0;title\x07", "Ann\\x1b[2J\\x1b]0;title\\x07"
    log = json.loads((GAMES / "greedy-3p-seed3.json").read_text())
    text = json.dumps({**log, "table": {"bots": {"Bob": "greedy"}}})
    old = json.loads(text.replace('"Ann"', json.dumps(bad)))
    r = c.post("/api/games/import", json=old)
    assert r.status_code == 201, r.text
    made = r.json()
    assert set(made["tokens"]) == {shown, "Cat"}
    page = c.get(f"/api/games/{made['id']}")
    assert page.status_code == 200 and "\\u001b" not in page.text and "\x1b" not in page.text
    assert [p["name"] for p in page.json()["turn"]["view"]["players"]].count(shown) == 1
    clash = json.loads(text.replace('"Ann"', json.dumps("Cat\x1b")).replace(
        '"Bob"', json.dumps("Cat\\x1b")))
    r = c.post("/api/games/import", json=clash)
    assert r.status_code == 422 and "player names must differ" in r.json()["detail"]


def test_hint_for_the_seat_that_decides_only_when_hints_are_on(c: httpx.Client) -> None:
    # Between humans hints are off unless the creator enables them.
    plain = create(c, seed=7)
    r = c.get(f"/api/games/{plain['id']}/hint", headers=auth(plain["tokens"]["Ann"]))
    assert r.status_code == 403 and "hints are off in this game" in r.json()["detail"]
    assert view(c, plain["id"], plain["tokens"]["Ann"])["game"]["hints"] is False
    made = create(c, seed=7, hints=True)
    game, ann = made["id"], made["tokens"]["Ann"]
    state = view(c, game, ann)
    assert state["game"]["hints"] is True
    r = c.get(f"/api/games/{game}/hint")
    assert r.status_code == 401 and r.json()["detail"].startswith("token:")
    r = c.get(f"/api/games/{game}/hint", headers=auth(ann))
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["seat"] == "Ann" and got["at"] == state["last_action_id"]
    assert got["hint"]["line"].startswith("Hint for Ann: Bond £")
    choice = option(state, "place_bond", amount=got["hint"]["choice"]["amount"])
    # The hint names the option by the label the seat's turn shows for it.
    assert got["hint"]["label"] in {o["label"] for d in state["turn"]["decisions"]
                                    for o in d["options"] if o["action"] == choice}
    # Asking changes nothing and writes nothing: the same view, the same log.
    assert view(c, game, ann) == state
    assert "Hint" not in c.get(f"/api/games/{game}/log").text
    act(c, game, ann, choice).raise_for_status()
    r = c.get(f"/api/games/{game}/hint", headers=auth(ann))
    assert r.status_code == 409 and r.json()["detail"] == "hint: it is not Ann's decision now"
    # A game with a bot has hints without asking.
    bots = create(c, players=[{"name": "Ann"}, {"name": "Bob", "bot": "greedy"},
                              {"name": "Cat", "bot": "greedy"}], seed=7)
    assert view(c, bots["id"], bots["tokens"]["Ann"])["game"]["hints"] is True
    # A terminal game's save file started with --hints keeps them when imported.
    log = json.loads((GAMES / "greedy-3p-seed3.json").read_text())
    body = {**{k: log[k] for k in ("engine_version", "settings")}, "actions": log["actions"][:3]}
    for table, on in (({"bots": {}, "hints": True}, True), ({"bots": {}}, False)):
        r = c.post("/api/games/import", json={**body, "table": table})
        assert r.status_code == 201, r.text
        assert view(c, r.json()["id"])["game"]["hints"] is on
