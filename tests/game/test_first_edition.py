"""The first edition (1989) through the engine's API: secret contract bids (14-17), the first
dealing round (18, 21), Company Credits (23.1, 40), the lays of 31.2 and the trains of 35.2."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import action_schema, schema_valid_actions, soak_but

from india1853.errors import India1853Error, InputError, RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.actions import check_action
from india1853.rules.game.random_play import random_action
from india1853.rules.game.scoring import bonds_held
from india1853.rules.game.state import TrainState
from india1853.rules.game.trains import bank_offers

FOUR = ("Ann", "Bob", "Cat", "Dan")

Bid = list[tuple[str, str]]


def first(players: tuple[str, ...] = FOUR, *, seed: int = 1,
          variants: tuple[str, ...] = ()) -> Game:
    return Game(Settings(players, seed=seed, edition="first", variants=variants))


def bid(game: Game, player: str, claims: Bid) -> None:
    game.process(game.action("submit_bid", player,
                             claims=[{"city": c, "company": co} for c, co in claims]))


def bids(game: Game, by_player: dict[str, Bid]) -> None:
    for player, claims in by_player.items():
        bid(game, player, claims)


NWR4: Bid = [("Peshawar", "NWR"), ("Rawalpindi", "NWR"), ("Lahore", "NWR"), ("Multan", "NWR")]
EIR3: Bid = [("Delhi", "EIR"), ("Cawnpore", "EIR"), ("Lucknow", "EIR")]
SIR_BAR: Bid = [("Mysore", "SIR"), ("Bangalore", "SIR"), ("Trichinopoly", "SIR"),
                ("Dacca", "BAR")]
EIR_BAR: Bid = [("Calcutta", "EIR"), ("Patna", "EIR"), ("Dacca", "BAR")]


def test_the_game_starts_with_secret_bids_and_the_bank_without_the_500_notes() -> None:
    game = first()
    assert game.state.round == "bids"
    assert {e for e, _ in game.active_entities()} == set(FOUR)
    # 11, TABLE 3: the bank without the £500 notes is £4500; 13: £570 each with four players.
    assert game.state.bank == 4500 - 4 * 570
    assert all(p.cash == 570 for p in game.state.players)
    legal = game.legal_actions("Ann")
    assert legal and all(a["type"] == "submit_bid" for a in legal)


@pytest.mark.parametrize(("variant", "bank"), [("long_game", 12500), ("shortened_game", 3450)])
def test_the_long_and_the_shorter_game_change_the_bank(variant: str, bank: int) -> None:
    assert first(variants=(variant,)).state.bank == bank - 4 * 570


def test_a_bid_is_secret_until_every_bid_is_in() -> None:
    game = first()
    bid(game, "Ann", NWR4)
    ann = next(p for p in game.view("Bob")["players"] if p["name"] == "Ann")
    assert ann["bond_placed"] and ann["bond"] is None and ann["cash"] is None
    assert ann["claims"] is None and ann["cities"] is None and ann["cities_claimed"] is None
    own = next(p for p in game.view("Ann")["players"] if p["name"] == "Ann")
    assert own["bond"] == 80 and own["cities"] == [c for c, _ in NWR4]
    bids(game, {"Bob": EIR3, "Cat": SIR_BAR, "Dan": EIR_BAR})
    # 15.1: the bonds and the shares claimed are stated; the cities stay secret.
    ann = next(p for p in game.view("Bob")["players"] if p["name"] == "Ann")
    assert ann["bond"] == 80 and ann["claims"] == ["NWR"] * 4 and ann["cities"] is None
    assert game.state.round == "stock"


@pytest.mark.parametrize(("claims", "rule"), [
    ([("Peshawar", "NWR"), ("Lahore", "NWR")], "14.2"),
    ([*NWR4, ("Delhi", "NWR"), ("Jaipur", "NWR"), ("Ajmer", "NWR")], "14.2"),
    ([("Cawnpore", "EIR"), ("Lucknow", "EIR"), ("Allahabad", "EIR")], "14.3"),
    ([("Agra", "EIR"), ("Delhi", "EIR"), ("Jaipur", "GIP")], "14.3"),
    ([("Delhi", "EIR"), ("Delhi", "NWR"), ("Jaipur", "GIP")], "14.5"),
    ([("Lahore", "GIP"), ("Delhi", "NWR"), ("Jaipur", "GIP")], "16.1"),
])
def test_an_illegal_bid_is_refused_naming_the_rule(claims: Bid, rule: str) -> None:
    game = first()
    before = game.moderator_view()
    with pytest.raises(RuleError) as err:
        bid(game, "Ann", claims)
    assert err.value.rule == rule
    assert game.moderator_view() == before and not game.log


def test_a_second_bid_and_a_bad_claim_are_refused() -> None:
    game = first()
    bid(game, "Ann", NWR4)
    with pytest.raises(RuleError, match=r"14\.1|turn"):
        bid(game, "Ann", EIR3)
    with pytest.raises(InputError, match="claims"):
        game.process(game.action("submit_bid", "Bob", claims=[{"city": "Delhi"}]))
    with pytest.raises(InputError, match="unknown company"):
        bid(game, "Bob", [("Delhi", "XYZ"), ("Jaipur", "GIP"), ("Ajmer", "GIP")])


def test_seating_by_bond_then_by_the_value_of_the_shares_claimed() -> None:
    """15.2: the largest bond first; 15.3: equal bonds by the value of the shares claimed."""
    game = first()
    bids(game, {"Ann": SIR_BAR, "Bob": EIR3, "Cat": NWR4,
                "Dan": [("Calcutta", "EIR"), ("Patna", "EIR"), ("Chittagong", "BAR")]})
    # Dan £90; then £80 each: Cat claims 4 x £92, Bob 3 x £100, Ann 3 x £75 + £70.
    assert game.state.player_names() == ["Dan", "Cat", "Bob", "Ann"]
    assert game.state.elephant == "Dan"
    assert game.state.stock.current == 0


def test_bids_for_the_same_shares_are_seated_by_the_cities_farthest_apart() -> None:
    """15.4: the cities are declared, and the bid whose cities lie farther apart goes first."""
    game = first()
    near: Bid = [("Peshawar", "NWR"), ("Rawalpindi", "NWR"), ("Lahore", "NWR")]
    far: Bid = [("Peshawar", "NWR"), ("Multan", "NWR"), ("Karachi", "NWR")]
    bids(game, {"Ann": near, "Bob": far, "Cat": SIR_BAR, "Dan": EIR_BAR})
    names = game.state.player_names()
    assert names.index("Bob") < names.index("Ann")
    others = {p["name"]: p for p in game.view("Cat")["players"]}
    assert others["Ann"]["cities"] == [c for c, _ in near]
    assert others["Bob"]["cities"] == [c for c, _ in far]
    assert others["Dan"]["cities"] is None


def test_over_subscribed_shares_go_to_the_earlier_seat_and_the_director_is_appointed() -> None:
    """16.3: the earlier seat receives its shares first; 17.1-17.3, 23.1: with the qualifying
    number issued a director is appointed at once and the company forms with Company Credits
    (ten times par), not money from the bank."""
    game = first()
    five: Bid = [*NWR4, ("Delhi", "NWR")]
    four: Bid = [("Jaipur", "NWR"), ("Ajmer", "NWR"), ("Karachi", "NWR"), ("Multan", "NWR")]
    bank_before = game.state.bank
    bids(game, {"Ann": five, "Bob": four, "Cat": SIR_BAR, "Dan": EIR_BAR})
    st = game.state
    assert st.player("Ann").shares["NWR"] == 5 and st.player("Bob").shares["NWR"] == 3
    nwr = st.companies["NWR"]
    assert nwr.director == "Ann" and nwr.formed and nwr.cash == 920
    assert st.credits == 920
    # The bank took the payments for the shares (Ann, £450 after her bond, pays for four of
    # her five, 16.5) and paid out nothing.
    assert st.player("Ann").unredeemed == {"NWR": 1}
    paid = sum(g * par for g, par in ((4, 92), (3, 92), (3, 75), (1, 70), (2, 100), (1, 70)))
    assert st.bank == bank_before + paid
    view = game.view(None)
    assert view["company_money"] == "credits" and view["credits"] == 920


def test_unaffordable_shares_stay_unredeemed_the_cheapest() -> None:
    """16.5: the shares a player cannot pay for are the cheapest he bid for."""
    game = first(("Ann", "Bob", "Cat"))
    big: Bid = [("Delhi", "EIR"), ("Calcutta", "EIR"), ("Patna", "EIR"), ("Bombay", "GIP"),
                ("Jaipur", "GIP"), ("Nagpur", "GIP")]
    bids(game, {"Ann": big, "Bob": NWR4, "Cat": SIR_BAR})
    ann = game.state.player("Ann")
    # £730 less the £190 bond: three EIR (£300) and two GIP (£192) paid, one GIP not.
    assert ann.unredeemed == {"GIP": 1}
    assert ann.cash == 730 - 190 - 300 - 192
    assert game.state.players[game.state.stock.current].name == "Ann"
    with pytest.raises(RuleError, match=r"rule 16\.6: "):
        game.process(game.action("buy_share", "Ann", company="SIR", source="ipo"))


def test_equal_holdings_give_the_directorship_to_the_earlier_seat() -> None:
    """17.2: during the starting procedure an equal largest holding goes by seating order."""
    game = first()
    bids(game, {
        "Bob": [("Bangalore", "MSM"), ("Madras", "MSM"), ("Hyderabad", "MSM")],  # £70
        "Ann": [("Bombay", "MSM"), ("Hyderabad", "MSM"), ("Mysore", "MSM")],  # £80
        "Cat": NWR4, "Dan": EIR3,
    })
    assert game.state.companies["MSM"].director == "Ann"


def test_first_dealing_round_sales() -> None:
    """18.1: £5 below par for a company without a director; none for a company whose director
    was appointed (18.1, 21.8)."""
    game = first()
    bids(game, {"Ann": NWR4, "Bob": EIR3, "Cat": SIR_BAR, "Dan": EIR_BAR})
    st = game.state
    assert st.companies["NWR"].formed is False
    assert st.players[st.stock.current].name == "Dan"  # the £90 bid
    game.process(game.action("pass", "Dan"))
    assert game.state.players[game.state.stock.current].name == "Ann"
    cash = st.player("Ann").cash
    game.process(game.action("sell_shares", "Ann", company="NWR", count=1))
    assert game.state.player("Ann").cash == cash + 92 - 5
    # SIR: Cat's three shares do not reach the qualifying six; EIR: Bob 3 + Dan 2 = 5 either.
    assert not game.state.companies["EIR"].formed


def test_no_sale_in_the_round_a_director_was_appointed() -> None:
    game = first()
    six: Bid = [*NWR4, ("Delhi", "NWR"), ("Jaipur", "NWR")]
    bids(game, {"Ann": six, "Bob": EIR3, "Cat": SIR_BAR, "Dan": EIR_BAR})
    assert game.state.companies["NWR"].director == "Ann"
    assert game.state.players[game.state.stock.current].name == "Ann"  # the £120 bid
    with pytest.raises(RuleError) as err:
        game.process(game.action("sell_shares", "Ann", company="NWR", count=1))
    assert err.value.rule == "18.1, 21.8"
    assert not any(a["type"] == "sell_shares" and a["company"] == "NWR"
                   for a in game.legal_actions("Ann"))


def test_after_the_contract_companies_shares_are_sold_in_table_1_order() -> None:
    """21.3: once the contract companies' shares are all issued, only the first company of
    TABLE 1 not yet fully issued is on offer."""
    game = first()
    bids(game, {
        "Ann": [("Mysore", "SIR"), ("Bangalore", "SIR"), ("Madras", "SIR")],
        "Bob": [("Trichinopoly", "SIR"), ("Mysore", "SIR"), ("Bangalore", "SIR")],
        "Cat": [("Madras", "SIR"), ("Trichinopoly", "SIR"), ("Mysore", "SIR")],
        "Dan": [("Bangalore", "SIR"), ("Madras", "SIR"), ("Trichinopoly", "SIR")],
    })
    st = game.state
    assert st.companies["SIR"].director is not None and st.companies["SIR"].ipo == 2
    for _ in range(2):
        name = st.players[st.stock.current].name
        buys = [a for a in game.legal_actions(name) if a["type"] == "buy_share"]
        assert {a["company"] for a in buys} == {"SIR"}
        game.process(game.action("buy_share", name, company="SIR", source="ipo"))
        st = game.state
    name = st.players[st.stock.current].name
    assert {a["company"] for a in game.legal_actions(name) if a["type"] == "buy_share"} \
        == {"EIR"}
    with pytest.raises(RuleError) as err:
        game.process(game.action("buy_share", name, company="GIP", source="ipo"))
    assert err.value.rule == "21.3"


def _to_operating(game: Game, rng: random.Random) -> None:
    while game.state.round != "operating":
        game.process(random_action(game, rng))


def test_majors_lay_two_tiles_without_a_lay_option() -> None:
    """31.2: companies 1-4 lay one or two tiles from their first turn; there is no choice of
    lay option (the second edition's 4.1.3)."""
    for seed in range(4):
        game = first(seed=seed)
        _to_operating(game, random.Random(seed))
        assert game.state.turn.step == "track"
        assert not any(a["type"] == "choose_lay_option" for a in game.log)


def test_the_six_is_not_sold_beside_the_five() -> None:
    """35.2: all of one broad type are bought before the next type is available, although
    TABLE 6 lists '4', '5' and '6' for Phase 4."""
    game = first(seed=3)
    _to_operating(game, random.Random(3))
    st = game.state
    co = st.companies[st.turn.order[st.turn.index]]
    for t in st.trains:
        if t.name in ("2", "3", "4", "2M"):
            t.where = "removed"
    st.broad_sold_out = ["2", "3", "4"]
    st.phase = 4
    sold = next(t for t in st.trains if t.name == "5")
    sold.where = "removed"
    offered = {o.train for o in bank_offers(game.rules, st, co)}
    assert "5" in offered and "6" not in offered
    for t in st.trains:
        if t.name == "5":
            t.where = "removed"
    st.broad_sold_out.append("5")
    assert "6" in {o.train for o in bank_offers(game.rules, st, co)}


def _in_credits_only(action: dict[str, object]) -> bool:
    kind = action["type"]
    if kind in ("lay_tile", "promote_tile", "run_routes", "place_base"):
        return True
    if kind == "dividend":
        return action["kind"] == "withhold"
    return kind == "buy_train" and not action.get("contribution")


def test_withheld_revenue_and_costs_are_credits_and_leave_the_bank_alone() -> None:
    """34.4, 34.6, 31.10, 35.7, 40: the companies' earnings and payments are in credits; the
    bank's personal money moves only with the players."""
    game = first(seed=7)
    rng = random.Random(7)
    seen = set()
    while not game.finished and len(game.log) < 3000:
        action = random_action(game, rng)
        # A lay or run that fulfils a contract returns the player's bond (31.25): it was held
        # aside, not in the bank, so the bank and the players' money with the bonds held are
        # what must not move.
        before = game.state.bank, sum(p.cash for p in game.state.players) + bonds_held(game.state)
        game.process(action)
        after = game.state.bank, sum(p.cash for p in game.state.players) + bonds_held(game.state)
        if _in_credits_only(action):
            assert after == before, action
            seen.add(action["type"])
        treasuries = sum(c.cash for c in game.state.companies.values())
        assert treasuries == game.state.credits
    assert {"lay_tile", "run_routes", "buy_train"} <= seen


def test_a_second_edition_game_has_no_credits_in_its_views() -> None:
    game = Game(Settings(FOUR, seed=1))
    assert "credits" not in game.view(None) and game.state.credits == 0


def test_bad_bids_in_the_terminal_words_are_explained() -> None:
    from india1853.interfaces.terminal.parse import Request, parse

    assert parse("bid Delhi NWR, Lahore nwr, Multan NWR") == Request(
        "submit_bid", {"claims": [{"city": "Delhi", "company": "NWR"},
                                  {"city": "Lahore", "company": "NWR"},
                                  {"city": "Multan", "company": "NWR"}]})
    with pytest.raises(India1853Error, match="usage: bid"):
        parse("bid Delhi, Lahore NWR")


def test_the_trains_are_table_5s_without_extra_trains() -> None:
    """The train cards of TABLE 5, and no extra trains (2.8.4 is second edition only)."""
    game = first()
    names = [t.name for t in game.state.trains]
    assert sorted(set(names)) == ["2", "2M", "3", "3M", "4", "4M", "5", "6"]
    assert len(names) == 6 + 5 + 4 + 3 + 2 + 2 + 3 + 2
    assert all(isinstance(t, TrainState) and not t.extra for t in game.state.trains)


FIRST_EDITION_GAMES = sorted((Path(__file__).resolve().parents[1] / "games" / "first")
                             .glob("*.json"))


# One game in the unit suite (the MIK 2 kit's: bids, cards), every one in `make soak`.
@pytest.mark.parametrize("path", soak_but(
    FIRST_EDITION_GAMES, {p for p in FIRST_EDITION_GAMES if p.stem == "random-4p-seed2-mik2"},
    lambda p: p.stem))
def test_first_edition_fixture_actions_validate_against_the_published_schema(path: Path) -> None:
    """The actions of a fixture game of tests/games/first, its secret bids included, match
    exactly one branch of docs/action.schema.json."""
    actions = schema_valid_actions(path)
    bids = sum(a["type"] == "submit_bid" for a in actions)
    assert bids in (0, len(json.loads(path.read_text())["settings"]["players"]))


def test_a_malformed_claim_fails_the_schema_and_is_refused() -> None:
    """A claim with a field no claim has (a bond) fails the schema and is refused."""
    validator = action_schema()
    bad = {"type": "submit_bid", "entity": "Ann", "entity_type": "player", "id": 1,
           "created_at": 0, "claims": [{"city": "Delhi", "company": "NWR", "bond": 40}]}
    assert not validator.is_valid(bad)
    with pytest.raises(InputError, match=r"claims\[0\]"):
        check_action(bad)


# --- variants -------------------------------------------------------------------------------


def test_the_simplified_game_deals_directors_certificates() -> None:
    """Simplified Game: £440 each; one director's certificate each (not the BBCI's nor the
    BAR's), seating in company order with the Elephant to the first; two more shares each, paid
    for; the dealing round begins with the companies formed."""
    game = first(variants=("simplified",))
    st = game.state
    assert st.round == "stock" and not game.log
    dealt = {p.name: next(iter(p.shares)) for p in st.players}
    assert sorted(dealt.values()) == ["BNR", "EIR", "GIP", "NWR"]
    numbers = [game.rules.company(dealt[n]).number for n in st.player_names()]
    assert numbers == sorted(numbers) and st.elephant == st.player_names()[0]
    for p in st.players:
        initials = dealt[p.name]
        assert p.shares == {initials: 4}
        assert p.cash == 440 - 4 * game.rules.company(initials).par
        co = st.companies[initials]
        assert co.director == p.name and co.formed and co.cash == 10 * game.rules.company(
            initials).par
    assert game.rules.table.qualifying_shares == 4 and game.rules.table.share_limit == 5
    # The deal is the seed's: the same settings deal the same certificates.
    again = first(variants=("simplified",))
    assert {p.name: dict(p.shares) for p in again.state.players} == {
        p.name: dict(p.shares) for p in st.players}


@pytest.mark.parametrize("variants", [
    ("simplified", "minimum_companies"), ("simplified", "amended_share_limits"),
    ("minimum_companies", "amended_share_limits"), ("long_game", "shortened_game"),
    ("simplified", "long_game"),
])
def test_combinations_the_rulebook_forbids_are_refused(variants: tuple[str, ...]) -> None:
    with pytest.raises(InputError, match=r"settings\.variants: .* may not be combined"):
        first(variants=variants)


@pytest.mark.parametrize("name", ["simplified", "long_game", "minimum_companies", "mik3"])
def test_first_edition_variants_are_refused_in_the_second_edition(name: str) -> None:
    with pytest.raises(InputError, match=f"unknown variant '{name}' in the second edition"):
        Game(Settings(FOUR, edition="second", variants=(name,)))


def test_amended_share_limits_raise_the_qualifying_number() -> None:
    """19 AMENDED SHARE LIMITS: seven shares qualify a company with four players, not six."""
    six: Bid = [*NWR4, ("Delhi", "NWR"), ("Jaipur", "NWR")]
    standard, amended = first(), first(variants=("amended_share_limits",))
    for game in (standard, amended):
        bids(game, {"Ann": six, "Bob": EIR3, "Cat": SIR_BAR, "Dan": EIR_BAR})
    assert standard.state.companies["NWR"].formed
    assert not amended.state.companies["NWR"].formed
    assert amended.rules.table.qualifying_shares == 7


def test_minimum_companies_run_after_the_first_dealing_round() -> None:
    """19 MINIMUM NUMBER OF COMPANIES: at the end of the first dealing round directors are
    appointed below the qualifying number - the most shares issued first, then the higher par -
    until three companies run with four players, where someone holds two shares."""
    game = first(variants=("minimum_companies",))
    bids(game, {"Ann": NWR4, "Bob": EIR3, "Cat": SIR_BAR, "Dan": EIR_BAR})
    assert not any(co.formed for co in game.state.companies.values())
    while game.state.round == "stock":
        name = game.state.players[game.state.stock.current].name
        game.process(game.action("pass", name))
    formed = {i for i, co in game.state.companies.items() if co.formed}
    # NWR (4 issued), EIR (5 issued: Bob 3, Dan 2), SIR (3 issued, Cat 3); BAR has 2 issued
    # but nobody holds two of it.
    assert formed == {"NWR", "EIR", "SIR"}
    st = game.state
    assert st.companies["EIR"].director == "Bob" and st.companies["SIR"].director == "Cat"


@pytest.mark.parametrize("seed", range(6))
def test_minimum_companies_are_met_or_waived(seed: int) -> None:
    """Random first dealing rounds: afterwards the minimum runs, or no other company has a
    holder of two shares (the option "may sometimes have to be waived")."""
    game = first(seed=seed, variants=("minimum_companies",))
    rng = random.Random(seed)
    while game.state.stock_round < 1 or game.state.round == "stock":
        game.process(random_action(game, rng))
    st = game.state
    running = sum(co.formed for co in st.companies.values())
    assert running >= game.rules.minimum_companies == 3 or not any(
        not co.floated and p.shares.get(i, 0) >= 2
        for i, co in st.companies.items() for p in st.players)


# --- the Alternative Rules (without the MIK 2 kit) --------------------------------------------


def test_alt_market_moves_the_price_by_the_dividends_size() -> None:
    """Alternative Rules 2.0: under half the price, no move; then one space, and two, three,
    four or five for two to five times the price; the standard game moves one space (34.7)."""
    for variants, movement in ((("alt_market",), "Alternative Rules 2.0"), ((), "34.7")):
        game = first(seed=2, variants=variants)
        assert game.rules.price_movement.rule == movement
        rng = random.Random(2)
        moves = set()
        while not game.finished and len(game.log) < 2500:
            action = random_action(game, rng)
            co = game.state.companies.get(action["entity"])
            before = co.price_index if co is not None else None
            revenue = game.state.turn.revenue
            game.process(action)
            if action["type"] == "dividend" and action["kind"] == "payout":
                assert co is not None and before is not None
                price = game.rules.market[before]
                steps = (game.rules.market.index(game.rules.ed.market.move(
                    price, game.rules.price_movement.dividend_move(revenue, price))) - before)
                assert game.state.companies[co.initials].price_index == before + steps
                moves.add(steps)
        assert moves and (moves == {1} or variants)


def _bbci_bid() -> Bid:
    return [("Ajmer", "BBCI"), ("Jaipur", "BBCI"), ("Karachi", "BBCI"), ("Delhi", "BBCI"),
            ("Bombay", "BBCI"), ("Ahmadabad", "BBCI")]


@pytest.mark.parametrize(("variants", "kind", "homes"), [
    ((), "minor", ["H10"]), (("alt_bbci",), "major", ["H10", "M9"]),
])
def test_alt_bbci_gives_a_second_base_at_bombay(variants: tuple[str, ...], kind: str,
                                                 homes: list[str]) -> None:
    """Alternative Rules 3.0: bought into in the first dealing round, the BBCI starts with a
    second base at Bombay (NE) and runs as companies 1-4 (two lays, 31.2)."""
    game = first(variants=variants)
    bids(game, {"Ann": _bbci_bid(), "Bob": EIR3, "Cat": SIR_BAR, "Dan": EIR_BAR})
    bbci = game.state.companies["BBCI"]
    assert bbci.formed and bbci.kind == kind
    assert sorted(b.hex for b in game.state.board.company_bases("BBCI")) == homes


def _to_phase_four_track_step(game: Game, rng: random.Random) -> str:
    """Random play until a company with a train begins an operating turn in Phase 4."""
    while True:
        st = game.state
        if (st.round == "operating" and not st.pending and st.phase == 4
                and st.turn.step == "track" and not st.turn.lays_done
                and st.company_trains(st.turn.order[st.turn.index])):
            co = st.companies[st.turn.order[st.turn.index]]
            if co.credit_train is None:
                return co.initials
        game.process(random_action(game, rng))


def test_alt_train_sales_sell_a_train_to_the_bank_in_phase_four() -> None:
    """Alternative Rules 4.0: in Phase 4, at the beginning of an operating turn, at full price
    (in credits); the bank offers the train again.  Without the rule, 35.6 forbids it."""
    game = first(seed=4, variants=("alt_train_sales",))
    rng = random.Random(4)
    early = None
    while game.state.phase < 4:
        st = game.state
        if early is None and st.round == "operating" and st.turn.step == "track" and \
                not st.pending and st.company_trains(st.turn.order[st.turn.index]):
            co = st.turn.order[st.turn.index]
            early = co
            with pytest.raises(RuleError) as err:
                game.process(game.action("sell_train", co,
                                         train=st.company_trains(co)[0].id))
            assert err.value.rule == "Alternative Rules 4.0"
        game.process(random_action(game, rng))
    assert early is not None
    initials = _to_phase_four_track_step(game, rng)
    st = game.state
    card = st.company_trains(initials)[0]
    cash, credits = st.companies[initials].cash, st.credits
    assert game.action("sell_train", initials, train=card.id) in game.legal_actions(initials)
    game.process(game.action("sell_train", initials, train=card.id))
    st = game.state
    price = game.rules.train_type(card.runs_as).price
    assert st.companies[initials].cash == cash + price and st.credits == credits + price
    assert next(t for t in st.trains if t.id == card.id).where == "pool"


def test_without_alt_train_sales_no_train_is_sold_to_the_bank() -> None:
    game = first(seed=4)
    rng = random.Random(4)
    while not (game.state.round == "operating" and game.state.turn.step == "track"
               and not game.state.pending
               and game.state.company_trains(game.state.turn.order[game.state.turn.index])):
        game.process(random_action(game, rng))
    co = game.state.turn.order[game.state.turn.index]
    assert not any(a["type"] == "sell_train" for a in game.legal_actions(co))
    with pytest.raises(RuleError) as err:
        game.process(game.action("sell_train", co, train=game.state.company_trains(co)[0].id))
    assert err.value.rule == "35.6"


def test_a_bid_may_be_undone_until_the_last_bid_reveals_them() -> None:
    """Hidden information: a bid is taken back before the bids are revealed; the last bid
    reveals the bonds and claims (15.1), so it and the bids before it cannot be undone."""
    game = first()
    bid(game, "Ann", NWR4)
    game.process(game.action("undo", "Ann"))
    assert game.state.player("Ann").bond is None and game.state.round == "bids"
    bids(game, {"Ann": EIR3, "Bob": NWR4, "Cat": SIR_BAR, "Dan": EIR_BAR})
    with pytest.raises(RuleError, match=r"the bonds, 15\.1"):
        game.process(game.action("undo", "Dan"))
