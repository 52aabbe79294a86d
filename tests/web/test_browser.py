"""The browser UI driven by Playwright for Python in Debian's chromium (``make chromium``).

Every test runs against the real server (``server_url``, tests/web/conftest.py) on loopback.
Mid-game positions come from the fixture logs in tests/games, imported truncated (``POST
/api/games/import``); the page is then driven as a player would: clicks, keys and dialogs.
Screenshots of the main screens are taken at laptop and phone sizes into the test's
directory, and copied to docs/screenshots/ when ``INDIA1853_SCREENSHOTS=1``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

GAMES = Path(__file__).parent.parent / "games"
SCREENSHOTS = Path(__file__).parent.parent.parent / "docs" / "screenshots"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 30_000

# Records every server-sent event the page receives (the frames a WebSocket test would read).
RECORD_EVENTS = """
(() => {
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is missing: `make chromium` installs it"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium)
        try:
            yield b
        finally:
            b.close()


class Errors:
    """Uncaught errors of the page's scripts: every test ends with none."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("pageerror", lambda exc: self.seen.append(str(exc)))


class Pages:
    """Opens pages, each in a context of its own (its own cookies and connections); every
    context is closed after the test, so no page of an earlier test holds a stream open."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []

    def new(self, viewport: dict[str, int] = LAPTOP,
            permissions: tuple[str, ...] = ()) -> tuple[Page, Errors]:
        # Playwright evaluates wait_for_function's string predicates with eval, which the
        # server's CSP forbids; the UI itself runs under the real CSP in test_browser_csp.py.
        context = self.browser.new_context(
            viewport=viewport, permissions=list(permissions),  # type: ignore[arg-type]
            bypass_csp=True)
        self.contexts.append(context)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        page.add_init_script(RECORD_EVENTS)
        return page, Errors(page)


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    for context in opened.contexts:
        context.close()


def shot(page: Page, name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path))
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
    page.wait_for_function(f"document.getElementById('history-at')?.max === '{n}'",
                           polling=100)


def action_count(page: Page) -> int:
    return int(page.get_attribute("#history-at", "max") or "0")


def open_game(page: Page, url: str, link: str) -> None:
    page.goto(url + link)
    page.wait_for_function("(document.getElementById('history-at')?.max ?? '') !== ''",
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
    page.wait_for_function(f"document.body.dataset.viewer === {json.dumps(seat)}", polling=100)
    return seat


def view_as(page: Page, seat: str) -> None:
    """At a shared screen: the page shows ``seat``'s view (a cover confirmed by whoever it
    asks for; then, for another seat, the seat menu and that seat's own confirmation)."""
    confirm_cover(page)
    if page.evaluate("document.body.dataset.viewer") != seat:
        page.select_option("#seat-select", label=seat)
        expect(page.locator("#cover-confirm")).to_have_text(f"I am {seat}")
        confirm_cover(page)


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
    plain = import_game(server_url, "random-3p-seed3.json", 25)
    page, errors = pages.new()
    open_game(page, server_url, plain["hotseat_link"])
    expect(page.locator("#hint")).to_be_hidden()  # between humans, off unless enabled
    # Cat buys shares next: the line names the choice and the options weighed, with values.
    game = import_game(server_url, "random-3p-seed3.json", 87, hints=True)
    open_game(page, server_url, game["hotseat_link"])
    page.click("#hint")
    line = page.locator("#hint-line")
    expect(line).to_contain_text("Hint for Cat: Buy ")
    expect(line).to_contain_text("Weighed: ")
    assert "\n" not in line.inner_text()
    shot(page, "hint", tmp_path)
    assert action_count(page) == 87  # asking changed nothing
    assert errors.seen == []


# --- operating rounds ---------------------------------------------------------------------------


def test_lay_a_tile_rotating_it_by_click_and_key(pages: Pages, server_url: str,
                                                   tmp_path: Path) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 27)  # GIP's first turn
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    page.locator("button[data-type=choose_lay_option]").first.click()
    wait_for_action(page, 28)
    offered = page.locator(".hex-target.offered")
    expect(offered.first).to_be_attached()
    assert offered.count() >= 2
    expect(page.locator(".entity-card")).to_contain_text("GIP")
    expect(page.locator("#status-strip")).to_contain_text("On sale: 2/1M")
    hex_ = offered.first.get_attribute("data-hex")
    assert hex_
    # Keyboard: the offered hexes are focusable buttons; Enter chooses one.
    offered.first.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f".hex-target.selected[data-hex={hex_}]")).to_be_attached()
    tiles = page.locator("#decision-body .options.tiles button")
    expect(tiles.first).to_be_visible()
    # A tile with more than one legal rotation, if any, shows rotating best.
    for i in range(tiles.count()):
        tiles.nth(i).click()
        if page.locator("#rotate:enabled").count():
            break
    preview = page.locator("#decision-body .preview")
    expect(preview).to_be_visible()
    expect(page.locator(".preview-tile")).to_be_attached()
    if page.locator("#rotate:enabled").count():
        first = preview.inner_text()
        page.click("#rotate")
        assert preview.inner_text() != first
        page.locator("body").press("r")  # the key cycles too
        page.locator("body").press("R")  # and back
    shot(page, "tile-preview-laptop", tmp_path)
    chosen = page.inner_text("#decision-body .preview strong")  # "Tile 5, rotation 0"
    page.click("#confirm")
    wait_for_action(page, 29)
    done = last_action(server_url, game["id"])["action"]
    assert done["type"] in ("lay_tile", "promote_tile") and done["hex"] == hex_
    assert chosen == f"Tile {done['tile']}, rotation {done['rotation']}"
    assert errors.seen == []


