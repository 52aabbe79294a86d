"""Views of the state: what one player, every player, or the moderator may see.

Hidden information (2.5.2-2.5.4, 4.3.2): a bond's amount is secret until every bond is in; the
cities of a bid are secret until the contract is fulfilled (the claimed shares are public).  A
player always sees his own bond and cities; the moderator sees everything.  Once the game is
over (5.1) nothing is secret: every bid's cities and which contracts failed are in every view.
When each secret is revealed is declared once, in ``secrecy.py``; the views ask it.
"""

from __future__ import annotations

from typing import Any

from india1853.data.citations import cite
from india1853.rules.game.disturbances import announced_closure
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.scoring import bonds_held, scores
from india1853.rules.game.secrecy import bid_secret, bonds_secret, cities_public
from india1853.rules.game.shares import controller, price
from india1853.rules.game.state import GameState, PlayerState
from india1853.rules.game.stock_round import FIRST_STOCK_ROUND


def revealed(rules: GameRules, st: GameState) -> frozenset[str]:
    """The secrets that every player has now seen (the measure of the undo barrier).

    Every bond once all are in (2.5.3); a bid's cities once its contract is fulfilled (4.3.2);
    and, when the BBCI's type is settled at the end of the first stock round by its director's
    bid (2.6.2-2.6.3), whether that bid names both the BBCI's cities.  The end of the contract
    bids reveals nothing: the claims are public from the start, the cities stay secret.
    """
    return reveal_wording(rules, reveal_facts(rules, st))


RevealFacts = tuple[bool, bool, tuple[tuple[str, bool, bool], ...], int, int, bool]


def reveal_facts(rules: GameRules, st: GameState) -> RevealFacts:
    """What :func:`revealed` is worded from: (the game over, the bonds public, each player's
    (name, contract fulfilled, cities declared), the MIK 2 cards drawn and actioned, the BBCI's
    first director's bid settled).  Equal facts, equal secrets revealed: the engine compares
    these before and after every action and words them only when they differ."""
    kit = st.kit
    bbci = False
    spec = rules.bbci
    if spec is not None:
        co = st.companies[spec.initials]
        bbci = co.had_director and co.first_director_round == FIRST_STOCK_ROUND
    return (st.round == "finished", not bonds_secret(st),
            tuple((p.name, p.bond_returned, p.declared) for p in st.players),
            0 if kit is None else kit.draws, 0 if kit is None else kit.shown, bbci)


def reveal_wording(rules: GameRules, facts: RevealFacts) -> frozenset[str]:
    """The secrets of :func:`reveal_facts`, each in words citing its rule."""
    finished, bonds_public, players, draws, shown, bbci = facts
    out = set()
    if finished:
        out.add("every bid's cities and which contracts failed, the game is over (5.1)")
    if bonds_public:
        out.add(f"the bonds, {rules.policy.bonds_revealed_rule}")
    for name, bond_returned, declared in players:
        if bond_returned:
            out.add(f"{name}'s cities, {cite(rules.ed.name, '4.3.2')}")
        elif declared:
            out.add(f"{name}'s cities, 15.4")
    # MIK 2: a card drawn is seen by its drawer; one actioned, by everyone.
    if draws:
        out.add(f"MIK 2 cards drawn: {draws}")
    if shown:
        out.add(f"MIK 2 cards actioned: {shown}")
    spec = rules.bbci
    if spec is not None and bbci:
        cities = " and ".join(rules.bbci_major_cities())
        out.add(f"whether {spec.initials}'s first director's bid names {cities}, 2.6.2")
    return frozenset(out)


def _player(rules: GameRules, st: GameState, p: PlayerState, viewer: str | None,
            moderator: bool) -> dict[str, Any]:
    own = moderator or viewer == p.name
    bonds_public = not bonds_secret(st)
    # The bond money is put aside as soon as it is written, so a player's cash would give the
    # secret amount away: while bonds are secret, others see no cash for a player who has one.
    cash_hidden = not own and not bonds_public and p.bond is not None
    over = st.round == "finished"
    bid_hidden = not own and bid_secret(st) and p.bond is not None
    cities_seen = own or cities_public(st, p)
    claims = list(p.claims)
    if not cities_seen and rules.policy.bid_procedure == "secret":
        # 14.5: a bid's order pairs each share with a city: sorted while the cities are secret.
        claims.sort()
    return {
        "name": p.name,
        "cash": None if cash_hidden else p.cash,
        "shares": dict(p.shares),
        "unredeemed": dict(p.unredeemed),
        # 14.5: a first-edition bid's claims are secret with the rest of the bid.
        "claims": None if bid_hidden else claims,
        "bond_placed": p.bond is not None,
        "bond": p.bond if (own or bonds_public) else None,
        "cities": list(p.cities) if cities_seen else None,
        "cities_claimed": None if bid_hidden else len(p.cities),
        "bid_complete": p.bid_complete,
        "bond_returned": p.bond_returned,
        # 4.3: "fulfilled" once the bond is returned; "failed" for a bid whose contract was
        # not fulfilled by the end of the game; None while it may still be.
        "contract": ("fulfilled" if p.bond_returned
                     else "failed" if over and p.bond is not None else None),
    }


