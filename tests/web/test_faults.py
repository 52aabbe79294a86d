"""Fault tests: a damaged stored log is detected and reported, never replayed into another
game; ``india1853 admin backup|restore|migrate|check`` keep and bring back every game."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import forkserver
import httpx
import pytest
from conftest import ServerProcess
from webclient import act, auth, client, create, option, view, wait_for

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]


def admin(*args: str) -> subprocess.CompletedProcess[str]:
    """``india1853 admin ARGS`` in a process of its own (forked: forkserver.py)."""
    return forkserver.run(["admin", *args])


def played_game(server: ServerProcess, actions: int = 8) -> tuple[str, str]:
    """A hotseat game with ``actions`` random offered actions; (game id, hotseat token)."""
    c = client(server.url)
    made = create(c, players=PLAYERS, hotseat=True, seed=8)
    game, hot = made["id"], made["hotseat_token"]
    rng = random.Random(2)
    for _ in range(actions):
        state = view(c, game, hot)
        options = [o["action"] for d in state["turn"]["decisions"] for o in d["options"]]
        r = act(c, game, hot, rng.choice(options), seat=state["seat"])
        assert r.status_code == 200, r.text
    return game, hot


@dataclass(frozen=True)
class Played:
    """Databases of stopped servers, each test working on a copy (issue 20: a server start
    and the game played once per file, not once per test): ``one`` holds the game of
    ``played_game`` (``game``, ``hot``; ``before``: its view for the hotseat token), ``two``
    the same and ``other``, a game of two actions played after it."""

    one: Path
    two: Path
    game: str
    hot: str
    before: dict[str, Any]
    other: str

    def copy(self, which: Path, data_dir: Path) -> None:
        shutil.copytree(which, data_dir, ignore=shutil.ignore_patterns("server.err"))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("played")
    server = ServerProcess(root / "one")
    try:
        game, hot = played_game(server)
        before = view(client(server.url), game, hot)
    finally:
        server.stop()
    shutil.copytree(root / "one", root / "two")
    server = ServerProcess(root / "two")
    try:
        other, _ = played_game(server, 2)
    finally:
        server.stop()
    return Played(root / "one", root / "two", game, hot, before, other)


def damage(data_dir: Path, sql: str, *params: Any) -> None:
    with sqlite3.connect(data_dir / "india1853.sqlite3") as db:
        assert db.execute(sql, params).rowcount == 1


@pytest.mark.parametrize(("sql", "reason"), [
    ("UPDATE actions SET data = substr(data, 1, 25) WHERE game_id = ? AND idx = 3",
     "not valid JSON"),
    ("UPDATE actions SET data = json_set(data, '$.created_at', 1) "
     "WHERE game_id = ? AND idx = 3", "digest does not match"),
    ("UPDATE actions SET seat = 'Zed' WHERE game_id = ? AND idx = 3",
     "digest does not match"),
    ("DELETE FROM actions WHERE game_id = ? AND idx = 3", "where 3 belongs"),
    ("DELETE FROM actions WHERE game_id = ? AND idx = 8", "rows lost"),
    ("UPDATE actions SET data = '[1, 2]' WHERE game_id = ? AND idx = 3", "not a JSON object"),
])
def test_a_damaged_log_row_is_reported_never_replayed(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess], played: Played,
        sql: str, reason: str) -> None:
    data_dir = tmp_path / "db"
    played.copy(played.two, data_dir)  # a game of eight actions, another of two
    game, hot, other = played.game, played.hot, played.other
    damage(data_dir, sql, game)
    again = start_server(data_dir)
    c = client(again.url)
    for path in (f"/api/games/{game}", f"/api/games/{game}/log", f"/api/games/{game}/at/1"):
        r = c.get(path, headers={"Authorization": f"Bearer {hot}"})
        assert r.status_code == 500, (path, r.text)
        detail = r.json()["detail"]
        assert f"game {game}: the stored log is corrupted at action" in detail
        assert reason in detail
        assert "Traceback" not in r.text and "\n" not in detail
    # Nothing can be added to it, and the other game is untouched.
    r = act(c, game, hot, {"id": 9, "type": "pass", "entity": "Ann"})
    assert r.status_code == 500
    assert view(c, other)["last_action_id"] == 2
    checked = admin("check", "--data-dir", str(data_dir))
    assert checked.returncode == 1
    assert f"damaged: game {game}: the stored log is corrupted" in checked.stdout
    assert "check: 2 games, 1 damaged" in checked.stdout


def test_backup_restore_keeps_every_game_and_token(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess]) -> None:
    source = tmp_path / "source"
    server = start_server(source)
    game, hot = played_game(server)
    before = view(client(server.url), game, hot)
    said = client(server.url).post(f"/api/games/{game}/chat", json={"text": "kept <too>"},
                                   headers={"Authorization": f"Bearer {hot}"}, params={
                                       "seat": "Bob"})
    assert said.status_code == 201, said.text
    chat = client(server.url).get(f"/api/games/{game}/chat").json()
    backup = tmp_path / "games.json"
    done = admin("backup", str(backup), "--data-dir", str(source))  # while the server runs
    assert done.returncode == 0, done.stderr
    assert "backup: 1 games written" in done.stdout
    server.stop()
    target = tmp_path / "target"
    done = admin("restore", str(backup), "--data-dir", str(target))
    assert done.returncode == 0, done.stderr
    assert admin("check", "--data-dir", str(target)).returncode == 0
    again = start_server(target)
    assert view(client(again.url), game, hot, seat=before["seat"]) == before
    assert client(again.url).get(f"/api/games/{game}/chat").json() == chat  # the chat too
    # A second restore into the same database refuses, and changes nothing.
    twice = admin("restore", str(backup), "--data-dir", str(target))
    assert twice.returncode == 2
    assert twice.stderr == f"error: restore: game {game} is already in the database " \
        "(restore into an empty database)\n"


def test_restore_refuses_a_damaged_backup_with_one_line(tmp_path: Path,
                                                        start_server: Callable[
                                                            [Path], ServerProcess]) -> None:
    server = start_server(tmp_path / "source")
    game, _ = played_game(server, 4)
    server.stop()
    backup = tmp_path / "games.json"
    assert admin("backup", str(backup), "--data-dir", str(tmp_path / "source")).returncode == 0
    data = json.loads(backup.read_text())
    data["games"][0]["rows"][1]["data"]["entity"] = "Zed"
    backup.write_text(json.dumps(data))
    done = admin("restore", str(backup), "--data-dir", str(tmp_path / "target"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: restore: games[0]: game {game}: the stored log is "
                                  "corrupted at action 2: its digest does not match")
    assert "Traceback" not in done.stderr
    for bad, message in [("[]", "is not an india1853 backup"), ("{", "is not a JSON backup")]:
        backup.write_text(bad)
        done = admin("restore", str(backup), "--data-dir", str(tmp_path / "target"))
        assert done.returncode == 2 and message in done.stderr, done.stderr
    done = admin("backup", "--data-dir", str(tmp_path / "target"))
    assert done.returncode == 2 and done.stderr == "error: admin backup: FILE is required\n"
    done = admin("migrate", "--data-dir", str(tmp_path / "target"))
    assert done.returncode == 0 and "newest schema (0 games)" in done.stdout


def _bond_row(data_dir: Path, game: str) -> tuple[int, int]:
    """The index and amount of the game's first bond after its first action."""
    with sqlite3.connect(data_dir / "india1853.sqlite3") as db:
        for idx, data in db.execute("SELECT idx, data FROM actions WHERE game_id = ? "
                                    "ORDER BY idx", (game,)):
            action = json.loads(data)
            if idx > 1 and action["type"] == "place_bond":
                return idx, int(action["amount"])
    raise AssertionError("no bond after the first action")


