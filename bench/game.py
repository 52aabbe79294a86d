"""Benchmark: replaying the complete game logs of tests/games (actions per second)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from india1853.rules.game import Game

GAMES = Path(__file__).resolve().parents[1] / "tests" / "games"


def run() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted(GAMES.glob("*.json")):
        data = json.loads(path.read_text())
        start = time.perf_counter()
        game = Game.from_log(data)
        seconds = time.perf_counter() - start
        rows.append({
            "game": path.stem,
            "actions": len(game.log),
            "replay_s": round(seconds, 2),
            "actions_per_s": round(len(game.log) / seconds),
        })
    return rows
