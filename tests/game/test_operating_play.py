"""Operating rounds (4.3-4.7, 4.10) and the end (5.1) played in positions of the fixture games.

Each test rebuilds a position of a complete game log in tests/games through the public API and
then acts with ``Game.process``: the legal move is accepted with its effects, the illegal one
refused naming its rule with the game unchanged.
"""

from __future__ import annotations

from fixture_positions import act, before, logged, offered, play, refused

from india1853.rules.game import Game

GREEDY = "greedy-3p-seed3"
SHORT = "random-5p-seed2-shortened"


def price(game: Game, company: str) -> int:
    return int(game.view(None)["companies"][company]["price"])


def cities_seen(game: Game, viewer: str | None) -> dict[str, list[str] | None]:
    return {p["name"]: p["cities"] for p in game.view(viewer)["players"]}


# --- 4.3 contracts -----------------------------------------------------------------------------

def test_a_contract_is_fulfilled_at_once_and_its_bid_revealed() -> None:
    """4.3.1-4.3.2: GREEDY, action 925: the GIP's promotion of J18 joins Delhi to the other
    cities of Ann's and of Bob's bids; both bonds come back at once and both bids are shown
    to everyone.  Cat's bid stays secret."""
    game = before(GREEDY, 924)
    cash = {p.name: p.cash for p in game.state.players}
    assert cities_seen(game, None) == {"Ann": None, "Cat": None, "Bob": None}
    assert cities_seen(game, "Cat")["Ann"] is None and cities_seen(game, "Ann")["Bob"] is None
    # An illegal promotion is refused and reveals nothing.
    refused(game, "4.2.4-4.2.6 / 31.14-31.16", "promote_tile", "GIP", hex="J18", tile="718",
            rotation=0)
    assert cities_seen(game, None) == {"Ann": None, "Cat": None, "Bob": None}
    promotion = logged(GREEDY, 924)
    assert {k: promotion[k] for k in ("hex", "tile", "rotation")} in offered(
        game, "GIP", "promote_tile")
    play(game, promotion)
    for name in ("Ann", "Bob"):
        assert game.player(name).bond_returned
        assert game.player(name).cash == cash[name] + 100  # the bond, at once
    seen = cities_seen(game, None)
    assert seen["Ann"] == ["Jaipur", "Delhi", "Cawnpore", "Nagpur"]
    assert seen["Bob"] == ["Jaipur", "Delhi", "Ajmer", "Nagpur"]
    assert seen["Cat"] is None and cities_seen(game, "Bob")["Cat"] is None
    assert cities_seen(game, "Cat")["Ann"] == seen["Ann"]
    assert game.view(None)["bonds_held"] == 100  # Cat's alone


# --- 4.5-4.7 runs, dividends, the share price --------------------------------------------------

GIP_RUN = 1744  # random-6p-seed13: the GIP's run step, trains '4' and '4M'


def test_the_optimum_is_offered_first_and_any_legal_run_accepted() -> None:
    """4.5-4.6: the router's optimum comes first; a company may run less (one train only,
    no mail train); an illegal set is refused and changes nothing."""
    game = before("random-6p-seed13", GIP_RUN)
    assert game.active_entities() == [("GIP", "company")]
    runs = offered(game, "GIP", "run_routes")
    best = runs[0]["routes"]
    assert [r["train"] for r in best] == ["4", "4M"] and best[1]["mail"]
    act(game, "run_routes", "GIP", routes=best)
    optimum = game.state.turn.revenue
    game = before("random-6p-seed13", GIP_RUN)
    act(game, "run_routes", "GIP", routes=[{**best[0], "mail": False}])
    assert 0 < game.state.turn.revenue < optimum
    assert game.state.turn.step == "trains"  # the GIP has a manager: withheld (3.4.2)
    game = before("random-6p-seed13", GIP_RUN)
    cash = game.company("GIP").cash
    act(game, "run_routes", "GIP", routes=[best[1]])  # the '4M' alone, as the mail train
    assert game.company("GIP").cash > cash  # its mail
    game = before("random-6p-seed13", GIP_RUN)
    refused(game, "4.6.6", "run_routes", "GIP", routes=[{**r, "mail": True} for r in best])
    metre_on_broad = {**best[1], "hexes": best[0]["hexes"]}
    refused(game, "4.5.3", "run_routes", "GIP", routes=[best[0], metre_on_broad])


