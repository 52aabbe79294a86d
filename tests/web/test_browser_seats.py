"""The seats in the browser (issue 22 items 5-7), in Debian's chromium driven by Playwright like
test_browser.py: a takeback asked on one seat's page, accepted on another's (the undone actions
stay in the log, struck through) and one refused; a chess clock that runs out hands the seat to
a bot, and its player takes it back.  Games are made with the HTTP API (a few actions each);
screenshots of the clock and of a takeback request."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import test_browser
from playwright.sync_api import Page, expect
from test_browser import Pages, open_game, shot, wait_for_action

# test_browser.py's fixture: pages closed after each test (in the worker's one chromium,
# conftest.py's session fixture).
pages = test_browser.pages

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat", "bot": "random"}]


def create(url: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/games", json={"players": PLAYERS, "seed": 7, **body},
                   timeout=60)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def count(url: str, game: str) -> int:
    return int(httpx.get(f"{url}/api/games/{game}", timeout=60).json()["last_action_id"])


def until(url: str, game: str, n: int) -> None:
    for _ in range(300):
        if count(url, game) >= n:
            return
        time.sleep(0.02)
    raise AssertionError(f"the game stayed at {count(url, game)} actions")


def bond(url: str, game: str, token: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    state = httpx.get(f"{url}/api/games/{game}", headers=headers, timeout=60).json()
    action = next(o["action"] for d in state["turn"]["decisions"] for o in d["options"]
                  if o["type"] == "place_bond")
    r = httpx.post(f"{url}/api/games/{game}/actions", json=action, headers=headers,
                   timeout=60)
    assert r.status_code == 200, r.text


def ask_takeback(page: Page, to: int) -> None:
    page.fill("#takeback-to", str(to))
    page.get_by_role("button", name="Ask the others").click()


def test_a_takeback_accepted_and_one_refused(pages: Pages, server_url: str,
                                             tmp_path: Path) -> None:
    made = create(server_url, clock={"bank": 3600, "increment": 30})
    game, links, tokens = made["id"], made["links"], made["tokens"]
    until(server_url, game, 1)  # Cat's bot wrote its bond
    bond(server_url, game, tokens["Ann"])
    ann, ann_errors = pages.new()
    bob, bob_errors = pages.new()
    open_game(ann, server_url, links["Ann"])
    open_game(bob, server_url, links["Bob"])
    expect(ann.locator(".seats .clock.running")).to_contain_text("Bob")
    ask_takeback(ann, 0)
    request = bob.locator(".seats .request")
    expect(request).to_contain_text("Ann asks to take the game back to action 0 "
                                    "(2 actions taken back)")
    expect(ann.locator(".seats .request")).to_contain_text("Waiting for Bob")
    bob.locator("#seats-card").scroll_into_view_if_needed()
    shot(bob, "takeback-request-laptop", tmp_path)
    request.get_by_role("button", name="Accept").click()
    # Taken back by replay: Ann writes her bond again; her first one is struck through.
    expect(ann.locator("#log li.undone")).to_have_count(2)
    expect(ann.locator(".seats")).to_contain_text("were taken back to action 0")
    until(server_url, game, 5)  # Cat's bot answers again after the undos
    wait_for_action(ann, count(server_url, game))
    assert ann.locator("#open-secret").count() == 1  # her bond to write again

    # The second takeback: Bob refuses, nothing changes.
    bond(server_url, game, tokens["Ann"])
    n = count(server_url, game)
    wait_for_action(bob, n)
    ask_takeback(ann, n - 1)
    bob.locator(".seats .request").get_by_role("button", name="Refuse").click()
    expect(ann.locator(".seats .request-done")).to_contain_text("refused by Bob")
    assert count(server_url, game) == n
    assert ann_errors.seen == [] and bob_errors.seen == []


def test_a_clock_running_out_hands_the_seat_to_a_bot_and_the_player_takes_it_back(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    made = create(server_url, clock={"bank": 1.5, "increment": 120, "at_zero": "bot",
                                     "bot": "random"})
    game, links = made["id"], made["links"]
    # Ann writes her bond at once: her turn ends with two minutes more, and the bots wait
    # for her when it is her decision again (the game does not play on without people).
    bond(server_url, game, made["tokens"]["Ann"])
    bob, errors = pages.new()
    open_game(bob, server_url, links["Bob"])
    expect(bob.locator(".seats .clock.mine")).to_be_visible()
    # At zero the page asks the server, which hands the seat to the bot (once).
    stand_in = bob.locator(".seats .stand-ins")
    expect(stand_in).to_contain_text("Bob: played by the random bot (its clock ran out)")
    expect(bob.locator(".seats .clock.mine.flagged")).to_contain_text("out of time")
    until(server_url, game, 3)  # Bob's bot wrote his bond
    bob.locator("#seats-card").scroll_into_view_if_needed()
    shot(bob, "clock-laptop", tmp_path)
    stand_in.get_by_role("button", name="Take my seat back").click()
    expect(bob.get_by_role("button", name="Hand my seat to a bot")).to_be_visible()
    expect(bob.locator(".seats .stand-ins")).to_have_count(0)
    seats = httpx.get(f"{server_url}/api/games/{game}/seats", timeout=60).json()
    assert "Bob" not in seats["stand_ins"]
    assert errors.seen == []


def test_the_lobby_creates_a_game_with_a_clock_and_an_absence_time(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    page, errors = pages.new()
    page.goto(server_url + "/")
    page.fill("#seed", "11")
    page.fill("#clock-minutes", "-5")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#form-error")).to_have_text(
        "clock minutes: a number of 0 or more, or empty")
    page.fill("#clock-minutes", "90")
    page.fill("#clock-increment", "20")
    page.select_option("#clock-at-zero", "bot")
    page.select_option("#clock-bot", "strong")
    page.fill("#absent-hours", "24")
    page.locator("#seat-rules").scroll_into_view_if_needed()
    shot(page, "lobby-clock-laptop", tmp_path)
    page.click("#new-game button[type=submit]")
    play = page.get_by_role("link", name="Play here (hotseat, every human seat)")
    expect(play).to_be_visible()
    game = (play.get_attribute("href") or "").split("/games/")[1].split("#")[0]
    seats = httpx.get(f"{server_url}/api/games/{game}/seats", timeout=60).json()
    assert seats["clock"]["bank"] == 5400 and seats["clock"]["increment"] == 20
    assert (seats["clock"]["at_zero"], seats["clock"]["bot"]) == ("bot", "strong")
    assert seats["absent_after"] == 24 * 3600
    assert errors.seen == []
