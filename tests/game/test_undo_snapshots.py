"""Undo and redo far back through a long game: the state rebuilt from the engine's snapshots
equals the game replayed from scratch, and logs of many undo/redo pairs load to the same game."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.game import SNAPSHOT_EVERY, effective_actions, redo_stack

FIXTURE = Path(__file__).resolve().parents[1] / "games" / "greedy-3p-seed3.json"


def _fixture() -> tuple[Settings, list[dict[str, object]]]:
    data = json.loads(FIXTURE.read_text())
    return Settings.from_json(data["settings"]), data["actions"]


@cache
def _replayed() -> Game:
    """The whole fixture replayed without checks (test_fixtures.py replays it checked), once
    for the file: its positions are taken with ``Game.at``, a new game each."""
    settings, actions = _fixture()
    return Game.replay(settings, actions, check=False)


def _undo(game: Game) -> None:
    game.process(game.action("undo", str(effective_actions(game.log)[-1]["entity"])))


def _redo(game: Game) -> None:
    game.process(game.action("redo", str(redo_stack(game.log)[-1]["entity"])))


def test_undo_back_across_several_snapshots_equals_a_replay_of_the_prefix() -> None:
    settings, actions = _fixture()
    length = 3 * SNAPSHOT_EVERY + 7
    start = 600
    game = Game.replay(settings, actions[:start])
    kept = game.state.undo_barrier
    steps = min(length, start - kept)
    assert steps > 2 * SNAPSHOT_EVERY, "the fixture must allow undo across two snapshots"
    for _ in range(steps):
        _undo(game)
    # The prefixes replayed anew (unchecked: a trusted log, test_fixtures.py replays it checked).
    prefix = Game.replay(settings, actions[:start - steps], check=False)
    assert game.state == prefix.state
    assert game.moderator_view() == prefix.moderator_view()
    for _ in range(steps // 2):
        _redo(game)
    half = Game.replay(settings, actions[:start - steps + steps // 2], check=False)
    assert game.state == half.state
    # A new action after undo drops the undone line; play goes on as in the fixture.
    nxt = dict(actions[start - steps + steps // 2])
    game.process({**nxt, "id": game.next_id()})
    half.process({**nxt, "id": half.next_id()})
    assert game.state == half.state
    assert redo_stack(game.log) == []
    with pytest.raises(RuleError, match="nothing to redo"):
        game.process(game.action("redo", str(nxt["entity"])))


def test_a_log_of_many_undo_redo_pairs_loads_to_the_same_game_both_ways() -> None:
    settings, actions = _fixture()
    game = Game(settings)
    pairs = 0
    for action in actions[:300]:
        game.process({**action, "id": game.next_id()})
        try:
            _undo(game)
        except RuleError:
            continue  # an action that revealed a secret cannot be undone
        _redo(game)
        pairs += 1
    assert pairs > 200
    plain = Game.replay(settings, actions[:300], check=False)
    data = json.loads(json.dumps(game.to_log()))
    for loaded in (Game.from_log(data), Game.from_log(data, check=False)):
        assert loaded.state == plain.state
        assert loaded.log == game.log and loaded.next_id() == len(actions[:300]) + 2 * pairs + 1


def test_undo_past_a_revealed_secret_is_refused_after_loading_a_log() -> None:
    settings, actions = _fixture()
    game = Game.replay(settings, actions[:600], check=False)
    barrier = game.state.undo_barrier
    assert barrier > 0
    for _ in range(600 - barrier):
        _undo(game)
    with pytest.raises(RuleError, match="revealed secret information"):
        _undo(game)


@pytest.mark.parametrize("at", [0, 5, 60, 250, 700, 1000])
def test_legal_actions_are_accepted_by_process_as_they_are(at: int) -> None:
    """Issue 13, engine API: each legal action carries the next id and is processed unchanged
    (on a fork, positions of a recorded game reached with Game.at)."""
    game = _replayed().at(at)
    assert len(game.log) == at and game.next_id() == at + 1
    for entity, _ in game.active_entities():
        legal = game.legal_actions(entity)
        assert legal
        for action in legal[:12]:
            assert action["id"] == game.next_id() and action["created_at"] == 0
            trial = game.fork()
            trial.process(action)
            assert trial.log[-1] == action and len(game.log) == at


def test_positions_walk_a_log_through_the_states_of_its_prefixes() -> None:
    """``Game.positions``: each action of the log with the game just before it (the prefix's
    state, as ``Game.at`` rebuilds it), and the walk ends at the replay's state."""
    settings, actions = _fixture()
    full = _replayed()
    game = Game(settings)
    for i, (game, action) in enumerate(Game.positions(settings, actions)):
        assert action is actions[i] and game.next_id() == i + 1
        if i % 97 == 0:
            assert game.state == full.at(i).state
    assert game.state == full.state and game.log == full.log
