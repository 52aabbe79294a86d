"""Hidden information (2.5.2-2.5.4, 4.3.2): nothing in another player's view or the public view
gives away a secret bond or a bid's cities."""

from __future__ import annotations

import json
from typing import Any

from helpers import act

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
