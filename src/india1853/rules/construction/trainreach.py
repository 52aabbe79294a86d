"""Where a company's trains can run: the Phase 5 relaxation of rules 4.2.3 and 4.4.2.

"Companies owning at least one '5' train or '6' train may now promote any tile [place any
station] which they can reach from a home base using one of their Trains."  A hex is reached
when some legal run (rules 4.5; :func:`india1853.rules.routes.check_routes`) of ONE of the
company's trains uses a piece of its track; a station is reached when such a run visits it.
"From a home base" is read as from any base of the company (docs/rulings.md).

Why the search may start at a base and stop at the first station after the target: cutting a
legal run at one of its bases (for a '1M', at its Large Station, which holds the base) and
keeping the half with the target, up to the first station after the target, leaves a legal
run: it starts and ends at stations, has no more Large Stations, passes only stations the
whole run passed, and repeats nothing.  So the target is reached exactly when such a
"half-run" exists.

The method, exact and without caps:

1. A relaxation shared by all targets: the cheapest walk (fewest Large Stations) from the
   company's bases to every (node, track arrived by) state, never turning back along the same
   track or into the same tile at an edge, never passing a blocked station (4.5.6), but free
   to repeat nodes.  A target whose cheapest walk exceeds the trains' Large-Station limit is
   unreachable (every run is such a walk).
2. Otherwise the cheapest walk itself, when it is a legal run, is the witness.
3. Otherwise a depth-first search from each base over simple paths, pruned by the same
   relaxation on the part of the board the path has not used yet (best-first: the cheapest
   continuation is tried first); exhaustive failure means unreachable.

Every witness is checked by the literal checker :func:`check_routes`, so a fault in the search
can refuse a reachable target but never accept an unreachable one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from india1853.board.graph import Node, StationNode, Track, TrackGraph
from india1853.errors import RuleError
from india1853.rules.routes import Route, Train, TrainGauge, check_routes

# A search state: the node reached and the id of the track that reached it (-1 at a base).
State = tuple[Node, int]
# What a run must include: ("hex", coord) uses a track of the hex; ("station", node) visits it.
Target = tuple[str, object]
# One step of the exhaustive search: the track, the node it leads to, the Large Stations on the
# path so far, and whether the path already includes the target.
_Step = tuple[Track, Node, int, bool]

_NO_TRACK = -1


@dataclass(frozen=True)
class _Mode:
    """One way the company's trains can run: a gauge, the most Large Stations a run may
    include, and whether the run must start at a Large Station holding a base ('1M' trains
    only, 4.8.18 b)."""

    train: Train
    gauge: TrainGauge
    limit: int
    large_start: bool


def running_modes(trains: Sequence[Train]) -> tuple[_Mode, ...]:
    """Per gauge, the train whose runs include every other's (4.5.4 / 33.4: an 'N' train's
    legal runs are legal for any longer train of its gauge; a '1M' run is legal for any
    metre train)."""
    out: list[_Mode] = []
    for gauge in ("broad", "metre"):
        mine = [t for t in trains if t.gauge == gauge]
        regular = [t for t in mine if not t.one_m]
        if regular:
            best = max(regular, key=lambda t: (t.large, t.name))
            out.append(_Mode(best, best.gauge, best.large, False))
        elif mine:
            out.append(_Mode(mine[0], mine[0].gauge, 1, True))
    return tuple(out)


@dataclass
class _Search:
    """Reach of one running mode on one board, for one company."""

    graph: TrackGraph
    company: str
    mode: _Mode
    tracks: dict[int, Track]
    _cost: dict[State, int] = field(default_factory=dict)
    _parent: dict[State, tuple[State, Track] | None] = field(default_factory=dict)
    _sources: tuple[StationNode, ...] = ()
    _at: dict[Node, list[State]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        bases = sorted(self.graph.base_nodes(self.company))
        if self.mode.large_start:
            bases = [b for b in bases if self._large(b)]
        self._sources = tuple(bases)
        self._relax()

    def _large(self, node: Node) -> int:
        if node[0] != "S":
            return 0
        info = self.graph.stations.get(node)
        return 1 if info is not None and info.kind == "large" else 0

    def moves(self, state: State) -> Iterable[tuple[Track, Node]]:
        """Steps a run may take from ``state``: never back along its track, never from one
        track of a tile into another at an edge (reversing, 4.5.5), never on past a station
        that other companies' bases fill (4.5.6)."""
        node, came = state
        if node[0] == "S" and came != _NO_TRACK and self.graph.blocked_for(node, self.company):
            return
        came_hex = self.tracks[came].hex if came != _NO_TRACK else None
        for t in self.graph.adjacent(node, self.mode.gauge):
            if t.id == came or (node[0] == "E" and t.hex == came_hex):
                continue
            yield t, t.other(node)

    def _relax(self) -> None:
        """Step 1: cheapest walks from the bases (0-1 breadth-first search)."""
        queue: deque[State] = deque()
        for b in self._sources:
            start: State = (b, _NO_TRACK)
            self._cost[start] = self._large(b)
            self._parent[start] = None
            queue.append(start)
        done: set[State] = set()
        while queue:
            state = queue.popleft()
            if state in done:
                continue
            done.add(state)
            base = self._cost[state]
            for t, w in self.moves(state):
                nxt: State = (w, t.id)
                step = self._large(w)
                cost = base + step
                if cost > self.mode.limit or cost >= self._cost.get(nxt, cost + 1):
                    continue
                self._cost[nxt] = cost
                self._parent[nxt] = (state, t)
                if step:
                    queue.append(nxt)
                else:
                    queue.appendleft(nxt)
        for state in self._cost:
            self._at.setdefault(state[0], []).append(state)

    def _walk_to(self, state: State) -> list[tuple[Track, Node]]:
        steps: list[tuple[Track, Node]] = []
        link = self._parent[state]
        while link is not None:
            prev, t = link
            steps.append((t, state[0]))
            state = prev
            link = self._parent[state]
        steps.reverse()
        return steps

    def _start_of(self, state: State) -> Node:
        while True:
            link = self._parent[state]
            if link is None:
                return state[0]
            state = link[0]

    def _to_station(self, state: State, budget: int) -> list[tuple[Track, Node]] | None:
        """The cheapest continuation from ``state`` (not at a station) to the first station,
        within ``budget`` Large Stations, or None."""
        queue: deque[tuple[State, int]] = deque([(state, 0)])
        parent: dict[State, tuple[State, Track] | None] = {state: None}
        best: tuple[int, State] | None = None
        while queue:
            here, cost = queue.popleft()
            if best is not None and cost >= best[0]:
                break
            for t, w in self.moves(here):
                nxt: State = (w, t.id)
                if nxt in parent:
                    continue
                parent[nxt] = (here, t)
                if w[0] == "S":
                    c = cost + self._large(w)
                    if c <= budget and (best is None or c < best[0]):
                        best = (c, nxt)
                else:
                    queue.append((nxt, cost))
        if best is None:
            return None
        steps: list[tuple[Track, Node]] = []
        at = best[1]
        link = parent[at]
        while link is not None:
            steps.append((link[1], at[0]))
            at = link[0]
            link = parent[at]
        steps.reverse()
        return steps

    # --- witnesses ---------------------------------------------------------------------------

    def _entries(self, target: Target) -> Iterable[tuple[Track, Node, Node]]:
        """The steps (track, from, to) that include ``target`` in a run."""
        if target[0] == "hex":
            for t in self.graph.tracks_in(str(target[1])):
                if t.gauge in (self.mode.gauge, "dual"):
                    yield t, t.a, t.b
                    yield t, t.b, t.a
            return
        node = target[1]
        if isinstance(node, tuple) and node in self.graph.stations:
            station: StationNode = node
            for t in self.graph.adjacent(station, self.mode.gauge):
                yield t, t.other(station), station

    def _allows(self, state: State, t: Track) -> bool:
        return any(s is t for s, _ in self.moves(state))

    def _hits(self, target: Target, t: Track, w: Node) -> bool:
        return t.hex == target[1] if target[0] == "hex" else w == target[1]

    def witness(self, target: Target, shortcut: bool = True) -> Route | None:
        """A legal run of the mode's train including ``target``, or None if there is none.
        ``shortcut=False`` skips step 2 (the tests check step 3 on its own)."""
        if target[0] == "station" and target[1] in self._sources:
            # One of the bases it starts from: any half-run from it will do.
            return _Path(self, target, self._sources[self._sources.index(target[1])]).search(
                touched=True)
        candidates: list[tuple[int, State, Track, Node]] = []
        for t, u, w in self._entries(target):
            for state in self._at.get(u, ()):
                if self._allows(state, t):
                    candidates.append((self._cost[state] + self._large(w), state, t, w))
        candidates.sort(key=lambda c: (c[0], c[2].id))
        if not candidates or candidates[0][0] > self.mode.limit:
            return None
        for cost, state, t, w in candidates if shortcut else ():
            if cost > self.mode.limit:
                break
            steps = [*self._walk_to(state), (t, w)]
            if w[0] != "S":
                rest = self._to_station((w, t.id), self.mode.limit - cost)
                if rest is None:
                    continue
                steps += rest
            route = self._route(self._start_of(state), steps)
            if route is not None:
                return route
        return self._exhaustive(target)

    def _route(self, start: Node, steps: Sequence[tuple[Track, Node]]) -> Route | None:
        route = Route(self.mode.train, (start, *(n for _, n in steps)),
                      tuple(t.id for t, _ in steps))
        try:
            check_routes(self.graph, self.company, [self.mode.train], [route])
        except RuleError:
            return None
        return route

    def _exhaustive(self, target: Target) -> Route | None:
        """Step 3: depth-first search over simple half-runs from each base."""
        for b in self._sources:
            found = _Path(self, target, b).search()
            if found is not None:
                return found
        return None


