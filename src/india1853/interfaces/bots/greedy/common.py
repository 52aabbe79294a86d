"""What every phase of the greedy bot shares: its weights, the edition's public facts indexed
for speed, the board of its view, the router's value of a position, and the bot's memory.

The bot reads every price, limit and qualifying number from its :class:`Decision` (the
engine's priced options and outlook); the edition's data serves only its own judgement (where
a city lies, what a tile's track leads to, how big a train is).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from india1853.board.graph import TrackGraph
from india1853.board.hexes import distance, neighbour
from india1853.board.state import Base, BoardState, PlacedTile
from india1853.board.tiles import exits
from india1853.data.loader import load_edition
from india1853.data.model import CitySpec, Edition, TileSpec
from india1853.errors import India1853Error
from india1853.interfaces.bots.decision import Action, Decision, View
from india1853.rules.router import best_run
from india1853.rules.routes import Train

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
    # The edition's preprinted tiles (a city or town printed on the map, 4.1.10).
    preprinted: frozenset[str] = frozenset()
    # Memos of two pure functions of the map, asked thousands of times a game by the track
    # score: the hexes a tile laid on a hex leads into, and the distance between two hexes.
    _leads: dict[tuple[str, str, int], tuple[str, ...]] = field(
        default_factory=dict, compare=False, repr=False)
    _distances: dict[tuple[str, str], int] = field(
        default_factory=dict, compare=False, repr=False)

    def leads_into(self, h: str, tile_id: str, rotation: int) -> tuple[str, ...]:
        """The grid hexes that tile ``tile_id`` laid on ``h`` at ``rotation`` has track
        towards (its exits' neighbours on the grid)."""
        key = (h, tile_id, rotation)
        out = self._leads.get(key)
        if out is None:
            out = self._leads[key] = tuple(
                n for side in exits(self.ed.tiles[tile_id], rotation)
                if (n := neighbour(h, side)) is not None)
        return out

    def distance(self, a: str, b: str) -> int:
        """:func:`india1853.board.hexes.distance`, remembered."""
        key = (a, b)
        d = self._distances.get(key)
        if d is None:
            d = self._distances[key] = distance(a, b)
        return d


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
        preprinted=frozenset(t for t, spec in ed.tiles.items() if spec.preprinted),
    )


def tile_gauge(tile: TileSpec) -> str:
    gauges = {p.gauge for p in tile.paths}
    if gauges == {"metre"}:
        return "metre"
    return "broad" if "broad" in gauges or "dual" in gauges else "metre"


def station_value(tile: TileSpec) -> int:
    return sum(s.value for s in tile.stations)


def board_of(k: Knowledge, view: View) -> BoardState:
    """The board as the view shows it (public: tiles and bases)."""
    tiles = {h: PlacedTile(t, r) for h, (t, r) in view["board"]["tiles"].items()}
    bases = tuple(Base(c, h, s) for c, h, s in view["board"]["bases"])
    return BoardState(k.ed, tiles, bases)


class Positions:
    """A bot's memory of the positions it has valued: the board of each view it saw, built
    once, and the optimal run (:func:`run_value`) of a company with some trains on a board.

    A board is named by what is on it (its tiles and bases), so a position met again - by
    another step of the same decision (the strong bot weighs the lays greedy tried; the trains
    step values the board the track step did) or at a later decision - is not valued again,
    and a view's board keeps the track graph and the router's reductions of it that the
    earlier valuations built.  The values are the router's, exactly: a memo changes no choice.
    The memory is bounded (:data:`LIMIT` positions, then it starts again)."""

    LIMIT = 4096
    BOARDS = 16

    def __init__(self) -> None:
        self._boards: dict[tuple[Any, ...], BoardState] = {}
        self._values: dict[tuple[Any, ...], int] = {}
        # The remembered boards (alive while remembered, so their ids are theirs) whose track
        # graph a valuation built: a later board grows its graph from theirs.
        self._graphed: set[int] = set()

    def board(self, k: Knowledge, view: View) -> BoardState:
        """The board of ``view`` (as :func:`board_of` builds it), the same object while the
        view's tiles and bases are the same."""
        shown = view["board"]
        key = (k.ed.name, tuple((h, t, r) for h, (t, r) in shown["tiles"].items()),
               tuple((c, h, s) for c, h, s in shown["bases"]))
        board = self._boards.get(key)
        if board is None:
            grown = self._grown(key)
            if len(self._boards) >= self.BOARDS:
                self._boards.clear()
                self._graphed.clear()
            board = self._boards[key] = grown if grown is not None else board_of(k, view)
        return board

    def _grown(self, key: tuple[Any, ...]) -> BoardState | None:
        """The board of ``key`` made from the last board remembered, when that one's track
        graph is built and the new board is it with some tiles promoted in their places, more
        tiles on hexes that had none and more bases, each appended in order (the lays and
        bases since the bot's last decision): by the board's own ``with_tile`` and
        ``with_base``, so that each track graph grows from the one before
        (``TrackGraph.build``) instead of being built again from every tile.  None unless the
        result has exactly the tiles and bases of ``key`` in the same order (the board
        :func:`board_of` builds, so the same graph and the same values)."""
        if not self._boards:
            return None
        last_key, last = next(reversed(self._boards.items()))
        name, tiles, bases = key
        old_tiles = last_key[1]
        if (id(last) not in self._graphed or last_key[0] != name
                or len(tiles) < len(old_tiles) or last_key == key):
            return None
        # A promoted tile keeps its hex's place among the tiles (4.2: a tile replaced).
        pairs = list(zip(old_tiles, tiles[:len(old_tiles)], strict=True))
        if any(new[0] != old[0] for old, new in pairs):
            return None
        promoted = [new for old, new in pairs if new != old]
        board = last
        try:
            # Each graph grows from its parent's while the parent is alive (a weak reference).
            for h, t, r in (*promoted, *tiles[len(old_tiles):]):
                grown = board.with_tile(h, t, r)
                TrackGraph.build(grown)
                board = grown
            for c, h, st in bases[len(board.bases):]:
                grown = board.with_base(Base(c, h, st))
                TrackGraph.build(grown)
                board = grown
        except India1853Error:
            return None
        same = (tuple((h, p.tile, p.rotation) for h, p in board.tiles.items()) == tiles
                and tuple((b.company, b.hex, b.station) for b in board.bases) == bases)
        return board if same else None

    def value(self, board: BoardState, initials: str, trains: list[Train]) -> int:
        """:func:`run_value` of the company on ``board``, computed once per position."""
        if not trains:
            return 0
        key = (board.edition.name, frozenset(board.tiles.items()), board.bases, initials,
               tuple(trains))
        value = self._values.get(key)
        if value is None:
            if len(self._values) >= self.LIMIT:
                self._values.clear()
            value = self._values[key] = run_value(board, initials, trains)
            if any(b is board for b in self._boards.values()):
                self._graphed.add(id(board))
        return value


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


