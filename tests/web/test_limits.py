"""What a server promises about limits (issue 19, items 3, 4, 7 and 9; docs/web-api.md):
player names of at most ``MAX_NAME_LENGTH`` characters, a log of many undo/redo pairs imported
as the engine loads it, caches bounded in bytes, and a stored row without its digest refused
as damage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import forkserver
import pytest
from webclient import client, create, view

from india1853.interfaces.web.db import Database
from india1853.interfaces.web.store import HISTORY_SHARE, GameStore
from india1853.rules.game import Game, Settings, undo_log
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


def _store(tmp_path: Path, name: str, cache_bytes: int) -> GameStore:
    db = Database(f"sqlite:///{tmp_path / name}.sqlite3")
    db.migrate()
    return GameStore(db, cache_bytes=cache_bytes)


SHORT_GAMES = ["first/greedy-5p-seed8-amended-share-limits.json",
               "first/greedy-4p-seed6-simplified.json", "first/greedy-4p-seed5.json"]


def _read_games(store: GameStore) -> tuple[list[dict[str, Any]], list[tuple[int, int]], bytes]:
    """Import the short games, then read each as the pages do; the games, the estimated
    bytes (games, history responses) the store holds after each, and the first game's view."""
    made = [store.import_log(json.loads((ROOT / "tests" / "games" / n).read_text()), False)
            for n in SHORT_GAMES]
    held = []
    for game in made:
        store.public_log(game["id"])  # the narrator's game and the narrated lines
        store.at_json(game["id"], 300)  # the history game
        for token in game["tokens"].values():
            store.view_json(game["id"], token, None)
        held.append(store.cache_bytes())
    return made, held, store.view_json(made[0]["id"], None, None)[1]


def test_the_game_cache_holds_at_most_its_budget_of_estimated_bytes(tmp_path: Path) -> None:
    _made, unbounded, _view = _read_games(_store(tmp_path, "unbounded", 1 << 30))
    everything = unbounded[-1][0]  # nothing was dropped: every game as read
    budget = everything // 2 * HISTORY_SHARE // (HISTORY_SHARE - 1)
    store = _store(tmp_path, "bounded", budget)
    made, held, view = _read_games(store)
    # Half of what the games weigh when read: the least recently used were dropped, and the
    # cache never held more than its share of the budget.
    assert all(games <= budget - budget // HISTORY_SHARE for games, _ in held), held
    assert all(history <= budget // HISTORY_SHARE for _, history in held), held
    assert held[-1][0] < everything
    # A dropped game is rebuilt from the database, the same.
    assert store.view_json(made[0]["id"], None, None)[1] == view


def test_one_game_over_the_budget_is_kept_while_it_is_used(tmp_path: Path) -> None:
    store = _store(tmp_path, "small", 1 << 20)
    made = store.import_log(json.loads((ROOT / "tests" / "games" / "first" /
                                        "greedy-4p-seed5.json").read_text()), False)
    log = store.public_log(made["id"])
    assert store.cache_bytes()[0] > 1 << 20 and log["finished"]
    assert store.public_log(made["id"]) == log


@pytest.mark.parametrize(("args", "env", "message"), [
    (["--cache-mb", "0"], {}, "error: --cache-mb: must be between 1 and 1000000 megabytes, "
                              "got 0"),
    ([], {"INDIA1853_CACHE_MB": "lots"}, "error: INDIA1853_CACHE_MB: must be a whole number "
                                         "of megabytes, got 'lots'"),
])
def test_serve_refuses_a_cache_budget_out_of_range(tmp_path: Path, args: list[str],
                                                   env: dict[str, str], message: str) -> None:
    done = forkserver.run(["serve", "--port", "0", "--data-dir", str(tmp_path), *args],
                          env=env)
    assert done.returncode == 2 and done.stderr.strip() == message, done.stderr


def _pairs_log(pairs: int) -> dict[str, Any]:
    data = json.loads((ROOT / "tests" / "games" / "random-3p-seed11.json").read_text())
    settings = Settings.from_json(data["settings"])
    game = Game.replay(settings, effective_actions(data["actions"])[:50])
    last = str(effective_actions(game.log)[-1]["entity"])
    for _ in range(pairs):
        game.process(game.action("undo", last))
        game.process(game.action("redo", last))
    return json.loads(json.dumps(game.to_log()))


def test_an_import_reads_the_undo_stacks_a_fixed_number_of_times(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19, item 4: the import of a log of undo/redo pairs is linear - the work counted,
    not timed: the log's undo stacks (the engine's ``undo_stacks``, a pass over the whole log)
    are read as often for 400 pairs as for 40 (the old import read them once per undo or redo,
    N passes over N actions)."""
    calls = {"n": 0}
    real = undo_log.undo_stacks

    def counted(log: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        calls["n"] += 1
        return real(log)

    monkeypatch.setattr(undo_log, "undo_stacks", counted)
    store = _store(tmp_path, "pairs", 64 << 20)
    counts = []
    for pairs in (40, 400):
        log = _pairs_log(pairs)
        calls["n"] = 0
        made = store.import_log(log, False)
        counts.append(calls["n"])
        assert json.loads(store.view_json(made["id"], None, None)[1])["turn"]["next_id"] == (
            50 + 2 * pairs + 1)
    assert counts[0] == counts[1], f"undo stacks read {counts} times for 40 and 400 pairs"
