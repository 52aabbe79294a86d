"""The turn model the web API sends, and who decides for an entity.

:func:`turn` is the one place the server builds the ``turn`` key of its responses.  Until the
rules layer's ``turn_model`` is merged it adapts ``game.view(viewer)`` and the engine's legal
actions to the agreed keys (docs/web-api.md); switching is the one line in :func:`turn`.
"""

from __future__ import annotations

from typing import Any

from india1853.interfaces.narrate import round_title
from india1853.rules.game.game import Game
from india1853.rules.game.shares import controller


def decider(game: Game, entity: str, entity_type: str) -> str | None:
    """The player who decides for ``entity``: a player himself, a company's director or
    manager (3.4.1; the Elephant's holder for an orphaned minor)."""
    if entity_type == "player":
        return entity
    co = game.state.companies.get(entity)
    return None if co is None else controller(game.state, co)


def turn(game: Game, viewer: str | None) -> dict[str, Any]:
    """The turn model of ``game`` as ``viewer`` (a player, or None: a spectator) may see it."""
    return _adapted_view(game, viewer)


def _adapted_view(game: Game, viewer: str | None) -> dict[str, Any]:
    """The agreed turn-model keys from the engine's view and legal actions."""
    view = game.view(viewer)
    active = []
    decisions = []
    for entity, entity_type in game.active_entities():
        player = decider(game, entity, entity_type)
        entry = {"entity": entity, "entity_type": entity_type, "player": player,
                 "what": f"{entity} to act", "rule": ""}
        active.append(entry)
        if viewer is not None and player == viewer:
            options = [
                {"action": {**a, "id": game.next_id(), "created_at": 0}, "type": a["type"],
                 "label": a["type"].replace("_", " "), "cost": None, "effect": "", "note": "",
                 "rule": "", "ui": {}}
                for a in game.legal_actions(entity)
            ]
            decisions.append({**entry, "step": view.get("turn", {}).get("step", view["round"]),
                              "secret": view["round"] == "bonds", "options": options})
    title = round_title(view)
    names = ", ".join(f"{a['entity']}" for a in active)
    return {
        "next_id": game.next_id(),
        "round": view["round"],
        "phase": view["phase"],
        "finished": game.finished,
        "title": title,
        "headline": "Game over" if game.finished else f"{title}: {names} to act",
        "active": active,
        "decisions": decisions,
        "tables": {},
        "view": view,
    }
