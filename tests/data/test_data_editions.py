"""The edition data proved against the rulebooks' counts and tables (issue 2, item 5)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from india1853.board.hexes import neighbour
from india1853.data.loader import DATA_DIR, load_edition
from india1853.data.model import Edition, TileSpec
from india1853.errors import DataError, InputError

EDITIONS = ("first", "second")


@pytest.fixture(params=EDITIONS)
def ed(request: pytest.FixtureRequest) -> Edition:
    return load_edition(request.param)


def test_unknown_edition_is_a_one_line_data_error() -> None:
    with pytest.raises(DataError, match=r"^unknown edition 'third': expected first or second$"):
        load_edition("third")


def test_load_edition_is_cached() -> None:
    assert load_edition("second") is load_edition("second")


# --- board -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "playable"), [("first", 174), ("second", 158)])
def test_playable_hex_counts(name: str, playable: int) -> None:
    hexes = load_edition(name).board.hexes.values()
    assert sum(1 for h in hexes if h.playable) == playable


def test_second_board_is_the_first_less_the_eastern_appendix() -> None:
    first, second = load_edition("first").board, load_edition("second").board
    dropped = {c for c in first.hexes if c not in second.hexes}
    assert dropped == {
        "F34", "F36", "G31", "G33", "G35", "H32", "H34", "I31", "I33", "I35", "J34", "J36", "K35",
    }  # fmt: skip
    assert all(int(c[1:]) > 30 for c in dropped)
    assert set(second.hexes) <= set(first.hexes)


def test_offboard_hexes_are_grey_and_unplayable(ed: Edition) -> None:
    """The second edition's grey E1, G1 and I1 are margin; the first edition's are pale grey,
    "used in the normal way" (its map notes; docs/rulings.md, the board's edges)."""
    off = {c for c, h in ed.board.hexes.items() if h.kind == "offboard"}
    assert off == (set() if ed.name == "first" else {"E1", "G1", "I1"})
    assert not any(ed.board.playable(c) for c in off)
    assert not ed.board.playable("A1")
    assert ed.board.playable("I1") == (ed.name == "first")


def test_first_edition_kind_counts() -> None:
    kinds = Counter(h.kind for h in load_edition("first").board.hexes.values())
    assert kinds == {
        "plain": 89, "town": 55, "double_town": 6, "city": 20, "large_city": 4,
    }  # fmt: skip


def test_waltair_replaces_a_first_edition_town() -> None:
    first, second = load_edition("first"), load_edition("second")
    assert first.board.hexes["O21"].kind == "town"
    o21 = second.board.hexes["O21"]
    assert (o21.kind, o21.name, o21.preprinted) == ("large_city", "Waltair", "Waltair")
    waltair = second.tiles["Waltair"]
    assert waltair.label == "W" and waltair.colour == "green" and waltair.preprinted
    assert [(s.kind, s.value, s.slots) for s in waltair.stations] == [("large", 30, 1)]
    assert sorted(int(p.b) for p in waltair.paths) == [1, 2, 3]
    assert {p.gauge for p in waltair.paths} == {"dual"}
    assert "Waltair" not in first.tiles


def test_frontier_posts_and_ganges_valley(ed: Edition) -> None:
    posts = {c: h.frontier_post for c, h in ed.board.hexes.items() if h.frontier_post}
    assert posts["C5"] == 200 and posts["D2"] == 200 and posts["B8"] == 100
    assert set(posts.values()) == {40, 100, 200}
    assert len(posts) == (13 if ed.name == "first" else 8)
    ganges = {c for c, h in ed.board.hexes.items() if h.ganges_valley}
    assert ganges == {"G17", "G19", "H18", "H20", "H22", "H24", "H26", "H28", "I29", "J30", "K29"}


# The board hex by hex, from board-1853-first-edition.json / .md (its "Counts" and "Frontier
# posts"): the second edition is the same board less the hexes east of column 30, with O21 a
# large city (second-edition.md).  Terrain of every playable hex, by combination:
TERRAIN: dict[tuple[str, ...], str] = {
    ("mountain",): "B8 B10 C5 C7 D14 F36 H10 I9 J16 J18 J24 J36 M11 M23 N10 N16 N18 O11 O17 P14 "
                   "Q13 R16 S15",
    ("himalaya",): "B12 C15 G29 G35 H34 I35",
    ("hill",): "C13 D4 D6 E3 F34 G11 G33 I11 I13 I17 J12 J20 J22 K13 K15 K19 K25 L14 L22 L24 N14 "
               "O13 P12 R12 R14 S13 T14 U15",
    ("river",): "E5 F6 G3 G17 G19 G31 H2 H18 H26 H28 H32 I23 K9 K11 N20 O19 T18",
    ("multiple_river",): "F4 H20 H22 H24 I3 I29 I31 J28 J30 K29 L26",
    ("hill", "river"): "L10",
    ("mountain", "river"): "N22",
}
TERRAIN_COUNTS = {("mountain",): 23, ("himalaya",): 6, ("hill",): 28, ("river",): 17,
                  ("multiple_river",): 11, ("hill", "river"): 1, ("mountain", "river"): 1}
FRONTIER_POSTS = {
    "B8": 100, "B10": 40, "C5": 200, "D2": 200, "D14": 40, "F34": 100, "F36": 100, "G29": 100,
    "G33": 40, "G35": 100, "H2": 40, "H34": 100, "I3": 100,
}
TOWNS = (
    "D2 D6 D8 D14 E13 F6 F18 F36 G3 G9 G15 G23 G29 G31 G33 G35 H2 H8 H18 H28 H30 H34 I9 I23 I27 "
    "J14 J16 J18 J20 J26 K5 K9 K19 K25 K35 L6 L10 L18 L24 L26 N10 N14 N16 N22 O21 P12 P14 P18 "
    "R12 S13 S17 T14 T18 U15 V14"
)
DOUBLE_TOWNS = "E15 F16 G21 H16 I29 O13"
EAST_OF_THE_CUT = 30  # second-edition.md: every hex of a column above 30 is dropped


def _on_board(ed: Edition, hexes: str) -> set[str]:
    keep = set(hexes.split())
    return keep if ed.name == "first" else {h for h in keep if int(h[1:]) <= EAST_OF_THE_CUT}


def test_terrain_of_every_playable_hex(ed: Edition) -> None:
    by_terrain: dict[tuple[str, ...], set[str]] = {}
    for coord, spec in ed.board.hexes.items():
        if spec.playable and spec.terrain:
            by_terrain.setdefault(spec.terrain, set()).add(coord)
    expected = {t: _on_board(ed, hexes) for t, hexes in TERRAIN.items()}
    if ed.name == "first":
        expected[("river",)].add("I1")  # pale grey, playable in the first edition only
    assert by_terrain == expected


def test_terrain_combination_counts_of_the_first_edition() -> None:
    hexes = load_edition("first").board.hexes.values()
    counts = Counter(h.terrain for h in hexes if h.playable and h.terrain)
    # The reference counts the 171 hexes it calls playable; the pale grey I1 adds a river and
    # E1 and G1 two hexes without terrain.
    assert counts == {**TERRAIN_COUNTS, ("river",): TERRAIN_COUNTS[("river",)] + 1}
    assert sum(1 for h in hexes if h.playable and not h.terrain) == 84 + 2


def test_every_frontier_post_with_its_value(ed: Edition) -> None:
    posts = {c: h.frontier_post for c, h in ed.board.hexes.items() if h.frontier_post is not None}
    assert posts == {c: v for c, v in FRONTIER_POSTS.items()
                     if c in _on_board(ed, " ".join(FRONTIER_POSTS))}


def test_every_town_and_double_town(ed: Edition) -> None:
    towns = {c for c, h in ed.board.hexes.items() if h.kind == "town"}
    doubles = {c for c, h in ed.board.hexes.items() if h.kind == "double_town"}
    # second-edition.md: Waltair replaces the first edition's town at O21.
    assert towns == _on_board(ed, TOWNS) - ({"O21"} if ed.name == "second" else set())
    assert doubles == _on_board(ed, DOUBLE_TOWNS)


def test_second_edition_kind_counts() -> None:
    kinds = Counter(h.kind for h in load_edition("second").board.hexes.values())
    assert kinds == {
        "plain": 81, "town": 48, "double_town": 6, "city": 18, "large_city": 5, "offboard": 3,
    }  # fmt: skip


def test_terrain_of_mixed_hexes(ed: Edition) -> None:
    assert ed.board.hexes["L10"].terrain == ("hill", "river")
    assert ed.board.hexes["N22"].terrain == ("mountain", "river")
    assert ed.board.hexes["J28"].terrain == ("multiple_river",)


# --- large cities ------------------------------------------------------------------------------

LARGE = {
    "F14": ("Delhi", "CD", 40, [2, 4, 0]),
    "J28": ("Calcutta", "CD", 50, [2, 4, 0]),
    "M9": ("Bombay", "BM", 40, [3, 5]),
    "R18": ("Madras", None, 30, [2, 0]),
}


@pytest.mark.parametrize("coord", sorted(LARGE))
def test_preprinted_large_cities(ed: Edition, coord: str) -> None:
    name, label, value, sides = LARGE[coord]
    spec = ed.board.hexes[coord]
    assert (spec.kind, spec.name, spec.preprinted, spec.preprinted_rotation) == (
        "large_city", name, name, 0,
    )  # fmt: skip
    tile = ed.tiles[name]
    assert tile.preprinted and tile.colour == "green" and tile.label == label
    assert all(s.kind == "large" and s.value == value and s.slots == 1 for s in tile.stations)
    # Each station has its own stub to one side; stations are not joined to each other.
    assert [(p.a, p.b, p.gauge) for p in tile.paths] == [
        (s.id, side, "dual") for s, side in zip(tile.stations, sides, strict=True)
    ]


# --- cities --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "count"), [("first", 24), ("second", 23)])
def test_named_city_counts(name: str, count: int) -> None:
    ed = load_edition(name)
    assert len(ed.cities) == count
    named = {h.name for h in ed.board.hexes.values() if h.kind in ("city", "large_city")}
    assert named == {c.name for c in ed.cities}


def test_delhi_company_numbers(ed: Edition) -> None:
    assert ed.city("Delhi").companies == (1, 2, 3, 5)


def test_second_edition_cities() -> None:
    ed = load_edition("second")
    names = {c.name for c in ed.cities}
    assert "Waltair" in names and not names & {"Dacca", "Chittagong"}
    assert ed.city("Waltair").companies == (4, 6, 8)
    assert ed.city("Nagpur").companies == (2, 4, 5, 8)


def test_city_company_numbers_are_the_table_2_areas_holding_the_city(ed: Edition) -> None:
    for city in ed.cities:
        expected = tuple(c.number for c in ed.companies if c.area.contains(city.hex))
        assert city.companies == expected, city.name
        assert city.companies, city.name  # rule 2.5.5: at least one company per city


def test_bond_values(ed: Edition) -> None:
    special = {"Calcutta": 50, "Bombay": 40, "Delhi": 40, "Madras": 30, "Waltair": 30}
    for c in ed.cities:
        assert c.bond_value == special.get(c.name, 20), c.name


def test_ganges_bid_cities(ed: Edition) -> None:
    assert {c.name for c in ed.cities if c.ganges_valley} == {
        "Cawnpore", "Lucknow", "Allahabad", "Benares", "Patna", "Calcutta",
    }  # fmt: skip


def test_city_lookup_errors_name_the_city(ed: Edition) -> None:
    assert ed.city("calcutta").hex == "J28"
    with pytest.raises(InputError, match="Atlantis"):
        ed.city("Atlantis")


# --- tiles ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "totals"),
    [("first", (112, 56, 16, 7)), ("second", (128, 64, 18, 7))],
)
def test_manifest_totals_by_colour(name: str, totals: tuple[int, ...]) -> None:
    ed = load_edition(name)
    per_colour: Counter[str] = Counter()
    for tile_id, n in ed.manifest.items():
        per_colour[ed.tiles[tile_id].colour] += n
    assert tuple(per_colour[c] for c in ("yellow", "green", "brown", "grey")) == totals


