"""The smaller things a newcomer met in the browser (issue 21 item 10), in Debian's chromium
driven by Playwright like test_browser.py: the bond dialog's words follow the amount chosen and
its label is not covered; phase 1 says there is no train limit and no tile yet; the page never
scrolls its header away; the keyboard focus stays at the decisions after an action; the log
names cards and heads each round; the Elephant is offered with one compact control; minor
companies are marked with the engine's words on what that means (4.1.2); the lobby hides an
empty games table and offers Play / Resume for a game this browser has a seat in.

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
    theirs = rows.filter(has_text="Xan")
    mine = rows.filter(has_text="Ann")
    expect(theirs.get_by_role("link")).to_have_text("Watch")
    expect(mine.get_by_role("link")).to_have_text("Play as Ann, Bob, Cat")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "lobby-play-laptop", tmp_path)
    mine.get_by_role("link").click()
    wait_for_action(page, 0)
    page.goto(server_url + "/")
    expect(page.locator("#games tbody tr").filter(has_text="Ann").get_by_role("link")).to_have_text(
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


def _bond(page: Page, url: str, game: str) -> None:
    """The seat at the page writes the first bond offered: one action more in the game."""
    before = httpx.get(f"{url}/api/games/{game}", timeout=60).json()["last_action_id"]
    page.click("#open-secret")
    expect(page.locator("#secret-dialog")).to_be_visible()
    page.click("#place-bond")
    wait_for_action(page, before + 1)


def test_three_browsers_two_accounts_and_a_guest_join_open_seats(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    """Issue 22 items 1-2: Uma (an account) creates a game with two open seats; Vic (an
    account) joins from the lobby's list, Wes (a guest) from the invite link, and the game
    starts; each writes a bond; a reload and a changed URL keep each seat (the guest's token
    kept by his browser, the accounts' seats by their session); "My games" says whose turn it
    is, as the engine says."""
    uma, uma_errors = pages.new()
    _sign_up(uma, server_url, "Uma")
    expect(uma.locator("#seats .seat-name-input").first).to_have_value("Uma")
    uma.uncheck("#hotseat")
    uma.fill("#seed", "5")
    for i in (1, 2):
        uma.locator("#seats .seat-kind").nth(i).select_option("open")
    uma.click("button[type=submit]")
    invite = uma.inner_text("#invite-link")
    game = invite.rsplit("/", 1)[1]
    expect(uma.locator("#my-seat-link")).to_have_text("Your seat: Uma")

    vic, vic_errors = pages.new()
    _sign_up(vic, server_url, "Vic")
    row = vic.locator(f"#open-games tr[data-game='{game}']")
    expect(row).to_contain_text("Uma, (open), (open)")
    vic.evaluate("window.scrollTo(0, 0)")
    shot(vic, "lobby-open-games", tmp_path)
    row.get_by_role("button", name=f"Join game {game}").click()
    expect(vic.locator("#join-name")).to_have_value("Vic")
    vic.click("#join-submit")
    expect(vic.locator("#joined")).to_contain_text("as Vic")

    wes, wes_errors = pages.new()
    wes.goto(invite)
    wes.fill("#join-name", "Wes")
    wes.click("#join-submit")  # the last seat: the game starts, the page opens it
    wes.wait_for_url(re.compile(rf"/games/{game}#token="))
    expect(wes.locator("#seat-name")).to_have_text("Wes")
    expect(wes.locator("#keep-link")).to_contain_text("Keep this link")

    for page in (uma, vic):
        page.goto(f"{server_url}/games/{game}")  # no token: the account's session
        expect(page.locator("#seat-name")).to_have_text("Uma" if page is uma else "Vic")
        expect(page.locator("#keep-link")).to_be_hidden()
    for page in (wes, uma, vic):
        _bond(page, server_url, game)

    # A changed URL and a reload keep the guest's seat; the accounts' too.
    wes.goto(f"{server_url}/games/{game}#decisions")
    wes.reload()
    expect(wes.locator("#seat-name")).to_have_text("Wes")
    vic.reload()
    expect(vic.locator("#seat-name")).to_have_text("Vic")

    # "My games": whose turn it is, as the engine's turn model says (the claims, 2.5.4).
    turn = httpx.get(f"{server_url}/api/games/{game}", timeout=60).json()["turn"]
    deciding = {a["player"] for a in turn["active"]}
    assert len(deciding) == 1
    for page, name in ((uma, "Uma"), (vic, "Vic"), (wes, "Wes")):
        page.goto(f"{server_url}/my-games")
        mine = page.locator(f"#mine tr[data-game='{game}']")
        expect(mine).to_contain_text(name)
        if name in deciding:
            expect(mine).to_have_attribute("data-status", "your turn")
            expect(mine).to_contain_text("Your turn")
            expect(page.locator("#mine tbody tr").first).to_have_attribute("data-game", game)
            shot(page, "my-games", tmp_path)
        else:
            expect(mine).to_contain_text(f"Waiting for {next(iter(deciding))}")
    assert uma_errors.seen == vic_errors.seen == wes_errors.seen == []


def test_chat_shows_on_the_other_seats_escaped(pages: Pages, server_url: str,
                                               tmp_path: Path) -> None:
    # Issue 22 item 4: a seat writes, another seat and a spectator read it live, as text.
    created = httpx.post(f"{server_url}/api/games", json={
        "edition": "second", "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
        "hotseat": False}, timeout=60)
    assert created.status_code == 201, created.text
    made = created.json()
    ann, ann_errors = pages.new()
    bob, bob_errors = pages.new()
    watcher, watcher_errors = pages.new()
    open_game(ann, server_url, made["links"]["Ann"])
    open_game(bob, server_url, made["links"]["Bob"])
    open_game(watcher, server_url, made["spectator"])
    expect(watcher.locator("#chat-form")).to_be_hidden()  # a spectator reads only
    expect(watcher.locator("#alert-settings")).to_be_hidden()
    expect(ann.locator("#alert-settings")).to_be_visible()  # a seat's own alerts
    hostile = '<img src=x onerror="window.__pwned=1"> <b>bold?</b>'
    ann.fill("#chat-text", hostile)
    ann.press("#chat-text", "Enter")
    bob.locator("#chat-text").fill("Good luck, all")
    for page in (bob, watcher):
        expect(page.locator("#chat-log li").first).to_have_text(f"Ann: {hostile}")
    bob.click("#chat-form button[type=submit]")
    for page in (ann, bob, watcher):
        expect(page.locator("#chat-log li")).to_have_count(2)
        expect(page.locator("#chat-log li").nth(1)).to_have_text("Bob: Good luck, all")
        assert page.locator("#chat-log img, #chat-log b").count() == 0
        assert page.evaluate("window.__pwned") is None
    expect(ann.locator("#chat-text")).to_have_value("")
    # The seat's alert settings are saved on the server (a bad address is refused, named).
    ann.fill("#alert-webhook", "ftp://example.org/hook")
    ann.click("#alert-form button[type=submit]")
    expect(ann.locator("#alert-status")).to_contain_text("webhook:")
    ann.fill("#alert-webhook", "https://discord.com/api/webhooks/1/abc")
    ann.click("#alert-form button[type=submit]")
    expect(ann.locator("#alert-status")).to_have_text("Saved: alerts on.")
    r = httpx.get(f"{server_url}/api/games/{made['id']}/alerts",
                  headers={"Authorization": f"Bearer {made['tokens']['Ann']}"}, timeout=60)
    assert r.json()["webhook"] == "https://discord.com/api/webhooks/1/abc"
    bob.locator("#alert-settings").scroll_into_view_if_needed()
    shot(bob, "chat-laptop", tmp_path)
    assert ann_errors.seen == [] and bob_errors.seen == [] and watcher_errors.seen == []


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
