"""The turn model's tables: players, companies, the market with each marker's next moves, the
trains and the viewer's own contract bid, from what the viewer may see."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from india1853.data.citations import cite, cite_text
from india1853.data.model import PhaseSpec
from india1853.rules import construction as con
from india1853.rules.game import contract_progress, directing
from india1853.rules.game.game import Game
from india1853.rules.game.operating_round import price_after_dividend
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.secrecy import progress_visible
from india1853.rules.game.shares import would_be_director
from india1853.rules.game.state import CompanyState

Action = dict[str, Any]
Json = dict[str, Any]




def _players_table(game: Game, view: Mapping[str, Any], viewer: str | None) -> list[Json]:
    directors: dict[str, list[str]] = {}
    for initials, c in view["companies"].items():
        if c["director"]:
            directors.setdefault(c["director"], []).append(initials)
    return [{
        "name": p["name"],
        "cash": p["cash"],
        "certificates": dict(p["shares"]),
        "unredeemed": dict(p["unredeemed"]),
        "director_of": directors.get(p["name"], []),
        "bond": p["bond"],
        "bond_placed": p["bond_placed"],
        "bond_returned": p["bond_returned"],
        "cities": p["cities"],
        "cities_claimed": p["cities_claimed"],
        # 14.5: a first-edition bid's claims are secret until every bid is in (None).
        "claims": None if p["claims"] is None else list(p["claims"]),
        "bid_complete": p["bid_complete"],
        "elephant": view["elephant"] == p["name"],
        "you": p["name"] == viewer,
    } for p in view["players"]]


def _company_state(c: Mapping[str, Any]) -> str:
    if c["formed"]:
        return "operating"
    if c["floated"]:
        return "floated"
    return "not floated"


def _director_to_be(game: Game, initials: str) -> str | None:
    """The player who would be appointed director of a floated company now, while the first
    stock round postpones the appointment to its end (2.9.1-2.9.2, 3.2.1): the largest
    holder of two shares or more, ties to the longest holder.  The holdings are public."""
    co = game.state.companies[initials]
    if not co.floated or co.director is not None or co.formed:
        return None
    return would_be_director(game.rules, game.state, co)


def _kind_words(rules: GameRules, kind: str) -> str:
    """What a company's kind means for its track (4.1.2-4.1.3; first edition 31.2), in the
    edition's numbering: why a minor never lays two tiles a turn."""
    edition = rules.ed.name
    lays = rules.ed.rules.tile_lays
    rule = cite(edition, "4.1.2")
    if kind == "minor":
        return (f"Minor company: lays {_tiles(lays['minor'])} a turn, never more, and has no "
                f"lay option (rule {rule})")
    if kind == "major":
        how = (f"; how it gets the second lay is its lay option (rule {cite(edition, '4.1.3')})"
               if con.ConstructionPolicy.of(rules.ed).double_lay_is_a_choice else "")
        return f"Major company: lays up to {_tiles(lays['major'])} a turn (rule {rule}){how}"
    return (f"Major or minor: settled at the end of the first stock round "
            f"(rule {cite(edition, '2.6.2')}-{cite(edition, '2.6.3')})")


def _tiles(n: int) -> str:
    return "one tile" if n == 1 else f"{n} tiles"


def _companies_table(game: Game, view: Mapping[str, Any]) -> list[Json]:
    rules = game.rules
    cards = {t["id"]: t.get("runs_as") or t["card"] for t in view["trains"]}
    bases: dict[str, int] = {}
    for company, _, _ in view["board"]["bases"]:
        bases[company] = bases.get(company, 0) + 1
    out = []
    for initials, c in view["companies"].items():
        spec = rules.company(initials)
        out.append({
            "initials": initials,
            "name": spec.name,
            "kind": c["kind"],
            "kind_words": _kind_words(rules, c["kind"]),
            "par": spec.par,
            "price": c["price"],
            "market_index": game.state.companies[initials].price_index,
            "treasury": c["cash"],
            "trains": [cards.get(t, t) for t in c["trains"]],
            "credit_train": cards.get(c["credit_train"]) if c["credit_train"] else None,
            "ipo": c["ipo"],
            "pool": c["pool"],
            "director": c["director"],
            "director_to_be": _director_to_be(game, initials),
            "controller": c["controller"],
            "home": spec.homes[0].hex if spec.homes else None,
            "homes": [h.hex for h in spec.homes],
            "bases": bases.get(initials, 0),
            "base_tokens": spec.base_tokens,
            "state": _company_state(c),
            "float": directing.float_need(rules, game.state, game.state.companies[initials]),
            "floated": c["floated"],
            "formed": c["formed"],
            "colour": spec.colour,
            "text_colour": spec.text_colour,
        })
    return out


def _moves(rules: GameRules, co: CompanyState) -> Json:
    """Where the company's marker would go after its next dividend decision (4.7.1):
    withheld, and paid out from each threshold of the total dividend up."""
    price = rules.market[co.price_index or 0]
    withheld = price_after_dividend(rules, co, payout=False, dividend=0)
    payout = []
    for multiple, _ in rules.ed.market.movement.dividend_steps:
        amount = max(1, math.ceil(multiple * price))
        index = price_after_dividend(rules, co, payout=True, dividend=amount)
        payout.append({"from": amount, "price": rules.market[index], "market_index": index})
    return {"withhold": rules.market[withheld], "withhold_index": withheld, "payout": payout}