def test_tiles_are_manifest_plus_preprinted(ed: Edition) -> None:
    preprinted = {h.preprinted for h in ed.board.hexes.values() if h.preprinted}
    assert set(ed.tiles) == set(ed.manifest) | preprinted
    assert {t for t, spec in ed.tiles.items() if spec.preprinted} == preprinted


# The stations of every catalogue tile as tiles-1853.json gives them: "s10" a small station
# worth 10, "l30/2" a large station worth 30 with two base slots; "" no station.
STATIONS: dict[str, str] = {
    "": "7 8 9 77 78 79 80 81 82 83 84 85 86 106 107 108 112 233 234 250",
    "s10": "3 4 58 72 73 74 87 88 89 116 117",
    "s10 s10": "1 2 55 56 71",
    "l20/1": "5 6 69 75 76 96 97 113 115 717 718",
    "l20/2": "90 91 92 93 94 95 716",
    "l30/1": "12 13 98 99 100 101 719",
    "l30/2": "14 15 102",
    "l40/2": "103",
    "l50/2": "109 720",
    "l50/3": "105",
    "l70/3": "111",
    " ".join(["l70/1"] * 6): "104 500",
    " ".join(["l100/1"] * 6): "110 900",
}


def _stations(tile: TileSpec) -> str:
    return " ".join(f"{s.kind[0]}{s.value}" + (f"/{s.slots}" if s.kind == "large" else "")
                    for s in tile.stations)


