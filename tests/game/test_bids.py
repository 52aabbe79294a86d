"""Contract bids (2.5), seating (2.5.3), share payment (2.7) and hidden information."""

from __future__ import annotations

from itertools import combinations

import pytest
from helpers import (
    act,
    check_invariants,
    check_replay,
    claim_in_turn,
    dick_jeff_lou,
    dick_jeff_lou_bids,
)

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.rules_data import game_rules


def refused(game: Game, rule: str, type_: str, entity: str, **fields: object) -> None:
    """The action is refused naming ``rule`` and the game is unchanged."""
    before = game.moderator_view()
    log = len(game.log)
    with pytest.raises(RuleError) as info:
        act(game, type_, entity, **fields)
    assert info.value.rule == rule, str(info.value)
    assert game.moderator_view() == before
    assert len(game.log) == log


def test_seating_by_bond_largest_first_and_elephant() -> None:
    game = dick_jeff_lou()
    assert [p.name for p in game.state.players] == ["Dick", "Jeff", "Lou"]
    assert game.state.elephant == "Dick"
    assert game.active_entities() == [("Dick", "player")]
    assert game.player("Dick").cash == 730 - 130
    check_replay(game)


def test_ties_are_resolved_by_lot_from_the_seed() -> None:
    orders = set()
    for seed in range(8):
        game = Game(Settings(("A", "B", "C", "D"), seed=seed))
        for name in "ABCD":
            act(game, "place_bond", name, amount=60)
        orders.add(tuple(p.name for p in game.state.players))
        again = Game(Settings(("A", "B", "C", "D"), seed=seed), game.log)
        assert [p.name for p in again.state.players] == [p.name for p in game.state.players]
    assert len(orders) > 1


def test_bonds_are_secret_until_all_are_in() -> None:
    game = Game(Settings(("Jeff", "Lou", "Dick"), seed=1))
    act(game, "place_bond", "Jeff", amount=100)
    public = {p["name"]: p for p in game.view(None)["players"]}
    assert public["Jeff"]["bond"] is None and public["Jeff"]["bond_placed"]
    assert {p["name"]: p for p in game.view("Lou")["players"]}["Jeff"]["bond"] is None
    assert {p["name"]: p for p in game.view("Jeff")["players"]}["Jeff"]["bond"] == 100
    act(game, "place_bond", "Lou", amount=90)
    act(game, "place_bond", "Dick", amount=130)
    public = {p["name"]: p for p in game.view(None)["players"]}
    assert public["Jeff"]["bond"] == 100


def test_minimum_bond_three_players_80_four_players_60() -> None:
    game = Game(Settings(("A", "B", "C"), seed=0))
    refused(game, "2.5.2", "place_bond", "A", amount=79)
    act(game, "place_bond", "A", amount=80)
    refused(game, "turn", "place_bond", "A", amount=90)  # one bond each
    game4 = Game(Settings(("A", "B", "C", "D"), seed=0))
    refused(game4, "2.5.2", "place_bond", "A", amount=59)
    act(game4, "place_bond", "A", amount=60)
    refused(game4, "2.5.2", "place_bond", "B", amount=571)


def test_rulebook_example_dick_jeff_lou() -> None:
    game = dick_jeff_lou()
    act(game, "claim_city", "Dick", city="Calcutta", company="EIR")
    act(game, "claim_city", "Jeff", city="Bombay", company="BBCI")
    act(game, "claim_city", "Lou", city="Lahore", company="NWR")
    act(game, "claim_city", "Dick", city="Patna", company="EIR")
    act(game, "claim_city", "Jeff", city="Ajmer", company="BBCI")
    act(game, "claim_city", "Lou", city="Peshawar", company="NWR")
    # "He can't take any other city from the Ganges river valley."
    refused(game, "2.5.7", "claim_city", "Dick", city="Lucknow", company="EIR")
    # Dick may not pass below the minimum of four cities (three players).
    refused(game, "2.5.4", "pass", "Dick")
    # Delhi offers companies 1, 2, 3 and 5; not 4.
    refused(game, "2.5.5", "claim_city", "Dick", city="Delhi", company="BNR")
    act(game, "claim_city", "Dick", city="Delhi", company="EIR")
    check_invariants(game)
    # The cities are secret, the shares public.
    public = {p["name"]: p for p in game.view(None)["players"]}
    assert public["Dick"]["cities"] is None
    assert public["Dick"]["claims"] == ["EIR", "EIR", "EIR"]
    jeffs = {p["name"]: p for p in game.view("Jeff")["players"]}
    assert jeffs["Dick"]["cities"] is None and jeffs["Jeff"]["cities"] == ["Bombay", "Ajmer"]
    assert {p["name"]: p for p in game.view("Dick")["players"]}["Dick"]["cities"] == [
        "Calcutta", "Patna", "Delhi"]
    check_replay(game)


