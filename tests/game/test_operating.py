"""Operating rounds (4.1-4.10), trains and phases (4.8, 4.10) and the end (5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import act, check_invariants, finish_first_stock_round, four_player_start
from test_bids import refused

from india1853.rules.game import Game, Settings
from india1853.rules.game.operating_round import move_price
from india1853.rules.game.state import CompanyState

GAMES = Path(__file__).resolve().parents[1] / "games"


def set_cash(game: Game, company: str, amount: int) -> None:
    """Arrange a company's treasury, the bank making up the difference (money conserved)."""
    co = game.company(company)
    game.state.bank -= amount - co.cash
    co.cash = amount


def started() -> Game:
    game = four_player_start()
    finish_first_stock_round(game)
    return game


def to_trains_step(game: Game, company: str, option: int = 2) -> None:
    if game.state.turn.step == "lay_option":
        act(game, "choose_lay_option", company, option=option)
    while game.state.turn.step != "trains":
        act(game, "pass", company)


def test_companies_operate_in_table_1_order_and_major_chooses_lay_option() -> None:
    game = started()
    assert game.state.turn.order == ["EIR", "MSM"]
    refused(game, "4.1.3", "pass", "EIR")
    refused(game, "4.1.3", "choose_lay_option", "EIR", option=3)
    act(game, "choose_lay_option", "EIR", option=2)
    assert game.company("EIR").lay_option == 2
    assert game.state.turn.step == "track"


def test_tile_lay_from_construction_rules() -> None:
    game = started()
    act(game, "choose_lay_option", "EIR", option=2)
    lays = [a for a in game.legal_actions("EIR") if a["type"] == "lay_tile"]
    assert lays
    first = lays[0]
    act(game, "lay_tile", "EIR", hex=first["hex"], tile=first["tile"], rotation=first["rotation"])
    assert game.state.board.tiles[first["hex"]].tile == first["tile"]
    check_invariants(game)


def test_first_turn_no_run_and_trains_bought_in_order() -> None:
    game = started()
    to_trains_step(game, "EIR")
    assert game.state.turn.step == "trains"  # no trains: the run step was skipped
    offered = {a["train"] for a in game.legal_actions("EIR") if a["type"] == "buy_train"}
    assert offered == {"2"}  # majors may not own '1M' (4.8.18 a)
    refused(game, "4.8.3", "buy_train", "EIR", train="3")
    refused(game, "4.8.18", "buy_train", "EIR", train="1M")
    act(game, "buy_train", "EIR", train="2")
    assert game.company("EIR").cash == 700
    act(game, "pass", "EIR")
    # The MSM, a minor, may take a '2/1M' card as a '1M' for £180 (2.8.4, 4.8.18).
    to_trains_step(game, "MSM")
    offered = {a["train"] for a in game.legal_actions("MSM") if a["type"] == "buy_train"}
    assert offered == {"2", "1M"}
    act(game, "buy_train", "MSM", train="1M")
    assert game.company("MSM").cash == 620
    check_invariants(game)


def test_director_contributes_exactly_the_shortfall() -> None:
    game = started()
    to_trains_step(game, "EIR")
    set_cash(game, "EIR", 250)  # arrange a poor company
    refused(game, "4.8.8", "buy_train", "EIR", train="2", contribution=10)
    ann = game.player("Ann").cash
    act(game, "buy_train", "EIR", train="2", contribution=50)
    assert game.company("EIR").cash == 0 and game.player("Ann").cash == ann - 50
    check_invariants(game)


