"""Construction benchmark: enumerate every legal move on a crowded late-game board.

``run()`` times ``legal_moves`` for each company of ``tests/positions/late_game_*.json`` (target
under 50 ms per enumeration), wall-clock and CPU time (the machine is shared), and then, for each
company that may lay two tiles, the listing of every legal second lay after each of its legal
first lays (rule 4.1.7's two-lay search; each on a fresh board, as the engine meets it).
``python -m bench.construction --regenerate`` rebuilds those
position files by playing seeded random legal construction moves for every company.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from india1853.board.state import Base, BoardState
from india1853.data.loader import load_edition
from india1853.rules.construction import (
    CompanyContext,
    ConstructionPolicy,
    Lay,
    PlaceBase,
    Promotion,
    apply_base,
    apply_lay,
    apply_promotion,
    lays_allowed,
    legal_bases,
    legal_lays,
    legal_moves,
    legal_promotions,
)
from india1853.rules.position import (
    CompanyEntry,
    Position,
    context_from_position,
    load_position,
    position_to_dict,
)

POSITIONS = Path(__file__).resolve().parent.parent / "tests" / "positions"
REPEATS = 30


def _time(fn: Any, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _cpu(fn: Any, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        out.append((time.process_time() - start) * 1000)
    return out


def run() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for path in sorted(POSITIONS.glob("late_game_*.json")):
        position = load_position(path)
        for company in position.companies:
            ctx = context_from_position(position, company)
            board = position.board
            count = len(legal_moves(board, ctx))
            times = sorted(_time(lambda b=board, c=ctx: legal_moves(b, c), REPEATS))
            cpu = sorted(_cpu(lambda b=board, c=ctx: legal_moves(b, c), REPEATS))
            rows.append({
                "position": path.stem,
                "company": company,
                "moves": count,
                "median_ms": statistics.median(times),
                "p95_ms": times[int(0.95 * (len(times) - 1))],
                "cpu_median_ms": statistics.median(cpu),
            })
    rows.extend(second_lays())
    return rows


def second_lays() -> list[dict[str, object]]:
    """Every legal second lay listed after each legal first lay (rule 4.1.7 / 31.5), timed
    once per first lay on the board that lay makes (its graph not yet built)."""
    rows: list[dict[str, object]] = []
    for path in sorted(POSITIONS.glob("late_game_*.json")):
        position = load_position(path)
        policy = ConstructionPolicy.of(position.edition)
        for company in position.companies:
            ctx = context_from_position(position, company)
            if lays_allowed(policy, ctx) < 2:
                continue
            firsts = [m.move for m in legal_lays(position.board, ctx)]
            times: list[float] = []
            counts: list[int] = []
            for first in firsts:
                assert isinstance(first, Lay)
                after, _ = apply_lay(position.board, ctx, first)
                second = replace(ctx, lays_done=(first,))
                start = time.process_time()
                counts.append(len(legal_lays(after, second)))
                times.append((time.process_time() - start) * 1000)
            if not times:
                continue
            rows.append({
                "position": path.stem,
                "company": company,
                "first_lays": len(firsts),
                "second_lays_each": f"{min(counts)}-{max(counts)}",
                "second_cpu_median_ms": statistics.median(times),
                "second_cpu_max_ms": max(times),
            })
    return rows


# --- building the late-game positions ------------------------------------------------------


def _homes(board: BoardState) -> BoardState:
    for spec in board.edition.companies:
        for home in spec.homes:
            if home.condition is not None:
                continue
            board = board.with_base(Base(spec.initials, home.hex, home.station))
    return board


def build_late_game(edition: str, seed: int, rounds: int = 16) -> dict[str, Any]:
    """A crowded board: ``rounds`` operating rounds of random legal construction."""
    rng = random.Random(seed)
    ed = load_edition(edition)
    board = _homes(BoardState.initial(ed))
    companies = [c for c in ed.companies]
    phases = [p.number for p in ed.phases if p.tiles]
    placed = {c.initials: 0 for c in companies}
    running = frozenset(c.initials for c in companies)
    phase = phases[0]
    for round_no in range(rounds):
        phase = phases[min(len(phases) - 1, round_no * len(phases) // rounds)]
        for spec in companies:
            kind: Literal["major", "minor"] = "minor" if spec.type == "minor" else "major"
            ctx = CompanyContext(spec.initials, kind, phase, 10_000, ("6",), running, "paid",
                                 bases_placed=placed[spec.initials])
            promos = legal_promotions(board, ctx)
            if promos and rng.random() < 0.3:
                move = rng.choice(promos).move
                assert isinstance(move, Promotion)
                board, _ = apply_promotion(board, ctx, move)
            else:
                done: tuple[Lay, ...] = ()
                for _ in range(2 if kind == "major" else 1):
                    lays = legal_lays(board, ctx)
                    if not lays:
                        break
                    lay = rng.choice(lays).move
                    assert isinstance(lay, Lay)
                    board, _ = apply_lay(board, ctx, lay)
                    done = (*done, lay)
                    ctx = CompanyContext(spec.initials, kind, phase, 10_000, ("6",), running,
                                         "paid", lays_done=done,
                                         bases_placed=placed[spec.initials])
            bases = legal_bases(board, ctx)
            if bases and rng.random() < 0.3:
                base = rng.choice(bases).move
                assert isinstance(base, PlaceBase)
                board, _ = apply_base(board, ctx, base)
                placed[spec.initials] += 1
    position = Position(
        ed, phase, board,
        {c.initials: CompanyEntry(c.initials, trains=("5", "6") if c.type != "minor"
                                  else ("5",), cash=800,
                                  type="minor" if c.type == "minor" else "major",
                                  double_lay="paid" if ed.costs.double_lay_fees else None,
                                  bases_placed=placed[c.initials])
         for c in companies},
    )
    return position_to_dict(position)


def main(argv: list[str]) -> int:
    if "--regenerate" in argv:
        for edition, seed in (("first", 1853), ("second", 2009)):
            doc = build_late_game(edition, seed)
            path = POSITIONS / f"late_game_{edition}.json"
            path.write_text(json.dumps(doc, indent=1) + "\n")
            print(f"wrote {path}: {len(doc['tiles'])} tiles, {len(doc['bases'])} bases")
        return 0
    for row in run():
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
