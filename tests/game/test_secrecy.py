"""The one declaration of secrets (rules/game/secrecy.py) through the engine's Python API: each
declared secret hidden from everyone but its owner until its rule reveals it, an undone secret
until the end, history never showing more than now, and everything public after the end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.rules.game import Game, Settings
from india1853.rules.game.secrecy import (
    ACTION_SECRETS,
    as_made,
    observe_action,
    observed_log,
    seed_commitment,
)

GAMES = Path(__file__).resolve().parents[1] / "games"


def _log(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GAMES / name).read_text())
    return data


def _bond(game: Game, who: str, amount: int) -> None:
    game.process(game.action("place_bond", who, amount=amount))


def test_a_bond_is_hidden_from_others_until_every_bond_is_in() -> None:
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    _bond(game, "Ann", 140)
    assert observe_action(game, 1, None) == {k: v for k, v in game.log[0].items()
                                             if k != "amount"} | {"hidden": ["amount"]}
    assert observe_action(game, 1, "Bob").get("amount") is None
    assert observe_action(game, 1, "Ann")["amount"] == 140
    assert observe_action(game, 1, None, moderator=True)["amount"] == 140
    # Taken back and written again: the first bond is not among the bonds revealed.
    game.process(game.action("undo", "Ann"))
    _bond(game, "Ann", 150)
    _bond(game, "Bob", 100)
    before = Game.replay(game.settings, game.log, check=False)
    _bond(game, "Cat", 110)
    seen = observed_log(game, "Bob")
    assert "amount" not in seen[0]  # undone: secret until the end
    assert [a["amount"] for a in seen[2:]] == [150, 100, 110]  # revealed (2.5.3)
    # History: as of the point before the last bond, nothing was revealed yet.
    past = observed_log(game, "Bob", as_of=before)
    assert len(past) == len(before.log)
    assert [a.get("amount") for a in past[2:]] == [None, 100]


def test_a_first_edition_bid_shows_its_shares_sorted_once_every_bid_is_in() -> None:
    data = _log("first/greedy-4p-seed5.json")
    settings = Settings.from_json(data["settings"])
    game = Game(settings, data["actions"][:1])
    assert "claims" not in observe_action(game, 1, "Bob")  # 14.5: the whole bid is secret
    assert as_made(game.log[0]) == {k: v for k, v in game.log[0].items()
                                    if k != "claims"} | {"hidden": ["claims"]}
    game = Game(settings, data["actions"][:4])  # 15.1: every bid is in
    bid = observe_action(game, 2, "Ann")
    assert bid["claims"] == [{"company": "NWR"}] * 3 and bid["hidden"] == ["claims[].city"]
    over = Game.from_log(data, check=False)
    assert observed_log(over, None) == over.log  # 5.1: everything public at the end


def test_mik2_rejected_cards_stay_face_down_until_the_end() -> None:
    data = _log("first/greedy-4p-seed3-mik2-alt-start.json")
    settings = Settings.from_json(data["settings"])
    game = Game.replay(settings, data["actions"][:600], check=False)
    rejected = observe_action(game, 544, None)
    assert rejected["type"] == "reject_cards" and "cards" not in rejected
    assert observe_action(game, 544, "C")["cards"] == ["COMMODITY:TEA"]
    over = Game.from_log(data, check=False)
    assert observe_action(over, 544, None)["cards"] == ["COMMODITY:TEA"]


def test_every_declared_secret_names_an_action_field() -> None:
    from india1853.rules.game.actions import ACTION_TYPES

    for kind, secrets in ACTION_SECRETS.items():
        for secret in secrets:
            assert secret.field.partition("[].")[0] in ACTION_TYPES[kind].fields


@pytest.mark.parametrize("seed", [0, 7, -3, 2**128 - 1])
def test_the_seed_commitment_is_the_sha256_of_its_digits(seed: int) -> None:
    import hashlib

    assert seed_commitment(seed) == hashlib.sha256(str(seed).encode()).hexdigest()
