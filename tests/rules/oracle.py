"""An independent brute-force oracle for the optimal router, and small boards to test it on.

It shares no search code with :mod:`india1853.rules.router`: it walks every simple path of the
unreduced track graph, keeps the ones the literal rules checker accepts for a train, and tries
every assignment of those paths to the trains (and every mail choice), valuing each with
:func:`india1853.rules.routes.check_routes`.  Slow on purpose: only for small positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from india1853.board.graph import Node, TrackGraph
from india1853.board.state import Base, BoardState
from india1853.data.loader import load_edition
from india1853.errors import RuleError
from india1853.rules.routes import Route, Train, check_routes, resources


class TooManyPaths(Exception):
    """The graph has more simple paths than the caller's budget."""


def all_paths(graph: TrackGraph, gauge: str, max_paths: int | None = None
              ) -> list[tuple[tuple[Node, ...], tuple[int, ...]]]:
    """Every simple path of the track graph between two stations, once per direction pair."""
    found: list[tuple[tuple[Node, ...], tuple[int, ...]]] = []

    def walk(nodes: list[Node], tids: list[int]) -> None:
        here = nodes[-1]
        if len(nodes) > 1 and here[0] == "S":
            found.append((tuple(nodes), tuple(tids)))
            if max_paths is not None and len(found) > 2 * max_paths:
                raise TooManyPaths
        for t in graph.adjacent(here, gauge):  # type: ignore[arg-type]
            there = t.b if t.a == here else t.a
            if there not in nodes:
                nodes.append(there)
                tids.append(t.id)
                walk(nodes, tids)
                nodes.pop()
                tids.pop()

    for start in sorted(graph.stations):
        walk([start], [])
    # Keep one direction of each path.
    return [p for p in found if p[0] <= p[0][::-1]]


def legal_routes(graph: TrackGraph, company: str, train: Train,
                 max_paths: int | None = None) -> list[Route]:
    """Every path the literal checker accepts as a run of ``train``."""
    out: list[Route] = []
    for nodes, tids in all_paths(graph, train.gauge, max_paths):
        route = Route(train, nodes, tids)
        try:
            check_routes(graph, company, [train], [route])
        except RuleError:
            continue
        out.append(route)
    return out


@dataclass(frozen=True)
class OracleAnswer:
    total: int
    revenue: int
    mail: int
    routes: tuple[Route, ...]
    candidates: int


def oracle_best(graph: TrackGraph, company: str, trains: Sequence[Train],
                duties: Iterable[str] = (), max_paths: int | None = None
                ) -> OracleAnswer | None:
    """The best total over every assignment of legal paths to trains (each with or without
    the mail), or None when no assignment covers the duties."""
    duty_list = sorted(set(duties))
    per_train = {t: legal_routes(graph, company, t, max_paths) for t in set(trains)}
    used_of = {id(r): resources(r, {t.id: t for t in graph.tracks})
               for rs in per_train.values() for r in rs}
    best: OracleAnswer | None = None
    order = list(trains)

    def assign(i: int, chosen: list[Route], used: set[object]) -> None:
        nonlocal best
        if i == len(order):
            for mail_at in range(-1, len(chosen)):
                routes = [Route(r.train, r.nodes, r.tracks, k == mail_at)
                          for k, r in enumerate(chosen)]
                try:
                    run = check_routes(graph, company, trains, routes, duty_list)
                except RuleError:
                    continue
                if best is None or run.total > best.total:
                    best = OracleAnswer(run.total, run.revenue, run.mail, tuple(routes),
                                        sum(len(v) for v in per_train.values()))
            return
        assign(i + 1, chosen, used)
        for route in per_train[order[i]]:
            mine = used_of[id(route)]
            if mine & used:
                continue
            chosen.append(route)
            assign(i + 1, chosen, used | mine)
            chosen.pop()

    assign(0, [], set())
    return best


# ---------------------------------------------------------------------------------------------
# Boards for tests: tiles and bases laid directly (construction legality is not at issue here).


def board(edition: str, tiles: dict[str, tuple[str, int]],
          bases: Iterable[tuple[str, str, str | None]] = ()) -> BoardState:
    """A board of ``edition`` with the preprinted cities, these tiles (hex -> (tile,
    rotation)) and bases (company, hex, station id)."""
    state = BoardState.initial(load_edition(edition))
    for hex_, (tile, rotation) in tiles.items():
        state = state.with_tile(hex_, tile, rotation)
    for company, hex_, station in bases:
        state = state.with_base(Base(company, hex_, station))
    return state


def train(name: str, edition: str = "second") -> Train:
    return Train.named(load_edition(edition), name)
