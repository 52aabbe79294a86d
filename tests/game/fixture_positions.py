"""Positions of the complete game logs in tests/games, rebuilt through the public API.

A test takes the game just before action ``count`` of a fixture log (a trusted log: replayed
without the legality checks, which every action passed when it was played), then acts with
``Game.process`` and inspects ``legal_actions`` and the views.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import check_invariants

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings

GAMES = Path(__file__).resolve().parents[1] / "games"


@functools.cache
def _log(name: str) -> tuple[Settings, tuple[dict[str, Any], ...]]:
    data = json.loads((GAMES / f"{name}.json").read_text())
    return Settings.from_json(data["settings"]), tuple(data["actions"])


def before(name: str, count: int) -> Game:
    """The fixture game ``name`` after its first ``count`` actions."""
    settings, actions = _log(name)
    return Game.replay(settings, [dict(a) for a in actions[:count]], check=False)


def logged(name: str, index: int) -> dict[str, Any]:
    """Action ``index`` (0-based) of the fixture log, as recorded."""
    return dict(_log(name)[1][index])


def play(game: Game, action: dict[str, Any]) -> None:
    """Process a recorded (or new) action as the next one, then check the invariants."""
    game.process({**action, "id": game.next_id()})
    check_invariants(game)


def act(game: Game, type_: str, entity: str, **fields: Any) -> None:
    game.process(game.action(type_, entity, **fields))
    check_invariants(game)


def refused(game: Game, rule: str, type_: str, entity: str, **fields: Any) -> RuleError:
    """The action is refused naming ``rule``, and the game (state, views, log) is unchanged."""
    state, view, log = game.state.clone(), game.moderator_view(), list(game.log)
    with pytest.raises(RuleError) as info:
        game.process(game.action(type_, entity, **fields))
    assert info.value.rule == rule, str(info.value)
    assert game.state == state and game.moderator_view() == view and game.log == log
    return info.value


def offered(game: Game, entity: str, type_: str) -> list[dict[str, Any]]:
    """The entity's legal actions of one type, without the entity fields, id and time."""
    return [{k: v for k, v in a.items()
             if k not in ("type", "entity", "entity_type", "id", "created_at")}
            for a in game.legal_actions(entity) if a["type"] == type_]
