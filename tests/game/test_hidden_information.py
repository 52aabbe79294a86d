"""Hidden information (2.5.2-2.5.4, 4.3.2): nothing in another player's view or the public view
gives away a secret bond or a bid's cities."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import act, check_replay, dick_jeff_lou, dick_jeff_lou_bids
from test_bids import refused

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings


def _players(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in view["players"]}


def test_no_view_reveals_a_secret_bond_through_cash_or_totals() -> None:
    game = Game(Settings(("Jeff", "Lou", "Dick"), seed=1))
    act(game, "place_bond", "Jeff", amount=137)
    for viewer in (None, "Lou", "Dick"):
        view = game.view(viewer)
        jeff = _players(view)["Jeff"]
        assert jeff["bond"] is None and jeff["cash"] is None
        assert view["bonds_held"] is None
        # No number anywhere in the view lets the amount be recovered.
        text = json.dumps(view)
        assert "137" not in text and str(730 - 137) not in text
    own = _players(game.view("Jeff"))["Jeff"]
    assert own["bond"] == 137 and own["cash"] == 730 - 137
    assert game.moderator_view()["bonds_held"] == 137
    # Players who have not written a bond show their cash: nothing of theirs is secret yet.
    assert _players(game.view(None))["Lou"]["cash"] == 730


def test_bonds_and_cash_are_public_once_every_bond_is_in() -> None:
    game = Game(Settings(("Jeff", "Lou", "Dick"), seed=1))
    for name, amount in (("Jeff", 100), ("Lou", 90), ("Dick", 130)):
        act(game, "place_bond", name, amount=amount)
    public = _players(game.view(None))
    assert public["Jeff"]["bond"] == 100 and public["Jeff"]["cash"] == 630
    assert game.view(None)["bonds_held"] == 320


# --- the undo barrier: an action that revealed a secret cannot be taken back -----------------

GREEDY = Path(__file__).resolve().parents[1] / "games" / "greedy-3p-seed3.json"


def test_the_bond_that_revealed_every_bond_cannot_be_undone() -> None:
    """2.5.3: once the last bond is in, everyone has seen every bond; undoing it would let its
    player bond again knowing the others (e.g. £1 more than the largest, for the Elephant)."""
    game = Game(Settings(("Jeff", "Lou", "Dick"), seed=1))
    act(game, "place_bond", "Jeff", amount=100)
    act(game, "place_bond", "Lou", amount=90)
    act(game, "undo", "Lou")  # nothing is revealed yet: a bond may be taken back
    act(game, "redo", "Lou")
    act(game, "place_bond", "Dick", amount=80)
    assert _players(game.view("Dick"))["Jeff"]["bond"] == 100
    refused(game, "undo", "undo", "Dick")
    with pytest.raises(RuleError, match=r"place_bond \(action 5\).*the bonds"):
        act(game, "undo", "Dick")
    # Play after the reveal may be undone and redone, down to the barrier and no further.
    act(game, "claim_city", "Jeff", city="Bombay", company="BBCI")
    act(game, "undo", "Jeff")
    act(game, "redo", "Jeff")
    act(game, "undo", "Jeff")
    refused(game, "undo", "undo", "Dick")
    refused(game, "redo", "redo", "Dick")  # Jeff's claim is the one to redo, and only by Jeff
    act(game, "redo", "Jeff")
    assert game.player("Jeff").claims == ["BBCI"]
    check_replay(game)  # the barrier is rebuilt from the log
    again = Game.from_log(game.to_log())
    act(again, "undo", "Jeff")
    refused(again, "undo", "undo", "Dick")


def test_the_action_that_fulfilled_a_contract_cannot_be_undone() -> None:
    """4.3.2: the lay or promotion that completes a contract reveals the bid's cities to all;
    undoing it would hide them again after they were seen, and let a controller test
    connections against the secret bids.  In the fixture game the GIP's promotion of J18
    (action 925) completes Ann's and Bob's contracts at once."""
    data = json.loads(GREEDY.read_text())
    game = Game.replay(Settings.from_json(data["settings"]), data["actions"][:924])
    assert {p["name"]: p["cities"] for p in game.view(None)["players"]}["Ann"] is None
    last = game.log[-1]["entity"]
    act(game, "undo", last)  # before the reveal, the last action may be taken back
    act(game, "redo", last)
    game.process({**data["actions"][924], "id": game.next_id()})
    revealing = game.log[-1]
    assert (revealing["type"], revealing["hex"]) == ("promote_tile", "J18")
    public = _players(game.view(None))
    assert public["Ann"]["cities"] and public["Bob"]["cities"]
    refused(game, "undo", "undo", "GIP")
    with pytest.raises(RuleError, match=r"Ann's cities.*Bob's cities"):
        act(game, "undo", "GIP")
    # The next action, after the reveal, may still be undone and redone.
    nxt = {**data["actions"][925], "id": game.next_id()}
    game.process(nxt)
    act(game, "undo", nxt["entity"])
    refused(game, "undo", "undo", "GIP")
    act(game, "redo", nxt["entity"])
    check_replay(game)


def test_settling_the_bbci_by_its_directors_bid_cannot_be_undone() -> None:
    """2.6.2: at the end of the first stock round the BBCI's type shows whether its director's
    bid names Ajmer and Bombay; the pass that ended the round cannot be undone."""
    game = dick_jeff_lou()
    dick_jeff_lou_bids(game)
    act(game, "pass", "Dick")
    act(game, "buy_share", "Jeff", company="BBCI", source="ipo")
    for name in ("Lou", "Dick"):
        act(game, "pass", name)
    act(game, "buy_share", "Jeff", company="BBCI", source="ipo")
    act(game, "pass", "Lou")
    act(game, "pass", "Dick")
    act(game, "undo", "Dick")  # the round has not ended: nothing is revealed
    act(game, "redo", "Dick")
    act(game, "pass", "Jeff")  # the round ends: directors, the BBCI a major
    assert game.company("BBCI").kind == "major"
    refused(game, "undo", "undo", "Jeff")
    with pytest.raises(RuleError, match="BBCI"):
        act(game, "undo", "Jeff")
    check_replay(game)
