"""Benchmark: the game engine on complete games.

- replaying the logs of tests/games, every action checked (``Game.from_log(data)``) and
  without checks for trusted logs (``Game.from_log(data, check=False)``), in actions per
  second; the first replay of a process pays for filling the geometry caches, so each is
  timed cold (the first pass) and warm (best of the following passes);
- complete games of random legal moves (``random_play``) as the soak plays them: the game,
  the invariant checks after every action, and the two replays of its log.

Times are CPU seconds of this process (``time.process_time``): the test machine is shared,
and wall-clock figures there mostly measure the other jobs.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from india1853.rules.game import Game, Settings
from india1853.rules.game.random_play import random_action

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "games"
WARM_PASSES = 3
RANDOM_GAMES = ((3, 101), (4, 102), (5, 103), (6, 104))  # (players, seed)


def _timed(fn: Any, *args: Any, **kwargs: Any) -> float:
    start = time.process_time()
    fn(*args, **kwargs)
    return time.process_time() - start


def _replays() -> list[dict[str, Any]]:
    logs = [json.loads(p.read_text()) for p in sorted(GAMES.glob("*.json"))]
    total = sum(len(d["actions"]) for d in logs)
    rows = []
    for check in (True, False):
        cold = sum(_timed(Game.from_log, d, check=check) for d in logs)
        warm = min(sum(_timed(Game.from_log, d, check=check) for d in logs)
                   for _ in range(WARM_PASSES))
        rows.append({
            "benchmark": f"replay tests/games, check={check}",
            "games": len(logs),
            "actions": total,
            "cold_actions_per_cpu_s": round(total / cold),
            "warm_actions_per_cpu_s": round(total / warm),
            "target": "-" if check else "> 5000/s",
        })
    return rows


def _random_games() -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "tests" / "game"))
    from helpers import check_invariants  # the soak's own invariant checks

    rows = []
    for players, seed in RANDOM_GAMES:
        game = Game(Settings(tuple("ABCDEF"[:players]), seed=seed))
        rng = random.Random(f"bot:{seed}")
        play = checks = 0.0
        while not game.finished:
            start = time.process_time()
            game.process(random_action(game, rng))
            middle = time.process_time()
            check_invariants(game)
            play += middle - start
            checks += time.process_time() - middle
        data = json.loads(json.dumps(game.to_log()))
        rows.append({
            "benchmark": f"random game, {players} players, seed {seed}",
            "actions": len(game.log),
            "play_cpu_s": round(play, 2),
            "invariants_cpu_s": round(checks, 2),
            "replay_checked_cpu_s": round(_timed(Game.from_log, data), 2),
            "replay_unchecked_cpu_s": round(_timed(Game.from_log, data, check=False), 2),
        })
    return rows


def run() -> list[dict[str, Any]]:
    return _replays() + _random_games()
