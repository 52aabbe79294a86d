"""Alternative Rules 1.0 (first edition, variant ``alt_start``) through the engine's API: places
dealt at random, the revised TABLE 3, shares bought one at a time under the offer rule, the
qualifying number and the director's exchange."""

from __future__ import annotations

import pytest

from india1853.errors import InputError, RuleError
from india1853.rules.game import Game, Settings
from india1853.rules.game.alt_start import on_offer
from india1853.rules.game.legal import legal_actions
from india1853.rules.game.variants import VariantPolicy, table_of, variant_policies

FOUR = ("Ann", "Bob", "Cat", "Dan")


def alt(players: tuple[str, ...] = FOUR, *, seed: int = 1,
        variants: tuple[str, ...] = ("alt_start",)) -> Game:
    return Game(Settings(players, seed=seed, edition="first", variants=variants))


def turn(game: Game) -> str:
    return game.state.players[game.state.stock.current].name


def buy(game: Game, company: str, source: str = "ipo") -> str:
    """The player whose turn it is buys one share; returns his name."""
    player = turn(game)
    game.process(game.action("buy_share", player, company=company, source=source))
    return player


def decline(game: Game) -> None:
    game.process(game.action("pass", turn(game)))


@pytest.mark.parametrize(("players", "cash", "shares", "certificates", "qualifying"), [
    (3, 590, 6, 21, 6), (4, 570, 6, 16, 5), (5, 535, 5, 13, 5), (6, 480, 4, 11, 4),
])
def test_the_revised_table_3(players: int, cash: int, shares: int, certificates: int,
                             qualifying: int) -> None:
    game = alt(tuple("ABCDEF"[:players]))
    t = game.rules.table
    assert (t.starting_cash, t.share_limit, t.certificate_limit, t.qualifying_shares) == (
        cash, shares, certificates, qualifying)
    assert all(p.cash == cash for p in game.state.players)


def test_places_are_dealt_from_the_seed_and_player_one_takes_the_elephant() -> None:
    """No contract bids: the game opens in the first dealing round, seated by the place cards
    (the seed's shuffle, repeated by every replay), Player One holding the Elephant and
    buying first."""
    orders = set()
    for seed in range(1, 9):
        game = alt(seed=seed)
        st = game.state
        assert st.round == "stock" and not game.log and st.stock_round == 1
        assert sorted(st.player_names()) == sorted(FOUR)
        assert st.elephant == st.player_names()[0] == turn(game)
        assert alt(seed=seed).state.player_names() == st.player_names()
        orders.add(tuple(st.player_names()))
    assert len(orders) > 1  # the places are dealt, not the settings' order


def test_any_company_until_as_many_are_bought_into_as_there_are_players() -> None:
    game = alt()
    assert on_offer(game.rules, game.state) == [c.initials for c in game.rules.companies]
    for company in ("BAR", "SIR", "EIR"):
        buy(game, company)
    # Three companies bought into, four players: still any.
    assert len(on_offer(game.rules, game.state)) == 8
    buy(game, "BAR")
    buy(game, "MSM")
    assert on_offer(game.rules, game.state) == ["EIR", "MSM", "SIR", "BAR"]
    with pytest.raises(RuleError, match=r"rule Alternative Rules 1\.0: new shares are on offer "
                       r"only in EIR, MSM, SIR, BAR, not in GIP"):
        buy(game, "GIP")
    offered = {a["company"] for a in legal_actions(game.rules, game.state, turn(game))
               if a["type"] == "buy_share"}
    assert offered == {"EIR", "MSM", "SIR", "BAR"}


def test_when_one_company_remains_on_offer_the_next_in_numerical_order_is_put_on_offer() -> None:
    """Three players buy into BAR, SIR and MSM; once BAR and SIR are fully paid (eight single
    shares each, the director's certificate laid out beside them), MSM and the EIR, the first
    company in numerical order not bought into, are on offer."""
    game = alt(("A", "B", "C"), seed=2)
    for company in ("BAR", "SIR", "MSM"):
        buy(game, company)
    for company in ("BAR", "SIR"):
        while company in on_offer(game.rules, game.state):
            assert on_offer(game.rules, game.state)[-2:] != ["EIR"]
            buy(game, company)
    assert on_offer(game.rules, game.state) == ["EIR", "MSM"]
    with pytest.raises(RuleError, match=r"on offer only in EIR, MSM, not in GIP"):
        buy(game, "GIP")


def test_the_director_holds_the_most_shares_ties_to_the_first_buyer() -> None:
    """The qualifying number (5 with four players) bought: the first buyer of two, tied with
    another, exchanges them for the director's certificate; the company forms at once."""
    game = alt()
    seats = game.state.player_names()
    for _ in range(2):
        for _seat in seats[:2]:
            buy(game, "EIR")
        decline(game)
        decline(game)
    co = game.state.companies["EIR"]
    assert not co.floated and co.director is None  # four bought, five qualify
    buy(game, "EIR")
    co = game.state.companies["EIR"]
    assert co.floated and co.formed and co.director == seats[0]
    assert game.state.player(seats[0]).shares["EIR"] == 3


