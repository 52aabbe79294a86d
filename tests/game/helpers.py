"""Helpers for the game-engine tests: acting, invariants, scripted starts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from india1853.rules.game import Game, Settings
from india1853.rules.game.scoring import bonds_held


def act(game: Game, type_: str, entity: str, **fields: Any) -> None:
    game.process(game.action(type_, entity, **fields))


def check_invariants(game: Game) -> None:
    """The invariants of the issue, after any action."""
    st, rules = game.state, game.rules
    total = (st.bank + sum(p.cash for p in st.players)
             + sum(c.cash for c in st.companies.values()) + bonds_held(st))
    assert total == st.start_total, "money is not conserved"
    if st.round != "finished":
        assert st.bank > 0 or st.bank_broken, "the bank is negative outside the end"
    for initials, co in st.companies.items():
        held = sum(p.shares.get(initials, 0) for p in st.players)
        assert co.ipo + co.pool + held == rules.shares_per_company, initials
        assert co.ipo >= 0 and co.pool >= 0
        for p in st.players:
            assert 0 <= p.unredeemed.get(initials, 0) <= p.shares.get(initials, 0)
        if co.director is not None:
            assert st.player(co.director).shares[initials] >= rules.director_shares
    supply = st.board.supply()
    assert all(n >= 0 for n in supply.values()), "a tile count exceeds the manifest"
    cards = Counter(t.runs_as for t in st.trains if t.where != "bank")
    extras = sum(1 for t in st.trains if t.extra)
    for spec in rules.ed.trains:
        if spec.name in ("2", "1M"):
            continue
        assert cards[spec.name] <= spec.total(True), spec.name
    dual = sum(1 for t in st.trains if t.runs_as in ("2", "1M") and t.where != "bank")
    assert dual <= rules.ed.trains.get("2").total(True) + extras
    places = [(b.company, b.hex) for b in st.board.bases]
    assert len(places) == len(set(places)), "a base token is in two places"
    for spec in rules.companies:
        assert len(st.board.company_bases(spec.initials)) <= spec.base_tokens
    owned = Counter(t.owner for t in st.trains if t.where == "company")
    for initials, n in owned.items():
        assert initials in st.companies and st.companies[initials].formed
        del n


def dick_jeff_lou() -> Game:
    """The rulebook's example (2.5): Jeff bonds £100, Lou £90, Dick £130."""
    game = Game(Settings(("Jeff", "Lou", "Dick"), seed=1))
    act(game, "place_bond", "Jeff", amount=100)
    act(game, "place_bond", "Lou", amount=90)
    act(game, "place_bond", "Dick", amount=130)
    return game


def dick_jeff_lou_bids(game: Game) -> None:
    """The example's cities, completed for Jeff and Lou."""
    for entity, city, company in [
        ("Dick", "Calcutta", "EIR"), ("Jeff", "Bombay", "BBCI"), ("Lou", "Lahore", "NWR"),
        ("Dick", "Patna", "EIR"), ("Jeff", "Ajmer", "BBCI"), ("Lou", "Peshawar", "NWR"),
        ("Dick", "Delhi", "EIR"), ("Jeff", "Ahmadabad", "BBCI"), ("Lou", "Rawalpindi", "NWR"),
        ("Dick", "Jaipur", "BBCI"), ("Jeff", "Karachi", "NWR"), ("Lou", "Multan", "NWR"),
    ]:
        act(game, "claim_city", entity, city=city, company=company)
    for entity in ("Dick", "Jeff", "Lou"):
        act(game, "pass", entity)


def four_player_start(seed: int = 3) -> Game:
    """A 4-player game where the EIR (major) and the MSM (minor) float from the bids and the
    first stock round ends at once; the game stands at the EIR's first operating turn."""
    game = Game(Settings(("Ann", "Bob", "Cat", "Dan"), seed=seed))
    for name, amount in (("Ann", 110), ("Bob", 100), ("Cat", 80), ("Dan", 60)):
        act(game, "place_bond", name, amount=amount)
    script = [
        ("Ann", "Calcutta", "EIR"), ("Bob", "Madras", "MSM"), ("Cat", "Delhi", "EIR"),
        ("Dan", "Mysore", "MSM"), ("Ann", "Patna", "EIR"), ("Bob", "Bangalore", "MSM"),
        ("Cat", "Lucknow", "EIR"), ("Dan", "Hyderabad", "MSM"), ("Ann", "Jaipur", "GIP"),
        ("Bob", "Bombay", "MSM"), ("Cat", "Ajmer", "GIP"), ("Dan", "Benares", "EIR"),
    ]
    for name, city, company in script:
        act(game, "claim_city", name, city=city, company=company)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        act(game, "pass", name)
    return game


def finish_first_stock_round(game: Game) -> None:
    while game.state.round == "stock":
        act(game, "pass", game.active_entities()[0][0])
    act(game, "pass", game.state.elephant or "")