def test_train_limit_and_phase_change_with_obsolete_and_excess_trains() -> None:
    game = started()
    to_trains_step(game, "EIR")
    set_cash(game, "EIR", 5_000)
    for _ in range(4):
        act(game, "buy_train", "EIR", train="2")
    refused(game, "4.8.5", "buy_train", "EIR", train="2")  # the limit is 4 in phase 2
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    set_cash(game, "MSM", 5_000)
    act(game, "buy_train", "MSM", train="1M")
    act(game, "buy_train", "MSM", train="2")
    act(game, "buy_train", "MSM", train="2")
    # All seven '2/1M' cards are sold: the '3' is next (4.8.3, 4.8.16).
    offered = {a["train"] for a in game.legal_actions("MSM") if a["type"] == "buy_train"}
    assert "3" in offered
    act(game, "buy_train", "MSM", train="3")
    assert game.state.phase == 3
    # 4.8.17 ends with the first '3'; phase 3 brings the '2M' (4.10.3).
    offered = {a["train"] for a in game.legal_actions("MSM") if a["type"] == "buy_train"}
    assert "2M" not in offered  # MSM is at its limit of 4
    check_invariants(game)
    # Buy up to the '4': 2s and 1Ms become obsolete (4.10.4), limit 3 (TABLE 6).
    for t in game.state.trains:
        if t.name == "3" and t.where == "bank":
            t.where = "removed"  # arrange: the other '3' cards left the game
    act(game, "pass", "MSM")
    assert game.state.round in ("operating_end", "stock")


def test_phase_4_rusts_2_and_1m_and_returns_excess() -> None:
    game = started()
    to_trains_step(game, "EIR")
    set_cash(game, "EIR", 5_000)
    for _ in range(3):
        act(game, "buy_train", "EIR", train="2")
    for t in game.state.trains:
        if t.where == "bank" and t.name in ("2/1M", "3"):
            t.where = "removed"  # arrange: the 2s and 3s are gone
    game.state.phase = 3
    act(game, "buy_train", "EIR", train="4")
    assert game.state.phase == 4
    assert [t.runs_as for t in game.state.company_trains("EIR")] == ["4"]
    # Phase 4 offers the '3M' and any '2M' left (4.8.12); the '4' continues.
    offered = {a["train"] for a in game.legal_actions("EIR") if a["type"] == "buy_train"}
    assert {"4", "2M", "3M"} <= offered


def test_excess_trains_return_to_the_bank_on_the_directors_choice() -> None:
    game = started()
    to_trains_step(game, "EIR")
    set_cash(game, "EIR", 5_000)
    for t in game.state.trains:
        if t.where == "bank" and t.name == "2/1M":
            t.where = "removed"
    for t in game.state.trains:
        if t.name == "3" and t.where == "bank" and len(game.state.company_trains("EIR")) < 3:
            t.where, t.owner = "company", "EIR"
    game.state.phase = 3
    for t in game.state.trains:
        if t.name == "3" and t.where == "bank":
            t.where = "removed"
    act(game, "buy_train", "EIR", train="4")  # 3 + 1 = 4 trains, the new limit is 3
    assert game.active_entities() == [("EIR", "company")]
    assert game.state.pending[0].kind == "discard_train"
    victim = game.state.company_trains("EIR")[0].id
    act(game, "discard_train", "EIR", train=victim)
    assert len(game.state.company_trains("EIR")) == 3
    offered = {a["train"] for a in game.legal_actions("EIR") if a["type"] == "buy_train"}
    assert offered == set()  # at the limit
    assert any(t.where == "pool" for t in game.state.trains)
    check_invariants(game)


def test_first_operating_round_extra_2_1m_cards() -> None:
    game = started()
    to_trains_step(game, "EIR")
    set_cash(game, "EIR", 5_000)
    for t in game.state.trains:
        if t.name == "2/1M" and t.where == "bank":
            t.where, t.owner = "company", "MSM"  # arrange: every card sold
    offered = {a["train"] for a in game.legal_actions("EIR") if a["type"] == "buy_train"}
    assert offered == {"2", "3"}  # 4.8.17: extra '2/1M' cards, or the '3'
    act(game, "buy_train", "EIR", train="2")
    assert sum(1 for t in game.state.trains if t.name == "2/1M") == 8
    act(game, "buy_train", "EIR", train="3")
    offered = {a["train"] for a in game.legal_actions("EIR") if a["type"] == "buy_train"}
    assert "2" not in offered  # no more extra cards once the first '3' is bought


