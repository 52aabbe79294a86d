"""A run being drawn (the browser's run editor): the track between the stations clicked, what
each train's route so far visits and earns, what the train may run to, and whether the engine
accepts the whole run now.

Rules: 4.5.3 / 33.3 (a train runs on track of its gauge or dual), 4.5.5 / 33.5 (at a tile
edge a run passes into the next tile, never back), 4.5.4 / 33.4 (an 'N' train runs to at most
N Large Stations, any number of Small ones; 4.8.18 b the '1M'), 4.6.2-4.6.3 / 34.2-34.3
(every station visited scores), 4.6.6 / 34.6 (the mail train also earns its end stations).
The verdict is :func:`~india1853.rules.game.turn.preview`'s: the run tried on a fork of the
game, so it is exactly what ``run_routes`` would say.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from india1853.board.graph import Node, StationNode, Track, TrackGraph
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


def _split(stop: object) -> tuple[str, tuple[str, ...]] | None:
    if not isinstance(stop, str):
        return None
    hex_, _, ids = stop.partition(":")
    return hex_.strip().upper(), tuple(i.strip() for i in ids.split(",") if i.strip())


def _stations_in(graph: TrackGraph, hex_: str, ids: Sequence[str]) -> list[StationNode]:
    if ids:
        return [n for n in (("S", hex_, i) for i in ids) if n in graph.stations]
    return sorted(n for n in graph.stations if n[1] == hex_)


def _line_between(graph: TrackGraph, train: Train, starts: Sequence[StationNode],
                  goals: Sequence[StationNode]) -> list[Track] | None:
    """The shortest line of the train's gauge (4.5.3) from one of ``starts`` to one of
    ``goals`` passing no other station, never turning back into a tile at its edge (4.5.5);
    the first found of equal length (the tracks in id order), or None."""
    goal_set = set(goals)
    came: dict[tuple[Node, str], tuple[tuple[Node, str], Track] | None] = {
        (n, ""): None for n in starts}
    queue: deque[tuple[Node, str]] = deque(came)
    while queue:
        state = queue.popleft()
        node, from_hex = state
        if node in goal_set and from_hex:
            tracks: list[Track] = []
            back = came[state]
            while back is not None:
                tracks.append(back[1])
                back = came[back[0]]
            return tracks[::-1]
        if node[0] == "S" and from_hex:
            continue  # another station: the player clicks it to pass it
        for t in sorted(graph.adjacent(node, train.gauge), key=lambda t: t.id):
            if node[0] == "E" and t.hex == from_hex:
                continue
            nxt = (t.other(node), t.hex)
            if nxt not in came:
                came[nxt] = (state, t)
                queue.append(nxt)
    return None


def join_stations(graph: TrackGraph, train: Train, stops: Sequence[object]) -> list[object]:
    """The route's hexes with the track between two stations clicked one after the other (hexes
    not next to each other) filled in: the shortest line of the train's gauge between them
    through no other station, and the stations used named where a hex has several (``M9:st2``).
    Stops next to each other, and gaps no such line joins, are left as they are: the engine
    then says what is wrong."""
    out: list[object] = list(stops[:1])
    at: StationNode | None = None  # the station the line so far ends at, when known
    for k in range(1, len(stops)):
        before, here = _split(stops[k - 1]), _split(stops[k])
        # Between two stations the line is searched for (even between hexes side by side: the
        # track may go round); a plain hex clicked is the next hex of the route as it is.
        starts = [] if before is None else (
            [at] if at is not None else _stations_in(graph, before[0], before[1][-1:]))
        goals = [] if here is None else _stations_in(graph, here[0], here[1][:1])
        line = _line_between(graph, train, starts, goals) if starts and goals else None
        if before is None or here is None or line is None:
            out.append(stops[k])
            at = None
            continue
        start = next(n for n in (line[0].a, line[0].b) if n in starts)
        end = next(n for n in (line[-1].b, line[-1].a) if n in goals)
        if out[-1] == stops[k - 1] and not before[1] and len(
                _stations_in(graph, before[0], ())) > 1:
            out[-1] = f"{before[0]}:{start[2]}"
        hexes: list[str] = []
        for t in line:
            if not hexes or hexes[-1] != t.hex:
                hexes.append(t.hex)
        out.extend(hexes[1:-1])  # the hexes between: the line's first and last are the stops'
        named = here[1] or ((str(end[2]),) if len(_stations_in(graph, here[0], ())) > 1 else ())
        out.append(f"{here[0]}:{','.join(named)}" if named else here[0])
        # The next line leaves from the last station named here (two towns: "H16:st1,st2").
        at = ("S", end[1], named[-1] if named else str(end[2]))
    return out


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
    out["hexes"] = hexes
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
    joined = [_joined(graph, by_name, item) for item in routes]
    drawn = [_route_so_far(graph, entity, by_name, item, f"routes[{i}]")
             for i, item in enumerate(joined)]
    try:
        option: Json | None = preview(game, viewer, {**action, "routes": joined})
        refusal = None
    except (InputError, RuleError) as exc:
        option, refusal = None, str(exc)
    return {"routes": drawn, "option": option, "refusal": refusal}


def _joined(graph: TrackGraph, by_name: dict[str, Train], item: object) -> object:
    """A route of the draft with the track between its stations filled in (join_stations)."""
    if not isinstance(item, dict) or not isinstance(item.get("hexes"), list):
        return item
    train = by_name.get(str(item.get("train")))
    if train is None:
        return item
    return {**item, "hexes": join_stations(graph, train, item["hexes"])}


__all__ = ["join_stations", "reach", "run_draft"]
