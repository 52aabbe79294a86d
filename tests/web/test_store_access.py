"""The game store keeps no answer of its own to who decided an action (issue 20): the seat an
undo is refused or allowed to is the engine's ``Game.decided_by`` - change the engine's answer
and the store's follows.  In process, on SQLite: no server is started."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.interfaces.web.db import Database
from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.store import GameStore, NewGame, NewSeat
from india1853.rules.game.game import Game


def _bond(player: str, amount: int, action_id: int) -> dict[str, Any]:
    return {"type": "place_bond", "entity": player, "entity_type": "player", "amount": amount,
            "id": action_id, "created_at": 0}


def test_who_may_undo_is_the_engines_answer(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    db = Database(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    db.migrate()
    store = GameStore(db)
    made = store.create(NewGame((NewSeat("Ann"), NewSeat("Bob"), NewSeat("Cat")), seed=3))
    game, tokens = made["id"], made["tokens"]
    store.act_json(game, tokens["Ann"], _bond("Ann", 100, 1))
    undo = {"type": "undo", "entity": "Ann", "entity_type": "player", "id": 2, "created_at": 0}
    ann = json.loads(store.view_json(game, tokens["Ann"], None)[1])
    assert ann["undo"] == undo
    # The engine now says Bob decided Ann's bond: Ann's undo is refused, Bob's taken.
    monkeypatch.setattr(Game, "decided_by", lambda self, action: "Bob")
    with pytest.raises(ApiError) as refused:
        store.act_json(game, tokens["Ann"], undo)
    assert refused.value.status == 403 and "decided by Bob" in refused.value.detail
    after = json.loads(store.act_json(game, tokens["Bob"], undo))
    assert after["last_action_id"] == 2 and after["can_redo"] is True
    assert after["redo"]["entity"] == "Ann"  # the bond is Ann's; Bob decided it, says the engine
