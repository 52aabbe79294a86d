"""A run being drawn (the browser's run editor): what each train's route so far visits and
earns, what the train may run to, and whether the engine accepts the whole run now.

Rules: 4.5.4 / 33.4 (an 'N' train runs to at most N Large Stations, any number of Small ones;
4.8.18 b the '1M'), 4.6.2-4.6.3 / 34.2-34.3 (every station visited scores), 4.6.6 / 34.6 (the
mail train also earns its end stations).  The verdict is :func:`~india1853.rules.game.turn.
preview`'s: the run tried on a fork of the game, so it is exactly what ``run_routes`` would say.
"""

from __future__ import annotations

from typing import Any

from india1853.board.graph import TrackGraph
from india1853.errors import InputError, RuleError
from india1853.rules.game import board_port
from india1853.rules.game.game import Game
from india1853.rules.game.turn import preview
from india1853.rules.routes import Train, resolve_route, route_value

Json = dict[str, Any]


def reach(train: Train) -> str:
    """What a train may run to, in the rulebook's words (4.5.4, 4.8.18 b)."""
    if train.one_m:
        return (f"exactly one Large Station (with a base) and at least {train.min_small} "
                "Small Station(s)")
    plural = "" if train.large == 1 else "s"
    return f"up to {train.large} Large Station{plural} and any Small Stations"


def _route_so_far(graph: TrackGraph, company: str, by_name: dict[str, Train], item: object,
                  field: str) -> Json:
    """One route of the draft: its stations, Large Stations and revenue when its hexes make a
    line from station to station, else the engine's words for what is wrong with it."""
    if not isinstance(item, dict):
        return {"refusal": f"{field}: expected an object with train and hexes"}
    name = str(item.get("train"))
    train = by_name.get(name)
    if train is None:
        return {"train": name, "refusal": str(RuleError(
            "4.5.1", f"{field}.train: {company} has no train {name!r} able to run this turn"))}
    out: Json = {"train": name, "reach": reach(train), "large_limit": train.large}
    hexes = item.get("hexes")
    if not isinstance(hexes, list):
        return {**out, "refusal": f"{field}.hexes: expected a list of hexes"}
    try:
        route = resolve_route(graph, train, hexes, bool(item.get("mail")), field)
    except (InputError, RuleError) as exc:
        return {**out, "refusal": str(exc)}
    value = route_value(route, graph)
    large = sum(1 for s in route.stations if graph.stations[s].kind == "large")
    return {**out, "stations": len(route.stations), "large": large,
            "revenue": value.revenue, "mail_revenue": value.mail, "refusal": None}


def run_draft(game: Game, viewer: str, action: Json) -> Json:
    """The run ``action`` (a ``run_routes`` action, perhaps half drawn) as the run editor shows
    it: ``routes`` (per route: ``train``, ``reach``, ``large_limit``, and when its hexes make a
    line ``stations``, ``large``, ``revenue``, ``mail_revenue``; else ``refusal``), ``option``
    (the option the run would be, as the turn model prices it) and ``refusal`` (None when the
    engine accepts the run now, else its message naming the rule).  Nothing changes."""
    if action.get("type") != "run_routes":
        raise InputError("action.type: a run draft is a run_routes action")
    entity = str(action.get("entity"))
    co = game.state.companies.get(entity)
    if co is None:
        raise InputError(f"action.entity: {entity!r} is not a company")
    routes = action.get("routes")
    if not isinstance(routes, list):
        raise InputError("action.routes: expected a list of routes")
    graph = TrackGraph.build(board_port.open_board(game.rules, game.state))
    by_name = {t.name: t for t in board_port.running_trains(game.rules, game.state, co)}
    drawn = [_route_so_far(graph, entity, by_name, item, f"routes[{i}]")
             for i, item in enumerate(routes)]
    try:
        option: Json | None = preview(game, viewer, action)
        refusal = None
    except (InputError, RuleError) as exc:
        option, refusal = None, str(exc)
    return {"routes": drawn, "option": option, "refusal": refusal}


__all__ = ["reach", "run_draft"]
