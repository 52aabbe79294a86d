"""One answer per rule, asked of the engine (issue 20): who decides for an entity (3.4.1),
what undo and redo may move (the undo barrier), the numbers of players (TABLE 3), the rounds
there are (the sequencer's ``RoundKind``), what a company's trains step will offer and how
far a company is from floating, asked ahead (``rules/game/outlook.py``)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import get_args

import pytest
from helpers import act, four_player_start
from test_stock_round import to_next_stock_round

from india1853.data.loader import load_edition
from india1853.errors import InputError
from india1853.rules.game import Game, Settings
from india1853.rules.game.game import effective_actions
from india1853.rules.game.outlook import shares_to_float, train_outlook
from india1853.rules.game.settings import player_counts
from india1853.rules.game.state import RoundKind

RULES = Path(__file__).resolve().parents[2] / "src" / "india1853" / "rules"


def test_the_decider_of_a_player_is_himself_and_an_unknown_entity_is_refused() -> None:
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    assert game.decider("Bob") == "Bob"
    with pytest.raises(InputError, match="unknown player or company 'Zed'"):
        game.decider("Zed")


def test_nobody_decides_for_a_company_before_anyone_holds_the_elephant() -> None:
    """3.4.1: with no holder at all the Elephant's holder manages - before the contract bids
    seat the players nobody holds it, and nobody decides (no first player by default)."""
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    assert game.state.elephant is None
    assert game.decider("EIR") is None


def test_the_decider_of_a_company_follows_its_director_manager_and_the_elephant() -> None:
    """3.2.1, 3.4.1: the director; else a manager; with no holder, the Elephant's holder."""
    game = four_player_start()
    to_next_stock_round(game)
    assert game.decider("MSM") == game.company("MSM").director == "Bob"
    act(game, "pass", "Ann")
    act(game, "sell_shares", "Bob", company="MSM", count=2)
    assert game.decider("MSM") == "Dan"
    act(game, "pass", "Bob")
    act(game, "buy_share", "Cat", company="MSM", source="pool")
    act(game, "sell_shares", "Dan", company="MSM", count=2)
    assert game.company("MSM").director is None and game.decider("MSM") == "Bob"
    act(game, "pass", "Dan")
    act(game, "pass", "Ann")
    act(game, "sell_shares", "Bob", company="MSM", count=1)
    act(game, "pass", "Bob")
    act(game, "sell_shares", "Cat", company="MSM", count=1)
    act(game, "pass", "Cat")
    assert game.state.elephant == "Dan" and game.decider("MSM") == "Dan"
    # Who decided an earlier action is asked of the game as it was then.
    sale = next(a for a in game.log if a["type"] == "sell_shares" and a["entity"] == "Dan")
    assert game.decided_by(sale) == "Dan"


def test_undo_takes_back_only_ones_own_last_action_and_redo_puts_it_back() -> None:
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    assert game.undo_target("Ann") is None  # nothing to undo
    act(game, "place_bond", "Ann", amount=100)
    bond = game.log[-1]
    assert game.undo_target("Ann") == bond
    assert game.undo_target("Bob") is None  # not Bob's
    assert game.undo_target("Bob", "Ann") == bond  # a hotseat screen acts for both
    act(game, "undo", "Ann")
    assert game.undo_target("Ann") is None and game.redo_target("Bob") is None
    assert game.redo_target("Ann") == bond
    act(game, "redo", "Ann")
    assert game.redo_target("Ann") is None


def test_undo_never_crosses_a_revealed_secret() -> None:
    """2.5.3: the last bond reveals them all; it and the actions before it stay."""
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    for name in ("Ann", "Bob", "Cat"):
        act(game, "place_bond", name, amount=100)
    assert game.undo_target("Ann", "Bob", "Cat") is None
    assert game.decided_by(game.log[-1]) == "Cat"


def test_undo_takes_back_ones_own_decision_with_the_bots_replies_after_it() -> None:
    """Issue 21 item 8: the bots answer at once, so a player's own last decision is followed by
    their moves; his undo takes them back with it (one ``undo`` each, the last first) - never
    another human's move."""
    game = four_player_start()
    to_next_stock_round(game)
    before = game.view(None)
    act(game, "pass", "Ann")
    ann = game.log[-1]
    act(game, "sell_shares", "Bob", company="MSM", count=2)
    act(game, "pass", "Bob")
    bots = {"Bob", "Cat", "Dan"}
    assert game.undo_targets("Ann", bots=bots) == game.log[-3:]
    assert game.undo_target("Ann", bots=bots) == game.log[-1]
    assert game.why_no_undo("Ann", bots=bots) is None
    # Bob a human: his moves are his to take back, not Ann's.
    assert game.undo_targets("Ann", bots={"Cat", "Dan"}) == []
    refusal = game.why_no_undo("Ann", bots={"Cat", "Dan"})
    assert refusal is not None and "Bob has acted since" in str(refusal)
    assert game.undo_target("Ann") is None
    assert game.undo_targets("Bob", bots=bots) == game.log[-1:]  # his own last decision
    # A game replayed without checks (a server's cache) gives the same answer.
    replayed = Game.replay(game.settings, game.log, check=False)
    assert replayed.undo_targets("Ann", bots=bots) == game.log[-3:]
    for target in reversed(game.undo_targets("Ann", bots=bots)):
        act(game, "undo", target["entity"])
    assert game.view(None) == before
    assert game.redo_target("Ann") == ann