def _market_table(game: Game) -> Json:
    rules = game.rules
    markers: dict[str, list[str]] = {}
    moves: dict[str, Json] = {}
    for initials, co in game.state.companies.items():
        if co.price_index is not None:
            markers.setdefault(str(co.price_index), []).append(initials)
            moves[initials] = _moves(rules, co)
    return {"values": list(rules.market), "markers": markers, "moves": moves,
            "rule": rules.ed.market.movement.rule,
            "payout_multiples": [m for m, _ in rules.ed.market.movement.dividend_steps],
            "game_end_price": rules.game_end_price,
            "limit_exempt_price": rules.holding_limit_exempt_price}


def _trains_table(game: Game, view: Mapping[str, Any]) -> Json:
    ed = game.rules.ed
    left: dict[str, int] = {}
    pool: dict[str, int] = {}
    for t in view["trains"]:
        if t["where"] == "bank":
            left[t["card"]] = left.get(t["card"], 0) + 1
        elif t["where"] == "pool":
            pool[t["runs_as"]] = pool.get(t["runs_as"], 0) + 1
    starts = {p.train: p.number for p in ed.phases if p.train}
    roster: list[Json] = [{"type": spec.name, "gauge": spec.gauge, "price": spec.price,
               "left": left.get(spec.name, 0), "pool": pool.get(spec.name, 0),
               "starts_phase": starts.get(spec.name)} for spec in ed.trains]
    # A dual-option card (4.8.16) comes first: it is bought first.
    roster[:0] = [{"type": dual.card, "gauge": "dual option", "price": None,
                "prices": [ed.trains.get(t).price for t in dual.trains],
                "left": left.get(dual.card, 0), "pool": 0, "starts_phase": None}
               for dual in ed.trains.dual_options]
    phase = ed.phase(game.state.phase)
    return {"roster": roster, "phase": game.state.phase,
            "train_limit": phase.train_limit, "tiles": list(phase.tiles),
            "available": list(phase.trains_available),
            "words": _phase_words(ed.name, phase)}


def _phase_words(edition: str, phase: PhaseSpec) -> str:
    """The phase in words, as TABLE 6 has it: the train limit (none before the first stock
    round: no company owns trains yet) and the tile colours that may be laid (4.10)."""
    limit = ("no train limit" if phase.train_limit is None
             else f"train limit {phase.train_limit} (rule {cite(edition, '4.8.5')})")
    tiles = (f"tiles: {', '.join(phase.tiles)}" if phase.tiles
             else "no tiles may be laid yet")
    return f"{limit} · {tiles}" + (f" · {phase.note}" if phase.note else "")


def _contract(game: Game, viewer: str | None) -> Json | None:
    """The viewer's own contract bid (2.5.2-2.5.9, 4.3): only ever his own."""
    if viewer is None:
        return None
    p = game.state.player(viewer)
    if p.bond is None:
        return None
    values = {c: game.rules.city(c).bond_value for c in p.cities}
    groups = con.contract_groups(game.state.board, p.cities) if p.cities else []
    joined = {c: [o for o in g if o != c] for g in groups for c in g}
    progress = (contract_progress.progress(game.rules, game.state, p)
                if progress_visible(game.state, p, viewer) else None)
    connected = {c["name"]: c["connected"] for c in progress["cities"]} if progress else {}
    return {"player": viewer, "bond": p.bond, "returned": p.bond_returned,
            "cities": [{"name": c, "hex": game.rules.city(c).hex, "bond_value": v,
                        "joined_to": joined.get(c, []), "connected": connected.get(c, False)}
                       for c, v in values.items()],
            "groups": groups, "rule": "4.3.1",
            "uncovered": p.bond - sum(values.values()), "claims": list(p.claims),
            "complete": p.bid_complete, "progress": progress}


def public_tables(game: Game) -> Json:
    """The tables every viewer sees alike - companies, market, trains: built from the public
    view (no seat's secret: views.py hides none of their parts from anyone), citing the
    game's own edition, once per state for all viewers (``Game.per_state``).  Shared by
    every viewer's model: read them, never change them."""
    return game.per_state("turn.public_tables", lambda: _public_tables(game))


def _public_tables(game: Game) -> Json:
    view = game.view(None)
    edition = game.rules.ed.name
    companies = _companies_table(game, view)
    for company in companies:
        company["float"]["text"] = cite_text(edition, company["float"]["text"])
        company["float"]["rule"] = cite(edition, company["float"]["rule"])
    return {"companies": companies, "market": _market_table(game),
            "trains": _trains_table(game, view)}


def tables(game: Game, view: Mapping[str, Any], viewer: str | None) -> Json:
    public = public_tables(game)
    return {
        "players": _players_table(game, view, viewer),
        "companies": public["companies"],
        "market": public["market"],
        "trains": public["trains"],
        "bank": view["bank"],
        "bonds_held": view["bonds_held"],
        "elephant": view["elephant"],
        "bank_broken": view["bank_broken"],
        "contract": _contract(game, viewer),
        "scores": view.get("scores"),
    }


__all__ = ["tables"]
