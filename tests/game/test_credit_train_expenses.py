"""A Manager owing for a train bought on credit: the second edition bars every other expense
(3.4.6); the first edition's Manager "must meet all other expenses when they are incurred"
(24.6), so track costs and bases are paid as usual.  A second train waits for the debt in both
(3.4.6 / 24.3; docs/rulings.md)."""

from __future__ import annotations

import pytest

from india1853.rules.game import Game, Settings
from india1853.rules.game.board_port import context, owes_for_credit_train
from india1853.rules.game.scenario import build


def _at_track(edition: str) -> tuple[Game, str]:
    """A game whose operating company is at its track step, arranged to owe for a train."""
    game = build(Settings(("Ann", "Bob", "Cat", "Dan"), seed=3, edition=edition),
                 ["operating round 1"])
    while game.state.turn.step != "track":
        company = game.state.turn.order[game.state.turn.index]
        options = [a for a in game.legal_actions(company) if a["type"] == "choose_lay_option"]
        game.process(options[-1] if options else game.action("pass", company))
    company = game.state.turn.order[game.state.turn.index]
    co = game.company(company)
    # Arrange the debt: the company's first train card is held on credit.
    co.credit_train = "arranged"
    return game, company


@pytest.mark.parametrize(("edition", "barred"), [("second", True), ("first", False)])
def test_the_edition_decides_whether_the_debt_bars_other_expenses(edition: str,
                                                                  barred: bool) -> None:
    game, company = _at_track(edition)
    co = game.company(company)
    assert owes_for_credit_train(game.rules, co) is barred
    assert context(game.rules, game.state, co).owes_credit_train is barred


def _lays(game: Game, company: str) -> list[tuple[str, str, int]]:
    return sorted((a["hex"], a["tile"], a["rotation"]) for a in game.legal_actions(company)
                  if a["type"] == "lay_tile")


@pytest.mark.parametrize(("edition", "barred"), [("second", True), ("first", False)])
def test_the_lays_offered_with_the_debt(edition: str, barred: bool) -> None:
    """With the debt, the second edition offers only the free lays (3.4.6); the first edition
    offers every lay it offers without it, the costly ones too (24.6)."""
    game, company = _at_track(edition)
    owing = _lays(game, company)
    game.company(company).credit_train = None
    free_to_spend = _lays(game, company)
    assert owing
    if barred:
        assert set(owing) < set(free_to_spend)
    else:
        assert owing == free_to_spend
