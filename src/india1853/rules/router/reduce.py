"""Stage 1 of the router: the reduced graph of each train gauge (docs/routes.md).

Chains of tile edges with one track on each side collapse into a single *link* that
carries the set of resources it consumes (4.5.10 / 33.10); stations and junction edges
stay as nodes; a line that could only turn back into the same tile is a dead end
(4.5.5 / 33.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from india1853.rules.routes import (
    Node,
    RouteGraph,
    TrackLike,
    TrainGauge,
)

# ---------------------------------------------------------------------------------------------
# Stage 1: the reduced graph.


@dataclass(frozen=True, slots=True)
class Link:
    """A chain of track between two key nodes, in one direction.

    ``mask`` holds the resource bits it consumes; ``leave_hex``/``arrive_hex`` are the hexes of
    its first and last track (a line may not turn back into the tile it came from at a junction
    edge); ``duty`` the duty-hex bits of the hexes it crosses; ``hub`` the bits of the junction
    tiles it passes (4.2.5: one run passes each at most once, like a station).
    """

    id: int
    reverse: int
    chain: int
    start: int
    end: int
    mask: int
    leave_hex: str
    arrive_hex: str
    duty: int
    hub: int
    nodes: tuple[Node, ...]
    tracks: tuple[int, ...]


@dataclass(frozen=True)
class ReducedGraph:
    """Key nodes (stations and junction edges) of one gauge, joined by links.  ``hub_bits``
    is how many low bits of a run's city mask stand for junction tiles."""

    gauge: TrainGauge
    nodes: tuple[Node, ...]
    links: tuple[Link, ...]
    adjacency: tuple[tuple[Link, ...], ...]
    hub_bits: int = 0


class _Resources:
    """Bit numbers for everything a run can use up: tile edges and station-to-station track."""

    def __init__(self) -> None:
        self.bits: dict[object, int] = {}

    def bit(self, item: object) -> int:
        index = self.bits.get(item)
        if index is None:
            index = self.bits[item] = len(self.bits)
        return 1 << index


def _edge_role(tracks: Sequence[TrackLike]) -> str:
    """How a tile edge behaves for a line: ``pass`` (one track on each side), ``junction``
    (several, on both sides) or ``dead`` (a line arriving could only turn back, 4.5.5)."""
    hexes = {t.hex for t in tracks}
    if len(hexes) < 2:
        return "dead"
    return "pass" if len(tracks) == 2 else "junction"


