"""A shared (hotseat) screen in the browser: "Pass to Ann" covers the game whenever the seat
viewing it changes (the decision passes to another human seat, or the seat menu), and a
seat's view is fetched only after that seat confirms "I am Ann" (issue 19 item 2).

Driven by Playwright in Debian's chromium like test_browser.py. Every JSON answer the page
receives is kept: while the screen is covered none of them carries a seat's secret, and the
page's text holds none either."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import test_browser
from playwright.sync_api import Page, Response, expect
from test_browser import (
    LAPTOP,
    PHONE,
    Pages,
    _secrets_of,
    action_count,
    import_game,
    last_action,
    shot,
    wait_for_action,
)

# test_browser.py's fixture: pages closed after each test (in the worker's one chromium,
# conftest.py).
pages = test_browser.pages

# Everything the page shows or holds: its text, the values of its form fields, its markup.
PAGE_CONTENT = """() => document.documentElement.textContent + '\\n'
  + [...document.querySelectorAll('input, select, textarea')].map(e => e.value).join(' ')"""


class Answers:
    """Every JSON answer of the server to the page, in order (the board SVG is the public map;
    the event stream is read by the page only to learn that something changed)."""

    def __init__(self, page: Page) -> None:
        self.bodies: list[Response] = []  # in the order received (each body read when asked)
        page.on("response", self._keep)

    def _keep(self, response: Response) -> None:
        if "/api/" in response.url and "json" in (response.headers.get("content-type") or ""):
            self.bodies.append(response)

    def since(self, start: int) -> list[tuple[str, Any]]:
        return [(r.url, json.loads(r.text())) for r in self.bodies[start:]]


def covered_for(page: Page, seat: str) -> None:
    """The cover is up, asks for ``seat``, has the keyboard's focus, and nothing behind it."""
    cover = page.locator("#cover")
    expect(cover).to_be_visible()
    expect(page.locator("#cover-title")).to_have_text(f"Pass to {seat}")
    expect(page.locator("#cover-confirm")).to_have_text(f"I am {seat}")
    expect(page.locator("#cover-confirm")).to_be_focused()
    page.wait_for_function("() => document.body.dataset.viewer === ''", polling=100)
    # Nothing behind the cover can be reached: the board, the tables, the decisions.
    assert page.evaluate("document.querySelector('main.layout').inert")
    assert page.evaluate("document.querySelector('header.topbar').inert")
    expect(page.locator("#secret-dialog")).to_be_hidden()
    assert page.locator("#decision-body button").count() == 0


def seat_view(page: Page, seat: str) -> None:
    page.wait_for_function(f"() => document.body.dataset.viewer === {json.dumps(seat)}",
                           polling=100)
    expect(page.locator("#cover")).to_be_hidden()


def no_bond_anywhere(page: Page, answers: Answers, start: int,
                     bonds: dict[str, str]) -> None:
    """No bond of ``bonds`` (player -> "£210") in the page or in its answers since ``start``."""
    content = page.evaluate(PAGE_CONTENT)
    for player, bond in bonds.items():
        assert bond not in content, f"{player}'s bond {bond} is on the covered screen"
        for url, payload in answers.since(start):
            assert _secrets_of(payload, player, ("bond", "amount")) == [], \
                f"{player}'s bond reached the covered page in {url}"


def write_bond(page: Page, index: int) -> str:
    """The seat at the screen writes a bond (the ``index``-th amount offered); its label."""
    page.click("#open-secret")
    expect(page.locator("#secret-dialog")).to_be_visible()
    page.select_option("#bond-amount", index=index)
    amount = page.evaluate(
        "document.querySelector('#bond-amount').selectedOptions[0].textContent")
    n = action_count(page)
    page.click("#place-bond")
    wait_for_action(page, n + 1)
    return "£" + amount.split("£")[1].split()[0]