def test_bid_value_may_not_exceed_the_bond() -> None:
    game = dick_jeff_lou()
    act(game, "claim_city", "Dick", city="Calcutta", company="EIR")
    act(game, "claim_city", "Jeff", city="Bombay", company="BBCI")
    # Lou's £90 bond: Delhi (£40) would leave £50 for the three more cities a three-player
    # bid needs; Madras (£30) leaves £60, enough.
    refused(game, "2.5.6", "claim_city", "Lou", city="Delhi", company="NWR")
    act(game, "claim_city", "Lou", city="Madras", company="MSM")
    act(game, "claim_city", "Dick", city="Patna", company="EIR")
    act(game, "claim_city", "Jeff", city="Ajmer", company="BBCI")
    refused(game, "2.5.6", "claim_city", "Lou", city="Bombay", company="GIP")
    act(game, "claim_city", "Lou", city="Lahore", company="NWR")
    act(game, "claim_city", "Dick", city="Delhi", company="EIR")
    # Jeff (£100) has Bombay and Ajmer (£60): Calcutta (£50) exceeds what is left.
    refused(game, "2.5.9", "claim_city", "Jeff", city="Calcutta", company="EIR")
    check_replay(game)


def test_dick_uses_every_pound_and_payment_in_company_order() -> None:
    game = dick_jeff_lou()
    dick_jeff_lou_bids(game)
    check_invariants(game)
    assert game.state.round == "stock"
    assert game.player("Dick").cities == ["Calcutta", "Patna", "Delhi", "Jaipur"]
    # Dick: 730 - 130 bond - 3 x £100 (EIR) - £84 (BBCI).
    assert game.player("Dick").cash == 730 - 130 - 300 - 84
    assert game.player("Lou").cash == 730 - 90 - 4 * 92
    assert game.company("NWR").ipo == 5
    assert not game.company("NWR").floated  # 5 issued, 6 needed with 3 players
    check_replay(game)


def test_no_pass_below_maximum_with_40_unaccounted() -> None:
    game = Game(Settings(("A", "B", "C", "D"), seed=0))
    for name, amount in zip("ABCD", (200, 90, 80, 60), strict=True):
        act(game, "place_bond", name, amount=amount)
    for name, city, company in [("A", "Multan", "NWR"), ("B", "Lahore", "NWR"),
                                ("C", "Peshawar", "NWR"), ("D", "Mysore", "SIR"),
                                ("A", "Karachi", "NWR"), ("B", "Jaipur", "NWR"),
                                ("C", "Rawalpindi", "NWR"), ("D", "Bangalore", "SIR"),
                                ("A", "Ahmadabad", "BBCI")]:
        act(game, "claim_city", name, city=city, company=company)
    act(game, "claim_city", "B", city="Ajmer", company="BBCI")
    act(game, "claim_city", "C", city="Nagpur", company="BNR")
    act(game, "claim_city", "D", city="Trichinopoly", company="SIR")
    refused(game, "2.5.4", "pass", "A")  # £140 of £200 unaccounted, 3 of 6 cities
    act(game, "claim_city", "A", city="Bombay", company="BBCI")
    act(game, "pass", "B")  # £10 unaccounted
    act(game, "pass", "C")
    check_replay(game)


