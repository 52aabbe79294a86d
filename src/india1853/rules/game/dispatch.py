"""Who may act now, and the application of one (shape-checked) action to the state.

The action goes to the step the game waits for (``steps.current``): the step refuses a type it
does not take, naming its rule, and applies the others.  The state passed in is a scratch
copy: a handler may raise half-way, the caller then drops it.  With ``check=False`` (trusted
logs only: actions that were accepted once) the costly legality checks of construction and runs
are skipped; the effects are the same.
"""

from __future__ import annotations

from typing import Any

from india1853.errors import RuleError
from india1853.rules.game import operating_round, steps
from india1853.rules.game.events import emit
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState


def expected_entities(rules: GameRules, st: GameState) -> list[tuple[str, str]]:
    """The entities that may act now, as (entity, entity_type)."""
    if st.round == "finished":
        return []
    if st.pending:
        p = st.pending[0]
        return [(p.entity, p.entity_type)]
    if st.round in ("bonds", "bids"):
        return [(p.name, "player") for p in st.players if p.bond is None]
    if st.round in ("claims", "stock"):
        return [(st.players[st.stock.current].name, "player")]
    if st.round == "operating":
        return [(operating_round.current_company(st).initials, "company")]
    return []


def apply_action(rules: GameRules, st: GameState, action: dict[str, Any], *,
                 check: bool = True) -> None:
    entity: str = action["entity"]
    active = expected_entities(rules, st)
    if (entity, action["entity_type"]) not in active:
        who = ", ".join(e for e, _ in active) or "nobody"
        raise RuleError("turn", f"it is not {entity}'s turn to act (waiting for {who})")
    step = steps.current(st)
    if step is None:
        raise RuleError("turn", f"no action is possible in round {st.round}")
    step.check_type(st, action)
    if action["type"] == "pass":
        emit(st, "passed", entity, step.rule, step=step.kind)
    step.apply(rules, st, action, check)
