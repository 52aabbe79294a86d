"""The router against a second, independent reading of the running rules (``independent``).

The oracle of ``test_router_oracle.py`` judges paths with the project's checker, as the
router does; here neither the paths nor the run sets go through :mod:`india1853.rules.routes`,
so a misreading of a rule shared by the checker and the router would show.  The positions
are those of ``test_router_oracle.py`` (grown networks: towns, two-town, junction and CD
tiles, blocked stations, several bases, '1M' trains, duties, both editions); each is solved
on the router's every path: a complete listing, the greedy start and forced thresholds.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from independent import Best, best_set, judge
from oracle import train
from test_router_oracle import positions

from india1853.board.graph import TrackGraph
from india1853.errors import RuleError
from india1853.rules.router import best_run
from india1853.rules.routes import Train

Position = tuple[TrackGraph, list[str], list[str]]


def _agree(graph: TrackGraph, names: list[str], duties: list[str], edition: str,
           ways: list[dict[str, object]]) -> None:
    """The router's answer, each way ``ways`` names (keyword arguments of ``best_run``),
    against the independent reading's (worked out once: it is the same for every way)."""
    trains = [train(n, edition) for n in names]
    expected = best_set(graph, "EIR", trains, duties)
    for how in ways:
        _agree_one(graph, trains, duties, expected, how)


def _agree_one(graph: TrackGraph, trains: list[Train], duties: list[str],
               expected: Best | None, how: dict[str, object]) -> None:
    if expected is None:
        with pytest.raises(RuleError, match=r"rule 4\.2\.3"):
            best_run(graph, "EIR", trains, duties, **how)  # type: ignore[arg-type]
        return
    best = best_run(graph, "EIR", trains, duties, **how)  # type: ignore[arg-type]
    assert best.run.total == expected.total and best.optimal
    runs = [(rv.route.train, rv.route.nodes, rv.route.tracks, rv.route.mail)
            for rv in best.run.routes]
    assert judge(graph, "EIR", trains, runs, duties) == best.run.total


@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(radius=3, min_tiles=6, max_tiles=14, max_trains=3),
       st.sampled_from((None, 25, 60, 120)))
def test_router_matches_an_independent_reading(position: Position,
                                               threshold: int | None) -> None:
    graph, names, duties = position
    ways: list[dict[str, object]] = [{}, {"greedy_start": True}]
    if threshold is not None:
        ways.append({"first_threshold": threshold})
    _agree(graph, names, duties, "second", ways)


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(edition="first", radius=3, min_tiles=6, max_tiles=14, min_trains=2,
                 max_trains=4))
def test_router_matches_an_independent_reading_first_edition(position: Position) -> None:
    graph, names, duties = position
    _agree(graph, names, duties, "first", [{}, {"greedy_start": True}])
