"""Stock rounds (3.1-3.4) and the first stock round (2.6, 2.8, 2.9)."""

from __future__ import annotations

import pytest
from helpers import (
    act,
    check_invariants,
    check_replay,
    claim_in_turn,
    finish_first_stock_round,
    four_player_start,
)
from test_bids import refused

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.shares import certificates


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
    check_replay(game)


def test_a_share_sold_in_the_first_stock_round_stays_in_the_pool_until_the_next() -> None:
    """2.8.1: "once sold they may not be bought from the Pool until the NEXT Stock Round" -
    the shares, by anyone, not only by the seller (3.1.9); docs/rulings.md."""
    game = four_player_start()
    act(game, "sell_shares", "Ann", company="GIP", count=1)
    act(game, "pass", "Ann")
    refused(game, "2.8.1", "buy_share", "Bob", company="GIP", source="pool")
    assert not any(a["type"] == "buy_share" and a["source"] == "pool"
                   for a in game.legal_actions("Bob"))
    act(game, "buy_share", "Bob", company="GIP", source="ipo")  # a new share still may be
    finish_first_stock_round(game)
    assert game.company("GIP").pool == 1
    check_replay(game)


def test_pool_share_bought_at_par_before_any_price_under_the_old_reading() -> None:
    """The variant first_round_pool_open (the reading of 2.8.1 before issue 13, under which
    two fixture games were recorded): only the seller is barred."""
    game = four_player_start(variants=("first_round_pool_open",))
    act(game, "sell_shares", "Ann", company="GIP", count=1)
    refused(game, "3.1.9", "buy_share", "Ann", company="GIP", source="pool")
    act(game, "pass", "Ann")
    cash = game.player("Bob").cash
    act(game, "buy_share", "Bob", company="GIP", source="pool")
    assert game.player("Bob").cash == cash - 96
    assert game.company("GIP").pool == 0
    check_replay(game)


def test_contract_companies_first() -> None:
    game = four_player_start()
    refused(game, "3.1.3", "buy_share", "Ann", company="NWR", source="ipo")
    act(game, "buy_share", "Ann", company="GIP", source="ipo")
    check_replay(game)


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
    dan_cash = game.player("Dan").cash
    refused(game, "3.1.11", "offer_elephant", "Cat", buyer="Dan", price=dan_cash + 1)
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
    check_replay(game)


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
    check_replay(game)


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
    check_replay(game)


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
    check_replay(game)


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


def to_next_stock_round(game: Game) -> None:
    """Play on to the next stock round: every choice declined, a major's first turn taking
    the first double-lay option."""
    if game.state.round == "stock":
        finish_first_stock_round(game)
    while game.state.round != "stock":
        entity = game.active_entities()[0][0]
        operating = game.state.round == "operating" and not game.state.pending
        if operating and game.state.turn.step == "lay_option":
            act(game, "choose_lay_option", entity, option=1)
        else:
            act(game, "pass", entity)


def _give(game: Game, name: str, company: str, shares: int) -> None:
    """Arrange: new shares handed to a player (holdings are the question, not money)."""
    player, co = game.player(name), game.company(company)
    player.shares[company] = player.shares.get(company, 0) + shares
    player.since.setdefault(company, game.state.seq)
    co.ipo -= shares


def _gip_floats_in_the_first_round() -> Game:
    """Ann holds GIP: one contracted share and one bought in this round; Dan's purchase floats
    the GIP, so Ann's next turn is her first opportunity after its flotation (2.8.3)."""
    game = four_player_start()
    act(game, "buy_share", "Ann", company="GIP", source="ipo")
    act(game, "buy_share", "Bob", company="EIR", source="ipo")
    act(game, "buy_share", "Cat", company="GIP", source="ipo")
    act(game, "buy_share", "Dan", company="GIP", source="ipo")
    assert game.company("GIP").floated and game.player("Ann").shares["GIP"] == 2
    return game


