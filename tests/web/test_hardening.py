"""Hostile clients against a real server on loopback (issue 19, items 5, 8, 10, 11 and 12):
rate limits that a made-up token does not escape, malformed input answered with a 4xx (with
the security headers) and no traceback in the log, slow clients cut off, ``/docs`` drawn from
the server's own assets, and event streams opened with single-use tickets (no token in a
URL)."""

from __future__ import annotations

import json
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from conftest import ServerProcess
from playwright.sync_api import Browser
from webclient import EventStream, act, auth, client, create, option, view, wait_for

Start = Callable[..., ServerProcess]


def junk() -> dict[str, str]:
    """A fresh made-up token: once the key of its own bucket."""
    return auth(secrets.token_urlsafe(24))


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def security_headers(r: httpx.Response) -> None:
    assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), r
    assert r.headers.get("x-content-type-options") == "nosniff"


def server_log(server: ServerProcess) -> str:
    return (server.data_dir / "server.err").read_text(errors="replace")


# --- item 5: rate limits keyed by seat or address ---------------------------------------------


def budget(send: Callable[[], int], times: int, burst: int, rate: float) -> list[int]:
    """``times`` requests as fast as they come: no more may pass than the burst and what the
    bucket refilled meanwhile, and some must be refused (429)."""
    started = time.monotonic()
    codes = [send() for _ in range(times)]
    allowed = burst + int((time.monotonic() - started) * rate) + 1
    passed = len([code for code in codes if code != 429])
    assert passed <= allowed and 429 in codes, (passed, allowed, codes)
    assert codes[:burst].count(429) == 0, codes
    return codes


def test_made_up_tokens_do_not_escape_the_rate_limits(tmp_path: Path,
                                                      start_server: Start) -> None:
    server = start_server(tmp_path / "db", "--rate-limit", "1", "--render-limit", "1")
    c = client(server.url)
    new = {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}], "seed": 1}
    # Creating games: 10 at once per address, then one a second, whatever the token.
    budget(lambda: c.post("/api/games", json=new, headers=junk()).status_code, 20, 10, 1.0)
    game = c.get("/api/games").json()["games"][0]["id"]
    # Importing: 5 at once per address (even refused ones), then one every 5 s.
    budget(lambda: c.post("/api/games/import", content=b"{}", headers=junk()).status_code,
           10, 5, 0.2)
    r = c.post("/api/games/import", content=b"{}", headers=junk())
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert r.json()["detail"].startswith("rate limit: at most 0.2 imports a second per seat "
                                         "or address"), r.text
    security_headers(r)
    # Writes with a made-up token each: the address's bucket (60 at once), not the tokens'.
    stale = {"id": 99, "type": "pass", "entity": "Ann"}
    codes = budget(lambda: c.post(f"/api/games/{game}/actions", json=stale,
                                  headers=junk()).status_code, 90, 60, 1.0)
    assert set(codes) == {401, 429}
    # Renders (board, stats, history) have their own budget per address.
    paths = iter(("board.svg", "stats.svg", *["at/0"] * 88))
    budget(lambda: c.get(f"/api/games/{game}/{next(paths)}").status_code, 90, 60, 1.0)
    assert c.get(f"/api/games/{game}/board.svg").status_code == 429
    assert c.get(f"/api/games/{game}").status_code == 200  # reading a game is not limited
    # A real seat's token is the seat's bucket (60 at once), whatever its address did.
    made = c.post("/api/games", json=new)
    while made.status_code == 429:  # the next of one a second: within a second
        time.sleep(0.05)
        made = c.post("/api/games", json=new)
    game, tokens = made.json()["id"], made.json()["tokens"]
    for _ in range(70):  # spend the address's writes
        if c.post(f"/api/games/{game}/actions", json=stale,
                  headers=junk()).status_code == 429:
            break
    else:
        pytest.fail("the address's writes were never spent")
    budget(lambda: act(c, game, tokens["Ann"], stale).status_code, 70, 60, 1.0)
    assert act(c, game, tokens["Bob"], stale).status_code == 409
    # A client's own X-Forwarded-For changes nothing when no proxy header is configured.
    for _ in range(20):
        if c.post("/api/games", json=new).status_code == 429:
            break
    codes = [c.post("/api/games", json=new, headers={"X-Forwarded-For": f"203.0.113.{i}"})
             .status_code for i in range(3)]
    assert codes.count(429) >= 2, codes


