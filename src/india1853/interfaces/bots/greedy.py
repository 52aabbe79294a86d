"""The greedy bot: sensible, fast play from what its player may see.

It looks at its player's view and the legal actions only, plus the edition's public data (board,
cities, tiles, trains, costs).  Each decision is a small scoring rule named after the part of
the rules it plays (2.5 contract bids, 3 stock rounds, 4.1-4.8 operating turns); none looks
further than one action ahead.  The engine lists the optimal run first (4.5-4.6); the bot runs
the router itself only to value a position it could reach: the board of its view with one more
tile, or its company with one more train (:func:`run_value`).

- Contract bids (2.5): a compact set of the fewest cities allowed, near each other and sharing
  a company, the bond just covering their values (2.5.9); one share a city, of the company it
  concentrates on.
- Stock rounds (3.1): redeem first (2.7.4); buy the best-scoring share (its own companies, then
  companies that can float under it, then companies whose price has risen above par, which
  only dividends do, 4.7.1); pass when nothing scores more than the threshold.
- Track (4.1-4.2): score each lay by what it reaches: its stations, and the weight of unreached
  targets (its contract cities, nearby cities and towns, frontier posts) over the hex distance
  from its open ends, less the terrain cost; track of its trains' gauge (broad first, metre
  when only metre track or a metre train is within reach).  A company whose trains have no
  route lays the track that gives it one (the router values the most promising lays) before
  anything else, and keeps extending its track while none does.
- Trains (4.8): a company without a train buys one that runs, or a broad one that leaves it
  money for track; another only if its optimal run with the extra train is worth more than
  without it, so that no company spends its track money on trains that cannot run.
- Bases (4.4), dividends (4.6.4): see the functions below.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from india1853.board.graph import TrackGraph
from india1853.board.hexes import distance, neighbour
from india1853.board.state import Base, BoardState, PlacedTile
from india1853.board.tiles import exits
from india1853.data.loader import load_edition
from india1853.data.model import CitySpec, Edition, TileSpec, TrainSpec
from india1853.errors import India1853Error, InputError
from india1853.rules.router import best_run
from india1853.rules.routes import Train

Action = dict[str, Any]
View = dict[str, Any]

# Weights of the track score, in pounds of "value" (tuned by simulation, docs/bots.md).
CONTRACT_WEIGHT = 80
TOWN_WEIGHT = 10
NEARBY = 6
LAY_THRESHOLD = 1.0
COST_WEIGHT = 0.15
# Plans considered at bond time, and how many of the best the bot picks among at random.
PLAN_CHOICES = 6
# A share must score more than this to be bought: a company at par that has never paid (its
# price rises only with dividends, 4.7.1) scores exactly this, and is not bought.
BUY_THRESHOLD = 2.0
# A company whose trains have no route: how many of the best-scoring lays the router values.
ROUTE_LAYS = 12
# A company saving for its first train but without a route for it: how much of the saving may
# go on track first (the director makes up the train's price, 4.8.8): about two lays on hills.
ROUTE_BUDGET = 160


@dataclass(frozen=True)
class Plan:
    """A contract bid the bot means to make (2.5): its cities and the company it favours."""

    cities: tuple[str, ...]
    value: int
    focus: int


@dataclass(frozen=True)
class Knowledge:
    """The public facts of an edition the bot plays by, indexed for speed."""

    ed: Edition
    city_by_name: dict[str, CitySpec]
    station_hexes: dict[str, int]
    frontier: dict[str, int]
    number_of: dict[str, int]
    initials_of: dict[int, str]


@cache
def knowledge(edition: str) -> Knowledge:
    ed = load_edition(edition)
    station_hexes: dict[str, int] = {}
    bond = {c.hex: c.bond_value for c in ed.cities}
    for h in ed.board.hexes.values():
        if h.kind in ("city", "large_city"):
            station_hexes[h.coord] = bond.get(h.coord, 20)
        elif h.kind in ("town", "double_town"):
            station_hexes[h.coord] = TOWN_WEIGHT
    frontier = {h.coord: h.frontier_post for h in ed.board.hexes.values()
                if h.frontier_post is not None}
    return Knowledge(
        ed=ed,
        city_by_name={c.name: c for c in ed.cities},
        station_hexes=station_hexes,
        frontier=frontier,
        number_of={c.initials: c.number for c in ed.companies},
        initials_of={c.number: c.initials for c in ed.companies},
    )


def tile_gauge(tile: TileSpec) -> str:
    gauges = {p.gauge for p in tile.paths}
    if gauges == {"metre"}:
        return "metre"
    return "broad" if "broad" in gauges or "dual" in gauges else "metre"


def station_value(tile: TileSpec) -> int:
    return sum(s.value for s in tile.stations)


class GreedyBot:
    """Sensible play for one player; see the module docstring."""

    def __init__(self, player: str, seed: int) -> None:
        self._player = player
        self._rng = random.Random(f"greedy:{seed}:{player}")
        self._plan: Plan | None = None
        # The gauges of the track each company it runs was last offered to lay (4.1): its own
        # memory of its own turns, so that it does not buy trains for track it cannot lay.
        self._offered: dict[str, frozenset[str]] = {}

    @property
    def player(self) -> str:
        return self._player

    # --- dispatch ----------------------------------------------------------------------------

    def choose(self, game_view: View, legal: list[Action]) -> Action:
        options = [a for a in legal if a.get("type") not in ("undo", "redo")]
        if not options:
            raise InputError(f"bot {self._player}: no legal action to choose from")
        k = knowledge(str(game_view.get("edition", "second")))
        types = {a["type"] for a in options}
        choice: Action | None
        if "submit_bid" in types:
            choice = self._secret_bid(k, options)
        elif "place_bond" in types:
            choice = self._bond(k, game_view, options)
        elif "claim_city" in types or game_view["round"] == "claims":
            choice = self._claim(k, game_view, options)
        elif types & {"buy_share", "sell_shares", "redeem_share"} or (
                game_view["round"] == "stock" and not game_view["pending"]):
            choice = self._stock(k, game_view, options)
        elif game_view["pending"]:
            choice = self._pending(k, game_view, options)
        else:
            choice = self._operating(k, game_view, options)
        return dict(choice if choice is not None else _prefer_pass(options))

    def _me(self, view: View) -> dict[str, Any]:
        return next(p for p in view["players"] if p["name"] == self._player)

    # --- contract bids (2.5) -------------------------------------------------------------------

    def _bond(self, k: Knowledge, view: View, options: list[Action]) -> Action:
        """2.5.2, 2.5.9: the bond covers the cities of a compact plan, and no more."""
        amounts = sorted(a["amount"] for a in options)
        players = len(view["players"])
        low, _ = k.ed.tables.player_row(players).bid_cities or (3, 3)
        plans = [p for p in best_plans(k.ed.name, low) if p.value <= amounts[-1]]
        if plans:
            # Bonds are placed at once and in secret: a random focus company keeps the bots
            # from all bidding for the same shares.
            focus = self._rng.choice(sorted({p.focus for p in plans}))
            mine = [p for p in plans if p.focus == focus]
            self._plan = self._rng.choice(mine[:PLAN_CHOICES])
            target = self._plan.value
        else:
            target = amounts[0]
        amount = next((a for a in amounts if a >= target), amounts[-1])
        return next(a for a in options if a["amount"] == amount)

    def _secret_bid(self, k: Knowledge, options: list[Action]) -> Action:
        """14-16 (first edition): a whole bid at once.  The bids concentrated on one company
        (the most shares of it, so that its qualifying number is near), then the cheapest bond
        (15: a small bid keeps money for the dealing round); a random company among the best
        keeps the bots from all bidding for the same shares."""

        def concentration(a: Action) -> int:
            companies = [c["company"] for c in a["claims"]]
            return max(companies.count(c) for c in companies)

        def bond(a: Action) -> int:
            return sum(k.city_by_name[c["city"]].bond_value for c in a["claims"])

        best = max(concentration(a) for a in options)
        top = [a for a in options if concentration(a) == best]
        cheapest = min(bond(a) for a in top)
        return self._rng.choice([a for a in top if bond(a) == cheapest])

    def _claim(self, k: Knowledge, view: View, options: list[Action]) -> Action:
        """2.5.4-2.5.10: claim the plan's next city, with a share of the company the bid
        concentrates on; otherwise the city nearest the cities already named; pass when the
        bid may end."""
        claims = [a for a in options if a["type"] == "claim_city"]
        me = self._me(view)
        named: list[str] = list(me["cities"] or [])
        passing = next((a for a in options if a["type"] == "pass"), None)
        plan_left = [c for c in (self._plan.cities if self._plan else ()) if c not in named]
        if passing is not None and (not plan_left or not claims):
            return passing
        if not claims:
            return passing if passing is not None else options[0]
        focus = self._focus(k, me)
        wanted = [a for a in claims if a["city"] in plan_left]
        pool = wanted or claims

        def score(a: Action) -> tuple[float, ...]:
            city = k.city_by_name[a["city"]]
            near = min((distance(city.hex, k.city_by_name[n].hex) for n in named), default=0)
            company = k.number_of[a["company"]]
            return (-near, company == focus, me["claims"].count(a["company"]), -city.bond_value)

        return max(pool, key=score)

    def _focus(self, k: Knowledge, me: dict[str, Any]) -> int:
        if self._plan is not None:
            return self._plan.focus
        claims: list[str] = me["claims"]
        if not claims:
            return 0
        return k.number_of[max(set(claims), key=claims.count)]

    # --- stock rounds (3.1) --------------------------------------------------------------------

    def _stock(self, k: Knowledge, view: View, options: list[Action]) -> Action | None:
        """3.1: redeem first (2.7.4); then the best share to buy, or pass."""
        redeem = [a for a in options if a["type"] == "redeem_share"]
        if redeem:
            return redeem[0]
        buys = [a for a in options if a["type"] == "buy_share"]
        scored = [(self._share_score(k, view, a), a) for a in buys]
        scored = [(s, a) for s, a in scored if s > BUY_THRESHOLD]
        if scored:
            return max(scored, key=lambda sa: sa[0])[1]
        if any(a["type"] == "pass" for a in options):
            return None
        # 3.2.3: over the certificate limit, sell one share of the least valuable company.
        sells = [a for a in options if a["type"] == "sell_shares" and a["count"] == 1]
        if sells:
            return min(sells, key=lambda a: _price(k, view, a["company"]))
        return options[0]

    def _share_score(self, k: Knowledge, view: View, a: Action) -> float:
        """How much the player wants one more share of a company (higher is better)."""
        me = self._me(view)
        initials: str = a["company"]
        co = view["companies"][initials]
        mine = int(me["shares"].get(initials, 0))
        rivals = max((int(p["shares"].get(initials, 0)) for p in view["players"]
                      if p["name"] != self._player), default=0)
        par = k.ed.company(initials).par
        cost = par if a["source"] == "ipo" else _price(k, view, initials)
        if cost > me["cash"]:
            return 0.0
        if not co["formed"]:
            if co["floated"]:
                return 3.0 + mine if mine >= rivals else 1.0
            # 2.7.5: help the company it leads to its qualifying number and its directorship.
            if mine > 0 and mine >= rivals:
                return 5.0 + mine
            qualifying = k.ed.tables.player_row(len(view["players"])).qualifying_shares
            issued = k.ed.rules.shares_per_company - int(co["ipo"])
            if issued + 1 >= qualifying:
                return 2.5  # this share floats it: one more company running and paying
            if me["cash"] >= cost * (qualifying - issued):
                # It can float the company alone: it starts a new one, or takes over a
                # contract company stuck below its qualifying number (which also opens the
                # remaining companies, 3.1.3).
                return 2.5
            return 1.0 if mine > 0 else 0.0
        if co["director"] == self._player or co["controller"] == self._player:
            return 6.0 if rivals >= mine - 1 else 3.5
        if not co["trains"]:
            return 0.5
        price = _price(k, view, initials)
        if price <= par and initials not in me["claims"]:
            # Never risen above par: it has not paid (4.7.1), so it is not bought, unless the
            # bot's own contract bid is in it.
            return 0.0
        return 2.0 + 2.0 * (price - par) / par + (0.5 if initials in me["claims"] else 0.0)

    # --- the MIK 2 kit (first edition) ----------------------------------------------------------

    def _kit(self, view: View, options: list[Action]) -> Action | None:
        """MIK 2: take a card whenever one may be taken; action a Director's Share (the cheapest
        control and two shares' dividends for one share's price), the one of the company in
        which the bot holds most first; else a Commodity station on the first hex offered (a
        station is revenue for whoever runs there); keep the Disturbances card (closing a
        city hurts every company).  Decided from its own hand, the only one its view shows."""
        draw = next((a for a in options if a["type"] == "draw_card"), None)
        if draw is not None:
            return draw
        me = self._me(view)
        plays = [a for a in options if a["type"] == "play_card" and "city" not in a]
        shares = [a for a in plays if "hex" not in a]
        if shares:
            return max(shares, key=lambda a: me["shares"].get(a["card"].split(":")[1], 0))
        return plays[0] if plays else None

    # --- interruptions -------------------------------------------------------------------------

    def _pending(self, k: Knowledge, view: View, options: list[Action]) -> Action | None:
        types = {a["type"] for a in options}
        if types & {"draw_card", "play_card", "reject_cards"}:
            return self._kit(view, options)
        if "call_extra_or" in types:
            # 4.9: another operating round pays if a company it runs has trains to run.
            mine = [c for c in view["companies"].values()
                    if c["controller"] == self._player and c["trains"]]
            return next(a for a in options if a["type"] == ("call_extra_or" if mine else "pass"))
        if "discard_train" in types:
            # 4.8.6: give up the weakest train.
            trains = {t["id"]: t for t in view["trains"]}
            return min((a for a in options if a["type"] == "discard_train"),
                       key=lambda a: _train_rank(k, trains[a["train"]]["runs_as"]))
        if "repay_credit" in types:
            return next(a for a in options if a["type"] == "repay_credit")
        if "reject_offer" in types:
            return next(a for a in options if a["type"] == "reject_offer")
        return None

    # --- operating turns (4) -------------------------------------------------------------------

    def _operating(self, k: Knowledge, view: View, options: list[Action]) -> Action | None:
        types = {a["type"] for a in options}
        if "choose_lay_option" in types:
            return self._lay_option(k, options)
        if types & {"lay_tile", "promote_tile"}:
            return self._track(k, view, options)
        if "place_base" in types:
            return self._base(k, view, options)
        if "run_routes" in types:
            # 4.5-4.6: the engine lists the optimal run first.
            return next(a for a in options if a["type"] == "run_routes")
        if "dividend" in types:
            return self._dividend(k, view, options)
        if "buy_train" in types or "repay_credit" in types:
            return self._trains(k, view, options)
        return None

    def _lay_option(self, k: Knowledge, options: list[Action]) -> Action:
        """4.1.3: pay for two lays now unless the fee is the steep one."""
        entity = options[0]["entity"]
        fees = k.ed.costs.double_lay_fees
        cheap = fees.get(entity, 0) <= min(fees.values(), default=0)
        option = 2 if cheap else 1
        return next((a for a in options if a.get("option") == option), options[0])

    def _scored_track(self, k: Knowledge, view: View, options: list[Action],
                      gauges: frozenset[str], budget: int) -> list[tuple[float, Action]]:
        """The lays and promotions among ``options`` with their scores, best first: a lay by
        where it leads (``budget``: the money it may spend), a promotion by what it adds."""
        initials = options[0]["entity"]
        tiles: dict[str, list[Any]] = view["board"]["tiles"]
        targets = self._targets(k, view, initials)
        potential: dict[str, float] = {}

        def pull(h: str) -> float:
            if h not in potential:
                potential[h] = max((w / (1 + distance(h, t)) for t, w in targets.items()),
                                   default=0.0)
            return potential[h]

        scored: list[tuple[float, Action]] = []
        for a in options:
            if a["type"] == "lay_tile":
                score = self._lay_score(k, a, tiles, targets, pull, budget, gauges)
            elif a["type"] == "promote_tile":
                score = self._promotion_score(k, a, tiles)
            else:
                continue
            scored.append((score, a))
        scored.sort(key=lambda sa: -sa[0])
        return scored

    def _track(self, k: Knowledge, view: View, options: list[Action]) -> Action | None:
        """4.1-4.2: the best-scoring lay or promotion, if it scores enough."""
        initials = options[0]["entity"]
        co = view["companies"][initials]
        self._offered[initials] = frozenset(
            p.gauge for a in options if a["type"] in ("lay_tile", "promote_tile")
            for p in k.ed.tiles[a["tile"]].paths)
        # Track of the gauge its trains (or the train it saves for) run on; a company without a
        # train keeps that train's price in hand, one with trains may spend on track.
        gauges, reserve, planned = self._track_plan(k, view, initials)
        scored = self._scored_track(k, view, options, gauges, int(co["cash"]) - reserve)
        stuck = False
        if planned:
            connecting, stuck = self._route_lay(k, view, initials, scored, planned)
            if connecting is not None:
                return connecting
        if scored and (scored[0][0] >= LAY_THRESHOLD
                       or (stuck and scored[0][0] > float("-inf"))):
            # A company that cannot run extends its track even where nothing scores: the
            # next lay may join it to a station.
            return scored[0][1]
        return None

    def _track_plan(self, k: Knowledge, view: View, initials: str
                    ) -> tuple[frozenset[str], int, list[Train]]:
        """The gauges of the track the company lays, the cash it keeps for a train, and the
        trains whose run its track must make: its own, or the one it saves for.

        A company without a train saves for the next broad train, or, when not even its
        director could help pay for that one (4.8.8), for the cheapest metre train (4.8.11),
        and lays metre track for it: broad track would never let it run; so does a company
        when no yellow tile with broad track is left to lay (4.2.10).  While that train would
        have no route, up to :data:`ROUTE_BUDGET` of the saving may go on track first, as far
        as the director can make up the train's price (4.8.8): a train bought with the last
        pound of a company without a route would never run."""
        trains = company_trains(k, view, initials)
        cash = int(view["companies"][initials]["cash"])
        metre = _cheapest_metre(k, view)
        if trains:
            gauges = frozenset(t.gauge for t in trains)
            offered = self._offered.get(initials, gauges)
            if (metre is not None and not offered & (gauges | {"dual"})
                    and run_value(board_of(k, view), initials, trains) <= 0):
                # Its trains cannot run and no track of their gauge can be laid: metre track
                # for a metre train (bought once it runs, :meth:`_extra_train`).
                return frozenset({"metre"}), min(cash, metre.price), [Train.named(k.ed, metre.name)]
            return gauges, 0, trains
        director = int(self._me(view)["cash"] or 0)
        broad = _next_broad(k, view)
        if (broad is not None and broad.price <= cash + director
                and self._broad_possible(k, view, initials)):
            gauges, spec = frozenset({"broad"}), broad
        elif metre is not None:
            gauges, spec = frozenset({"metre"}), metre
        else:
            return frozenset({"broad"}), 0, []
        planned = [Train.named(k.ed, spec.name)]
        spare = cash - spec.price
        if spare < ROUTE_BUDGET and run_value(board_of(k, view), initials, planned) <= 0:
            spare = max(spare, min(ROUTE_BUDGET, cash, cash + director - spec.price))
        return gauges, cash - spare, planned

    def _broad_possible(self, k: Knowledge, view: View, initials: str) -> bool:
        """Whether the company can still extend a broad network: a yellow tile with broad
        track is left (4.2.10), and its last track step offered broad or dual lays."""
        offered = self._offered.get(initials)
        return broad_track_left(k, view) and (offered is None
                                              or bool(offered & {"broad", "dual"}))

    def _route_lay(self, k: Knowledge, view: View, initials: str,
                   scored: list[tuple[float, Action]],
                   trains: list[Train]) -> tuple[Action | None, bool]:
        """A company whose trains (or the train it saves for) have no route (4.5) earns
        nothing: of its best-scoring affordable lays, the one after which its optimal run is
        worth most, if any gives it a run; and whether the company cannot run now.  A company
        that already runs is left to the track score."""
        board = board_of(k, view)
        if run_value(board, initials, trains) > 0:
            return None, False
        best: tuple[int, Action] | None = None
        for score, a in scored[:ROUTE_LAYS]:
            if score == float("-inf"):
                break
            try:
                after = board.with_tile(a["hex"], a["tile"], a["rotation"])
            except India1853Error:
                continue
            value = run_value(after, initials, trains)
            if value > 0 and (best is None or value > best[0]):
                best = (value, a)
        return (best[1] if best is not None else None), True

    def _lay_score(self, k: Knowledge, a: Action, tiles: dict[str, list[Any]],
                   targets: dict[str, float], pull: Any, spare: int,
                   gauges: frozenset[str]) -> float:
        tile = k.ed.tiles[a["tile"]]
        if not any(p.gauge == "dual" or p.gauge in gauges for p in tile.paths):
            return float("-inf")  # track its trains cannot run on (4.5.2)
        gauge = tile_gauge(tile)
        h: str = a["hex"]
        cost = _terrain_cost(k, h, gauge)
        if cost > 0 and cost > spare:
            return float("-inf")
        ahead = 0.0
        for side in exits(tile, a["rotation"]):
            n = neighbour(h, side)
            if n is not None and n not in tiles and n in k.ed.board.hexes:
                ahead = max(ahead, pull(n))
        return targets.get(h, 0.0) + station_value(tile) + ahead - COST_WEIGHT * cost

    def _promotion_score(self, k: Knowledge, a: Action, tiles: dict[str, list[Any]]) -> float:
        old = tiles.get(a["hex"])
        new = k.ed.tiles[a["tile"]]
        before = station_value(k.ed.tiles[old[0]]) if old else 0
        return float(station_value(new) - before) * 1.5

    def _targets(self, k: Knowledge, view: View, initials: str) -> dict[str, float]:
        """Unreached hexes worth reaching: the director's contract cities (4.3), stations and
        frontier posts (4.1.14) near the company's bases."""
        tiles: dict[str, list[Any]] = view["board"]["tiles"]
        bases = [h for c, h, _ in view["board"]["bases"] if c == initials]
        reached = reached_hexes(k, tiles)
        out: dict[str, float] = {}
        for h, value in k.station_hexes.items():
            if h in reached or not bases:
                continue
            if min(distance(h, b) for b in bases) <= NEARBY:
                out[h] = float(value + k.frontier.get(h, 0) // 2)
        me = self._me(view)
        if me["cities"] and not me["bond_returned"]:
            for name in me["cities"]:
                city = k.city_by_name.get(name)
                if city is not None and city.hex not in reached:
                    out[city.hex] = out.get(city.hex, 0.0) + CONTRACT_WEIGHT
        return out

    def _base(self, k: Knowledge, view: View, options: list[Action]) -> Action | None:
        """4.4: one extra base, on the richest city reachable, when the money allows."""
        initials = options[0]["entity"]
        co = view["companies"][initials]
        placed = sum(1 for c, _, _ in view["board"]["bases"] if c == initials)
        homes = len(k.ed.company(initials).homes)
        if placed > homes:
            return None
        cost = k.ed.costs.base_token(0)
        if co["cash"] - cost < self._train_reserve(k, view, initials):
            return None
        tiles: dict[str, list[Any]] = view["board"]["tiles"]
        candidates = [a for a in options if a["type"] == "place_base"]

        def value(a: Action) -> int:
            laid = tiles.get(a["hex"])
            return station_value(k.ed.tiles[laid[0]]) if laid else 0

        return max(candidates, key=value, default=None)

    def _dividend(self, k: Knowledge, view: View, options: list[Action]) -> Action:
        """4.6.4: pay out when the company keeps enough for its next train; else withhold."""
        initials = options[0]["entity"]
        co = view["companies"][initials]
        limit = _train_limit(k, view)
        need = 0 if len(co["trains"]) >= limit else self._train_reserve(k, view, initials)
        kind = "payout" if co["cash"] >= need else "withhold"
        return next((a for a in options if a.get("kind") == kind), options[0])

    def _train_reserve(self, k: Knowledge, view: View, initials: str) -> int:
        """The price of the next broad-gauge train the company would buy."""
        for t in view["trains"]:
            if t["where"] in ("bank", "unissued", "pool"):
                spec = k.ed.trains.get(t["runs_as"])
                if spec.gauge == "broad":
                    return spec.price
        return 0

    def _trains(self, k: Knowledge, view: View, options: list[Action]) -> Action | None:
        """4.8: a company without a train buys one (from its own cash, the director's help,
        credit, or a sister company, in that order of preference); a company with trains
        buys a better broad train while it has the cash and room under the limit."""
        repay = [a for a in options if a["type"] == "repay_credit"]
        if repay:
            return repay[0]
        initials = options[0]["entity"]
        co = view["companies"][initials]
        buys = [a for a in options if a["type"] == "buy_train"]
        bank = [a for a in buys if a.get("source", "bank") == "bank" and not a.get("token")]
        broad = [a for a in bank if k.ed.trains.get(a["train"]).gauge == "broad"]
        own = [a for a in broad if not a.get("contribution") and not a.get("credit")]
        rank = {t["id"]: _train_rank(k, t["runs_as"]) for t in view["trains"]}
        have = [rank[t] for t in co["trains"]]
        if not have:
            groups = [own, broad, [a for a in bank if not a.get("contribution")], bank,
                      [a for a in buys if a.get("source", "bank") != "bank"
                       and len(view["companies"][a["source"]]["trains"]) > 1]]
            return self._first_train(k, view, initials, [g for g in groups if g])
        paid = [a for a in bank if not a.get("contribution") and not a.get("credit")]
        if len(have) >= _train_limit(k, view) or not paid:
            return None
        return self._extra_train(k, view, initials, paid)

    def _first_train(self, k: Knowledge, view: View, initials: str,
                     groups: list[list[Action]]) -> Action | None:
        """4.8: a company without a train buys, in the groups' order of preference, one that
        can run on its track now (the biggest such); if none can yet, the biggest broad one of
        the first group that offers one (the bot lays broad track for it) and leaves it
        :data:`ROUTE_BUDGET` for that track, and no metre train that cannot run.  A sister
        company (4.8.9) sells only a train it can spare: it keeps one."""
        if not groups:
            return None
        board = board_of(k, view)
        values: dict[str, int] = {}
        for group in groups:
            for a in group:
                if a["train"] not in values:
                    values[a["train"]] = run_value(board, initials,
                                                   [Train.named(k.ed, a["train"])])
            running = [a for a in group if values[a["train"]] > 0]
            if running:
                return max(running, key=lambda a: (values[a["train"]],
                                                   _train_rank(k, a["train"])))
        # No train runs yet: a broad one, for the broad track the bot lays, from the most
        # preferred group that has one.  A metre train on a broad network would never run
        # (nor a broad one once no broad track is left to lay): rather none (buying is
        # optional, 4.8), keeping the cash for one that will.
        if not self._broad_possible(k, view, initials):
            return None
        cash = int(view["companies"][initials]["cash"])

        def left(a: Action) -> int:
            # With the director's help the treasury is emptied (4.8.8).
            if a.get("contribution") or a.get("credit"):
                return 0
            return cash - int(a.get("price") or k.ed.trains.get(a["train"]).price)

        for group in groups:
            broad = [a for a in group if k.ed.trains.get(a["train"]).gauge == "broad"
                     and left(a) >= ROUTE_BUDGET]
            if broad:
                return max(broad, key=lambda a: _train_rank(k, a["train"]))
        return None

    def _extra_train(self, k: Knowledge, view: View, initials: str,
                     own: list[Action]) -> Action | None:
        """4.8: another train, paid from the company's cash, only if the optimal run (4.6)
        with it is worth more than without it; of those, the one adding most, then the
        biggest.  So a company whose trains cannot run buys no more of them and keeps its cash
        for track, but does buy a train of the other gauge that runs on the track it has."""
        board = board_of(k, view)
        trains = company_trains(k, view, initials)
        now = run_value(board, initials, trains)
        best: tuple[int, int, Action] | None = None
        for a in own:
            gain = run_value(board, initials, [*trains, Train.named(k.ed, a["train"])]) - now
            key = (gain, _train_rank(k, a["train"]))
            if gain > 0 and (best is None or key > best[:2]):
                best = (*key, a)
        return best[2] if best is not None else None


def broad_track_left(k: Knowledge, view: View) -> bool:
    """Whether a yellow tile with broad (or dual) track is left in the supply (4.2.10): new
    hexes can still be joined to a broad network."""
    supply = board_of(k, view).supply()
    return any(n > 0 and k.ed.tiles[t].colour == "yellow"
               and any(p.gauge in ("broad", "dual") for p in k.ed.tiles[t].paths)
               for t, n in supply.items())


def _next_broad(k: Knowledge, view: View) -> TrainSpec | None:
    """The next broad train the bank sells (4.8.3)."""
    for t in view["trains"]:
        if t["where"] in ("bank", "unissued", "pool"):
            spec = k.ed.trains.get(t["runs_as"] or t["card"])
            if spec.gauge == "broad":
                return spec
    return None


def _cheapest_metre(k: Knowledge, view: View) -> TrainSpec | None:
    """The cheapest metre train a major may buy from the bank now (4.8.11)."""
    specs = [k.ed.trains.get(t["runs_as"] or t["card"]) for t in view["trains"]
             if t["where"] in ("bank", "pool")]
    metre = [s for s in specs if s.gauge == "metre" and s.buyers == "any"]
    return min(metre, key=lambda s: s.price, default=None)


def board_of(k: Knowledge, view: View) -> BoardState:
    """The board as the view shows it (public: tiles and bases)."""
    tiles = {h: PlacedTile(t, r) for h, (t, r) in view["board"]["tiles"].items()}
    bases = tuple(Base(c, h, s) for c, h, s in view["board"]["bases"])
    return BoardState(k.ed, tiles, bases)


def company_trains(k: Knowledge, view: View, initials: str) -> list[Train]:
    """The trains a company runs, as its view lists them (a dual card as bought, 4.8.16)."""
    by_id = {t["id"]: t for t in view["trains"]}
    return [Train.named(k.ed, by_id[t]["runs_as"] or by_id[t]["card"])
            for t in view["companies"][initials]["trains"]]


def run_value(board: BoardState, initials: str, trains: list[Train]) -> int:
    """The company's optimal run (4.5, 4.6: revenue plus mail) on ``board`` with ``trains``;
    0 without a legal run."""
    if not trains:
        return 0
    try:
        return best_run(TrackGraph.build(board), initials, trains).run.total
    except India1853Error:
        return 0


def _prefer_pass(options: list[Action]) -> Action:
    return next((a for a in options if a["type"] == "pass"), options[0])


def _price(k: Knowledge, view: View, initials: str) -> int:
    price = view["companies"][initials]["price"]
    return int(price) if price is not None else k.ed.company(initials).par


def _train_rank(k: Knowledge, name: str) -> int:
    spec = k.ed.trains.get(name)
    # A metre train is worth less to a broad-gauge network: rank it below every broad one.
    return spec.large_stations + (0 if spec.gauge == "broad" else -10)


def _train_limit(k: Knowledge, view: View) -> int:
    limit = k.ed.phase(int(view["phase"])).train_limit
    return limit if limit is not None else 4


def _terrain_cost(k: Knowledge, h: str, gauge: str) -> int:
    spec = k.ed.board.hexes[h]
    total = 0
    for terrain in spec.terrain:
        cost = k.ed.costs.terrain.get(terrain)
        if cost is not None:
            total += cost.broad if gauge == "broad" else cost.metre
    return total


def reached_hexes(k: Knowledge, tiles: dict[str, list[Any]]) -> set[str]:
    """Hexes with track: a laid tile, or a preprinted city some laid tile leads into."""
    reached: set[str] = set()
    for h, (tile_id, rotation) in tiles.items():
        tile = k.ed.tiles[tile_id]
        if tile.preprinted:
            continue
        reached.add(h)
        for side in exits(tile, rotation):
            n = neighbour(h, side)
            if n is not None and n in tiles and k.ed.tiles[tiles[n][0]].preprinted:
                reached.add(n)
    return reached


@cache
def best_plans(edition: str, size: int) -> tuple[Plan, ...]:
    """Contract bids of ``size`` cities, most compact first (2.5.6-2.5.9): every city shares a
    company with the plan's focus company, at most one Ganges-valley city (safe under 2.5.7
    for every bid size), ranked by the length of the path through them, then the bond."""
    k = knowledge(edition)
    plans: list[tuple[int, int, Plan]] = []
    for company in k.ed.companies:
        cities = [c for c in k.ed.cities if company.number in c.companies]
        for combo in combinations(cities, size):
            if sum(c.ganges_valley for c in combo) > 1:
                continue
            span = _path_length([c.hex for c in combo])
            value = sum(c.bond_value for c in combo)
            plan = Plan(tuple(c.name for c in combo), value, company.number)
            plans.append((span, value, plan))
    plans.sort(key=lambda x: (x[0], x[1], x[2].cities))
    return tuple(p for _, _, p in plans)


def _path_length(hexes: list[str]) -> int:
    """A short path through the hexes: nearest neighbour from each start, the best kept."""
    best = 10**9
    for start in hexes:
        left = [h for h in hexes if h != start]
        here, total = start, 0
        while left:
            nxt = min(left, key=lambda h: distance(here, h))
            total += distance(here, nxt)
            left.remove(nxt)
            here = nxt
        best = min(best, total)
    return best
