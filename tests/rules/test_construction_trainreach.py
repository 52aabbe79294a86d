"""Phase 5 reach "using one of their Trains" (second edition 4.2.3, 4.4.2).

A promotion or a base outside the company's TABLE 2 area needs a legal run (4.5) of one of the
company's trains that includes the tile or station; the boards below are built on the real
map, and the random ones are checked against every run the literal checker accepts.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from india1853.board.graph import Node, StationNode, TrackGraph
from india1853.board.hexes import distance
from india1853.board.state import Base, BoardState
from india1853.board.tiles import exits, fitting_rotations
from india1853.data.loader import load_edition
from india1853.errors import InputError, RuleError
from india1853.rules.construction import (
    CompanyContext,
    Network,
    Outcome,
    PlaceBase,
    Promotion,
    check_base,
    check_promotion,
    legal_moves,
)
from india1853.rules.construction.trainreach import TrainReach
from india1853.rules.routes import Route, Train, check_routes

ALL = frozenset({"EIR", "GIP", "NWR", "BNR", "BBCI", "MSM", "SIR", "ECR", "BAR"})


def ctx(trains: tuple[str, ...], company: str = "EIR") -> CompanyContext:
    return CompanyContext(company, "major", 5, 1000, trains=trains, running=ALL)


def lay(state: BoardState, hex: str, tile: str, sides: set[int]) -> BoardState:
    """``tile`` on ``hex`` at a rotation that fits the grid and has track on ``sides``."""
    spec = state.edition.tiles[tile]
    fits = [r for r in fitting_rotations(spec, hex, state.edition.board)
            if sides <= exits(spec, r)]
    assert fits, f"tile {tile} does not fit {hex} with exits {sides}"
    return state.with_tile(hex, tile, fits[0])


def initial() -> BoardState:
    return BoardState.initial(load_edition("second"))


# W = 1 and E = 4: row K runs west to east; row K lies outside the EIR's area (rows C-J).
def chain() -> BoardState:
    """EIR based at K11, five Large Stations K13-K21 (green tile 14), plain track on K23, the
    town on K25: a run from K11 to K25 includes six Large Stations."""
    state = lay(initial(), "K11", "14", {4})
    for hex in ("K13", "K15", "K17", "K19", "K21"):
        state = lay(state, hex, "14", {1, 4})
    state = lay(lay(state, "K23", "9", {1, 4}), "K25", "4", {1})
    return state.with_base(Base("EIR", "K11", "st1"))


def promote(state: BoardState, hex: str, tile: str, sides: set[int]) -> Promotion:
    found = state.tile_at(hex)
    assert found is not None
    spec = state.edition.tiles[tile]
    return Promotion(hex, tile, next(r for r in fitting_rotations(spec, hex, state.edition.board)
                                     if exits(spec, r) == sides))


def test_beyond_every_trains_large_stations_a_promotion_is_refused() -> None:
    state = chain()
    move = promote(state, "K23", "233", {1, 4})
    with pytest.raises(RuleError, match=r"rule 4\.2\.3: K23 lies outside EIR's TABLE 2 area"):
        check_promotion(state, ctx(("5", "3M")), move)
    assert check_promotion(state, ctx(("6",)), move) == Outcome(0, "K23")


def test_beyond_every_trains_large_stations_a_base_is_refused() -> None:
    state = chain()
    with pytest.raises(RuleError, match=r"rule 4\.4\.2: K21 lies outside"):
        check_base(state, ctx(("5",)), PlaceBase("K21", "st1"))
    assert check_base(state, ctx(("5",)), PlaceBase("K19", "st1")) == Outcome(40, "K19")
    assert check_base(state, ctx(("6",)), PlaceBase("K21", "st1")) == Outcome(40, "K21")


def test_legal_moves_offer_exactly_the_reachable_hexes_outside_the_area() -> None:
    state = chain()
    five = {m.move.hex for m in legal_moves(state, ctx(("5",)))
            if isinstance(m.move, Promotion | PlaceBase)}
    six = {m.move.hex for m in legal_moves(state, ctx(("6",)))
           if isinstance(m.move, Promotion | PlaceBase)}
    assert five == {"K11", "K13", "K15", "K17", "K19"}
    assert six == five | {"K21", "K23", "K25"}


def loop(blocked: bool) -> BoardState:
    """EIR at K11.  East: K13 (Large, tile 14), then the plain K15 and the town on K17.  South
    and round: Large Stations on L12-L20, K19 plain, K17 again from the east.  With K13 full of
    other companies' bases the only runs to K15 take the long way, six Large Stations."""
    state = lay(initial(), "K11", "15", {4, 5})
    state = lay(state, "K13", "14", {1, 4})
    state = lay(state, "K15", "9", {1, 4})
    state = lay(state, "K17", "4", {1, 4})
    state = lay(state, "L12", "14", {2, 4})
    for hex in ("L14", "L16", "L18"):
        state = lay(state, hex, "14", {1, 4})
    state = lay(state, "L20", "12", {1, 2})
    state = lay(state, "K19", "8", {1, 5})
    state = state.with_base(Base("EIR", "K11", "st1"))
    if blocked:
        state = state.with_base(Base("GIP", "K13", "st1")).with_base(Base("BNR", "K13", "st1"))
    return state


