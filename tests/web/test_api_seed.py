"""Seeds over HTTP (issue 19, item 6): a game's seed is chosen by nobody at the table unless its
creator gives one - 128 bits from the operating system, its SHA-256 published in every view
and listing from the start, the seed revealed at the end so that anyone can check the deal; a
creator's seed marks the game in every view and listing."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from conftest import ServerProcess
from webclient import auth, client, create

from india1853.rules.game import Game, Settings

GAMES = Path(__file__).resolve().parents[1] / "games"
MIK2 = "first/greedy-4p-seed3-mik2-alt-start.json"
Json = dict[str, Any]


def sha(seed: int | str) -> str:
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def seeds_seen(c: httpx.Client, made: Json) -> list[Json]:
    """The game's ``seed`` as every token, the spectator and the listing see it."""
    game_id = made["id"]
    out = [c.get(f"/api/games/{game_id}", headers=auth(t) if t else {}).json()["game"]["seed"]
           for t in [*made["tokens"].values(), None]]
    listed = c.get("/api/games").json()["games"]
    out.append(next(g for g in listed if g["id"] == game_id)["seed"])
    return out


def test_a_server_seed_is_committed_from_the_start_and_never_shown(server_url: str) -> None:
    c = client(server_url)
    made = [create(c, edition="first", variants=["mik2"], seed=None,
                   players=[{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")])
            for _ in range(2)]
    commitments = []
    for m in made:
        seen = seeds_seen(c, m)
        assert all(s == seen[0] for s in seen)
        assert seen[0]["chosen_by"] == "server" and seen[0]["value"] is None
        assert re.fullmatch("[0-9a-f]{64}", seen[0]["sha256"])
        commitments.append(seen[0]["sha256"])
    assert commitments[0] != commitments[1]  # 128 random bits each


def test_a_creator_seed_is_marked_in_every_view_and_listing(server_url: str) -> None:
    c = client(server_url)
    seed = 2**127 + 12345  # a 128-bit seed is taken as it is
    made = create(c, seed=seed)
    for seen in seeds_seen(c, made):
        assert seen == {"sha256": sha(seed), "chosen_by": "creator",
                        "note": "seed chosen by the creator", "value": None}
    data = json.loads((GAMES / MIK2).read_text())
    r = c.post("/api/games/import", json={**data, "actions": data["actions"][:20]})
    assert r.status_code == 201, r.text
    assert {s["chosen_by"] for s in seeds_seen(c, r.json())} == {"creator"}


def test_a_128_bit_seed_survives_the_database(
        start_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    """The seed is stored in the settings' JSON: a restarted server (no cache) reads it
    back exactly (SQLite here; PostgreSQL: tests/integration/test_pg_cluster.py)."""
    server = start_server(tmp_path / "db")
    seed = 2**128 - 1
    with client(server.url) as c:
        made = create(c, seed=seed, edition="first", variants=["mik2"],
                      players=[{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")])
        hand_before = c.get(f"/api/games/{made['id']}",
                            headers=auth(made["tokens"]["Ann"])).content
    server.stop()
    again = start_server(tmp_path / "db")
    with client(again.url) as c:
        assert seeds_seen(c, made)[0]["sha256"] == sha(seed)
        assert c.get(f"/api/games/{made['id']}",
                     headers=auth(made["tokens"]["Ann"])).content == hand_before


def _seedless_game() -> tuple[Json, list[Json]]:
    """A finished second-edition log whose play does not depend on the seed (no tied bonds:
    Ann 120, Cat 110, Bob 100), with its settings' seed left out."""
    data = json.loads((GAMES / "greedy-3p-seed3.json").read_text())
    actions = data["actions"]
    actions[0] = {**actions[0], "amount": 120}
    actions[2] = {**actions[2], "amount": 110}
    settings = {k: v for k, v in data["settings"].items() if k != "seed"}
    return {"engine_version": data["engine_version"], "settings": settings}, actions


def test_the_seed_is_revealed_at_the_end_and_matches_its_commitment(server_url: str) -> None:
    head, actions = _seedless_game()
    for seed in (1, 2):  # the log is legal whatever the seed: the server may pick any
        Game.replay(Settings.from_json({**head["settings"], "seed": seed}), actions)
    c = client(server_url)
    r = c.post("/api/games/import", params={"hotseat": "true"},
               json={**head, "actions": actions[:-1]}, timeout=600)
    assert r.status_code == 201, r.text
    made = r.json()
    start = seeds_seen(c, made)
    assert {s["chosen_by"] for s in start} == {"server"}
    assert {s["value"] for s in start} == {None}
    last = {**actions[-1], "id": len(actions)}
    done = c.post(f"/api/games/{made['id']}/actions", json=last,
                  headers=auth(made["hotseat_token"]))
    assert done.status_code == 200, done.text
    end = seeds_seen(c, made)
    value = end[0]["value"]
    assert isinstance(value, str) and all(s["value"] == value for s in end)
    assert sha(value) == start[0]["sha256"] == end[0]["sha256"]
    assert int(value) < 2**128 and int(value).bit_length() > 64  # from 128 random bits
    # The whole log is public now; replayed on the revealed seed it gives the same game.
    log = c.get(f"/api/games/{made['id']}/log").json()["log"]
    assert log["settings"]["seed"] == int(value)
    replayed = Game.from_log(log)
    spectator = c.get(f"/api/games/{made['id']}").json()["turn"]["view"]
    assert json.loads(json.dumps(replayed.view(None))) == spectator


def test_the_mik2_deal_follows_from_the_revealed_seed(server_url: str) -> None:
    """At the end the seed and the whole log are public: the stack shuffled from the seed
    deals exactly the cards the players were seen to draw (every hand is public then)."""
    data = json.loads((GAMES / MIK2).read_text())
    c = client(server_url)
    r = c.post("/api/games/import", json=data, timeout=600)
    assert r.status_code == 201, r.text
    made = r.json()
    seen = seeds_seen(c, made)[0]
    assert seen["chosen_by"] == "creator" and sha(seen["value"]) == seen["sha256"]
    log = c.get(f"/api/games/{made['id']}/log").json()["log"]
    settings = Settings.from_json({**log["settings"], "seed": int(seen["value"])})
    deck = list(Game(settings).state.kit.deck or [])
    drawn: list[str] = []
    game = Game(settings)
    for action in log["actions"]:
        before = {p: list(h) for p, h in (game.state.kit.hands if game.state.kit else {}).items()}
        game.process(action)
        if action["type"] == "draw_card" and game.state.kit and game.state.kit.shuffles == 0:
            new = game.state.kit.hands[action["entity"]]
            drawn.append(next(card for card in new if new.count(card) >
                              before.get(action["entity"], []).count(card)))
    assert drawn, "the fixture draws cards"
    assert drawn == list(reversed(deck))[:len(drawn)]  # the top of the stack first
    view = c.get(f"/api/games/{made['id']}").json()["turn"]["view"]
    assert view["kit"]["hands"] == json.loads(json.dumps(game.view(None)["kit"]["hands"]))
