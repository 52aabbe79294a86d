"""The browser UI under the server's real Content Security Policy (security.py): the lobby and
a game page load, draw the board and follow the game's events with no CSP violation and no
script error (Debian's chromium through Playwright, as in test_browser.py)."""

from __future__ import annotations

import shutil
import time

import httpx
from playwright.sync_api import sync_playwright

# Every CSP violation the page reports, recorded before any of its own scripts run.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
"""


def test_the_ui_runs_under_the_real_csp(server_url: str) -> None:
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is missing: `make chromium` installs it"
    with httpx.Client(base_url=server_url, timeout=60) as c:
        made = c.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"},
                                                      {"name": "Cat"}], "seed": 3}).json()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.add_init_script(RECORD_VIOLATIONS)
            for link in ("/", made["links"]["Ann"]):
                response = page.goto(server_url + link)
                assert response is not None
                assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
                page.wait_for_load_state("networkidle")
                deadline = time.monotonic() + 30
                # The game page has drawn the board (an SVG) from the API.
                while link != "/" and page.locator("svg").count() == 0:
                    assert time.monotonic() < deadline, "the board was never drawn"
                    time.sleep(0.2)
                assert page.evaluate("window.__csp") == [], link
            assert errors == []
        finally:
            browser.close()
