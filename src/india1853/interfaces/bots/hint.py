"""The hint (issue 23): what the strong bot would do now for the player who asks, and why, in
one line.

The hint is the strong bot's own decision, made exactly as the bot makes it when it plays: from
the asking player's view (``Game.view(player)``: the others' bonds, cities, bids and cards are
not in it) and the legal actions of the entity the player decides for.  Nothing else is read:
the bot is a fresh one with a fixed seed, so the hint depends on that view and those actions
alone (tests/interfaces/test_hint.py shows two games differing only in another seat's secret
give the same hint).  The view holds the asker's own secrets, so the hint is shown only to that
seat, never to another and never in the game's log.

The line names the chosen option and the two or three best options the bot valued, with their
values (a track lay or a train: revenue gained over the operating rounds left, less costs; a
share: the bot's preference score, where above 2 means worth buying).  A decision the bot makes
by a fixed rule (a bid, a claim, a dividend, a run) says so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from india1853.interfaces.bots.decision import Decision
from india1853.interfaces.bots.strong import BUDGET, StrongBot

Action = dict[str, Any]

# The options shown besides the choice, at most.
SHOWN = 3
# The hint's bot's seed: fixed, so that nothing but the view and the options decides the hint.
HINT_SEED = 0


@dataclass(frozen=True)
class Hint:
    """The strong bot's choice for one decision and the best options it valued (best first)."""

    entity: str
    choice: Action
    weighed: tuple[tuple[float, Action], ...]

    def line(self) -> str:
        """The hint in one line: the choice, then what it weighed."""
        head = f"Hint for {self.entity}: {action_words(self.choice)}"
        if not self.weighed:
            return f"{head} (the strong bot's fixed rule for this decision; nothing else valued)"
        weighed = ", ".join(f"{action_words(a)} {value:+.1f}" for value, a in self.weighed)
        if all(a != self.choice for _, a in self.weighed):
            head += " (none of the options it valued was worth taking)"
        return f"{head}. Weighed: {weighed}"

    def to_json(self) -> dict[str, Any]:
        return {"entity": self.entity, "choice": dict(self.choice), "line": self.line(),
                "weighed": [{"value": round(v, 1), "action": dict(a)} for v, a in self.weighed]}


def hint(player: str, decision: Decision, *, budget: float = BUDGET) -> Hint:
    """What the strong bot would choose for ``player`` in ``decision`` (the engine's answers
    for one entity the player decides for, seen from the player's own view: bots/decision.py),
    within ``budget`` CPU seconds.  Undo and redo are not the bot's to weigh."""
    legal = [a for a in decision.legal if a.get("type") not in ("undo", "redo")]
    options = [o for o in decision.options if o["action"].get("type") not in ("undo", "redo")]
    bot = StrongBot(player, HINT_SEED, budget=budget)
    choice = bot.choose(replace(decision, legal=legal, options=options))
    best: dict[str, tuple[float, Action]] = {}
    for value, a in bot.weighed:
        key = action_words(a)
        if key not in best or value > best[key][0]:
            best[key] = (value, a)
    ranked = sorted(best.values(), key=lambda va: -va[0])[:SHOWN]
    entity = str(choice.get("entity") or decision.entity)
    return Hint(entity, choice, tuple(ranked))


def action_words(a: Action) -> str:
    """An option in a few plain words."""
    kind = str(a.get("type"))
    if kind in ("lay_tile", "promote_tile"):
        verb = "lay" if kind == "lay_tile" else "upgrade to"
        return f"{verb} tile {a['tile']} on {a['hex']} (rotation {a['rotation']})"
    if kind == "buy_share":
        source = "the IPO" if a.get("source") == "ipo" else "the pool"
        return f"buy one {a['company']} share from {source}"
    if kind == "sell_shares":
        return f"sell {a['count']} {a['company']} share{'s' if a['count'] != 1 else ''}"
    if kind == "buy_train":
        source = a.get("source") or "bank"
        return f"buy a {a['train']} train" + ("" if source == "bank" else f" from {source}")
    if kind == "place_bond":
        return f"place a bond of £{a['amount']}"
    if kind == "claim_city":
        return f"claim {a['city']} for {a['company']}"
    if kind == "submit_bid":
        return "bid " + ", ".join(f"{c['city']} {c['company']}" for c in a["claims"])
    if kind == "place_base":
        return f"place a base on {a['hex']}"
    if kind == "dividend":
        return str(a.get("kind", "dividend"))
    if kind == "run_routes":
        return "run the optimal routes"
    if kind == "choose_lay_option":
        return f"track option {a.get('option')}"
    if kind == "discard_train":
        return f"discard train {a.get('train')}"
    if kind == "play_card":
        return f"play card {a.get('card')}"
    return kind.replace("_", " ")


__all__ = ["Hint", "action_words", "hint"]