def test_stations_values_and_slots_of_every_tile() -> None:
    expected = {tile: stations for stations, tiles in STATIONS.items() for tile in tiles.split()}
    got: dict[str, str] = {}
    for name in EDITIONS:
        got |= {tid: _stations(t) for tid, t in load_edition(name).tiles.items()
                if not t.preprinted}
    assert got == expected


@pytest.mark.parametrize(("name", "tile_id"), [("first", "69"), ("second", "115")])
def test_single_large_station_terminus(name: str, tile_id: str) -> None:
    tile = load_edition(name).tiles[tile_id]
    assert tile.colour == "yellow"
    assert [(s.kind, s.slots) for s in tile.stations] == [("large", 1)]
    assert [(p.a, p.gauge) for p in tile.paths] == [("st1", "broad")]


def test_promotion_charts_use_manifest_tiles(ed: Edition) -> None:
    for old, targets in ed.promotions.items():
        assert old in ed.tiles
        for new in targets:
            assert new in ed.manifest, (old, new)


ORDER = {"yellow": 0, "green": 1, "brown": 2, "grey": 3}


def test_promotions_go_one_colour_up(ed: Edition) -> None:
    for old, targets in ed.promotions.items():
        for new in targets:
            assert ORDER[ed.tiles[new].colour] == ORDER[ed.tiles[old].colour] + 1, (old, new)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("first", {"Delhi": ("104",), "Calcutta": ("104",), "Bombay": ("105",),
                   "Madras": ("105",), "104": ("110",), "105": ("111",)}),
        ("second", {"Delhi": ("500",), "Calcutta": ("500",), "Bombay": ("105",),
                    "Madras": ("105",), "Waltair": ("720",), "500": ("900",),
                    "105": ("111",)}),
    ],
)  # fmt: skip
def test_large_city_promotions(name: str, expected: dict[str, tuple[str, ...]]) -> None:
    promotions = load_edition(name).promotions
    assert {k: promotions[k] for k in expected} == expected


