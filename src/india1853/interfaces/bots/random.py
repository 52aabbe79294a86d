"""The random bot: uniform over the legal actions, for testing.

Every legal action is equally likely, except ``undo`` and ``redo``, which the bot never takes
(they would let a random game wander back and forth for ever).  The engine already offers
open-ended amounts (bonds, the Elephant's price, contributions) as a short list of steps, so
choosing uniformly among the listed actions also picks those values.  A seeded
``random.Random`` makes the choices repeatable for a given seed and game.
"""

from __future__ import annotations

import random
from typing import Any

from india1853.errors import InputError
from india1853.interfaces.bots.decision import Decision

NEVER_CHOSEN: frozenset[str] = frozenset({"undo", "redo"})


class RandomBot:
    """Uniform over the legal actions (undo and redo left out)."""

    # It reads the legal actions only: the table need not price them for it.
    priced = False

    def __init__(self, player: str, seed: int) -> None:
        self._player = player
        # The player's name joins the seed so that seats with one game seed differ.
        self._rng = random.Random(f"{seed}:{player}")

    @property
    def player(self) -> str:
        return self._player

    def choose(self, decision: Decision) -> dict[str, Any]:
        options = [a for a in decision.legal if a.get("type") not in NEVER_CHOSEN]
        if not options:
            raise InputError(f"bot {self._player}: no legal action to choose from")
        return dict(self._rng.choice(options))
