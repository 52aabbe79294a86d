"""Issue 22's Done-when flow on one server (SQLite), in Debian's chromium driven by Playwright
(the worker's one chromium, conftest.py): two accounts and a guest in one game with open
seats, a chess clock and turn alerts - joining, a clock run out, reloads, "My games", the
chat, takebacks, and exactly the expected alerts at a webhook receiver and an SMTP sink on
loopback.  The steps are flow22.py's (shared with tests/integration/test_pg_flow.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import ServerProcess
from flow22 import Flow, Receivers, Urls, server_options
from playwright.sync_api import Browser
from sinks import SmtpSink, WebhookReceiver


def test_two_accounts_and_a_guest_play_one_game_with_open_seats_a_clock_and_alerts(
        browser: Browser, tmp_path: Path) -> None:
    hook, smtp = WebhookReceiver(), SmtpSink()
    flow = server = None
    try:
        # The server starts (the worker's first start boots the fork server: its imports)
        # while chromium opens the flow's four browsers.
        with ThreadPoolExecutor(1) as pool:
            starting = pool.submit(ServerProcess, tmp_path / "server",
                                   *server_options(smtp.port))
            try:
                flow = Flow(browser, Receivers(hook.to, hook.url, smtp.messages), tmp_path)
            finally:
                server = starting.result()
        url = server.url
        flow.run(Urls(url, url, url, url))
    finally:
        if flow is not None:
            flow.close()
        if server is not None:
            server.stop()
        hook.close()
        smtp.close()
