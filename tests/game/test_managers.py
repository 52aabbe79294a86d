"""Companies with no director (3.4): who manages them, and the manager's train on credit."""

from __future__ import annotations

from helpers import act, check_invariants, check_replay, four_player_start
from test_bids import refused
from test_operating import set_cash, started, to_trains_step
from test_stock_round import to_next_stock_round

from india1853.rules.game import Game


def _controller(game: Game, company: str) -> str | None:
    controller: str | None = game.view(None)["companies"][company]["controller"]
    return controller


def test_manager_is_the_longest_holder_then_the_elephants_holder() -> None:
    """3.4.1: with only single holders the previous director manages if he still holds a
    share, else the longest holder; with no holder at all the Elephant's holder, changing
    when the Elephant is sold."""
    game = four_player_start()
    to_next_stock_round(game)
    # MSM after the bids: Bob 3 (director), Dan 2.
    act(game, "pass", "Ann")
    act(game, "sell_shares", "Bob", company="MSM", count=2)
    assert game.company("MSM").director == "Dan"  # Dan now holds more (3.2.3)
    act(game, "pass", "Bob")
    act(game, "buy_share", "Cat", company="MSM", source="pool")
    act(game, "sell_shares", "Dan", company="MSM", count=2)
    msm = game.company("MSM")
    # Bob and Cat hold one each; Dan, the previous director, holds none: Bob has held his
    # share since the bids, Cat since this round.
    assert msm.director is None and msm.manager == "Bob"
    assert _controller(game, "MSM") == "Bob"
    act(game, "pass", "Dan")
    act(game, "pass", "Ann")
    act(game, "sell_shares", "Bob", company="MSM", count=1)
    assert game.company("MSM").manager == "Cat"  # the only holder left
    act(game, "pass", "Bob")
    act(game, "sell_shares", "Cat", company="MSM", count=1)  # bought in an earlier turn
    assert game.company("MSM").manager is None and game.company("MSM").pool == 5
    act(game, "pass", "Cat")  # four declines in a row: the round ends
    assert game.state.round == "stock_end"
    assert game.state.elephant == "Dan"  # left of Cat, the last buyer
    assert _controller(game, "MSM") == "Dan"
    act(game, "offer_elephant", "Dan", buyer="Ann", price=0)
    act(game, "accept_offer", "Ann")
    assert _controller(game, "MSM") == "Ann"
    check_invariants(game)
    check_replay(game)


def _msm_managed_at_its_trains_step(cash: int) -> Game:
    """The first operating round at the MSM's trains step, the MSM arranged to be run by a
    manager (Bob) with ``cash`` in its treasury."""
    game = started()
    to_trains_step(game, "EIR")
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    msm = game.company("MSM")
    msm.director, msm.manager = None, "Bob"  # arrange: a managed company
    set_cash(game, "MSM", cash)
    return game


def test_credit_only_for_a_company_without_a_train_that_cannot_afford_one() -> None:
    """3.4.3: credit "enables a Company which lacks a train, and which cannot afford to buy
    one, to continue in operation"."""
    game = _msm_managed_at_its_trains_step(180)
    refused(game, "3.4.3", "buy_train", "MSM", train="1M", credit=True)  # £180 pays for it
    act(game, "buy_train", "MSM", train="1M")
    set_cash(game, "MSM", 0)
    refused(game, "3.4.3", "buy_train", "MSM", train="2", credit=True)  # it owns a train
    game = _msm_managed_at_its_trains_step(179)
    act(game, "buy_train", "MSM", train="1M", credit=True)
    assert game.company("MSM").credit_train is not None
    check_invariants(game)


def _eir_in_the_extra_round_with_msm_owing() -> Game:
    """The MSM's manager bought a '2' on credit; the Elephant's holder calls the extra
    operating round (4.9) and the EIR reaches its trains step."""
    game = _msm_managed_at_its_trains_step(100)
    act(game, "buy_train", "MSM", train="2", credit=True)
    act(game, "pass", "MSM")
    act(game, "call_extra_or", game.state.elephant or "")
    to_trains_step(game, "EIR")
    return game


def test_a_train_on_credit_cannot_be_sold_to_another_company() -> None:
    """3.4.5: "A train must be fully paid for BEFORE it may be sold to another Company"."""
    game = _eir_in_the_extra_round_with_msm_owing()
    set_cash(game, "EIR", 1_000)
    refused(game, "3.4.5", "buy_train", "EIR", train="2", source="MSM", price=10)
    act(game, "buy_train", "EIR", train="2")  # from the bank, as usual
    check_invariants(game)


def test_the_debt_ends_with_the_train_on_credit_when_it_rusts() -> None:
    """docs/rulings.md: the credit train's debt is owed for that card; when a phase change
    returns the card to the bank (4.8.4), nothing more is owed, as when a new director
    returns it (4.8.10)."""
    game = _eir_in_the_extra_round_with_msm_owing()
    for t in game.state.trains:
        if t.where == "bank" and t.name in ("2/1M", "3"):
            t.where = "removed"  # arrange: the other 2s and 3s are gone
    game.state.phase = 3
    set_cash(game, "EIR", 5_000)
    bank = game.state.bank
    act(game, "buy_train", "EIR", train="4")  # Phase 4: the '2' is obsolete (4.8.4)
    msm = game.company("MSM")
    assert game.state.phase == 4 and msm.credit_train is None
    assert not game.state.company_trains("MSM")
    assert game.state.bank == bank + 620  # the EIR's '4'; nobody pays for the lost '2'
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    refused(game, "3.4.3", "repay_credit", "MSM")  # nothing is owed
    check_invariants(game)
