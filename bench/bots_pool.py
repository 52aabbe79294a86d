"""Pool the bot benchmark's game records of several runs into one table (issue 23).

``python -m bench.bots_pool FILE...`` reads the JSON lines that ``bench/bots.py`` appends to
``INDIA1853_BENCH_BOTS_RECORDS`` and prints, per match-up, the same row as ``python -m bench
bots`` would for all those games in one run: win rate with the Wilson 95% interval, mean rank,
margin, games not ended, CPU per decision (mean, p95, max) and per game.  A game recorded twice
(the same match, seed and budget) is counted once; ``--markdown`` prints a Markdown table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bench.bots import summarise


def load(paths: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The records of the files, by match-up, each game once, in seed order."""
    seen: dict[tuple[str, int, float], dict[str, Any]] = {}
    for path in paths:
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SystemExit(f"error: {path}:{number}: not a JSON record ({exc})") from exc
            seen.setdefault((record["match"], record["seed"], record["budget"]), record)
    by_match: dict[str, list[dict[str, Any]]] = {}
    for key in sorted(seen):
        by_match.setdefault(key[0], []).append(seen[key])
    return by_match


def _seeds(records: list[dict[str, Any]]) -> str:
    seeds = sorted(r["seed"] for r in records)
    spans: list[str] = []
    start = prev = seeds[0]
    for seed in [*seeds[1:], None]:
        if seed is not None and seed == prev + 1:
            prev = seed
            continue
        spans.append(f"{start}-{prev}" if start != prev else str(start))
        if seed is not None:
            start = prev = seed
    return ",".join(spans)


def _fmt(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def main(argv: list[str]) -> int:
    markdown = "--markdown" in argv
    paths = [a for a in argv if a != "--markdown"]
    if not paths:
        print("usage: python -m bench.bots_pool [--markdown] FILE...", file=sys.stderr)
        return 2
    rows = []
    for records in load(paths).values():
        row = summarise(records)
        row["seeds"] = _seeds(records)
        rows.append(row)
    if not rows:
        print("(no records)")
        return 0
    keys = list(rows[0])
    if markdown:
        print("| " + " | ".join(keys) + " |")
        print("|" + "---|" * len(keys))
        for row in rows:
            print("| " + " | ".join(_fmt(row[k]) for k in keys) + " |")
        return 0
    for row in rows:
        print("; ".join(f"{k} {_fmt(row[k])}" for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