def test_minor_token_buys_a_metre_train_of_the_next_phase() -> None:
    game = started()
    to_trains_step(game, "EIR")
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    assert not any(a.get("token") for a in game.legal_actions("MSM"))  # not in the first OR
    act(game, "pass", "MSM")
    act(game, "pass", game.state.elephant or "")  # no extra operating round
    while game.state.round == "stock":
        act(game, "pass", game.active_entities()[0][0])
    act(game, "pass", game.state.elephant or "")
    to_trains_step(game, "EIR")
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    assert game.state.operating_round == 2
    for t in game.state.trains:
        if t.name == "2/1M" and t.where == "bank":
            t.where = "removed"  # no '1M' left: no metre train in phase 2
    tokens = [a for a in game.legal_actions("MSM") if a.get("token")]
    assert [a["train"] for a in tokens] == ["2M"]
    act(game, "buy_train", "MSM", train="2M", token=True)
    assert game.state.phase == 2 and not game.company("MSM").token
    refused(game, "4.8.19", "buy_train", "MSM", train="2M", token=True)


def test_manager_credit_train() -> None:
    game = started()
    to_trains_step(game, "EIR")
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    msm = game.company("MSM")
    msm.director, msm.manager = None, "Bob"  # arrange: a poor managed company
    set_cash(game, "MSM", 100)
    refused(game, "4.8.8", "buy_train", "MSM", train="2")
    act(game, "buy_train", "MSM", train="2", credit=True)
    assert game.company("MSM").credit_train is not None and game.company("MSM").cash == 100
    refused(game, "3.4.6 / 24.3", "buy_train", "MSM", train="1M")
    check_invariants(game)


@pytest.mark.parametrize(
    ("price", "dividend", "expected"),
    [(80, 60, 84), (80, 159, 84), (80, 160, 88), (80, 240, 92), (80, 400, 100),
     (80, 4000, 100), (10, 10, 20)],
)
def test_share_price_scale_rule_book_example(price: int, dividend: int, expected: int) -> None:
    """4.7.1: 'For a company valued at £80 ... at least £160 in order to advance two spaces.'"""
    game = started()
    co = CompanyState("X", 9, "major", 10, price_index=game.rules.market.index(price))
    move_price(game.rules, co, payout=True, dividend=dividend, price=price)
    assert game.rules.market[co.price_index or 0] == expected


@pytest.mark.parametrize(("pool", "price", "expected"), [(0, 80, 80), (1, 80, 75), (2, 10, 10)])
def test_share_price_withheld(pool: int, price: int, expected: int) -> None:
    game = started()
    co = CompanyState("X", 9, "major", 10, pool=pool, price_index=game.rules.market.index(price))
    move_price(game.rules, co, payout=False, dividend=50, price=price)
    assert game.rules.market[co.price_index or 0] == expected


def test_broken_bank_ends_at_end_of_operating_round() -> None:
    """5.1.2, played out: the fixture game random-4p-seed12 breaks the bank during an
    operating round, which is then finished before the game ends."""
    data = json.loads((GAMES / "random-4p-seed12.json").read_text())
    game = Game(Settings.from_json(data["settings"]))
    actions = iter(data["actions"])
    while not game.state.bank_broken:
        game.process(next(actions))
    assert game.state.round == "operating" and not game.finished
    broke_in = game.state.operating_round
    rest = list(actions)
    assert rest, "the bank broke with the game's last action"
    for action in rest:
        assert not game.finished
        assert game.state.operating_round == broke_in
        game.process(action)
        check_invariants(game)
    assert game.finished and game.state.end_reason == "bank_broken"


def test_elephant_may_call_one_extra_operating_round() -> None:
    game = started()
    for company in ("EIR", "MSM"):
        to_trains_step(game, company)
        act(game, "pass", company)
    assert game.state.pending[0].kind == "extra_or"
    act(game, "call_extra_or", game.state.elephant or "")
    assert game.state.round == "operating" and game.state.operating_round == 2
    for company in ("EIR", "MSM"):
        to_trains_step(game, company)
        act(game, "pass", company)
    assert game.state.round == "stock"  # only ONE extra round