def test_the_client_address_comes_from_a_proxy_header_only_when_configured(
        tmp_path: Path, start_server: Start) -> None:
    new = {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}], "seed": 1}
    count = iter(range(1000))

    def create_from(c: httpx.Client, forwarded: str) -> int:
        return c.post("/api/games", json=new,
                      headers={"X-Forwarded-For": forwarded}).status_code

    # The header's last entry (the one the proxy wrote) is the address.
    proxied = client(start_server(tmp_path / "proxied", "--rate-limit", "20",
                                  "--trusted-proxy-header", "X-Forwarded-For").url)
    assert {create_from(proxied, f"198.51.100.7, 203.0.113.{next(count)}")
            for _ in range(20)} == {201}
    budget(lambda: create_from(proxied, f"203.0.113.{next(count)}, 198.51.100.9"), 20, 10, 1.0)
    # An IPv6 address stands for its /64 network.
    budget(lambda: create_from(proxied, f"2001:db8:1:2::{next(count):x}"), 20, 10, 1.0)


# --- item 8: malformed input -------------------------------------------------------------------


def raw_exchange(url: str, requests: list[bytes], timeout: float = 30.0) -> list[bytes]:
    """Send the requests one after the other on one connection, each after the answer to the
    one before (answers with a Content-Length); the answers."""
    answers = []
    with socket.create_connection(address(url), timeout=timeout) as sock:
        for request in requests:
            sock.sendall(request)
            data = b""
            while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < int(
                    data.lower().split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0]):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            answers.append(data)
    return answers


def test_malformed_input_is_a_4xx_with_the_headers_and_no_traceback(
        tmp_path: Path, start_server: Start) -> None:
    server = start_server(tmp_path / "db")
    c = client(server.url)
    made = create(c)
    game, ann = made["id"], made["tokens"]["Ann"]
    huge = b"1" * 5000
    deep = b"[" * 200_000 + b"]" * 200_000
    new = b'{"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]'
    cases: list[tuple[str, bytes, str]] = [
        ("/api/games", new + b', "seed": ' + huge + b"}", "body: an integer of more than"),
        ("/api/games", deep, "body: nested deeper than 64 levels"),
        ("/api/games", new + b', "\\ud800": 1}', "body: a string holds a lone surrogate"),
        ("/api/games", new + b', "seed": NaN}', "body: NaN is not a JSON number"),
        ("/api/games", new + b', "seed": 1e999}', "body: a number too large"),
        ("/api/games/import", b'{"actions": [' + huge + b"]}", "body: an integer of more"),
        ("/api/games/import", deep, "body: nested deeper"),
        (f"/api/games/{game}/actions", b'{"id": ' + huge + b"}", "body: an integer of more"),
        (f"/api/games/{game}/actions", deep, "body: nested deeper"),
        (f"/api/games/{game}/actions", b'{"id": 1, "type": "pass", "entity": "\\udc80"}',
         "body: a string holds a lone surrogate"),
        (f"/api/games/{game}/actions", b'{"id": 1, "type": "pass", "entity": "Ann", '
         b'"\\udfff": 1}', "body: a string holds a lone surrogate"),
        (f"/api/games/{game}/preview", b'{"\\udfff": ' + huge + b"}", "body: an integer"),
    ]
    for path, body, detail in cases:
        r = c.post(path, content=body, headers=auth(ann))
        assert r.status_code == 422 and r.json()["detail"].startswith(detail), (path, r.text)
        security_headers(r)
    for last in (b"\xb2", b"9" * 5000, b"-1"):
        r = c.get(f"/api/games/{game}/events", headers={"Last-Event-ID": last})
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith("Last-Event-ID: must be an action id")
        security_headers(r)
    for path in (f"/api/games/{game}/at/{'9' * 5000}", f"/api/games/{game}/log?after=-1",
                 f"/api/games/{game}/board.svg?at={'9' * 5000}"):
        assert c.get(path).status_code == 422, path
    # The connection stays open after a refusal: the next request on it is answered.
    request = (f"POST /api/games/{game}/actions HTTP/1.1\r\nHost: x\r\nContent-Type: "
               f"application/json\r\nContent-Length: {len(huge) + 8}\r\n\r\n").encode()
    second = (f"GET /api/games/{game} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
              ).encode()
    first, then = raw_exchange(server.url, [request + b'{"id": ' + huge + b"}", second])
    assert first.startswith(b"HTTP/1.1 422 ") and then.startswith(b"HTTP/1.1 200 "), then
    # Clients that go away in the middle of their bodies: one line each at most.
    for _ in range(3):
        with socket.create_connection(address(server.url), timeout=10) as sock:
            sock.sendall(f"POST /api/games/{game}/actions HTTP/1.1\r\nHost: x\r\n"
                         "Content-Length: 1000\r\n\r\n{\"id\": 1".encode())
            time.sleep(0.05)  # the server reads the part sent before the client goes
    assert view(c, game)["last_action_id"] == 0  # nothing changed
    # Until the three lines are written (at most 2 s: fewer lines would pass too).
    deadline = time.monotonic() + 2.0
    while server_log(server).count("the client went away") < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    text = server_log(server)
    assert "Traceback" not in text and "Exception" not in text, text[-3000:]
    assert text.count("the client went away") <= 3
    assert len(text.splitlines()) <= 3, text


