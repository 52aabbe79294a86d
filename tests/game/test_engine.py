"""The engine itself: actions and their schema, event sourcing, undo/redo, views, logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import (
    act,
    action_schema,
    check_replay,
    dick_jeff_lou,
    dick_jeff_lou_bids,
    four_player_start,
    schema_valid_actions,
    soak_but,
)
from test_bids import refused

from india1853.errors import InputError, RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.actions import ACTION_TYPES, check_action, schema_text

ROOT = Path(__file__).resolve().parents[2]


def test_published_schema_is_generated_from_the_action_types() -> None:
    published = ROOT / "docs" / "action.schema.json"
    assert published.read_text() == schema_text()
    schema = json.loads(published.read_text())
    assert {v["title"] for v in schema["oneOf"]} == set(ACTION_TYPES)


def test_every_action_type_is_documented() -> None:
    text = (ROOT / "docs" / "actions.md").read_text()
    for name in ACTION_TYPES:
        assert f"`{name}`" in text, name


@pytest.mark.parametrize(
    ("players", "field"),
    [(("A", "B"), "players"), (("A",) * 3, "players"), (("A", "B", "C", "D", "E", "F", "G"),
                                                         "players")],
)
def test_settings_errors_name_the_field(players: tuple[str, ...], field: str) -> None:
    with pytest.raises(InputError, match=f"settings.{field}"):
        Settings(players)


@pytest.mark.parametrize(
    ("players", "message"),
    [(("EIR", "Bob", "Cat"), "company's initials"), (("Ann", "bbci", "Cat"), "company's initials"),
     (("Ann", "Bob", "Ecr"), "company's initials"), (("Ann", "ann", "Cat"), "upper and lower")],
)
def test_player_names_that_would_be_ambiguous_entities_are_refused(
        players: tuple[str, ...], message: str) -> None:
    """An action names its entity by a player's name or a company's initials (any case)."""
    with pytest.raises(InputError, match=f"settings.players: .*{message}"):
        Settings(players)
    game = Game(Settings(("Eira", "Bob", "Cat")))  # only an exact clash is refused
    assert game.action("place_bond", "Eira", amount=80)["entity_type"] == "player"


SECOND_EDITION_GAMES = sorted((ROOT / "tests" / "games").glob("*.json"))


# One game in the unit suite, every one in `make soak` (the 38,039 actions of all the fixture
# games take minutes to validate).
@pytest.mark.parametrize("path", soak_but(
    SECOND_EDITION_GAMES, {ROOT / "tests" / "games" / "random-4p-seed12.json"},
    lambda p: p.stem))
def test_fixture_actions_validate_against_the_published_schema(path: Path) -> None:
    """Every action of a second-edition fixture game, run_routes' route objects included,
    matches exactly one branch of docs/action.schema.json."""
    actions = schema_valid_actions(path)
    assert sum(a["type"] == "run_routes" and bool(a["routes"]) for a in actions) > 10


def test_a_malformed_route_fails_the_schema_and_is_refused() -> None:
    """A route object with a wrong or missing field fails the schema, and the engine refuses
    it naming the field."""
    validator = action_schema()
    route = {"train": "3", "hexes": ["J28", "I27"], "mail": False}
    base = {"type": "run_routes", "entity": "EIR", "entity_type": "company", "id": 1,
            "created_at": 0}
    assert validator.is_valid({**base, "routes": [route]})
    for bad, field in [({**route, "revenue": 50}, "revenue"), ({**route, "train": 3}, "train"),
                       ({**route, "hexes": []}, "hexes"), ({"hexes": ["J28"]}, "train"),
                       ({**route, "mail": "yes"}, "mail")]:
        action = {**base, "routes": [bad]}
        assert not validator.is_valid(action), bad
        with pytest.raises(InputError, match=rf"routes\[0\]\.{field}"):
            check_action(action)


def test_unknown_variant_and_edition() -> None:
    with pytest.raises(InputError, match="variants"):
        Game(Settings(("A", "B", "C"), variants=("nonsense",)))
    with pytest.raises(InputError, match="edition"):
        Settings(("A", "B", "C"), edition="third")
    game = Game(Settings(("A", "B", "C"), variants=("shortened_game",)))
    assert game.state.start_total == 7760


@pytest.mark.parametrize(
    ("change", "message"),
    [({"type": "fly"}, "action.type"), ({"amount": "80"}, "amount"), ({"id": 7}, "action.id"),
     ({"entity_type": "company"}, "entity_type"), ({"colour": 1}, "unknown field")],
)
def test_malformed_actions_are_refused_and_change_nothing(change: dict[str, object],
                                                         message: str) -> None:
    game = Game(Settings(("A", "B", "C"), seed=0))
    action = {**game.action("place_bond", "A", amount=80), **change}
    before = game.moderator_view()
    with pytest.raises(InputError, match=message):
        game.process(action)
    assert game.moderator_view() == before and game.log == []


def test_undo_and_redo_are_actions() -> None:
    game = dick_jeff_lou()
    act(game, "claim_city", "Dick", city="Calcutta", company="EIR")
    after_claim = game.moderator_view()
    act(game, "claim_city", "Jeff", city="Bombay", company="BBCI")
    refused(game, "undo", "undo", "Dick")  # the last action was Jeff's
    act(game, "undo", "Jeff")
    assert game.moderator_view() == after_claim
    act(game, "redo", "Jeff")
    assert game.player("Jeff").claims == ["BBCI"]
    act(game, "undo", "Jeff")
    act(game, "claim_city", "Jeff", city="Ajmer", company="BBCI")
    refused(game, "redo", "redo", "Jeff")  # a new action clears what could be redone
    assert [a["type"] for a in game.log][-3:] == ["redo", "undo", "claim_city"]
    replayed = Game.from_log(json.loads(json.dumps(game.to_log())))
    assert replayed.moderator_view() == game.moderator_view()
    check_replay(game)


def test_log_round_trip_and_version() -> None:
    game = four_player_start()
    data = json.loads(json.dumps(game.to_log()))
    assert data["engine_version"] and data["settings"]["players"] == ["Ann", "Bob", "Cat", "Dan"]
    assert Game.from_log(data).moderator_view() == game.moderator_view()
    with pytest.raises(InputError, match="engine_version"):
        Game.from_log({**data, "engine_version": "0"})


def test_legal_actions_only_for_the_entity_to_act() -> None:
    game = dick_jeff_lou()
    assert game.legal_actions("Jeff") == []
    actions = game.legal_actions("Dick")
    assert {"type": "claim_city", "entity": "Dick", "entity_type": "player",
            "city": "Calcutta", "company": "EIR", "id": game.next_id(), "created_at": 0} in actions
    assert all(a["type"] == "claim_city" for a in actions)  # no pass below the minimum


def test_every_listed_action_is_accepted() -> None:
    game = four_player_start()
    for action in game.legal_actions("Ann"):
        trial = Game(game.settings, game.log)
        fields = {k: v for k, v in action.items() if k not in ("type", "entity", "entity_type")}
        act(trial, action["type"], "Ann", **fields)


def test_cities_revealed_when_contract_fulfilled() -> None:
    game = dick_jeff_lou()
    dick_jeff_lou_bids(game)
    dick = game.player("Dick")
    dick.bond_returned = True  # arrange: as after the connection (4.3.2)
    public = {p["name"]: p for p in game.view(None)["players"]}
    assert public["Dick"]["cities"] == ["Calcutta", "Patna", "Delhi", "Jaipur"]
    assert public["Jeff"]["cities"] is None


def test_view_of_unknown_player() -> None:
    game = dick_jeff_lou()
    with pytest.raises(InputError, match="view"):
        game.view("Zed")
    with pytest.raises(RuleError):
        act(game, "pass", "Dick")