def test_trains_between_companies() -> None:
    game = started()
    to_trains_step(game, "EIR")
    act(game, "buy_train", "EIR", train="2")
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    act(game, "buy_train", "MSM", train="1M")
    refused(game, "4.8.9", "buy_train", "MSM", train="2", source="EIR", price=9)
    # Another player runs the EIR: the offer waits for the EIR's answer.
    act(game, "buy_train", "MSM", train="2", source="EIR", price=150)
    assert game.active_entities() == [("EIR", "company")]
    eir, msm = game.company("EIR").cash, game.company("MSM").cash
    act(game, "accept_offer", "EIR")
    assert game.company("EIR").cash == eir + 150 and game.company("MSM").cash == msm - 150
    assert sorted(t.runs_as for t in game.state.company_trains("MSM")) == ["1M", "2"]
    check_invariants(game)


def test_major_may_not_buy_a_1m_from_a_minor() -> None:
    game = started()
    to_trains_step(game, "EIR")
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    act(game, "buy_train", "MSM", train="1M")
    act(game, "pass", "MSM")
    act(game, "pass", game.state.elephant or "")  # no extra operating round
    while game.state.round == "stock":
        act(game, "pass", game.active_entities()[0][0])
    act(game, "pass", game.state.elephant or "")
    to_trains_step(game, "EIR")
    refused(game, "4.8.18", "buy_train", "EIR", train="1M", source="MSM", price=10)


def test_bbci_major_when_its_directors_bid_names_ajmer_and_bombay() -> None:
    from helpers import dick_jeff_lou, dick_jeff_lou_bids

    game = dick_jeff_lou()
    dick_jeff_lou_bids(game)
    act(game, "pass", "Dick")
    act(game, "buy_share", "Jeff", company="BBCI", source="ipo")
    act(game, "pass", "Lou")
    act(game, "pass", "Dick")
    act(game, "buy_share", "Jeff", company="BBCI", source="ipo")
    for name in ("Lou", "Dick", "Jeff"):
        act(game, "pass", name)
    bbci = game.company("BBCI")
    assert bbci.formed and bbci.director == "Jeff" and bbci.kind == "major"
    assert ("BBCI", "M9", "st1") in {(b.company, b.hex, b.station)
                                     for b in game.state.board.bases}
    # No minor formed: no '1M', no extra trains (2.8.4).
    assert all(t.name == "2" for t in game.state.trains if t.id.startswith("2-"))
    check_invariants(game)


def test_new_director_pays_for_or_returns_the_credit_train() -> None:
    game = started()
    to_trains_step(game, "EIR")
    act(game, "pass", "EIR")
    to_trains_step(game, "MSM")
    msm = game.company("MSM")
    # Arrange: nobody holds two MSM shares (Bob 1, Dan 1, three in the pool): a manager.
    game.player("Bob").shares["MSM"] = 1
    game.player("Dan").shares["MSM"] = 1
    msm.pool = 3
    msm.director, msm.manager = None, "Bob"
    set_cash(game, "MSM", 100)
    act(game, "buy_train", "MSM", train="2", credit=True)
    act(game, "pass", "MSM")
    act(game, "pass", game.state.elephant or "")
    while game.active_entities() != [("Dan", "player")]:
        act(game, "pass", game.active_entities()[0][0])
    act(game, "buy_share", "Dan", company="MSM", source="pool")
    assert game.company("MSM").director == "Dan"
    assert game.active_entities() == [("MSM", "company")]  # 4.8.10: pay or return, now
    refused(game, "4.8.10", "buy_train", "MSM", train="2")
    act(game, "return_credit_train", "MSM")
    assert game.company("MSM").credit_train is None
    assert not game.state.company_trains("MSM")
    check_invariants(game)
