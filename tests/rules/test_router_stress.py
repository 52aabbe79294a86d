"""The router's tail (issue 15) on the stress positions of ``bench/stress/``: whole-board
networks of 60-150 tiles with two to six trains, some with a run duty, and the tester's own
four (``shared-*``).  The router must give the brute-force oracle's optimum with its
certificate; with a budget it must answer with a legal run set marked not proven."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from oracle import oracle_best

from india1853.board.graph import TrackGraph
from india1853.interfaces.game_render import OptimalRun, describe_run
from india1853.rules.position import load_position, runnable_trains
from india1853.rules.router import BestRun, Budget, best_run
from india1853.rules.routes import Train, check_routes

STRESS = Path(__file__).resolve().parents[2] / "bench" / "stress"

# The stress positions on which the oracle finishes in about a second or less (measured; the
# others have too many paths for it, and are compared with the complete listing below).
ORACLE_POSITIONS = (
    "legal-bbci-5-5-t100-s9",
    "legal-bbci-5-5-t120-s65-duty",
    "legal-bbci-5-5-t137-s26",
    "legal-bbci-5-5-t150-s45",
    "legal-bnr-6-6-t100-s5",
    "legal-bnr-6-6-t120-s61-duty",
    "legal-bnr-6-6-t137-s22",
    "legal-eir-6-6-t137-s21",
    "over-eir-3m-4m-5-6-t150-s90",
    "shared-hard-0047-60t-EIR-3M-4M-5-6-nod",
)
# Positions the router solves in well under a second, compared with a complete listing
# (every run, one pass) and with the greedy start refused: three ways through the router
# must agree, each certified.
LISTING_POSITIONS = (
    "shared-worst-s4-n100-66",
    "shared-hard-0021-137t-BNR-6-6-nod",
    "legal-gip-5-6-t120-s62-duty",
    "legal-eir-4-6-t120-s64-duty",
    "over-bnr-4-5-6-6-t150-s92",
    "over-gip-3m-4-4m-5-6-6-t60-s48",
)


@cache
def _load(name: str) -> tuple[TrackGraph, str, list[Train], list[str]]:
    """The position (loaded once per module: the tests only read it)."""
    doc = json.loads((STRESS / f"{name}.json").read_text())
    position = load_position(doc)
    company, trains, duties = runnable_trains(position, doc["bench"]["company"])
    return TrackGraph.build(position.board), company, trains, duties


@cache
def _best(name: str, nodes: int | None = None) -> BestRun:
    """The router's answer for the position, without a budget or (``nodes``) within a
    budget of that many search nodes: asked once, for every test that checks it."""
    graph, company, trains, duties = _load(name)
    if nodes is None:
        return best_run(graph, company, trains, duties)
    return best_run(graph, company, trains, duties, budget=Budget(nodes=nodes))


def _legal_total(graph: TrackGraph, company: str, trains: list[Train], duties: list[str],
                 routes: list[object]) -> int:
    return check_routes(graph, company, trains, routes, duties).total  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ORACLE_POSITIONS)
def test_stress_position_matches_oracle(name: str) -> None:
    graph, company, trains, duties = _load(name)
    best = _best(name)
    answer = oracle_best(graph, company, trains, duties)
    assert answer is not None
    assert best.optimal
    assert best.run.total == answer.total
    assert best.upper_bound >= answer.total and best.stats.root_bound >= answer.total
    routes = [rv.route for rv in best.run.routes]
    assert _legal_total(graph, company, trains, duties, routes) == best.run.total


@pytest.mark.parametrize("name", LISTING_POSITIONS)
def test_stress_position_same_optimum_every_way(name: str) -> None:
    graph, company, trains, duties = _load(name)
    best = _best(name)
    complete = best_run(graph, company, trains, duties, first_threshold=0)
    plain = best_run(graph, company, trains, duties, greedy_start=False)
    assert best.optimal and complete.optimal and plain.optimal
    assert best.run.total == complete.run.total == plain.run.total
    assert best.upper_bound == complete.upper_bound == best.run.total


def test_budget_answers_best_so_far_marked_not_proven() -> None:
    graph, company, trains, duties = _load("shared-worst-s4-n100-66")
    exact = _best("shared-worst-s4-n100-66")
    quick = _best("shared-worst-s4-n100-66", nodes=0)
    assert exact.optimal and not exact.stats.budget_exhausted
    assert quick.stats.budget_exhausted and not quick.optimal
    # The run set is legal and worth what it says; the bound still bounds the optimum.
    routes = [rv.route for rv in quick.run.routes]
    assert _legal_total(graph, company, trains, duties, routes) == quick.run.total
    assert quick.run.total < exact.run.total <= quick.upper_bound


def test_budget_with_a_duty_still_covers_it() -> None:
    graph, company, trains, duties = _load("over-bnr-4-5-6-6-t133-s82-duty")
    assert duties
    quick = best_run(graph, company, trains, duties, budget=Budget(nodes=50))
    assert quick.stats.budget_exhausted and not quick.optimal
    routes = [rv.route for rv in quick.run.routes]
    # check_routes raises 4.2.3 if a duty hex is on no route.
    assert _legal_total(graph, company, trains, duties, routes) == quick.run.total
    assert quick.upper_bound > quick.run.total


def test_budget_not_reached_changes_nothing() -> None:
    graph, company, trains, duties = _load("shared-hard-0021-137t-BNR-6-6-nod")
    exact = _best("shared-hard-0021-137t-BNR-6-6-nod")
    roomy = best_run(graph, company, trains, duties, budget=Budget(seconds=600.0,
                                                                   nodes=10**9))
    assert not roomy.stats.budget_exhausted and roomy.optimal
    assert repr(roomy.run) == repr(exact.run) and roomy.upper_bound == exact.upper_bound


def test_terminal_says_when_a_run_is_not_yet_proven() -> None:
    company = _load("shared-worst-s4-n100-66")[1]
    quick = _best("shared-worst-s4-n100-66", nodes=0)
    routes = tuple(rv.route for rv in quick.run.routes)
    unproven = describe_run(OptimalRun(company, routes, quick.run.total, quick.optimal))
    assert unproven.startswith(f"{company}: best so far, not yet proven: run £")
    proven = describe_run(OptimalRun(company, routes, quick.run.total))
    assert "optimal run" in proven and "not yet proven" not in proven
