"""The hint (issue 23): what the strong bot would do now for the player who asks, and why, in
one line.

The hint is the strong bot's own decision, made exactly as the bot makes it when it plays: from
the asking player's view (``Game.view(player)``: the others' bonds, cities, bids and cards are
not in it) and the legal actions of the entity the player decides for.  Nothing else is read:
the bot is a fresh one with a fixed seed, so the hint depends on that view and those actions
alone (tests/interfaces/test_hint.py shows two games differing only in another seat's secret
give the same hint).  The view holds the asker's own secrets, so the hint is shown only to that
seat, never to another and never in the game's log.

The line names the chosen option and the two or three best options the bot valued, each by the
turn model's label of the option (the words the terminal and the browser show for it), with their
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
    """The strong bot's choice for one decision and the best options it valued (best first),
    each with the turn model's label of the option."""

    entity: str
    choice: Action
    label: str
    weighed: tuple[tuple[float, Action, str], ...]

    def line(self) -> str:
        """The hint in one line: the choice, then what it weighed."""
        head = f"Hint for {self.entity}: {self.label}"
        if not self.weighed:
            return f"{head} (the strong bot's fixed rule for this decision; nothing else valued)"
        weighed = ", ".join(f"{label} {value:+.1f}" for value, _, label in self.weighed)
        if all(a != self.choice for _, a, _ in self.weighed):
            head += " (none of the options it valued was worth taking)"
        return f"{head}. Weighed: {weighed}"

    def to_json(self) -> dict[str, Any]:
        return {"entity": self.entity, "choice": dict(self.choice), "label": self.label,
                "line": self.line(),
                "weighed": [{"value": round(v, 1), "action": dict(a), "label": label}
                            for v, a, label in self.weighed]}


def hint(player: str, decision: Decision, *, budget: float = BUDGET) -> Hint:
    """What the strong bot would choose for ``player`` in ``decision`` (the engine's answers
    for one entity the player decides for, seen from the player's own view: bots/decision.py),
    within ``budget`` CPU seconds, each option named by the turn model's label
    (``Decision.label``).  Undo and redo are not the bot's to weigh."""
    legal = [a for a in decision.legal if a.get("type") not in ("undo", "redo")]
    options = [o for o in decision.options if o["action"].get("type") not in ("undo", "redo")]
    bot = StrongBot(player, HINT_SEED, budget=budget)
    choice = bot.choose(replace(decision, legal=legal, options=options))
    best: dict[str, tuple[float, Action, str]] = {}
    for value, a in bot.weighed:
        label = decision.label(a)
        if label not in best or value > best[label][0]:
            best[label] = (value, a, label)
    ranked = sorted(best.values(), key=lambda val: -val[0])[:SHOWN]
    entity = str(choice.get("entity") or decision.entity)
    return Hint(entity, choice, decision.label(choice), tuple(ranked))


__all__ = ["Hint", "hint"]
