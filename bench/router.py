"""Router benchmark: the optimal router on the fixed positions in ``bench/positions/``.

``run()`` (called by ``python -m bench``) reports per position what the network holds, the
graph build time (cold: first build of the position in this process; warm: median and p95 of
repeats, each on a freshly loaded board), the search time (``best_run``, the whole call, cold
and warm, wall clock and process CPU time), candidate runs, search nodes, the total and its
certificate, and three cross-checks: every warm repeat returns the same route set (not just
the same total), a complete listing (``first_threshold=0``) gives the same total, and the
brute-force oracle (``tests/rules/oracle.py``) gives the same total, or the row says why the
oracle did not finish.

``python -m bench.router --generate`` rewrites the position files from :data:`SPECS`: networks
grown tile by tile on the real map from the companies' homes, each tile fitting its hex, its
neighbours and the manifest, then promoted as far as the era allows.

``python -m bench.router --stress [--oracle]`` times the router beyond the fixed suite: the
dense specs of :data:`STRESS_SPECS` grown again from the seeds :data:`STRESS_SEEDS`, in memory
(nothing is written to ``bench/positions/``), with the certificate checked and the same route
set required on every repeat; ``--oracle`` also compares each total with the brute-force
oracle (minutes).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from india1853.board.graph import TrackGraph, edge_node, reach
from india1853.board.hexes import distance, neighbour, opposite
from india1853.board.state import Base, BoardState
from india1853.board.tiles import fitting_rotations, map_paths, promotion_rotations
from india1853.data.loader import load_edition
from india1853.data.model import Edition
from india1853.rules.position import (
    CompanyEntry,
    Position,
    load_position,
    position_to_dict,
    runnable_trains,
)
from india1853.rules.router import BestRun, best_run
from india1853.rules.router.arms import _eligible, enumerate_runs
from india1853.rules.router.reduce import _Resources, reduce_graph
from india1853.rules.routes import Train, junction_hexes, route_to_json

HERE = Path(__file__).parent
POSITIONS = HERE / "positions"
WARM_REPEATS = 15
# The oracle gives up (and the row says so) beyond this many candidate paths or this many
# steps of its assignment search; every position of the suite finishes well within both.
ORACLE_PATH_BUDGET = 2_000_000
ORACLE_STEP_BUDGET = 20_000_000
# The target: warm search p95 under this many milliseconds of CPU time on late positions.
TARGET_MS = 50.0
# Stress beyond the fixed suite: these specs grown from other seeds, each timed this often.
STRESS_SPECS = ("dense-bnr-6-6", "dense-eir-5-6", "dense-nwr-5-4m", "dense-eir-6-6",
                "late-brown-dense-eir-4-4-3m", "mid-dense-eir-3-3-2-2m")
STRESS_SEEDS = range(100, 106)
STRESS_REPEATS = 7


@dataclass(frozen=True)
class Spec:
    """One benchmark position: which company runs, its trains, how big its network is."""

    name: str
    era: str
    company: str
    trains: tuple[str, ...]
    tiles: int
    seed: int
    edition: str = "second"
    metre_share: float = 0.0
    others: tuple[str, ...] = ()  # companies whose bases share (and may block) the network
    extra_bases: int = 0
    promote_share: float = 0.0
    notes: str = ""
    # Dense late-game networks: ``turns`` rounds of laying then promoting, growing from open
    # ends nearest ``centre`` (a hex; None: anywhere) so that most of the map is built out.
    turns: int = 0
    centre: str | None = None
    # The phase (TABLE 6; None: the era's, see :func:`_phase`); it decides the tile colours
    # and which trains, and how many, the company may hold.
    phase: int | None = None
    prefer_towns: bool = False  # lay on town hexes first (a town-dense network)


SPECS: tuple[Spec, ...] = (
    # Early (the first phase with trains: yellow tiles; '2' and, for minors, '1M').
    Spec("early-eir-2", "early", "EIR", ("2",), 8, 1, notes="first runs from Calcutta"),
    Spec("early-gip-2-2", "early", "GIP", ("2", "2"), 10, 2),
    Spec("early-nwr-2", "early", "NWR", ("2",), 9, 3, notes="Delhi's separate stations"),
    Spec("early-msm-2-1m", "early", "MSM", ("2", "1M"), 16, 4, metre_share=0.6,
         extra_bases=1, prefer_towns=True, notes="minor: '1M' on metre, '2' on broad"),
    Spec("early-first-eir-2-2", "early", "EIR", ("2", "2"), 10, 5, edition="first"),
    Spec("early-edge-no-run-ecr-2", "early", "ECR", ("2",), 8, 4, metre_share=1.0,
         notes="edge case on purpose: a broad '2' on a metre-only network has no legal run"),
    # Mid (green tiles; up to four trains of '2', '3', '2M', '1M').
    Spec("mid-eir-3-3", "mid", "EIR", ("3", "3"), 22, 6, others=("BNR",), extra_bases=1,
         promote_share=0.3),
    Spec("mid-gip-3-2m", "mid", "GIP", ("3", "2M"), 24, 12, metre_share=0.35,
         promote_share=0.3, notes="mixed gauge"),
    Spec("mid-bnr-3-3-2m", "mid", "BNR", ("3", "3", "2M"), 26, 8, metre_share=0.3,
         others=("EIR",), promote_share=0.3, notes="dual track shared"),
    Spec("mid-nwr-3-2", "mid", "NWR", ("3", "2"), 26, 9, others=("BBCI",), extra_bases=2,
         promote_share=0.4, notes="several bases"),
    Spec("mid-msm-2m-1m", "mid", "MSM", ("2M", "1M"), 40, 12, metre_share=0.8,
         promote_share=0.3, extra_bases=2, turns=3, prefer_towns=True,
         notes="minor, metre: '1M' beside a '2M'"),
    Spec("mid-town-dense-eir-3-3", "mid", "EIR", ("3", "3"), 70, 14, promote_share=0.3,
         extra_bases=3, turns=4, prefer_towns=True,
         notes="town-dense: towns laid first, near Calcutta and Patna"),
    Spec("mid-first-gip-3-2m", "mid", "GIP", ("3", "2M"), 24, 13, edition="first",
         metre_share=0.4, promote_share=0.4, notes="first edition, mixed gauge"),
    Spec("mid-eir-3-3-2-2m", "mid", "EIR", ("3", "3", "2", "2M"), 34, 13, metre_share=0.3,
         others=("BNR",), extra_bases=2, promote_share=0.4,
         notes="four trains (the phase's limit), mixed gauge"),
    Spec("mid-dense-eir-3-3-2-2m", "mid", "EIR", ("3", "3", "2", "2M"), 110, 14,
         metre_share=0.3, others=("BNR", "GIP", "NWR"), extra_bases=3, promote_share=0.8,
         turns=6, notes="dense green network, junctions, four trains"),
    # Late, brown (three trains of '3', '4', '2M', '3M').
    Spec("late-brown-eir-4-3-3", "late", "EIR", ("4", "3", "3"), 45, 15, others=("BNR", "NWR"),
         extra_bases=2, promote_share=0.5, phase=4, notes="three trains, several bases"),
    Spec("late-brown-gip-4-3m-3", "late", "GIP", ("4", "3M", "3"), 45, 16, metre_share=0.35,
         others=("BBCI",), extra_bases=2, promote_share=0.5, phase=4,
         notes="mixed gauge, three trains"),
    Spec("late-brown-ecr-3m-3m-4", "late", "ECR", ("3M", "3M", "4"), 45, 17, metre_share=0.5,
         extra_bases=1, promote_share=0.5, phase=4, notes="dual track shared"),
    Spec("late-brown-first-gip-4-3m-3", "late", "GIP", ("4", "3M", "3"), 50, 18,
         edition="first", metre_share=0.35, others=("BBCI",), extra_bases=2,
         promote_share=0.6, phase=3, notes="first edition, mixed gauge"),
    Spec("late-brown-dense-eir-4-4-3m", "late", "EIR", ("4", "4", "3M"), 130, 19,
         metre_share=0.3, others=("BNR", "GIP", "NWR"), extra_bases=3, promote_share=0.8,
         turns=7, phase=4, notes="dense brown network, three trains"),
    # Late, grey (the last phase: two trains of '4', '5', '6', '3M', '4M').
    Spec("late-eir-6-5", "late", "EIR", ("6", "5"), 45, 20, others=("BNR", "NWR"),
         extra_bases=2, promote_share=0.5, notes="several bases"),
    Spec("late-gip-5-4m", "late", "GIP", ("5", "4M"), 45, 21, metre_share=0.35,
         others=("BBCI",), extra_bases=2, promote_share=0.5, notes="mixed gauge"),
    Spec("late-bnr-6-6", "late", "BNR", ("6", "6"), 50, 22, others=("EIR", "ECR"),
         extra_bases=2, promote_share=0.6, notes="blocked cities"),
    Spec("late-msm-6-4m", "late", "MSM", ("6", "4M"), 45, 23, metre_share=0.4,
         others=("SIR",), extra_bases=2, promote_share=0.5, notes="mixed gauge"),
    Spec("late-first-eir-6-5", "late", "EIR", ("6", "5"), 50, 24, edition="first",
         others=("GIP",), extra_bases=2, promote_share=0.6),
    Spec("late-ties-bnr-5-5", "late", "BNR", ("5", "5"), 40, 41, promote_share=0.8,
         notes="ties: many equal-value runs"),
    # Dense late game: most of the map built, many green/brown/grey tiles and junctions,
    # several companies with 3-5 bases each.
    Spec("dense-eir-5-6", "late", "EIR", ("5", "6"), 130, 31, others=("BNR", "NWR", "GIP"),
         extra_bases=3, promote_share=0.7, turns=6, centre="H22",
         notes="dense: Ganges valley"),
    Spec("dense-gip-5-4m", "late", "GIP", ("5", "4M"), 130, 32, metre_share=0.35,
         others=("BBCI", "NWR", "BNR"), extra_bases=3, promote_share=0.7, turns=6,
         centre="K15", notes="dense: mixed gauge, centre"),
    Spec("dense-bnr-6-6", "late", "BNR", ("6", "6"), 140, 33, metre_share=0.2,
         others=("EIR", "ECR", "GIP"), extra_bases=3, promote_share=0.8, turns=7,
         centre="K21", notes="dense: blocked cities"),
    Spec("dense-msm-3m-4m", "late", "MSM", ("3M", "4M"), 120, 34, metre_share=0.7,
         others=("SIR", "ECR", "GIP"), extra_bases=3, promote_share=0.7, turns=6,
         centre="Q15", notes="dense: metre south"),
    Spec("dense-nwr-5-4m", "late", "NWR", ("5", "4M"), 130, 35, metre_share=0.3,
         others=("GIP", "BBCI", "EIR"), extra_bases=3, promote_share=0.7, turns=6,
         centre="F12", notes="dense: north-west"),
    Spec("dense-eir-6-6", "late", "EIR", ("6", "6"), 150, 36, metre_share=0.3,
         others=("BNR", "GIP", "NWR"), extra_bases=3, promote_share=0.8, turns=8,
         notes="dense: whole map"),
    Spec("dense-first-eir-6-6", "late", "EIR", ("6", "6"), 120, 37, edition="first",
         others=("BNR", "NWR", "GIP"), extra_bases=3, promote_share=0.8, turns=6,
         centre="H22", notes="dense: first edition, Ganges valley"),
    Spec("dense-first-gip-5-4m", "late", "GIP", ("5", "4M"), 120, 38, edition="first",
         metre_share=0.35, others=("BBCI", "NWR", "MSM"), extra_bases=3, promote_share=0.8,
         turns=6, centre="L14", notes="dense: first edition, mixed gauge"),
)


# ---------------------------------------------------------------------------------------------
# Generating positions.


def _station_tiles(ed: Any, kind: str) -> list[str]:
    out = []
    for tid, spec in sorted(ed.tiles.items()):
        if spec.preprinted or tid not in ed.manifest:
            continue
        small = sum(1 for s in spec.stations if s.kind == "small")
        large = sum(1 for s in spec.stations if s.kind == "large")
        # 4.1.9 / 31.7: a town takes a small station; a large one only by promotion.
        ok = {"plain": small == large == 0, "town": (small, large) == (1, 0),
              "double_town": (small, large) == (2, 0), "city": (small, large) == (0, 1)}
        if ok.get(kind, False):
            out.append(tid)
    return out


def _open_ends(state: BoardState) -> list[tuple[str, int, str]]:
    """(hex, side, gauge) of track running to an empty playable neighbour."""
    out = []
    board = state.edition.board
    for coord, tile, rotation in state.tiles_on_board():
        for path in map_paths(tile, rotation):
            for end in (path.a, path.b):
                if isinstance(end, int):
                    n = neighbour(coord, end)
                    if n and board.playable(n) and n not in state.tiles:
                        out.append((coord, end, path.gauge))
    return sorted(set(out))


def _gauge_at(tile: Any, rotation: int, side: int) -> set[str]:
    return {p.gauge for p in map_paths(tile, rotation) if side in (p.a, p.b)}


def _phase(ed: Edition, spec: Spec) -> int:
    """The spec's phase, or its era's: early, the first phase with trains; mid, the first
    with green tiles; late, the last (TABLE 6)."""
    if spec.phase is not None:
        return spec.phase
    if spec.era == "early":
        return min(p.number for p in ed.phases if p.trains_available)
    if spec.era == "mid":
        return min(p.number for p in ed.phases if "green" in p.tiles)
    return max(p.number for p in ed.phases)


def _check_trains(ed: Edition, spec: Spec, phase: int) -> None:
    """A company holds only trains on sale by ``phase`` and not yet obsolete, no more than
    the phase's train limit (TABLE 5, TABLE 6, 4.8), and a '1M' only if it is a minor."""
    held: set[str] = set()
    gone: set[str] = set()
    for p in ed.phases:
        if p.number <= phase:
            held.update(p.trains_available)
            gone.update(p.trains_obsolete)
    bad = sorted(set(spec.trains) - (held - gone))
    limit = ed.phase(phase).train_limit
    if bad:
        raise ValueError(f"{spec.name}: no company holds {bad} in phase {phase}")
    if limit is not None and len(spec.trains) > limit:
        raise ValueError(f"{spec.name}: {len(spec.trains)} trains, phase {phase} allows {limit}")
    company = ed.company(spec.company)
    for name in spec.trains:
        if ed.trains.get(name).buyers == "minor" and company.type == "major":
            raise ValueError(f"{spec.name}: only minors buy a {name!r}")


