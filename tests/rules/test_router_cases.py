"""The optimal router on hand-made positions, one per running rule that shapes the optimum.

Each test lays real tiles on the real map (``oracle.board``: construction legality is not at
issue here), computes the expected optimum by hand in its comment, and checks the router's
answer against that number, against the brute-force oracle, and (where a tempting illegal run
exists) that the literal checker rejects it with the rule named.

Hex neighbours: E (row, col+2), W (row, col-2), NE (row-1, col+1), NW (row-1, col-1),
SE (row+1, col+1), SW (row+1, col-1).
"""

from __future__ import annotations

import pytest
from oracle import board, oracle_best, train

from india1853.board.graph import TrackGraph
from india1853.board.hexes import side_between
from india1853.board.tiles import exits
from india1853.data.loader import load_edition
from india1853.errors import RuleError
from india1853.rules.router import BestRun, best_run
from india1853.rules.routes import Route, check_routes, parse_route_file

Layout = dict[str, tuple[str, int]]


def fit(edition: str, tile: str, hex_: str, *towards: str) -> tuple[str, int]:
    """``tile`` at the first rotation whose track reaches every hex in ``towards``."""
    spec = load_edition(edition).tiles[tile]
    sides = {side_between(hex_, other) for other in towards}
    assert None not in sides, f"{towards} not all next to {hex_}"
    for rotation in range(6):
        if sides <= exits(spec, rotation):
            return tile, rotation
    raise AssertionError(f"tile {tile} cannot reach {towards} from {hex_}")


def solve(edition: str, layout: Layout, bases: list[tuple[str, str, str | None]],
          trains: list[str], company: str = "EIR") -> tuple[TrackGraph, BestRun]:
    """The router's answer, checked for its certificate and against the oracle."""
    g = TrackGraph.build(board(edition, layout, bases))
    ts = [train(t, edition) for t in trains]
    best = best_run(g, company, ts)
    assert best.optimal and best.upper_bound == best.run.total
    expected = oracle_best(g, company, ts)
    assert expected is not None and expected.total == best.run.total
    assert best.stats.root_bound >= expected.total  # the bound before the search
    # The path of large networks (a greedy run set first, then only the runs that could
    # beat it) reaches the same optimum.
    greedy = best_run(g, company, ts, greedy_start=True)
    assert greedy.optimal and greedy.run.total == best.run.total
    return g, best


def stations_of(best: BestRun) -> list[list[tuple[str, str]]]:
    return sorted([[(s[1], s[2]) for s in rv.route.stations] for rv in best.run.routes])