def test_tiles_that_do_not_promote(ed: Edition) -> None:
    never = {"1", "2", "55", "56", "71", "102", "109", "112", "111"}
    never |= {"110"} if ed.name == "first" else {"720", "900"}
    assert not never & set(ed.promotions)


def test_one_grey_cd_tile(ed: Edition) -> None:
    grey_cd = [t for t in ed.manifest if ed.tiles[t].colour == "grey" and ed.tiles[t].label == "CD"]
    assert [ed.manifest[t] for t in grey_cd] == [1]


# --- companies -----------------------------------------------------------------------------------


def test_company_order_initials_pars_tokens(ed: Edition) -> None:
    last = "BAR" if ed.name == "first" else "ECR"
    assert [c.initials for c in ed.companies] == [
        "EIR", "GIP", "NWR", "BNR", "BBCI", "MSM", "SIR", last,
    ]  # fmt: skip
    assert [c.par for c in ed.companies] == [100, 96, 92, 88, 84, 80, 75, 70]
    assert [c.base_tokens for c in ed.companies] == [5, 5, 5, 5, 4, 4, 4, 3]


def test_company_types(ed: Edition) -> None:
    bbci = "either" if ed.name == "second" else "minor"
    assert [c.type for c in ed.companies] == ["major"] * 4 + [bbci] + ["minor"] * 3


def test_home_bases_are_cities_inside_their_area(ed: Edition) -> None:
    for company in ed.companies:
        for home in company.homes:
            spec = ed.board.hexes[home.hex]
            assert spec.kind in ("city", "large_city"), (company.initials, home.hex)
            assert company.area.contains(home.hex), (company.initials, home.hex)
            if spec.preprinted:
                assert home.station in {s.id for s in ed.tiles[spec.preprinted].stations}
            else:
                assert home.station is None


