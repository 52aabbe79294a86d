"""Scenarios: a game played to a described point, for tests and analysis (issue 13).

:func:`build` plays a game from its settings through a short *script*, each step either

* an **intent**: a partial action, ``{"entity": "Ann", "type": "buy_share", "company": "EIR"}``,
  played as the first of the entity's legal actions (``Game.legal_actions``) holding every
  field given (so ``id``, ``created_at`` and the fields left open are the engine's own; a
  field the list leaves open, such as a bond's amount, may be any legal value), or
* a **point**: a string naming where to fast-forward to with the seeded random policy of
  :mod:`india1853.rules.game.random_play` (every action one the engine lists as legal):

  ``"stock round N"`` (the start of stock round N, or of a later one if the fast-forward
  starts past it), ``"operating round N"`` (the first company operating in the N-th
  operating round played or a later one: a round where no company has floated has no
  decision), ``"phase N"`` (the first moment of phase N or later), ``"EIR track"`` (company
  EIR operating, at its ``track`` step, no question pending; any step of ``STEPS``),
  ``"end"`` (the game over).  ``N`` may be left out (1); ``"first operating round"`` reads
  as ``"operating round 1"``.

Everything is deterministic from ``settings.seed`` and the script; the result is a normal
:class:`~india1853.rules.game.game.Game` whose log (``to_log()``) replays to the same state.
A script step that cannot be played is an ``InputError`` naming ``script[i]`` and why.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from india1853.errors import InputError, RuleError
from india1853.rules.game.game import Game
from india1853.rules.game.random_play import random_action
from india1853.rules.game.settings import Settings
from india1853.rules.game.state import GameState
from india1853.rules.game.steps import OPERATING_STEP_KINDS

Intent = Mapping[str, Any]
Step = Intent | str
Predicate = Callable[[GameState], bool]

# The steps of a company's operating turn (4.1-4.8), as the engine names them.
STEPS: tuple[str, ...] = OPERATING_STEP_KINDS
# Enough for any complete game of random legal moves (the longest fixtures: about 2,500).
MAX_ACTIONS = 10_000


def build(settings: Settings, script: Sequence[Step] = (), *,
          max_actions: int = MAX_ACTIONS) -> Game:
    """The game of ``settings`` played through ``script`` (intents and points, in order)."""
    game = Game(settings)
    rng = random.Random(f"scenario:{settings.seed}")
    for index, step in enumerate(script):
        where = f"script[{index}]"
        if isinstance(step, str):
            fast_forward(game, step, rng, max_actions=max_actions, where=where)
        elif isinstance(step, Mapping):
            action = _intended(game, step, where)
            try:
                game.process(action)
            except (InputError, RuleError) as exc:
                raise InputError(f"{where}: {exc}") from None
        else:
            raise InputError(f"{where}: must be an intent (an action's fields) or a point "
                             f"(a string), got {type(step).__name__}")
    return game


def fast_forward(game: Game, point: str, rng: random.Random, *,
                 max_actions: int = MAX_ACTIONS, where: str = "point") -> None:
    """Play random legal actions (seeded by ``rng``) on ``game`` until ``point`` is reached;
    at once if it already is.  An ``InputError`` if the game ends, or ``max_actions`` actions
    are played, first."""
    reached = parse_point(point, where)
    played = 0
    while not reached(game.state):
        if game.finished:
            raise InputError(f"{where}: the game ended before {point!r} "
                             f"({len(game.log)} actions; try another seed)")
        if played >= max_actions:
            raise InputError(f"{where}: {point!r} not reached in {max_actions} actions")
        game.process(random_action(game, rng))
        played += 1


_COUNTED = re.compile(r"(stock round|operating round|phase)(?: (\d+))?")


def parse_point(point: str, where: str = "point") -> Predicate:
    """The test of a named point (see the module docstring) on a game state."""
    text = " ".join(point.split()).lower()
    if text == "end":
        return lambda st: st.round == "finished"
    counted = _COUNTED.fullmatch(text.removeprefix("first "))
    if counted is not None and not (text.startswith("first ") and counted.group(2)):
        kind, number = counted.group(1), int(counted.group(2) or 1)
        if kind == "phase":
            return lambda st: st.phase >= number
        if kind == "stock round":
            return lambda st: st.round == "stock" and st.stock_round >= number
        # An operating round where no company has floated passes at once (no decision in
        # it): the point is the first company operating in the N-th round or a later one.
        return lambda st: st.round == "operating" and st.operating_round >= number
    parts = point.split()
    if len(parts) == 2 and parts[1] in STEPS:
        company, step = parts

        def at_step(st: GameState) -> bool:
            turn = st.turn
            return (st.round == "operating" and not st.pending and turn.step == step
                    and turn.index < len(turn.order) and turn.order[turn.index] == company)
        return at_step
    raise InputError(f"{where}: unknown point {point!r} (known: 'stock round N', "
                     f"'operating round N', 'phase N', 'COMPANY STEP' with STEP one of "
                     f"{', '.join(STEPS)}, 'end')")


def _intended(game: Game, intent: Intent, where: str) -> dict[str, Any]:
    """The first legal action of the intent's entity holding every field of the intent."""
    entity = intent.get("entity")
    if not isinstance(entity, str):
        raise InputError(f"{where}.entity: must name the player or company acting")
    active = [e for e, _ in game.active_entities()]
    if entity not in active:
        raise InputError(f"{where}.entity: {entity!r} may not act now "
                         f"(active: {', '.join(active) or 'nobody'})")
    legal = game.legal_actions(entity)
    wanted = {k: v for k, v in intent.items() if k != "entity"}
    for action in legal:
        if all(k in action and action[k] == v for k, v in wanted.items()):
            return action
    # A field the list leaves open (a bond's amount, a price): the engine judges the value.
    for action in legal:
        if action["type"] == intent.get("type") and all(
                k in action for k in wanted):
            return {**action, **wanted}
    offered = sorted({a["type"] for a in legal})
    raise InputError(f"{where}: no legal action of {entity} matches {dict(intent)!r} "
                     f"(offered: {', '.join(offered)})")
