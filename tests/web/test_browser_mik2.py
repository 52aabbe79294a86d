"""The MIK 2 kit in the browser (first edition, variant ``mik2``), driven by Playwright in
Debian's chromium like test_browser.py: the seat's own cards in "Your cards (secret)", the
public counts for everyone, another seat's page without them, and the card step: a Commodity
card actioned on a hex highlighted on the board, a Disturbances card on a city chosen in a
select, cards rejected by checkboxes (an empty choice refused with a message)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import test_browser
from playwright.sync_api import expect
from test_browser import Pages, import_game, last_action, open_game, shot, wait_for_action

# test_browser.py's fixture: pages closed after each test (in the worker's one chromium,
# conftest.py).
pages = test_browser.pages

FIXTURE = "first/random-4p-seed2-mik2.json"
# After these many actions of the fixture: A is to action COMMODITY:COTTON (B then holds a
# BBCI Director's Share), and later B is to action DISTURBANCES:1.
DRAW_STEP = 135  # A may take a card (he did in the fixture); his hand is empty
COMMODITY_STEP = 153
DISTURBANCES_STEP = 312
DIRECTORS_SHARE_STEP = 237  # B is to action DS:BBCI:3 (he did in the fixture)


def test_a_card_taken_with_the_draw_button_shows_in_the_hand(
        pages: Pages, server_url: str) -> None:
    game = import_game(server_url, FIXTURE, DRAW_STEP, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["A"])
    expect(page.locator("#kit-hand")).to_have_text("You hold no card.")
    stack = page.inner_text("#kit-stacks")
    expect(page.locator("#decision-body button[data-type=pass]")).to_have_text("Take no card")
    page.click("#decision-body button[data-type=draw_card]")
    wait_for_action(page, DRAW_STEP + 1)
    expect(page.locator("#kit-hand li")).to_have_count(1)
    assert page.inner_text("#kit-stacks") != stack
    assert errors.seen == []


def test_the_hand_panel_and_a_commodity_card_on_the_board_then_a_rejection(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    game = import_game(server_url, FIXTURE, COMMODITY_STEP, hotseat=False)
    a, a_errors = pages.new()
    b, b_errors = pages.new()
    bodies: list[str] = []  # every JSON answer B's page receives
    b.on("response", lambda r: bodies.append(r.text()) if "/api/" in r.url
         and "json" in (r.headers.get("content-type") or "") else None)
    open_game(a, server_url, game["links"]["A"])
    open_game(b, server_url, game["links"]["B"])

    # A's own card, plainly named; the public counts for every player.
    expect(a.locator("#kit-title")).to_have_text("Your cards (secret)")
    expect(a.locator("#kit-hand")).to_have_text("Commodity: Cotton")
    expect(a.locator("#kit .kit-counts td[data-player=B]")).to_have_text("1")
    expect(a.locator("#kit-stacks")).to_contain_text("Stack 19 · discard 0")
    # B sees his own card and the counts, never A's card (its data is not in B's page).
    expect(b.locator("#kit-hand")).to_have_text("Director's Share of BBCI")
    expect(b.locator("#kit .kit-counts td[data-player=A]")).to_have_text("1")
    assert "COTTON" not in b.content().upper()
    assert bodies and not any("COTTON" in body.upper() for body in bodies)
    assert "BBCI:3" not in a.content()

    # A picks the card; its one allowed hex is highlighted on the board and chosen there.
    a.click("#decision-body button[data-card='COMMODITY:COTTON']")
    offered = a.locator(".hex-target.offered")
    expect(offered).to_have_count(1)
    assert offered.first.get_attribute("data-hex") == "K27"
    offered.first.focus()
    a.keyboard.press("Enter")
    expect(a.locator("#decision-body .preview")).to_contain_text("K27")
    shot(a, "mik2-card-step-laptop", tmp_path)
    a.locator("#kit").scroll_into_view_if_needed()
    shot(a, "mik2-cards-laptop", tmp_path)
    a.click("#confirm")
    wait_for_action(a, COMMODITY_STEP + 1)
    done = last_action(server_url, game["id"])["action"]
    assert (done["type"], done["card"], done["hex"]) == ("play_card", "COMMODITY:COTTON", "K27")
    expect(a.locator("#kit-hand")).to_have_text("You hold no card.")
    expect(a.locator("#kit-stacks")).to_contain_text("discard 1")

    # B's card step (his share may only be kept or rejected now): rejecting nothing is
    # refused in the page; his Director's Share is then rejected.
    wait_for_action(b, COMMODITY_STEP + 1)
    box = b.locator("#decision-body .reject-cards input[data-card='DS:BBCI:3']")
    expect(box).to_be_visible()
    expect(b.locator("#decision-body .reject-cards legend")).to_have_text(
        "Reject cards (face down to the discard stack):")
    b.click("#reject-cards")
    expect(b.locator("#reject-error")).to_have_text("Tick the cards to reject first.")
    assert last_action(server_url, game["id"])["action"]["type"] == "play_card"
    box.check()
    b.click("#reject-cards")
    wait_for_action(b, COMMODITY_STEP + 2)
    # The public log names no rejected card (face down); B's hand is empty, the discard grew.
    assert last_action(server_url, game["id"])["action"]["type"] == "reject_cards"
    expect(b.locator("#kit-hand")).to_have_text("You hold no card.")
    expect(b.locator("#kit-stacks")).to_contain_text("discard 2")  # the Cotton card and it
    assert a_errors.seen == [] and b_errors.seen == []


def test_a_disturbances_card_closes_a_city_chosen_in_a_select(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    game = import_game(server_url, FIXTURE, DISTURBANCES_STEP)  # hotseat: one shared screen
    page, errors = pages.new()
    open_game(page, server_url, game["hotseat_link"])
    # At a shared screen the hand stays folded until its player asks for it.
    expect(page.locator("#kit-hand")).to_be_hidden()
    page.click("#kit summary")
    expect(page.locator("#kit-hand")).to_have_text("Disturbances")
    page.click("#decision-body button[data-card='DISTURBANCES:1']")
    cities = page.locator("#card-target option")
    names = cities.all_inner_texts()
    assert len(names) > 1 and names == sorted(names) and "Delhi" in names
    page.select_option("#card-target", label="Delhi")
    expect(page.locator("#decision-body .preview .effect")).to_contain_text("Close Delhi")
    page.click("#confirm")
    wait_for_action(page, DISTURBANCES_STEP + 1)
    done = last_action(server_url, game["id"])["action"]
    assert (done["type"], done["card"], done["city"]) == ("play_card", "DISTURBANCES:1", "Delhi")
    expect(page.locator("#kit-stacks")).to_contain_text("closed this railway round: Delhi")
    assert errors.seen == []


def test_a_directors_share_actioned_at_its_cost_on_a_phone(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    game = import_game(server_url, FIXTURE, DIRECTORS_SHARE_STEP)
    page, errors = pages.new(test_browser.PHONE)
    open_game(page, server_url, game["hotseat_link"])
    page.click("#kit summary")
    expect(page.locator("#kit-hand")).to_have_text("Director's Share of BBCI")
    page.click("#decision-body button[data-card='DS:BBCI:3']")
    preview = page.locator("#decision-body .preview")
    option = next(o for d in game_turn(server_url, game)["decisions"]
                  for o in d["options"] if o["type"] == "play_card")
    expect(preview).to_contain_text(f"£{option['cost']}")  # the turn model's cost, shown
    assert page.evaluate("document.documentElement.scrollWidth") <= test_browser.PHONE["width"]
    shot(page, "mik2-phone", tmp_path)
    page.click("#confirm")
    wait_for_action(page, DIRECTORS_SHARE_STEP + 1)
    done = last_action(server_url, game["id"])["action"]
    assert (done["type"], done["card"]) == ("play_card", "DS:BBCI:3")
    expect(page.locator("#kit .kit-counts tr[data-player=B]")).to_contain_text("BBCI")
    assert errors.seen == []


def game_turn(url: str, game: dict[str, Any]) -> dict[str, Any]:
    """The turn model the hotseat link sees (the seat to decide)."""
    token = game["hotseat_link"].split("#token=")[1]
    data: dict[str, Any] = httpx.get(f"{url}/api/games/{game['id']}", timeout=60,
                                     headers={"Authorization": f"Bearer {token}"}).json()["turn"]
    return data
