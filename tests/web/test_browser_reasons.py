"""Every disabled option shows the engine's reason (issue 20 item 1, issue 21 item 2), in
Debian's chromium driven by Playwright like test_browser.py: the 60% share limit in the share
table (3.1.2), a train the company cannot pay for (4.8.8), a claim 2.5.7 forbids at once or by
its look-ahead (the bid could not be completed) - still in the claim list, disabled - a MIK 2
Director's Share that cannot be played now, and the Redeem button of an un-redeemed share the
player cannot pay for (2.7.4).  The reasons are the turn model's (``decisions[].disabled``);
the page computes none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import test_browser
from playwright.sync_api import Locator, Page, expect
from test_browser import GAMES, LAPTOP, PHONE, Pages, import_game, open_game, shot

from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

# test_browser.py's fixture: pages closed after each test (in the worker's one chromium,
# conftest.py).
pages = test_browser.pages


def _import_log(url: str, game: Game) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/games/import", params={"hotseat": "false"}, json=game.to_log(),
                   timeout=120)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _look_ahead_bids() -> Game:
    """Four bonds and a round of claims (as in tests/interfaces/test_play_reasons.py): Ann
    (bond £70) has named Patna; Lucknow is within the Ganges limit of two, but would leave £10,
    too little for a fourth city, and a three-city bid may hold one Ganges city only (2.5.7)."""
    game = Game(Settings(players=("Ann", "Bob", "Cat", "Dan"), seed=1, edition="second"))
    for name, bond in (("Ann", 70), ("Bob", 60), ("Cat", 60), ("Dan", 60)):
        game.process(game.action("place_bond", name, amount=bond))
    for name, city, company in (("Ann", "Patna", "EIR"), ("Bob", "Lahore", "NWR"),
                                ("Dan", "Lahore", "NWR"), ("Cat", "Lahore", "NWR")):
        game.process(game.action("claim_city", name, city=city, company=company))
    return game


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
        pages: Pages, server_url: str, tmp_path: Path) -> None:
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
    card.scroll_into_view_if_needed()
    shot(page, "reason-mik2-card-laptop", tmp_path)
    assert errors.seen == []


def test_a_claim_the_ganges_look_ahead_forbids_stays_in_the_list_disabled(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    game = _import_log(server_url, _look_ahead_bids())
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Ann"])
    page.click("#open-secret")
    lucknow = page.locator("#secret-body .claim-city[data-city=Lucknow] button")
    expect(lucknow.first).to_be_visible()
    assert lucknow.count() == 2  # EIR and GIP: the city does not vanish from the list
    for i in range(lucknow.count()):
        expect(lucknow.nth(i)).to_be_disabled()
        assert _reason_of(page, lucknow.nth(i)) == (
            "rule 2.5.7: with Lucknow a bid of 3 cities may include only 1 of the Ganges "
            "valley cities besides Calcutta")
    lahore = page.locator("#secret-body .claim-city[data-city=Lahore] button:enabled")
    expect(lahore.first).to_be_visible()
    lucknow.first.scroll_into_view_if_needed()
    shot(page, "reason-ganges-look-ahead-laptop", tmp_path)
    assert errors.seen == []


def test_a_share_the_player_cannot_pay_to_redeem_has_a_disabled_redeem_button_with_the_money(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # Dan, £10, holds un-redeemed BBCI, MSM and ECR shares (pars £84, £80, £70): 2.7.4.
    game = import_game(server_url, "random-6p-seed13.json", 36, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Dan"])
    for company, par in (("BBCI", 84), ("MSM", 80), ("ECR", 70)):
        redeem = page.locator(f"button[data-kind=redeem][data-company={company}]")
        expect(redeem).to_be_disabled()
        assert _reason_of(page, redeem) == (f"Redeem: rule 2.7.4: redeeming one {company} "
                                            f"share costs £{par} (its par); Dan has £10")
        assert "2.7.4" in (redeem.get_attribute("title") or "")
    expect(page.locator("button[data-kind=redeem][data-company=EIR]")).to_have_count(0)
    page.locator("button[data-kind=redeem][data-company=ECR]").scroll_into_view_if_needed()
    shot(page, "reason-redeem-laptop", tmp_path)
    assert errors.seen == []


# --- issue 21 items 1, 5, 6, 7: what a newcomer is told, and the layout --------------------------


def test_a_claim_that_leaves_nothing_to_direct_is_warned_in_the_claim_list(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # Ann's bid has one city left and one share each of five companies (random-3p-seed3, 18).
    game = import_game(server_url, "random-3p-seed3.json", 18, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Ann"])
    page.click("#open-secret")
    warned = page.locator("#secret-body .claim-city[data-city=Mysore] button.warned")
    expect(warned).to_have_count(2)  # MSM and SIR: companies she holds none of
    warning = page.locator(f"#{warned.first.get_attribute('aria-describedby')}")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("could not become the director of any company")
    safe = page.locator("#secret-body .claim-city[data-city=Nagpur] button[data-company=BNR]")
    expect(safe).to_be_enabled()
    assert "warned" not in (safe.get_attribute("class") or "")
    warned.first.scroll_into_view_if_needed()
    shot(page, "claim-warning-laptop", tmp_path)
    assert errors.seen == []


def test_the_contract_card_tracks_each_city_and_warns_when_it_is_out_of_reach(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # Dan's bid names Mysore; the bank has broken and ECR, the round's last company, has laid
    # its track (random-5p-seed2-shortened, action 2405): the contract can no longer be met.
    game = import_game(server_url, "random-5p-seed2-shortened.json", 2405, hotseat=False)
    page, errors = pages.new()
    open_game(page, server_url, game["links"]["Dan"])
    card = page.locator("#contract")
    expect(card).to_be_visible()
    mysore = card.locator("li[data-city=Mysore]")
    expect(mysore).to_have_attribute("data-connected", "false")
    expect(mysore).to_contain_text("✗ not joined yet")
    expect(card.locator("li[data-city=Lucknow]")).to_contain_text("✓ joined to Allahabad")
    status = page.locator("#contract-status")
    expect(status).to_contain_text("Contract out of reach: the bank has broken, so the game "
                                   "ends with this operating round (5.1.2)")
    card.scroll_into_view_if_needed()
    shot(page, "contract-progress-laptop", tmp_path)
    # Another seat's answer holds no progress of Dan's (its page renders only its own).
    ann = httpx.get(f"{server_url}/api/games/{game['id']}",
                    headers={"Authorization": f"Bearer {game['tokens']['Ann']}"}, timeout=60)
    contract = ann.json()["turn"]["tables"]["contract"]
    assert contract["player"] == "Ann" and "Mysore" not in json.dumps(contract)
    assert errors.seen == []


# Page notifications recorded instead of shown (granted), so that the test sees them.
RECORD_NOTIFICATIONS = """
(() => {
  window.__notes = [];
  window.Notification = class {
    constructor(title, options) { window.__notes.push([title, options && options.body]); }
    static get permission() { return "granted"; }
    static requestPermission() { return Promise.resolve("granted"); }
  };
})();
"""


def test_the_share_table_warns_and_the_tab_title_sound_and_notification_tell_a_seat_its_turn(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # Ann (£166) holds 4 GIP under Bob's 5 and 1 MSM under Cat's 6 (greedy-3p-seed3, action 41).
    game = import_game(server_url, "greedy-3p-seed3.json", 41, hotseat=False)
    ann, ann_errors = pages.new()
    open_game(ann, server_url, game["links"]["Ann"])
    expect(ann).to_have_title("(Your turn) 1853 — Stock Round 2")
    # The share table says what floats, and warns before a purchase leaves nothing to direct.
    float_rule = ann.locator("#float-rule")
    expect(float_rule).to_be_visible()
    expect(float_rule).to_contain_text("floats when 6 of its shares are issued, TABLE 3's "
                                       "qualifying number (2.7.5)")
    expect(ann.locator("#shares [data-float=ECR]")).to_contain_text("0/6 issued")
    buy = ann.locator("button[data-kind=buy-ipo][data-company=GIP]")
    expect(buy).to_be_enabled()
    expect(buy).to_have_class("warned")
    expect(buy).to_contain_text("⚠")
    warning = ann.locator(f"#{buy.get_attribute('aria-describedby')}")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("could not become the director of any company with your "
                                    "cash alone (2.9.2, 3.2.1): the nearest, ECR, needs 2 more "
                                    "shares (£140) and you would have £70")
    # Selling warns of nothing.
    assert "warned" not in (ann.locator("button[data-kind=sell][data-company=GIP]")
                            .get_attribute("class") or "")
    ann.locator("#shares").scroll_into_view_if_needed()
    shot(ann, "float-and-warning-laptop", tmp_path)
    # The tab title, a sound and a notification tell a seat it is its turn.
    cat, errors = pages.new()
    open_game(cat, server_url, game["links"]["Cat"])
    # The page looks ``Notification`` up only when it alerts or asks for permission (not
    # when it loads): replaced now, before the switch, it records what the page would show
    # (a pooled page: an init script of its own would need a new context, 2 CPU-s more).
    cat.evaluate(RECORD_NOTIFICATIONS)
    expect(cat).to_have_title("1853 — Stock Round 2")
    toggle = cat.locator("#alerts-toggle")
    expect(toggle).not_to_be_checked()  # off by default
    toggle.check()
    assert cat.evaluate("localStorage.getItem('india1853.turn-alerts')") == "on"
    # Ann buys (the fixture's action 42): Cat is next.
    log = json.loads((GAMES / "greedy-3p-seed3.json").read_text())
    r = httpx.post(f"{server_url}/api/games/{game['id']}/actions", json=log["actions"][41],
                   headers={"Authorization": f"Bearer {game['tokens']['Ann']}"}, timeout=60)
    assert r.status_code == 200, r.text
    expect(cat).to_have_title("(Your turn) 1853 — Stock Round 2")
    cat.wait_for_function("() => document.body.dataset.alerted === '43'", polling=100)
    notes = cat.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0][0] == "1853: your turn" and "Cat" in notes[0][1]
    expect(ann).to_have_title("1853 — Stock Round 2")
    # The switch is remembered in this browser.
    cat.reload()
    expect(cat.locator("#alerts-toggle")).to_be_checked()
    assert errors.seen == [] and ann_errors.seen == []


def test_the_share_table_fits_a_laptop_with_every_sell_button(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    # Five players; Bob may sell 1 to 6 shares of one company (random-5p-seed2-shortened, 1141).
    game = import_game(server_url, "random-5p-seed2-shortened.json", 1141, hotseat=False)
    page, errors = pages.new(LAPTOP)
    open_game(page, server_url, game["links"]["Bob"])
    expect(page.locator("button[data-kind=sell-6]")).to_be_visible()
    wrap = page.locator("#shares")
    page.locator("#shares-title").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, "share-table-laptop", tmp_path)
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth"), "the share table scrolls"
    side = page.locator("#side").bounding_box()
    assert side is not None
    right = side["x"] + side["width"]
    wanted = ["#shares thead th", "#shares button[data-kind^=sell]", "#shares tbody td"]
    for selector in wanted:
        for box in page.locator(selector).evaluate_all(
                "els => els.map(e => e.getBoundingClientRect().right)"):
            assert box <= right + 0.5, f"{selector} ends at {box}, past the pane's {right}"
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    assert errors.seen == []


def test_on_a_phone_a_tapped_tile_keeps_its_preview_on_screen(
        pages: Pages, server_url: str, tmp_path: Path) -> None:
    game = import_game(server_url, "greedy-3p-seed3.json", 28)  # GIP lays track
    page, errors = pages.new(PHONE)
    open_game(page, server_url, game["hotseat_link"])
    page.locator("#decision-body .options.hexes button").first.click()
    tiles = page.locator("#decision-body .options.tiles button")
    expect(tiles.first).to_be_visible()
    tiles.first.click()
    expect(page.locator("#confirm")).to_be_visible()
    tile = page.locator("#board .preview-tile")
    expect(tile).to_have_count(1)
    for box in (tile.bounding_box(), page.locator("#confirm").bounding_box()):
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    shot(page, "tile-preview-phone", tmp_path)
    assert errors.seen == []
