"""Benchmark: undo and loading long logs (issue 13, item 2).

- one undo at action 1,000 of a game (the fixture tests/games/random-3p-seed11.json), then the
  public view of the state it leaves (which is when the engine rebuilds the state from its
  nearest snapshot): target under 50 ms; also ten undos in a row, then ten redos;
- loading a 10,000-action log (a fixture game with two undo/redo pairs after each of its
  actions, as a player trying moves would leave it), checked and unchecked: target under 2 s;
- loading a log of 20,000 undo/redo pairs (40,000 actions after the first 200 of a game).

CPU seconds of this process (``time.process_time``), best of three.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.game import effective_actions, redo_stack

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "games" / "random-3p-seed11.json"
PASSES = 3


def _best(fn: Any) -> float:
    times = []
    for _ in range(PASSES):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def _undo(game: Game) -> None:
    game.process(game.action("undo", str(effective_actions(game.log)[-1]["entity"])))


def _undo_rows(settings: Settings, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    base = Game.replay(settings, actions[:1000], check=False)
    data = base.to_log()

    def one() -> None:
        game = Game.from_log(data, check=False)
        start = time.process_time()
        _undo(game)
        game.view(None)
        times.append(time.process_time() - start)

    def ten() -> None:
        game = Game.from_log(data, check=False)
        start = time.process_time()
        for _ in range(10):
            _undo(game)
            game.view(None)
        for _ in range(10):
            game.process(game.action("redo", str(redo_stack(game.log)[-1]["entity"])))
            game.view(None)
        times.append(time.process_time() - start)

    rows = []
    for name, fn, target in (("one undo at action 1,000, then the view", one, "< 0.050"),
                             ("10 undos then 10 redos at action 1,000, a view after each",
                              ten, "-")):
        times: list[float] = []
        for _ in range(PASSES):
            fn()
        rows.append({"benchmark": name, "cpu_s": round(min(times), 4), "target": target})
    return rows


def _with_pairs(settings: Settings, actions: list[dict[str, Any]], size: int) -> dict[str, Any]:
    """A log of ``size`` actions: the game's actions, each followed by two undo/redo pairs of
    it where the engine allows (not after a secret was revealed)."""
    game = Game(settings)
    for action in actions:
        if len(game.log) + 5 > size:
            break
        game.process({**action, "id": game.next_id()})
        for _ in range(2):
            try:
                _undo(game)
            except RuleError:
                break
            game.process(game.action("redo", str(action["entity"])))
    return json.loads(json.dumps(game.to_log()))


def _pairs_only(settings: Settings, actions: list[dict[str, Any]], pairs: int
                ) -> dict[str, Any]:
    game = Game.replay(settings, actions[:200])
    entity = str(actions[199]["entity"])
    for _ in range(pairs):
        game.process(game.action("undo", entity))
        game.process(game.action("redo", entity))
    return json.loads(json.dumps(game.to_log()))


def _load_rows(settings: Settings, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    logs = (("10,000-action log (2 undo/redo pairs after each action)", "< 2",
             _with_pairs(settings, actions, 10_000)),
            ("20,000 undo/redo pairs after 200 actions", "-",
             _pairs_only(settings, actions, 20_000)))
    for name, target, data in logs:
        for check in (True, False):
            rows.append({"benchmark": f"load {name}, check={check}",
                         "actions": len(data["actions"]),
                         "cpu_s": round(_best(lambda d=data, c=check: Game.from_log(d, check=c)),
                                        3),
                         "target": target})
    return rows


def run() -> list[dict[str, Any]]:
    data = json.loads(FIXTURE.read_text())
    settings = Settings.from_json(data["settings"])
    actions = effective_actions(data["actions"])
    return _undo_rows(settings, actions) + _load_rows(settings, actions)