# --- item 10: slow clients ---------------------------------------------------------------------


def test_slow_clients_are_cut_off_and_streams_are_not(tmp_path: Path, start_server: Start) -> None:
    limit = 0.6  # --header-timeout and --body-timeout (10 s and 60 s by default)
    server = start_server(tmp_path / "db", "--header-timeout", str(limit),
                          "--body-timeout", str(limit))
    c = client(server.url)
    game = create(c)["id"]
    stream = EventStream(server.url, f"/api/games/{game}/events")
    partial = {
        "nothing": b"",
        "half the headers": f"GET /api/games/{game} HTTP/1.1\r\nHost: x\r\n".encode(),
        "half the body": (f"POST /api/games/{game}/actions HTTP/1.1\r\nHost: x\r\n"
                          "Content-Length: 100\r\n\r\n{\"id\"").encode(),
    }
    socks = []
    started = time.monotonic()
    for kind, data in partial.items():
        for _ in range(4):
            sock = socket.create_connection(address(server.url), timeout=10)
            sock.sendall(data)
            socks.append((kind, sock))
    for kind, sock in socks:
        answer = b""
        while chunk := sock.recv(4096):  # until the server closes the connection
            answer += chunk
        closed = time.monotonic() - started
        assert closed < 4.0, f"{kind}: held {closed:.1f} s"
        if kind == "half the headers":
            assert answer.startswith(b"HTTP/1.1 408 "), answer
        sock.close()
    # A slow but timely client, and the stream opened before, are served.
    with socket.create_connection(address(server.url), timeout=10) as sock:
        for part in (f"GET /api/games/{game} HTTP/1.1\r\n", "Host: x\r\n",
                     "Connection: close\r\n\r\n"):
            sock.sendall(part.encode())
            time.sleep(limit / 6)
        assert sock.recv(4096).startswith(b"HTTP/1.1 200 ")
    time.sleep(max(0.0, 2.5 * limit - (time.monotonic() - started)))
    made = create(c)
    assert stream.status == 200 and len(stream.events) == 1
    r = act(c, made["id"], made["tokens"]["Ann"], {"id": 5, "type": "pass", "entity": "Ann"})
    assert r.status_code == 409
    stream.close()
    assert "Traceback" not in server_log(server)


# --- item 12: stream tickets -------------------------------------------------------------------


def first_event(url: str, path: str, **params: str) -> tuple[int, dict[str, Any]]:
    stream = EventStream(url, path, **params)
    try:
        if stream.status != 200:
            return stream.status or 0, {}
        wait_for(lambda: len(stream.events) >= 1, 30)
        return 200, json.loads(stream.events[0][1])
    finally:
        stream.close()


def ticket(c: httpx.Client, game: str, token: str | None, **params: str) -> httpx.Response:
    return c.post(f"/api/games/{game}/stream-ticket", headers=auth(token) if token else {},
                  params=params)


def test_a_stream_opens_with_a_single_use_ticket_not_a_token(
        tmp_path: Path, start_server: Start) -> None:
    server = start_server(tmp_path / "db", "--stream-ticket-seconds", "1")
    c = client(server.url)
    made = create(c)
    game, tokens = made["id"], made["tokens"]
    events = f"/api/games/{game}/events"
    r = ticket(c, game, tokens["Ann"])
    assert r.status_code == 200 and r.json()["expires_in"] == 1
    ann = r.json()["ticket"]
    assert tokens["Ann"] not in ann
    status, state = first_event(server.url, events, ticket=ann)
    assert status == 200 and state["seat"] == "Ann"
    # Once only; another game's ticket is no ticket here; a ticket needs a seat's token.
    reused = c.get(events, params={"ticket": ann})
    assert reused.status_code == 401 and "already used" in reused.json()["detail"]
    other = create(c)
    elsewhere = ticket(c, other["id"], other["tokens"]["Bob"]).json()["ticket"]
    # Good for a second only (the last ticket issued: an issue drops the expired ones).
    late = ticket(c, game, tokens["Bob"]).json()["ticket"]
    issued = time.monotonic()
    r = c.get(events, params={"ticket": elsewhere})
    assert r.status_code == 401 and r.json()["detail"] == "ticket: not a ticket of this game"
    assert ticket(c, game, None).status_code == 401
    assert ticket(c, game, "z" * 32).status_code == 401
    assert ticket(c, game, tokens["Ann"], seat="Bob").status_code == 403
    time.sleep(max(0.0, issued + 1.2 - time.monotonic()))
    r = c.get(events, params={"ticket": late})
    assert r.status_code == 401 and r.json()["detail"].startswith("ticket: expired")
    # A token in the URL is refused (it would reach access logs); the header still works.
    r = c.get(events, params={"token": tokens["Ann"]})
    assert r.status_code == 400 and "?ticket=" in r.json()["detail"]
    security_headers(r)
    status, state = first_event(server.url, events, token=tokens["Cat"])  # as a header
    assert status == 200 and state["seat"] == "Cat"