def as_set(route: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """A route's stations in a direction-free canonical order."""
    return min(tuple(route), tuple(route[::-1]))


def routes_from(g: TrackGraph, trains: list[str], routes: list[dict[str, object]],
                edition: str = "second") -> tuple[list[Route], list[str]]:
    ts = [train(t, edition) for t in trains]
    _, parsed = parse_route_file({"company": "EIR", "routes": routes}, g, ts)
    return list(parsed), trains


def check(g: TrackGraph, trains: list[str], routes: list[dict[str, object]],
          edition: str = "second") -> int:
    parsed, _ = routes_from(g, trains, routes, edition)
    ts = [train(t, edition) for t in trains]
    return check_routes(g, "EIR", ts, parsed).total


# ---------------------------------------------------------------------------------------------
# Dual track shared between gauges (4.5.3, 4.5.8, 4.5.10).


def dual_layout() -> Layout:
    """H16 (dual city 716, 20) - H14 dual straight 233 - H12 (dual city 716, 20), which forks:
    broad west to Ajmer H10 (green 14, 30), metre south-west to I11 (metre city 113, 20).
    East of H16 a metre line: H18 metre town (74, 10) - H20 metre city (113, 20)."""
    e = "second"
    return {
        "H16": fit(e, "716", "H16", "H14", "H18"),
        "H14": fit(e, "233", "H14", "H12", "H16"),
        "H12": fit(e, "716", "H12", "H10", "H14", "I11"),
        "H10": fit(e, "14", "H10", "H12"),
        "I11": fit(e, "113", "I11", "H12"),
        "H18": fit(e, "74", "H18", "H16", "H20"),
        "H20": fit(e, "113", "H20", "H18"),
    }


def test_dual_track_carries_one_train_of_either_gauge() -> None:
    # EIR's only base is H16.  Broad '3': H16-H14-H12-H10 = 20+20+30 = 70 (mail 20+30 = 50).
    # Metre '3M': best single H20-H18-H16-H14-H12 = 20+10+20+20 = 70 (mail 40), or
    # H16-H14-H12-I11 = 60, or east only H16-H18-H20 = 50 (mail 40).  Both want the dual piece
    # H14; only one may use it.  Broad west + metre east: 70 + 50 + mail 50 = 170.  Metre
    # west (70 + mail 40) leaves the broad train nothing: 110.  Were the dual piece usable by
    # both, broad 70 + metre 70 + mail 50 = 190.  Optimum 170.
    g, best = solve("second", dual_layout(), [("EIR", "H16", "st1")], ["3", "3M"])
    assert best.run.total == 170
    by_train = {rv.route.train.name: rv for rv in best.run.routes}
    assert [s[1] for s in by_train["3"].route.stations] == ["H16", "H12", "H10"]
    assert by_train["3"].route.mail and by_train["3"].mail == 50
    assert sorted(s[1] for s in by_train["3M"].route.stations) == ["H16", "H18", "H20"]
    with pytest.raises(RuleError, match=r"rule 4\.5\.10.*H1[46]"):
        check(g, ["3", "3M"], [
            {"train": "3", "hexes": ["H16", "H14", "H12", "H10"]},
            {"train": "3M", "hexes": ["H20", "H18", "H16", "H14", "H12"]},
        ])


# ---------------------------------------------------------------------------------------------
# The junction rule (4.5.10 / 33.10).


def junction_layout() -> Layout:
    """Two green junction tiles 80 back to back: H14 merges NW and NE into its W edge, H12
    merges SE and SW into its E edge; the shared edge H12|H14 is where both merge.  Ends:
    G13 (large 20, 115, one track), G15 (town 10), I13 (large 20), I11 (town 10)."""
    e = "second"
    return {
        "H14": fit(e, "80", "H14", "H12", "G13", "G15"),
        "H12": fit(e, "80", "H12", "H14", "I13", "I11"),
        "G13": fit(e, "115", "G13", "H14"),
        "G15": fit(e, "3", "G15", "H14"),
        "I13": fit(e, "115", "I13", "H12"),
        "I11": fit(e, "3", "I11", "H12"),
    }


def test_junction_edge_takes_one_train() -> None:
    # Bases at G13 and I13; two '2' trains.  Edges: a = G13|H14, b = G15|H14, e = H14|H12
    # (the merged edge), c = H12|I13, d = H12|I11.  Runs (value + mail): G13-I13 over a, e, c
    # (40 + 40); G13-I11 over a, e, d and G15-I13 over b, e, c (30 + 30 each, different track
    # pieces on both junction tiles); G13-G15 inside H14 over a, b (30 + 30); I13-I11 inside
    # H12 over c, d (30 + 30); G15-I11 has no base.  The only edge-disjoint pair is G13-G15 +
    # I13-I11: 60 + mail 30 = 90 (G13-I13 alone: 80).  G13-I11 + G15-I13 share only the
    # merged edge: the checker rejects them (4.5.10).  Optimum 90.
    g, best = solve("second", junction_layout(), [("EIR", "G13", "st1"),
                                                   ("EIR", "I13", "st1")], ["2", "2"])
    assert best.run.total == 90
    with pytest.raises(RuleError, match=r"rule 4\.5\.10.*H1[24]"):
        check(g, ["2", "2"], [
            {"train": "2", "hexes": ["G13", "H14", "H12", "I11"]},
            {"train": "2", "hexes": ["G15", "H14", "H12", "I13"]},
        ])


def test_junction_rule_decides_the_optimum() -> None:
    # As above, but the bases are at I11 and I13 (I11 made a large 20 city, 115), and G13 and
    # G15 are towns (3).  Runs: I13-I11 inside H12 (40, mail 40); G13-I11, G13-I13, G15-I11,
    # G15-I13 over the merged edge (30 each, mail 30); G13-G15 has no base.  Every run uses
    # the edge H12|H14 or one of I13|H12, I11|H12, so no two runs are compatible except the
    # two crossing runs G13-I11 + G15-I13, which differ in every track piece but share the
    # merged edge.  With the junction rule: I13-I11 with the mail, 80.  Without it: 60 + mail
    # 30 = 90.  Optimum 80.
    e = "second"
    layout = {**junction_layout(), "G13": fit(e, "3", "G13", "H14"),
              "I11": fit(e, "115", "I11", "H12")}
    _, best = solve(e, layout, [("EIR", "I11", "st1"), ("EIR", "I13", "st1")], ["2", "2"])
    assert best.run.total == 80
    assert [as_set(r) for r in stations_of(best)] == [(("I11", "st1"), ("I13", "st1"))]


def test_one_run_passes_a_junction_once() -> None:
    # Brown junction 106 at H16 joins its W, NW, NE and SE edges in every pair.  H14 (large
    # 20, 115, EIR base) - W of H16; H16's NW - G15 (town 10) - G17 (town 10) - H16's NE; H16's
    # SE - I17 (large 20).  One '2': the loop H14-H16-G15-G17-H16-I17 (60 + mail 40 = 100)
    # passes the junction twice on different lines, which 4.2.5 with 4.5.5 forbids
    # (docs/rulings.md).  H14-H16-I17 = 40 + mail 40 = 80; H14-H16-G15-G17 = 40 + mail 30.
    # Optimum 80.
    e = "second"
    layout = {"H16": ("106", 0), "H14": fit(e, "115", "H14", "H16"),
              "G15": fit(e, "3", "G15", "H16", "G17"), "G17": fit(e, "3", "G17", "G15", "H16"),
              "I17": fit(e, "115", "I17", "H16")}
    _, best = solve(e, layout, [("EIR", "H14", "st1")], ["2"])
    assert best.run.total == 80
    assert best.run.routes[0].route.hexes == ("H14", "H16", "I17")
    # Two trains, bases at H14 and I17: the runs may meet at the junction on different lines
    # (4.5.10): H14-H16-G15-G17 (40) and I17-H16-G17 (30), + mail 30 = 100 (H14-H16-I17
    # takes the W and SE edges and leaves the other train no run from a base: 80).
    _, pair = solve(e, layout, [("EIR", "H14", "st1"), ("EIR", "I17", "st1")], ["2", "2"])
    assert pair.run.total == 100
    assert sorted(rv.route.hexes.count("H16") for rv in pair.run.routes) == [1, 1]


# ---------------------------------------------------------------------------------------------
# Blocked stations (4.5.6-4.5.7 / 33.6-33.7).

# Row H: Ajmer large 30 (two slots) - town 10 - plain - large 30 (two slots) - plain - large 30.
LINE: Layout = {"H10": ("14", 0), "H12": ("4", 1), "H14": ("9", 1), "H16": ("14", 0),
                "H18": ("9", 1), "H20": ("14", 0)}
BLOCKERS = [("GIP", "H16", "st1"), ("BNR", "H16", "st1")]


def test_blocked_station_ends_a_run_but_is_not_passed() -> None:
    # EIR base at H10; H16's two slots are GIP's and BNR's.  A '3' could run
    # H10-H12-H16-H20 = 100 + mail 60 = 160, but may not pass H16: H10-H12-H16 = 70 + mail 60
    # = 130 (ending at the blocked station is allowed).
    g, best = solve("second", LINE, [("EIR", "H10", "st1"), *BLOCKERS], ["3"])
    assert best.run.total == 130
    assert [s[1] for s in best.run.routes[0].route.stations][-1] == "H16"
    with pytest.raises(RuleError, match=r"rule 4\.5\.6.*H16"):
        check(g, ["3"], [{"train": "3", "hexes": ["H10", "H12", "H14", "H16", "H18", "H20"]}])


def test_two_runs_may_meet_at_a_blocked_station() -> None:
    # Bases at H10 and H20, H16 blocked, two '3' trains: H10-H12-H16 (70) and H20-H16 (60)
    # both end at H16 (stations may be shared) = 130 + mail 60 = 190.  Unblocked, one train
    # over the whole line would give 100 + 60 = 160 and the halves still 190.
    _, best = solve("second", LINE, [("EIR", "H10", "st1"), ("EIR", "H20", "st1"),
                                     *BLOCKERS], ["3", "3"])
    assert best.run.total == 190
    assert sorted(rv.revenue for rv in best.run.routes) == [60, 70]


def test_free_slot_does_not_block() -> None:
    # Only GIP holds a slot at H16 (two slots): it is not fully occupied, so the '3' runs
    # the whole line: 100 + mail 60 = 160.
    _, best = solve("second", LINE, [("EIR", "H10", "st1"), BLOCKERS[0]], ["3"])
    assert best.run.total == 160


# ---------------------------------------------------------------------------------------------
# Two towns on one tile are two towns (4.5.5 / 33.5).


@pytest.mark.parametrize("edition", ["first", "second"])
def test_both_towns_of_a_two_town_tile_in_one_run(edition: str) -> None:
    # Metre: H14 (metre city 113, 20, base) - I15 tile 71 (towns st1 (NW) and st2 (E) joined
    # by metre track, 10 each) - I17 (metre city 113, 20).  '2M': 20 + 10 + 10 + 20 = 60 +
    # mail 40 = 100.  Were the two towns one town, the run could not pass both: the best would
    # be H14 + one town = 30 + mail 30 = 60.
    e = edition
    layout = {"I15": ("71", 0), "H14": fit(e, "113", "H14", "I15"),
              "I17": fit(e, "113", "I17", "I15")}
    _, best = solve(e, layout, [("EIR", "H14", "st1")], ["2M"])
    assert best.run.total == 100
    assert as_set([(s[1], s[2]) for s in best.run.routes[0].route.stations]) == (
        ("H14", "st1"), ("I15", "st1"), ("I15", "st2"), ("I17", "st1"))


def test_a_run_may_pass_a_two_town_tile_twice() -> None:
    # Broad tile 1 at H16: town st1 joins SW (I15) and E (H18); town st2 joins W (H14) and
    # NE (G17).  A loop: H14 (large 20, base) - H16/st2 - G17 (large 20, 5) - H18 (plain 7) -
    # H16/st1 - I15 (town 3).  '2' train: 20 + 10 + 20 + 10 + 10 = 70, mail 20 + 10 = 30:
    # 100.  Shorter: H14-H16/st2-G17 = 50 + mail 40 = 90.  Optimum 100, visiting H16 twice.
    e = "second"
    layout = {
        "H16": ("1", 0),
        "H14": fit(e, "115", "H14", "H16"),
        "G17": fit(e, "5", "G17", "H16", "H18"),
        "H18": fit(e, "7", "H18", "G17", "H16"),
        "I15": fit(e, "3", "I15", "H16"),
    }
    g, best = solve(e, layout, [("EIR", "H14", "st1")], ["2"])
    assert best.run.total == 100
    hexes = [s[1] for s in best.run.routes[0].route.stations]
    assert hexes.count("H16") == 2
    assert check(g, ["2"], [{"train": "2", "mail": True, "hexes": [
        "H14", "H16:st2", "G17", "H18", "H16:st1", "I15"]}]) == 100


# ---------------------------------------------------------------------------------------------
# The '1M' train (4.5.4, 4.8.18 b).


def one_m_layout() -> Layout:
    """Metre gauge: F16 (large 20, 113) - G15 (town 10, 74) - H14 (large 20, 76, EIR base) -
    I15 (tile 71: towns st1 and st2, 10 each) - I17 (large 20, 113)."""
    e = "second"
    return {"H14": fit(e, "76", "H14", "I15", "G15"), "I15": ("71", 0),
            "I17": fit(e, "113", "I17", "I15"), "G15": fit(e, "74", "G15", "H14", "F16"),
            "F16": fit(e, "113", "F16", "G15")}


def test_one_m_train_runs_through_one_large_station() -> None:
    # A '1M' runs through exactly one Large Station, holding a base, and at least one Small
    # Station: G15-H14-I15/st1-I15/st2 = 50 + mail 20 = 70, or H14-I15-I15 = 40 + mail 30 =
    # 70.  A '2M' may go on to I17: G15-H14-I15-I15-I17 = 70 + mail 30 = 100.
    g, best = solve("second", one_m_layout(), [("EIR", "H14", "st1")], ["1M"])
    assert best.run.total == 70
    stations = best.run.routes[0].route.stations
    assert [s[1] for s in stations if g.stations[s].kind == "large"] == ["H14"]
    _, two_m = solve("second", one_m_layout(), [("EIR", "H14", "st1")], ["2M"])
    assert two_m.run.total == 100
    with pytest.raises(RuleError, match=r"rule 4\.8\.18"):
        check(g, ["1M"], [{"train": "1M", "hexes": ["F16", "G15", "H14"]}])


def test_one_m_beside_a_two_m() -> None:
    # '1M' + '2M': the '2M' takes H14-I15-I15-I17 (60, mail 40) and the '1M' H14-G15 (30):
    # 90 + 40 = 130; the other way round, F16-G15-H14 (50) + H14-I15-I15 (40) + mail 40 is
    # 130 too.  Two '1M's: H14-I15-I15 (40) + H14-G15 (30) + mail 30 = 100.
    _, best = solve("second", one_m_layout(), [("EIR", "H14", "st1")], ["1M", "2M"])
    assert best.run.total == 130
    _, ones = solve("second", one_m_layout(), [("EIR", "H14", "st1")], ["1M", "1M"])
    assert ones.run.total == 100


# ---------------------------------------------------------------------------------------------
# Run duties (4.2.3 / 4.4.2).


def test_a_duty_can_cost_revenue() -> None:
    # LINE with a spur from H16 north-east: G17 (plain 9) - F18 (large 20, 6).  EIR base H16,
    # two '2's.  Free: H16-H14-H12-H10 (70) + H16-H18-H20 (60) + mail 60 = 190 (the spur run
    # H16-G17-F18 is worth 50, and a '2' cannot take F18 beyond H16 and H10 or H20).  With a
    # duty on G17 (a tile promoted or a base placed out of the area in Phase 5) one run must
    # use the spur: H16-...-H10 (70, mail 60) + H16-G17-F18 (50) = 180.
    e = "second"
    layout = {**LINE, "G17": fit(e, "9", "G17", "H16", "F18"), "F18": fit(e, "6", "F18", "G17")}
    g = TrackGraph.build(board(e, layout, [("EIR", "H16", "st1")]))
    ts = [train("2"), train("2")]
    free = best_run(g, "EIR", ts)
    bound = best_run(g, "EIR", ts, duties=["G17"])
    assert (free.run.total, bound.run.total) == (190, 180)
    assert bound.optimal and bound.upper_bound == 180
    assert oracle_best(g, "EIR", ts, ["G17"]).total == 180  # type: ignore[union-attr]
    assert any("G17" in rv.route.hexes for rv in bound.run.routes)


# ---------------------------------------------------------------------------------------------
# Delhi and Calcutta: separate stations of one city (4.5.5 / 33.5).


def delhi_ring(edition: str) -> Layout:
    """Delhi F14 (preprinted: st1 NW to E13, st2 E to F16, st3 SW to G13) closed into a ring:
    Delhi/st1 - E13 (town 3) - F12 (plain 8) - Jaipur G13 (large 20, tile 5) - Delhi/st3."""
    return {
        "G13": fit(edition, "5", "G13", "F14", "F12"),
        "F12": fit(edition, "8", "F12", "G13", "E13"),
        "E13": fit(edition, "3", "E13", "F12", "F14"),
    }


@pytest.mark.parametrize("edition", ["first", "second"])
def test_one_run_never_visits_two_stations_of_delhi(edition: str) -> None:
    # EIR base at Jaipur; one '4'.  Delhi/st1-E13-F12-G13 = 40 + 10 + 20 = 70, mail 40 + 20 =
    # 60: 130.  Delhi/st3-G13-F12-E13 = 70 + mail 50 = 120; Delhi/st3-G13 = 60 + mail 60 = 120.
    # The ring Delhi/st1 ... G13-Delhi/st3 (110 + mail 80 = 190) visits Delhi twice.  Optimum
    # 130, ending at one of Delhi's stations.
    g, best = solve(edition, delhi_ring(edition), [("EIR", "G13", "st1")], ["4"])
    assert best.run.total == 130
    route = best.run.routes[0].route
    assert sum(1 for s in route.stations if s[1] == "F14") == 1
    with pytest.raises(RuleError, match=r"rule 4\.5\.5.*F14"):
        check(g, ["4"], [{"train": "4", "hexes": ["F14:st1", "E13", "F12", "G13", "F14:st3"]}],
              edition)


@pytest.mark.parametrize("edition", ["first", "second"])
def test_two_runs_may_end_at_two_stations_of_delhi(edition: str) -> None:
    # Two '4's: Delhi/st1-E13-F12-G13 (70) and Delhi/st3-G13 (60) share only Jaipur's station
    # (its two tracks are separate pieces): 130 + mail 60 = 190.
    _, best = solve(edition, delhi_ring(edition), [("EIR", "G13", "st1")], ["4", "4"])
    assert best.run.total == 190
    ends = sorted(s[1:] for rv in best.run.routes for s in rv.route.stations if s[1] == "F14")
    assert ends == [("F14", "st1"), ("F14", "st3")]


@pytest.mark.parametrize(("edition", "cd"), [("first", "104"), ("second", "500")])
def test_cd_tile_stations_are_termini(edition: str, cd: str) -> None:
    # Calcutta J28 promoted to the brown CD tile: six stations worth 70, each with one track to
    # one side (rotation 0: st2 W to J26, st4 NE to I29).  West: J26 (town 4) - J24 (large
    # 20, tile 6, base).  North-east: I29 (town 4) - H30 (town 3).
    # EIR base at J24; one '4': J24-J26-CD/st2 = 20 + 10 + 70 = 100, mail 20 + 70 = 90: 190.
    # A run through the CD tile (J24-J26-CD-I29-H30 = 120, mail 30: 150) is not a run at all:
    # no track joins two of its stations.  Optimum 190.
    e = edition
    layout = {
        "J28": (cd, 0),
        "J26": fit(e, "4", "J26", "J24", "J28"),
        "J24": fit(e, "6", "J24", "J26"),
        "I29": fit(e, "4", "I29", "J28", "H30"),
        "H30": fit(e, "3", "H30", "I29"),
    }
    g, best = solve(e, layout, [("EIR", "J24", "st1")], ["4"])
    assert best.run.total == 190
    route = best.run.routes[0].route
    assert route.stations[0][1] == "J28" or route.stations[-1][1] == "J28"
    with pytest.raises(RuleError, match=r"rule 4\.5\.[45]"):
        check(g, ["4"], [{"train": "4", "hexes": ["J24", "J26", "J28", "I29", "H30"]}], e)


# ---------------------------------------------------------------------------------------------
# The best pair uses neither train's best single route (4.5.10, 4.6.6).


def test_best_pair_uses_neither_trains_best_single_route() -> None:
    # Row H: Ajmer H10 (30) - H12 town (10) - H14 plain - H16 (30, EIR base) - H18 plain -
    # H20 brown 103 (40).  Best single run of the '4' and of the '3' alike: the whole line
    # H10-H12-H16-H20 = 110 + mail 30 + 40 = 180 (H16-H20 alone: 70 + 70 = 140; H12-H16-H20:
    # 80 + 50).  Together: the whole line leaves the other train nothing (180); H12-H16-H20
    # leaves only H10-H12, which has no base (130).  The halves H10-H12-H16 (70) and H16-H20
    # (70) meet at H16: 140 + mail 70 on H16-H20 = 210, using neither best single run.
    # (From the greedy start, which ``solve`` also runs, the first train takes the whole line
    # and the run set to beat is 180: the search must find the pair beyond it.)
    e = "second"
    layout = {**LINE, "H20": fit(e, "103", "H20", "H18")}
    _, single4 = solve(e, layout, [("EIR", "H16", "st1")], ["4"])
    _, single3 = solve(e, layout, [("EIR", "H16", "st1")], ["3"])
    assert single4.run.total == 180 and single3.run.total == 180
    _, pair = solve(e, layout, [("EIR", "H16", "st1")], ["4", "3"])
    assert pair.run.total == 210
    best_singles = {as_set([(s[1], s[2]) for s in single4.run.routes[0].route.stations]),
                    as_set([(s[1], s[2]) for s in single3.run.routes[0].route.stations])}
    used = {as_set([(s[1], s[2]) for s in rv.route.stations]) for rv in pair.run.routes}
    assert not used & best_singles
    assert sorted(rv.revenue for rv in pair.run.routes) == [70, 70]