def reduce_graph(graph: RouteGraph, gauge: TrainGauge, resources: _Resources,
                 duty_bits: dict[str, int], hub_bits: dict[str, int],
                 sources: Sequence[Node] | None = None) -> ReducedGraph:
    """Stage 1 for one gauge (4.5.3 / 33.3: the train's gauge or dual).  ``hub_bits``: a bit
    per junction tile (:func:`india1853.rules.routes.junction_hexes`, 4.2.5).  ``sources``
    (None: the whole board): only the track joined to these nodes (a company's bases, 4.5.2:
    every run includes one) is reduced, a fifth of the board on average in a game; its key
    nodes and links come in the same relative order as in the whole board's reduction (only
    the ids and resource bits are numbered among fewer).

    Each chain is walked once, from the first of its two key nodes in order; its reverse
    (the same chain from its other end) is kept until that end's turn comes, so that the
    links, their ids and the resource bits come out in the same order as if every chain were
    walked from both ends."""
    incident: dict[Node, list[TrackLike]] = {}
    # By id (a graph's tracks already are: the sort only checks), so that each node's
    # tracks are in the order its chains are walked.
    in_order = (sorted(graph.tracks, key=_track_id) if sources is None
                else _joined_tracks(graph, gauge, sources))
    for t in in_order:
        if (t.gauge == gauge or t.gauge == "dual") and t.a != t.b:
            found = incident.get(t.a)
            if found is None:
                incident[t.a] = [t]
            else:
                found.append(t)
            found = incident.get(t.b)
            if found is None:
                incident[t.b] = [t]
            else:
                found.append(t)
    roles: dict[Node, str] = {}
    for n, ts in incident.items():
        if n[0] == "E":
            if len(ts) == 2:  # (_edge_role, inline: most edges have one track each side)
                roles[n] = "pass" if ts[0].hex != ts[1].hex else "dead"
            else:
                roles[n] = _edge_role(ts)
    keys = sorted(n for n in incident if n[0] == "S" or roles[n] == "junction")
    index = {n: i for i, n in enumerate(keys)}
    bits = resources.bits
    # Per (key node, first track id): the chain walked from its other end, reversed, with
    # its resource bits but its end's, its duty and junction bits, and its forward link.
    reverses: dict[tuple[Node, int], tuple[tuple[Node, ...], tuple[TrackLike, ...], int, int,
                                           int, int]] = {}
    raw: list[tuple[int, int, int, str, str, int, int, tuple[Node, ...], tuple[int, ...]]] = []
    reverse_of: list[int] = []
    for start in keys:
        for first in incident[start]:
            kept = reverses.pop((start, first.id), None)
            if kept is not None:
                nodes, tracks, core, duty, hub, forward = kept
                reverse_of[forward] = len(raw)
                reverse_of.append(forward)
            else:
                walked = _walk_chain(start, first, incident, roles, index)
                if walked is None:
                    continue
                nodes, tracks = walked
                if nodes[-1] == start:
                    continue
                core = 0
                for n in nodes[1:-1]:
                    bit = bits.get(n)
                    if bit is None:
                        bit = bits[n] = len(bits)
                    core |= 1 << bit
                if len(tracks) == 1 and start[0] == "S" and nodes[1][0] == "S":
                    core |= resources.bit(("T", first.id))
                duty = 0
                if duty_bits:
                    for tr in tracks:
                        duty |= duty_bits.get(tr.hex, 0)
                hub = _hubs_passed(tracks, hub_bits) if hub_bits else 0
                if hub < 0:
                    if nodes[-1][0] == "E":
                        resources.bit(nodes[-1])  # (its bit taken all the same, as ever)
                    continue  # 4.2.5: a junction tile passed twice (so from either end)
                reverses[nodes[-1], tracks[-1].id] = (nodes[::-1], tracks[::-1], core, duty,
                                                       hub, len(raw))
                reverse_of.append(-1)
            end = nodes[-1]
            mask = core | resources.bit(end) if end[0] == "E" else core
            raw.append((index[start], index[end], mask, tracks[0].hex, tracks[-1].hex, duty,
                        hub, nodes, tuple(tr.id for tr in tracks)))
    links = [Link(i, reverse_of[i], min(tids), s, e, mask, lh, ah, duty, hub, nodes, tids)
             for i, (s, e, mask, lh, ah, duty, hub, nodes, tids) in enumerate(raw)]
    adjacency: list[list[Link]] = [[] for _ in keys]
    for link in links:
        adjacency[link.start].append(link)
    return ReducedGraph(gauge, tuple(keys), tuple(links), tuple(tuple(a) for a in adjacency),
                        len(hub_bits))


def _track_id(track: TrackLike) -> int:
    return track.id


def _joined_tracks(graph: RouteGraph, gauge: TrainGauge, sources: Sequence[Node]
                   ) -> list[TrackLike]:
    """Every track of ``gauge`` (or dual) joined to ``sources`` by such track, by id."""
    seen = set(sources)
    stack = list(seen)
    found: dict[int, TrackLike] = {}
    while stack:
        node = stack.pop()
        for t in graph.adjacent(node, gauge):
            found[t.id] = t
            there = t.b if t.a == node else t.a
            if there not in seen:
                seen.add(there)
                stack.append(there)
    return [found[i] for i in sorted(found)]


def _hubs_passed(tracks: Sequence[TrackLike], hub_bits: dict[str, int]) -> int:
    """The bits of the junction tiles a chain of track passes, or -1 if it passes one twice
    (4.2.5 with 4.5.5: a junction is run through once, like a station)."""
    hub = 0
    previous = ""
    for tr in tracks:
        bit = hub_bits.get(tr.hex, 0)
        if bit and tr.hex != previous:
            if hub & bit:
                return -1
            hub |= bit
        previous = tr.hex
    return hub


def _walk_chain(start: Node, first: TrackLike, incident: dict[Node, list[TrackLike]],
                roles: dict[Node, str], index: dict[Node, int],
                ) -> tuple[tuple[Node, ...], tuple[TrackLike, ...]] | None:
    """The chain from key node ``start`` along ``first`` through tile edges with one track on
    each side, to the next key node; None if it ends at a dead end (or ever came back to a
    node it passed)."""
    nodes: list[Node] = [start]
    tracks: list[TrackLike] = []
    track = first
    here = start
    while True:
        there = track.b if track.a == here else track.a
        nodes.append(there)
        tracks.append(track)
        if there in index:
            return tuple(nodes), tuple(tracks)
        if roles.get(there) != "pass" or there in nodes[:-1]:
            return None
        one, two = incident[there]
        track = two if one is track else one
        here = there
