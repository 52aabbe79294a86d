"""The literal rules checker: every running rule, legal and illegal, on real board states."""

from __future__ import annotations

import pytest
from oracle import board, train

from india1853.board.graph import TrackGraph
from india1853.errors import InputError, RuleError
from india1853.rules.routes import Route, check_routes, parse_route_file, route_to_json

# A broad line along row H: Ajmer (large 30, two slots) - town - plain - large 30 - plain -
# large 30 at Allahabad.
LINE = {"H10": ("14", 0), "H12": ("4", 1), "H14": ("9", 1), "H16": ("14", 0),
        "H18": ("9", 1), "H20": ("14", 0)}


def graph_of(tiles: dict[str, tuple[str, int]], bases: list[tuple[str, str, str | None]],
             edition: str = "second") -> TrackGraph:
    return TrackGraph.build(board(edition, tiles, bases))


def run(g: TrackGraph, routes: list[dict[str, object]], trains: list[str],
        company: str = "EIR", duties: tuple[str, ...] = ()) -> int:
    ts = [train(t) for t in trains]
    _, parsed = parse_route_file({"company": company, "routes": routes}, g, ts)
    return check_routes(g, company, ts, parsed, duties).total


def line() -> TrackGraph:
    return graph_of(LINE, [("EIR", "H10", "st1")])


def test_revenue_is_the_sum_of_every_station() -> None:
    # 4.6.2: 30 + 10 + 30
    assert run(line(), [{"train": "3", "hexes": ["H10", "H12", "H14", "H16"]}], ["3"]) == 70


def test_mail_adds_both_ends() -> None:
    # 4.6.6: 70 + (30 + 30)
    r = [{"train": "3", "hexes": ["H10", "H12", "H14", "H16"], "mail": True}]
    assert run(line(), r, ["3"]) == 130


def test_only_one_mail_train() -> None:
    r = [{"train": "2", "hexes": ["H10", "H12"], "mail": True},
         {"train": "2", "hexes": ["H16", "H18", "H20"], "mail": True}]
    g = graph_of(LINE, [("EIR", "H10", "st1"), ("EIR", "H20", "st1")])
    with pytest.raises(RuleError, match=r"rule 4\.6\.6"):
        run(g, r, ["2", "2"])


def test_large_station_limit() -> None:
    r = [{"train": "2", "hexes": ["H10", "H12", "H14", "H16", "H18", "H20"]}]
    with pytest.raises(RuleError, match=r"rule 4\.5\.4.*H20"):
        run(line(), r, ["2"])
    assert run(line(), [{**r[0], "train": "3"}], ["3"]) == 100


def test_small_stations_beyond_the_last_large_are_allowed() -> None:
    g = graph_of(LINE, [("EIR", "H16", "st1")])
    assert run(g, [{"train": "2", "hexes": ["H20", "H18", "H16", "H14", "H12"]}], ["2"]) == 70


def test_needs_a_base() -> None:
    g = graph_of(LINE, [("GIP", "H10", "st1")])
    with pytest.raises(RuleError, match=r"rule 4\.5\.2.*EIR"):
        run(g, [{"train": "2", "hexes": ["H10", "H12", "H14", "H16"]}], ["2"])


def test_gauge_must_match() -> None:
    with pytest.raises(RuleError, match=r"rule 4\.5\.3.*H10"):
        run(line(), [{"train": "2M", "hexes": ["H10", "H12", "H14", "H16"]}], ["2M"])


def test_blocked_station_may_end_a_run_but_not_be_passed() -> None:
    g = graph_of(LINE, [("EIR", "H10", "st1"), ("GIP", "H16", "st1"), ("BNR", "H16", "st1")])
    assert run(g, [{"train": "3", "hexes": ["H10", "H12", "H14", "H16"]}], ["3"]) == 70
    with pytest.raises(RuleError, match=r"rule 4\.5\.6.*H16"):
        run(g, [{"train": "3", "hexes": ["H10", "H12", "H14", "H16", "H18", "H20"]}], ["3"])


def test_station_with_a_free_slot_is_not_blocked() -> None:
    # 4.5.7: one of two slots taken by another company.
    g = graph_of(LINE, [("EIR", "H10", "st1"), ("GIP", "H16", "st1")])
    r = [{"train": "3", "hexes": ["H10", "H12", "H14", "H16", "H18", "H20"]}]
    assert run(g, r, ["3"]) == 100


def test_a_train_runs_once() -> None:
    r = [{"train": "2", "hexes": ["H10", "H12"]}, {"train": "2", "hexes": ["H16", "H18", "H20"]}]
    g = graph_of(LINE, [("EIR", "H10", "st1"), ("EIR", "H20", "st1")])
    with pytest.raises(RuleError, match=r"rule 4\.5\.1"):
        run(g, r, ["2"])
    assert run(g, r, ["2", "2"]) == 40 + 60