def test_the_director_waits_until_someone_holds_two_shares() -> None:
    """Five players, each buying one EIR share: the qualifying number (5) is bought but nobody
    can exchange two, so no director, no manager (unlike 22.2) and no company; the next player
    to hold two is appointed, although Player One bought into the company first."""
    game = alt(("A", "B", "C", "D", "E"))
    seats = game.state.player_names()
    for _seat in seats:
        buy(game, "EIR")
    co = game.state.companies["EIR"]
    assert game.rules.shares_per_company - co.ipo == game.rules.table.qualifying_shares == 5
    assert not co.floated and co.director is None and co.manager is None and not co.formed
    decline(game)
    assert buy(game, "EIR") == seats[1]
    co = game.state.companies["EIR"]
    assert co.formed and co.director == seats[1]
    assert game.state.player(seats[0]).shares["EIR"] == 1


def test_a_share_sold_in_the_first_dealing_round_realises_5_less_and_others_may_buy_it() -> None:
    """18.1 stands (£5 less than par in the first dealing round); 18's "once sold they may not
    be bought from the Pool until the NEXT Dealing Round" goes with 18 (docs/rulings.md), so
    another player may buy it; the seller may not (21.9)."""
    game = alt()
    seller = buy(game, "EIR")
    for _ in range(3):
        decline(game)
    game.process(game.action("sell_shares", seller, company="EIR", count=1))
    assert game.state.player(seller).cash == 570 - 100 + 95
    with pytest.raises(RuleError, match=r"rule 21\.9: "):
        buy(game, "EIR", "pool")
    buy(game, "BAR")
    assert buy(game, "EIR", "pool") != seller
    assert game.state.companies["EIR"].pool == 0


def test_shares_may_not_be_sold_in_the_round_a_director_was_first_appointed() -> None:
    """18.1 stands: once a director has been appointed, no sale in that dealing round."""
    game = alt()
    for _ in range(2):
        for _seat in game.state.player_names()[:2]:
            buy(game, "EIR")
        decline(game)
        decline(game)
    buy(game, "EIR")
    assert game.state.companies["EIR"].director is not None
    with pytest.raises(RuleError, match=r"rule 18\.1, 21\.8: EIR's director was appointed"):
        game.process(game.action("sell_shares", turn(game), company="EIR", count=1))


@pytest.mark.parametrize("other", ["simplified", "minimum_companies", "amended_share_limits"])
def test_the_paragraphs_it_replaces_may_not_be_combined_with_it(other: str) -> None:
    with pytest.raises(InputError, match=r"settings\.variants: .* may not be combined"):
        alt(variants=("alt_start", other))


def test_it_combines_with_the_other_alternative_rules_and_is_first_edition_only() -> None:
    game = alt(variants=("alt_start", "alt_market", "alt_bbci", "alt_train_sales"))
    assert game.state.round == "stock"
    with pytest.raises(InputError, match="unknown variant 'alt_start' in the second edition"):
        Game(Settings(FOUR, edition="second", variants=("alt_start",)))


def test_the_mik2_line_of_the_revised_table_is_read_through_the_variant_policy() -> None:
    """"As above when using MIK 2 Kit": with a variant named mik2 chosen too, the revised
    TABLE 3's MIK 2 line (the data's alternative_table_3_mik2); alone, its standard line."""
    chosen = variant_policies("first", ("alt_start",))
    assert table_of(chosen) == "alternative_table_3"
    assert table_of((*chosen, VariantPolicy("mik2", ("first",), "MIK 2"))) == (
        "alternative_table_3_mik2")
    assert table_of(variant_policies("first", ("alt_market",))) is None


def test_with_the_mik2_kit_the_revised_table_3_s_kit_line_applies() -> None:
    """The Alternative Rules "should be used with the MIK 2 Kit": with both, the revised TABLE
    3's kit line (20 cards each with four players, no per-company limit: "not restricted when
    using the MIK 2 Kit"), its starting capital, and the kit's cards in play."""
    game = alt(variants=("mik2", "alt_start"))
    t = game.rules.table
    assert (t.starting_cash, t.share_limit, t.certificate_limit, t.qualifying_shares) == (
        570, None, 20, 5)
    assert game.state.kit is not None and len(game.state.kit.deck) == 21
    # Shares one at a time from Player One, as without the kit; seven in one company (the
    # standard line's limit is six).
    first = turn(game)
    while game.state.player(first).shares.get("BAR", 0) < 7:
        if turn(game) == first:
            buy(game, "BAR")
        else:
            decline(game)
    assert game.state.player(first).shares["BAR"] == 7