def test_first_round_window_sells_only_the_contracted_shares_even_split() -> None:
    """2.8.3: after flotation only contracted shares, at the first opportunity; a second sale
    in the same turn cannot reach the share bought this round."""
    game = _gip_floats_in_the_first_round()
    refused(game, "2.8.3", "sell_shares", "Ann", company="GIP", count=2)
    act(game, "sell_shares", "Ann", company="GIP", count=1)
    refused(game, "2.8.3", "sell_shares", "Ann", company="GIP", count=1)
    assert game.player("Ann").shares["GIP"] == 1
    act(game, "pass", "Ann")
    # Bob bought his EIR share in this round: not contracted, so never sellable in it, though
    # the EIR floated from the bids.
    refused(game, "2.8.3", "sell_shares", "Bob", company="EIR", count=1)
    # His contracted MSM shares had their first opportunity in his first turn, which he used
    # to buy: that window is gone too.
    refused(game, "2.8.3", "sell_shares", "Bob", company="MSM", count=1)
    check_invariants(game)
    check_replay(game)


def _six_players_bbci_under_a_manager() -> Game:
    """Six players (qualifying number 4).  The bids issue one BBCI share each to Ann, Bob, Cat
    and Dan - Ann's bid names Bombay and Ajmer - so the BBCI floats with nobody holding two;
    the SIR has three single holders (Ann, Bob, Cat), not yet floated."""
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    game = Game(Settings(names, seed=0))
    for name, bond in zip(names, (95, 90, 85, 80, 75, 60), strict=True):
        act(game, "place_bond", name, amount=bond)
    bids = {"Ann": [("Bombay", "BBCI"), ("Ajmer", "GIP"), ("Mysore", "SIR")],
            "Bob": [("Karachi", "BBCI"), ("Trichinopoly", "SIR"), ("Hyderabad", "GIP")],
            "Cat": [("Jaipur", "BBCI"), ("Bangalore", "SIR"), ("Lahore", "NWR")],
            "Dan": [("Ahmadabad", "BBCI"), ("Peshawar", "NWR"), ("Rawalpindi", "NWR")],
            "Eve": [("Hyderabad", "BNR"), ("Nagpur", "BNR"), ("Waltair", "BNR")],
            "Fay": [("Mysore", "MSM"), ("Bangalore", "MSM"), ("Hyderabad", "MSM")]}
    claim_in_turn(game, bids, to_the_end=True)
    assert game.company("BBCI").floated and not game.company("SIR").floated
    return game


def test_bbci_floated_without_a_director_is_a_minor_run_by_a_manager() -> None:
    """2.6.3: "In all other circumstances Company 5 is a Minor one" - here it has no director
    at the end of the first stock round (3.2.2), though Ann's bid names Ajmer and Bombay; the
    longest holder manages it (3.4.1).  A director appointed later does not change it."""
    game = _six_players_bbci_under_a_manager()
    finish_first_stock_round(game)
    bbci = game.company("BBCI")
    assert bbci.formed and bbci.kind == "minor" and bbci.director is None
    assert bbci.manager == "Ann"  # she has held her share the longest (her claim came first)
    assert "BBCI" not in game.state.undo_barrier_reason  # no director's bid was consulted
    to_next_stock_round(game)
    act(game, "buy_share", "Ann", company="BBCI", source="ipo")
    assert game.company("BBCI").director == "Ann" and game.company("BBCI").kind == "minor"
    check_invariants(game)
    check_replay(game)