def test_tile_choices_are_the_renderers_pictures_with_cost_and_revenue(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    """Issue 21 item 3: each tile choice is the board renderer's picture of the tile as it
    would lie, with the turn model's cost and revenue; the chosen rotation turns the picture;
    the pictures are cached by the browser (immutable)."""
    game = import_game(server_url, "greedy-3p-seed3.json", 28)  # GIP lays track
    token = game["hotseat_link"].split("#token=")[1]
    turn = httpx.get(f"{server_url}/api/games/{game['id']}", params={"seat": "Ann"},
                     headers={"Authorization": f"Bearer {token}"}, timeout=60).json()["turn"]
    offered = [o for d in turn["decisions"] for o in d["options"] if o["type"] == "lay_tile"]
    # Each tile's first legal rotation on H20: how its choice shows it.
    at_h20 = {o["ui"]["tile"]: o for o in sorted(offered, key=lambda o: -o["ui"]["rotation"])
              if o["ui"]["hex"] == "H20"}
    assert len(at_h20) >= 2
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    page.get_by_role("button", name="Hex H20", exact=False).click()
    choices = page.locator("#decision-body .options.tiles button.tile-choice")
    expect(choices).to_have_count(len(at_h20))
    for i in range(choices.count()):
        choice = choices.nth(i)
        tile = choice.get_attribute("data-tile")
        assert tile in at_h20
        option = at_h20[tile]
        picture = choice.locator("img.tile-picture")
        # The picture is loaded (drawn), the tile at its first legal rotation.
        expect(picture).to_have_attribute(
            "src", f"/api/tiles/second/{tile}.svg?rotation={option['ui']['rotation']}&v=1")
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0",
                               arg=picture.element_handle(), polling=100)
        words = choice.inner_text()
        assert f"#{tile}" in words
        assert (f"costs £{option['cost']}" if option["cost"] else "free") in words
        values = " + ".join(f"£{v}" for v in option["ui"]["values"])
        assert f"revenue {values}" in words
    # The chosen tile's legal rotations, each a picture; rotating turns the preview's picture.
    choices.first.click()
    preview = page.locator("#decision-body .tile-preview img.tile-picture")
    before = preview.get_attribute("src")
    rotations = page.locator("#decision-body .options.rotations button")
    if rotations.count() > 1:
        page.click("#rotate")
        assert preview.get_attribute("src") != before
        expect(rotations.nth(1)).to_have_attribute("aria-pressed", "true")
    shot(page, "tile-choices-laptop", tmp_path)
    # One picture per tile and rotation, the same for every game: the browser keeps it.
    r = httpx.get(server_url + (before or ""), timeout=60)
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "immutable" in r.headers["cache-control"]
    assert httpx.get(f"{server_url}/api/tiles/second/nonesuch.svg", timeout=60).status_code == 404
    page.click("#confirm")
    wait_for_action(page, 29)
    assert errors.seen == []