def test_routes_share_no_track() -> None:
    g = graph_of(LINE, [("EIR", "H10", "st1"), ("EIR", "H20", "st1")])
    r = [{"train": "2", "hexes": ["H10", "H12", "H14", "H16"]},
         {"train": "2", "hexes": ["H20", "H18", "H16", "H14"]}]
    with pytest.raises(RuleError, match=r"rule 4\.5\.4.*H14"):
        run(g, r, ["2", "2"])  # a run ends at a station
    r[1] = {"train": "2", "hexes": ["H20", "H18", "H16", "H14", "H12"]}
    with pytest.raises(RuleError, match=r"rule 4\.5\.10.*H1[46]"):
        run(g, r, ["2", "2"])


def test_routes_may_meet_at_a_station() -> None:
    g = graph_of(LINE, [("EIR", "H10", "st1"), ("EIR", "H20", "st1")])
    r = [{"train": "2", "hexes": ["H10", "H12", "H14", "H16"]},
         {"train": "2", "hexes": ["H20", "H18", "H16"]}]
    assert run(g, r, ["2", "2"]) == 70 + 60


def test_run_must_be_continuous() -> None:
    with pytest.raises(InputError, match="not next to"):
        run(line(), [{"train": "2", "hexes": ["H10", "H14"]}], ["2"])
    g = graph_of({**LINE, "H14": ("7", 0)}, [("EIR", "H10", "st1")])
    with pytest.raises(RuleError, match=r"rule 4\.5\.5.*H14"):
        run(g, [{"train": "2", "hexes": ["H10", "H12", "H14", "H16"]}], ["2"])


def test_at_least_two_stations() -> None:
    g = line()
    st = ("S", "H10", "st1")
    with pytest.raises(RuleError, match=r"rule 4\.5\.4.*H10"):
        check_routes(g, "EIR", [train("2")], [Route(train("2"), (st,), ())])


# Delhi (F14): st2 runs east, st3 south-west; a loop F16 - G15 (town) - G13 joins them.
DELHI_LOOP = {"F16": ("7", 3), "G15": ("58", 4), "G13": ("7", 0)}


def test_two_stations_of_one_city_in_one_run() -> None:
    g = graph_of(DELHI_LOOP, [("EIR", "F14", "st2")])
    assert run(g, [{"train": "2", "hexes": ["F14", "F16", "G15"]}], ["2"]) == 50
    with pytest.raises(RuleError, match=r"rule 4\.5\.5.*F14"):
        run(g, [{"train": "2", "hexes": ["F14", "F16", "G15", "G13", "F14"]}], ["2"])


def test_two_towns_of_one_tile_are_different_towns() -> None:
    # Tile 71 (metre): town st1 (NW) - town st2 (E), joined by track on the tile.
    tiles = {"H10": ("76", 4), "H12": ("71", 5), "G13": ("72", 4)}
    g = graph_of(tiles, [("EIR", "H10", "st1")])
    # 76 at rotation 1: sides SW... the run below is resolved from the hexes given.
    assert run(g, [{"train": "2M", "hexes": ["H10", "H12:st1,st2"]}], ["2M"]) == 20 + 10 + 10
    with pytest.raises(InputError, match="several ways through H12"):
        run(g, [{"train": "2M", "hexes": ["H10", "H12"]}], ["2M"])


def test_one_m_train() -> None:
    tiles = {"H10": ("76", 4), "H12": ("71", 5)}
    g = graph_of(tiles, [("EIR", "H10", "st1")])
    assert run(g, [{"train": "1M", "hexes": ["H10", "H12:st1,st2"]}], ["1M"]) == 40
    g = graph_of({**tiles, "G13": ("75", 5)}, [("EIR", "H10", "st1")])
    with pytest.raises(RuleError, match=r"rule 4\.8\.18"):
        run(g, [{"train": "1M", "hexes": ["H10", "H12:st1,st2", "G13"]}], ["1M"])
    assert run(g, [{"train": "2M", "hexes": ["H10", "H12:st1,st2", "G13"]}], ["2M"]) == 60


def test_duty_hex_must_be_on_a_run() -> None:
    r = [{"train": "2", "hexes": ["H10", "H12", "H14", "H16"]}]
    assert run(line(), r, ["2"], duties=("H14",)) == 70
    with pytest.raises(RuleError, match=r"rule 4\.2\.3.*H18"):
        run(line(), r, ["2"], duties=("H18",))


