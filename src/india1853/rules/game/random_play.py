"""A random legal-move player, for tests and soak runs.

It picks an entity that may act and one of its legal actions, seeded for reproducibility.  To
keep games short it usually runs the router's optimum, usually pays dividends, and chooses the
kind of track move before enumerating it (enumerating every promotion is the costly part).
"""

from __future__ import annotations

import random
from typing import Any

from india1853.rules.game import board_port
from india1853.rules.game.game import Game
from india1853.rules.game.operating_round import current_company
from india1853.rules.game.settings import Settings


def random_action(game: Game, rng: random.Random) -> dict[str, Any]:
    """One legal action, with the next id and ``created_at`` 0."""
    entities = game.active_entities()
    entity, entity_type = entities[rng.randrange(len(entities))]
    st = game.state
    if not st.pending and st.round == "operating" and st.turn.step == "track":
        co = current_company(st)
        kind = rng.choice(("lay_tile", "lay_tile", "promote_tile", "pass"))
        moves = [] if kind == "pass" else board_port.legal_moves(game.rules, st, co, kind)
        if moves:
            return game.action(kind, entity, **rng.choice(moves))
        return game.action("pass", entity)
    actions = game.legal_actions(entity)
    if not actions:
        raise AssertionError(f"{entity} ({entity_type}) may act but has no legal action")
    first = actions[0]
    keep_first = {"run_routes": 0.9, "dividend": 0.7}.get(first["type"], 0.0)
    chosen = first if rng.random() < keep_first else rng.choice(actions)
    fields = {k: v for k, v in chosen.items() if k not in ("type", "entity", "entity_type")}
    return game.action(chosen["type"], entity, **fields)


def play_random_game(settings: Settings, *, max_actions: int = 10_000) -> Game:
    """A complete game of random legal moves (seeded by ``settings.seed``)."""
    game = Game(settings)
    rng = random.Random(f"bot:{settings.seed}")
    while not game.finished and len(game.log) < max_actions:
        game.process(random_action(game, rng))
    return game