def test_a_row_whose_digest_was_removed_is_damage(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess], played: Played) -> None:
    """Issue 19 item 9: a bond changed and its digest set to NULL went through silently."""
    data_dir = tmp_path / "db"
    played.copy(played.one, data_dir)  # played_game's game, the server stopped
    game, hot = played.game, played.hot
    idx, amount = _bond_row(data_dir, game)
    damage(data_dir, "UPDATE actions SET data = json_set(data, '$.amount', ?), digest = NULL "
                     "WHERE game_id = ? AND idx = ?", amount + 190, game, idx)
    again = start_server(data_dir)
    r = client(again.url).get(f"/api/games/{game}", headers={"Authorization": f"Bearer {hot}"})
    assert r.status_code == 500, r.text
    assert r.json()["detail"].startswith(f"game {game}: the stored log is corrupted at action "
                                         f"{idx}: it has no digest")
    again.stop()
    checked = admin("check", "--data-dir", str(data_dir))
    assert checked.returncode == 1 and "check: 1 games, 1 damaged" in checked.stdout
    assert f"corrupted at action {idx}: it has no digest" in checked.stdout
    # The operator's word covers rows written before digests, which come first: not this one.
    for task in ("check", "migrate"):
        done = admin(task, "--accept-undigested", "--data-dir", str(data_dir))
        assert done.returncode == 1, done.stdout
        assert "yet an earlier row of the game has one" in done.stdout
    backup = tmp_path / "games.json"
    assert admin("backup", str(backup), "--data-dir", str(data_dir)).returncode == 0
    for extra in ((), ("--accept-undigested",)):
        done = admin("restore", str(backup), "--data-dir", str(tmp_path / "target"), *extra)
        assert done.returncode == 2, done.stdout
        assert f"corrupted at action {idx}: it has no digest" in done.stderr