def test_three_city_bid_holds_one_ganges_city_besides_calcutta() -> None:
    game = Game(Settings(("A", "B", "C", "D"), seed=0))
    for name, amount in zip("ABCD", (90, 80, 70, 60), strict=True):
        act(game, "place_bond", name, amount=amount)
    act(game, "claim_city", "A", city="Calcutta", company="EIR")
    act(game, "claim_city", "B", city="Patna", company="EIR")
    act(game, "claim_city", "C", city="Multan", company="NWR")
    act(game, "claim_city", "D", city="Lahore", company="NWR")
    act(game, "claim_city", "A", city="Patna", company="BNR")
    act(game, "claim_city", "B", city="Benares", company="BNR")
    act(game, "claim_city", "C", city="Peshawar", company="NWR")
    act(game, "claim_city", "D", city="Karachi", company="NWR")
    act(game, "claim_city", "A", city="Jaipur", company="GIP")
    act(game, "claim_city", "B", city="Jaipur", company="GIP")
    act(game, "claim_city", "C", city="Rawalpindi", company="NWR")
    act(game, "claim_city", "D", city="Ajmer", company="GIP")
    act(game, "pass", "A")  # Calcutta, Patna, Jaipur: legal
    refused(game, "2.5.7", "pass", "B")  # Patna and Benares in a three-city bid
    refused(game, "2.5.7", "claim_city", "B", city="Lucknow", company="EIR")  # a third
    check_replay(game)


def test_unaffordable_shares_stay_unredeemed_cheapest_first() -> None:
    game = Game(Settings(("A", "B", "C", "D", "E", "F"), seed=0))
    for name, amount in zip("ABCDEF", (340, 60, 60, 60, 60, 70), strict=True):
        act(game, "place_bond", name, amount=amount)
    claims = {"A": [("Calcutta", "EIR"), ("Madras", "ECR"), ("Delhi", "NWR"),
                    ("Bombay", "GIP")],
              "B": [("Multan", "NWR"), ("Lahore", "NWR"), ("Peshawar", "NWR")],
              "C": [("Mysore", "SIR"), ("Bangalore", "SIR"), ("Trichinopoly", "SIR")],
              "D": [("Jaipur", "BBCI"), ("Ajmer", "BBCI"), ("Ahmadabad", "BBCI")],
              "E": [("Nagpur", "BNR"), ("Hyderabad", "BNR"), ("Karachi", "NWR")],
              "F": [("Waltair", "ECR"), ("Rawalpindi", "NWR"), ("Benares", "BNR")]}
    claim_in_turn(game, claims, to_the_end=True)
    a = game.player("A")
    # £510 - £340 bond = £170: pays the EIR (£100); GIP £96 is then unaffordable, so the
    # cheaper GIP, NWR and ECR shares all stay un-redeemed.
    assert a.cash == 70
    assert a.unredeemed == {"GIP": 1, "NWR": 1, "ECR": 1}
    check_invariants(game)
    refused(game, "2.7.4", "buy_share", "A", company="SIR", source="ipo")
    refused(game, "2.7.4", "sell_shares", "A", company="ECR", count=1)
    with pytest.raises(RuleError, match="A holds 1 share of ECR, 1 of them un-redeemed, and "
                       "un-redeemed shares may not be sold: at most 0 may be sold"):
        act(game, "sell_shares", "A", company="ECR", count=1)
    act(game, "redeem_share", "A", company="ECR")  # £70: not a purchase
    assert game.player("A").unredeemed == {"GIP": 1, "NWR": 1}
    assert game.player("A").cash == 0
    assert game.active_entities() == [("A", "player")]
    check_replay(game)


def test_not_your_turn() -> None:
    game = dick_jeff_lou()
    refused(game, "turn", "claim_city", "Jeff", city="Bombay", company="BBCI")


def test_pass_at_exactly_40_unaccounted_is_refused_and_at_39_allowed() -> None:
    """2.5.4: "at least £40 of your Bond money not yet accounted for" (docs/rulings.md: the
    rulebook's "at least", not the guide's "more than")."""
    game = Game(Settings(("A", "B", "C", "D"), seed=0))
    for name, amount in zip("ABCD", (100, 99, 80, 60), strict=True):
        act(game, "place_bond", name, amount=amount)
    assert [p.name for p in game.state.players] == ["A", "B", "C", "D"]
    claim_in_turn(game, {"A": [("Multan", "NWR"), ("Mysore", "SIR"), ("Jaipur", "GIP")],
                          "B": [("Lahore", "NWR"), ("Bangalore", "SIR"), ("Ajmer", "GIP")],
                          "C": [("Peshawar", "NWR"), ("Trichinopoly", "SIR"),
                                ("Nagpur", "GIP")],
                          "D": [("Rawalpindi", "NWR"), ("Hyderabad", "GIP"),
                                ("Karachi", "NWR")]})
    assert game.active_entities() == [("A", "player")]
    refused(game, "2.5.4", "pass", "A")  # £100 - 3 x £20 = £40 unaccounted, 3 of 6 cities
    act(game, "claim_city", "A", city="Ahmadabad", company="BBCI")
    act(game, "pass", "B")  # £99 - £60 = £39
    act(game, "pass", "C")
    act(game, "pass", "D")
    act(game, "pass", "A")  # £20 left
    assert game.state.round == "stock"
    check_replay(game)