def test_no_run_offers_only_the_pass() -> None:
    """When the company's trains find no run, the run step offers only ``pass`` (no empty
    "optimum"); an empty run, as older logs recorded, is still the same as a pass
    (random-3p-seed11, action 113: the BBCI's '2' and '2M' have no run)."""
    game = before("random-3p-seed11", 112)
    assert game.legal_actions("BBCI") == [{"type": "pass", "entity": "BBCI",
                                           "entity_type": "company", "id": game.next_id(),
                                           "created_at": 0}]
    act(game, "pass", "BBCI")
    recorded = before("random-3p-seed11", 112)
    play(recorded, logged("random-3p-seed11", 112))
    assert recorded.log[-1]["routes"] == []
    assert recorded.state == game.state


def test_dividend_to_paid_shares_and_the_mail_to_the_company() -> None:
    """4.6.4-4.6.6, 2.7.4: random-3p-seed3, actions 397-398: the NWR's '2' runs as the mail
    train; the mail goes to the NWR at the run, then the £70 run is paid out, £7 a share, to
    Cat's one share and Bob's two; Ann's un-redeemed share, the two pool shares and the four
    in the offering get nothing."""
    game = before("random-3p-seed3", 396)
    nwr = game.company("NWR")
    assert nwr.director == "Bob" and nwr.pool == 2 and nwr.ipo == 4
    assert game.player("Ann").shares["NWR"] == game.player("Ann").unredeemed["NWR"] == 1
    cash, bank = nwr.cash, game.state.bank
    play(game, logged("random-3p-seed3", 396))
    mail = game.company("NWR").cash - cash
    assert mail > 0 and game.state.bank == bank - mail
    assert game.state.turn.revenue == 70
    players = {p.name: p.cash for p in game.state.players}
    refused(game, "4.6", "buy_train", "NWR", train="2")  # the dividend comes first
    act(game, "dividend", "NWR", kind="payout")
    assert {p.name: p.cash - players[p.name] for p in game.state.players} == {
        "Ann": 0, "Cat": 7, "Bob": 14}
    assert game.company("NWR").cash == cash + mail
    assert game.state.bank == bank - mail - 21
    assert price(game, "NWR") == 49  # 4.7.1: £70 is at least twice £30: two spaces


def test_share_price_example_of_4_7_1_played() -> None:
    """4.7.1: 'For a company valued at £80 on the stock market, the total dividend would need
    to be at least £160 in order for the company to advance two spaces up', and the dividend
    excludes the mail run.  GREEDY, actions 484-485: the SIR, at £80, runs £140 plus £60 of
    mail: paid out, it moves one space.  Actions 534-535: at £88 it pays £190 (at least
    twice £88): two spaces."""
    game = before(GREEDY, 483)
    assert price(game, "SIR") == 80
    cash = game.company("SIR").cash
    play(game, logged(GREEDY, 483))
    assert game.state.turn.revenue == 140 and game.company("SIR").cash == cash + 60
    act(game, "dividend", "SIR", kind="payout")
    assert price(game, "SIR") == 84
    game = before(GREEDY, 534)
    assert price(game, "SIR") == 88 and game.state.turn.revenue == 190
    play(game, logged(GREEDY, 534))
    assert price(game, "SIR") == 96
    game = before(GREEDY, 922)  # the EIR at £115 pays £410, at least three times: three
    assert price(game, "EIR") == 115 and game.state.turn.revenue == 410
    play(game, logged(GREEDY, 922))
    assert price(game, "EIR") == 140


def test_withheld_with_pool_shares_the_price_drops_one_space() -> None:
    """4.7.1: random-6p-seed13, action 1007: the BBCI (£80, three pool shares) keeps its
    £110: the treasury gains it, nobody is paid, the price goes down one space."""
    game = before("random-6p-seed13", 1006)
    assert price(game, "BBCI") == 80 and game.company("BBCI").pool == 3
    cash = game.company("BBCI").cash
    players = {p.name: p.cash for p in game.state.players}
    play(game, logged("random-6p-seed13", 1006))
    assert game.company("BBCI").cash == cash + 110
    assert {p.name: p.cash for p in game.state.players} == players
    assert price(game, "BBCI") == 75


def test_a_manager_may_not_pay_a_dividend() -> None:
    """3.4.2: 'A Manager may make any moves allowed of a Director except that he must not
    declare a dividend'.  random-3p-seed11, action 195: the GIP, run by a manager, earns £50
    plus £50 of mail; the run is withheld without a choice (the treasury gains £100, the price
    drops a space for the pool shares) and a payout is refused."""
    game = before("random-3p-seed11", 194)
    gip = game.company("GIP")
    assert gip.director is None and gip.manager == "Ann" and gip.pool == 5
    assert price(game, "GIP") == 92
    cash = gip.cash
    players = {p.name: p.cash for p in game.state.players}
    play(game, logged("random-3p-seed11", 194))
    assert game.state.turn.revenue == 50
    assert game.state.turn.step == "trains"  # no dividend step
    assert not offered(game, "GIP", "dividend")
    assert game.company("GIP").cash == cash + 100
    assert {p.name: p.cash for p in game.state.players} == players
    assert price(game, "GIP") == 88
    refused(game, "3.4.2", "dividend", "GIP", kind="payout")


