"""The game engine: a complete second-edition game of 1853, event-sourced.

See :mod:`india1853.rules.game.game` for the API and ``docs/actions.md`` for the actions.
"""

from __future__ import annotations

from india1853.rules.game.game import ENGINE_VERSION, Game
from india1853.rules.game.settings import Settings

__all__ = ["ENGINE_VERSION", "Game", "Settings"]
