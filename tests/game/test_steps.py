"""The steps as objects (rules/game/steps, issue 20 item 1): one object per decision, asked by
the dispatch, the legal actions, the turn model and the log; and the reason each option that is
not possible now carries, with the rule and the numbers, the same the engine gives when the
action is processed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings, steps
from india1853.rules.game.steps import STEPS, current, current_kind
from india1853.rules.game.turn import turn_model

GAMES = Path(__file__).resolve().parents[1] / "games"


def _at(fixture: str, actions: int) -> Game:
    data = json.loads((GAMES / fixture).read_text())
    return Game(Settings.from_json(data["settings"]), data["actions"][:actions])


def _reason(game: Game, entity: str, **fields: Any) -> RuleError:
    """The reason of the one disabled option of ``entity`` holding ``fields``."""
    found = [d for d in game.disabled_options(entity)
             if all(d.action.get(k) == v for k, v in fields.items())]
    assert len(found) == 1, found
    return found[0].reason


def _refused_alike(game: Game, entity: str, reason: RuleError, **fields: Any) -> None:
    """The engine refuses the disabled action with the same rule, and ``why_not`` gives the
    reason shown; the game is unchanged."""
    action = next(d.action for d in game.disabled_options(entity)
                  if all(d.action.get(k) == v for k, v in fields.items()))
    assert str(game.why_not(action)) == str(reason)
    log = list(game.log)
    with pytest.raises(RuleError) as refused:
        game.process({**action, "id": game.next_id(), "created_at": 0})
    assert refused.value.rule == reason.rule
    assert game.log == log


def test_the_share_limit_names_the_percentage_and_the_holding() -> None:
    game = _at("greedy-3p-seed3.json", 25)  # Cat holds 6 MSM shares; 3 players: 60%
    reason = _reason(game, "Cat", type="buy_share", company="MSM", source="ipo")
    assert str(reason) == ("rule 3.1.2: at most 6 shares (60%) of one company; Cat holds 6 "
                           "shares of MSM")
    assert not any(a["type"] == "buy_share" and a["company"] == "MSM"
                   for a in game.legal_actions("Cat"))
    _refused_alike(game, "Cat", reason, type="buy_share", company="MSM", source="ipo")


def test_a_train_too_dear_names_its_price_and_the_money() -> None:
    game = _at("greedy-3p-seed3.json", 69)  # GIP £180, director Bob £70
    reason = _reason(game, "GIP", type="buy_train", train="2")
    assert str(reason) == ("rule 4.8.8: the '2' train costs £300, GIP has £180 and its "
                           "director Bob £70 (£120 short)")
    assert not any(a["type"] == "buy_train" for a in game.legal_actions("GIP"))
    _refused_alike(game, "GIP", reason, type="buy_train", train="2")


def test_a_claim_the_ganges_rule_forbids_is_disabled_not_missing() -> None:
    game = _at("random-6p-seed13.json", 27)  # Bob's bid names two Ganges valley cities
    reason = _reason(game, "Bob", type="claim_city", city="Calcutta", company="EIR")
    assert str(reason) == ("rule 2.5.7: a bid may include at most 2 Ganges valley cities; "
                           "with Calcutta it would name 3")
    _refused_alike(game, "Bob", reason, type="claim_city", city="Calcutta", company="EIR")
    # The bid may not end yet either: the pass is disabled with the bond left over (2.5.4).
    assert "£270 of the bond is unaccounted for" in str(_reason(game, "Bob", type="pass"))


def test_a_directors_share_that_cannot_be_played_names_the_mik2_rule() -> None:
    game = _at("first/random-4p-seed2-mik2.json", 154)  # B: DS:BBCI:3, no ordinary BBCI
    reason = _reason(game, "B", type="play_card", card="DS:BBCI:3")
    assert reason.rule == "MIK 2, DIRECTOR'S SHARES"
    assert str(reason).startswith("rule MIK 2, DIRECTOR'S SHARES: B holds no ordinary BBCI "
                                  "share to put in the bank pool")
    _refused_alike(game, "B", reason, type="play_card", card="DS:BBCI:3")


def test_a_first_edition_game_cites_the_1989_rules_in_its_reasons() -> None:
    game = _at("first/greedy-4p-seed5.json", 35)  # Cat in the first dealing round
    rules = {d.reason.rule for d in game.disabled_options("Cat")}
    assert rules and all(not r.startswith("3.") for r in rules)
    assert {"21.3", "21.7"} <= rules
    model = turn_model(game, "Cat")
    disabled = model["decisions"][0]["disabled"]
    assert {d["rule"] for d in disabled} == rules
    assert all(d["reason"].startswith(f"rule {d['rule']}: ") for d in disabled)


def test_the_turn_model_lists_disabled_options_with_their_reasons() -> None:
    game = _at("greedy-3p-seed3.json", 69)
    model = turn_model(game, "Bob")
    (decision,) = model["decisions"]
    (train,) = decision["disabled"]
    assert train["type"] == "buy_train" and train["label"] == "Buy a '2' from the bank"
    assert train["action"]["id"] == game.next_id()
    assert train["rule"] == "4.8.8" and train["rule_summary"]
    assert train["ui"] == {"train": "2", "source": "bank", "price": 300}
    # A spectator, and another seat, get no decisions and so no reasons.
    assert turn_model(game, None)["decisions"] == []
    assert turn_model(game, "Ann")["decisions"] == []


def test_why_not_names_the_steps_rule_for_a_type_it_does_not_take() -> None:
    game = _at("greedy-3p-seed3.json", 25)
    action = {"type": "lay_tile", "entity": "Cat", "entity_type": "player", "hex": "H24",
              "tile": "5", "rotation": 1}
    assert str(game.why_not(action)) == ("rule 3: lay_tile is not possible now; expected "
                                         "buy_share or sell_shares or redeem_share or pass")
    legal = game.legal_actions("Cat")[0]
    assert game.why_not(legal) is None


def test_every_decision_of_two_games_is_a_registered_step() -> None:
    """Each moment someone decides, the step object answers for it: its kind is the one the
    state names, it takes the action played, and its legal actions are the engine's."""
    seen: set[str] = set()
    for fixture, limit in (("random-5p-seed2-shortened.json", 600),
                           ("first/random-4p-seed2-mik2.json", 400)):
        data = json.loads((GAMES / fixture).read_text())
        game = Game(Settings.from_json(data["settings"]))
        for action in data["actions"][:limit]:
            step = current(game.state)
            assert step is not None and step.kind == current_kind(game.state)
            assert STEPS[step.kind] is step
            assert action["type"] in step.actions
            seen.add(step.kind)
            game.process(action)
    assert {"bonds", "claims", "stock", "bids", "track", "run", "dividend", "trains",
            "kit_draw", "kit_action"} <= seen


def test_each_step_has_its_words_and_its_rule() -> None:
    for step in steps.STEPS.values():
        assert step.what and step.actions and step.rule
        if "pass" in step.actions:
            assert step.pass_option is not None
    assert [s.kind for s in steps.OPERATING_STEPS] == list(steps.OPERATING_STEP_KINDS)


def test_the_decision_of_a_company_names_its_step() -> None:
    game = _at("greedy-3p-seed3.json", 69)
    entity, _ = game.active_entities()[0]
    model = turn_model(game, game.decider(entity))
    assert model["active"][0]["what"] == ("GIP (director Bob) operates: buying trains - buy "
                                          "trains, or end its turn")
    assert model["active"][0]["step"] == "trains"