def test_a_tile_laid_by_keyboard_alone(pages: Pages, server_url: str) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 28)  # GIP lays track
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])

    def tab_to(selector: str) -> None:
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
        pytest.fail(f"Tab never reached {selector}")

    tab_to(".hex-target.offered")  # the offered hexes are in the tab order, named
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    hex_ = page.evaluate("document.activeElement.dataset.hex")
    assert label.startswith(hex_) and "offered" in label
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.closest('.options.tiles') !== null")
    page.keyboard.press("Enter")  # the first tile
    assert page.evaluate("document.activeElement.id") == "confirm"
    preview = page.locator("#decision-body .preview p").first
    before = preview.inner_text()
    page.keyboard.press("r")
    if page.locator("#rotate:enabled").count():
        expect(preview).not_to_have_text(before)
    tab_to("#confirm")
    page.keyboard.press("Enter")
    wait_for_action(page, 29)
    assert last_action(server_url, game["id"])["action"]["hex"] == hex_
    assert errors.seen == []


def test_cancel_leaves_the_game_unchanged(pages: Pages, server_url: str) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 28)  # GIP lays track
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    page.locator("#decision-body .options.hexes button").first.click()
    page.locator("#decision-body .options.tiles button").first.click()
    expect(page.locator(".preview-tile")).to_be_attached()
    page.click("#cancel")
    expect(page.locator(".preview-tile")).to_have_count(0)
    expect(page.locator(".hex-target.selected")).to_have_count(0)
    assert last_action(server_url, game["id"])["id"] == 28
    assert errors.seen == []


def test_place_a_base(pages: Pages, server_url: str) -> None:
    game = import_game(server_url, "random-3p-seed3.json", 210)  # GIP places a base next
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    offered = page.locator(".hex-target.offered")
    expect(offered.first).to_be_attached()
    hex_ = offered.first.get_attribute("data-hex")
    offered.first.click()
    page.click("#confirm")
    wait_for_action(page, 211)
    done = last_action(server_url, game["id"])["action"]
    assert done["type"] == "place_base" and done["hex"] == hex_
    assert errors.seen == []


def test_runs_are_drawn_one_style_per_train(pages: Pages, server_url: str,
                                            tmp_path: Path) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 51)  # GIP runs two trains
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    routes = page.locator("#run-routes li")
    expect(routes).to_have_count(2)
    expect(page.locator("path.route-line")).to_have_count(4)  # each route: halo and line
    expect(routes.first).to_contain_text("mail")
    styles = page.evaluate("""[...document.querySelectorAll('path.route-line')]
        .filter(p => p.getAttribute('stroke') !== '#fff')
        .map(p => p.getAttribute('stroke') + ' ' + p.getAttribute('stroke-dasharray'))""")
    assert len(set(styles)) == 2  # colour and dash differ
    shot(page, "run-laptop", tmp_path)
    # Change it: leave the second train out; the engine checks the changed run.
    page.click("#change-run summary")
    page.uncheck("#run-train-1")
    page.click("#run-changed")
    wait_for_action(page, 52)
    done = last_action(server_url, game["id"])["action"]
    assert done["type"] == "run_routes" and len(done["routes"]) == 1
    assert errors.seen == []