def test_large_city_home_stations(ed: Edition) -> None:
    def station_side(initials: str, coord: str) -> int:
        home = next(h for h in ed.company(initials).homes if h.hex == coord)
        tile = ed.tiles[ed.board.hexes[coord].preprinted or ""]
        return next(int(p.b) for p in tile.paths if p.a == home.station)

    assert station_side("EIR", "J28") == 2  # NW
    assert station_side("BNR", "J28") == 0  # SW
    assert station_side("GIP", "M9") == 5  # SE
    assert station_side("NWR", "F14") == 2  # NW
    assert station_side("MSM", "R18") == 2  # NW
    assert station_side("BBCI", "M9") == 3  # north Bombay, track to NE


def test_bbci_second_home_is_conditional(ed: Edition) -> None:
    homes = ed.company("BBCI").homes
    assert [h.condition is None for h in homes] == [True, False]
    assert homes[1].condition == ("bbci_major" if ed.name == "second" else "alternative_rule_3")
    # 2.6.2 puts it on the 2009 board; the first edition's only with Alternative Rules 3.0.
    assert homes[1].variant == (None if ed.name == "second" else "alternative_rule_3")


def test_company_lookup(ed: Edition) -> None:
    assert ed.company(1) is ed.company("eir") is ed.companies[0]
    with pytest.raises(InputError, match="XYZ"):
        ed.company("XYZ")
    with pytest.raises(InputError, match="9"):
        ed.company(9)


def test_areas_of_table_2() -> None:
    first, second = load_edition("first"), load_edition("second")
    assert first.company("EIR").area.rows == ("C", "J")
    assert first.company("EIR").area.cols == (14, 28)
    assert first.company("MSM").area.cols is None
    assert first.company("BAR").area.rows is None
    assert second.company("ECR").area.rows == ("J", "R")
    assert second.company("ECR").area.contains("O21")
    assert not second.company("ECR").area.contains("O15")


# --- trains and phases ---------------------------------------------------------------------------


def test_train_counts() -> None:
    first, second = load_edition("first"), load_edition("second")
    assert first.trains.total(with_extras=False) == 27
    assert first.trains.total(with_extras=True) == 27
    assert second.trains.total(with_extras=False) == 27
    assert second.trains.total(with_extras=True) == 37


def test_second_edition_extra_and_dual_option_trains() -> None:
    trains = load_edition("second").trains
    assert {t.name: t.extra_count for t in trains if t.extra_count} == {
        "2": 1, "2M": 1, "3M": 1, "1M": 7,
    }  # fmt: skip
    one_m = trains.get("1M")
    assert (one_m.price, one_m.gauge, one_m.large_stations, one_m.buyers) == (
        180, "metre", 1, "minor",
    )  # fmt: skip
    assert one_m.min_small_stations == 1 and one_m.large_station_needs_base
    (dual,) = trains.dual_options
    assert dual.trains == ("2", "1M") and dual.count == trains.get("2").total(True) == 7
    assert dual.second_buyers == "minor"


def test_train_table_5(ed: Edition) -> None:
    prices = {t.name: t.price for t in ed.trains}
    assert {k: prices[k] for k in ("2", "3", "4", "5", "6", "2M", "3M", "4M")} == {
        "2": 300, "3": 440, "4": 620, "5": 830, "6": 1050, "2M": 250, "3M": 430, "4M": 590,
    }  # fmt: skip
    for t in ed.trains:
        assert t.large_stations == int(t.name.rstrip("M"))
        assert t.gauge == ("metre" if t.name.endswith("M") else "broad")
    with pytest.raises(DataError, match="7"):
        ed.trains.get("7")


