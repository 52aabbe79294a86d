"""Enumeration of the actions an entity may take now (for interfaces and bots).

Each item is an action without ``id`` and ``created_at``, listed by the step the game waits
for (``steps``).  Open-ended amounts are offered in steps: bonds in £10 steps from the minimum
(any whole number is accepted by ``process``); the Elephant for £0 and in £10 steps up to £50
(any price is accepted); trains between companies of the same controller at the minimum price
only (any price is accepted).  Tile lays and bases come from the construction module; the
router's optimal run comes first.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from india1853.rules.game import steps
from india1853.rules.game.dispatch import expected_entities
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES


def legal_actions(rules: GameRules, st: GameState, entity: str, *,
                  track: Collection[str] = TRACK_MOVES) -> list[dict[str, Any]]:
    """Every action the entity may take now.  ``track`` narrows the track step's list to
    some kinds of move (enumerating every promotion is costly; the random player asks for
    the kind it has chosen)."""
    active = dict(expected_entities(rules, st))
    step = steps.current(st)
    if entity not in active or step is None:
        return []
    return step.legal(rules, st, entity, track)


def disabled_options(rules: GameRules, st: GameState, entity: str) -> list[steps.Disabled]:
    """The options of ``entity`` that exist but are not possible now, each with the engine's
    reason (the rule and the numbers); none for an entity that may not act now."""
    active = dict(expected_entities(rules, st))
    step = steps.current(st)
    if entity not in active or step is None:
        return []
    return step.disabled(rules, st, entity)


__all__ = ["TRACK_MOVES", "disabled_options", "legal_actions"]