class _Path:
    """The depth-first search of one base: a simple path grown one track at a time."""

    def __init__(self, search: _Search, target: Target, start: StationNode) -> None:
        self.s = search
        self.target = target
        self.start = start
        self.nodes: list[Node] = [start]
        self.steps: list[tuple[Track, Node]] = []
        self.visited: set[Node] = {start}
        self.cities: set[str] = {search.graph.stations[start].city}

    def _city(self, node: Node) -> str | None:
        if node[0] != "S":
            return None
        return self.s.graph.stations[node].city

    def _bound(self, state: State, large: int, touched: bool) -> int | None:
        """Fewest further Large Stations to a finished half-run from ``state`` on the track
        the path has not used (repeats within the continuation allowed), or None."""
        limit = self.s.mode.limit - large
        queue: deque[tuple[State, bool, int]] = deque([(state, touched, 0)])
        seen: set[tuple[State, bool]] = {(state, touched)}
        while queue:
            here, hit, cost = queue.popleft()
            for t, w in self.s.moves(here):
                if w in self.visited:
                    continue
                city = self._city(w)
                if city is not None and city in self.cities:
                    continue
                c = cost + self.s._large(w)
                if c > limit:
                    continue
                now = hit or self.s._hits(self.target, t, w)
                if now and w[0] == "S":
                    return c
                key = ((w, t.id), now)
                if key in seen:
                    continue
                seen.add(key)
                if c > cost:
                    queue.append(((w, t.id), now, c))
                else:
                    queue.appendleft(((w, t.id), now, c))
        return None

    def search(self, touched: bool = False) -> Route | None:
        """Depth first, with an explicit stack (a path may be longer than Python's recursion
        limit allows on a full board): each frame holds the steps still to try from the
        path's last node, cheapest continuation first."""
        large = self.s._large(self.start)
        start: State = (self.start, _NO_TRACK)
        if self._bound(start, large, touched) is None:
            return None
        found, options = self._options(start, large, touched)
        stack: list[Iterator[_Step]] = [iter(options)]
        while found is None and stack:
            step = next(stack[-1], None)
            if step is None:
                if len(stack) > 1:  # every frame but the first entered a node
                    self._pop()
                stack.pop()
                continue
            t, w, cost, hit = step
            self._push(t, w)
            found, options = self._options((w, t.id), cost, hit)
            stack.append(iter(options))
        return found

    def _options(self, state: State, large: int, touched: bool
                 ) -> tuple[Route | None, list[_Step]]:
        """A finished half-run one step from ``state``, else the steps worth trying, ordered
        by the fewest Large Stations a finished half-run through them could have."""
        options: list[tuple[int, int, _Step]] = []
        for t, w in self.s.moves(state):
            if w in self.visited:
                continue
            city = self._city(w)
            if city is not None and city in self.cities:
                continue
            cost = large + self.s._large(w)
            if cost > self.s.mode.limit:
                continue
            hit = touched or self.s._hits(self.target, t, w)
            if hit and w[0] == "S":
                route = self.s._route(self.start, [*self.steps, (t, w)])
                if route is not None:
                    return route, []
                continue
            self._push(t, w)
            bound = self._bound((w, t.id), cost, hit)
            self._pop()
            if bound is not None:
                options.append((cost + bound, t.id, (t, w, cost, hit)))
        options.sort(key=lambda o: (o[0], o[1]))
        return None, [o[2] for o in options]

    def _push(self, t: Track, w: Node) -> None:
        self.steps.append((t, w))
        self.visited.add(w)
        city = self._city(w)
        if city is not None:
            self.cities.add(city)

    def _pop(self) -> None:
        _, w = self.steps.pop()
        self.visited.discard(w)
        city = self._city(w)
        if city is not None:
            self.cities.discard(city)