def test_phases_of_table_6() -> None:
    first, second = load_edition("first"), load_edition("second")
    assert [(p.train, p.train_limit, p.ors_per_set) for p in first.phases] == [
        (None, 4, 1), ("3", 4, 2), ("4", 3, 3), ("5", 2, 3),
    ]  # fmt: skip
    assert [(p.train, p.train_limit, p.ors_per_set) for p in second.phases] == [
        (None, None, None), (None, 4, 1), ("3", 4, 2), ("4", 3, 3), ("5", 2, 3),
    ]  # fmt: skip
    assert second.phase(2).introduced_by == "first_stock_round"
    assert second.phase(2).trains_available == ("2", "1M")
    assert second.phase(4).trains_obsolete == ("2", "1M")
    assert second.phase(5).trains_obsolete == ("3", "2M")
    assert "6" in second.phase(5).trains_available
    assert first.phase(3).trains_obsolete == ("2",)
    assert [p.areas_relaxed for p in second.phases] == [False] * 4 + [True]
    assert not any(p.areas_relaxed for p in first.phases)


def test_tile_colours_arrive_one_per_phase(ed: Edition) -> None:
    colours = [p.tiles for p in ed.phases if p.tiles]
    assert colours == [
        ("yellow",), ("yellow", "green"), ("yellow", "green", "brown"),
        ("yellow", "green", "brown", "grey"),
    ]  # fmt: skip


# --- market, costs, tables -----------------------------------------------------------------------


def test_market(ed: Edition) -> None:
    values = ed.market.values
    assert len(values) == 35 and values[0] == 10 and values[-1] == 400
    assert all(c.par in values for c in ed.companies)
    assert ed.market.move(100, 1) == 104
    assert ed.market.move(400, 3) == 400
    assert ed.market.move(10, -1) == 10


def test_dividend_movement() -> None:
    second = load_edition("second").market.movement
    assert [second.dividend_move(d, 80) for d in (10, 159, 160, 240, 320, 400, 4000)] == [
        1, 1, 2, 3, 4, 5, 5,
    ]  # fmt: skip
    assert second.no_dividend_with_pool_shares == -1
    first = load_edition("first").market
    assert first.movement.dividend_move(4000, 80) == 1
    assert first.alternative_movement is not None
    assert first.alternative_movement.dividend_move(39, 80) == 0
    assert first.alternative_movement.dividend_move(40, 80) == 1


def test_construction_costs_table_4() -> None:
    first, second = load_edition("first").costs, load_edition("second").costs
    assert second.construction(("multiple_river",), "metre") == 40
    assert first.construction(("multiple_river",), "metre") == 50
    assert second.construction(("mountain", "river"), "broad") == 180  # both terrains are paid
    assert second.construction((), "metre") == 0
    assert second.construction(("himalaya",), "broad") == 240
    with pytest.raises(InputError, match="dual"):
        second.construction(("hill",), "dual")


def test_token_and_special_costs(ed: Edition) -> None:
    assert [ed.costs.base_token(i) for i in range(4)] == [40, 100, 100, 100]
    calcutta = ed.costs.special_cost("calcutta_first_promotion")
    assert calcutta is not None and calcutta.amount == 60 and calcutta.hex == "J28"
    ajmer = ed.costs.special_cost("ajmer_station")
    if ed.name == "second":
        assert ajmer is not None and (ajmer.amount, ajmer.hex, ajmer.condition) == (
            70, "H10", "bbci_major",
        )  # fmt: skip
        assert ed.costs.double_lay_fees == {"EIR": 50, "GIP": 20, "NWR": 20, "BNR": 20, "BBCI": 20}
    else:
        assert ajmer is None and ed.costs.double_lay_fees == {}


def test_player_table_3() -> None:
    first, second = load_edition("first").tables, load_edition("second").tables
    assert [second.player_row(n).qualifying_shares for n in (3, 4, 5, 6)] == [6, 5, 5, 4]
    assert [first.player_row(n).qualifying_shares for n in (3, 4, 5, 6)] == [6, 6, 5, 5]
    for tables in (first, second):
        rows = [tables.player_row(n) for n in (3, 4, 5, 6)]
        assert [r.starting_capital for r in rows] == [730, 570, 570, 510]
        assert [r.share_limit for r in rows] == [6, 6, 5, 4]
        assert [r.certificate_limit for r in rows] == [21, 16, 13, 11]
        assert [r.bid_cities for r in rows] == [(4, 6), (3, 6), (3, 5), (3, 4)]
    assert [second.player_row(n).minimum_bond for n in (3, 4, 5, 6)] == [80, 60, 60, 60]
    assert (second.bank, first.bank) == (15000, 4500)
    assert first.bank_variants == {"long_game": 12500, "shortened_game": 3450}
    with pytest.raises(InputError, match="7"):
        second.player_row(7)


