"""The engine's log (rules/game/events.py): ``Game.process`` returns what each action set off,
the money it moved adds up to every cash change, an undo tells the changes reversed and a redo
the events again, and the secret fields of events are withheld as secrecy.py declares."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.rules.game.events import CHANGES, Event, net_paid
from india1853.rules.game.game import Game, replay_events
from india1853.rules.game.secrecy import EVENT_SECRETS, event_as_made
from india1853.rules.game.settings import Settings
from india1853.rules.game.state import GameState

GAMES = Path(__file__).resolve().parents[1] / "games"
# A short second-edition game (bonds, claims, stock and operating rounds, the Elephant sold)
# and a first-edition one (secret bids, Company Credits, trains bought and rusted).
SECOND = GAMES / "stalls" / "stall-3p-seed317612018.json"
FIRST = GAMES / "first" / "greedy-5p-seed8-amended-share-limits.json"


def _log(path: Path) -> tuple[Settings, list[dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return Settings.from_json(data["settings"]), list(data["actions"])


def _cash(st: GameState) -> dict[str, int]:
    out = {p.name: p.cash for p in st.players}
    out.update({i: c.cash for i, c in st.companies.items()})
    return out


def _bonds(events: list[Event], name: str) -> int:
    """A bond written is set aside from the player's cash (2.5.2, 14.5): secret, so an event
    of its own rather than a payment."""
    return sum(int(e.fields.get("amount", e.fields.get("bond", 0))) for e in events
               if e.kind in ("bond_placed", "bid_submitted") and e.entity == name)


@pytest.mark.parametrize("path", [SECOND, FIRST], ids=["second", "first"])
def test_the_money_each_action_moved_is_in_its_paid_events(path: Path) -> None:
    settings, actions = _log(path)
    game = Game(settings)
    for action in actions:
        before = _cash(game.state)
        events = game.process(action)
        after = _cash(game.state)
        for entity, cash in after.items():
            moved = -net_paid(events, entity) - _bonds(events, entity)
            assert cash - before[entity] == moved, (action["id"], entity, events)


def test_process_returns_the_events_replay_events_gives() -> None:
    settings, actions = _log(SECOND)
    game = Game(settings)
    by_process = [game.process(a) for a in actions]
    assert [e for _, e in replay_events(settings, actions)] == by_process
    kinds = {e.kind for events in by_process for e in events}
    assert {"bond_placed", "bonds_revealed", "city_claimed", "claims_settled", "floated",
            "formed", "director", "paid", "tile_laid", "passed", "round", "elephant"} <= kinds


def test_an_undo_tells_the_changes_reversed_and_a_redo_the_events_again() -> None:
    settings, actions = _log(SECOND)
    game = Game(settings)
    seen_change = False
    for action in actions:
        events = game.process(action)
        if game.undo_target(*settings.players) is None:
            continue
        trial = game.fork()
        undo = trial.process(trial.action("undo", action["entity"]))
        assert undo[0] == Event("undo", action["entity"], "undo", {"action": action["id"]})
        changes = [e for e in events if e.kind in CHANGES]
        seen_change = seen_change or bool(changes)
        assert [(e.kind, e.entity, e.fields["old"], e.fields["new"]) for e in undo[1:]] == [
            (e.kind, e.entity, e.fields["new"], e.fields["old"]) for e in reversed(changes)]
        redo = trial.process(trial.action("redo", action["entity"]))
        assert redo == [Event("redo", action["entity"], "redo", {"action": action["id"]}),
                        *events]
        assert trial.moderator_view() == game.moderator_view()
    assert seen_change


def test_the_secret_fields_of_events_are_withheld_from_the_table() -> None:
    settings, actions = _log(SECOND)
    game = Game(settings)
    placed = game.process(actions[0])
    bond = next(e for e in placed if e.kind == "bond_placed")
    assert bond.fields["amount"] == actions[0]["amount"]
    told = event_as_made(bond)
    assert "amount" not in told.fields and told.fields["hidden"] == ["amount"]
    assert event_as_made(bond, moderator=True) == bond
    for action in actions[1:3]:
        game.process(action)
    claimed = [e for a in actions[3:10] for e in game.process(a) if e.kind == "city_claimed"]
    assert claimed and all("city" not in event_as_made(e).fields for e in claimed)
    assert all("company" in event_as_made(e).fields for e in claimed)


def test_every_event_secret_is_one_the_actions_declare_or_a_hand() -> None:
    assert set(EVENT_SECRETS) == {"bond_placed", "city_claimed", "bid_submitted",
                                  "cards_rejected", "card_drawn"}


def test_the_events_of_an_undo_or_redo_are_found_again_where_not_kept() -> None:
    """A game rebuilt from a log (``Game.at``, an unchecked replay) keeps no events: an undo or
    redo then applies its action again to report them."""
    settings, actions = _log(SECOND)
    game = Game(settings, actions)
    last = game.log[-1]
    kept_undo = game.fork().process(game.action("undo", last["entity"]))
    rebuilt = game.at(len(actions))
    assert rebuilt.process(rebuilt.action("undo", last["entity"])) == kept_undo
    undo = {**game.action("undo", last["entity"])}
    replayed = Game.replay(settings, [*actions, undo], check=False)
    redo = replayed.process(replayed.action("redo", last["entity"]))
    assert redo == [Event("redo", last["entity"], "redo", {"action": last["id"]}),
                    *Game(settings, actions[:-1]).process(last)]
    assert replayed.moderator_view() == game.moderator_view()