def test_no_sale_in_the_round_a_company_floats_even_under_a_manager() -> None:
    """3.1.8 as ruled (docs/rulings.md): the ban falls on the round in which the company floats
    and forms - under a manager when nobody holds two shares (3.2.2) - and a director first
    appointed in a later round, in a company already running, brings no new ban."""
    game = _six_players_bbci_under_a_manager()
    to_next_stock_round(game)
    assert game.state.stock_round == 2 and game.active_entities() == [("Ann", "player")]
    act(game, "buy_share", "Ann", company="BBCI", source="ipo")  # the BBCI's first director
    assert game.company("BBCI").director == "Ann"
    act(game, "sell_shares", "Bob", company="BBCI", count=1)  # formed in the first round
    act(game, "pass", "Bob")
    act(game, "pass", "Cat")
    act(game, "buy_share", "Dan", company="SIR", source="ipo")  # fourth single holder
    sir = game.company("SIR")
    assert sir.formed and sir.director is None and sir.manager == "Bob"  # held longest
    act(game, "pass", "Eve")
    act(game, "pass", "Fay")
    refused(game, "3.1.8", "sell_shares", "Ann", company="SIR", count=1)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        act(game, "pass", name)
    assert game.state.round == "stock_end"
    to_next_stock_round(game)
    while game.active_entities() != [("Ann", "player")]:
        act(game, "pass", game.active_entities()[0][0])
    act(game, "sell_shares", "Ann", company="SIR", count=1)  # the next stock round: allowed
    check_invariants(game)
    check_replay(game)


def test_pool_shares_count_towards_flotation() -> None:
    """3.1.10: a share sold into the pool stays issued: the GIP floats at five issued with
    only four held by players."""
    game = four_player_start()
    act(game, "sell_shares", "Ann", company="GIP", count=1)  # not floated: any time
    act(game, "pass", "Ann")
    act(game, "buy_share", "Bob", company="GIP", source="ipo")
    act(game, "buy_share", "Cat", company="GIP", source="ipo")
    gip = game.company("GIP")
    assert not gip.floated and gip.pool == 1  # four issued, one of them in the pool
    act(game, "buy_share", "Dan", company="GIP", source="ipo")
    gip = game.company("GIP")
    assert gip.floated and gip.pool == 1
    assert sum(p.shares.get("GIP", 0) for p in game.state.players) == 4
    check_replay(game)


def test_the_other_companies_open_once_the_contract_companies_are_issued() -> None:
    """3.1.3: the bids issue all eight ordinary NWR shares and four BBCI shares; the other
    companies stay closed until the last new BBCI share is bought.  The BBCI's director's bid
    names neither Ajmer nor Bombay, so it is a minor (2.6.2-2.6.3)."""
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=0))
    for name, bond in (("Ann", 82), ("Bob", 81), ("Cat", 80)):
        act(game, "place_bond", name, amount=bond)
    bids = {"Ann": [("Peshawar", "NWR"), ("Rawalpindi", "NWR"), ("Lahore", "NWR"),
                    ("Ahmadabad", "BBCI")],
            "Bob": [("Multan", "NWR"), ("Jaipur", "NWR"), ("Ajmer", "NWR"), ("Karachi", "BBCI")],
            "Cat": [("Peshawar", "NWR"), ("Lahore", "NWR"), ("Nagpur", "BBCI"),
                    ("Jaipur", "BBCI")]}
    for _ in range(4):
        for name in ("Ann", "Bob", "Cat"):
            city, company = bids[name].pop(0)
            act(game, "claim_city", name, city=city, company=company)
    for name in ("Ann", "Bob", "Cat"):
        act(game, "pass", name)
    assert game.company("NWR").ipo == 2 and game.company("BBCI").ipo == 6
    for name in ("Ann", "Bob", "Cat"):
        act(game, "buy_share", name, company="BBCI", source="ipo")
    refused(game, "3.1.3", "buy_share", "Ann", company="GIP", source="ipo")
    act(game, "buy_share", "Ann", company="BBCI", source="ipo")  # the last ordinary share
    act(game, "buy_share", "Bob", company="GIP", source="ipo")
    assert game.player("Bob").shares["GIP"] == 1
    finish_first_stock_round(game)
    bbci = game.company("BBCI")
    assert bbci.director == "Cat" and bbci.kind == "minor"  # Ann 3, Cat 3: Cat held longer
    check_invariants(game)
    check_replay(game)