def test_route_file_round_trip() -> None:
    g = line()
    r = [{"train": "3", "hexes": ["H10", "H12", "H14", "H16"], "mail": True}]
    ts = [train("3")]
    _, parsed = parse_route_file({"company": "EIR", "routes": r}, g, ts)
    again = route_to_json(parsed[0], g)
    assert again == {"train": "3", "hexes": ["H10:st1", "H12:st1", "H14", "H16:st1"],
                     "mail": True}
    _, reparsed = parse_route_file({"company": "EIR", "routes": [again]}, g, ts)
    assert reparsed == parsed


def test_bad_route_file() -> None:
    g = line()
    with pytest.raises(InputError, match="routes"):
        parse_route_file({"company": "EIR"}, g, [train("2")])
    with pytest.raises(RuleError, match=r"rule 4\.5\.1.*train"):
        parse_route_file({"company": "EIR", "routes": [{"train": "5", "hexes": ["H10"]}]}, g,
                         [train("2")])
    with pytest.raises(InputError, match="coordinate"):
        parse_route_file({"company": "EIR", "routes": [{"train": "2", "hexes": ["Z99"]}]}, g,
                         [train("2")])


def test_hexes_lists_every_hex_the_run_passes() -> None:
    # H14 is a plain tile: the run passes it without a station (Route.hexes, which the
    # terminal's "optimal run" note and the render command print, used to skip it).
    g = line()
    r = [{"train": "3", "hexes": ["H10", "H12", "H14", "H16"]}]
    _, parsed = parse_route_file({"company": "EIR", "routes": r}, g, [train("3")])
    assert parsed[0].hexes == ("H10", "H12", "H14", "H16")
    assert parsed[0].hexes == tuple(h.split(":")[0] for h in route_to_json(parsed[0], g)["hexes"])


def test_a_run_back_into_its_own_station_visits_the_city_twice() -> None:
    # H14 (green city 14: track W, NE, E, SW) - W to H12 (curve to SE) - I13 (curve to NE) -
    # back into H14 from the SW and on E to the H16 town: no piece of track twice, but the
    # H14 station twice, which is 4.5.5 (one visit per city), not 4.5.8.
    g = graph_of({"H14": ("14", 0), "H12": ("7", 1), "I13": ("7", 5), "H16": ("3", 3)},
                 [("EIR", "H14", "st1")])
    with pytest.raises(RuleError, match=r"rule 4\.5\.5: .*visits the city at H14 twice"):
        run(g, [{"train": "4", "hexes": ["H14", "H12", "I13", "H14", "H16"]}], ["4"])


# Brown junction 106 at H16 (track between its W, NW, NE and SE edges, every pair joined);
# H14 and I17 large 20 (115), G15 and G17 towns 10 (3) joining H16's NW to its NE.
JUNCTION_LOOP = {"H16": ("106", 0), "H14": ("115", 2), "G15": ("3", 1), "G17": ("3", 3),
                 "I17": ("115", 0)}


def test_a_run_passes_a_junction_once() -> None:
    # 4.2.5: a brown or grey junction is run through "as if it were a Station"; one run
    # visits a station once (4.5.5), so it may not pass the junction twice, even on
    # different lines (docs/rulings.md).
    g = graph_of(JUNCTION_LOOP, [("EIR", "H14", "st1"), ("EIR", "I17", "st1")])
    loop = [{"train": "2", "hexes": ["H14", "H16", "G15", "G17", "H16", "I17"]}]
    with pytest.raises(RuleError, match=r"rule 4\.5\.5: .*junction at H16 twice"):
        run(g, loop, ["2"])
    # Two runs may meet there on different lines (4.5.10).
    two = [{"train": "2", "hexes": ["H14", "H16", "G15", "G17"]},
           {"train": "2", "hexes": ["I17", "H16", "G17"]}]
    assert run(g, two, ["2", "2"]) == 40 + 30


def test_track_off_the_board_at_a_buff_edge_leads_nowhere_and_earns_nothing() -> None:
    """31.8 (first edition): a line may run off the board at a buff edge "as if it was the
    start of an international route"; no rule gives it a value, so a run may not end there
    and the track adds nothing (docs/rulings.md, the board's edges)."""
    tiles = {"C11": ("5", 2), "B12": ("9", 0)}  # Lahore, and a straight off the board (NE)
    g = graph_of(tiles, [("NWR", "C11", "st1")], edition="first")
    with pytest.raises(RuleError, match=r"4\.5\.4: .*a run ends at a station; none at B12"):
        run(g, [{"train": "2", "hexes": ["C11", "B12"]}], ["2"], company="NWR")
    # The edge off the board is a dead end: B12's track is the only one that reaches it.
    assert [t.id for t in g.incident(("E", "B12", 3))] == [t.id for t in g.tracks_in("B12")]
