"""The complete game logs in tests/games replay to their recorded final scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from india1853.rules.game import Game

GAMES = sorted((Path(__file__).resolve().parents[1] / "games").glob("*.json"))


def test_there_are_fixture_games() -> None:
    assert len(GAMES) >= 3


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_fixture_replays_to_its_final_scores(path: Path) -> None:
    data = json.loads(path.read_text())
    game = Game.from_log(data)
    assert game.finished
    assert game.state.end_reason == data["end_reason"]
    assert game.scores() == data["final_scores"]
