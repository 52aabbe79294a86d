"""``india1853 data --edition first|second [--json]``: print an edition's data.

With ``--json`` the output is one JSON document whose top-level keys are exactly
:data:`JSON_KEYS` (documented in docs/data-format.md); without it, a plain-text summary.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections import Counter
from typing import Any

from india1853.data.loader import EDITIONS, load_edition
from india1853.data.model import COLOURS, Edition

JSON_KEYS: tuple[str, ...] = (
    "board",
    "cities",
    "tiles",
    "manifest",
    "promotions",
    "companies",
    "trains",
    "phases",
    "market",
    "costs",
    "tables",
)


def register(sub: Any) -> None:
    parser = sub.add_parser("data", help="print an edition's data (board, tiles, companies, ...)")
    parser.add_argument("--edition", choices=EDITIONS, default="second", help="default: second")
    parser.add_argument("--json", action="store_true", help="one JSON document (stable keys)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    ed = load_edition(args.edition)
    if args.json:
        print(json.dumps(edition_document(ed), ensure_ascii=False, indent=1))
    else:
        print(summary(ed))
    return 0


def _plain(obj: Any) -> Any:
    return dataclasses.asdict(obj)


def edition_document(ed: Edition) -> dict[str, Any]:
    """The edition as JSON-ready data under the documented top-level keys."""
    trains = _plain(ed.trains)
    trains["total"] = ed.trains.total(with_extras=False)
    trains["total_with_extras"] = ed.trains.total(with_extras=True)
    tables = _plain(ed.tables)
    tables["rules"] = _plain(ed.rules)
    market = _plain(ed.market)
    doc = {
        "board": {"hexes": [_plain(h) for h in ed.board.hexes.values()]},
        "cities": [_plain(c) for c in ed.cities],
        "tiles": {tid: _plain(t) for tid, t in ed.tiles.items()},
        "manifest": dict(ed.manifest),
        "promotions": {k: list(v) for k, v in ed.promotions.items()},
        "companies": [_plain(c) for c in ed.companies],
        "trains": trains,
        "phases": [_plain(p) for p in ed.phases],
        "market": market,
        "costs": _plain(ed.costs),
        "tables": tables,
    }
    return doc


def _board_lines(ed: Edition) -> list[str]:
    """The playable hexes by kind (the breakdown adds up to the count), then the grey margin
    hexes, which are on the grid but take no tile."""
    hexes = ed.board.hexes.values()
    kinds = Counter(h.kind for h in hexes if h.playable)
    grey = sum(1 for h in hexes if not h.playable)
    by_kind = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    margin = f", plus {grey} grey off-board hexes" if grey else ""
    return [f"Board: {sum(kinds.values())} playable hexes ({by_kind}){margin}"]


def _tile_lines(ed: Edition) -> list[str]:
    per_colour: Counter[str] = Counter()
    for tid, n in ed.manifest.items():
        per_colour[ed.tiles[tid].colour] += n
    counts = ", ".join(f"{c} {per_colour[c]}" for c in COLOURS)
    return [f"Tiles: {sum(ed.manifest.values())} ({counts}), {len(ed.manifest)} types"]


def _company_lines(ed: Edition) -> list[str]:
    out = ["Companies:"]
    for c in ed.companies:
        homes = ", ".join(
            f"{h.hex}{'/' + h.station if h.station else ''}"
            f"{' if ' + h.condition if h.condition else ''}"
            for h in c.homes
        )
        out.append(
            f"  {c.number} {c.initials:<5}{c.name:<42} par {c.par:>3}  bases {c.base_tokens}"
            f"  {c.type:<6} homes {homes}"
        )
    return out


def _city_lines(ed: Edition) -> list[str]:
    out = [f"Cities ({len(ed.cities)}):"]
    for c in ed.cities:
        nums = " ".join(str(n) for n in c.companies)
        ganges = "  Ganges" if c.ganges_valley else ""
        out.append(f"  {c.name:<14}{c.hex:<5}companies {nums:<9} bond £{c.bond_value}{ganges}")
    return out


def _train_lines(ed: Edition) -> list[str]:
    out = [
        f"Trains: {ed.trains.total(with_extras=False)}"
        + (
            f" ({ed.trains.total(with_extras=True)} with the extra trains)"
            if ed.trains.extra_condition
            else ""
        )
    ]
    for t in ed.trains:
        extra = f" (+{t.extra_count})" if t.extra_count else ""
        out.append(f"  '{t.name}' {t.gauge:<6} {t.count}{extra} @ £{t.price}")
    for d in ed.trains.dual_options:
        out.append(f"  {d.count} dual-option '{d.card}' cards ({d.rule})")
    return out


def _phase_lines(ed: Edition) -> list[str]:
    out = ["Phases:"]
    for p in ed.phases:
        start = p.introduced_by.replace("_", " ") + (f" '{p.train}'" if p.train else "")
        trains = " ".join(p.trains_available) or "-"
        out.append(
            f"  {p.number}: {start:<18} trains {trains:<18} tiles {'/'.join(p.tiles) or '-':<26}"
            f" limit {p.train_limit or '-'}  ORs {p.ors_per_set or '-'}"
        )
    return out


def _table_lines(ed: Edition) -> list[str]:
    out = [f"Bank: £{ed.tables.bank}", "Players: capital / share limit / certificates / qualifying"]
    for n, row in ed.tables.players.items():
        out.append(
            f"  {n}: £{row.starting_capital} / {row.share_limit} / {row.certificate_limit}"
            f" / {row.qualifying_shares}"
        )
    terrain = ", ".join(
        f"{t} {c.broad}/{c.metre}" for t, c in ed.costs.terrain.items()
    )
    out.append(f"Construction (broad/metre): {terrain}")
    market = ed.market.values
    out.append(f"Market: {len(market)} steps, £{market[0]}..£{market[-1]}")
    return out


def summary(ed: Edition) -> str:
    lines = [f"1853 (India), {ed.name} edition"]
    for part in (
        _board_lines,
        _tile_lines,
        _company_lines,
        _city_lines,
        _train_lines,
        _phase_lines,
        _table_lines,
    ):
        lines.extend(part(ed))
    return "\n".join(lines)
