"""Web server benchmark: the caches' memory (issue 19, item 7).

1. The estimate against real memory: each fixture game is imported into a store (Python API,
   SQLite in a temporary directory), dropped from memory, then read back as the pages do: the
   game, its public log (the narrator's game and the narrated lines), the history view at half
   its length (the history game) and the view of every seat.  Real: the bytes tracemalloc
   sees held after that (garbage collected); estimate: what the cache weighs the game at
   (budget.py).  The estimate must not be below the real bytes (ratio >= 1).
2. The bound: a store with a budget of ``BUDGET_MB`` reads every fixture game that way, one
   after the other; after each, the bytes the store holds (tracemalloc, relative to the empty
   store) and its estimate.  The real bytes must stay under the budget.

tracemalloc counts Python's allocations (not the allocator's slack): the process's resident
size is larger by a roughly constant factor.
"""

from __future__ import annotations

import gc
import json
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from india1853.interfaces.web.db import Database
from india1853.interfaces.web.store import GameStore

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "games"
FIXTURES = ["first/greedy-4p-seed5.json", "greedy-3p-seed3.json", "random-3p-seed11.json"]
BUDGET_MB = 32
MB = 1 << 20


def _held() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def _read_as_pages(store: GameStore, made: dict[str, Any]) -> None:
    game_id = made["id"]
    last = store.public_log(game_id)["last_action_id"]
    store.at_json(game_id, last // 2)
    store.view_json(game_id, None, None)
    for token in made["tokens"].values():
        store.view_json(game_id, token, None)


def _store(tmp: str, name: str, **options: Any) -> GameStore:
    db = Database(f"sqlite:///{tmp}/{name}.sqlite3")
    db.migrate()
    return GameStore(db, **options)


def _estimates(tmp: str) -> list[dict[str, Any]]:
    rows = []
    db = Database(f"sqlite:///{tmp}/estimate.sqlite3")
    db.migrate()
    store = GameStore(db)
    logs = {name: json.loads((GAMES / name).read_text()) for name in FIXTURES}
    made = {name: store.import_log(log, False) for name, log in logs.items()}
    for name in FIXTURES[:2]:  # the editions' data loaded (and cached) before measuring
        _read_as_pages(store, made[name])
    del store
    tracemalloc.start()
    for name in FIXTURES:
        before = _held()
        fresh = GameStore(db)  # nothing in memory: the game is read from its rows
        _read_as_pages(fresh, made[name])
        real = _held() - before
        estimate = fresh.cache_bytes()[0]
        del fresh
        rows.append({"benchmark": f"one game read as the pages do: {name}",
                     "actions": len(logs[name]["actions"]),
                     "real_MB": round(real / MB, 1), "estimate_MB": round(estimate / MB, 1),
                     "estimate/real": round(estimate / real, 2),
                     "target": "estimate/real >= 1"})
    return rows


def _bound(tmp: str) -> list[dict[str, Any]]:
    logs = [json.loads((GAMES / name).read_text()) for name in FIXTURES]
    store = _store(tmp, "bound", cache_bytes=BUDGET_MB * MB)
    base = _held()
    made = [store.import_log(log, False) for log in logs]
    peak_real = peak_estimate = 0
    for every in made * 2:
        _read_as_pages(store, every)
        peak_real = max(peak_real, _held() - base)
        peak_estimate = max(peak_estimate, sum(store.cache_bytes()))
    return [{"benchmark": f"{len(made)} games read twice each, budget {BUDGET_MB} MB",
             "actions": sum(len(log["actions"]) for log in logs),
             "real_MB": round(peak_real / MB, 1), "estimate_MB": round(peak_estimate / MB, 1),
             "estimate/real": round(peak_estimate / peak_real, 2),
             "target": f"real < {BUDGET_MB} MB"}]


def run() -> list[dict[str, Any]]:
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return _estimates(tmp) + _bound(tmp)
    finally:
        tracemalloc.stop()


if __name__ == "__main__":
    for row in run():
        print(row)
