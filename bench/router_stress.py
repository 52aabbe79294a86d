"""Router stress set: the router's tail on late-game networks grown over the whole board.

The positions in ``bench/stress/`` (``legal-*``, ``over-*``) are like the ones a tester
found slow (issue 15: two '6' trains on a dense board taking seconds, four to six trains
taking minutes): networks grown
in turns of laying and promoting anywhere on the map (not near one home), up to 150 tiles,
Phase 5, with several bases of the running company and of others.  Two columns:

- **legal**: train sets a company may hold in Phase 5 (TABLE 6's limit), with and without
  a run duty (4.2.3 / 4.4.2);
- **over the limit**: four to six trains (up to '3M', '4', '4M', '5', '6', '6'), more than any
  company may hold, the router must still finish with the certified optimum.

The four ``shared-*`` files are the tester's own (``shared/reference/router-stress/``, the
project's position format), copied with the top-level ``company`` moved into a ``bench``
entry as the generated files have it.

``python -m bench.router_stress --generate`` rewrites the files from :data:`STRESS` (each
seeded, so the same files come back); ``run()`` (``make bench``) times ``best_run`` on every
file, warm, in process CPU time (median and worst of :data:`REPEATS`; the first call's time
too), checks the certificate and that every repeat gives the same route set, and prints the
worst of each column against :data:`TARGET_MS`.  A legal set's first call has
:data:`LIMIT_SECONDS` of wall-clock time, one over the limit :data:`OVER_LIMIT_SECONDS` (so
that it finishes and its time is reported).  ``--oracle`` also compares the brute-force oracle where
it finishes within its budget.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.router import Spec, _oracle, _route_set, build_position
from india1853.board.graph import TrackGraph
from india1853.errors import RuleError
from india1853.rules.position import load_position, runnable_trains
from india1853.rules.router import Budget, best_run

HERE = Path(__file__).parent
STRESS_DIR = HERE / "stress"
REPEATS = 5
# A position whose first (cold) call takes longer than this is timed once warm, not
# REPEATS times; one the router cannot prove within LIMIT_SECONDS is reported as such
# (with its best run so far) rather than holding up the benchmark.
SLOW_SECONDS = 2.0
LIMIT_SECONDS = 30.0
# Over the train limit the router must still finish with the certified optimum (issue 15):
# those positions get this much wall-clock time, enough for every one to finish (the worst
# took about 20 s of CPU time under load), so that the bench reports their real times.
OVER_LIMIT_SECONDS = 600.0
TARGET_MS = 50.0


@dataclass(frozen=True)
class Stress:
    """One stress position: the company, its trains, the tiles grown, the seed, a duty."""

    company: str
    trains: tuple[str, ...]
    tiles: int
    seed: int
    duty: bool = False
    over_limit: bool = False
    others: tuple[str, ...] = ("BNR", "GIP", "NWR", "EIR")
    metre_share: float = 0.0

    @property
    def name(self) -> str:
        kind = "over" if self.over_limit else "legal"
        return (f"{kind}-{self.company.lower()}-{'-'.join(t.lower() for t in self.trains)}"
                f"-t{self.tiles}-s{self.seed}{'-duty' if self.duty else ''}")


def _specs() -> tuple[Stress, ...]:
    out: list[Stress] = []
    legal: list[tuple[str, tuple[str, ...]]] = [
        ("EIR", ("6", "6")), ("BNR", ("6", "6")), ("GIP", ("5", "6")),
        ("NWR", ("6", "6")), ("EIR", ("4", "6")), ("BBCI", ("5", "5"))]
    for k, (company, trains) in enumerate(legal):
        for tiles, seed in ((100, 4 + k), (137, 21 + k), (150, 40 + k)):
            out.append(Stress(company, trains, tiles, seed, others=tuple(
                c for c in ("BNR", "GIP", "NWR", "EIR") if c != company)))
        out.append(Stress(company, trains, 120, 60 + k, duty=True, others=tuple(
            c for c in ("BNR", "GIP", "NWR", "EIR") if c != company)))
    over: list[tuple[str, tuple[str, ...]]] = [
        ("EIR", ("3M", "4M", "5", "6")), ("GIP", ("3M", "4", "4M", "5", "6", "6")),
        ("BNR", ("4", "5", "6", "6")), ("EIR", ("5", "5", "6", "6", "6"))]
    for k, (company, trains) in enumerate(over):
        for tiles, seed, duty in ((60, 47 + k, False), (133, 80 + k, True),
                                  (150, 90 + k, False)):
            out.append(Stress(company, trains, tiles, seed, duty=duty, over_limit=True,
                              metre_share=0.3 if any(t.endswith("M") for t in trains) else 0.0,
                              others=tuple(c for c in ("BNR", "GIP", "NWR", "EIR")
                                           if c != company)))
    return tuple(out)


STRESS: tuple[Stress, ...] = _specs()


def build(stress: Stress) -> dict[str, Any]:
    """The position: a whole-board network grown in turns (bench.router's generator with no
    centre), the company holding ``stress.trains`` (the train limit not applied when
    ``over_limit``), and with ``duty`` a run duty on a hex that some run meets (a hex of the
    best run of its first train alone, chosen with the seed)."""
    spec = Spec(stress.name, "late", stress.company, ("6",), stress.tiles,
                stress.seed, metre_share=stress.metre_share, others=stress.others,
                extra_bases=2, promote_share=0.8, turns=8, phase=5)
    doc = build_position(spec)
    entry = next(c for c in doc["companies"] if c["company"] == stress.company)
    entry["trains"] = list(stress.trains)
    doc["bench"] = {"name": stress.name, "era": "late", "company": stress.company,
                    "notes": "over the train limit" if stress.over_limit else "legal set"}
    if stress.duty:
        position = load_position(doc)
        company, trains, _ = runnable_trains(position, stress.company)
        graph = TrackGraph.build(position.board)
        rng = random.Random(stress.seed)
        best = best_run(graph, company, trains[:1])
        hexes = sorted({h for rv in best.run.routes for h in rv.route.hexes})
        if hexes:
            entry["run_duties"] = [rng.choice(hexes)]
    return doc


def generate() -> None:
    """Write the ``legal-*`` and ``over-*`` files (the ``shared-*`` ones are left alone)."""
    STRESS_DIR.mkdir(exist_ok=True)
    for stress in STRESS:
        doc = build(stress)
        load_position(doc)  # must be a valid position
        (STRESS_DIR / f"{stress.name}.json").write_text(json.dumps(doc, indent=1) + "\n")
        print(stress.name, len(doc["tiles"]), "tiles", flush=True)


def measure(path: Path, with_oracle: bool = False) -> dict[str, object]:
    doc = json.loads(path.read_text())
    position = load_position(doc)
    company, trains, duties = runnable_trains(position, doc["bench"]["company"])
    graph = TrackGraph.build(position.board)
    limit = position.edition.phase(position.phase).train_limit
    column = "over the train limit" if limit is not None and len(trains) > limit else "legal set"
    row: dict[str, object] = {"position": path.stem, "column": column,
                              "trains": " ".join(t.name for t in trains),
                              "tiles": len(doc["tiles"]), "duty": ",".join(duties)}
    seconds = LIMIT_SECONDS if column == "legal set" else OVER_LIMIT_SECONDS
    try:
        c0 = time.process_time()
        first = best_run(graph, company, trains, duties, budget=Budget(seconds))
        cold = time.process_time() - c0
    except RuleError as exc:
        row["error"] = str(exc)
        return row
    if first.stats.budget_exhausted:
        row.update({"cpu_med": cold * 1000, "cpu_max": cold * 1000,
                    "total": first.run.total, "upper_bound": first.upper_bound,
                    "optimal": first.optimal,
                    "note": f"not proven within {seconds:.0f} s (best so far)"})
        return row
    routes = _route_set(first, graph)
    cpu: list[float] = []
    for _ in range(1 if cold > SLOW_SECONDS else REPEATS):
        c0 = time.process_time()
        again = best_run(graph, company, trains, duties)
        cpu.append((time.process_time() - c0) * 1000)
        if _route_set(again, graph) != routes:
            raise AssertionError(f"{path.stem}: the router is not deterministic")
    row.update({"cpu_med": statistics.median(cpu), "cpu_max": max(cpu),
                "cpu_first": cold * 1000,
                "runs listed": sum(first.stats.candidates.values()),
                "bnb nodes": first.stats.search_nodes, "passes": first.stats.passes,
                "total": first.run.total, "upper_bound": first.upper_bound,
                "optimal": first.optimal})
    if with_oracle:
        oracle_total, cost = _oracle(graph, company, trains, duties)
        row["oracle"] = (cost if cost.startswith("n/a") else
                         f"yes ({cost})" if oracle_total == first.run.total
                         else f"NO: {oracle_total} ({cost})")
    return row


def run(with_oracle: bool = False) -> list[dict[str, object]]:
    load = os.getloadavg()[0]
    rows = [measure(p, with_oracle) for p in sorted(STRESS_DIR.glob("*.json"))]
    for column in ("legal set", "over the train limit"):
        timed = [r for r in rows if r["column"] == column and "cpu_max" in r]
        if not timed:
            continue
        worst = max(timed, key=lambda r: float(str(r["cpu_max"])))
        over = [str(r["position"]) for r in timed if float(str(r["cpu_max"])) >= TARGET_MS]
        print(f"router stress ({column}): {len(timed)} positions, worst warm CPU "
              f"{float(str(worst['cpu_max'])):.1f} ms ({worst['position']}), "
              f"{len(over)} at {TARGET_MS:.0f} ms or more, all certified: "
              f"{all(r['optimal'] for r in timed)}", flush=True)
        unfinished = [str(r["position"]) for r in rows
                      if r["column"] == column and "note" in r]
        if unfinished:
            print(f"router stress ({column}): not proven within the budget: "
                  f"{', '.join(unfinished)}", flush=True)
    print(f"router stress: load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    return rows


if __name__ == "__main__":
    if "--generate" in sys.argv:
        generate()
    else:
        for row in run(with_oracle="--oracle" in sys.argv):
            print(row, flush=True)