def test_a_bid_may_not_name_more_than_the_maximum_of_cities() -> None:
    """2.5.6: at most four cities with six players; a bid at the maximum may end with any
    amount unaccounted for (2.5.4)."""
    game = Game(Settings(("A", "B", "C", "D", "E", "F"), seed=0))
    for name, amount in zip("ABCDEF", (200, 60, 60, 60, 60, 60), strict=True):
        act(game, "place_bond", name, amount=amount)
    assert game.active_entities() == [("A", "player")]
    others = [("Lahore", "NWR"), ("Trichinopoly", "SIR"), ("Hyderabad", "GIP")]
    claim_in_turn(game, {"A": [("Multan", "NWR"), ("Mysore", "SIR"), ("Jaipur", "GIP"),
                                ("Nagpur", "BNR")],
                          **{name: list(others) for name in "BCDEF"}})
    while game.active_entities() != [("A", "player")]:
        act(game, "pass", game.active_entities()[0][0])
    assert len(game.player("A").cities) == 4
    refused(game, "2.5.6", "claim_city", "A", city="Ajmer", company="GIP")
    assert all(a["type"] == "pass" for a in game.legal_actions("A"))
    act(game, "pass", "A")  # £200 - £80 = £120 unaccounted, but the bid is at its maximum
    check_replay(game)


def test_a_claim_whose_only_completions_break_the_ganges_limit_names_2_5_7() -> None:
    """2.5.7 (the guide's reading): with a £60 bond, Hyderabad and Cawnpore, adding Allahabad
    leaves a three-city bid (no money for a fourth) with two valley cities besides Calcutta."""
    game = Game(Settings(("A", "B", "C", "D"), seed=0))
    for name, amount in zip("ABCD", (90, 80, 70, 60), strict=True):
        act(game, "place_bond", name, amount=amount)
    claim_in_turn(game, {"A": [("Multan", "NWR"), ("Rawalpindi", "NWR")],
                          "B": [("Lahore", "NWR"), ("Karachi", "NWR")],
                          "C": [("Peshawar", "NWR"), ("Jaipur", "NWR")],
                          "D": [("Hyderabad", "GIP"), ("Cawnpore", "EIR")]})
    assert game.active_entities() == [("A", "player")]
    for name in "ABC":
        act(game, "claim_city", name, city=("Mysore", "Bangalore", "Trichinopoly")[
            "ABC".index(name)], company="SIR")
    refused(game, "2.5.7", "claim_city", "D", city="Allahabad", company="EIR")
    refused(game, "2.5.9", "claim_city", "D", city="Delhi", company="EIR")
    act(game, "claim_city", "D", city="Nagpur", company="GIP")
    check_replay(game)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_bid_below_the_minimum_always_has_a_legal_claim(players: int) -> None:
    """Why the pass allowed when no claim is legal (docs/rulings.md) never ends a bid below the
    minimum: the lookahead keeps enough bond for £20 cities outside the valley, and the bids
    cannot use up the claimable shares of enough companies to close them all.  Every claim of
    every bid at its maximum exhausts at most this many companies; whichever they are, enough
    £20 cities outside the valley still offer a share of another company."""
    rules = game_rules("second", players)
    t = rules.table
    claimable = rules.shares_per_company - rules.director_shares
    exhaustible = players * t.bid_cities_max // claimable
    cheapest = min(c.bond_value for c in rules.cities)
    cheap = [c for c in rules.cities if c.bond_value == cheapest and not c.ganges_valley]
    assert t.bid_cities_min - 1 < t.share_limit  # nor can his own share limit stop him
    for gone in combinations([c.number for c in rules.companies], exhaustible):
        still_open = [c.name for c in cheap if set(c.companies) - set(gone)]
        assert len(still_open) >= t.bid_cities_min, gone
