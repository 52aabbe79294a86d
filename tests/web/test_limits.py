"""What a server promises about limits (issue 19, items 3, 4, 7 and 9; docs/web-api.md):
player names of at most ``MAX_NAME_LENGTH`` characters, a log of many undo/redo pairs imported
as the engine loads it, caches bounded in bytes, and a stored row without its digest refused
as damage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webclient import client, create, view

from india1853.rules.game import Game, Settings
from india1853.rules.game.game import effective_actions, redo_stack
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


def _undo_redo_log() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A log of 200 fixture actions, three undos, two redos, 1,000 undo/redo pairs, and the
    undone action played again as a new one (which empties the redo stack); and the actions
    in force it leaves."""
    data = json.loads((ROOT / "tests" / "games" / "random-3p-seed11.json").read_text())
    settings = Settings.from_json(data["settings"])
    game = Game.replay(settings, effective_actions(data["actions"])[:200])
    for kind in ("undo", "undo", "undo", "redo", "redo"):
        stack = effective_actions(game.log) if kind == "undo" else redo_stack(game.log)
        game.process(game.action(kind, str(stack[-1]["entity"])))
    last = str(effective_actions(game.log)[-1]["entity"])
    for _ in range(1000):
        game.process(game.action("undo", last))
        game.process(game.action("redo", last))
    again = dict(redo_stack(game.log)[-1])
    game.process({**again, "id": game.next_id()})
    return json.loads(json.dumps(game.to_log())), effective_actions(game.log)


def test_a_log_of_many_undo_redo_pairs_imports_as_the_game_it_leaves(server_url: str) -> None:
    c = client(server_url)
    log, in_force = _undo_redo_log()
    assert len(log["actions"]) == 2206 and len(in_force) == 200
    plain = {**log, "actions": [{**a, "id": i} for i, a in enumerate(in_force, start=1)]}
    made = [c.post("/api/games/import", json=body) for body in (log, plain)]
    assert [r.status_code for r in made] == [201, 201], [r.text for r in made]
    paired, straight = (r.json() for r in made)
    public = [view(c, made_["id"])["turn"] for made_ in (paired, straight)]
    assert public[0]["next_id"] == 2207 and public[1]["next_id"] == 201
    assert {**public[0], "next_id": 0} == {**public[1], "next_id": 0}
    # The seat that decided each action is known: undo is offered to the same seat, for the
    # same action, in both games (and nothing is left to redo).
    for seat in ("Ann", "Bob", "Cat"):
        mine = view(c, paired["id"], paired["tokens"][seat])
        theirs = view(c, straight["id"], straight["tokens"][seat])
        assert mine["can_undo"] == theirs["can_undo"]
        assert (mine["undo"] or {}).get("entity") == (theirs["undo"] or {}).get("entity")
        assert mine["can_redo"] is theirs["can_redo"] is False
    assert sum(view(c, paired["id"], paired["tokens"][s])["can_undo"]
               for s in ("Ann", "Bob", "Cat")) == 1