def test_a_ticket_from_one_process_opens_a_stream_on_another(
        tmp_path: Path, start_server: Start) -> None:
    one = start_server(tmp_path / "db")
    two = start_server(tmp_path / "db")  # the same database
    made = create(client(one.url))
    issued = ticket(client(one.url), made["id"], made["tokens"]["Bob"]).json()["ticket"]
    status, state = first_event(two.url, f"/api/games/{made['id']}/events", ticket=issued)
    assert status == 200 and state["seat"] == "Bob"
    r = client(one.url).get(f"/api/games/{made['id']}/events", params={"ticket": issued})
    assert r.status_code == 401
    # A stop ends the streams open at once, before its wait of up to 2 s for the answers under
    # way (a stream's answer never completes: it held every stop for the whole wait).
    stream = EventStream(two.url, f"/api/games/{made['id']}/events")
    wait_for(lambda: len(stream.events) >= 1, 30)
    begun = time.monotonic()
    two.stop()
    stopped = time.monotonic() - begun
    stream.join(10)  # the stream's end reached the page
    assert stopped < 1.5, f"the stop took {stopped:.1f} s"


RECORD_STREAMS = """
(() => {
  window.__streams = [];
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url, ...rest) {
      super(url, ...rest);
      window.__streams.push(this);
    }
  };
})();
"""


def test_the_game_page_follows_its_stream_with_tickets(
        browser: Browser, server_url: str) -> None:
    c = client(server_url)
    made = create(c)
    game, tokens = made["id"], made["tokens"]
    # wait_for_function evaluates strings, which the CSP forbids (as in test_browser.py).
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.add_init_script(RECORD_STREAMS)
    try:
        page.goto(server_url + made["links"]["Ann"])
        page.wait_for_function("window.__streams.length === 1 "
                               "&& window.__streams[0].readyState === 1", polling=100)
        # Bob bonds: Ann's page hears of it.
        bond = option(view(c, game, tokens["Bob"]), "place_bond")
        assert act(c, game, tokens["Bob"], bond).status_code == 200
        page.wait_for_function("document.getElementById('history-at')?.max === '1'",
                               polling=100)
        # The stream fails (a restarted server, a dropped connection): the page opens a new
        # one with a new ticket, resuming after the action it has.
        page.evaluate("window.__streams[0].dispatchEvent(new Event('error'))")
        page.wait_for_function("window.__streams.length === 2 "
                               "&& window.__streams[1].readyState === 1", polling=100)
        bond = option(view(c, game, tokens["Cat"]), "place_bond")
        assert act(c, game, tokens["Cat"], bond).status_code == 200
        page.wait_for_function("document.getElementById('history-at')?.max === '2'",
                               polling=100)
        streams = page.evaluate("window.__streams.map((s) => s.url)")
        assert [s.split("?")[1].split("=")[0] for s in streams] == ["ticket", "ticket"]
        assert streams[1].endswith("&after=1") and streams[0] != streams[1].split("&")[0]
        assert not [u for u in urls if tokens["Ann"] in u]  # the token is in no URL
        assert errors == []
    finally:
        context.close()


# --- item 11: /docs ----------------------------------------------------------------------------


def test_the_api_page_draws_under_the_csp_from_the_servers_own_assets(
        browser: Browser, server_url: str) -> None:
    page = browser.new_page()
    violations: list[str] = []
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda msg: violations.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    try:
        response = page.goto(server_url + "/docs")
        assert response is not None and response.status == 200
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector(".opblock-summary-path", timeout=30_000)
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        assert any("/api/games/{game_id}/stream-ticket" in p for p in paths), paths
        assert violations == []
        assert all(r.startswith(server_url) for r in requests), requests
    finally:
        page.close()
    assert httpx.get(server_url + "/redoc").status_code == 404