def test_rows_written_before_digests_load_only_on_the_operators_word(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess], played: Played) -> None:
    data_dir = tmp_path / "db"
    played.copy(played.one, data_dir)  # played_game's game, the server stopped
    game, hot, before = played.game, played.hot, played.before
    with sqlite3.connect(data_dir / "india1853.sqlite3") as db:  # as migration 0002 left them
        assert db.execute("UPDATE actions SET digest = NULL WHERE game_id = ? AND idx <= 5",
                          (game,)).rowcount == 5
    backup = tmp_path / "games.json"
    assert admin("backup", str(backup), "--data-dir", str(data_dir)).returncode == 0
    checked = admin("check", "--data-dir", str(data_dir))
    assert checked.returncode == 1 and "at action 1: it has no digest" in checked.stdout
    accepted = admin("check", "--accept-undigested", "--data-dir", str(data_dir))
    assert accepted.returncode == 0, accepted.stdout
    assert "check: 1 games, 0 damaged, 5 rows without a digest accepted" in accepted.stdout
    again = start_server(data_dir)
    assert client(again.url).get(f"/api/games/{game}").status_code == 500  # the server: never
    again.stop()
    sealed = admin("migrate", "--accept-undigested", "--data-dir", str(data_dir))
    assert sealed.returncode == 0 and "5 rows written before digests given" in sealed.stdout
    assert admin("check", "--data-dir", str(data_dir)).stdout.endswith("0 damaged\n")
    assert view(client(start_server(data_dir).url), game, hot, seat=before["seat"]) == before
    # A backup of such rows: refused, or restored with their digests on the operator's word.
    target = tmp_path / "target"
    refused = admin("restore", str(backup), "--data-dir", str(target))
    assert refused.returncode == 2 and "at action 1: it has no digest" in refused.stderr
    done = admin("restore", str(backup), "--accept-undigested", "--data-dir", str(target))
    assert done.returncode == 0, done.stderr
    assert admin("check", "--data-dir", str(target)).returncode == 0
    assert view(client(start_server(target).url), game, hot, seat=before["seat"]) == before