def _kit(st: GameState, viewer: str | None, moderator: bool) -> dict[str, Any]:
    """MIK 2: a player's undecided cards are secret to the others ("its identity remains
    secret") until the game is over; the stack's order is in no view (the moderator sees its
    cards sorted), the discard stack's cards are face down (counted only); the Director's
    Shares held and the cities disturbed are public."""
    kit = st.kit
    assert kit is not None
    over = st.round == "finished"
    return {
        "deck": len(kit.deck),
        "deck_cards": sorted(kit.deck) if moderator else None,
        "discard": len(kit.discard),
        "discard_cards": list(kit.discard) if moderator else None,
        "hands": {p.name: (list(kit.hands.get(p.name, []))
                           if moderator or over or viewer == p.name else None)
                  for p in st.players},
        "hand_sizes": {p.name: len(kit.hands.get(p.name, [])) for p in st.players},
        "directors_shares": {p.name: list(kit.directors.get(p.name, [])) for p in st.players},
        "disturbed": list(kit.disturbed),
        # Once its railway round is over the closure is history (``disturbed`` keeps it).
        "closed": announced_closure(st),
        "closed_round": kit.closed_round,
    }


def view(rules: GameRules, st: GameState, viewer: str | None, *,
         moderator: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "edition": rules.ed.name,
        "round": st.round,
        "phase": st.phase,
        "stock_round": st.stock_round,
        "operating_round": st.operating_round,
        "or_in_set": st.or_in_set,
        "ors_in_set": st.ors_in_set,
        "bank": st.bank,
        # The total held aside would reveal the secret bonds while they are being written.
        "bonds_held": None if bonds_secret(st) and not moderator else bonds_held(st),
        "elephant": st.elephant,
        "bank_broken": st.bank_broken,
        "end_reason": st.end_reason,
        "players": [_player(rules, st, p, viewer, moderator) for p in st.players],
        "companies": {
            i: {
                "kind": c.kind,
                "ipo": c.ipo,
                "pool": c.pool,
                "floated": c.floated,
                "formed": c.formed,
                "director": c.director,
                "controller": controller(st, c) if c.formed else None,
                "cash": c.cash,
                "price": price(rules, c) if c.price_index is not None else None,
                "trains": [t.id for t in st.company_trains(i)],
                "credit_train": c.credit_train,
                "lay_option": c.lay_option,
                "token": c.token,
            }
            for i, c in st.companies.items()
        },
        "trains": [
            {"id": t.id, "card": t.name, "runs_as": t.runs_as, "where": t.where,
             "owner": t.owner}
            for t in st.trains
        ],
        "board": {
            "tiles": {h: [p.tile, p.rotation] for h, p in st.board.tiles.items()},
            "bases": [[b.company, b.hex, b.station] for b in st.board.bases],
        },
        "pending": [{"kind": p.kind, "entity": p.entity, "data": dict(p.data)}
                    for p in st.pending],
    }
    if st.kit is not None:
        out["kit"] = _kit(st, viewer, moderator)
    if rules.policy.company_credits:
        # 23.1: the companies' money is Company Credits, shown apart from the personal money.
        out["company_money"] = "credits"
        out["credits"] = st.credits
    if st.round == "operating":
        t = st.turn
        out["turn"] = {"company": t.order[t.index], "step": t.step,
                       "lays": [list(x) for x in t.lays_done], "promoted": t.promoted,
                       "revenue": t.revenue, "routes": t.routes}
    if st.round in ("claims", "stock"):
        out["current_player"] = st.players[st.stock.current].name
    if st.round == "finished":
        out["scores"] = scores(rules, st)
    return out
