"""The narration rendered from the engine's events is the narration recorded before the engine
emitted events (tools/narration_golden.py, tests/interfaces/narration_golden/), byte for byte:
every stored game log and seven seeded simulated games (with undo and redo), for the public and
the moderator.  Two games in ``make test``; the others in ``make soak``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from india1853.rules.game.settings import Settings

TOOL = Path(__file__).resolve().parents[2] / "tools" / "narration_golden.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("narration_golden", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


golden = _tool()
RECORDED: dict[str, Any] = json.loads((golden.OUT / "digests.json").read_text("utf-8"))["games"]
STORED = {name: (settings, actions) for name, settings, actions in golden.stored_games()}
# In make test: a small second-edition game, told in full, and a first-edition one.
CHEAP = ("stall-3p-seed317612018", "greedy-5p-seed8-amended-share-limits")


def _check(name: str, settings: Settings, actions: list[dict[str, Any]]) -> None:
    want = RECORDED[name]
    assert golden.actions_digest(actions) == want["actions_sha256"], (
        f"{name}: the game's actions are not the ones recorded")
    for reader in golden.READERS:
        text = golden.narration(settings, actions, reader)
        full = golden.OUT / f"{name}.{reader}.txt"
        if full.exists():
            assert text == full.read_text("utf-8"), f"{name}, {reader}"
        assert golden.digest(text) == want[reader], f"{name}, {reader}: the narration differs"


@pytest.mark.parametrize("name", CHEAP)
def test_the_narration_of_a_stored_game_is_the_recorded_one(name: str) -> None:
    _check(name, *STORED[name])


@pytest.mark.soak
@pytest.mark.parametrize("name", [n for n in STORED if n not in CHEAP])
def test_the_narration_of_every_stored_game_is_the_recorded_one(name: str) -> None:
    _check(name, *STORED[name])


@pytest.mark.soak
@pytest.mark.parametrize("case", golden.SIMULATED, ids=[c[0] for c in golden.SIMULATED])
def test_the_narration_of_a_simulated_game_is_the_recorded_one(
        case: tuple[str, str, tuple[str, ...], int, int]) -> None:
    name, edition, variants, players, seed = case
    settings, actions = golden.simulated_game(edition, variants, players, seed)
    _check(name, settings, actions)


def test_every_recorded_game_is_checked() -> None:
    assert set(RECORDED) == set(STORED) | {c[0] for c in golden.SIMULATED}
