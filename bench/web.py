"""Web server benchmark: N concurrent games on loopback, bots on the server, simulated people.

A real server (``india1853 serve`` in a subprocess, SQLite in a temporary directory, bots
pausing ``BOT_DELAY`` s before each move) holds ``GAMES`` games of one person and three
greedy bots.  Each person is a client that listens to its game's event stream (SSE), as the
browser does, and when a decision is its own, thinks ``THINK`` s and posts one of the offered
actions (seeded random choice).  Measured: the round trip of each POST (send to response),
the push delay (POST sent to the event with its id arriving on the stream), and errors (any
status but 200; a 409 "stale" is counted apart, by round: in the contract bids' bonds all
players act at once, so a bot's bond can move the game on while the person thinks).

Target (issue 11): 50 concurrent games on this 2-core machine with SQLite: p95 round trip
under 100 ms, zero errors.  ``INDIA1853_BENCH_WEB_GAMES`` and ``INDIA1853_BENCH_WEB_SECONDS``
change the size and the length of the run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

GAMES = int(os.environ.get("INDIA1853_BENCH_WEB_GAMES", "50"))
SECONDS = float(os.environ.get("INDIA1853_BENCH_WEB_SECONDS", "60"))
BOT_DELAY = 0.5
THINK = (0.5, 1.5)
TARGET_P95_MS = 100.0


def _start(data_dir: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "india1853.interfaces.cli", "serve", "--port", "0",
         "--data-dir", str(data_dir), "--bot-delay", str(BOT_DELAY),
         # every simulated person comes from one address: its budget of new games would be
         # theirs together (docs/deployment.md, "Limits"); each seat keeps its own budget
         "--create-limit", "1000", *options],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    if "http://" not in line:
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return process, "http://" + line.split("http://", 1)[1].split("/", 1)[0]


class Stats:
    def __init__(self) -> None:
        self.post_ms: list[float] = []
        self.by_type: dict[str, list[float]] = {}
        self.push_ms: list[float] = []
        self.sent: dict[tuple[str, int], float] = {}
        self.stale: dict[str, int] = {}
        self.errors: list[str] = []


async def _person(url: str, index: int, stats: Stats, end: float,
                  stream_url: str | None = None) -> int:
    """One person's page: follow the stream (from ``stream_url``, another server process, if
    given: bench/web_cluster.py), act on one's own decisions; the game's last id."""
    rng = random.Random(index)
    async with httpx.AsyncClient(base_url=url, timeout=60.0) as client, \
            httpx.AsyncClient(base_url=stream_url or url, timeout=60.0) as watcher:
        made = (await client.post("/api/games", json={
            "players": [{"name": "You"}, {"name": "B1", "bot": "greedy"},
                        {"name": "B2", "bot": "greedy"}, {"name": "B3", "bot": "greedy"}],
            "seed": index})).json()
        game, token = made["id"], made["tokens"]["You"]
        headers = {"Authorization": f"Bearer {token}"}
        last = 0
        # A page opens its stream with a single-use ticket (on another process too).
        ticket = (await client.post(f"/api/games/{game}/stream-ticket",
                                    headers=headers)).json()["ticket"]
        try:
            async with watcher.stream("GET", f"/api/games/{game}/events",
                                     params={"ticket": ticket},
                                     timeout=httpx.Timeout(60.0, read=30.0)) as stream:
                data = ""
                async for line in stream.aiter_lines():
                    if time.monotonic() > end:
                        break
                    if line.startswith("data: "):
                        data = line[6:]
                        continue
                    if line or not data:
                        continue
                    state = json.loads(data)
                    data = ""
                    if state["last_action_id"] < last:
                        continue  # older than the answer to our own post: already seen
                    last = state["last_action_id"]
                    sent = stats.sent.pop((game, last), None)
                    if sent is not None:
                        stats.push_ms.append((time.perf_counter() - sent) * 1000)
                    options = [o["action"] for d in state["turn"]["decisions"]
                               for o in d["options"]]
                    if not options or state["turn"]["finished"]:
                        continue
                    await asyncio.sleep(rng.uniform(*THINK))
                    action = rng.choice(options)
                    start = time.perf_counter()
                    r = await client.post(f"/api/games/{game}/actions", json=action,
                                          headers=headers)
                    if r.status_code == 200:
                        took = (time.perf_counter() - start) * 1000
                        stats.post_ms.append(took)
                        stats.by_type.setdefault(action["type"], []).append(took)
                        stats.sent[(game, action["id"])] = start
                        last = r.json()["last_action_id"]
                    elif r.status_code == 409:
                        kind = state["turn"]["round"]
                        stats.stale[kind] = stats.stale.get(kind, 0) + 1
                    else:
                        stats.errors.append(f"{r.status_code} {r.text[:200]}")
        except httpx.HTTPError as exc:
            stats.errors.append(f"{type(exc).__name__}: {exc}")
        return last


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _load() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


async def _run(url: str, pid: int) -> list[dict[str, Any]]:
    stats = Stats()
    start = time.monotonic()
    cpu = _cpu_seconds(pid)
    end = start + SECONDS
    lasts = await asyncio.gather(*(_person(url, i, stats, end) for i in range(GAMES)))
    elapsed = time.monotonic() - start
    cpu = _cpu_seconds(pid) - cpu
    return [{
        "games": GAMES,
        "seconds": round(elapsed, 1),
        "actions": sum(lasts),
        "actions/s": round(sum(lasts) / elapsed, 1),
        "server CPU %": round(100 * cpu / elapsed),
        "CPU ms/action": round(1000 * cpu / max(1, sum(lasts)), 1),
        "load avg": _load(),
        "human posts": len(stats.post_ms),
        "post p50 ms": round(statistics.median(stats.post_ms), 1) if stats.post_ms else None,
        "post p95 ms": round(_pct(stats.post_ms, 0.95), 1),
        "post p99 ms": round(_pct(stats.post_ms, 0.99), 1),
        "post max ms": round(max(stats.post_ms, default=float("nan")), 1),
        "p95 by action": ", ".join(f"{k} {round(_pct(v, 0.95))} ms ({len(v)})"
                                   for k, v in sorted(stats.by_type.items())),
        "push p50 ms": round(statistics.median(stats.push_ms), 1) if stats.push_ms else None,
        "push p95 ms": round(_pct(stats.push_ms, 0.95), 1),
        "stale 409": ", ".join(f"{n} in {k}" for k, n in sorted(stats.stale.items())) or 0,
        "errors": len(stats.errors),
        "target": "met" if not stats.errors and _pct(stats.post_ms, 0.95) < TARGET_P95_MS
        else "NOT met",
    }]


def run() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        process, url = _start(Path(tmp))
        try:
            return asyncio.run(_run(url, process.pid))
        finally:
            process.terminate()
            process.wait(30)


if __name__ == "__main__":
    for row in run():
        print(row)
