"""Simulation benchmark: greedy 4-player second-edition games, and replaying their logs.

Targets (issue 6): a greedy 4-player second-edition game, optimal routing included, in under
10 s median; replay without legality checks at over 5,000 actions per second.

Times are given twice: CPU seconds of this process (``time.process_time``), on which the
targets are judged as in ``bench/game.py`` (the test machine is shared, and wall-clock figures
there mostly measure the other jobs), and wall-clock seconds (``time.perf_counter``) for
comparison.  ``python -m bench`` prints the machine first.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from india1853.interfaces.bots import make_bot
from india1853.interfaces.simulate import play_game, run_one, seat_names
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

GAMES = 6
REPLAYED = 3
SEATS = ("greedy",) * 4
TARGET_SECONDS = 10.0
TARGET_REPLAY = 5_000.0

T = TypeVar("T")


def _clocks(fn: Callable[[], T]) -> tuple[T, float, float]:
    """``fn()``, and the CPU and wall-clock seconds it took."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def _games() -> list[dict[str, Any]]:
    cpu: list[float] = []
    wall: list[float] = []
    actions: list[int] = []
    for i in range(GAMES):
        result, c, w = _clocks(partial(run_one, i + 1, i, SEATS, "second"))
        cpu.append(c)
        wall.append(w)
        actions.append(result.actions)
    median = statistics.median(cpu)
    return [{
        "benchmark": f"greedy 4-player second-edition game (seeds 0-{GAMES - 1})",
        "median_cpu_s": median,
        "max_cpu_s": max(cpu),
        "median_wall_s": statistics.median(wall),
        "mean_actions": statistics.fmean(actions),
        "target": f"< {TARGET_SECONDS:.0f} CPU-s median",
        "met": median < TARGET_SECONDS,
    }]


def _replay_all(logs: list[tuple[Settings, list[dict[str, Any]]]], check: bool) -> None:
    for settings, log in logs:
        Game.replay(settings, log, check=check)


def _replays() -> list[dict[str, Any]]:
    names = seat_names(SEATS)
    logs = []
    for seed in range(REPLAYED):
        settings = Settings(players=names, seed=seed)
        bots = {n: make_bot("greedy", n, seed) for n in names}
        logs.append((settings, play_game(settings, dict(bots)).log))
    total = sum(len(log) for _, log in logs)
    rows = []
    for check in (True, False):
        _, cpu, wall = _clocks(partial(_replay_all, logs, check))
        rate = total / cpu
        rows.append({
            "benchmark": f"replay of {REPLAYED} greedy games ({total} actions), "
                         f"{'every action checked' if check else 'without legality checks'}",
            "actions_per_cpu_s": round(rate),
            "actions_per_wall_s": round(total / wall),
            "target": "-" if check else f"> {TARGET_REPLAY:.0f}/CPU-s",
            "met": "-" if check else rate > TARGET_REPLAY,
        })
    return rows


def run() -> list[dict[str, Any]]:
    return _games() + _replays()