def test_undo_with_the_bots_replies_never_crosses_a_revealed_secret() -> None:
    """2.5.3: while a bot's bond is still secret, Ann's bond is taken back with it; the last
    bond reveals them all and nothing before it can be taken back."""
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    bots = {"Bob", "Cat"}
    act(game, "place_bond", "Ann", amount=100)
    act(game, "place_bond", "Bob", amount=100)
    assert game.undo_targets("Ann", bots=bots) == game.log[-2:]
    act(game, "place_bond", "Cat", amount=100)
    assert game.undo_targets("Ann", bots=bots) == []
    refusal = game.why_no_undo("Ann", bots=bots)
    assert refusal is not None and "revealed secret information" in str(refusal)


def test_the_numbers_of_players_are_the_editions_table_3() -> None:
    for edition in ("first", "second"):
        counts = player_counts(edition)
        assert counts == tuple(sorted(load_edition(edition).tables.players)) == (3, 4, 5, 6)
        with pytest.raises(InputError, match="3 to 6 players needed, got 2"):
            Settings(("Ann", "Bob"), edition=edition)


def _round_values() -> set[str]:
    """The string values the rules assign to a state's ``round`` (and give ``GameState``)."""
    found: set[str] = set()

    def strings(node: ast.expr) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.IfExp):
            return strings(node.body) + strings(node.orelse)
        return []

    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute) and target.attr == "round":
                        found.update(strings(node.value))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "GameState":
                for keyword in node.keywords:
                    if keyword.arg == "round":
                        found.update(strings(keyword.value))
    return found


def test_round_kind_lists_exactly_the_rounds_the_engine_sets() -> None:
    values = _round_values()
    assert {"bonds", "bids", "kit_draws", "stock_end", "finished"} <= values
    assert set(get_args(RoundKind)) == values


def test_who_decided_an_action_is_the_same_noted_or_rebuilt() -> None:
    """``decided_by`` notes the decider when an action is processed; a game replayed without
    checks finds it by rebuilding the state before the action - the same answer, companies
    included (their director may have changed since)."""
    games = Path(__file__).resolve().parents[1] / "games"
    data = json.loads((games / "random-3p-seed3.json").read_text())
    settings = Settings.from_json(data["settings"])
    played = Game(settings, data["actions"][:400])
    replayed = Game.replay(settings, data["actions"][:400], check=False)
    done = effective_actions(played.log)
    assert any(a["entity_type"] == "company" for a in done)
    for action in reversed(done):
        assert replayed.decided_by(action) == played.decided_by(action), action


def _at(fixture: str, actions: int) -> Game:
    data = json.loads((Path(__file__).resolve().parents[1] / "games" / fixture).read_text())
    return Game(Settings.from_json(data["settings"]), data["actions"][:actions])


def test_the_train_outlook_is_the_trains_steps_own_offers_and_limit() -> None:
    """4.8.3-4.8.8: asked before the trains step, the outlook lists what the step offers -
    bought or shown disabled for want of money - at the same prices, with the phase's limit."""
    game = _at("greedy-3p-seed3.json", 69)  # GIP at its trains step: £180, a '2' is £300
    outlook = train_outlook(game, "GIP")
    assert outlook.limit == game.rules.phase(game.state.phase).train_limit
    assert outlook.owned == len(game.state.company_trains("GIP")) and not outlook.at_limit
    step = {a["train"] for a in game.legal_actions("GIP") if a["type"] == "buy_train"
            and a.get("source", "bank") == "bank"}
    step |= {d.action["train"] for d in game.disabled_options("GIP")
             if d.action["type"] == "buy_train"}
    assert {o.train for o in outlook.offers} == step
    two = next(o for o in outlook.offers if o.train == "2")
    assert (two.gauge, two.price) == ("broad", game.rules.train_type("2").price)
    assert outlook.cheapest("broad") == two


def test_at_the_train_limit_the_outlook_says_so_and_still_names_the_next_train() -> None:
    """4.8.5: GIP owns 4 trains, the limit; the step offers nothing, the outlook still prices
    the '3' it would buy once it has room."""
    game = _at("greedy-3p-seed3.json", 135)
    outlook = train_outlook(game, "GIP")
    assert outlook.at_limit and outlook.limit == 4
    assert not [a for a in game.legal_actions("GIP") if a["type"] == "buy_train"]
    assert [(o.train, o.price) for o in outlook.offers] == [("3", 440)]


def test_the_shares_to_float_follow_the_games_own_table_3() -> None:
    """2.7.5 / 17.1: the qualifying number is the one the game plays with - AMENDED SHARE
    LIMITS (first edition 19) raises it above the edition's printed TABLE 3."""
    players = ("A", "B", "C", "D")
    plain = Game(Settings(players, seed=1, edition="first"))
    amended = Game(Settings(players, seed=1, edition="first",
                            variants=("amended_share_limits",)))
    printed = load_edition("first").tables.player_row(4).qualifying_shares
    assert shares_to_float(plain, "EIR") == printed
    assert shares_to_float(amended, "EIR") == amended.rules.table.qualifying_shares > printed
