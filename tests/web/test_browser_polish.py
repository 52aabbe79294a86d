"""The smaller things a newcomer met in the browser (issue 21 item 10), in Debian's chromium
driven by Playwright like test_browser.py: the bond dialog's words follow the amount chosen and
its label is not covered; phase 1 says there is no train limit and no tile yet; the page never
scrolls its header away; the keyboard focus stays at the decisions after an action; the log
names cards and heads each round; the Elephant is offered with one compact control; minor
companies are marked with the engine's words on what that means (4.1.2); the lobby hides an
empty games table and offers Play / Resume for a game this browser has a seat in; and (issue
22 item 3) an account's turn alerts set in "My games" on a server that sends no e-mail.
Issue 22's flow (accounts, open seats, clock, chat, takebacks, alerts) is
test_browser_seats.py's.

Mid-game positions are fixture logs imported truncated (no game is played here)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import test_browser
from playwright.sync_api import Page, expect
from test_browser import (
    LAPTOP,
    Pages,
    import_game,
    last_action,
    open_game,
    shot,
    wait_for_action,
)

# test_browser.py's fixture: pages closed after each test (in the worker's one chromium,
# conftest.py).
pages = test_browser.pages


def _tabs_to(page: Page, selector: str, most: int = 40) -> int:
    """How many Tab presses from the current focus reach ``selector`` (``most`` + 1: never)."""
    for n in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return n
    return most + 1


def test_the_lobby_hides_an_empty_table_and_offers_play_then_resume(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # First in the module: the module's server has no game yet.
    page, errors = pages.new()
    page.goto(server_url + "/")
    expect(page.locator("#list-status")).to_have_text("No games yet.")
    expect(page.locator("#games")).to_be_hidden()
    # A game created elsewhere (no seat in this browser) is watched; the hotseat game created
    # here is played, and resumed once opened.
    other = httpx.post(f"{server_url}/api/games", json={
        "edition": "second", "players": [{"name": "Xan"}, {"name": "Yul"}, {"name": "Zoe"}],
        "hotseat": False}, timeout=60)
    assert other.status_code == 201, other.text
    page.fill("#seed", "5")
    page.click("button[type=submit]")
    expect(page.get_by_role("link", name="Play here (hotseat, every human seat)")).to_be_visible()
    expect(page.locator("#games")).to_be_visible()
    rows = page.locator("#games tbody tr")
    expect(rows).to_have_count(2)
    # By the players' list: has_text="Xan" alone also matched a game id holding "xan" in any
    # case (a failed run: both rows had it); an id has no comma or space.
    theirs = rows.filter(has_text="Xan, Yul, Zoe")
    mine = rows.filter(has_text="Ann, Bob, Cat")
    expect(theirs.get_by_role("link")).to_have_text("Watch")
    expect(mine.get_by_role("link")).to_have_text("Play as Ann, Bob, Cat")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "lobby-play-laptop", tmp_path)
    mine.get_by_role("link").click()
    wait_for_action(page, 0)
    page.goto(server_url + "/")
    expect(page.locator("#games tbody tr").filter(
        has_text="Ann, Bob, Cat").get_by_role("link")).to_have_text(
        "Resume as Ann, Bob, Cat")
    assert errors.seen == []


def test_the_bond_dialog_phase_one_and_a_header_that_stays(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    created = httpx.post(f"{server_url}/api/games", json={
        "edition": "second", "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
        "hotseat": False}, timeout=60)
    assert created.status_code == 201, created.text
    page, errors = pages.new()
    open_game(page, server_url, created.json()["links"]["Ann"])
    # Phase 1 (the contract bids) in words: no train limit, no tile may be laid yet.
    words = page.locator("#phase-words")
    expect(words).to_contain_text("Phase 1 · no train limit · no tiles may be laid yet")
    assert "null" not in words.inner_text() and "tiles: ·" not in words.inner_text()
    # Keyboard focus moving down the page never scrolls the page and its header away.
    # (A caption hidden for screen readers far down the side panel once made the page taller
    # than the window, and the first focus scrolled it.)
    page.locator("#decisions").focus()
    scrolled = []
    for _ in range(40):
        page.keyboard.press("Tab")
        scrolled.append(page.evaluate("document.scrollingElement.scrollTop"))
    assert scrolled == [0] * 40
    assert page.evaluate("document.scrollingElement.scrollHeight") <= LAPTOP["height"]
    assert page.locator("header.topbar").bounding_box()["y"] == 0  # type: ignore[index]
    # The bond dialog: its explanation is the chosen amount's.
    page.click("#open-secret")
    expect(page.locator("#secret-dialog")).to_be_visible()
    page.select_option("#bond-amount", label="Bond £300")
    effect = page.locator("#bond-effect")
    expect(effect).to_contain_text("a bond of £300")
    expect(effect).to_contain_text("at most £300")
    expect(effect).not_to_contain_text("£60")
    # The label "Bond" is clear of the select and of its focus ring (3 px, 2 px off).
    label = page.locator("#secret-dialog label[for=bond-amount]").bounding_box()
    select = page.locator("#bond-amount").bounding_box()
    assert label and select
    assert label["x"] + label["width"] + 5 < select["x"]
    shot(page, "bond-dialog-choice-laptop", tmp_path)
    page.click("#place-bond")
    wait_for_action(page, 1)
    assert last_action(server_url, created.json()["id"])["action"]["type"] == "place_bond"
    assert errors.seen == []


def test_focus_stays_at_the_decisions_after_an_action(pages: Pages, server_url: str) -> None:
    # MSM (Cat, a minor) at its base step; its run comes next.
    game = import_game(server_url, "greedy-3p-seed3.json", 55, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Cat"])
    no_base = page.locator("#decision-body button[data-type=pass]")
    no_base.focus()
    page.keyboard.press("Enter")
    wait_for_action(page, 56)
    expect(page.locator("#accept-run")).to_be_visible()
    assert page.evaluate("document.getElementById('decisions').contains(document.activeElement)")
    assert _tabs_to(page, "#accept-run") <= 3
    assert errors.seen == []


def test_minor_companies_are_marked_with_the_engines_words(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # MSM, a minor, at its track step: it lays one tile and has no lay option (4.1.2).
    game = import_game(server_url, "greedy-3p-seed3.json", 54, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Cat"])
    for co in ("MSM", "SIR", "ECR"):
        tag = page.locator("#shares tbody tr", has_text=co).locator("abbr.kind")
        expect(tag).to_have_text("minor")
        assert "rule 4.1.2" in (tag.get_attribute("title") or "")
    expect(page.locator("#shares tbody tr", has_text="GIP").locator("abbr.kind")).to_have_count(0)
    card = page.locator("#decision-body .entity-card")
    expect(card.locator("abbr.kind")).to_have_text("minor")
    expect(card).to_contain_text("Minor company: lays one tile a turn, never more, and has no "
                                 "lay option (rule 4.1.2)")
    shot(page, "minor-company-laptop", tmp_path)
    assert errors.seen == []


def test_the_elephant_is_offered_with_one_compact_control(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 47, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Ann"])
    offer = page.locator("#decision-body button[data-type=offer_elephant]")
    expect(offer).to_have_count(1)
    # The buyers and prices are the turn model's options (£0 to £50 in £10 steps, 3.1.11).
    buyers = page.locator("#elephant-buyer option").all_inner_texts()
    assert sorted(buyers) == ["Bob", "Cat"]
    prices = page.locator("#elephant-price option").all_inner_texts()
    assert prices == ["£0", "£10", "£20", "£30", "£40", "£50"]
    page.select_option("#elephant-buyer", "Cat")
    page.select_option("#elephant-price", "30")
    expect(page.locator("#elephant-effect")).to_have_text(
        "Offer the Elephant to Cat for £30 (they may refuse)")
    shot(page, "elephant-offer-laptop", tmp_path)
    offer.click()
    wait_for_action(page, 48)
    action = last_action(server_url, game["id"])["action"]
    assert (action["type"], action["buyer"], action["price"]) == ("offer_elephant", "Cat", 30)
    assert errors.seen == []


def test_the_log_names_cards_and_heads_each_round(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # MIK 2: D actions the Director's Share DS:BNR:1 (action 66).
    game = import_game(server_url, "first/greedy-4p-seed3-mik2-alt-start.json", 70,
                       hotseat=False)
    page, errors = pages.new()
    page.goto(f"{server_url}/games/{game['id']}")
    log = page.locator("#log")
    # The first edition's board takes a while to draw on a loaded machine.
    expect(log.locator("li[value='66']")).to_have_text("D actions Director's Share of BNR",
                                                       timeout=90_000)
    assert not re.search(r"\b(DS|COMMODITY|DISTURBANCES):", log.inner_text())
    heads = log.locator("li.round-mark h3").all_inner_texts()
    assert heads[:3] == ["End of Dealing round 1", "Railway round 1", "End of the railway rounds"]
    assert "Dealing round 2" in heads
    assert not log.locator("li:not(.round-mark)", has_text="—").count()
    log.locator("li.round-mark", has_text="Dealing round 2").last.scroll_into_view_if_needed()
    shot(page, "log-rounds-laptop", tmp_path)
    assert errors.seen == []


def _sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/")
    page.fill("#account-name", name)
    page.fill("#account-password", "a password of " + name)
    page.click("#sign-up")
    expect(page.locator("#signed-in")).to_have_text(f"Signed in as {name}")


def test_an_accounts_turn_alerts_are_set_in_my_games(pages: Pages, server_url: str) -> None:
    # Issue 22 item 3: one webhook for all the account's seats, kept by the server.
    page, errors = pages.new()
    _sign_up(page, server_url, "Zed")
    page.goto(server_url + "/my-games")
    expect(page.locator("#alert-settings")).to_be_visible()
    expect(page.locator("#alert-email")).to_be_disabled()  # this server has no SMTP server
    page.fill("#alert-webhook", "https://hooks.slack.com/services/T0/B0/x")
    page.fill("#alert-quiet", "30")
    page.click("#alert-form button[type=submit]")
    expect(page.locator("#alert-status")).to_have_text("Saved: alerts on.")
    page.reload()
    expect(page.locator("#alert-webhook")).to_have_value("https://hooks.slack.com/services/T0/B0/x")
    expect(page.locator("#alert-quiet")).to_have_value("30")
    page.click("#sign-out")
    expect(page.locator("#alert-settings")).to_be_hidden()
    assert errors.seen == []
