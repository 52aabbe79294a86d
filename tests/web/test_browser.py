"""The browser UI driven by Playwright for Python in Debian's chromium (``make chromium``).

Every test runs against the real server (``server_url``, tests/web/conftest.py) on loopback.
Mid-game positions come from the fixture logs in tests/games, imported truncated (``POST
/api/games/import``); the page is then driven as a player would: clicks, keys and dialogs.
Screenshots of the main screens are taken at laptop and phone sizes into the test's
directory, and copied to docs/screenshots/ when ``INDIA1853_SCREENSHOTS=1``. The operating
rounds are in test_browser_operating.py (two files, so that two test workers share them).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pagepool import PagePool
from playwright.sync_api import Page, ViewportSize, expect

GAMES = Path(__file__).parent.parent / "games"
SCREENSHOTS = Path(__file__).parent.parent.parent / "docs" / "screenshots"
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
TIMEOUT_MS = 30_000

# Records every server-sent event the page receives (the frames a WebSocket test would read),
# and every Content Security Policy violation the page reports (the CSP test below), both from
# before the page's own scripts run.
RECORD_EVENTS = """
(() => {
  window.__csp = [];
  document.addEventListener("securitypolicyviolation",
    (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
  window.__frames = [];
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => window.__frames.push(e.data));
    }
  };
})();
"""


class Errors:
    """Uncaught errors of the page's scripts: every test ends with none."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("pageerror", lambda exc: self.seen.append(str(exc)))


class Pages:
    """Opens pages for a test, each in a context of its own (its own cookies and storage), under
    the server's real Content Security Policy: a page an earlier test used, handed back clean
    after the test (pagepool.py: a new context and its first page cost chromium about 2 CPU-s
    more)."""

    def __init__(self, pool: PagePool) -> None:
        self.pool = pool
        self.taken: list[Page] = []

    def new(self, viewport: ViewportSize = LAPTOP,
            permissions: tuple[str, ...] = ()) -> tuple[Page, Errors]:
        page = self.pool.take(viewport, permissions, RECORD_EVENTS)
        self.taken.append(page)
        return page, Errors(page)

    def close(self) -> None:
        for page in self.taken:
            self.pool.give_back(page, RECORD_EVENTS)


@pytest.fixture
def pages(page_pool: PagePool) -> Iterator[Pages]:
    opened = Pages(page_pool)
    yield opened
    opened.close()


