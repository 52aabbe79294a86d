"""A first-edition game's errors cite the 1989 rules (11-41), through ``Game.process``.

The engine's code shared by both editions raises errors citing the second edition (2.x-5.x);
``process`` translates them for a first-edition game by ``data/rule_citations.json``.  Each
refused action leaves the game as it was; a second-edition game's errors are unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from india1853.errors import InputError, RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.game import in_own_numbering

GAMES = Path(__file__).resolve().parents[1] / "games"
THREE = ("Ann", "Bob", "Cat")
BIDS = {
    "Ann": [("Peshawar", "NWR"), ("Rawalpindi", "NWR"), ("Lahore", "NWR"), ("Multan", "NWR")],
    "Bob": [("Delhi", "EIR"), ("Cawnpore", "EIR"), ("Lucknow", "EIR"), ("Jaipur", "GIP")],
    "Cat": [("Mysore", "SIR"), ("Bangalore", "SIR"), ("Trichinopoly", "SIR"), ("Dacca", "BAR")],
}


def dealing_round() -> Game:
    """A three-player first-edition game after the contract bids: the first dealing round."""
    game = Game(Settings(THREE, seed=5, edition="first"))
    for player, claims in BIDS.items():
        game.process(game.action("submit_bid", player,
                                 claims=[{"city": c, "company": co} for c, co in claims]))
    assert game.state.round == "stock"
    return game


def refused(game: Game, action: dict[str, object]) -> RuleError:
    """The engine's refusal of ``action``; the game is unchanged."""
    before = json.dumps(game.to_log()), json.dumps(game.moderator_view(), default=str)
    with pytest.raises(RuleError) as info:
        game.process(action)
    assert (json.dumps(game.to_log()), json.dumps(game.moderator_view(), default=str)) == before
    return info.value


def test_a_refused_purchase_cites_the_dealing_rounds_paragraph() -> None:
    """21.3 (3.1.3 in 2009): the contract companies' shares are sold first."""
    game = dealing_round()
    buyer = game.active_entities()[0][0]
    error = refused(game, game.action("buy_share", buyer, company="MSM", source="ipo"))
    assert error.rule == "21.3"
    assert str(error) == "rule 21.3: the contract companies' shares must all be issued first"


def test_an_action_out_of_place_cites_the_section() -> None:
    """20 (3 in 2009): a dealing round buys and sells shares."""
    game = dealing_round()
    buyer = game.active_entities()[0][0]
    error = refused(game, game.action("place_bond", buyer, amount=100))
    assert str(error).startswith("rule 20: place_bond is not possible now")


def test_a_sale_then_a_purchase_of_the_same_company_cites_21_9() -> None:
    game = dealing_round()
    for _ in range(30):  # each player passes until one holding a sellable share is to act
        player = game.active_entities()[0][0]
        sellable = [a for a in game.legal_actions(player) if a["type"] == "sell_shares"]
        if sellable:
            break
        game.process(game.action("pass", player))
    else:
        pytest.fail("nobody could sell in the first dealing round")
    sale = sellable[0]
    game.process(sale)
    error = refused(game, game.action("buy_share", player, company=sale["company"],
                                      source="pool"))
    assert error.rule == "21.9", error


def test_a_finished_game_refuses_an_action_citing_40_and_undo_names_the_1989_rules() -> None:
    game = Game.from_log(json.loads((GAMES / "first" / "greedy-4p-seed5.json").read_text()),
                         check=False)
    assert game.finished
    player = game.settings.players[0]
    error = refused(game, game.action("pass", player))
    assert str(error) == "rule 40: the game is over"
    # The lay that fulfilled a contract revealed the bid's cities (31.25, 4.3.2 in 2009): it
    # cannot be undone, and the refusal says so in the 1989 numbers.
    revealing = next(n for n in range(1, len(game.log) + 1)
                     if any(p.bond_returned for p in game.at(n).state.players))
    at = game.at(revealing)
    last = at.log[-1]
    error = refused(at, at.action("undo", last["entity"]))
    assert error.rule == "undo"
    assert f"(action {revealing}) revealed" in str(error)
    assert "'s cities, 31.25)" in str(error) and "4.3.2" not in str(error)


def test_the_translation_of_an_engine_error() -> None:
    """The rule and the citations of the message; a dual citation keeps the 1989 part; a
    second-edition game and an error without 2009 numbers keep the error itself."""
    error = RuleError("4.8.10", "pay for the train first (3.4.3); train 3-2 (3-2), 3 to 6 (3-6)")
    own = in_own_numbering("first", error)
    assert isinstance(own, RuleError) and own.rule == "35.9"
    assert str(own) == "rule 35.9: pay for the train first (24.3); train 3-2 (3-2), 3 to 6 (3-6)"
    dual = in_own_numbering("first", RuleError("4.1.10 / 31.8", "runs off the grid"))
    assert str(dual) == "rule 31.8: runs off the grid"
    assert in_own_numbering("second", error) is error
    kept = RuleError("14.2", "a bid names 4 to 6 cities")
    assert in_own_numbering("first", kept) is kept
    field = in_own_numbering("first", InputError("bond: not allowed here (2.5.2)"))
    assert isinstance(field, InputError) and str(field) == "bond: not allowed here (14.4)"


def test_a_second_edition_game_keeps_the_2009_numbers() -> None:
    game = Game(Settings(THREE, seed=5))
    error = refused(game, game.action("place_bond", game.active_entities()[0][0], amount=5))
    assert error.rule == "2.5.2"
