"""Fault tests: a damaged stored log is detected and reported, never replayed into another
game; ``india1853 admin backup|restore|migrate|check`` keep and bring back every game."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ServerProcess
from webclient import act, client, create, view

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]


def admin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "india1853.interfaces.cli", "admin", *args],
                          capture_output=True, text=True, timeout=120)


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
        tmp_path: Path, start_server: Callable[[Path], ServerProcess], sql: str,
        reason: str) -> None:
    data_dir = tmp_path / "db"
    server = start_server(data_dir)
    game, hot = played_game(server)
    other, _ = played_game(server, 2)
    server.stop()
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