def _grow(state: BoardState, spec: Spec, rng: random.Random) -> BoardState:
    allowed = state.edition.phase(_phase(state.edition, spec)).tiles
    if spec.turns:
        # Dense: lay and promote in turns, as a long game does; promotions return tiles to
        # the supply (4.2.10), so later turns can lay more.
        per_turn = -(-spec.tiles // spec.turns)
        for _ in range(spec.turns):
            state = _lay_tiles(state, spec, rng, per_turn)
            state = _promote(state, spec, rng, allowed, rounds=1)
        return state
    state = _lay_tiles(state, spec, rng, spec.tiles)
    if len(allowed) > 1:
        state = _promote(state, spec, rng, allowed)
    return state


def _lay_tiles(state: BoardState, spec: Spec, rng: random.Random, count: int) -> BoardState:
    ed = state.edition
    placed = 0
    attempts = 0
    # Grow mostly near the running company's homes (or the spec's centre), as its builds would.
    homes = [spec.centre] if spec.centre else [
        h.hex for h in ed.company(spec.company).homes if h.condition is None]
    while placed < count and attempts < count * 40:
        attempts += 1
        ends = _open_ends(state)
        if not spec.turns:
            # A company extends its own network: from the ends of track its lines reach,
            # while there are any.
            graph = TrackGraph.build(state)
            lines = [reach(graph, spec.company, g) for g in ("broad", "metre")]
            ends = [e for e in ends if any(e[0] in r.arrivals.get(edge_node(e[0], e[1]), ())
                                           for r in lines)] or ends
        if not ends:
            break
        if spec.turns and not spec.centre and not spec.prefer_towns:
            coord, side, gauge = rng.choice(ends)
        else:
            def town_first(end: tuple[str, int, str]) -> tuple[bool, int]:
                target = neighbour(end[0], end[1])
                town = target is not None and ed.board.hexes[target].kind in (
                    "town", "double_town")
                return (spec.prefer_towns and not town,
                        min(distance(end[0], h) for h in homes))

            ends.sort(key=town_first)
            coord, side, gauge = rng.choice(ends[: max(3, len(ends) // 3)])
        target = neighbour(coord, side)
        assert target is not None
        kind = ed.board.hexes[target].kind
        want_metre = rng.random() < spec.metre_share
        supply = state.supply()
        options = []
        for tid in _station_tiles(ed, kind):
            tile = ed.tiles[tid]
            if tile.colour != "yellow" or supply.get(tid, 0) <= 0:
                continue
            for r in fitting_rotations(tile, target, ed.board):
                gauges = _gauge_at(tile, r, opposite(side))
                if not gauges:
                    continue
                if gauge != "dual" and not ({gauge, "dual"} & gauges):
                    continue
                metre = "metre" in {p.gauge for p in tile.paths}
                options.append((0 if metre == want_metre else 1, tid, r))
        if not options:
            continue
        best = min(o[0] for o in options)
        _, tid, r = rng.choice([o for o in options if o[0] == best])
        state = state.with_tile(target, tid, r)
        placed += 1
    return state


def _promote(state: BoardState, spec: Spec, rng: random.Random,
             allowed: tuple[str, ...], rounds: int | None = None) -> BoardState:
    ed = state.edition
    for _round in range(len(allowed) - 1 if rounds is None else rounds):
        for coord in sorted(state.tiles):
            if rng.random() >= spec.promote_share:
                continue
            found = state.tile_at(coord)
            assert found is not None
            old, rot = found
            supply = state.supply()
            options = []
            for new_id in ed.promotions.get(old.id, ()):
                new = ed.tiles[new_id]
                if new.colour not in allowed or supply.get(new_id, 0) <= 0:
                    continue
                for r, _ in promotion_rotations(old, rot, new):
                    if r in fitting_rotations(new, coord, ed.board):
                        options.append((new_id, r))
            if options:
                new_id, r = rng.choice(options)
                state = state.with_tile(coord, new_id, r)
    return state


def _home_tiles(state: BoardState, company: str, rng: random.Random) -> BoardState:
    """Lay a yellow city tile on each empty home city and put the home bases down."""
    ed = state.edition
    spec = ed.company(company)
    for home in spec.homes:
        if home.condition is not None:
            continue
        if home.hex not in state.tiles:
            options = [(tid, r) for tid in _station_tiles(ed, ed.board.hexes[home.hex].kind)
                       if ed.tiles[tid].colour == "yellow"
                       and not any(p.gauge == "metre" for p in ed.tiles[tid].paths)
                       for r in fitting_rotations(ed.tiles[tid], home.hex, ed.board)]
            tid, r = rng.choice(options)
            state = state.with_tile(home.hex, tid, r)
        found = state.tile_at(home.hex)
        assert found is not None
        station = home.station or next(s.id for s in found[0].stations if s.kind == "large")
        if not any(b.hex == home.hex and b.station == station for b in state.bases):
            state = state.with_base(Base(company, home.hex, station))
    return state


def _extra_bases(state: BoardState, company: str, count: int, rng: random.Random
                 ) -> BoardState:
    graph = TrackGraph.build(state)
    free = []
    for node, info in sorted(graph.stations.items()):
        if info.kind != "large":
            continue
        tokens = graph.tokens(node)
        on_hex = any(b.company == company and b.hex == node[1] for b in state.bases)
        has_track = graph.adjacent(node, "broad") or graph.adjacent(node, "metre")
        if len(tokens) < info.slots and not on_hex and has_track:
            free.append(node)
    rng.shuffle(free)
    tokens_left = state.edition.company(company).base_tokens - len(state.company_bases(company))
    count = min(count, tokens_left)  # TABLE 7: no more bases than tokens
    for node in free:
        if count <= 0:
            break
        if any(b.company == company and b.hex == node[1] for b in state.bases):
            continue  # 4.4.5: one base per company per hex
        state = state.with_base(Base(company, node[1], node[2]))
        count -= 1
    return state


def build_position(spec: Spec) -> dict[str, Any]:
    rng = random.Random(spec.seed)
    ed = load_edition(spec.edition)
    state = BoardState.initial(ed)
    for company in (spec.company, *spec.others):
        state = _home_tiles(state, company, rng)
    state = _grow(state, spec, rng)
    state = _extra_bases(state, spec.company, spec.extra_bases, rng)
    for other in spec.others:
        state = _extra_bases(state, other, spec.extra_bases, rng)
    phase = _phase(ed, spec)
    _check_trains(ed, spec, phase)
    kinds = {c.initials: ("minor" if c.type == "minor" else "major") for c in ed.companies}
    companies = {c: CompanyEntry(company=c, type=kinds[c]) for c in spec.others}  # type: ignore[arg-type]
    companies[spec.company] = CompanyEntry(company=spec.company, trains=spec.trains,
                                           type=kinds[spec.company])  # type: ignore[arg-type]
    position = Position(ed, phase, state, companies)
    doc = position_to_dict(position)
    doc["bench"] = {"name": spec.name, "era": spec.era, "company": spec.company,
                    "notes": spec.notes}
    return doc


def generate(prefixes: list[str]) -> None:
    """Write the position files of every spec (or of those whose name starts with one of
    ``prefixes``), and print what each network holds."""
    POSITIONS.mkdir(exist_ok=True)
    for spec in SPECS:
        if prefixes and not any(spec.name.startswith(p) for p in prefixes):
            continue
        doc = build_position(spec)
        position = load_position(doc)  # the file must be a valid position
        (POSITIONS / f"{spec.name}.json").write_text(json.dumps(doc, indent=1) + "\n")
        print(f"{spec.name}: {_describe(position.board)}")


def _describe(state: BoardState) -> str:
    ed = state.edition
    colours: dict[str, int] = {}
    junctions = 0
    for _, tile, _ in state.tiles_on_board():
        colours[tile.colour] = colours.get(tile.colour, 0) + 1
        junctions += not tile.stations and len(tile.paths) >= 3
    per_company: dict[str, int] = {}
    for b in state.bases:
        per_company[b.company] = per_company.get(b.company, 0) + 1
    playable = sum(1 for h in ed.board.hexes.values() if h.playable)
    return (f"{len(state.tiles)}/{playable} hexes, colours {dict(sorted(colours.items()))}, "
            f"{junctions} junction tiles, bases {dict(sorted(per_company.items()))}")


# ---------------------------------------------------------------------------------------------
# Measuring.


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _oracle(graph: TrackGraph, company: str, trains: list[Train], duties: list[str]
            ) -> tuple[int | None, str]:
    """The brute-force oracle's total (None: no run meets the duties), or why it did not
    finish, and what it cost."""
    sys.path.insert(0, str(HERE.parent / "tests" / "rules"))
    try:
        import oracle
    finally:
        sys.path.pop(0)
    c0 = time.process_time()
    try:
        answer = oracle.oracle_best(graph, company, trains, duties,
                                    max_paths=ORACLE_PATH_BUDGET, max_steps=ORACLE_STEP_BUDGET)
    except oracle.TooManyPaths:
        return None, f"n/a: over {ORACLE_PATH_BUDGET:,} candidate paths"
    except oracle.TooManySteps:
        return None, f"n/a: over {ORACLE_STEP_BUDGET:,} assignment steps"
    cost = f"{answer.candidates if answer else 0} runs, {time.process_time() - c0:.1f} s"
    return (None if answer is None else int(answer.total)), cost


def _all_runs(graph: TrackGraph, company: str, trains: list[Train]) -> tuple[int, int]:
    """Candidate runs over all trains were every run listed (the last pass may list fewer),
    and how many of them tie with the most valuable one (ties)."""
    resources = _Resources()
    hubs = {h: 1 << i for i, h in enumerate(sorted(junction_hexes(graph)))}
    total = 0
    ties = 0
    for gauge in sorted({t.gauge for t in trains}):
        reduced = reduce_graph(graph, gauge, resources, {}, hubs)
        cap = max((1 if t.one_m else t.large) for t in trains if t.gauge == gauge)
        runs = enumerate_runs(reduced, graph, company, cap)
        total += sum(1 for t in trains if t.gauge == gauge for c in runs if _eligible(c, t))
        if runs:
            ties = max(ties, sum(1 for c in runs if c[0] == runs[0][0]))
    return total, ties


def _network(graph: TrackGraph, company: str, trains: list[Train]) -> str:
    """What the company's trains can reach: stations (of which towns), stations blocked for
    it (4.5.6), its bases, dual-gauge pieces of track, junction tiles."""
    arrived: set[object] = set()
    used: set[int] = set()
    for gauge in sorted({t.gauge for t in trains}):
        found = reach(graph, company, gauge)
        arrived.update(found.arrivals)
        used.update(found.tracks)
    stations = [n for n in graph.stations if n in arrived]
    towns = sum(1 for n in stations if graph.stations[n].kind == "small")
    blocked = sum(1 for n in stations if graph.blocked_for(n, company))
    dual = sum(1 for t in graph.tracks if t.id in used and t.gauge == "dual")
    junctions = len({graph.tracks[t].hex for t in used} & junction_hexes(graph))
    return (f"{len(stations)} st ({towns} towns), {len(graph.base_nodes(company))} bases, "
            f"{blocked} blocked, {dual} dual, {junctions} junctions")


def _route_set(best: BestRun, graph: TrackGraph) -> list[str]:
    return [json.dumps(route_to_json(rv.route, graph), sort_keys=True)
            for rv in best.run.routes]


def measure(path: Path) -> dict[str, object]:
    """Time one position.  The track graph is cached on its (immutable) board state, so every
    graph build is timed on a freshly loaded state (per-tile track memos stay warm).  The
    search is the whole ``best_run`` call, timed the same way cold (the first call for the
    position in this process) and warm (each repeat): wall clock and process CPU time (the
    machine is shared, so CPU time shows the router's own cost when other jobs compete for
    the two cores)."""
    doc = json.loads(path.read_text())
    position = load_position(doc)
    company, trains, duties = runnable_trains(position, doc["bench"]["company"])
    t0 = time.perf_counter()
    graph = TrackGraph.build(position.board)
    graph_cold = (time.perf_counter() - t0) * 1000
    t0, c0 = time.perf_counter(), time.process_time()
    first = best_run(graph, company, trains, duties)
    cold_wall = (time.perf_counter() - t0) * 1000
    cold_cpu = (time.process_time() - c0) * 1000
    routes = _route_set(first, graph)
    graph_warm: list[float] = []
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(WARM_REPEATS):
        fresh = load_position(doc).board
        t0 = time.perf_counter()
        g = TrackGraph.build(fresh)
        graph_warm.append((time.perf_counter() - t0) * 1000)
        t0, c0 = time.perf_counter(), time.process_time()
        again = best_run(g, company, trains, duties)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
        if _route_set(again, g) != routes:
            raise AssertionError(f"{path.name}: router is not deterministic (route sets differ)")
    complete = best_run(graph, company, trains, duties, first_threshold=0).run.total
    oracle_total, oracle_cost = _oracle(graph, company, trains, duties)
    if oracle_cost.startswith("n/a"):
        agree = oracle_cost
    elif oracle_total == first.run.total:
        agree = f"yes ({oracle_cost})"
    else:
        agree = f"NO: {oracle_total} ({oracle_cost})"
    runs_all, ties = _all_runs(graph, company, trains)
    return {
        "position": path.stem,
        "era": doc["bench"]["era"],
        "phase": position.phase,
        "tiles": len(position.board.tiles),
        "trains": " ".join(t.name for t in trains),
        "network": _network(graph, company, trains),
        "graph_cold_ms": graph_cold,
        "graph_warm_med": statistics.median(graph_warm),
        "graph_warm_p95": _p95(graph_warm),
        "search_cold_wall": cold_wall,
        "search_cold_cpu": cold_cpu,
        "search_warm_med": statistics.median(wall),
        "search_warm_p95": _p95(wall),
        "search_cpu_med": statistics.median(cpu),
        "search_cpu_p95": _p95(cpu),
        "runs": sum(first.stats.candidates.values()),
        "runs_all": runs_all,
        "top_ties": ties,
        "passes": first.stats.passes,
        "bnb_nodes": first.stats.search_nodes,
        "total": first.run.total,
        "upper_bound": first.upper_bound,
        "root_bound": first.stats.root_bound,
        "optimal": first.optimal,
        "same_routes": f"yes ({WARM_REPEATS})",
        "complete_list": "yes" if complete == first.run.total else f"NO ({complete})",
        "oracle": agree,
    }


def run() -> list[dict[str, object]]:
    load = os.getloadavg()[0]
    rows = [measure(p) for p in sorted(POSITIONS.glob("*.json"))]
    late = [r for r in rows if r["era"] == "late"]
    worst = max(late, key=lambda r: float(str(r["search_cpu_p95"])))
    print(f"router: load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; "
          f"worst late-game warm CPU p95 {float(str(worst['search_cpu_p95'])):.1f} ms "
          f"({worst['position']}), wall p95 {float(str(worst['search_warm_p95'])):.1f} ms; "
          f"target {TARGET_MS:.0f} ms CPU: "
          f"{'met' if float(str(worst['search_cpu_p95'])) < TARGET_MS else 'NOT met'}")
    return rows


def stress(with_oracle: bool = False) -> list[dict[str, object]]:
    """Time the router on the stress positions (:data:`STRESS_SPECS` x :data:`STRESS_SEEDS`,
    generated in memory): the whole ``best_run`` call, warm, in process CPU time (median and
    worst of :data:`STRESS_REPEATS`), with what it listed and searched and its certificate;
    every repeat must return the same route set."""
    load = os.getloadavg()[0]
    rows = []
    for name in STRESS_SPECS:
        spec = next(s for s in SPECS if s.name == name)
        for seed in STRESS_SEEDS:
            rows.append(_stress_row(f"{name}-s{seed}", build_position(replace(spec, seed=seed)),
                                    with_oracle))
            print(rows[-1], flush=True)
    worst = max(rows, key=lambda r: float(str(r["cpu_max"])))
    over = [str(r["position"]) for r in rows if float(str(r["cpu_max"])) >= TARGET_MS]
    print(f"router stress: load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; "
          f"{len(rows)} positions; worst warm CPU {float(str(worst['cpu_max'])):.1f} ms "
          f"({worst['position']}); {len(over)} at {TARGET_MS:.0f} ms or more {over}; "
          f"all certified: {all(r['optimal'] for r in rows)}")
    return rows


def _stress_row(name: str, doc: dict[str, Any], with_oracle: bool) -> dict[str, object]:
    position = load_position(doc)
    company, trains, duties = runnable_trains(position, doc["bench"]["company"])
    graph = TrackGraph.build(position.board)
    first = best_run(graph, company, trains, duties)  # cold: not timed
    routes = _route_set(first, graph)
    cpu: list[float] = []
    for _ in range(STRESS_REPEATS):
        c0 = time.process_time()
        again = best_run(graph, company, trains, duties)
        cpu.append((time.process_time() - c0) * 1000)
        if _route_set(again, graph) != routes:
            raise AssertionError(f"{name}: router is not deterministic (route sets differ)")
    row: dict[str, object] = {
        "position": name,
        "trains": " ".join(t.name for t in trains),
        "cpu_med": statistics.median(cpu),
        "cpu_max": max(cpu),
        "passes": first.stats.passes,
        "runs listed": sum(first.stats.candidates.values()),
        "bnb nodes": first.stats.search_nodes,
        "total": first.run.total,
        "upper_bound": first.upper_bound,
        "root_bound": first.stats.root_bound,
        "optimal": first.optimal,
    }
    if with_oracle:
        oracle_total, cost = _oracle(graph, company, trains, duties)
        row["oracle"] = (cost if cost.startswith("n/a") else
                         f"yes ({cost})" if oracle_total == first.run.total
                         else f"NO: {oracle_total} ({cost})")
    return row


if __name__ == "__main__":
    if "--generate" in sys.argv:
        generate([a for a in sys.argv[1:] if a != "--generate"])
    elif "--stress" in sys.argv:
        stress(with_oracle="--oracle" in sys.argv)
    else:
        for row in run():
            print(row)
