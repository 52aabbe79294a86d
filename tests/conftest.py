"""The order the test files run in: the costliest first.

`make test` runs the files on two pytest-xdist workers (``--dist loadfile``: a file's tests stay
on one worker, with its module fixtures) and hands each worker the next file in collection order
when it is nearly done (``--no-loadscope-reorder``; xdist's own order, by the number of tests in
a file, put long files of few tests last). A long file started last leaves the other worker idle
until it ends; started first, the short files fill the gaps around it (longest first, issue 20:
`make test` under 6 minutes). Only the order changes, never what runs; a file not listed keeps
its place after the listed ones.
"""

from __future__ import annotations

import gc
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# The most CPU per file first: the per-test CPU of main's last profiled `-n 2` run (2026-11-27),
# where the browser files count chromium and Playwright's driver too, which that profiler
# missed: test_browser_hotseat.py 27.9 true CPU-s (13.2 profiled), test_browser_mik2.py 24.4
# (12.6), test_browser_polish.py 24.9 (16.5), each measured alone in its own cgroup; the other
# browser files (and test_pg_flow.py's browser flow) at 1.8 times their profiled figure
# (docs/test-speed.md, the `startup` section of 21:00 UTC).
COSTLIEST_FIRST = (
    "web/test_browser.py",
    "web/test_browser_seats.py",
    "integration/test_pg_flow.py",
    "web/test_browser_operating.py",
    "web/test_browser_reasons.py",
    "web/test_browser_hotseat.py",
    "interfaces/test_bots.py",
    "game/test_random_games.py",
    "web/test_browser_polish.py",
    "web/test_browser_mik2.py",
    "rules/test_router_oracle.py",
    "integration/test_pg_cluster.py",
    "game/test_fixtures.py",
    "web/test_fuzz_api.py",
    "interfaces/test_play_pty.py",
    "web/test_secrecy_differential_first.py",
    "interfaces/test_play.py",
    "game/test_turn.py",
    "web/test_hardening.py",
    "web/test_faults.py",
    "web/test_secrecy_differential.py",
    "rules/test_router_stress.py",
    "interfaces/test_strong_bot.py",
    "interfaces/test_simulate.py",
    "game/test_first_edition.py",
    "web/test_concurrency.py",
    "game/test_scenario.py",
    "web/test_limits.py",
    "rules/test_construction_two_lays.py",
    "interfaces/test_stats.py",
    "web/test_api.py",
    "web/test_security.py",
    "interfaces/test_render.py",
    "interfaces/test_game_render.py",
    "interfaces/test_mik2_bots.py",
    "interfaces/test_play_files.py",
    "rules/test_router_kernel.py",
    "interfaces/test_newcomer.py",
    "web/test_api_seed.py",
    "rules/test_construction_trainreach.py",
    "rules/test_router_independent.py",
    "web/test_alerts_chat.py",
    "interfaces/test_log.py",
)
TESTS = Path(__file__).resolve().parent


def _rank(item: pytest.Item) -> int:
    try:
        name = item.path.resolve().relative_to(TESTS).as_posix()
    except ValueError:
        return len(COSTLIEST_FIRST)
    return COSTLIEST_FIRST.index(name) if name in COSTLIEST_FIRST else len(COSTLIEST_FIRST)


# Python's cyclic garbage collector with its default thresholds (700, 10, 10) took about a
# quarter of a test process's CPU in the engine's and bots' files (test_fixtures.py and
# test_mik2_bots.py: 5.5-6.0 of 21-24 CPU-s, measured with gc.callbacks); collecting the
# youngest generation after 50,000 allocations instead of 700 left 2.3-2.5 (issue 20: `make
# test` under 6 minutes; docs/test-speed.md). Only when the collector runs changes: what it
# frees is the same, and nothing the tests check depends on when an unreachable cycle goes.
# The test processes only (the pytest workers); servers and commands keep Python's defaults.
GC_THRESHOLDS = (50_000, 50, 100)


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(*GC_THRESHOLDS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A stable sort: each file's tests keep their order, unlisted files their relative order.
    items.sort(key=_rank)


# The default timeout of a page's actions and waits, and of Playwright's assertions.
PAGE_TIMEOUT_MS = 30_000


@pytest.fixture(scope="session")
def page_timeout_ms() -> float:
    return PAGE_TIMEOUT_MS


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's chromium, its headless shell, driven by Playwright for Python, launched once
    per test process (each pytest-xdist worker) and shared by every browser test, in tests/web
    and tests/integration alike: a launch costs chromium and Playwright's driver a second or
    two of CPU, and a second `sync_playwright()` in a process whose first is still running is
    refused (Playwright's sync API inside its own event loop). Every test opens its own
    contexts and closes them."""
    from playwright.sync_api import expect, sync_playwright

    # An assertion waits as long as a page's actions (PAGE_TIMEOUT_MS), not Playwright's 5 s:
    # under the two workers' load a page following the game's events took longer than that
    # (test_browser_reasons.py's tab title failed so on main). It waits only when failing.
    expect.set_options(timeout=PAGE_TIMEOUT_MS)
    # Debian's chromium-headless-shell: the same chromium (version, Blink, V8, the same
    # package source) built as the headless shell, which is what Playwright itself drives for
    # headless tests, without the full browser's window and profile machinery that
    # `chromium --headless` starts. The browser files cost chromium about 30% less CPU with it
    # (issue 20; docs/test-speed.md, branch `chrome`). No launch flag measured any gain.
    # The full browser also started, for each context, a renderer for its address bar's popup
    # (~1 CPU-s, never used; branch `flows`: test_browser_seats.py 47 -> 28 CPU-s).
    chromium = shutil.which("chromium-headless-shell")
    assert chromium, "Debian's chromium-headless-shell is missing: `make chromium` installs it"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium)
        try:
            yield b
        finally:
            b.close()
