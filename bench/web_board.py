"""Board delivery benchmark (issue 21 item 9): four people watch one game on a loopback
server; after each action, how long until every page shows the new board, and how many
bytes each page downloaded for it.

A real server (``india1853 serve`` in a subprocess, SQLite in a temporary directory, no bots)
holds one second-edition game of four human seats: ``tests/games/random-4p-seed12.json``
imported up to action ``START`` (a developed board, 116 tiles laid).  Each seat is a client
that does what the browser page (``static/js/game.js``) does, over HTTP/1.1 with gzip
accepted as a browser does: it follows the game's event stream (SSE, opened with a ticket),
and at each new action it updates as the page does (:func:`_page_update`).  The seat that
decides the fixture's next action posts it (the page's own update follows the POST's
answer); the next action is posted when all four pages are up to date, ``ACTIONS`` actions in
all (11 tile lays and promotions among them, bases, runs, trains, passes).

Measured: ``click to board`` = from the POST sent to a page having the new board and view
(the log is asked for after) - the acting page and the three others, p50/p95/max over every
action and page; on the way, ``post`` (the POST's round trip) and ``event`` (from the POST
sent to the other pages' event arriving); ``bytes`` = what a page received for one action
(response bodies as sent, compressed where the server compressed; the event stream's bytes
included), for tile lays and promotions by another seat, and for every action.  Also: the
server's CPU seconds, and its CPU per action (all threads, nanosecond accounting from
``/proc/PID/task/*/schedstat``): ``cpu/action`` from the POST sent to every page up to date
(with the late log downloads), ``post cpu`` to the POST's answer (the action checked, applied,
written, and the acting seat's view), ``cpu/viewer`` the rest shared by the four pages (each
page's event view, board and log).  On a loaded machine the wall times wait for a core; the
CPU is what the server itself spent.

Targets (issue 21 item 9): click to board p95 under 100 ms; under 60 KB per viewer per tile
lay by another seat.  ``INDIA1853_BENCH_BOARD_ACTIONS`` changes the number of actions.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.web import _cpu_seconds, _load, _pct, _start
from india1853.rules.game import Game, Settings

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "games" / "random-4p-seed12.json"
START = 750
ACTIONS = int(os.environ.get("INDIA1853_BENCH_BOARD_ACTIONS", "60"))
TARGET_P95_MS = 100.0
TARGET_LAY_KB = 60.0
BOARD_CHANGES = ("lay_tile", "promote_tile")


@dataclass
class Page:
    """One seat's page: what it shows and what it downloaded."""

    seat: str
    token: str
    client: httpx.AsyncClient
    shown: int = 0  # the action id whose board, view and log the page shows
    busy: bool = False  # an action of this page's is on its way
    etag: str | None = None  # the live board picture's ETag (the browser's cached copy)
    log_last: int = 0  # the id of the last log line the page holds
    received: int = 0  # bytes received so far
    done: dict[int, float] = field(default_factory=dict)  # action id -> time shown
    heard: dict[int, float] = field(default_factory=dict)  # action id -> its event's arrival

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def _cpu_ns(pid: int) -> int:
    """The CPU nanoseconds a process's threads have run so far (Linux schedstat; threads that
    ended are not counted, so read it around work whose threads outlive it: the server's
    worker threads and event loop do)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # the thread ended meanwhile
    return total


async def _get(page: Page, url: str, **kw: Any) -> httpx.Response:
    r = await page.client.get(url, **kw)
    if r.status_code != 304:
        r.raise_for_status()
    page.received += r.num_bytes_downloaded
    return r


async def _page_update(page: Page, game: str, data: dict[str, Any]) -> None:
    """What game.js does with a view answer (``apply``): the board when the action id moved
    and the answer names another picture than the one shown (``loadBoard``: the browser
    revalidates its copy with the ETag), then the log lines after those it has
    (``loadLog``)."""
    at = int(data["last_action_id"])
    if at != page.shown and data.get("board_etag") != page.etag:
        etag = {"If-None-Match": page.etag} if page.etag else {}
        r = await _get(page, f"/api/games/{game}/board.svg", headers=etag)
        page.etag = r.headers.get("etag", page.etag)
    # The board is up to date: game.js renders the view, then asks for the log (not awaited).
    page.done.setdefault(at, time.perf_counter())
    after = {"after": page.log_last} if page.log_last else {}
    r = await _get(page, f"/api/games/{game}/log", headers=page.headers(), params=after)
    lines = r.json()["actions"]
    if lines:
        page.log_last = max(page.log_last, int(lines[-1]["id"]))
    page.shown = max(page.shown, at)


async def _follow(page: Page, game: str, stop: asyncio.Event) -> None:
    """The page's event stream: at every event of a newer action, the event's view shown as
    it is (a seat's own stream carries the answer GET gives) and the page updated (game.js
    ``listen``)."""
    ticket = (await page.client.post(f"/api/games/{game}/stream-ticket",
                                     headers=page.headers())).json()["ticket"]
    async with page.client.stream("GET", f"/api/games/{game}/events",
                                  params={"ticket": ticket, "after": page.shown}) as r:
        async for line in r.aiter_lines():
            page.received += len(line.encode()) + 1
            if stop.is_set():
                return
            if not line.startswith("data: "):
                continue
            data = json.loads(line[6:])
            page.heard.setdefault(int(data["last_action_id"]), time.perf_counter())
            if int(data["last_action_id"]) != page.shown and not page.busy:
                await _page_update(page, game, data)


async def _run(url: str, pid: int) -> list[dict[str, Any]]:
    log = json.loads(FIXTURE.read_text())
    body = {k: log[k] for k in ("engine_version", "settings")}
    body["actions"] = log["actions"][:START]
    settings = Settings.from_json(log["settings"])
    engine = Game.replay(settings, log["actions"][:START], check=False)
    limits = httpx.Limits(max_connections=8)
    async with httpx.AsyncClient(base_url=url, timeout=60.0) as admin:
        made = (await admin.post("/api/games/import", json=body)).json()
    game = made["id"]
    pages = [Page(seat, token, httpx.AsyncClient(base_url=url, timeout=60.0, limits=limits))
             for seat, token in made["tokens"].items()]
    by_seat = {p.seat: p for p in pages}
    stop = asyncio.Event()
    for page in pages:  # each page loads once, as a browser opening its link
        view = await _get(page, f"/api/games/{game}", headers=page.headers())
        await _page_update(page, game, view.json())
        page.shown = START
    followers = [asyncio.create_task(_follow(p, game, stop)) for p in pages]
    await asyncio.sleep(1.0)  # the streams open (their first event: the view, skipped)
    cpu0 = _cpu_seconds(pid)
    load0 = _load()
    latency: list[float] = []
    acting_ms: list[float] = []
    post_ms: list[float] = []
    heard_ms: list[float] = []
    lay_bytes: list[int] = []
    all_bytes: list[int] = []
    action_cpu: list[float] = []  # ms of server CPU per action (all four pages)
    post_cpu: list[float] = []  # ms of it up to the POST's answer
    for action in log["actions"][START:START + ACTIONS]:
        decider = engine.decider(str(action["entity"]))
        assert decider is not None
        actor = by_seat[decider]
        before = {p.seat: p.received for p in pages}
        cpu_sent = _cpu_ns(pid)
        sent = time.perf_counter()
        actor.busy = True  # game.js ``act``: events meanwhile are left to its answer
        r = await actor.client.post(f"/api/games/{game}/actions", json=action,
                                    headers=actor.headers())
        r.raise_for_status()
        post_ms.append((time.perf_counter() - sent) * 1000)
        post_cpu.append((_cpu_ns(pid) - cpu_sent) / 1e6)
        actor.received += r.num_bytes_downloaded
        await _page_update(actor, game, r.json())
        actor.busy = False
        engine.process(action)
        n = int(action["id"])
        deadline = time.perf_counter() + 60
        while any(n not in p.done for p in pages):
            if time.perf_counter() > deadline:
                raise RuntimeError(f"action {n}: a page never showed it")
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.05)  # late downloads of this action are counted with it
        action_cpu.append((_cpu_ns(pid) - cpu_sent) / 1e6)
        for p in pages:
            ms = (p.done[n] - sent) * 1000
            latency.append(ms)
            if p is actor:
                acting_ms.append(ms)
            elif n in p.heard:
                heard_ms.append((p.heard[n] - sent) * 1000)
            got = p.received - before[p.seat]
            all_bytes.append(got)
            if p is not actor and action["type"] in BOARD_CHANGES:
                lay_bytes.append(got)
    cpu = _cpu_seconds(pid) - cpu0
    stop.set()
    for task in followers:
        task.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    for p in pages:
        await p.client.aclose()
    return [{
        "actions": ACTIONS,
        "viewers": len(pages),
        "board p50 ms": statistics.median(latency),
        "board p95 ms": _pct(latency, 0.95),
        "board max ms": max(latency),
        "acting p95 ms": _pct(acting_ms, 0.95),
        "post p95 ms": _pct(post_ms, 0.95),
        "event p95 ms": _pct(heard_ms, 0.95),
        "lay KB/viewer": statistics.mean(lay_bytes) / 1000 if lay_bytes else 0.0,
        "lay KB max": max(lay_bytes, default=0) / 1000,
        "any KB/viewer": statistics.mean(all_bytes) / 1000,
        "server cpu s": cpu,
        "cpu/action ms": statistics.mean(action_cpu),
        "cpu/action p95": _pct(action_cpu, 0.95),
        "post cpu ms": statistics.mean(post_cpu),
        "cpu/viewer ms": statistics.mean(a - b for a, b in zip(action_cpu, post_cpu,
                                                             strict=True)) / len(pages),
        "load": f"{load0:.1f}->{_load():.1f}",
        "p95 ok": _pct(latency, 0.95) < TARGET_P95_MS,
        "KB ok": bool(lay_bytes) and statistics.mean(lay_bytes) / 1000 < TARGET_LAY_KB,
    }]


def run() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        process, url = _start(Path(tmp))
        try:
            return asyncio.run(_run(url, process.pid))
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    for row in run():
        print(row, file=sys.stdout)
