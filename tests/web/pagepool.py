"""Browser pages kept open from one browser test to the next (issue 20: `make test` under 6
minutes).

Chromium spends about 2 CPU-s on a new context and its first page (a new renderer process, its
fonts and scripts compiled cold) before a game page has drawn anything; the same page taken
to the next game costs well under half of that (docs/test-speed.md, branch `browsercpu`). So
a test's page is, by default, a page an earlier test used, handed back clean:

- the listeners the test added (``page.on``) are removed, its cookies, permissions and the
  origin's local and session storage are cleared, and the viewport is the one asked for;
- it is parked on a small same-origin document (no script, no event stream, no timer left
  running), not on ``about:blank``: a cross-site navigation would cost a new renderer again;
- a page that crashed, was closed, or whose server is gone is closed, never handed out.

Each page has a context of its own (its own cookies and storage), so two pages of one test are
two browsers as before. The contexts keep the server's real Content Security Policy (no
``bypass_csp``): every browser test runs the UI as a user's browser does, and the test of the
CSP itself (test_browser.py) takes a pooled page instead of a context of its own. The tests'
``wait_for_function`` predicates are functions (``"() => ..."``), which Playwright calls over
the DevTools protocol; a bare expression would be ``eval``'d in the page, which the CSP
forbids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Error, Page, ViewportSize

# A static file of the app: a plain-text document on the server's origin.
PARK = "/static/css/app.css"

CLEAR_STORAGE = """() => {
  try { window.localStorage.clear(); window.sessionStorage.clear(); } catch { /* opaque origin */ }
}"""


def _listeners(page: Page) -> dict[str, list[Callable[..., Any]]]:
    # Playwright's own listeners (a page's close and crash) are there from the start.
    emitter = page._impl_obj  # the sync API has no listing of listeners
    return {event: list(emitter.listeners(event)) for event in emitter.event_names()}


class PagePool:
    """Open pages, each in its own context, waiting for the next test."""

    def __init__(self, browser: Browser, timeout_ms: float) -> None:
        self.browser = browser
        self.timeout_ms = timeout_ms
        self._idle: list[tuple[str, Page]] = []  # (its init script, the page)
        self._before: dict[int, dict[str, list[Callable[..., Any]]]] = {}
        self.opened = 0  # contexts opened (a test of the pool reads it)

    def take(self, viewport: ViewportSize, permissions: Sequence[str] = (),
             init_script: str = "") -> Page:
        page = next((p for s, p in self._idle if s == init_script), None)
        if page is None:
            page = self._open(viewport, init_script)
        else:
            self._idle = [(s, p) for s, p in self._idle if p is not page]
        if permissions:
            page.context.grant_permissions(list(permissions))
        if page.viewport_size != viewport:
            page.set_viewport_size(viewport)
        self._before[id(page)] = _listeners(page)
        return page

    def give_back(self, page: Page, init_script: str = "") -> None:
        before = self._before.pop(id(page), {})
        if page.is_closed():
            return
        emitter = page._impl_obj
        for event, now in _listeners(page).items():
            for listener in now:
                if listener not in before.get(event, []):
                    emitter.remove_listener(event, listener)
        try:
            self._park(page)
            page.context.clear_cookies()
            page.context.clear_permissions()
        except Error:
            self._close(page)
            return
        self._idle.append((init_script, page))

    def close(self) -> None:
        for _, page in self._idle:
            self._close(page)
        self._idle = []

    def _open(self, viewport: ViewportSize, init_script: str) -> Page:
        context = self.browser.new_context(viewport=viewport)  # the real CSP (see above)
        context.set_default_timeout(self.timeout_ms)
        self.opened += 1
        page = context.new_page()
        if init_script:
            page.add_init_script(init_script)
        return page

    def _park(self, page: Page) -> None:
        url = urlsplit(page.url)
        if url.scheme not in ("http", "https"):
            return
        if url.path != PARK:
            page.goto(f"{url.scheme}://{url.netloc}{PARK}", wait_until="load")
        page.evaluate(CLEAR_STORAGE)  # after the game's page is gone: it writes there too

    @staticmethod
    def _close(page: Page) -> None:
        with suppress(Error):  # the browser is gone already
            page.context.close()
