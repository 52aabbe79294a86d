"""Benchmark: the turn model (``turn_model``), called on every web request and every terminal
screen.

For each fixture game in tests/games, the model is built before every action of the log for
the player who decides it (options priced: tile lays, the router's run, ...) and for a
spectator (tables only), grouped by the kind of decision.  ``legal_cpu_ms`` is the engine's own
``legal_actions`` for the same decisions: the model's cost beyond it is the pricing and the
tables.  CPU milliseconds of this process (``time.process_time``): the machine is shared.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from india1853.rules.game import Game, Settings
from india1853.rules.game.turn import turn_model

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "games"
TARGET_MS = 50.0


def _kind(game: Game) -> str:
    st = game.state
    if st.pending:
        return "pending"
    return st.turn.step if st.round == "operating" else st.round


def run() -> list[dict[str, Any]]:
    times: dict[str, list[float]] = defaultdict(list)
    legal: dict[str, list[float]] = defaultdict(list)
    spectator: list[float] = []
    for path in sorted(GAMES.glob("*.json")):
        data = json.loads(path.read_text())
        game = Game(Settings.from_json(data["settings"]))
        for action in data["actions"]:
            kind = _kind(game)
            entity, _ = game.active_entities()[0]
            player = game.decider(entity)
            start = time.process_time()
            turn_model(game, player)
            middle = time.process_time()
            game.legal_actions(entity)
            end = time.process_time()
            turn_model(game, None)
            spectator.append(time.process_time() - end)
            times[kind].append(middle - start)
            legal[kind].append(end - middle)
            game.process(action)
    rows = []
    for kind in sorted(times, key=lambda k: -max(times[k])):
        ts = times[kind]
        rows.append({
            "benchmark": f"turn_model, decider, {kind}",
            "calls": len(ts),
            "mean_cpu_ms": round(1000 * sum(ts) / len(ts), 2),
            "max_cpu_ms": round(1000 * max(ts), 1),
            "legal_cpu_ms": round(1000 * sum(legal[kind]) / len(ts), 2),
            "target": f"mean < {TARGET_MS:.0f} ms",
        })
    rows.append({
        "benchmark": "turn_model, spectator, all",
        "calls": len(spectator),
        "mean_cpu_ms": round(1000 * sum(spectator) / len(spectator), 2),
        "max_cpu_ms": round(1000 * max(spectator), 1),
        "legal_cpu_ms": "-",
        "target": f"mean < {TARGET_MS:.0f} ms",
    })
    return rows