def test_first_edition_variant_tables() -> None:
    tables = load_edition("first").tables
    alt = tables.variant("alternative_table_3")
    assert [alt.players[n].starting_capital for n in (3, 4, 5, 6)] == [590, 570, 535, 480]
    mik2 = tables.variant("mik2")
    assert [mik2.players[n].certificate_limit for n in (3, 4, 5, 6)] == [27, 20, 16, 14]
    assert all(r.share_limit is None for r in mik2.players.values())
    assert tables.player_row(4, "amended_share_limits").qualifying_shares == 7
    with pytest.raises(InputError, match="nonesuch"):
        tables.variant("nonesuch")


def test_rule_values(ed: Edition) -> None:
    r = ed.rules
    assert r.first_stock_round_sale_discount == 5
    assert r.limit_exempt_max_price == 40
    assert r.tile_lays == {"major": 2, "minor": 1}
    assert r.game_end_share_price == ed.market.values[-1]
    assert r.bid_ganges_limit == 2
    if ed.name == "second":
        assert r.double_lay_free_from_phase == 3 and r.areas_relaxed_phase == 5
        assert r.bid_bond == "at_least" and r.bid_ganges_limit_three_cities == 1
    else:
        assert r.double_lay_free_from_phase == 1 and r.areas_relaxed_phase is None
        assert r.bid_bond == "equal"


def test_board_edges_are_consistent(ed: Edition) -> None:
    """Every playable hex has at least one playable neighbour (no stray data rows)."""
    for coord, spec in ed.board.hexes.items():
        if spec.playable:
            ns = [neighbour(coord, s) for s in range(6)]
            assert any(n is not None and ed.board.playable(n) for n in ns), coord


# --- reconstructed values ------------------------------------------------------------------------

# docs/data-provenance.md: the values no source prints, each marked in its file's "derived".
MARKED = {
    "first": {
        ("first/rules.json", "rules.route_min_stations"),
        ("first/cities.json", "cities[*].companies"),
        ("first/board.json", "hexes[coord=G19].name"),
        ("tiles.json", "tiles.716"),
        # One non-authoritative source (issue 13): the Krazick module, via the reference.
        ("first/companies.json", "companies[*].par"),
        ("first/market.json", "values"),
    },
    "second": {
        ("second/companies.json", "companies[*].area"),
        ("second/companies.json", "companies[initials=ECR].colour"),
        ("second/companies.json", "companies[*].par"),
        ("second/companies.json", "companies[*].base_tokens"),
        ("second/companies.json", "companies[*].homes[*].station"),
        ("second/market.json", "values"),
        ("second/rules.json", "tables.players[*].minimum_bond"),
        # Readings of misnumbered phases (issue 13), like the minimum bond's figures.
        ("second/rules.json", "rules.double_lay_free_from_phase"),
        ("second/rules.json", "rules.areas_relaxed_phase"),
        ("second/board.json", "hexes[coord=O21]"),
        ("tiles.json", "tiles.Waltair"),
    },
}


# Printed in the rulebooks, so cited, not marked (issue 13): the '1M' run's Small Station (R2
# 4.5.4).
PRINTED = {"second": {("second/trains.json", "trains[name=1M].min_small_stations")}}


def test_printed_values_are_not_marked_as_derived(ed: Edition) -> None:
    marked = {(d.file, d.path) for d in ed.derived}
    assert not PRINTED.get(ed.name, set()) & marked


def test_reconstructed_values_are_marked(ed: Edition) -> None:
    marked = {(d.file, d.path) for d in ed.derived}
    assert MARKED[ed.name] <= marked
    assert all(d.why.strip() for d in ed.derived)
    # Every tile the reference calls derived is marked.
    derived_tiles = {t.id for t in ed.tiles.values() if t.provenance == "derived"}
    assert {f"tiles.{t}" for t in derived_tiles} <= {p for _, p in marked}


def test_provenance_doc_lists_every_marked_value(ed: Edition) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "data-provenance.md").read_text(
        encoding="utf-8")
    for d in ed.derived:
        assert f"`{d.path}`" in doc, (d.file, d.path)


def test_first_edition_companies_say_nothing_of_the_ecr() -> None:
    about = json.loads((DATA_DIR / "first" / "companies.json").read_text(encoding="utf-8"))["about"]
    assert "ECR" not in about
