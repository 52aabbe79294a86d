"""The turn model the web API sends, and who decides for an entity.

:func:`turn` is the one place the server builds the ``turn`` key of its responses: the rules
layer's ``turn_model`` (docs/turn-model.md), from what the viewer may see.
"""

from __future__ import annotations

from typing import Any

from india1853.rules.game.game import Game
from india1853.rules.game.shares import controller
from india1853.rules.game.turn import preview, turn_model


def decider(game: Game, entity: str, entity_type: str) -> str | None:
    """The player who decides for ``entity``: a player himself, a company's director or
    manager (3.4.1; the Elephant's holder for an orphaned minor)."""
    if entity_type == "player":
        return entity
    co = game.state.companies.get(entity)
    return None if co is None else controller(game.state, co)


__all__ = ["decider", "preview", "turn"]


def turn(game: Game, viewer: str | None) -> dict[str, Any]:
    """The turn model of ``game`` as ``viewer`` (a player, or None: a spectator) may see it."""
    return turn_model(game, viewer)