def test_a_hex_reached_only_through_a_blocked_station_is_refused() -> None:
    move = promote(loop(False), "K15", "233", {1, 4})
    assert check_promotion(loop(False), ctx(("5",)), move) == Outcome(0, "K15")
    # Still connected by a line (the long way round), but no '5' run gets there.
    assert Network(loop(True), "EIR").touches("K15")
    with pytest.raises(RuleError, match=r"rule 4\.2\.3: K15"):
        check_promotion(loop(True), ctx(("5",)), move)
    # A '6' fares no better: the long way reaches K15 after the town on K17, so the run must
    # end at the next station, K13, its seventh Large Station.
    with pytest.raises(RuleError, match=r"rule 4\.2\.3: K15"):
        check_promotion(loop(True), ctx(("6",)), move)


def metre_spur() -> BoardState:
    """EIR on a metre city at K15 (tile 76) whose metre track runs west through the plain K13
    (tile 79) to the metre town on K11 (tile 73)."""
    state = lay(initial(), "K15", "76", {1})
    state = lay(state, "K13", "79", {1, 4})
    state = lay(state, "K11", "73", {4})
    return state.with_base(Base("EIR", "K15", "st1"))


def test_a_hex_on_metre_track_is_reached_only_by_a_metre_train() -> None:
    state = metre_spur()
    promos = [m for m in legal_moves(state, ctx(("6", "2M"))) if m.move.hex == "K13"]
    assert promos and all(m.duty == "K13" for m in promos)
    assert not [m for m in legal_moves(state, ctx(("6",))) if m.move.hex == "K13"]
    move = promos[0].move
    assert isinstance(move, Promotion)
    with pytest.raises(RuleError, match=r"rule 4\.2\.3: K13"):
        check_promotion(state, ctx(("6",)), move)
    # A '1M' runs from its base's Large Station to a Small one (4.8.18 b): K15 to K11.
    assert check_promotion(state, ctx(("6", "1M")), move) == Outcome(0, "K13")


# --- brute force on small random boards ------------------------------------------------------

# Every playable hex within two of K15 (19 hexes, none preprinted).
REGION = tuple(sorted(h for h, spec in load_edition("second").board.hexes.items()
                      if spec.playable and distance(h, "K15") <= 2))
TILES = ("3", "4", "5", "6", "7", "8", "9", "72", "73", "75", "76", "77", "78", "79", "1", "55",
         "71", "12", "14", "15", "80", "82", "84", "87", "89", "233", "234", "250", "716",
         "717", "116", "102", "106", "107", "108")
TRAIN_SETS = (("2",), ("3",), ("2", "1M"), ("2M",), ("1M",), ("3", "2M"), ("4",), ("6", "3M"),
              ("5",))


def random_board(seed: int) -> tuple[BoardState, tuple[str, ...]]:
    rng = random.Random(seed)
    ed = load_edition("second")
    state = initial()
    for hex in REGION:
        if rng.random() < 0.95:
            tile = rng.choice([t for t in TILES if t in ed.tiles])
            state = state.with_tile(hex, tile, rng.randrange(6))
    stations = [(h, s.id, s.slots) for h, tile, _ in state.tiles_on_board() if h in REGION
                for s in tile.stations if s.kind == "large"]
    rng.shuffle(stations)
    for i, (hex, station, slots) in enumerate(stations[:6]):
        if i == 0 or rng.random() < 0.5:
            state = state.with_base(Base("EIR", hex, station))
        else:
            for other in ("GIP", "BNR")[:slots]:
                state = state.with_base(Base(other, hex, station))
    return state, rng.choice(TRAIN_SETS)


def brute_force(graph: TrackGraph, trains: list[Train]) -> tuple[set[str], set[StationNode]]:
    """Every hex and station on some path between two stations that check_routes accepts."""
    hexes: set[str] = set()
    stations: set[StationNode] = set()

    def extend(nodes: list[Node], tids: list[int]) -> None:
        here = nodes[-1]
        if here[0] == "S" and len(nodes) > 1:
            for train in trains:
                try:
                    check_routes(graph, "EIR", [train], [Route(train, tuple(nodes), tuple(tids))])
                except RuleError:
                    continue
                hexes.update(graph.tracks[t].hex for t in tids)
                stations.update(n for n in nodes if n[0] == "S")  # type: ignore[misc]
                break
        for t in graph.incident(here):
            there = t.other(here)
            if there not in nodes:
                extend([*nodes, there], [*tids, t.id])

    for start in graph.stations:
        extend([start], [])
    return hexes, stations


@settings(derandomize=True, max_examples=120, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_reach_agrees_with_every_run_the_checker_accepts(seed: int) -> None:
    state, names = random_board(seed)
    graph = TrackGraph.build(state)
    trains = [Train.named(state.edition, n) for n in names]
    hexes, stations = brute_force(graph, trains)
    reach = Network(state, "EIR").train_reach(names)
    assert {t.hex for t in graph.tracks if reach.hex(t.hex)} == hexes
    assert {n for n in graph.stations if reach.station(n)} == stations
    # The exhaustive search alone (without the cheapest-walk shortcut) gives the same answers,
    # target by target (no answer carried over from an earlier witness).
    for hex in sorted({t.hex for t in graph.tracks}):
        alone = TrainReach(graph, "EIR", trains, shortcut=False)
        assert alone.hex(hex) == (hex in hexes), hex
    for node in sorted(graph.stations):
        alone = TrainReach(graph, "EIR", trains, shortcut=False)
        assert alone.station(node) == (node in stations), node


def test_unknown_train_names_are_refused() -> None:
    with pytest.raises(InputError, match="train"):
        Network(chain(), "EIR").train_reach(("9",))
