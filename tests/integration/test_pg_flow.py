"""Issue 22's Done-when flow on PostgreSQL + Redis with two server processes: the same steps
as tests/web/test_browser_seats.py (tests/web/flow22.py, shared), with Uma's and Wes's pages
on one process and Vic's and the spectator's on the other.  So the open seats are joined, the
chat read, the takebacks asked and answered, and the seat handed to a bot and taken back
across the processes (live through Redis); the clock runs out once and each turn alert is sent
once, by one process of the two (both sweep for the other's changes).

The test process's one PostgreSQL (its database emptied first) and Redis, shared with
test_pg_cluster.py (services.py); the test process's one chromium (tests/conftest.py's
``browser``)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import services
from cluster import Server, warm  # puts tests/web on the path (the fork server, sinks, flow)
from flow22 import Flow, Receivers, Urls, server_options
from playwright.sync_api import Browser
from sinks import SmtpSink, WebhookReceiver


def _services(config: pytest.Config) -> tuple[str, str]:
    return services.empty_postgres(config), services.shared_redis(config)


def test_the_flow_with_pages_on_two_processes_of_postgresql_and_redis(
        tmp_path: Path, browser: Browser, request: pytest.FixtureRequest) -> None:
    # Side by side: the fork server's imports, PostgreSQL's and Redis's starts (a thread
    # waits for them) and chromium opening the flow's four browsers; then both processes.
    warm()
    hook, smtp = WebhookReceiver(), SmtpSink()
    options = tuple(server_options(smtp.port))
    flow = None
    servers: list[Server] = []
    try:
        with ThreadPoolExecutor(1) as pool:
            started = pool.submit(_services, request.config)
            try:
                flow = Flow(browser, Receivers(hook.to, hook.url, smtp.messages), tmp_path)
            finally:
                db, redis = started.result()
        for name in ("one", "two"):
            servers.append(Server(tmp_path / name, db, redis, options=options, wait=False))
        one, two = (s.ready() for s in servers)
        flow.run(Urls(uma=one.url, vic=two.url, wes=one.url, watcher=two.url))
    finally:
        if flow is not None:
            flow.close()
        for server in servers:
            server.stop()
        hook.close()
        smtp.close()
