"""Stock rounds (3.1-3.4) and the first stock round (2.6, 2.8, 2.9)."""

from __future__ import annotations

from helpers import act, check_invariants, finish_first_stock_round, four_player_start
from test_bids import refused


def test_first_round_sales_realise_par_less_5_and_only_at_first_opportunity() -> None:
    game = four_player_start()
    assert game.active_entities() == [("Ann", "player")]
    cash = game.player("Ann").cash
    act(game, "sell_shares", "Ann", company="GIP", count=1)  # not floated: any time
    assert game.player("Ann").cash == cash + 96 - 5
    act(game, "sell_shares", "Ann", company="EIR", count=1)  # contracted, first opportunity
    assert game.player("Ann").cash == cash + 91 + 95
    assert game.company("EIR").pool == 1
    refused(game, "3.1.9", "buy_share", "Ann", company="EIR", source="pool")
    act(game, "pass", "Ann")
    act(game, "pass", "Bob")
    # Cat's first turn: her contracted EIR shares may go now ...
    act(game, "buy_share", "Cat", company="GIP", source="ipo")
    act(game, "pass", "Dan")
    # ... but not later (2.8.3).
    refused(game, "2.8.3", "sell_shares", "Ann", company="EIR", count=1)
    act(game, "pass", "Ann")
    act(game, "pass", "Bob")
    refused(game, "2.8.3", "sell_shares", "Cat", company="EIR", count=1)
    check_invariants(game)


def test_pool_share_bought_at_par_before_any_price() -> None:
    game = four_player_start()
    act(game, "sell_shares", "Ann", company="GIP", count=1)
    act(game, "pass", "Ann")
    cash = game.player("Bob").cash
    act(game, "buy_share", "Bob", company="GIP", source="pool")
    assert game.player("Bob").cash == cash - 96
    assert game.company("GIP").pool == 0


def test_contract_companies_first() -> None:
    game = four_player_start()
    refused(game, "3.1.3", "buy_share", "Ann", company="NWR", source="ipo")
    act(game, "buy_share", "Ann", company="GIP", source="ipo")


def test_round_ends_when_all_decline_and_elephant_goes_left_of_last_buyer() -> None:
    game = four_player_start()
    act(game, "pass", "Ann")
    act(game, "buy_share", "Bob", company="GIP", source="ipo")
    for name in ("Cat", "Dan", "Ann"):
        act(game, "pass", name)
    assert game.state.round == "stock"
    act(game, "pass", "Bob")
    assert game.state.round == "stock_end"
    assert game.state.elephant == "Cat"
    # The Elephant may be sold: an offer and an acceptance.
    refused(game, "3.1.11", "offer_elephant", "Cat", buyer="Cat", price=10)
    act(game, "offer_elephant", "Cat", buyer="Dan", price=30)
    act(game, "reject_offer", "Dan")
    refused(game, "3.1.11", "offer_elephant", "Cat", buyer="Dan", price=20)
    act(game, "offer_elephant", "Cat", buyer="Ann", price=25)
    cat, ann = game.player("Cat").cash, game.player("Ann").cash
    act(game, "accept_offer", "Ann")
    assert game.state.elephant == "Ann"
    assert game.player("Cat").cash == cat + 25 and game.player("Ann").cash == ann - 25
    assert game.state.round == "operating"
    check_invariants(game)


def test_directors_appointed_and_companies_formed_at_end_of_first_round() -> None:
    game = four_player_start()
    eir = game.company("EIR")
    assert eir.floated and eir.director is None  # 2.9.1: not until the round ends
    finish_first_stock_round(game)
    # Ann and Cat hold two EIR shares each; Ann has held them longer (3.2.1).
    eir = game.company("EIR")
    assert eir.director == "Ann"
    assert eir.formed and eir.cash == 1000
    assert game.rules.market[eir.price_index or 0] == 100
    msm = game.company("MSM")
    assert msm.director == "Bob" and msm.cash == 800 and msm.kind == "minor"
    bases = {(b.company, b.hex) for b in game.state.board.bases}
    assert {("EIR", "J28"), ("EIR", "H24"), ("MSM", "R18")} <= bases
    # 2.8.4: a minor formed, so the extra trains come in and the '2' cards are '2/1M'.
    names = [t.name for t in game.state.trains]
    assert names.count("2/1M") == 7 and names.count("2M") == 3 and names.count("3M") == 4
    assert game.state.phase == 2
    check_invariants(game)


def _to_second_stock_round(game):  # type: ignore[no-untyped-def]
    finish_first_stock_round(game)
    while game.state.round != "stock":
        entity = game.active_entities()[0][0]
        step = game.state.turn.step if game.state.round == "operating" else ""
        if step == "lay_option":
            act(game, "choose_lay_option", entity, option=1)
        else:
            act(game, "pass", entity)


def test_later_round_director_at_once_and_no_sale_in_formation_round() -> None:
    game = four_player_start()
    _to_second_stock_round(game)
    assert game.state.stock_round == 2
    order = [e for e, _ in game.active_entities()]
    assert order == ["Ann"]
    # GIP: Ann 1, Cat 1 issued.  Buy up to the qualifying five.
    act(game, "buy_share", "Ann", company="GIP", source="ipo")
    act(game, "buy_share", "Bob", company="GIP", source="ipo")
    act(game, "pass", "Cat")
    assert not game.company("GIP").formed
    act(game, "buy_share", "Dan", company="GIP", source="ipo")
    gip = game.company("GIP")
    assert gip.formed and gip.director == "Ann"  # 3.2.1: at once
    assert gip.cash == 960
    refused(game, "3.1.8", "sell_shares", "Ann", company="GIP", count=1)
    check_invariants(game)


def test_director_changes_when_exceeded_and_manager_when_nobody_has_two() -> None:
    game = four_player_start()
    _to_second_stock_round(game)
    # MSM: Bob 3 (director), Dan 2.  Bob sells two: Dan, now holding more, takes over.
    act(game, "pass", "Ann")
    act(game, "sell_shares", "Bob", company="MSM", count=2)
    assert game.company("MSM").director == "Dan"
    act(game, "pass", "Bob")
    act(game, "pass", "Cat")
    act(game, "sell_shares", "Dan", company="MSM", count=1)
    msm = game.company("MSM")
    # Bob 1, Dan 1: nobody qualifies; the previous director manages (3.4.1).
    assert msm.director is None and msm.manager == "Dan"
    check_invariants(game)


def test_holding_limits() -> None:
    game = four_player_start()
    _to_second_stock_round(game)
    game.state.player("Ann").cash = 5000  # arrange: money is not the question here
    for _ in range(3):
        act(game, "buy_share", "Ann", company="EIR", source="ipo")
        for name in ("Bob", "Cat", "Dan"):
            act(game, "pass", name)
    # Ann holds 5 EIR shares and the EIR has 2 new shares left (5 issued by the bids).
    assert game.player("Ann").shares["EIR"] == 5
    act(game, "buy_share", "Ann", company="EIR", source="ipo")
    for name in ("Bob", "Cat", "Dan"):
        act(game, "pass", name)
    # Four players: at most 6 shares of one company (TABLE 3).
    refused(game, "3.1.2", "buy_share", "Ann", company="EIR", source="ipo")