def broad_track_left(k: Knowledge, board: BoardState) -> bool:
    """Whether a yellow tile with broad (or dual) track is left in the supply (4.2.10) of
    ``board``: new hexes can still be joined to a broad network."""
    supply = board.supply()
    return any(n > 0 and k.ed.tiles[t].colour == "yellow"
               and any(p.gauge in ("broad", "dual") for p in k.ed.tiles[t].paths)
               for t, n in supply.items())


def reached_hexes(k: Knowledge, tiles: dict[str, list[Any]]) -> set[str]:
    """Hexes with track: a laid tile, or a preprinted city some laid tile leads into."""
    reached: set[str] = set()
    preprinted = k.preprinted
    for h, (tile_id, rotation) in tiles.items():
        if tile_id in preprinted:
            continue
        reached.add(h)
        for n in k.leads_into(h, tile_id, rotation):
            there = tiles.get(n)
            if there is not None and there[0] in preprinted:
                reached.add(n)
    return reached


def prefer_pass(options: list[Action]) -> Action:
    return next((a for a in options if a["type"] == "pass"), options[0])


def price(k: Knowledge, view: View, initials: str) -> int:
    """The company's market price as the view shows it (its par before it has one)."""
    value = view["companies"][initials]["price"]
    return int(value) if value is not None else k.ed.company(initials).par


def train_rank(k: Knowledge, name: str) -> int:
    spec = k.ed.trains.get(name)
    # A metre train is worth less to a broad-gauge network: rank it below every broad one.
    return spec.large_stations + (0 if spec.gauge == "broad" else -10)


class BotBase:
    """The greedy bot's memory of its own player's game, and what its phases ask each other."""

    def __init__(self, player: str, seed: int) -> None:
        self._player = player
        self._rng = random.Random(f"greedy:{seed}:{player}")
        self._plan: Plan | None = None
        # The gauges of the track each company it runs was last offered to lay (4.1): its own
        # memory of its own turns, so that it does not buy trains for track it cannot lay.
        self._offered: dict[str, frozenset[str]] = {}
        self._positions = Positions()

    @property
    def player(self) -> str:
        return self._player

    def _board(self, k: Knowledge, view: View) -> BoardState:
        """The board of ``view`` (public: tiles and bases), from the bot's memory."""
        return self._positions.board(k, view)

    def _value(self, board: BoardState, initials: str, trains: list[Train]) -> int:
        """The company's optimal run on ``board`` with ``trains`` (:func:`run_value`), from
        the bot's memory."""
        return self._positions.value(board, initials, trains)

    def _me(self, view: View) -> dict[str, Any]:
        return next(p for p in view["players"] if p["name"] == self._player)

    def _train_reserve(self, k: Knowledge, d: Decision, initials: str) -> int:
        """The price of the cheapest broad train the bank offers the company now (the
        engine's outlook, 4.8.3-4.8.6), which it keeps for its next train; 0 if none."""
        outlook = d.trains.get(initials)
        offer = outlook.cheapest("broad") if outlook is not None else None
        return offer.price if offer is not None else 0

    def _broad_possible(self, k: Knowledge, d: Decision, initials: str) -> bool:
        """Whether the company can still extend a broad network: a yellow tile with broad
        track is left (4.2.10), and its last track step offered broad or dual lays."""
        offered = self._offered.get(initials)
        return broad_track_left(k, self._board(k, d.view)) and (offered is None
                                                or bool(offered & {"broad", "dual"}))
