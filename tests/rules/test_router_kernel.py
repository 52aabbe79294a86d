"""The router's compiled kernel (issue 15, ``india1853.rules.router.kernel``) against the
pure-Python router: two trains of one gauge (with or without run duties) go to the kernel
by default,
and must give the same optimum, certified, as the pure-Python search (``kernel=False``) and
the complete listing, with a legal run set worth what it says."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from india1853.board.graph import TrackGraph
from india1853.errors import RuleError
from india1853.rules.position import load_position, runnable_trains
from india1853.rules.router import BestRun, best_run
from india1853.rules.router.arms import arms_of, runs_at_least
from india1853.rules.routes import Train, check_routes

STRESS = Path(__file__).resolve().parents[2] / "bench" / "stress"


@cache
def _load(path: Path) -> tuple[TrackGraph, str, list[Train], list[str]]:
    """The position (loaded once per module: the tests only read it)."""
    doc = json.loads(path.read_text())
    position = load_position(doc)
    company, trains, duties = runnable_trains(position, doc["bench"]["company"])
    return TrackGraph.build(position.board), company, trains, duties


@cache
def _best(name: str, kernel: bool = True) -> BestRun:
    """The router's answer for the position's trains without its duty (by the kernel, or
    the pure-Python search): asked once, for every test that checks it."""
    graph, company, trains, _ = _load(STRESS / f"{name}.json")
    return best_run(graph, company, trains, kernel=kernel)


def _two_train_positions() -> list[str]:
    """Every stress position with two trains (the kernel's case once the duty is dropped)."""
    out = []
    for path in sorted(STRESS.glob("*.json")):
        doc = json.loads(path.read_text())
        entry = next(c for c in doc["companies"] if c["company"] == doc["bench"]["company"])
        if len(entry["trains"]) == 2:
            out.append(path.stem)
    return out


TWO_TRAINS = _two_train_positions()


def test_the_stress_set_has_two_train_positions() -> None:
    assert len(TWO_TRAINS) >= 20
    assert "shared-worst-s4-n100-66" in TWO_TRAINS


@pytest.mark.parametrize("name", TWO_TRAINS)
def test_kernel_matches_the_pure_python_router(name: str) -> None:
    graph, company, trains, _ = _load(STRESS / f"{name}.json")
    # Without the duty, so that the kernel takes every one of these positions.
    fast = _best(name)
    reference = _best(name, kernel=False)
    assert fast.optimal and reference.optimal
    assert fast.run.total == reference.run.total == fast.upper_bound
    assert fast.stats.root_bound >= fast.run.total
    routes = [rv.route for rv in fast.run.routes]
    assert check_routes(graph, company, trains, routes).total == fast.run.total
    # The kernel answered: it lists every run of the gauge (one pass, no threshold).
    _, arms = arms_of(graph, company, trains)
    (gauge_arms,) = arms.values()
    assert fast.stats.passes == 1 and set(fast.stats.thresholds.values()) == {0}
    assert set(fast.stats.candidates.values()) == {len(runs_at_least(gauge_arms, 0))}


def test_kernel_gives_each_train_a_run_within_its_large_station_limit() -> None:
    # A '4' beside a '6' (4.5.4): the kernel must hold the '4' to four Large Stations.
    graph, _, trains, _ = _load(STRESS / "legal-eir-4-6-t150-s44.json")
    assert sorted(t.name for t in trains) == ["4", "6"]
    fast = _best("legal-eir-4-6-t150-s44")
    reference = _best("legal-eir-4-6-t150-s44", kernel=False)
    assert fast.run.total == reference.run.total and fast.optimal
    for rv in fast.run.routes:
        larges = sum(1 for s in rv.route.stations if graph.stations[s].kind == "large")
        assert larges <= rv.route.train.large


DUTY_POSITIONS = [name for name in TWO_TRAINS if name.endswith("-duty")]


@pytest.mark.parametrize("name", DUTY_POSITIONS)
def test_kernel_covers_the_run_duty_as_the_pure_python_router(name: str) -> None:
    graph, company, trains, duties = _load(STRESS / f"{name}.json")
    assert duties
    fast = best_run(graph, company, trains, duties)
    reference = best_run(graph, company, trains, duties, kernel=False)
    assert fast.optimal and reference.optimal
    assert fast.run.total == reference.run.total
    assert fast.stats.passes == 1 and set(fast.stats.thresholds.values()) == {0}
    routes = [rv.route for rv in fast.run.routes]
    # check_routes raises 4.2.3 if a duty hex is on no route.
    assert check_routes(graph, company, trains, routes, duties).total == fast.run.total


@pytest.mark.parametrize("name", ["legal-bnr-6-6-t100-s5", "legal-gip-5-6-t150-s42",
                                  "legal-eir-4-6-t137-s25"])
def test_kernel_with_drawn_duty_hexes_matches_the_pure_python_router(name: str) -> None:
    graph, company, trains, _ = _load(STRESS / f"{name}.json")
    rng = random.Random(name)
    # Hexes some run of the company meets (those of the best runs of each train alone, and
    # of both), and any hex of track (mostly out of reach: the 4.2.3 error).
    near = sorted({h for group in ([t] for t in trains) for rv in
                   best_run(graph, company, group).run.routes for h in rv.route.hexes}
                  | {h for rv in _best(name).run.routes
                     for h in rv.route.hexes})
    anywhere = sorted({t.hex for t in graph.tracks})
    draws = [sorted(rng.sample(near, count)) for count in (1, 1, 2, 2, 3, 4)]
    draws += [sorted(rng.sample(anywhere, count)) for count in (1, 2)]
    for duties in draws:
        try:
            reference = best_run(graph, company, trains, duties, kernel=False)
        except RuleError as exc:
            with pytest.raises(RuleError) as raised:
                best_run(graph, company, trains, duties)
            assert str(raised.value) == str(exc)
            continue
        fast = best_run(graph, company, trains, duties)
        assert fast.optimal and reference.optimal, duties
        assert fast.run.total == reference.run.total, duties



def test_warm_up_loads_the_kernel_that_the_router_uses() -> None:
    """``india1853.rules.router.warm_up`` (what ``serve`` and ``play`` call as they start)
    loads the very module the router's pair search imports, which importing the router alone
    does not (a fresh interpreter)."""
    probe = ("import sys\n"
             "from india1853.rules.router import warm_up\n"
             "assert 'india1853.rules.router.kernel' not in sys.modules\n"
             "warm_up()\n"
             "assert 'india1853.rules.router.kernel' in sys.modules\n")
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)