def _signed_up(url: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    """A browser of its own with a new account: the client (its cookies) and the CSRF
    header every signed-in write sends."""
    c = client(url)
    r = c.post("/api/account/sign-up", json={"name": name, "password": f"{name} secret 1853"})
    assert r.status_code == 201, r.text
    return c, {"X-CSRF-Token": r.json()["csrf"]}


def _signed_in(url: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    c = client(url)
    r = c.post("/api/account/sign-in", json={"name": name, "password": f"{name} secret 1853"})
    assert r.status_code == 200, r.text
    return c, {"X-CSRF-Token": r.json()["csrf"]}


def _online_server(url: str) -> dict[str, Any]:
    """A server with everything of online play: two accounts (Ann's alert settings), a game
    started from open seats and one waiting for a player, a game with a clock, an absence
    time, a takeback accepted (its branch) and one refused, a seat a bot plays, a chat and a
    seat's alert settings.  What the test needs to look at afterwards."""
    ann, ann_csrf = _signed_up(url, "Ann")
    bob, bob_csrf = _signed_up(url, "Bob")
    r = ann.put("/api/account/alerts", headers=ann_csrf,
                json={"webhook": "http://127.0.0.1:9/ann", "quiet_seconds": 60})
    assert r.status_code == 200, r.text
    r = ann.post("/api/open-games", headers=ann_csrf, json={
        "seed": 3, "clock": {"bank": 600, "increment": 5},
        "players": [{}, {"open": True}, {"name": "Dan", "bot": "greedy"}]})
    started = r.json()["id"]
    assert bob.post(f"/api/open-games/{started}/join", headers=bob_csrf, json={}).json()[
        "started"]
    r = ann.post("/api/open-games", headers=ann_csrf, json={
        "absent_after": 3600, "players": [{}, {"open": True}, {"open": True}]})
    waiting = r.json()["id"]
    assert not bob.post(f"/api/open-games/{waiting}/join", headers=bob_csrf, json={}).json()[
        "started"]
    c = client(url)
    made = create(c, clock={"bank": 3600, "increment": 30}, absent_after=600)
    game, tokens = made["id"], made["tokens"]
    ann_t, bob_t, cat_t = tokens["Ann"], tokens["Bob"], tokens["Cat"]

    def takeback(accept: bool) -> dict[str, Any]:
        """Ann asks to take the game back to the start; Bob answers (and Cat, to accept)."""
        r = c.post(f"/api/games/{game}/requests", json={"kind": "takeback", "to": 0},
                   headers=auth(ann_t))
        assert r.status_code == 200, r.text
        number = r.json()["requests"]["open"][0]["id"]
        for voter in (bob_t, cat_t) if accept else (bob_t,):
            r = c.post(f"/api/games/{game}/requests/{number}", headers=auth(voter),
                       json={"accept": accept})
            assert r.status_code == 200, r.text
        return dict(r.json()["requests"])

    assert act(c, game, ann_t, option(view(c, game, ann_t), "place_bond")).status_code == 200
    assert takeback(True)["branches"]  # accepted: the bond undone, kept as a branch
    assert act(c, game, ann_t, option(view(c, game, ann_t), "place_bond")).status_code == 200
    assert sorted(r["status"] for r in takeback(False)["resolved"]) == ["accepted", "refused"]
    r = c.post(f"/api/games/{game}/seats/hand", json={"bot": "random"}, headers=auth(cat_t))
    assert r.status_code == 200, r.text
    wait_for(lambda: view(c, game)["last_action_id"] == 4)  # Cat's bot bonds
    assert c.post(f"/api/games/{game}/chat", json={"text": "kept <b>too</b>"},
                  headers=auth(bob_t)).status_code == 201
    assert c.put(f"/api/games/{game}/alerts", json={"webhook": "http://127.0.0.1:9/bob"},
                 headers=auth(bob_t)).status_code == 200
    seats = c.get(f"/api/games/{game}/seats").json()
    return {"started": started, "waiting": waiting, "game": game, "tokens": tokens,
            "view": view(c, game, bob_t), "log": c.get(f"/api/games/{game}/log").json(),
            "chat": c.get(f"/api/games/{game}/chat").json(), "seats": seats,
            "alerts": c.get(f"/api/games/{game}/alerts", headers=auth(bob_t)).json()}


def _without_time_left(seats: dict[str, Any]) -> dict[str, Any]:
    clock = {**seats["clock"], "seats": {s: {k: v for k, v in c.items() if k != "left"}
                                         for s, c in seats["clock"]["seats"].items()}}
    return {**seats, "clock": clock, "absent": None}


def test_backup_restore_keeps_accounts_open_seats_clocks_takebacks_and_alerts(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess]) -> None:
    """Issue 22: everything a server holds for online play survives backup and restore into an
    empty data directory (sessions aside: the players sign in again)."""
    source = tmp_path / "source"
    server = start_server(source)
    before = _online_server(server.url)
    backup = tmp_path / "games.json"
    done = admin("backup", str(backup), "--data-dir", str(source))
    assert done.returncode == 0, done.stderr
    assert "backup: 2 games written" in done.stdout
    assert "(2 accounts, 1 games waiting for players)" in done.stdout
    server.stop()
    text = backup.read_text()
    assert "secret 1853" not in text and "$argon2id$" in text  # hashes, never a password
    target = tmp_path / "target"
    done = admin("restore", str(backup), "--data-dir", str(target))
    assert done.returncode == 0, done.stderr
    assert "restore: 2 games restored" in done.stdout
    checked = admin("check", "--data-dir", str(target))
    assert checked.returncode == 0 and "check: 2 games, 0 damaged" in checked.stdout
    url = start_server(target).url
    c = client(url)
    game, tokens = before["game"], before["tokens"]
    assert view(c, game, tokens["Bob"]) == before["view"]
    assert c.get(f"/api/games/{game}/log").json() == before["log"]
    assert c.get(f"/api/games/{game}/chat").json() == before["chat"]
    assert c.get(f"/api/games/{game}/alerts", headers=auth(tokens["Bob"])).json() == before[
        "alerts"]
    seats = c.get(f"/api/games/{game}/seats").json()
    assert _without_time_left(seats) == _without_time_left(before["seats"])
    assert seats["stand_ins"]["Cat"]["bot"] == "random"
    assert [b["outcome"]["taken_back"] for b in seats["requests"]["branches"]] == [[1]]
    for name, kept in seats["clock"]["seats"].items():  # the banks, less the time since
        assert 0 <= before["seats"]["clock"]["seats"][name]["left"] - kept["left"] < 120
    # The accounts sign in again and find their seats, games and alert settings.
    ann, ann_csrf = _signed_in(url, "Ann")
    mine = ann.post("/api/my-games", headers=ann_csrf, json={
        "seats": [{"game": game, "token": tokens["Ann"]}]}).json()["games"]
    assert {g["id"]: g["status"] for g in mine}.keys() == {before["started"], before["waiting"],
                                                           game}
    assert {g["id"]: g["status"] for g in mine}[before["waiting"]] == "waiting for players"
    assert view(ann, before["started"])["seat"] == "Ann"  # by the session, as before
    assert ann.get("/api/account/alerts").json()["webhook"] == "http://127.0.0.1:9/ann"
    r = client(url).post(f"/api/open-games/{before['waiting']}/join", json={"name": "Cat"})
    assert r.status_code == 200 and r.json()["started"], r.text  # the waiting game fills
    bob, _ = _signed_in(url, "Bob")
    assert view(bob, before["waiting"])["seat"] == "Bob"
    # The seats' rules chosen with the open seats: the clock, the absence time.
    assert c.get(f"/api/games/{before['started']}/seats").json()["clock"]["bank"] == 600
    assert c.get(f"/api/games/{before['waiting']}/seats").json()["absent_after"] == 3600
    # admin check sees a broken link of online play: a stand-in of no seat of its game.
    damage(target, "UPDATE stand_ins SET seat = 'Zed' WHERE game_id = ?", game)
    checked = admin("check", "--data-dir", str(target))
    assert checked.returncode == 1, checked.stdout
    assert f"damaged: game {game}: a stand-in of 'Zed', no seat of the game" in checked.stdout


def test_restore_takes_a_backup_from_before_accounts_and_names_a_bad_field(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess]) -> None:
    server = start_server(tmp_path / "source")
    game, hot = played_game(server, 2)
    ann, _ = _signed_up(server.url, "Ann")
    server.stop()
    backup = tmp_path / "games.json"
    assert admin("backup", str(backup), "--data-dir", str(tmp_path / "source")).returncode == 0
    original = backup.read_text()
    data = json.loads(original)
    old = {"format": data["format"], "version": 1, "games": [
        {k: v for k, v in g.items() if k not in ("seat_rules", "clocks", "stand_ins",
                                                  "consents", "chat", "hints")}
        for g in data["games"]]}
    cases = [(["accounts", 0, "password_hash"], "hunter2 hunter2",
              "accounts[0].password_hash: not an argon2 hash"),
             (["accounts", 0, "created_at"], "yesterday", "accounts[0].created_at: must be a "
                                                          "number"),
             (["games", 0, "seats", 0, "position"], None, "games[0].seats[0].position: must "
                                                          "not be null"),
             (["alert_claims"], {}, "alert_claims: must be a list")]
    for path, value, message in cases:
        bad = json.loads(original)
        *parents, last = path
        holder = bad
        for key in parents:
            holder = holder[key]
        holder[last] = value
        backup.write_text(json.dumps(bad))
        done = admin("restore", str(backup), "--data-dir", str(tmp_path / "bad"))
        assert done.returncode == 2, done.stdout
        assert done.stderr.startswith(f"error: restore: {message}"), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr  # one line, no traceback
    backup.write_text(json.dumps(old))
    done = admin("restore", str(backup), "--data-dir", str(tmp_path / "target"))
    assert done.returncode == 0, done.stderr
    assert "(0 accounts, 0 games waiting for players)" in done.stdout
    assert view(client(start_server(tmp_path / "target").url), game, hot)["last_action_id"] == 2
    ann.close()
