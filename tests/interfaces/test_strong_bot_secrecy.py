"""The strong bot never reads another seat's secret (issue 23): two games with the same public
history but a different hidden choice of another seat - a bond's amount, a contract city, a
first-edition bid, the MIK 2 cards rejected, each a secret field the engine declares
(rules/game/secrecy.py) - give the observing seat the same ``Decision`` (everything a bot is
given) and strong bots of several seeds the same choices, for as long as the observer's view
of the two games is the same (until the secret is revealed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.data.loader import load_edition
from india1853.errors import InputError, RuleError
from india1853.interfaces.bots import decision_for
from india1853.interfaces.bots.strong import StrongBot
from india1853.rules.game.game import Game
from india1853.rules.game.secrecy import ACTION_SECRETS
from india1853.rules.game.settings import Settings

GAMES = Path(__file__).resolve().parents[1] / "games"
# The bots' seeds: the same seed must give the same choice in both games, for every seed.
SEEDS = (0, 1, 2)
# Decisions of the observer compared at most (each asks a strong bot per seed and game).
LIMIT = 12
Action = dict[str, Any]


def _bare(action: Action) -> Action:
    return {k: v for k, v in action.items() if k not in ("id", "created_at")}


def _public(action: Action) -> str:
    """The action without its secret fields (secrecy.ACTION_SECRETS): what everyone sees."""
    secret = {s.field.split("[]")[0] for s in ACTION_SECRETS.get(action["type"], ())}
    return json.dumps({k: v for k, v in _bare(action).items() if k not in secret},
                      sort_keys=True)


def _without_cities(action: Action) -> str:
    """The action with its cities left out: for a bid, the shares claimed, public once every bid
    is in (15.1) while the cities stay secret."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "city"}
        if isinstance(value, list):
            return sorted((strip(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return value
    return json.dumps(strip(_bare(action)), sort_keys=True)


def _city_swaps(settings: Settings, action: Action) -> list[Action]:
    """A bid with one of its cities replaced by another city of the edition (14.5): the same
    shares claimed, another secret city."""
    if "claims" not in action:
        return []
    cities = sorted(c.name for c in load_edition(settings.edition).cities)
    claimed = {c["city"] for c in action["claims"]}
    return [{**action, "claims": [*action["claims"][:j], {**claim, "city": city},
                                  *action["claims"][j + 1:]]}
            for j, claim in enumerate(action["claims"]) for city in cities if city not in claimed]


def _hidden_change(settings: Settings, actions: list[Action], kind: str, observer: str
                   ) -> tuple[Game, Game, int]:
    """The game after the first ``kind`` action of a seat other than ``observer`` that has an
    alternative - another legal action differing from it in secret fields only, the one that
    keeps the most public later (the same shares for a bid), with which the next 40 actions of
    the log stay legal - and the game after that alternative instead; and the action's index."""
    game = Game(settings)
    for i, action in enumerate(actions):
        if action["type"] == kind and action["entity"] != observer:
            offered = [a for a in game.legal_actions(action["entity"]) if a["type"] == kind]
            alternatives = [a for a in [*_city_swaps(settings, action), *offered]
                            if _public(a) == _public(action) and _bare(a) != _bare(action)]
            alternatives.sort(key=lambda a: _without_cities(a) != _without_cities(action))
            for alternative in alternatives[:40]:
                other = game.fork()
                try:
                    for later in [{**action, **alternative}, *actions[i + 1:i + 41]]:
                        _play(other, later)
                except (InputError, RuleError):
                    continue
                _play(game, action)
                return game, other.at(i + 1), i
        _play(game, action)
    raise AssertionError(f"no {kind} of a seat other than {observer} has a hidden alternative")


def _play(game: Game, action: Action) -> None:
    game.process({**_bare(action), "id": game.next_id(), "created_at": 0})


CASES = [
    # 2.5.2: a bond is written secretly; the last to write sees the first's hidden.
    ("greedy-3p-seed3.json", "place_bond", "Cat", 1, 200),
    # 2.5.4: a contract city stays secret until the contract is fulfilled (4.3.2).
    ("greedy-3p-seed3.json", "claim_city", "Ann", LIMIT, 200),
    # 14.5, 15.1: a first-edition bid is secret until every bid is in, its cities after.
    ("first/greedy-4p-seed5.json", "submit_bid", "Dan", LIMIT, 200),
    # MIK 2: the card a player rejects goes face down; the one he keeps stays secret (D holds
    # two cards at action 1112 of this log and rejects one; A's choice at 814 shows at 817).
    ("first/random-4p-seed2-mik2.json", "reject_cards", "B", LIMIT, 1250),
]


@pytest.mark.parametrize(("log", "kind", "observer", "least", "length"), CASES,
                         ids=[c[1] for c in CASES])
def test_another_seats_hidden_choice_changes_no_decision(log: str, kind: str, observer: str,
                                                         least: int, length: int) -> None:
    data = json.loads((GAMES / log).read_text(encoding="utf-8"))
    settings = Settings.from_json(data["settings"])
    actions = [dict(a) for a in data["actions"]][:length]
    a, b, at = _hidden_change(settings, actions, kind, observer)
    # The secret differs (the moderator sees it), and the observer sees the same game.
    assert a.moderator_view() != b.moderator_view()
    assert a.view(observer) == b.view(observer)
    bots_a = [StrongBot(observer, s, budget=30.0, max_evals=4) for s in SEEDS]
    bots_b = [StrongBot(observer, s, budget=30.0, max_evals=4) for s in SEEDS]
    compared = 0
    for n, action in enumerate(actions[at + 1:], start=at + 1):
        if compared >= least or a.view(observer) != b.view(observer):
            break  # enough, or the secret is revealed: the public histories differ from here
        for entity, _ in a.active_entities():
            if a.decider(entity) != observer:
                continue
            da, db = decision_for(a, observer, entity), decision_for(b, observer, entity)
            assert da == db, f"action {n}: what the bot is given depends on the secret"
            for bot_a, bot_b in zip(bots_a, bots_b, strict=True):
                assert bot_a.choose(da) == bot_b.choose(db), f"action {n}: the choice differs"
            compared += 1
        _play(a, action)
        try:
            _play(b, action)
        except (InputError, RuleError):
            break  # the hidden choice made this action illegal (a card no longer held)
    assert compared >= least, f"only {compared} decisions of {observer} compared"
