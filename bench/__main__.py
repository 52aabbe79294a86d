"""Run every benchmark module in this package and print its results.

A benchmark module is any ``bench/<name>.py`` that defines ``run() -> list[dict[str, object]]``;
each dict is one result row.  ``python -m bench NAME ...`` runs only the named modules; with
more than one, each runs in a fresh interpreter (``--no-header`` leaves out the machine line).
"""

from __future__ import annotations

import importlib
import pkgutil
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any


def _machine() -> str:
    cpu = platform.processor() or "unknown cpu"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _print_rows(name: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n== {name} ==")
    if not rows:
        print("(no results)")
        return
    keys: list[str] = []
    for row in rows:
        for key in row:
            if key not in keys:
                keys.append(key)
    widths = {k: max(len(k), *(len(_fmt(r.get(k, ""))) for r in rows)) for k in keys}
    print("  ".join(k.ljust(widths[k]) for k in keys))
    for row in rows:
        print("  ".join(_fmt(row.get(k, "")).ljust(widths[k]) for k in keys))


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    header = "--no-header" not in argv
    wanted = {a for a in argv if a != "--no-header"}
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    unknown = wanted - set(names)
    if unknown:
        print(f"error: no benchmark named {', '.join(sorted(unknown))} "
              f"(there are: {', '.join(names)})", file=sys.stderr)
        return 2
    chosen = [n for n in names if not wanted or n in wanted]
    if len(chosen) > 1:
        # Each benchmark in a fresh interpreter: the heap and caches one leaves behind (the
        # router's arms, say) would otherwise slow the next one's allocations and garbage
        # collection, and the figures would depend on the order the modules run in.
        if header:
            print(f"machine: {_machine()}", flush=True)
        status = 0
        for name in chosen:
            done = subprocess.run([sys.executable, "-m", "bench", "--no-header", name],
                                  check=False)
            status = status or done.returncode
        return status
    if header:
        print(f"machine: {_machine()}")
    for name in chosen:
        module = importlib.import_module(f"bench.{name}")
        run = getattr(module, "run", None)
        if run is None:
            continue
        _print_rows(name, run())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
