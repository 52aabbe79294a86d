"""Saves (issue 13, item 4): temporary files of saves killed midway are cleaned up, a live
process's are not, and a save is synced (the file, then its directory) before it returns."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from india1853.interfaces.logfile import SaveFile, Table, load_game, save_game
from india1853.rules.game import Game, Settings


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporaries_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    target = tmp_path / "game[1].json"
    dead = tmp_path / f".{target.name}.{_dead_pid()}.tmp"
    dead.write_text("half a save")
    live_process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".{target.name}.{live_process.pid}.tmp"
        live.write_text("a save in progress")
        other = tmp_path / ".other.json.1.tmp"  # another save's: not ours to judge
        other.write_text("x")
        game = Game(Settings(("Ann", "Bob", "Cat")))
        save_game(target, game, Table())
        assert not dead.exists()
        assert live.exists() and other.exists()
    finally:
        live_process.kill()
        live_process.wait()
    loaded, _ = load_game(target)
    assert loaded.log == game.log
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [target.name, live.name, other.name])


def test_a_save_syncs_the_file_and_its_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    target = tmp_path / "game.json"
    save_game(target, Game(Settings(("Ann", "Bob", "Cat"))), Table())
    assert len(synced) == 2
    assert synced[0].endswith(".tmp") and Path(synced[0]).parent == tmp_path
    assert Path(synced[1]) == tmp_path
    assert json.loads(target.read_text())["settings"]["players"] == ["Ann", "Bob", "Cat"]


def test_a_save_between_bots_moves_is_atomic_but_not_synced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    monkeypatch.setattr(os, "fsync", synced.append)
    target = tmp_path / "game.json"
    game = Game(Settings(("Ann", "Bob", "Cat")))
    save = SaveFile(target, Table())
    save.write(game, durable=False)
    assert synced == [] and load_game(target)[0].log == game.log
    save.write(game)
    assert len(synced) == 2
