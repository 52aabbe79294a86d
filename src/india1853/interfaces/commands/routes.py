"""``india1853 routes POSITION.json --company X [--json] [--check ROUTES.json]``.

Without ``--check``: the company's optimal run (each train's route, revenue, the mail train,
the total, the certificate and search statistics).  With ``--check``: validate a proposed set
of routes (format in docs/routes.md) and print its value, or the rule broken and where.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from india1853.board.graph import TrackGraph
from india1853.data.jsonfile import read_json_file
from india1853.errors import InputError
from india1853.rules.position import load_position, runnable_trains
from india1853.rules.router import BestRun, best_run
from india1853.rules.routes import (
    RouteGraph,
    RunValue,
    check_routes,
    parse_route_file,
    route_to_json,
)


def register(sub: Any) -> None:
    parser = sub.add_parser("routes", help="a company's optimal run, or check proposed routes")
    parser.add_argument("position", help="position file (docs/positions.md)")
    parser.add_argument("--company", required=True, help="company initials or number")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.add_argument("--check", metavar="ROUTES.json", help="validate these routes instead")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    position = load_position(args.position)
    company, trains, duties = runnable_trains(position, args.company)
    graph = TrackGraph.build(position.board)
    if args.check:
        data = _read(args.check)
        named, routes = parse_route_file(data, graph, trains)
        if named != company:
            raise InputError(f"{args.check}: company: the routes are for {named}, not {company}")
        value = check_routes(graph, company, trains, routes, duties)
        _print(args.json, _run_json(company, value, graph), _run_text(company, value, graph))
        return 0
    best = best_run(graph, company, trains, duties)
    doc = _run_json(company, best.run, graph)
    doc["certificate"] = {"upper_bound": best.upper_bound, "optimal": best.optimal,
                          "root_bound": best.stats.root_bound}
    doc["stats"] = _stats_json(best)
    text = _run_text(company, best.run, graph)
    text += (f"\noptimal: {best.optimal} (upper bound {best.upper_bound}, root bound "
             f"{best.stats.root_bound})\n{_stats_text(best)}")
    _print(args.json, doc, text)
    return 0


def _read(path: str) -> Any:
    return read_json_file(path, path)


def _print(as_json: bool, doc: dict[str, Any], text: str) -> None:
    print(json.dumps(doc, indent=2) if as_json else text)


def _run_json(company: str, value: RunValue, graph: RouteGraph) -> dict[str, Any]:
    routes = []
    for rv in value.routes:
        entry = route_to_json(rv.route, graph)
        entry["stations"] = [
            {"hex": s[1], "station": s[2], "value": graph.stations[s].value}
            for s in rv.route.stations
        ]
        entry["revenue"] = rv.revenue
        entry["mail_revenue"] = rv.mail
        routes.append(entry)
    return {"company": company, "routes": routes, "revenue": value.revenue,
            "mail": value.mail, "total": value.total}


def _run_text(company: str, value: RunValue, graph: RouteGraph) -> str:
    lines = [f"{company}: {len(value.routes)} train(s) run"]
    for rv in value.routes:
        stations = " ".join(f"{s[1]}({graph.stations[s].value})" for s in rv.route.stations)
        mail = f" + mail {rv.mail}" if rv.route.mail else ""
        hexes = " ".join(route_to_json(rv.route, graph)["hexes"])
        lines.append(f"  train {rv.route.train.name}: {rv.revenue}{mail}  stations {stations}")
        lines.append(f"    hexes {hexes}")
    lines.append(f"revenue {value.revenue}, mail {value.mail}, total {value.total}")
    return "\n".join(lines)


def _stats_json(best: BestRun) -> dict[str, Any]:
    s = best.stats
    return {"key_nodes": s.key_nodes, "links": s.links, "candidates": s.candidates,
            "search_nodes": s.search_nodes, "reduce_ms": round(s.reduce_ms, 3),
            "enumerate_ms": round(s.enumerate_ms, 3), "search_ms": round(s.search_ms, 3)}


def _stats_text(best: BestRun) -> str:
    s = best.stats
    cands = ", ".join(f"{k}: {v}" for k, v in s.candidates.items())
    return (f"search: candidates per train {{{cands}}}, {s.search_nodes} nodes; reduce "
            f"{s.reduce_ms:.1f} ms, enumerate {s.enumerate_ms:.1f} ms, search "
            f"{s.search_ms:.1f} ms")
