"""The running minimums come from the edition's data, not from the code: the fewest stations
of a run (4.5.4 / 33.4, ``rules.route_min_stations``) and the fewest Small Stations of a '1M'
run (4.8.18 b, the train's ``min_small_stations``).  Each test changes one value in a copy of
the loaded edition and shows a run becoming legal or illegal, for the literal checker and for
the optimal router (cross-checked against the brute-force oracle, which judges by the
checker)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from oracle import board, oracle_best

from india1853.board.graph import TrackGraph
from india1853.data.loader import load_edition
from india1853.data.model import Edition
from india1853.errors import InputError, RuleError
from india1853.rules.router import best_run
from india1853.rules.routes import Route, Train, check_routes, parse_route_file

# Broad line along row H: H10 large 30 - H12 town 10 - H14 plain - H16 large 30 (two slots) -
# H18 plain - H20 large 30.
LINE = {"H10": ("14", 0), "H12": ("4", 1), "H14": ("9", 1), "H16": ("14", 0),
        "H18": ("9", 1), "H20": ("14", 0)}
# Metre: F16 large 20 - G15 town 10 - H14 large 20 (the base) - I15 towns st1, st2 (10 each)
# - I17 large 20 (the '1M' layout of test_router_cases).
ONE_M = {"H14": ("76", 3), "I15": ("71", 0), "I17": ("113", 5), "G15": ("74", 1),
         "F16": ("113", 4)}


def with_min_stations(fewest: int) -> Edition:
    ed = load_edition("second")
    return replace(ed, rules=replace(ed.rules, route_min_stations=fewest))


def with_one_m_small(fewest: int) -> Edition:
    ed = load_edition("second")
    types = tuple(replace(t, min_small_stations=fewest) if t.name == "1M" else t
                  for t in ed.trains)
    return replace(ed, trains=replace(ed.trains, types=types))


def value(ed: Edition, g: TrackGraph, routes: list[dict[str, object]], names: list[str]) -> int:
    trains = [Train.named(ed, n) for n in names]
    _, parsed = parse_route_file({"company": "EIR", "routes": routes}, g, trains)
    return check_routes(g, "EIR", trains, parsed).total


def best(ed: Edition, g: TrackGraph, names: list[str]) -> int:
    """The router's optimum, certified and equal to the oracle's, by both ways through (every
    run listed; a greedy run set first, whose scans apply the train's minimums)."""
    trains = [Train.named(ed, n) for n in names]
    found = best_run(g, "EIR", trains)
    assert found.optimal
    expected = oracle_best(g, "EIR", trains)
    assert expected is not None and expected.total == found.run.total
    greedy = best_run(g, "EIR", trains, greedy_start=True)
    assert greedy.optimal and greedy.run.total == found.run.total
    return found.run.total


def test_data_values() -> None:
    # What the tests below change: both editions' runs include two stations (docs/rulings.md)
    # and the 2009 '1M' one Small Station.
    assert load_edition("second").rules.route_min_stations == 2
    assert load_edition("first").rules.route_min_stations == 2
    assert Train.named(load_edition("second"), "1M").min_small == 1


def test_checker_reads_route_min_stations() -> None:
    g = TrackGraph.build(board("second", LINE, [("EIR", "H10", "st1")]))
    two = [{"train": "2", "hexes": ["H10", "H12"]}]
    three = [{"train": "2", "hexes": ["H10", "H12", "H14", "H16"]}]
    assert value(load_edition("second"), g, two, ["2"]) == 40
    with pytest.raises(RuleError, match=r"rule 4\.5\.4.*at least 3 stations"):
        value(with_min_stations(3), g, two, ["2"])
    assert value(with_min_stations(3), g, three, ["2"]) == 70
    # Below two, a lone station is a run: illegal at the data's value, legal at one.
    base = ("S", "H10", "st1")
    alone = Route(Train.named(load_edition("second"), "2"), (base,), ())
    with pytest.raises(RuleError, match=r"rule 4\.5\.4.*at least 2 stations"):
        check_routes(g, "EIR", [alone.train], [alone])
    lone = Train.named(with_min_stations(1), "2")
    assert check_routes(g, "EIR", [lone], [replace(alone, train=lone)]).total == 30


def test_router_reads_route_min_stations() -> None:
    # Base H16: two '2's run H16-H14-H12-H10 (70) and H16-H18-H20 (60), mail 30 + 30: 190.
    # With three stations a run, H16-H20 is illegal: 70 + 60 = 130.
    g = TrackGraph.build(board("second", LINE, [("EIR", "H16", "st1")]))
    assert best(load_edition("second"), g, ["2", "2"]) == 190
    assert best(with_min_stations(3), g, ["2", "2"]) == 130
    assert best(with_min_stations(5), g, ["2", "2"]) == 0


def test_router_refuses_runs_without_track() -> None:
    g = TrackGraph.build(board("second", LINE, [("EIR", "H16", "st1")]))
    with pytest.raises(InputError, match=r"train 2: route_min_stations 1"):
        best_run(g, "EIR", [Train.named(with_min_stations(1), "2")])


def test_checker_reads_one_m_min_small_stations() -> None:
    g = TrackGraph.build(board("second", ONE_M, [("EIR", "H14", "st1")]))
    short = [{"train": "1M", "hexes": ["H14", "G15"]}]
    longer = [{"train": "1M", "hexes": ["G15", "H14", "I15:st1,st2"]}]
    assert value(load_edition("second"), g, short, ["1M"]) == 30
    with pytest.raises(RuleError, match=r"rule 4\.8\.18.*at least 2 Small"):
        value(with_one_m_small(2), g, short, ["1M"])
    assert value(with_one_m_small(3), g, longer, ["1M"]) == 50
    with pytest.raises(RuleError, match=r"rule 4\.8\.18.*at least 4 Small"):
        value(with_one_m_small(4), g, longer, ["1M"])


def test_router_reads_one_m_min_small_stations() -> None:
    # Two '1M's: H14-I15-I15 (40) + H14-G15 (30) + mail 30 = 100.  With two Small Stations a
    # run, H14-G15 is illegal and the runs left all use H14-I15: one '1M' runs, 50 + 20 or
    # 40 + 30 = 70.  With four, no '1M' run is left.
    g = TrackGraph.build(board("second", ONE_M, [("EIR", "H14", "st1")]))
    assert best(load_edition("second"), g, ["1M", "1M"]) == 100
    assert best(with_one_m_small(2), g, ["1M", "1M"]) == 70
    assert best(with_one_m_small(4), g, ["1M"]) == 0