class TrainReach:
    """The hexes and stations some legal run of one of the company's trains includes
    (rules 4.2.3, 4.4.2), worked out target by target and remembered."""

    def __init__(self, graph: TrackGraph, company: str, trains: Sequence[Train], *,
                 shortcut: bool = True) -> None:
        self._shortcut = shortcut
        self._graph = graph
        self._company = company
        self._modes = running_modes(trains)
        self._searches: list[_Search] | None = None
        self._known: dict[Target, bool] = {}

    def _all(self) -> list[_Search]:
        if self._searches is None:
            tracks = {t.id: t for t in self._graph.tracks}
            self._searches = [_Search(self._graph, self._company, m, tracks)
                              for m in self._modes]
        return self._searches

    def witness(self, target: Target) -> Route | None:
        for search in self._all():
            route = search.witness(target, self._shortcut)
            if route is not None:
                return route
        return None

    def _reached(self, target: Target) -> bool:
        if target not in self._known:
            route = self.witness(target)
            self._known[target] = route is not None
            if route is not None:
                # Everything on a witness is reached too: later targets are answered at once.
                for tid in route.tracks:
                    self._known[("hex", self._tracks_hex(tid))] = True
                for node in route.stations:
                    self._known[("station", node)] = True
        return self._known[target]

    def _tracks_hex(self, tid: int) -> str:
        return self._graph.tracks[tid].hex

    def hex(self, coord: str) -> bool:
        """Whether a run of one of the trains uses a piece of track on ``coord``."""
        return self._reached(("hex", coord))

    def station(self, node: StationNode) -> bool:
        """Whether a run of one of the trains visits the station ``node``."""
        return self._reached(("station", node))
