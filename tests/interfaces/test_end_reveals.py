"""At the end of the game every secret is public (issue 13, item 8): every bid's cities and
which contracts failed, in every view and every command (replay --json, replay, log)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from india1853.errors import RuleError
from india1853.interfaces.cli import main
from india1853.rules.game import Game
from india1853.rules.game.game import effective_actions

FIXTURE = Path(__file__).resolve().parents[1] / "games" / "greedy-3p-seed3.json"


@functools.cache
def _stored() -> Game:
    # Replayed once, without checks: tests/game/test_fixtures.py replays it checked.
    return Game.from_log(json.loads(FIXTURE.read_text()), check=False)


def _finished() -> Game:
    """The stored game, a copy of its own for each test."""
    return _stored().fork()


def test_every_view_shows_every_bid_and_the_failed_contracts_at_the_end() -> None:
    game = _finished()
    assert game.finished
    truth = {p.name: p.cities for p in game.state.players}
    for viewer in [None, *game.settings.players]:
        players = {p["name"]: p for p in game.view(viewer)["players"]}
        assert {n: p["cities"] for n, p in players.items()} == truth
        assert players["Cat"]["contract"] == "failed"
        assert players["Ann"]["contract"] == players["Bob"]["contract"] == "fulfilled"


def test_before_the_end_an_unfulfilled_contract_is_neither_failed_nor_shown() -> None:
    data = json.loads(FIXTURE.read_text())
    game = _finished()
    before = game.at(len(effective_actions(game.log)) - 1)
    cat = {p["name"]: p for p in before.view("Ann")["players"]}["Cat"]
    assert cat["cities"] is None and cat["contract"] is None
    assert not before.finished and len(data["actions"]) == len(game.log)


def test_the_action_that_ended_the_game_cannot_be_undone() -> None:
    game = _finished()
    last = effective_actions(game.log)[-1]
    with pytest.raises(RuleError, match="the game is over"):
        game.process(game.action("undo", str(last["entity"])))


def test_replay_json_and_log_tell_the_secrets_at_the_end(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(FIXTURE), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    cat = next(p for p in view["players"] if p["name"] == "Cat")
    assert cat["cities"] == ["Mysore", "Bangalore", "Madras", "Waltair"]
    assert cat["contract"] == "failed"
    assert main(["log", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert ("Cat's contract failed (4.3): the cities were Mysore, Bangalore, Madras, Waltair"
            in out)
    assert main(["replay", str(FIXTURE)]) == 0
    assert "Mysore, Bangalore, Madras, Waltair" in capsys.readouterr().out
