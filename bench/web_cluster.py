"""Web server benchmark on several processes: bench/web.py's load on two server processes that
share one PostgreSQL database, live updates carried between them by Redis.

The same simulated people as bench/web.py (one person and three greedy bots per game), but
each person posts to one process and follows the game's event stream on the other, so that
every push crosses Redis.  PostgreSQL and Redis come from Debian's packages (``make
services``) and are started for the run on 127.0.0.1 and stopped after it (the helpers of the
integration tests, tests/integration/services.py); ``INDIA1853_TEST_PG_URL`` /
``INDIA1853_TEST_REDIS_URL`` use running servers instead.  ``INDIA1853_BENCH_WEB_GAMES`` and
``INDIA1853_BENCH_WEB_SECONDS`` size the run as for bench/web.py.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.web import GAMES, SECONDS, Stats, _load, _pct, _person, _start

SERVERS = 2
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "integration"))


async def _run(urls: list[str]) -> list[dict[str, Any]]:
    stats = Stats()
    start = time.monotonic()
    end = start + SECONDS
    lasts = await asyncio.gather(*(
        _person(urls[i % len(urls)], i, stats, end, stream_url=urls[(i + 1) % len(urls)])
        for i in range(GAMES)))
    elapsed = time.monotonic() - start
    return [{
        "servers": f"{len(urls)} (PostgreSQL, Redis)",
        "games": GAMES,
        "seconds": round(elapsed, 1),
        "actions": sum(lasts),
        "actions/s": round(sum(lasts) / elapsed, 1),
        "load avg": _load(),
        "human posts": len(stats.post_ms),
        "post p50 ms": round(statistics.median(stats.post_ms), 1) if stats.post_ms else None,
        "post p95 ms": round(_pct(stats.post_ms, 0.95), 1),
        "post p99 ms": round(_pct(stats.post_ms, 0.99), 1),
        "post max ms": round(max(stats.post_ms, default=float("nan")), 1),
        "push p50 ms (other process)": round(statistics.median(stats.push_ms), 1)
        if stats.push_ms else None,
        "push p95 ms": round(_pct(stats.push_ms, 0.95), 1),
        "stale 409": ", ".join(f"{n} in {k}" for k, n in sorted(stats.stale.items())) or 0,
        "errors": len(stats.errors),
    }]


def run() -> list[dict[str, Any]]:
    import services

    with services.postgres() as pg_url, services.redis() as redis_url, \
            tempfile.TemporaryDirectory() as tmp:
        started = [_start(Path(tmp) / str(i), "--db", pg_url, "--redis", redis_url)
                   for i in range(SERVERS)]
        try:
            return asyncio.run(_run([url for _, url in started]))
        finally:
            for process, _ in started:
                process.terminate()
            for process, _ in started:
                process.wait(30)


if __name__ == "__main__":
    for row in run():
        print(row)