def test_pass_to_the_next_seat_covers_every_bond(pages: Pages, server_url: str,
                                                 tmp_path: Path) -> None:
    created = httpx.post(f"{server_url}/api/games", json={
        "edition": "second", "seed": 3, "hotseat": True,
        "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]}, timeout=60).json()
    page, errors = pages.new()
    answers = Answers(page)
    page.goto(server_url + created["hotseat_link"])
    # A screen opened at a shared table starts covered: nobody has said who sits at it.
    covered_for(page, "Ann")
    assert answers.bodies, "the page asked the server nothing"
    for url, payload in answers.since(0):
        assert payload.get("seat") is None, f"a seat's view before anyone confirmed: {url}"
    page.keyboard.press("Enter")  # the confirm button has the focus
    seat_view(page, "Ann")
    expect(page.locator("#decisions-title")).to_have_text("Your turn")

    # Ann writes her bond: the decision passes to Bob, and the screen is covered for him.
    start = len(answers.bodies)
    ann = write_bond(page, 3)
    covered_for(page, "Bob")
    expect(page.locator("#cover-reason")).to_have_text("Bob decides next.")
    expect(page.locator("#cover-about")).to_contain_text("Bob")
    shot(page, "hotseat-cover-laptop", tmp_path)
    no_bond_anywhere(page, answers, start, {"Ann": ann})
    # Not even the answer to Ann's own action carried her bond (it is the covered answer).
    assert not any(_secrets_of(p, "Ann", ("bond",)) for _, p in answers.since(0))

    # Bob confirms: his bond dialog; Ann's bond is nowhere (her row says only "placed").
    start = len(answers.bodies)
    page.click("#cover-confirm")
    seat_view(page, "Bob")
    expect(page.locator("#players tbody tr", has_text="Ann")).to_contain_text("placed")
    assert ann not in page.inner_text("#players") + page.inner_text("#status-strip")
    page.click("#open-secret")
    expect(page.locator("#secret-dialog")).to_be_visible()
    expect(page.locator("#secret-title")).to_contain_text("Bob")
    for _url, payload in answers.since(start):
        assert _secrets_of(payload, "Ann", ("bond", "amount")) == [], "Ann's bond reached Bob"
    page.keyboard.press("Escape")
    expect(page.locator("#secret-dialog")).to_be_hidden()

    # The seat menu switched to Ann while Bob is to act: the cover first, for Ann.
    start = len(answers.bodies)
    page.select_option("#seat-select", "Ann")
    covered_for(page, "Ann")
    expect(page.locator("#cover-reason")).to_have_text("Ann was chosen in the seat menu.")
    no_bond_anywhere(page, answers, start, {"Ann": ann})
    page.click("#cover-confirm")
    seat_view(page, "Ann")
    # Ann's own view holds her bond (so the checks above would have seen it).
    expect(page.locator("#players tbody tr", has_text="Ann")).to_contain_text(ann)

    # Back to Bob (covered again), who writes his bond; then Cat: nobody's bond is shown.
    page.select_option("#seat-select", "Bob")
    covered_for(page, "Bob")
    no_bond_anywhere(page, answers, len(answers.bodies), {"Ann": ann})
    page.click("#cover-confirm")
    seat_view(page, "Bob")
    start = len(answers.bodies)
    bob = write_bond(page, 1)
    covered_for(page, "Cat")
    no_bond_anywhere(page, answers, start, {"Ann": ann, "Bob": bob})
    page.click("#cover-confirm")
    seat_view(page, "Cat")
    players = page.inner_text("#players") + page.inner_text("#status-strip")
    assert ann not in players and bob not in players
    assert errors.seen == []


def test_the_cover_on_a_phone_by_keyboard(pages: Pages, server_url: str,
                                          tmp_path: Path) -> None:
    created = httpx.post(f"{server_url}/api/games", json={
        "edition": "second", "seed": 5, "hotseat": True,
        "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]}, timeout=60).json()
    page, errors = pages.new(PHONE)
    page.goto(server_url + created["hotseat_link"])
    covered_for(page, "Ann")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#cover-confirm").bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    # The keyboard reaches nothing behind the cover: Tab visits its own controls only (and
    # the browser's own, where document.activeElement is the body).
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate("""() => document.activeElement === document.body
            || document.getElementById('cover').contains(document.activeElement)""")
    page.locator("#cover-confirm").focus()
    page.keyboard.press("Enter")
    seat_view(page, "Ann")
    write_bond(page, 2)
    covered_for(page, "Bob")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "hotseat-cover-phone", tmp_path)
    page.keyboard.press("Enter")
    seat_view(page, "Bob")
    assert errors.seen == []


def test_a_first_edition_bid_is_covered_before_the_next_seat(pages: Pages, server_url: str,
                                                              ) -> None:
    """14.1-14.5: A composes and submits his secret bid; the screen is covered for the next
    seat, and neither the composer nor its priced bond stays in the page."""
    game = import_game(server_url, "first/greedy-4p-seed5.json", 0)
    page, errors = pages.new(LAPTOP)
    answers = Answers(page)
    page.goto(server_url + game["hotseat_link"])
    expect(page.locator("#cover")).to_be_visible()
    first = page.inner_text("#cover-confirm").removeprefix("I am ")
    page.click("#cover-confirm")
    seat_view(page, first)
    page.locator("#open-secret").click()
    dialog = page.locator("#secret-dialog")
    dialog.locator('select[data-city="Delhi"]').select_option("EIR")
    dialog.locator('select[data-city="Cawnpore"]').select_option("EIR")
    with page.expect_response(lambda r: "/preview" in r.url):  # priced for A, at his screen
        dialog.locator('select[data-city="Lucknow"]').select_option("EIR")
    expect(page.locator("#bid-bond")).to_contain_text("Bond £80")
    start = len(answers.bodies)
    page.locator("#submit-bid").click()
    wait_for_action(page, 1)
    assert last_action(server_url, game["id"])["action"]["type"] == "submit_bid"
    second = page.inner_text("#cover-confirm").removeprefix("I am ")
    assert second != first
    covered_for(page, second)
    assert page.locator("#secret-dialog .bid-composer, #bid-bond, #submit-bid").count() == 0
    assert "Bond £80" not in page.evaluate(PAGE_CONTENT)
    for url, payload in answers.since(start):
        if "/log" in url:  # the public log: the bid's claims withheld (15.1)
            assert _secrets_of(payload, first, ("claims",)) == [], f"{first}'s bid in {url}"
            continue
        assert payload.get("seat") is None, f"a seat's view reached the covered page: {url}"
        assert _secrets_of(payload, first, ("claims",)) == [], f"{first}'s bid in {url}"
    page.click("#cover-confirm")
    seat_view(page, second)
    page.locator("#open-secret").click()
    expect(dialog.locator(".bid-composer")).to_be_visible()
    expect(page.locator("#bid-bond")).to_have_text("Choose cities and the share each claims.")
    assert errors.seen == []


def test_a_mik2_hand_is_covered_when_the_seat_menu_changes(pages: Pages,
                                                            server_url: str) -> None:
    """MIK 2 (first edition): the seat's own cards ("Your cards (secret)") leave the page with
    the cover; the covered answers hold nobody's hand."""
    game = import_game(server_url, "first/random-4p-seed2-mik2.json", 312)  # B holds a card
    page, errors = pages.new(LAPTOP)
    answers = Answers(page)
    page.goto(server_url + game["hotseat_link"])
    covered_for(page, "B")
    page.click("#cover-confirm")
    seat_view(page, "B")
    expect(page.locator("#kit-title")).to_have_text("Your cards (secret)")
    page.click("#kit summary")
    expect(page.locator("#kit-hand")).to_have_text("Disturbances")
    start = len(answers.bodies)
    page.select_option("#seat-select", "A")
    covered_for(page, "A")
    assert page.locator("#kit-hand, .kit-card").count() == 0
    expect(page.locator("#kit-title")).to_have_text("MIK 2 cards")  # the public counts only
    for url, payload in answers.since(start):
        if "/log" in url or "/seats" in url:  # the public log, the seats' state (no view)
            assert _secrets_of(payload, "B", ("cards",)) == [], f"B's cards in {url}"
            continue
        hands = payload["turn"]["view"]["kit"]["hands"]
        assert all(hand is None for hand in hands.values()), f"a hand in {url}"
    page.click("#cover-confirm")
    seat_view(page, "A")
    assert page.locator("[data-card='DISTURBANCES:1']").count() == 0  # B's card, not A's
    assert errors.seen == []