def test_a_changed_run_the_engine_refuses_shows_why(pages: Pages, server_url: str) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 51)
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    page.click("#change-run summary")
    page.fill("#run-hexes-0", "M9:st2 Q17")
    page.click("#run-changed")
    expect(page.locator("#error")).to_contain_text("routes[0].hexes[1]: Q17 is not next to M9")
    assert last_action(server_url, game["id"])["id"] == 51
    expect(page.locator("#accept-run")).to_be_visible()
    assert errors.seen == []


def test_a_run_drawn_by_clicking_stations_checked_live(pages: Pages, server_url: str,
                                                      tmp_path: Path) -> None:
    """Issue 21 item 4: a train's route drawn by clicking its stations on the board (and by
    keyboard), the engine filling in the track between, with the train's reach, the revenue so
    far and the engine's verdict shown as it is drawn; a refused run keeps the editor open with
    its text; the optimal run stays the default."""
    game = import_game(server_url, "greedy-3p-seed3.json", 149)  # GIP runs three '2' trains
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    expect(page.locator("#accept-run")).to_be_visible()  # the optimal run, one click away
    optimal = page.locator("#decision-body .preview > p.effect").inner_text()
    page.click("#change-run summary")
    verdict = page.locator("#run-verdict")
    expect(verdict).to_have_text(f"Accepted: {optimal}")
    expect(page.locator("#run-hexes-0")).to_have_value("M9:st2 N10:st1 M11 M13 L14 L16 K17:st1")
    # Train 1 (the mail train) drawn anew: Clear starts drawing it on the board.
    page.click("#run-clear-0")
    expect(page.locator("#run-hexes-0")).to_have_value("")
    expect(verdict).to_contain_text("Not accepted")
    page.locator(".hex-target.offered[data-hex=M9]").click()  # Bombay
    status = page.locator("#run-status-0")
    expect(status).to_contain_text("Click the next hex")
    expect(status).to_contain_text("A '2' train runs to up to 2 Large Stations")
    page.locator(".hex-target.offered[data-hex=N10]").click()  # a town beside it
    expect(page.locator("#run-hexes-0")).to_have_value("M9:st2 N10")
    expect(status).to_contain_text("So far: 2 stations (1 of 2 Large)")
    # Nagpur, four hexes on, by keyboard: the hexes with track are buttons while drawing; the
    # engine fills in the track between.
    target = page.locator(".hex-target[data-hex=K17]")
    expect(target).to_have_attribute("role", "button")
    target.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#run-hexes-0")).to_have_value("M9:st2 N10 M11 M13 L14 L16 K17")
    expect(status).to_contain_text("So far: 3 stations (2 of 2 Large)")
    expect(verdict).to_have_text(f"Accepted: {optimal}")
    expect(page.locator("path.route-line")).to_have_count(6)  # the run as drawn, on the board
    shot(page, "run-drawing-laptop", tmp_path)
    # The last hex again takes it back: the run is refused, live and when submitted, and the
    # editor stays open with its text.
    page.locator(".hex-target[data-hex=K17]").click()
    expect(page.locator("#run-hexes-0")).to_have_value("M9:st2 N10 M11 M13 L14 L16")
    expect(verdict).to_contain_text("Not accepted: rule 4.5.4")
    page.click("#run-changed")
    expect(page.locator("#error")).to_contain_text("rule 4.5.4")
    assert last_action(server_url, game["id"])["id"] == 149
    expect(page.locator("#change-run")).to_have_attribute("open", "")
    expect(page.locator("#run-hexes-0")).to_have_value("M9:st2 N10 M11 M13 L14 L16")
    expect(verdict).to_contain_text("Not accepted: rule 4.5.4")
    # Nagpur again, and run: the action posted is the run as drawn.
    page.click("#run-draw-0")
    page.locator(".hex-target[data-hex=K17]").click()
    expect(verdict).to_have_text(f"Accepted: {optimal}")
    page.click("#run-changed")
    wait_for_action(page, 150)
    done = last_action(server_url, game["id"])["action"]
    assert done["type"] == "run_routes"
    assert done["routes"][0]["hexes"] == ["M9:st2", "N10", "M11", "M13", "L14", "L16", "K17"]
    assert errors.seen == []


