"""The turn model the web API sends.

:func:`turn` is the one place the server builds the ``turn`` key of its responses: the rules
layer's ``turn_model`` (docs/turn-model.md), from what the viewer may see.
"""

from __future__ import annotations

from typing import Any

from india1853.rules.game.game import Game
from india1853.rules.game.run_draft import run_draft
from india1853.rules.game.turn import preview, turn_model

__all__ = ["preview", "run_draft", "turn"]


def turn(game: Game, viewer: str | None) -> dict[str, Any]:
    """The turn model of ``game`` as ``viewer`` (a player, or None: a spectator) may see it."""
    return turn_model(game, viewer)