def shot(page: Page, name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.png"
    # The caret is hidden (Playwright's default) only when a text field has the focus: hiding
    # it adds and removes a style sheet, a restyle of the whole page and its board (about a
    # fifth of a screenshot's CPU); with no caret on the page the picture is the same.
    editing = page.evaluate("document.activeElement?.matches("
                            "'input, textarea, [contenteditable]') ?? false")
    page.screenshot(path=str(path), caret="hide" if editing else "initial")
    assert path.stat().st_size > 10_000
    if os.environ.get("INDIA1853_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, SCREENSHOTS / path.name)


def import_game(url: str, fixture: str, actions: int, *, hotseat: bool = True,
                hints: bool = False, bots: dict[str, str] | None = None) -> dict[str, Any]:
    """A fixture game's first ``actions`` actions, imported as a new game (``bots``: the
    seats the server's bots play, as a save file's ``table.bots``)."""
    log = json.loads((GAMES / fixture).read_text())
    body: dict[str, Any] = {k: log[k] for k in ("engine_version", "settings")}
    if bots:
        body["table"] = {"bots": bots}
    body["actions"] = log["actions"][:actions]
    r = httpx.post(f"{url}/api/games/import", params={"hotseat": str(hotseat).lower(),
                                                      "hints": str(hints).lower()},
                   json=body, timeout=120)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def last_action(url: str, game_id: str) -> dict[str, Any]:
    log = httpx.get(f"{url}/api/games/{game_id}/log", timeout=60).json()
    entry: dict[str, Any] = log["actions"][-1]
    return entry


def wait_for_action(page: Page, n: int) -> None:
    """Until the page shows the game after action ``n`` (polled on a timer: animation frames
    do not come to a page in the background)."""
    page.wait_for_function(f"() => document.getElementById('history-at')?.max === '{n}'",
                           polling=100)


def action_count(page: Page) -> int:
    return int(page.get_attribute("#history-at", "max") or "0")


def open_game(page: Page, url: str, link: str) -> None:
    page.goto(url + link)
    page.wait_for_function("() => (document.getElementById('history-at')?.max ?? '') !== ''",
                           polling=100)
    confirm_cover(page)
    expect(page.locator("#headline")).not_to_be_empty()


def confirm_cover(page: Page) -> str | None:
    """At a shared (hotseat) screen covered with "Pass to Ann": Ann confirms ("I am Ann") and
    the page shows her view. The seat confirmed; None when the screen was not covered."""
    if not page.locator("#cover").is_visible():
        return None
    seat = page.inner_text("#cover-confirm").removeprefix("I am ")
    page.click("#cover-confirm")
    page.wait_for_function(f"() => document.body.dataset.viewer === {json.dumps(seat)}",
                           polling=100)
    return seat


def view_as(page: Page, seat: str) -> None:
    """At a shared screen: the page shows ``seat``'s view (a cover confirmed by whoever it
    asks for; then, for another seat, the seat menu and that seat's own confirmation)."""
    confirm_cover(page)
    if page.evaluate("document.body.dataset.viewer") != seat:
        page.select_option("#seat-select", label=seat)
        expect(page.locator("#cover-confirm")).to_have_text(f"I am {seat}")
        confirm_cover(page)


# --- the pages kept between tests (pagepool.py) -------------------------------------------------


def test_a_page_comes_back_clean_for_the_next_test(page_pool: PagePool, server_url: str) -> None:
    """A page handed back is handed out again (no new context) without what the last test
    left: its listeners, cookies, storage and viewport."""
    page = page_pool.take(LAPTOP, ("clipboard-read",), RECORD_EVENTS)
    heard: list[str] = []
    page.on("console", lambda message: heard.append(message.text))
    page.goto(server_url + "/")
    page.evaluate("localStorage.setItem('left', '1'); sessionStorage.setItem('left', '2')")
    page.context.add_cookies([{"name": "left", "value": "3", "url": server_url}])
    page_pool.give_back(page, RECORD_EVENTS)
    opened = page_pool.opened
    again = page_pool.take(PHONE, (), RECORD_EVENTS)
    try:
        assert again is page and page_pool.opened == opened
        assert again.viewport_size == PHONE
        assert again.context.cookies() == []
        again.goto(server_url + "/")
        assert again.evaluate(
            "[localStorage.getItem('left'), sessionStorage.getItem('left')]") == [None, None]
        assert again.evaluate("navigator.permissions.query({name: 'clipboard-read'})"
                              ".then(p => p.state)") != "granted"
        again.evaluate("console.log('after')")
        again.wait_for_function("() => window.__frames !== undefined")  # the init script stays
        assert "after" not in heard
    finally:
        page_pool.give_back(again, RECORD_EVENTS)


# --- lobby, contract bids, shares, undo ---------------------------------------------------------


def test_hotseat_game_from_the_lobby_bonds_claims_shares_and_undo(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    page, errors = pages.new(permissions=("clipboard-read", "clipboard-write"))
    page.goto(server_url + "/")
    page.fill("#seed", "11")
    page.click("button[type=submit]")
    play = page.get_by_role("link", name="Play here (hotseat, every human seat)")
    expect(play).to_be_visible()
    expect(page.locator("#games tbody tr")).not_to_have_count(0)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "lobby-laptop", tmp_path)
    # Copy a link: the clipboard holds the full address.
    copy = page.get_by_role("button",
                            name="Copy the link for Play here (hotseat, every human seat)")
    copy.click()
    expect(copy).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == server_url + play.get_attribute("href")
    play.click()
    wait_for_action(page, 0)
    assert page.locator(".hex-target").count() > 100  # the board with its click targets

    # Stage 1: three secret bonds, each in the seat's own dialog (the shared screen is covered
    # between seats: "Pass to Bob", test_browser_hotseat.py).
    for i in range(3):
        confirm_cover(page)
        page.click("#open-secret")
        dialog = page.locator("#secret-dialog")
        expect(dialog).to_be_visible()
        if i == 0:
            shot(page, "bond-dialog-laptop", tmp_path)
        page.select_option("#bond-amount", index=i + 1)
        page.click("#place-bond")
        wait_for_action(page, i + 1)
        expect(dialog).to_be_hidden()

    # Stage 2: cities (secret) and shares, in turn order, until the first stock round.
    for _ in range(40):
        confirm_cover(page)
        if page.locator("button[data-kind=buy-ipo]:enabled").count():
            break
        n = action_count(page)
        page.click("#open-secret")
        end_bid = page.locator("#secret-dialog button[data-type=pass]")
        if end_bid.count():
            end_bid.click()
        else:
            page.locator("#secret-dialog button[data-type=claim_city]").first.click()
        wait_for_action(page, n + 1)
    else:
        pytest.fail("the contract bids did not end")
    assert last_action(server_url, page.url.split("/games/")[1].split("#")[0])["action"][
        "type"] in ("pass", "claim_city")
    # At a shared screen the seat's contract stays folded until asked for.
    expect(page.locator("#contract li").first).to_be_hidden()
    page.click("#contract summary")
    expect(page.locator("#contract li").first).to_be_visible()
    page.click("#contract summary")
    shot(page, "stock-round-laptop", tmp_path)

    # A purchase from the share table, then undo.
    seat = page.inner_text("#seat-select option:checked")
    buy = page.locator("button[data-kind=buy-ipo]:enabled").first
    company = buy.get_attribute("data-company")
    assert company
    n = action_count(page)
    row = page.locator("#players tbody tr", has_text=seat)
    before = row.inner_text()
    buy.click()
    wait_for_action(page, n + 1)
    game_id = page.url.split("/games/")[1].split("#")[0]
    assert last_action(server_url, game_id)["action"]["type"] == "buy_share"
    view_as(page, seat)
    expect(row).to_contain_text(company)
    assert row.inner_text() != before
    expect(page.locator("#undo")).to_be_enabled()
    page.click("#undo")
    wait_for_action(page, n + 2)
    assert last_action(server_url, game_id)["action"]["type"] == "undo"
    view_as(page, seat)
    expect(page.locator(f"button[data-kind=buy-ipo][data-company={company}]")).to_be_enabled()
    # Redo puts the purchase back.
    expect(page.locator("#redo")).to_be_enabled()
    page.click("#redo")
    wait_for_action(page, n + 3)
    assert last_action(server_url, game_id)["action"]["type"] == "redo"
    view_as(page, seat)
    expect(row).to_contain_text(company)
    # The log, drawn a line at a time as the actions came (panels.js renderLog), is the
    # server's log: each action's line once, in order, and each round's heading.
    log = httpx.get(f"{server_url}/api/games/{game_id}/log", timeout=60).json()["actions"]
    mark = re.compile(r"^— (.+) —$")
    assert [int(v) for v in page.eval_on_selector_all(
        "#log li[value]", "items => items.map((li) => li.getAttribute('value'))")] == [
        e["id"] for e in log if any(not mark.match(line) for line in e["lines"])]
    assert page.locator("#log li.round-mark h3").all_inner_texts() == [
        m.group(1) for e in log for line in e["lines"] if (m := mark.match(line))]
    assert errors.seen == []


def test_the_lobby_shows_why_a_game_is_refused(pages: Pages, server_url: str) -> None:
    page, errors = pages.new()
    page.goto(server_url + "/")
    page.locator(".seat-name-input").nth(1).fill("Ann")  # two seats named Ann
    page.click("button[type=submit]")
    expect(page.locator("#form-error")).to_contain_text("player names must differ")
    expect(page.locator("#created")).to_be_hidden()
    page.locator(".seat-name-input").nth(1).fill("")
    page.click("button[type=submit]")
    expect(page.locator("#form-error")).to_have_text("seat 2: a name is needed")
    assert errors.seen == []


def test_the_lobby_offers_each_editions_variants_and_the_refusals(
        pages: Pages, server_url: str) -> None:
    """The variants come from the server's catalogue for the chosen edition; a combination
    the rulebook forbids is refused with the rule, and an allowed one creates the game."""
    page, errors = pages.new()
    page.goto(server_url + "/")
    expect(page.locator("input[name=variant][value=shortened_game]")).to_be_visible()
    expect(page.locator("input[name=variant][value=simplified]")).to_have_count(0)
    page.select_option("#edition", "first")
    expect(page.locator("input[name=variant][value=simplified]")).to_be_visible()
    expect(page.locator("input[name=variant]")).to_have_count(11)  # alt_start, mik2, mik2_regions
    page.check("input[name=variant][value=simplified]")
    page.check("input[name=variant][value=minimum_companies]")
    page.click("button[type=submit]")
    expect(page.locator("#form-error")).to_contain_text("may not be combined")
    expect(page.locator("#created")).to_be_hidden()
    page.uncheck("input[name=variant][value=minimum_companies]")
    page.click("button[type=submit]")
    expect(page.locator("#created")).to_be_visible()
    games = httpx.get(server_url + "/api/games").json()["games"]
    assert any(g["edition"] == "first" and g["variants"] == ["simplified"] for g in games)
    assert errors.seen == []


def test_the_lobby_seats_as_many_players_as_the_edition_allows(
        pages: Pages, server_url: str) -> None:
    """The numbers of players come from the server (the edition's TABLE 3): seats are added up
    to the most and removed down to the fewest, nothing hard-coded in the page."""
    counts = httpx.get(server_url + "/api/variants").json()["players"]["second"]
    page, errors = pages.new()
    page.goto(server_url + "/")
    seats = page.locator(".seat-name-input")
    add = page.locator("#add-seat")
    while seats.count() < max(counts):
        add.click()
    expect(seats).to_have_count(max(counts))
    expect(add).to_be_disabled()
    remove = page.locator("#seats button")
    while seats.count() > min(counts):
        remove.first.click()
    expect(seats).to_have_count(min(counts))
    expect(remove.first).to_be_disabled()
    expect(add).to_be_enabled()
    assert errors.seen == []


def test_sell_shares_from_the_share_table(pages: Pages, server_url: str) -> None:
    game = import_game(server_url, "random-3p-seed3.json", 25)  # Cat sells next (action 26)
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    expect(page.locator("#hint")).to_be_hidden()  # between humans, off unless enabled
    sell = page.locator("button[data-kind=sell]:enabled")
    expect(sell.first).to_be_visible()
    # Only the shares the seat holds may be sold: every enabled Sell is one of its companies.
    certificates = page.locator("#players tbody tr.you").inner_text()
    for company in sell.evaluate_all("els => els.map(e => e.dataset.company)"):
        assert company in certificates
    sell.first.click()
    wait_for_action(page, 26)
    assert last_action(server_url, game["id"])["action"]["type"] == "sell_shares"
    assert errors.seen == []


def test_hint_shows_the_strong_bots_choice_in_one_line(pages: Pages, server_url: str,
                                                        tmp_path: Path) -> None:
    # (Without hints the button is hidden: test_sell_shares_from_the_share_table.)
    # Cat buys shares next: the line names the choice and the options weighed, with values.
    game = import_game(server_url, "random-3p-seed3.json", 87, hints=True)
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    page.click("#hint")
    line = page.locator("#hint-line")
    expect(line).to_contain_text("Hint for Cat: Buy ")
    expect(line).to_contain_text("Weighed: ")
    assert "\n" not in line.inner_text()
    shot(page, "hint", tmp_path)
    assert action_count(page) == 87  # asking changed nothing
    assert errors.seen == []


# --- two seats: secrets stay with their seat ----------------------------------------------------


def _secrets_of(payload: Any, player: str, keys: tuple[str, ...]) -> list[Any]:
    """Every secret of ``player`` inside a JSON payload: ``keys`` of his player entries
    ("bond", "cities") and of his actions ("amount", "city")."""
    found: list[Any] = []
    if isinstance(payload, dict):
        if payload.get("name") == player or payload.get("entity") == player:
            found += [payload[k] for k in keys if payload.get(k)]
        for value in payload.values():
            found += _secrets_of(value, player, keys)
    elif isinstance(payload, list):
        for value in payload:
            found += _secrets_of(value, player, keys)
    return found


def _received(page: Page, bodies: list[str], frames: list[str]) -> list[Any]:
    """Every JSON payload the page received: answers, server-sent events, WebSocket frames."""
    texts = bodies + page.evaluate("window.__frames") + frames
    assert texts, "the page received nothing"
    return [json.loads(t) for t in texts]


def test_one_seat_never_sees_another_seats_secrets(pages: Pages, server_url: str) -> None:
    created = httpx.post(f"{server_url}/api/games", json={
        "edition": "second", "seed": 3, "hotseat": False,
        "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]}, timeout=60).json()
    ann, ann_errors = pages.new()
    bob, bob_errors = pages.new()
    bodies: list[str] = []

    def keep(response: Any) -> None:
        # The JSON answers (the board's SVG names every city: it is the public map).
        if "/api/" in response.url and "json" in (response.headers.get("content-type") or ""):
            bodies.append(response.text())

    bob.on("response", keep)
    frames: list[str] = []
    bob.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    open_game(ann, server_url, created["links"]["Ann"])
    open_game(bob, server_url, created["links"]["Bob"])

    # Ann's bond: secret until every bond is in (2.5.2).
    ann.click("#open-secret")
    ann.select_option("#bond-amount", index=3)
    ann.click("#place-bond")
    wait_for_action(ann, 1)
    wait_for_action(bob, 1)  # Bob's page follows the game live (server-sent events)
    expect(bob.locator("#players tbody tr", has_text="Ann")).to_contain_text("placed")
    ann_bond = httpx.get(f"{server_url}/api/games/{created['id']}",
                         headers={"Authorization": f"Bearer {created['tokens']['Ann']}"},
                         timeout=60).json()["turn"]["view"]["players"][0]["bond"]
    assert ann_bond
    for payload in _received(bob, bodies, frames):
        assert _secrets_of(payload, "Ann", ("bond", "amount")) == [], "Ann's bond reached Bob"
    assert f"£{ann_bond}" not in bob.inner_text("#players")
    # The other bonds, then the first claims: each claimant's city stays secret (2.5.4).
    for name in ("Bob", "Cat"):
        page = bob if name == "Bob" else None
        token = created["tokens"][name]
        state = httpx.get(f"{server_url}/api/games/{created['id']}",
                          headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
        if page is not None:
            page.click("#open-secret")
            page.click("#place-bond")
        else:
            action = state["turn"]["decisions"][0]["options"][0]["action"]
            r = httpx.post(f"{server_url}/api/games/{created['id']}/actions", json=action,
                           headers={"Authorization": f"Bearer {token}"}, timeout=60)
            assert r.status_code == 200, r.text
    wait_for_action(ann, 3)
    claimed: dict[str, str] = {}
    for _ in range(3):
        for name, page in (("Ann", ann), ("Bob", bob)):
            if page.locator("#open-secret").count():
                n = action_count(page)
                page.click("#open-secret")
                buttons = page.locator("#secret-dialog button[data-type=claim_city]")
                button = buttons.first if name == "Ann" else buttons.last  # different cities
                claimed[name] = button.get_attribute("data-city") or ""
                button.click()
                wait_for_action(page, n + 1)
        if len(claimed) == 2:
            break
        state = httpx.get(f"{server_url}/api/games/{created['id']}",
                          headers={"Authorization": f"Bearer {created['tokens']['Cat']}"},
                          timeout=60).json()
        if state["turn"]["decisions"]:
            action = state["turn"]["decisions"][0]["options"][0]["action"]
            httpx.post(f"{server_url}/api/games/{created['id']}/actions", json=action,
                       headers={"Authorization": f"Bearer {created['tokens']['Cat']}"},
                       timeout=60)
        # Both pages have followed the game to its last action before they are asked again.
        latest = last_action(server_url, created["id"])["id"]
        wait_for_action(ann, latest)
        wait_for_action(bob, latest)
    assert "Ann" in claimed, "Ann was never asked to claim a city"
    assert claimed["Ann"] != claimed.get("Bob")
    latest = last_action(server_url, created["id"])["id"]
    wait_for_action(bob, latest)
    wait_for_action(ann, latest)

    for payload in _received(bob, bodies, frames):
        assert _secrets_of(payload, "Ann", ("cities", "city")) == [], "Ann's city reached Bob"
    assert claimed["Ann"] not in bob.inner_text("#side") + bob.inner_text("header")
    # Ann's own page shows her own bond.
    expect(ann.locator("#players tbody tr", has_text="Ann")).to_contain_text(f"£{ann_bond}")
    assert ann_errors.seen == [] and bob_errors.seen == []


# --- phones and accessibility -------------------------------------------------------------------


def test_phone_layout_touch_targets_and_zoom(pages: Pages, server_url: str,
                                             tmp_path: Path) -> None:
    page, errors = pages.new(PHONE)
    page.goto(server_url + "/")
    viewport = page.get_attribute("meta[name=viewport]", "content") or ""
    assert "user-scalable" not in viewport and "maximum-scale" not in viewport
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "lobby-phone", tmp_path)
    game = import_game(server_url, "greedy-3p-seed3.json", 28)
    open_game(page, server_url, game["hotseat_link"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = page.evaluate("""() => [...document.querySelectorAll('button, select, input, a')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim() || e.getAttribute('aria-label'), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 24 || r.height < 24)
        .map(([t]) => t)""")
    assert small == []
    shot(page, "game-phone", tmp_path)
    width = page.evaluate("document.querySelector('#board svg').getAttribute('width')")
    page.click("#zoom-in")
    assert page.evaluate("document.querySelector('#board svg').getAttribute('width')") != width
    page.click("#decision-body .options.hexes button")
    expect(page.locator("#decision-body .options.tiles button").first).to_be_visible()
    shot(page, "tiles-phone", tmp_path)
    assert errors.seen == []


# --- the first edition's secret bid, composed in the browser ------------------------------------


def test_compose_a_first_edition_secret_bid(pages: Pages, server_url: str,
                                            tmp_path: Path) -> None:
    """14.1-14.5: the player picks the cities and the share each claims; the server prices the
    bid (its bond, 14.4) and refuses an illegal one with the rule; the bid is then submitted."""
    game = import_game(server_url, "first/greedy-4p-seed5.json", 0)
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    page.locator("#open-secret").click()
    dialog = page.locator("#secret-dialog")
    expect(dialog.locator(".bid-composer")).to_be_visible()
    dialog.locator('select[data-city="Delhi"]').select_option("EIR")
    dialog.locator('select[data-city="Cawnpore"]').select_option("EIR")
    expect(page.locator("#bid-error")).to_contain_text("rule 14.2: a bid names 3 to 6 cities")
    expect(page.locator("#submit-bid")).to_be_disabled()
    dialog.locator('select[data-city="Lucknow"]').select_option("EIR")
    expect(page.locator("#bid-bond")).to_contain_text("Bond £80")
    expect(page.locator("#bid-error")).to_be_empty()
    page.locator("#submit-bid").scroll_into_view_if_needed()
    shot(page, "bid-composer-laptop", tmp_path)
    page.locator("#submit-bid").click()
    wait_for_action(page, 1)
    action = last_action(server_url, game["id"])["action"]
    assert action["type"] == "submit_bid"
    # The public log withholds the bid while the others bid (14.5); the bidder's own view
    # holds it whole.
    assert "claims" not in action and "claims" in action["hidden"]
    bidder = action["entity"]
    own = httpx.get(f"{server_url}/api/games/{game['id']}", timeout=60,
                    headers={"Authorization": f"Bearer {game['tokens'][bidder]}"}).json()
    mine = next(p for p in own["turn"]["view"]["players"] if p["name"] == bidder)
    assert mine["cities"] == ["Delhi", "Cawnpore", "Lucknow"]
    assert mine["claims"] == ["EIR", "EIR", "EIR"]
    assert errors.seen == []


# --- the real Content Security Policy (was test_browser_csp.py) ---------------------------------


def test_the_ui_runs_under_the_real_csp(pages: Pages, server_url: str) -> None:
    """The browser UI under the server's real Content Security Policy (security.py): the lobby
    and a game page load, draw the board and follow the game's events with no CSP violation
    (RECORD_EVENTS records them from before the page's own scripts run) and no script error.
    Every pooled page runs under the real CSP (pagepool.py); this test is the one that looks
    for violations."""
    with httpx.Client(base_url=server_url, timeout=60) as c:
        made = c.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"},
                                                      {"name": "Cat"}], "seed": 3}).json()
    page, errors = pages.new()
    for link in ("/", made["links"]["Ann"]):
        response = page.goto(server_url + link)
        assert response is not None
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
        if link != "/":
            # The game page has drawn the board (an SVG) from the API.
            expect(page.locator("#board svg")).to_be_attached(timeout=TIMEOUT_MS)
        assert page.evaluate("window.__csp") == [], link
    assert errors.seen == []
