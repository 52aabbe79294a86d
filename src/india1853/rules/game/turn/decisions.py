"""The turn model's decisions: the round in words, who decides what now and under which rule
(each step's object, ``steps/``), the headline, and the first edition's bid composer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from india1853.data.summaries import rule_summary
from india1853.rules.game import steps, wording
from india1853.rules.game.edition import edition_policy
from india1853.rules.game.game import Game
from india1853.rules.game.shares import controller
from india1853.rules.game.state import GameState

Action = dict[str, Any]
Json = dict[str, Any]


def title(view: Mapping[str, Any]) -> str:
    """The round in words, in the edition's own names: "Stock Round 2", "Operating Round 3.1"
    (2009), "Dealing Round 2", "Railway Round 3.1" (1989), "Contract bids: bonds"."""
    policy = edition_policy(str(view.get("edition") or "second"))
    stock, operating = policy.stock_round_name, policy.operating_round_name
    kind = view["round"]
    if kind == "bonds":
        return "Contract bids: bonds"
    if kind == "claims":
        return "Contract bids: cities and shares"
    if kind == "bids":
        return "Contract bids: secret bids"
    if kind == "stock":
        return f"{stock} {view['stock_round']}"
    if kind == "operating":
        # 18xx style: the set after stock round N is "N.1, N.2, ...".
        in_set = int(view.get("or_in_set") or 1)
        several = int(view.get("ors_in_set") or 1) > 1 or in_set > 1
        return f"{operating} {view['stock_round']}" + (f".{in_set}" if several else "")
    if kind == "stock_end":
        return f"End of {stock} {view['stock_round']}"
    if kind == "operating_end":
        return f"End of the {operating.lower()}s"
    if kind == "kit_draws":
        return f"{operating} {view['stock_round']}.{view.get('or_in_set') or 1}: MIK 2 draws"
    if kind == "kit_actions":
        return f"Before {stock} {int(view['stock_round']) + 1}: MIK 2 cards actioned"
    if kind == "finished":
        return "Game over"
    return str(kind)


def _what(st: GameState, entity: str, entity_type: str) -> tuple[str, str, str]:
    """(sentence, rule, step) of what ``entity`` decides now, from the step's object."""
    step = steps.current(st)
    if step is None:
        return f"{entity} to act", "", st.round
    if st.pending:
        return wording.agree(entity, step.what), step.rule, step.kind
    if st.round != "operating":
        return f"{entity}: {step.what}", step.rule, step.kind
    co = st.companies[entity]
    who = controller(st, co)
    role = "" if who is None else (f" (director {who})" if co.director == who
                                   else f" (manager {who})")
    return f"{entity}{role} operates: {step.name} - {step.what}", step.rule, step.kind


def deciding(game: Game) -> list[Json]:
    out = []
    for entity, entity_type in game.active_entities():
        what, rule, step = _what(game.state, entity, entity_type)
        player = game.decider(entity)
        out.append({"entity": entity, "entity_type": entity_type, "player": player,
                    "what": what, "rule": rule, "step": step,
                    "rule_summary": rule_summary(game.rules.ed.name, rule)})
    return out


def headline(game: Game, active: list[Json]) -> str:
    st = game.state
    if game.finished:
        return f"Game over ({st.end_reason or 'finished'}): final scores (5.2)"
    if not active:
        return title(game.view(None))
    step = steps.current(st)
    headline = None if step is None else step.headline([a["player"] for a in active])
    if headline is not None:
        return headline
    first = active[0]
    return f"{first['what']} ({first['rule']})" if first["rule"] else str(first["what"])



def bid_composer(game: Game, player: str) -> Json:
    """First edition 14.1-14.5: what a player composing his own secret bid chooses from (the
    legal actions list only samples, ``submit_bid`` accepts any legal bid): every city a bid may
    name with the companies whose share it may claim there and its bond value, the number of
    cities a bid names and the Ganges valley's limit.  The bond and the legality of a composed
    bid are the engine's: :func:`preview`."""
    rules = game.rules
    return {
        "player": player,
        "cities": [{"name": c.name, "hex": c.hex, "bond_value": c.bond_value,
                    "ganges_valley": c.ganges_valley,
                    "companies": [rules.ed.company(n).initials for n in c.companies]}
                   for c in rules.cities if c.companies],
        "min_cities": rules.table.bid_cities_min,
        "max_cities": rules.table.bid_cities_max,
        "ganges_limit": rules.ganges_limit,
        "rule": "14.2-14.5",
        "rule_summary": rule_summary(rules.ed.name, "14.2"),
    }


__all__ = ["bid_composer", "deciding", "headline", "title"]