def test_no_dividend_without_revenue() -> None:
    """4.6.4: the run is paid out or kept; a company that ran nothing has nothing to pay.
    GREEDY, action 484: the SIR (a director's) passes its run instead."""
    game = before(GREEDY, 483)
    assert game.company("SIR").director is not None
    act(game, "pass", "SIR")
    assert game.state.turn.step == "trains" and game.state.turn.revenue == 0
    assert price(game, "SIR") == 80  # withheld, no pool shares: no change
    refused(game, "4.6.4", "dividend", "SIR", kind="payout")


def test_a_share_price_of_400_ends_the_game_at_once() -> None:
    """5.1.3: 'If a share value reaches the end of the Stock Market board the game STOPS AT
    THAT POINT with the payment of the appropriate dividend'; 5.2: cash plus shares at market
    value.  GREEDY, action 1097: the GIP, at £380, pays £60; the NWR and the rest never run."""
    game = before(GREEDY, 1096)
    assert price(game, "GIP") == 380 and game.state.turn.revenue == 60
    withheld = before(GREEDY, 1096)
    act(withheld, "dividend", "GIP", kind="withhold")
    assert not withheld.finished
    act(game, "dividend", "GIP", kind="payout")
    assert price(game, "GIP") == 400
    assert game.finished and game.state.end_reason == "share_price"
    view = game.view(None)
    worth = {p["name"]: p["cash"] + sum(
        (n - p["unredeemed"].get(c, 0)) * (view["companies"][c]["price"]
                                           or game.rules.ed.company(c).par)
        for c, n in p["shares"].items()) for p in view["players"]}
    assert game.scores() == worth == {"Ann": 9270, "Cat": 5756, "Bob": 8334}
    refused(game, "5.1", "pass", "GIP")
    refused(game, "5.1", "pass", "NWR")


# --- 4.10 the number of operating rounds, 5.1 the end ------------------------------------------

def test_the_number_of_operating_rounds_changes_after_the_next_stock_round() -> None:
    """4.10 note: 'this last change takes effect AFTER the next Stock Round, NOT in the middle
    of a sequence of Operating Rounds'.  GREEDY, action 471: the EIR's first '4' starts Phase 4
    (three rounds a set) in the first round of a set of two."""
    game = before(GREEDY, 470)
    view = game.view(None)
    assert (view["phase"], view["or_in_set"], view["ors_in_set"]) == (3, 1, 2)
    play(game, logged(GREEDY, 470))
    seen: list[tuple[str, int, int]] = []
    for index in range(471, 712):
        view = game.view(None)
        step = (view["round"], view["or_in_set"], view["ors_in_set"])
        if not seen or seen[-1] != step:
            seen.append(step)
        play(game, logged(GREEDY, index))
    assert game.view(None)["phase"] == 5
    rounds = [s for s in seen if s[0] in ("operating", "stock")]
    assert rounds == [
        ("operating", 1, 2), ("operating", 2, 2), ("operating", 3, 3),  # + the Elephant's
        ("stock", 3, 3),
        ("operating", 1, 3), ("operating", 2, 3), ("operating", 3, 3), ("operating", 4, 4),
        ("stock", 4, 4), ("operating", 1, 3),
    ]


def test_bank_broken_in_a_stock_round_one_more_operating_round() -> None:
    """5.1.2 and the players' guide: 'if the bank is broken in an SDR, play one OR'.  SHORT,
    action 2312: Bob's sale breaks the bank during stock round 13 of Phase 5 (three operating
    rounds a set); one operating round is played, then the game ends."""
    game = before(SHORT, 2311)
    assert game.state.round == "stock" and game.state.ors_in_set == 4
    play(game, logged(SHORT, 2311))
    assert game.state.bank_broken and game.state.bank <= 0 and not game.finished
    rounds = set()
    for index in range(2312, 2409):
        assert not game.finished
        if game.state.round == "operating":
            rounds.add(game.state.operating_round)
        play(game, logged(SHORT, index))
    assert game.finished and game.state.end_reason == "bank_broken"
    assert rounds == {33} and game.state.ors_in_set == 3
    refused(game, "5.1", "pass", "Ann")
