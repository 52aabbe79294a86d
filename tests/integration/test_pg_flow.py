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

from pathlib import Path

import pytest
import services
from cluster import Server  # puts tests/web on the path (the fork server, sinks, the flow)
from flow22 import Flow, Receivers, Urls, server_options
from playwright.sync_api import Browser
from sinks import SmtpSink, WebhookReceiver


def test_the_flow_with_pages_on_two_processes_of_postgresql_and_redis(
        tmp_path: Path, browser: Browser, request: pytest.FixtureRequest) -> None:
    db, redis = services.empty_postgres(request.config), services.shared_redis(request.config)
    hook, smtp = WebhookReceiver(), SmtpSink()
    options = tuple(server_options(smtp.port))
    try:
        one = Server(tmp_path / "one", db, redis, options=options)
        two = Server(tmp_path / "two", db, redis, options=options)
        flow = Flow(browser, Urls(uma=one.url, vic=two.url, wes=one.url, watcher=two.url),
                    Receivers(hook.to, hook.url, smtp.messages), tmp_path)
        try:
            flow.run()
        finally:
            flow.close()
            one.stop()
            two.stop()
    finally:
        hook.close()
        smtp.close()
