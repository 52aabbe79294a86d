"""Issue 22's whole flow in one game, in Debian's chromium driven by Playwright: three
browser contexts - Uma and Vic with accounts, Wes a guest - and a spectator.

Shared by tests/web/test_browser_seats.py (one server on SQLite) and
tests/integration/test_pg_flow.py (two server processes on PostgreSQL + Redis, each
player's pages on the process ``Urls`` gives him).  The steps, in one game:

1. Uma and Vic sign up; Uma creates a game with two open seats in the lobby, with the chess
   clock on (a short bank, "at zero: the random bot takes the seat") and an absence time
   (the lobby's refusal of a bad clock first); Uma's and Vic's turn alerts are set for their
   accounts in "My games" (Uma a webhook to the loopback receiver, Vic an e-mail to the SMTP
   sink; a quiet time of an hour, so exactly one alert each is due); Vic joins from the
   lobby's list of open games, Wes (the last seat: the game starts) from the invite link.
2. The bonds (written by all at once, 2.5.2: every clock runs): Uma and Vic write theirs at
   once with their browsers' sessions (their pages act from the claims on), Wes writes none;
   on his page he sets his seat's own alerts (a webhook; a bad address refused first).  The
   game pages of Uma and Vic (no token: the account's session) and a spectator's; the chat:
   a hostile message from Uma reaches Vic, Wes and the spectator as text, Vic answers.
3. Wes's clock runs out: the random bot takes his seat and writes his bond; Wes takes his
   seat back.
4. A reload and a changed URL (``#decisions``, the guest's token stripped) keep each seat;
   "My games" of each says whose turn it is, as the engine's turn model does.
5. The claims, each made on the page of whoever decides (the engine's turn model), until
   each of the three has acted on his page; a takeback of the last two claims asked on one
   page and refused on another, then asked again and accepted on both others (the undone
   actions struck through in the log).
6. The webhook receiver and the SMTP sink have received exactly the expected alerts: one for
   each seat, to its own address.

Nothing here needs another seat's token: each player joins through the lobby or the invite
link, and the guest's token is his own (from his page's address).  Screenshots of the lobby
with open games, the clock settings, "My games", the clock run out and a takeback request go
to docs/screenshots/ when ``INDIA1853_SCREENSHOTS=1`` (else none is taken: a screenshot
costs chromium CPU)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, expect
from webclient import TLS

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LAPTOP = {"width": 1366, "height": 768}
TIMEOUT_MS = 30_000
# Each seat's clock: Uma's and Vic's bonds go at once after the start (2.5 s under a load of
# 16 on this 2-core machine), Wes writes none; his runs out during the chat or just after it
# (12 s left the flow waiting some 5 s for it on a quiet machine).
BANK_SECONDS = 8.0
INCREMENT_SECONDS = 600  # after a turn nobody runs out again in the flow
QUIET_MINUTES = 60  # every seat's quiet time: exactly one alert per seat in the flow
HOSTILE = '<img src=x onerror="window.__pwned=1"> <b>bold?</b>'


@dataclass(frozen=True)
class Urls:
    """The server process each player's pages talk to (one URL for all on SQLite)."""

    uma: str
    vic: str
    wes: str
    watcher: str


@dataclass
class Player:
    name: str
    context: BrowserContext
    page: Page
    url: str = ""  # his server process's (``Flow.run``)
    errors: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> Page:
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return page


@dataclass
class Receivers:
    """What the alerts went to: the webhook receiver's bodies by path, the mails."""

    webhook: Callable[[str], list[Any]]  # path -> bodies
    webhook_url: str
    mails: list[Any]


def server_options(smtp_port: int) -> list[str]:
    """The ``serve`` options of the flow's servers: alerts to the loopback receivers (plain
    SMTP: STARTTLS is test_alerts_chat.py's); each process sweeps for the others' changes
    every second (the alert after one's own change is checked at once)."""
    return ["--alert-webhook-private", "--alert-sweep-seconds", "1",
            "--smtp-host", "127.0.0.1", "--smtp-port", str(smtp_port),
            "--smtp-from", "alerts@india1853.test", "--no-smtp-starttls"]


def _player(browser: Browser, name: str) -> Player:
    # wait_for_function's string predicates are eval'd, which the page's CSP forbids
    # (test_browser.py: the UI itself runs under the real CSP in test_the_ui_runs_under_...).
    context = browser.new_context(viewport=LAPTOP, bypass_csp=True)  # type: ignore[arg-type]
    context.set_default_timeout(TIMEOUT_MS)
    player = Player(name, context, context.new_page())
    player.watch(player.page)
    return player


