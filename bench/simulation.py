"""Simulation benchmark: greedy 4-player second-edition games, and replaying their logs.

Targets (issue 6): a greedy 4-player second-edition game, optimal routing included, in under
10 s median; replay without legality checks at over 5,000 actions per second.  The engine
offers replay through ``Game(settings, actions)`` (every action checked); when it grows a
replay without checks (``Game.replay(settings, actions, check=False)``) this benchmark times
that too.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from india1853.interfaces.bots import make_bot
from india1853.interfaces.simulate import play_game, run_one, seat_names
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

GAMES = 6
SEATS = ("greedy",) * 4
TARGET_SECONDS = 10.0
TARGET_REPLAY = 5_000.0


def _games() -> list[dict[str, Any]]:
    results = [run_one(i + 1, i, SEATS, "second") for i in range(GAMES)]
    seconds = [r.seconds for r in results]
    median = statistics.median(seconds)
    return [{
        "benchmark": f"greedy 4-player second-edition game ({GAMES} games)",
        "median_s": median,
        "max_s": max(seconds),
        "mean_actions": statistics.fmean(r.actions for r in results),
        "target": f"< {TARGET_SECONDS:.0f} s median",
        "met": median < TARGET_SECONDS,
    }]


def _replays() -> list[dict[str, Any]]:
    names = seat_names(SEATS)
    logs = []
    for seed in range(3):
        settings = Settings(players=names, seed=seed)
        bots = {n: make_bot("greedy", n, seed) for n in names}
        logs.append((settings, play_game(settings, dict(bots)).log))
    total = sum(len(log) for _, log in logs)
    rows = []
    start = time.perf_counter()
    for settings, log in logs:
        Game(settings, log)
    rate = total / (time.perf_counter() - start)
    rows.append({"benchmark": "replay, every action checked (Game(settings, log))",
                 "actions_per_s": rate, "target": "-", "met": "-"})
    replay = getattr(Game, "replay", None)
    if replay is not None:
        start = time.perf_counter()
        for settings, log in logs:
            replay(settings, log, check=False)
        rate = total / (time.perf_counter() - start)
        rows.append({"benchmark": "replay without legality checks",
                     "actions_per_s": rate, "target": f"> {TARGET_REPLAY:.0f}/s",
                     "met": rate > TARGET_REPLAY})
    return rows


def run() -> list[dict[str, Any]]:
    return _games() + _replays()