def test_undo_takes_back_ones_decision_with_the_bots_replies(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    """Issue 21 item 8: the bots answer at once, so Ann's purchase is never the last action
    when she looks; her undo takes back the bots' replies with it, and it is her turn again."""
    game = import_game(server_url, "greedy-3p-seed3.json", 18, hotseat=False,
                       bots={"Bob": "greedy", "Cat": "greedy"})  # Ann buys next (action 19)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Ann"])
    buy = page.locator("button[data-kind=buy-ipo]:enabled").first
    company = buy.get_attribute("data-company")
    buy.click()
    # Cat and Bob reply; Ann decides again.
    page.wait_for_function("Number(document.getElementById('history-at')?.max) >= 21",
                           polling=100)
    expect(page.locator("#undo")).to_be_enabled()
    label = page.inner_text("#undo")
    replies = int(label.split("and ")[1].split(" bot")[0])
    n = action_count(page)
    assert replies == n - 19 and replies >= 2
    shot(page, "undo-with-bot-replies-laptop", tmp_path)
    page.click("#undo")
    wait_for_action(page, n + replies + 1)
    log = httpx.get(f"{server_url}/api/games/{game['id']}/log", timeout=60).json()["actions"]
    assert [e["action"]["type"] for e in log[n:]] == ["undo"] * (replies + 1)
    assert log[-1]["action"]["entity"] == "Ann"
    expect(page.locator(f"button[data-kind=buy-ipo][data-company={company}]")).to_be_enabled()
    expect(page.locator("#redo")).to_be_enabled()
    assert errors.seen == []


def test_accept_the_optimal_run_pay_out_and_buy_a_train(pages: Pages, server_url: str) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 104)  # MSM runs, pays, buys
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    expect(page.locator("#run-routes li")).to_have_count(1)
    page.click("#accept-run")
    wait_for_action(page, 105)
    assert last_action(server_url, game["id"])["action"]["type"] == "run_routes"
    page.click("button[data-type=dividend][data-kind=payout]")
    wait_for_action(page, 106)
    assert last_action(server_url, game["id"])["action"]["kind"] == "payout"
    page.locator("button[data-type=buy_train]").first.click()
    wait_for_action(page, 107)
    assert last_action(server_url, game["id"])["action"]["type"] == "buy_train"
    # History: back to action 104, read-only, one more back, and back to the game.
    page.fill("#history-at", "104")
    page.click("#history-form button[type=submit]")
    expect(page.locator("#history-banner")).to_contain_text("after action 104")
    expect(page.locator("#undo")).to_be_disabled()
    page.click("#history-back")
    expect(page.locator("#history-banner")).to_contain_text("after action 103")
    page.click("#history-live")
    expect(page.locator("#history-banner")).to_be_hidden()
    wait_for_action(page, 107)
    assert errors.seen == []


def test_the_end_shows_final_scores_and_charts(pages: Pages, server_url: str,
                                               tmp_path: Path) -> None:
    log = json.loads((GAMES / "greedy-3p-seed3.json").read_text())
    game = import_game(server_url, "greedy-3p-seed3.json", len(log["actions"]))
    page, errors = pages.new()
    open_game(page, server_url, game["spectator"])
    scores = page.locator("#scores li")
    expect(scores).to_have_count(3)
    best = max(log["final_scores"].items(), key=lambda item: item[1])
    expect(scores.first).to_contain_text(best[0])
    expect(scores.first).to_contain_text(f"£{best[1]:,}")
    # The market track: a marker for each of the seven companies with a price (not the BBCI).
    markers = page.locator("#market .marker")
    expect(markers).to_have_count(7)
    assert "BBCI" not in markers.all_inner_texts()
    expect(page.locator("#status-strip")).to_contain_text("Phase 5")
    chart = page.locator("#scores img")
    expect(chart).to_be_visible()
    page.wait_for_function("document.querySelector('#scores img').naturalWidth > 0")
    shot(page, "final-laptop", tmp_path)
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
        ann.wait_for_timeout(300)
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