def shot(page: Page, name: str, tmp: Path) -> None:
    """A screenshot to docs/screenshots/, only when ``INDIA1853_SCREENSHOTS=1``."""
    if os.environ.get("INDIA1853_SCREENSHOTS") != "1":
        return
    path = tmp / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SCREENSHOTS / path.name)


def http() -> httpx.Client:
    """The flow's one HTTP client for its own looks at the servers: a client per request cost
    a TLS context (the CA bundle parsed, ~60 ms of CPU) and a new connection each."""
    return httpx.Client(timeout=60, verify=TLS)


def _get(client: httpx.Client, url: str, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.get(f"{url}{path}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def deciding(client: httpx.Client, url: str, game: str) -> set[str]:
    """The players who decide now: the engine's turn model (its ``active`` entities and who
    decides each, 3.4.1), as a spectator receives it."""
    return {a["player"] for a in _get(client, url, f"/api/games/{game}")["turn"]["active"]
            if a["player"] is not None}


def count(client: httpx.Client, url: str, game: str) -> int:
    return int(_get(client, url, f"/api/games/{game}")["last_action_id"])


def wait_until(what: str, predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    """A server-side condition (no page shows it), asked every 100 ms."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def wait_for_action(page: Page, n: int) -> None:
    """Until the page shows the game after action ``n`` (polled: a page in the background
    gets no animation frames)."""
    page.wait_for_function(f"document.getElementById('history-at')?.max === '{n}'",
                           polling=100)


def open_game(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("(document.getElementById('history-at')?.max ?? '') !== ''",
                           polling=100)
    expect(page.locator("#headline")).not_to_be_empty()


def _sign_up(player: Player) -> None:
    page = player.page
    page.goto(player.url + "/")
    page.fill("#account-name", player.name)
    page.fill("#account-password", "a password of " + player.name)
    page.click("#sign-up")
    expect(page.locator("#signed-in")).to_have_text(f"Signed in as {player.name}")


def _account_alerts(page: Page, webhook: str, email: str) -> None:
    """The account's alerts for all its games, in "My games" (quiet time in minutes)."""
    form = page.locator("#alert-settings")
    expect(form).to_be_visible()
    expect(page.locator("#alert-email")).to_be_enabled()  # this server sends e-mail
    page.fill("#alert-webhook", webhook)
    page.fill("#alert-email", email)
    page.fill("#alert-quiet", str(QUIET_MINUTES))
    page.click("#alert-form button[type=submit]")
    expect(page.locator("#alert-status")).to_have_text("Saved: alerts on.")


def _write(player: Player, method: str, path: str, body: Any) -> Any:
    """A write with the browser's session cookie and its CSRF token, as its pages send it."""
    csrf = next(c["value"] for c in player.context.cookies(player.url)
                if c["name"] == "india1853_csrf")
    r = player.context.request.fetch(f"{player.url}{path}", method=method, data=body,
                                     headers={"X-CSRF-Token": csrf})
    assert r.status == 200, r.text()
    return r.json()


def _bond_by_session(player: Player, game: str) -> None:
    """The bond the seat's view offers first, sent with the browser's session."""
    view = player.context.request.get(f"{player.url}/api/games/{game}").json()
    assert view["seat"] == player.name, view["seat"]
    bond = next(o["action"] for d in view["turn"]["decisions"] for o in d["options"]
                if o["action"]["type"] == "place_bond")
    _write(player, "POST", f"/api/games/{game}/actions", bond)


def _act(player: Player, client: httpx.Client, url: str, game: str) -> str:
    """The seat at the page makes its decision in the secret dialog (a bond: the amount
    offered first; a claim: the first city offered, 2.5.4); the action's type."""
    page = player.page
    before = count(client, url, game)
    wait_for_action(page, before)
    page.click("#open-secret")
    dialog = page.locator("#secret-dialog")
    expect(dialog).to_be_visible()
    if page.locator("#place-bond").count():
        page.click("#place-bond")
        kind = "place_bond"
    else:
        dialog.locator("button[data-type=claim_city]").first.click()
        kind = "claim_city"
    wait_for_action(page, before + 1)
    expect(dialog).to_be_hidden()
    return kind


class Flow:
    """The flow's players, game and receivers; ``run(urls)`` does it all.  The browsers (four
    contexts, a page each: some CPU-seconds of chromium) are opened at once, so that a test
    may start its servers meanwhile and hand their addresses to ``run``."""

    def __init__(self, browser: Browser, receivers: Receivers, tmp: Path,
                 bank: float = BANK_SECONDS) -> None:
        self.receivers = receivers
        self.tmp = tmp
        self.bank = bank
        self.uma = _player(browser, "Uma")
        self.vic = _player(browser, "Vic")
        self.wes = _player(browser, "Wes")
        self.watcher = _player(browser, "watcher")
        self.players = {p.name: p for p in (self.uma, self.vic, self.wes)}
        self.http = http()
        self.game = ""
        self.wes_token = ""
        self.acted: dict[str, list[str]] = {name: [] for name in self.players}
        self.last_two: list[tuple[str, int]] = []  # the two last claims: (who, action id)

    def close(self) -> None:
        for p in (self.uma, self.vic, self.wes, self.watcher):
            p.context.close()
        self.http.close()

    def run(self, urls: Urls) -> None:
        self.uma.url, self.vic.url, self.wes.url, self.watcher.url = (
            urls.uma, urls.vic, urls.wes, urls.watcher)
        # Pages under a loaded machine's CPU: every expectation waits up to 30 s (Playwright's
        # default is 5 s), restored after the flow.
        expect.set_options(timeout=TIMEOUT_MS)
        try:
            self._run()
        finally:
            expect.set_options(timeout=None)

    def _run(self) -> None:
        self.create_and_join()
        self.bonds_chat_and_alert_settings()
        self.clock_runs_out_and_wes_takes_his_seat_back()
        self.reload_and_changed_url_keep_each_seat()
        self.my_games_shows_whose_turn()
        self.play_until_each_has_acted()
        self.takeback_refused_and_one_accepted()
        self.exactly_the_expected_alerts()
        for p in (self.uma, self.vic, self.wes, self.watcher):
            assert p.errors == [], (p.name, p.errors)

    # --- 1. open seats, account alerts, joining -------------------------------------------

    def create_and_join(self) -> None:
        uma, vic, wes = self.uma, self.vic, self.wes
        _sign_up(uma)
        page = uma.page
        expect(page.locator("#seats .seat-name-input").first).to_have_value("Uma")
        page.uncheck("#hotseat")
        page.fill("#seed", "5")
        for i in (1, 2):
            page.locator("#seats .seat-kind").nth(i).select_option("open")
        # The clock and the absence time (js/seatrules.js); a bad number is refused, named.
        page.fill("#clock-minutes", "-5")
        page.click("#new-game button[type=submit]")
        expect(page.locator("#form-error")).to_have_text(
            "clock minutes: a number of 0 or more, or empty")
        page.fill("#clock-minutes", f"{self.bank / 60:.6g}")
        page.fill("#clock-increment", str(INCREMENT_SECONDS))
        page.select_option("#clock-at-zero", "bot")
        page.select_option("#clock-bot", "random")
        page.fill("#absent-hours", "24")
        page.locator("#seat-rules").scroll_into_view_if_needed()
        shot(page, "lobby-clock-laptop", self.tmp)
        page.click("#new-game button[type=submit]")
        invite = page.inner_text("#invite-link")
        self.game = game = invite.rsplit("/", 1)[1]
        mine = page.locator("#my-seat-link")
        expect(mine).to_have_text("Your seat: Uma")
        # "My games" lists it waiting for players; Uma sets her account's alerts there.
        mine.click()
        row = page.locator(f"#mine tr[data-game='{game}']")
        expect(row).to_have_attribute("data-status", "waiting for players")
        expect(row).to_contain_text("Waiting for players (2 open)")
        expect(row.locator(".start-bots")).to_be_visible()  # the creator may start early
        _account_alerts(page, f"{self.receivers.webhook_url}/uma", "")

        _sign_up(vic)
        page = vic.page
        row = page.locator(f"#open-games tr[data-game='{game}']")
        expect(row).to_contain_text("Uma, (open), (open)")
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "lobby-open-games", self.tmp)
        row.get_by_role("button", name=f"Join game {game}").click()
        expect(page.locator("#join-name")).to_have_value("Vic")
        page.click("#join-submit")
        expect(page.locator("#joined")).to_contain_text("as Vic")
        # Vic's account alerts: an e-mail (set as "My games" does, with his session; the
        # form itself is Uma's above).
        saved = _write(vic, "PUT", "/api/account/alerts", {
            "webhook": None, "email": "vic@example.org", "quiet_seconds": QUIET_MINUTES * 60})
        assert saved["email"] == "vic@example.org"

        page = wes.page
        page.goto(invite)
        page.fill("#join-name", "Wes")
        page.click("#join-submit")  # the last seat: the game starts, the page opens it
        # Every clock runs now (the bonds are written by all at once, 2.5.2): Uma and Vic
        # write theirs at once, through their browsers' sessions (their pages act later);
        # Wes writes none, and his clock runs out.
        wait_until("the game to start", lambda: self.http.get(
            f"{uma.url}/api/games/{game}").status_code == 200)
        for p in (uma, vic):
            _bond_by_session(p, game)
        page.wait_for_url(f"**/games/{game}#token=*")
        self.wes_token = page.url.split("#token=", 1)[1]
        expect(page.locator("#seat-name")).to_have_text("Wes")
        expect(page.locator("#keep-link")).to_contain_text("Keep this link")

    # --- 2. the bonds, the chat, a seat's own alerts --------------------------------------

    def bonds_chat_and_alert_settings(self) -> None:
        uma, vic, wes, watcher = self.uma, self.vic, self.wes, self.watcher
        game = self.game
        # Wes's own alerts for this seat, on his page (a guest has no account).
        page = wes.page
        expect(page.locator("#alert-settings")).to_be_visible()
        page.fill("#alert-webhook", "ftp://example.org/hook")
        page.click("#alert-form button[type=submit]")
        expect(page.locator("#alert-status")).to_contain_text("webhook:")
        hook = f"{self.receivers.webhook_url}/wes"
        page.fill("#alert-webhook", hook)
        page.fill("#alert-quiet", str(QUIET_MINUTES))
        page.click("#alert-form button[type=submit]")
        expect(page.locator("#alert-status")).to_have_text("Saved: alerts on.")
        saved = _get(self.http, wes.url, f"/api/games/{game}/alerts", self.wes_token)
        assert (saved["webhook"], saved["quiet_seconds"]) == (hook, QUIET_MINUTES * 60)

        # The accounts' seats need no token: their session answers (a URL without one).
        for p in (uma, vic):
            open_game(p.page, f"{p.url}/games/{game}")
            expect(p.page.locator("#seat-name")).to_have_text(p.name)
            expect(p.page.locator("#keep-link")).to_be_hidden()
        rules = _get(self.http, uma.url, f"/api/games/{game}/seats")
        assert abs(rules["clock"]["bank"] - self.bank) < 0.01  # typed in minutes
        assert rules["clock"]["increment"] == INCREMENT_SECONDS
        assert (rules["clock"]["at_zero"], rules["clock"]["bot"]) == ("bot", "random")
        assert rules["absent_after"] == 24 * 3600

        # The chat: written by a seat, read live by the other seats and a spectator, as text.
        open_game(watcher.page, f"{watcher.url}/games/{game}")
        expect(watcher.page.locator("#chat-form")).to_be_hidden()  # a spectator reads only
        expect(watcher.page.locator("#alert-settings")).to_be_hidden()
        uma.page.fill("#chat-text", HOSTILE)
        uma.page.press("#chat-text", "Enter")
        vic.page.locator("#chat-text").fill("Good luck, all")
        for p in (vic, wes, watcher):
            expect(p.page.locator("#chat-log li").first).to_have_text(f"Uma: {HOSTILE}")
        vic.page.click("#chat-form button[type=submit]")
        for p in (uma, vic, wes, watcher):
            expect(p.page.locator("#chat-log li")).to_have_count(2)
            expect(p.page.locator("#chat-log li").nth(1)).to_have_text("Vic: Good luck, all")
            assert p.page.locator("#chat-log img, #chat-log b").count() == 0
            assert p.page.evaluate("window.__pwned") is None
        expect(uma.page.locator("#chat-text")).to_have_value("")
        vic.page.locator("#chat").scroll_into_view_if_needed()
        shot(vic.page, "chat-laptop", self.tmp)
        watcher.context.close()  # its part is done: one page less to follow the game

    # --- 3. a clock runs out: the seat to a bot, and back --------------------------------

    def clock_runs_out_and_wes_takes_his_seat_back(self) -> None:
        wes, game = self.wes, self.game
        page = wes.page
        expect(page.locator(".seats .clock.mine")).to_be_visible()
        # At zero the page asks the server, which hands the seat to the bot (once).
        stand_in = page.locator(".seats .stand-ins")
        expect(stand_in).to_contain_text("Wes: played by the random bot (its clock ran out)",
                                         timeout=(self.bank + 60) * 1000)
        expect(page.locator(".seats .clock.mine.flagged")).to_contain_text("out of time")
        # The bot writes Wes's bond, and his claim if his comes first: then the game waits
        # for Uma or Vic (the bots wait for people).
        wait_until("the bot's bond for Wes and a person's decision",
                   lambda: "Wes" in _bonds(self.http, wes.url, game)
                   and bool(deciding(self.http, wes.url, game) & {"Uma", "Vic"}))
        page.locator("#seats-card").scroll_into_view_if_needed()
        shot(page, "clock-laptop", self.tmp)
        stand_in.get_by_role("button", name="Take my seat back").click()
        expect(page.get_by_role("button", name="Hand my seat to a bot")).to_be_visible()
        expect(page.locator(".seats .stand-ins")).to_have_count(0)
        seats = _get(self.http, wes.url, f"/api/games/{game}/seats")
        assert "Wes" not in seats["stand_ins"]
        assert seats["clock"]["seats"]["Wes"]["flagged"]  # the flag stays

    # --- 4. a reload and a changed URL keep each seat -------------------------------------

    def reload_and_changed_url_keep_each_seat(self) -> None:
        n = count(self.http, self.uma.url, self.game)
        for p in (self.wes, self.vic):  # a guest's seat (his browser), an account's
            page = p.page
            if p is self.wes:
                # "Skip to your decisions": the guest's token is no longer in the address.
                page.goto(f"{p.url}/games/{self.game}#decisions")
                assert "token=" not in page.url
            page.reload()
            wait_for_action(page, n)
            expect(page.locator("#seat-name")).to_have_text(p.name)
            keep = page.locator("#keep-link")
            if p is self.wes:  # the guest's seat: kept by his browser, which tells him so
                expect(keep).to_contain_text("Keep this link")
            else:
                expect(keep).to_be_hidden()

    # --- 5. "My games" -------------------------------------------------------------------

    def my_games_shows_whose_turn(self) -> None:
        """Each player's "My games" (a page beside the game's, in his browser): whose turn
        it is, as the engine's turn model says (the claims, 2.5.4: one decides)."""
        game = self.game
        now = deciding(self.http, self.uma.url, game)
        assert len(now) == 1, now
        for p in self.players.values():
            page = _beside(p, f"{p.url}/my-games")
            row = page.locator(f"#mine tr[data-game='{game}']")
            expect(row).to_contain_text(p.name)
            if p.name in now:
                expect(row).to_have_attribute("data-status", "your turn")
                expect(row).to_contain_text("Your turn")
                expect(page.locator("#mine tbody tr").first).to_have_attribute("data-game", game)
                shot(page, "my-games", self.tmp)
            else:
                expect(row).to_have_attribute("data-status", "playing")
                expect(row).to_contain_text(f"Waiting for {next(iter(now))}")
            page.close()

    # --- 6. the claims, two takebacks ----------------------------------------------------

    def _decide(self) -> tuple[str, int]:
        """Whoever decides now (one seat, the engine's turn model) acts on his page; his
        name and the action's id."""
        url = self.uma.url
        now = deciding(self.http, url, self.game)
        assert len(now) == 1, now
        name = next(iter(now))
        self.acted[name].append(_act(self.players[name], self.http, url, self.game))
        return name, count(self.http, url, self.game)

    def play_until_each_has_acted(self) -> None:
        """The claims until Wes, whose bond the bot wrote, has decided himself, and two
        players have acted one after the other since (what the takeback takes back)."""
        made: list[tuple[str, int]] = []
        for _ in range(8):
            made.append(self._decide())
            if all(self.acted.values()) and len(made) >= 2:
                break
        assert all(self.acted.values()), self.acted
        self.last_two = made[-2:]

    def takeback_refused_and_one_accepted(self) -> None:
        """The player who claimed before the last claim asks to take both back (beyond his
        own undo: another has acted since); one of the two others refuses.  He asks again,
        and both accept: the game is taken back, the two claims stay in the log struck
        through, and the claim is his again."""
        game, url = self.game, self.uma.url
        (asker, first), (second, last) = self.last_two
        assert asker != second and last == first + 1 == count(self.http, url, game)
        to = first - 1
        voters = [n for n in self.players if n != asker]
        page = self.players[asker].page
        first_voter = self.players[voters[0]].page
        # The clocks run for the seat deciding now; the card shows them.
        expect(page.locator(".seats .clock.running")).to_contain_text(
            _next_claimant(self.http, url, game))
        asked = f"{asker} asks to take the game back to action {to} (2 actions taken back)"

        _ask_takeback(page, to)
        for name in voters:
            expect(self.players[name].page.locator(".seats .request")).to_contain_text(asked)
        expect(page.locator(".seats .request")).to_contain_text(
            f"Waiting for {', '.join(voters)}")
        # No clock runs while the players decide (the open request holds them all).
        expect(page.locator(".seats")).to_contain_text(
            "Clocks stopped while the takeback is decided")
        expect(page.locator(".seats .clock.running")).to_have_count(0)
        first_voter.locator("#seats-card").scroll_into_view_if_needed()
        shot(first_voter, "takeback-request-laptop", self.tmp)
        first_voter.locator(".seats .request").get_by_role("button", name="Refuse").click()
        expect(page.locator(".seats .request-done")).to_contain_text(f"refused by {voters[0]}")
        expect(page.locator(".seats .request")).to_have_count(0)
        assert count(self.http, url, game) == last  # nothing changed
        expect(page.locator(".seats .clock.running")).to_have_count(1)  # running again

        _ask_takeback(page, to)
        expect(first_voter.locator(".seats .request")).to_contain_text(asked)
        first_voter.locator(".seats .request").get_by_role("button", name="Accept").click()
        expect(page.locator(".seats .request")).to_contain_text(f"Waiting for {voters[1]}")
        self.players[voters[1]].page.locator(".seats .request").get_by_role(
            "button", name="Accept").click()
        # Taken back by replay (the engine's two undo actions): the two claims stay in the
        # log, struck through.
        expect(page.locator("#log li.undone")).to_have_count(2)
        expect(page.locator(".seats")).to_contain_text(f"were taken back to action {to}")
        wait_for_action(page, last + 2)
        assert deciding(self.http, url, game) == {asker}  # his claim to make again
        expect(page.locator("#open-secret")).to_have_count(1)

    # --- 7. the alerts -------------------------------------------------------------------

    def exactly_the_expected_alerts(self) -> None:
        """One alert for each seat (its decision began several times; the quiet time of an
        hour holds the rest back), each to its own address, sent once (across processes)."""
        r, game = self.receivers, self.game
        wait_until("an alert for each seat", lambda: len(r.webhook("/uma")) >= 1
                   and len(r.webhook("/wes")) >= 1 and len(r.mails) >= 1)
        assert len(r.webhook("/uma")) == 1 and len(r.webhook("/wes")) == 1, r.webhook
        assert len(r.mails) == 1 and r.webhook("/vic") == []
        for name, body in (("Uma", r.webhook("/uma")[0]), ("Wes", r.webhook("/wes")[0])):
            assert body["content"] == body["text"]  # Discord's and Slack's field
            assert body["text"].startswith(f"1853: your turn, {name} (game {game}, ")
            assert self.wes_token not in body["text"]
        mail = r.mails[0]
        assert mail["To"] == "vic@example.org" and mail["Subject"] == "1853: your turn"
        assert f"your turn, Vic (game {game}, " in mail.get_payload()


def _beside(player: Player, url: str) -> Page:
    """A second tab of the player's browser at ``url``, opened from his game page as a link
    opens one (``window.open``): it shares the game page's renderer process, where a tab of
    its own (``context.new_page()``) started a renderer of its own (about 1 CPU-s of chromium
    each, three times a flow)."""
    # Watched from its creation on (the context's event), before any script of it runs.
    player.context.once("page", player.watch)
    with player.context.expect_page() as opened:
        player.page.evaluate("url => { window.open(url); }", url)
    page = opened.value
    page.wait_for_load_state()
    return page


def _ask_takeback(page: Page, to: int) -> None:
    page.fill("#takeback-to", str(to))
    page.get_by_role("button", name="Ask the others").click()


def _bonds(client: httpx.Client, url: str, game: str) -> list[str]:
    """Whose bonds are in the public log."""
    return [line["action"]["entity"]
            for line in _get(client, url, f"/api/games/{game}/log")["actions"]
            if line["action"]["type"] == "place_bond"]


def _next_claimant(client: httpx.Client, url: str, game: str) -> str:
    now = deciding(client, url, game)
    assert len(now) == 1, now
    return next(iter(now))
