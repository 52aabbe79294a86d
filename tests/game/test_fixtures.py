"""The complete game logs in tests/games replay to their recorded final scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from india1853.rules.game import Game, Settings

GAMES_DIR = Path(__file__).resolve().parents[1] / "games"
# The second edition's games, then the first edition's (tests/games/first).
GAMES = sorted(GAMES_DIR.glob("*.json")) + sorted((GAMES_DIR / "first").glob("*.json"))


def test_there_are_fixture_games() -> None:
    assert len(GAMES) >= 3


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_replays_to_its_final_scores_checked_and_unchecked(path: Path) -> None:
    """The checked replay (every action's legality) reaches the recorded end and scores; the
    unchecked one (``check=False``) the identical state.  One checked replay serves both: it
    is the costly one."""
    data = json.loads(path.read_text())
    checked = Game.from_log(data)
    assert checked.finished
    assert checked.state.end_reason == data["end_reason"]
    assert checked.scores() == data["final_scores"]
    fast = Game.from_log(data, check=False)
    assert fast.state == checked.state
    assert fast.moderator_view() == checked.moderator_view()
    assert fast.log == checked.log and fast.scores() == data["final_scores"]


def test_unchecked_replay_honours_undo_and_redo_and_play_goes_on() -> None:
    data = json.loads(GAMES[0].read_text())
    game = Game.replay(Settings.from_json(data["settings"]), data["actions"][:400])
    last = game.log[-1]["entity"]
    game.process(game.action("undo", last))
    game.process(game.action("redo", last))
    game.process(game.action("undo", last))
    fast = Game.replay(game.settings, game.log, check=False)
    assert fast.state == game.state and fast.log == game.log
    assert fast.next_id() == game.next_id()
    nxt = data["actions"][399]
    again = {**nxt, "id": fast.next_id()}
    fast.process(again)
    game.process(dict(again))
    assert fast.moderator_view() == game.moderator_view()
