"""Web server benchmark: importing a log of many undo/redo pairs (issue 19, item 4).

A real server (``india1853 serve`` in a subprocess, SQLite in a temporary directory) imports,
through ``POST /api/games/import``, the first 200 actions of a fixture game followed by
``PAIRS`` undo/redo pairs (as a player trying moves would leave them).  Each action is checked
again and its deciding seat found, then every row is written: the time must grow linearly
with the log.  Measured: the wall time of the request (best of ``PASSES``) and the server's
CPU seconds for it, for 1,000 and ``PAIRS`` pairs.  Target: 10,000 pairs in under 2 s of server CPU.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.web import _cpu_seconds, _start
from india1853.rules.game import Game, Settings
from india1853.rules.game.game import effective_actions

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "games" / "random-3p-seed11.json"
PAIRS = int(os.environ.get("INDIA1853_BENCH_IMPORT_PAIRS", "10000"))
PASSES = 3
TARGET_CPU_S = 2.0  # the server's CPU seconds: the machine is shared, wall time varies


def pairs_log(pairs: int) -> dict[str, Any]:
    """A log file: 200 actions of the fixture game, then ``pairs`` undo/redo pairs of the
    200th."""
    data = json.loads(FIXTURE.read_text())
    settings = Settings.from_json(data["settings"])
    actions = effective_actions(data["actions"])[:200]
    game = Game.replay(settings, actions)
    entity = str(actions[-1]["entity"])
    for _ in range(pairs):
        game.process(game.action("undo", entity))
        game.process(game.action("redo", entity))
    log: dict[str, Any] = json.loads(json.dumps(game.to_log()))
    return log


def _import(url: str, pid: int, body: bytes) -> tuple[float, float]:
    with httpx.Client(base_url=url, timeout=600.0) as client:
        cpu = _cpu_seconds(pid)
        start = time.perf_counter()
        r = client.post("/api/games/import", content=body,
                        headers={"Content-Type": "application/json"})
        took = time.perf_counter() - start
        if r.status_code != 201:
            raise RuntimeError(f"import: {r.status_code} {r.text[:200]}")
        return took, _cpu_seconds(pid) - cpu


def run() -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        process, url = _start(Path(tmp), "--rate-limit", "0")
        try:
            for pairs in sorted({1000, PAIRS}):
                body = json.dumps(pairs_log(pairs)).encode()
                results = [_import(url, process.pid, body) for _ in range(PASSES)]
                wall, cpu = min(results)
                rows.append({"benchmark": f"import 200 actions + {pairs:,} undo/redo pairs "
                                          "(HTTP, SQLite)",
                             "actions": 200 + 2 * pairs, "body_kB": len(body) // 1024,
                             "wall_s": round(wall, 3), "server_cpu_s": round(cpu, 3),
                             "target": f"cpu < {TARGET_CPU_S:g}" if pairs == PAIRS else "-"})
        finally:
            process.terminate()
            process.wait(30)
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
