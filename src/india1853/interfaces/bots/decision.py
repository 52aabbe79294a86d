"""What a bot decides from: the engine's answers for one decision, and nothing more.

A bot plays for one player.  It sees what that player may see: the player's view
(``Game.view(player)``, the others' secrets removed), the options of the entity that must act
as the turn model prices them (:func:`india1853.rules.game.turn.options`: each legal action
with the money it costs, its effect and its rule), and the engine's answers for planning ahead
(:mod:`india1853.rules.game.outlook`: the train limit and the trains the bank offers the
companies the decision is about, 4.8; how many shares each company lacks to float, 2.7.5).
A bot computes no rule of its own: a price, a limit or a qualifying number is read here.

:func:`decision_for` asks the engine once; the :class:`Decision` is plain data, so that a
server may let its bot think without holding the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from india1853.rules.game.game import Game
from india1853.rules.game.outlook import TrainOutlook, shares_to_float, train_outlook
from india1853.rules.game.turn.options import options

Action = dict[str, Any]
View = dict[str, Any]


# What an engine's action carries beside what it does: its place in the log and its time.
_STAMPS = ("id", "created_at")


def _bare(action: Mapping[str, Any]) -> dict[str, Any]:
    """The action without its stamps: what it does."""
    return {k: v for k, v in action.items() if k not in _STAMPS}


def _key(action: Mapping[str, Any]) -> str:
    return json.dumps(_bare(action), sort_keys=True)


@dataclass(frozen=True)
class Decision:
    """One decision of the entity that must act, as its player may see it (see the module
    docstring).  ``legal``: the legal actions (without ``id`` and ``created_at``), in the
    engine's order; ``options``: the same, priced (the turn model's option dicts).
    ``priced``: False for a decision built for a bot that reads the legal actions and the
    view only (:func:`decision_for` with ``priced=False``): it has no options, outlook or
    prices, and asking it for a price is an error."""

    entity: str
    view: View
    legal: list[Action]
    options: list[dict[str, Any]]
    trains: Mapping[str, TrainOutlook] = field(default_factory=dict)
    to_float: Mapping[str, int] = field(default_factory=dict)
    priced: bool = True

    def cost(self, action: Mapping[str, Any]) -> int:
        """The money the acting entity pays for one of ``legal`` (the turn model's price:
        tile and terrain costs 4.1.12, base 4.4.4, share 3.1.4/3.1.7, train 4.8, bond 2.5.9...;
        negative: it receives); 0 when no money moves."""
        if not self.priced:
            raise ValueError("decision: built without prices (priced=False)")
        option = self._option_of(action)
        if option is not None:
            return int(option["cost"] or 0)
        return self._costs.get(_key(action), 0)

    def label(self, action: Mapping[str, Any]) -> str:
        """The turn model's label of one of ``legal`` (its words for a person, as the terminal
        and the browser show the option: "Bond £60", "Lay 5 on G7 rot 0"); the action's type
        for an action the options do not hold."""
        option = self._option_of(action)
        if option is not None:
            return str(option["label"])
        return self._labels.get(_key(action), str(action.get("type", "?")).replace("_", " "))

    def _option_of(self, action: Mapping[str, Any]) -> dict[str, Any] | None:
        """The option of ``action`` when it is one of ``legal`` itself (the object, as a bot
        passes it back) and the options price ``legal`` one for one in its order (as
        :func:`decision_for` builds them): found without encoding every option's action
        (a lay decision has hundreds); None otherwise (found by its encoding)."""
        index = self._index.get(id(action))
        if index is None or self.legal[index] is not action:
            return None
        return self.options[index]

    @cached_property
    def _index(self) -> dict[int, int]:
        """Each of ``legal`` by its identity: its index, when ``options`` are ``legal``
        priced in the same order (each option's action is the legal action with an ``id``
        and a ``created_at``); empty otherwise."""
        pairs = zip(self.options, self.legal, strict=False)
        if len(self.options) != len(self.legal) or not all(
                _bare(o["action"]) == _bare(a) for o, a in pairs):
            return {}
        return {id(a): i for i, a in enumerate(self.legal)}

    @cached_property
    def _costs(self) -> dict[str, int]:
        return {_key(o["action"]): int(o["cost"] or 0) for o in self.options}

    @cached_property
    def _labels(self) -> dict[str, str]:
        return {_key(o["action"]): str(o["label"]) for o in self.options}


def decision_for(game: Game, player: str, entity: str, *, priced: bool = True) -> Decision:
    """The decision of ``entity`` (which ``player`` decides for) as the engine answers it
    now: the player's view, the priced legal options, the trains outlook of the companies
    the decision is about (the acting company; in a stock round, each operating company whose
    shares the player may sell) and each unfloated company's shares to float.

    ``priced=False``: the view and the legal actions only, for a bot that reads nothing
    else (:func:`india1853.interfaces.bots.reads_prices`): pricing the options and the
    outlook is most of a random bot's decision otherwise."""
    legal = game.legal_actions(entity)
    view = game.view(player)
    if not priced:
        return Decision(entity=entity, view=view, legal=[dict(a) for a in legal], options=[],
                        priced=False)
    companies: Mapping[str, Any] = view["companies"]
    about = {entity} | {str(a["company"]) for a in legal if a["type"] == "sell_shares"}
    return Decision(
        entity=entity,
        view=view,
        legal=[dict(a) for a in legal],
        # The warnings are words for a person; a bot's choice never reads them.
        options=options(game, entity, legal, view, warn=False),
        trains={c: train_outlook(game, c) for c in about
                if c in companies and companies[c]["formed"]},
        to_float={c: shares_to_float(game, c) for c, co in companies.items()
                  if not co["floated"]},
    )


__all__ = ["Action", "Decision", "View", "decision_for"]
