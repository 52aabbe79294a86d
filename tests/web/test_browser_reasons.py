"""Every disabled option shows the engine's reason (issue 20 item 1, issue 21 item 2), in
Debian's chromium driven by Playwright like test_browser.py: the 60% share limit in the share
table (3.1.2), a train the company cannot pay for (4.8.8), a claim 2.5.7 forbids - still in the
claim list, disabled - and a MIK 2 Director's Share that cannot be played now.  The reasons are
the turn model's (``decisions[].disabled``); the page computes none."""

from __future__ import annotations

from pathlib import Path

import test_browser
from playwright.sync_api import Locator, Page, expect
from test_browser import Pages, import_game, open_game, shot

# test_browser.py's fixtures: one chromium for this module, pages closed after each test.
browser = test_browser.browser
pages = test_browser.pages


def _reason_of(page: Page, button: Locator) -> str:
    """The text the disabled button's aria-describedby names (its reason under it)."""
    described = button.get_attribute("aria-describedby")
    assert described, "a disabled option names its reason"
    reason = page.locator(f"#{described}")
    expect(reason).to_be_visible()
    return reason.inner_text()


def test_the_share_limit_is_explained_at_the_disabled_buy_button(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # Cat holds 6 MSM shares, the limit with 3 players (TABLE 3: 60%).
    game = import_game(server_url, "greedy-3p-seed3.json", 25, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Cat"])
    buy = page.locator("button[data-kind=buy-ipo][data-company=MSM]")
    expect(buy).to_be_disabled()
    reason = _reason_of(page, buy)
    assert "3.1.2" in reason and "60%" in reason and "Cat holds 6 shares of MSM" in reason
    assert "3.1.2" in (buy.get_attribute("title") or "")
    shot(page, "reason-share-limit-laptop", tmp_path)
    assert errors.seen == []


def test_a_train_the_company_cannot_pay_for_is_shown_disabled_with_the_money(
        pages: Pages, server_url: str) -> None:
    # GIP (£180, director Bob with £70) at its trains step; a '2' costs £300.
    game = import_game(server_url, "greedy-3p-seed3.json", 69, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Bob"])
    train = page.locator("#decision-body .not-now button[data-not-now=buy_train]")
    expect(train).to_have_count(1)
    expect(train).to_be_disabled()
    expect(train).to_have_text("Buy a '2' from the bank")
    reason = _reason_of(page, train)
    assert reason == ("rule 4.8.8: the '2' train costs £300, GIP has £180 and its director "
                      "Bob £70 (£120 short)")
    expect(page.locator("#decision-body button[data-type=pass]")).to_be_enabled()
    assert errors.seen == []


def test_a_claim_forbidden_by_the_ganges_rule_stays_in_the_list_disabled(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # Bob's bid already names two Ganges valley cities: Calcutta may not be named (2.5.7).
    game = import_game(server_url, "random-6p-seed13.json", 27, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Bob"])
    page.click("#open-secret")
    calcutta = page.locator("#secret-body .claim-city[data-city=Calcutta] button")
    expect(calcutta.first).to_be_visible()
    assert calcutta.count() >= 2
    for i in range(calcutta.count()):
        expect(calcutta.nth(i)).to_be_disabled()
        reason = _reason_of(page, calcutta.nth(i))
        assert reason.startswith("rule 2.5.7: a bid may include at most 2 Ganges valley cities")
    # The claims still possible are enabled beside them.
    expect(page.locator("#secret-body button[data-type=claim_city]:enabled").first).to_be_visible()
    # The bid may not end yet (2.5.4): the pass is shown disabled with the bond left over.
    end = page.locator("#secret-body .disabled-option button[data-not-now=pass]")
    expect(end).to_be_disabled()
    assert "2.5.4" in _reason_of(page, end)
    shot(page, "reason-ganges-claim-laptop", tmp_path)
    assert errors.seen == []


def test_a_directors_share_that_cannot_be_played_now_says_why(
        pages: Pages, server_url: str) -> None:
    # First edition, MIK 2: B holds the BBCI Director's Share but no ordinary BBCI share.
    game = import_game(server_url, "first/random-4p-seed2-mik2.json", 154, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["B"])
    card = page.locator("#decision-body button[data-card='DS:BBCI:3']:disabled")
    expect(card).to_have_count(1)
    reason = _reason_of(page, card)
    assert reason.startswith("rule MIK 2, DIRECTOR'S SHARES: B holds no ordinary BBCI share")
    # He may still reject it.
    reject = page.locator("#decision-body .reject-cards input[data-card='DS:BBCI:3']")
    expect(reject).to_be_visible()
    assert errors.seen == []
