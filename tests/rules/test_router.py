"""The optimal router on hand-made positions: mail trade-off, duties, determinism, gauges."""

from __future__ import annotations

import pytest
from oracle import board, oracle_best, train

from india1853.board.graph import TrackGraph
from india1853.errors import RuleError
from india1853.rules.router import best_run
from india1853.rules.routes import route_to_json

# Row H: Ajmer large 30 - town 10 - plain - large 30 - plain - large 30 (Allahabad).
LINE = {"H10": ("14", 0), "H12": ("4", 1), "H14": ("9", 1), "H16": ("14", 0),
        "H18": ("9", 1), "H20": ("14", 0)}


def graph(tiles: dict[str, tuple[str, int]], bases: list[tuple[str, str, str | None]]
          ) -> TrackGraph:
    return TrackGraph.build(board("second", tiles, bases))


def test_mail_trade_off_prefers_valuable_ends() -> None:
    # 4.6.6: a '2' from H16 west to Ajmer earns 70 + mail 60; going on to the H8 town earns
    # 80 but only 40 mail; east to Allahabad 60 + 60.  The shorter run wins.
    tiles = {**LINE, "H8": ("4", 1)}  # a town beyond Ajmer: 10 more revenue, 20 less mail
    g = graph(tiles, [("EIR", "H16", "st1")])
    best = best_run(g, "EIR", [train("2")])
    assert best.optimal
    route = best.run.routes[0]
    assert route.route.mail
    assert (route.revenue, route.mail) == (70, 60)  # not 80 + 40 through the H8 town
    assert best.run.total == oracle_best(g, "EIR", [train("2")]).total  # type: ignore[union-attr]


def test_duty_forces_a_run_over_the_hex() -> None:
    g = graph(LINE, [("EIR", "H16", "st1")])
    free = best_run(g, "EIR", [train("2")])
    assert free.run.total == 130
    forced = best_run(g, "EIR", [train("2")], duties=["H18"])
    assert any("H18" in {g.tracks[t].hex for t in rv.route.tracks} for rv in forced.run.routes)
    assert forced.run.total == 60 + 60


def test_unreachable_duty_is_reported() -> None:
    g = graph(LINE, [("EIR", "H16", "st1")])
    with pytest.raises(RuleError, match=r"rule 4\.2\.3.*H30"):
        best_run(g, "EIR", [train("2")], duties=["H30"])


def test_metre_train_cannot_use_broad_line() -> None:
    g = graph(LINE, [("EIR", "H16", "st1")])
    best = best_run(g, "EIR", [train("2M")])
    assert best.run.total == 0 and best.optimal


def test_same_answer_every_time() -> None:
    g = graph(LINE, [("EIR", "H16", "st1"), ("EIR", "H10", "st1")])
    answers = {repr(best_run(g, "EIR", [train("2"), train("2")]).run) for _ in range(3)}
    assert len(answers) == 1


def test_route_hexes_are_those_of_the_route_file() -> None:
    # Route.hexes (what the terminal's "optimal run" note and `render --routes` print and
    # compare with a run option) is the route-file list of hexes, plain hexes included.
    g = graph(LINE, [("EIR", "H16", "st1")])
    best = best_run(g, "EIR", [train("2"), train("2")])
    for rv in best.run.routes:
        listed = tuple(h.split(":")[0] for h in route_to_json(rv.route, g)["hexes"])
        assert rv.route.hexes == listed
    assert sorted(rv.route.hexes for rv in best.run.routes) == [
        ("H16", "H14", "H12", "H10"), ("H16", "H18", "H20")]


def test_only_the_track_joined_to_the_bases_is_reduced() -> None:
    # 4.5.2: every run includes a base, so a network no base of the company is joined to
    # (here the same line four rows down, another company's) is left out of stage 1; the run is
    # the one on the board without it.
    far = {f"L{h[1:]}": tile for h, tile in LINE.items()}
    alone = best_run(graph(LINE, [("EIR", "H16", "st1")]), "EIR", [train("2"), train("2")])
    g = graph({**LINE, **far}, [("EIR", "H16", "st1"), ("BNR", "L16", "st1")])
    both = best_run(g, "EIR", [train("2"), train("2")])
    assert set(far) <= {t.hex for t in g.tracks}
    assert both.stats.key_nodes == alone.stats.key_nodes
    assert both.stats.links == alone.stats.links
    assert repr(both.run) == repr(alone.run) and both.optimal
    assert best_run(g, "BNR", [train("2"), train("2")]).run.total == alone.run.total
