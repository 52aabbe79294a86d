"""The greedy bot's track (4.1-4.2): score each lay by what it reaches: its stations, and the
weight of unreached targets (its contract cities, nearby cities and towns, frontier posts)
over the hex distance from its open ends, less the lay's cost (the engine's price: tile and
terrain, 4.1.12); track of its trains' gauge (broad first, metre when only metre track or a
metre train is within reach).  A company whose trains have no route lays the track that gives
it one (the router values the most promising lays) before anything else, and keeps extending
its track while none does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from india1853.errors import India1853Error
from india1853.interfaces.bots.decision import Action, Decision
from india1853.interfaces.bots.greedy.common import (
    CONTRACT_WEIGHT,
    COST_WEIGHT,
    LAY_THRESHOLD,
    NEARBY,
    ROUTE_BUDGET,
    ROUTE_LAYS,
    BotBase,
    Knowledge,
    company_trains,
    reached_hexes,
    station_value,
)
from india1853.rules.routes import Train


class Track(BotBase):
    """The lay option (4.1.3) and the track step (4.1, 4.2)."""

    def _lay_option(self, k: Knowledge, options: list[Action]) -> Action:
        """4.1.3: pay for two lays now unless the fee is the steep one."""
        entity = options[0]["entity"]
        fees = k.ed.costs.double_lay_fees
        cheap = fees.get(entity, 0) <= min(fees.values(), default=0)
        option = 2 if cheap else 1
        return next((a for a in options if a.get("option") == option), options[0])

    def _scored_track(self, k: Knowledge, d: Decision, options: list[Action],
                      gauges: frozenset[str], budget: int) -> list[tuple[float, Action]]:
        """The lays and promotions among ``options`` with their scores, best first: a lay by
        where it leads (``budget``: the money it may spend), a promotion by what it adds."""
        initials = options[0]["entity"]
        tiles: dict[str, list[Any]] = d.view["board"]["tiles"]
        targets = self._targets(k, d, initials)
        potential: dict[str, float] = {}

        def pull(h: str) -> float:
            if h not in potential:
                potential[h] = max((w / (1 + k.distance(h, t)) for t, w in targets.items()),
                                   default=0.0)
            return potential[h]

        scored: list[tuple[float, Action]] = []
        for a in options:
            if a["type"] == "lay_tile":
                score = self._lay_score(k, a, d.cost(a), tiles, targets, pull, budget, gauges)
            elif a["type"] == "promote_tile":
                score = self._promotion_score(k, a, tiles)
            else:
                continue
            scored.append((score, a))
        scored.sort(key=lambda sa: -sa[0])
        return scored

    def _track(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """4.1-4.2: the best-scoring lay or promotion, if it scores enough."""
        initials = options[0]["entity"]
        co = d.view["companies"][initials]
        self._offered[initials] = frozenset(
            p.gauge for a in options if a["type"] in ("lay_tile", "promote_tile")
            for p in k.ed.tiles[a["tile"]].paths)
        # Track of the gauge its trains (or the train it saves for) run on; a company without a
        # train keeps that train's price in hand, one with trains may spend on track.
        gauges, reserve, planned = self._track_plan(k, d, initials)
        scored = self._scored_track(k, d, options, gauges, int(co["cash"]) - reserve)
        stuck = False
        if planned:
            connecting, stuck = self._route_lay(k, d, initials, scored, planned)
            if connecting is not None:
                return connecting
        if scored and (scored[0][0] >= LAY_THRESHOLD
                       or (stuck and scored[0][0] > float("-inf"))):
            # A company that cannot run extends its track even where nothing scores: the
            # next lay may join it to a station.
            return scored[0][1]
        return None

    def _track_plan(self, k: Knowledge, d: Decision, initials: str
                    ) -> tuple[frozenset[str], int, list[Train]]:
        """The gauges of the track the company lays, the cash it keeps for a train, and the
        trains whose run its track must make: its own, or the one it saves for.

        A company without a train saves for the cheapest broad train the bank offers it, or,
        when not even its director could help pay for that one (4.8.8), for the cheapest metre
        train offered (4.8.11-4.8.15: the engine's outlook), and lays metre track for it:
        broad track would never let it run; so does a company when no yellow tile with broad
        track is left to lay (4.2.10).  While that train would have no route, up to
        :data:`ROUTE_BUDGET` of the saving may go on track first, as far as the director can
        make up the train's price (4.8.8): a train bought with the last pound of a company
        without a route would never run."""
        view = d.view
        trains = company_trains(k, view, initials)
        cash = int(view["companies"][initials]["cash"])
        outlook = d.trains.get(initials)
        metre = outlook.cheapest("metre") if outlook is not None else None
        if trains:
            gauges = frozenset(t.gauge for t in trains)
            offered = self._offered.get(initials, gauges)
            if (metre is not None and not offered & (gauges | {"dual"})
                    and self._value(self._board(k, view), initials, trains) <= 0):
                # Its trains cannot run and no track of their gauge can be laid: metre track
                # for a metre train (bought once it runs, :meth:`_extra_train`).
                return (frozenset({"metre"}), min(cash, metre.price),
                        [Train.named(k.ed, metre.train)])
            return gauges, 0, trains
        director = int(self._me(view)["cash"] or 0)
        broad = outlook.cheapest("broad") if outlook is not None else None
        if (broad is not None and broad.price <= cash + director
                and self._broad_possible(k, d, initials)):
            gauges, offer = frozenset({"broad"}), broad
        elif metre is not None:
            gauges, offer = frozenset({"metre"}), metre
        else:
            return frozenset({"broad"}), 0, []
        planned = [Train.named(k.ed, offer.train)]
        spare = cash - offer.price
        if spare < ROUTE_BUDGET and self._value(self._board(k, view), initials, planned) <= 0:
            spare = max(spare, min(ROUTE_BUDGET, cash, cash + director - offer.price))
        return gauges, cash - spare, planned

    def _route_lay(self, k: Knowledge, d: Decision, initials: str,
                   scored: list[tuple[float, Action]],
                   trains: list[Train]) -> tuple[Action | None, bool]:
        """A company whose trains (or the train it saves for) have no route (4.5) earns
        nothing: of its best-scoring affordable lays, the one after which its optimal run is
        worth most, if any gives it a run; and whether the company cannot run now.  A company
        that already runs is left to the track score."""
        board = self._board(k, d.view)
        if self._value(board, initials, trains) > 0:
            return None, False
        best: tuple[int, Action] | None = None
        for score, a in scored[:ROUTE_LAYS]:
            if score == float("-inf"):
                break
            try:
                after = board.with_tile(a["hex"], a["tile"], a["rotation"])
            except India1853Error:
                continue
            value = self._value(after, initials, trains)
            if value > 0 and (best is None or value > best[0]):
                best = (value, a)
        return (best[1] if best is not None else None), True

    def _lay_score(self, k: Knowledge, a: Action, cost: int, tiles: dict[str, list[Any]],
                   targets: dict[str, float], pull: Callable[[str], float], spare: int,
                   gauges: frozenset[str]) -> float:
        """A lay's score: the stations of its tile, the target it is laid on and the best pull
        of the hexes it leads into, less :data:`COST_WEIGHT` times its price (``cost``, the
        engine's); minus infinity for track its trains cannot run on (4.5.2) or a price above
        ``spare``."""
        tile = k.ed.tiles[a["tile"]]
        if not any(p.gauge == "dual" or p.gauge in gauges for p in tile.paths):
            return float("-inf")
        h: str = a["hex"]
        if cost > 0 and cost > spare:
            return float("-inf")
        ahead = 0.0
        for n in k.leads_into(h, a["tile"], a["rotation"]):
            if n not in tiles and n in k.ed.board.hexes:
                ahead = max(ahead, pull(n))
        return targets.get(h, 0.0) + station_value(tile) + ahead - COST_WEIGHT * cost

    def _promotion_score(self, k: Knowledge, a: Action, tiles: dict[str, list[Any]]) -> float:
        old = tiles.get(a["hex"])
        new = k.ed.tiles[a["tile"]]
        before = station_value(k.ed.tiles[old[0]]) if old else 0
        return float(station_value(new) - before) * 1.5

    def _targets(self, k: Knowledge, d: Decision, initials: str) -> dict[str, float]:
        """Unreached hexes worth reaching: the director's contract cities (4.3), stations and
        frontier posts (4.1.14) near the company's bases."""
        view = d.view
        tiles: dict[str, list[Any]] = view["board"]["tiles"]
        bases = [h for c, h, _ in view["board"]["bases"] if c == initials]
        reached = reached_hexes(k, tiles)
        out: dict[str, float] = {}
        for h, value in k.station_hexes.items():
            if h in reached or not bases:
                continue
            if min(k.distance(h, b) for b in bases) <= NEARBY:
                out[h] = float(value + k.frontier.get(h, 0) // 2)
        me = self._me(view)
        if me["cities"] and not me["bond_returned"]:
            for name in me["cities"]:
                city = k.city_by_name.get(name)
                if city is not None and city.hex not in reached:
                    out[city.hex] = out.get(city.hex, 0.0) + CONTRACT_WEIGHT
        return out