def test_certificate_limit_counts_the_directors_certificate_as_one() -> None:
    """TABLE 3 / 3.1.2: at most 16 certificates with four players, the director's certificate
    (two shares) counting one; shares at £40 or less are exempt."""
    game = four_player_start()
    to_next_stock_round(game)
    assert game.company("EIR").director == "Ann" and game.player("Ann").shares["EIR"] == 2
    for company, shares in (("NWR", 4), ("BNR", 4), ("SIR", 4), ("ECR", 1)):
        _give(game, "Ann", company, shares)
    # 13 + GIP 1 + the EIR director's certificate 1 = 15 certificates for 16 shares.
    assert certificates(game.rules, game.state, game.player("Ann")) == 15
    act(game, "buy_share", "Ann", company="EIR", source="ipo")  # the 16th certificate
    act(game, "sell_shares", "Bob", company="MSM", count=1)  # one MSM share in the pool
    act(game, "pass", "Bob")
    act(game, "pass", "Cat")
    act(game, "pass", "Dan")
    refused(game, "3.1.2", "buy_share", "Ann", company="GIP", source="ipo")
    market = game.rules.market
    game.company("MSM").price_index = market.index(40) + 1  # arrange: MSM at £49
    refused(game, "3.1.2", "buy_share", "Ann", company="MSM", source="pool")
    game.company("MSM").price_index = market.index(40)  # arrange: MSM at £40, exempt
    cash = game.player("Ann").cash
    act(game, "buy_share", "Ann", company="MSM", source="pool")
    assert game.player("Ann").cash == cash - 40
    assert certificates(game.rules, game.state, game.player("Ann")) == 16
    check_invariants(game)


def test_a_former_director_over_the_limit_must_sell_down() -> None:
    """3.2.3: a director replaced by a larger holder keeps his shares as ordinary
    certificates; above the limit, he must sell down in his next turn before passing."""
    game = four_player_start()
    to_next_stock_round(game)
    for company, shares in (("NWR", 4), ("BNR", 4), ("SIR", 4), ("ECR", 2)):
        _give(game, "Bob", company, shares)
    bob = game.player("Bob")
    assert game.company("MSM").director == "Bob" and bob.shares["MSM"] == 3
    assert certificates(game.rules, game.state, bob) == 16  # at the limit, legally
    for name in ("Ann", "Bob", "Cat"):
        act(game, "pass", name)
    act(game, "buy_share", "Dan", company="MSM", source="ipo")  # Dan 3, Bob 3: Bob stays
    for name in ("Ann", "Bob", "Cat"):
        act(game, "pass", name)
    act(game, "buy_share", "Dan", company="MSM", source="ipo")  # Dan 4: he takes over
    assert game.company("MSM").director == "Dan"
    assert certificates(game.rules, game.state, game.player("Bob")) == 17
    act(game, "pass", "Ann")
    refused(game, "3.2.3", "pass", "Bob")
    assert {a["type"] for a in game.legal_actions("Bob")} == {"sell_shares"}
    act(game, "sell_shares", "Bob", company="MSM", count=1)
    act(game, "pass", "Bob")
    check_invariants(game)


def test_selling_more_shares_than_held_says_so() -> None:
    """Issue 13, item 5: a player holding one paid EIR share who asks to sell two is told he
    holds one, not that un-redeemed shares may not be sold."""
    game = four_player_start()
    for name in ("Ann", "Bob", "Cat"):
        act(game, "pass", name)
    assert game.player("Dan").shares["EIR"] == 1 and not game.player("Dan").unredeemed
    refused(game, "3.1.5", "sell_shares", "Dan", company="EIR", count=2)
    with pytest.raises(RuleError, match="Dan holds 1 share of EIR, not 2"):
        act(game, "sell_shares", "Dan", company="EIR", count=2)
