"""Turn alerts and chat over HTTP (issue 22 items 3-4), against real servers on loopback.

Alerts go to a webhook receiver and an SMTP sink in this process (sinks.py; the e-mail over
STARTTLS with the sink's certificate verified, and a login): exactly the expected ones, the
quiet time included; two server processes on one database send an alert once; a hanging
webhook holds up no move.  The chat: written by seats, read by everyone, refused clearly when
bad, rate-limited, carried by the event stream.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import forkserver
import httpx
import pytest
from conftest import ServerProcess
from sinks import HangingReceiver, SmtpSink, WebhookReceiver, loopback_certificate
from webclient import EventStream, act, auth, client, create, option, view, wait_for

from india1853.interfaces.web.alerts import newly_deciding
from india1853.rules.game import Game, Settings

SWEEP = 0.1  # --alert-sweep-seconds of these servers: a check missed is made within it


@dataclass
class Setup:
    url: str
    data_dir: Path
    hook: WebhookReceiver
    smtp: SmtpSink
    env: dict[str, str]


def _options(smtp: SmtpSink) -> list[str]:
    """STARTTLS (the default) and a login: the sink's certificate is trusted by the server
    through ``SSL_CERT_FILE`` (the integration test sends without STARTTLS)."""
    return ["--alert-webhook-private", "--alert-sweep-seconds", str(SWEEP),
            "--smtp-host", "127.0.0.1", "--smtp-port", str(smtp.port),
            "--smtp-from", "alerts@india1853.test",
            "--smtp-user", "mailer", "--public-url", "https://1853.example.org"]


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    cert, tls = loopback_certificate(tmp_path_factory.mktemp("tls"))
    hook, smtp = WebhookReceiver(), SmtpSink(tls)
    data_dir = tmp_path_factory.mktemp("alerts-server")
    env = {"INDIA1853_SMTP_PASSWORD": "s3cret", "SSL_CERT_FILE": str(cert)}
    server = ServerProcess(data_dir, *_options(smtp), env=env)
    try:
        yield Setup(server.url, data_dir, hook, smtp, env)
    finally:
        server.stop()
        hook.close()
        smtp.close()


def _step(c: httpx.Client, game: str, tokens: dict[str, str], kind: str) -> str:
    """The first offered ``kind`` of the seat whose decision it is; that seat's name."""
    for name, token in tokens.items():
        state = view(c, game, token)
        if state["turn"]["decisions"]:
            try:
                action = option(state, kind)
            except AssertionError:
                continue
            act(c, game, token, action).raise_for_status()
            return name
    raise AssertionError(f"nobody may {kind}")


def _settle() -> None:
    """Long enough for every process's sweep to have looked again (a check that would send
    a wrong alert has then sent it)."""
    time.sleep(4 * SWEEP + 0.3)  # the sends go to sinks in this process: milliseconds


def test_alerts_reach_the_webhook_and_the_mailbox_once_per_quiet_time(setup: Setup) -> None:
    c = client(setup.url)
    made = create(c)
    game, tokens = made["id"], made["tokens"]
    bob_hook, cat_hook = f"{setup.hook.url}/bob", f"{setup.hook.url}/cat"
    r = c.put(f"/api/games/{game}/alerts", headers=auth(tokens["Bob"]),
              json={"webhook": bob_hook, "quiet_seconds": 0})
    assert r.status_code == 200, r.text
    assert r.json()["webhook"] == bob_hook and r.json()["quiet_seconds"] == 0
    # Cat: her e-mail and a webhook, with the server's quiet time (600 s).
    r = c.put(f"/api/games/{game}/alerts", headers=auth(tokens["Cat"]),
              json={"webhook": cat_hook, "email": "cat@example.org"})
    assert r.status_code == 200, r.text
    assert r.json()["default_quiet_seconds"] == 600
    # Each seat reads only its own settings.
    assert c.get(f"/api/games/{game}/alerts", headers=auth(tokens["Ann"])).json()[
        "webhook"] is None
    # Bonds are placed by all at once (2.5.2): nobody's decision begins with another's bond.
    for _ in range(3):
        _step(c, game, tokens, "place_bond")
    _settle()
    assert setup.hook.bodies == [] and setup.smtp.messages == []
    # The claims go Ann, Cat, Bob, Ann, Cat, Bob (the order of the bonds).
    assert _step(c, game, tokens, "claim_city") == "Ann"  # Cat's turn begins: alerted
    wait_for(lambda: len(setup.smtp.messages) == 1 and len(setup.hook.to("/cat")) == 1, 30)
    assert _step(c, game, tokens, "claim_city") == "Cat"  # Bob's turn: alerted
    wait_for(lambda: len(setup.hook.to("/bob")) == 1, 30)
    assert _step(c, game, tokens, "claim_city") == "Bob"
    assert _step(c, game, tokens, "claim_city") == "Ann"  # Cat's turn again: quiet time
    _settle()
    assert _step(c, game, tokens, "claim_city") == "Cat"  # Bob's again: no quiet time
    wait_for(lambda: len(setup.hook.to("/bob")) == 2, 30)
    _settle()
    assert len(setup.hook.to("/cat")) == 1 and len(setup.smtp.messages) == 1
    assert len(setup.hook.to("/bob")) == 2
    body = setup.hook.to("/bob")[0]
    # One body both Discord (content) and Slack (text) accept; public facts and a link only.
    assert body["content"] == body["text"]
    assert body["text"].startswith("1853: your turn, Bob")
    assert f"https://1853.example.org/games/{game}" in body["text"]
    assert "claims round, after action 5" in body["text"]
    mail = setup.smtp.messages[0]
    assert mail["To"] == "cat@example.org" and mail["From"] == "alerts@india1853.test"
    assert mail["Subject"] == "1853: your turn"
    assert "your turn, Cat" in mail.get_payload()
    assert setup.smtp.logins == [("mailer", "s3cret")]
    assert setup.smtp.encrypted == [True]  # STARTTLS, the certificate verified
    # No alert ever holds a token.
    for token in tokens.values():
        assert token not in json.dumps(setup.hook.bodies) and token not in str(mail)


def test_whose_decision_begins_is_the_engines_answer() -> None:
    """Bonds are placed by all at once (2.5.2): nobody's begins with another's bond; each
    claim begins the next claimant's; one's own undo brings back no news, a redo does."""
    game = Game(Settings(players=("Ann", "Bob", "Cat"), seed=5))
    humans = ("Ann", "Bob", "Cat")
    began = []
    for _ in range(5):
        entity = game.active_entities()[0][0]
        game.process(next(a for a in game.legal_actions(entity)
                          if a["type"] not in ("undo", "redo")))
        began.append(newly_deciding(game, humans, entity))
    assert began == [[], [], ["Ann"], ["Cat"], ["Bob"]]
    game.process({**game.action("undo", "Cat"), "id": game.next_id()})
    assert newly_deciding(game, humans, "Cat") == []  # Cat decides again: his own undo
    game.process({**game.action("redo", "Cat"), "id": game.next_id()})
    assert newly_deciding(game, humans, "Cat") == ["Bob"]


def _account(url: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    """A browser signed in as a new account, and the CSRF header of its writes."""
    c = client(url)
    r = c.post("/api/account/sign-up", json={"name": name, "password": "a long password"})
    assert r.status_code == 201, r.text
    return c, {"X-CSRF-Token": c.cookies["india1853_csrf"]}


def test_an_accounts_alerts_cover_all_its_seats_a_seats_own_go_first(setup: Setup) -> None:
    uma, uma_csrf = _account(setup.url, "Uma")
    vic, vic_csrf = _account(setup.url, "Vic")
    path = "/api/account/alerts"
    assert client(setup.url).get(path).status_code == 401  # no account
    assert uma.put(path, json={"webhook": f"{setup.hook.url}/uma"}).status_code == 403  # CSRF
    r = uma.put(path, headers=uma_csrf, json={"webhook": f"{setup.hook.url}/uma",
                                              "quiet_seconds": 0})
    assert r.status_code == 200 and r.json()["webhook"] == f"{setup.hook.url}/uma", r.text
    assert uma.put(path, headers=uma_csrf, json={"webhook": "x"}).json()["detail"].startswith(
        "webhook:")
    r = vic.put(path, headers=vic_csrf, json={"webhook": f"{setup.hook.url}/vic",
                                              "quiet_seconds": 0})
    assert r.status_code == 200, r.text
    made = uma.post("/api/open-games", headers=uma_csrf, json={
        "players": [{}, {"open": True}, {"open": True}], "seed": 5}).json()
    game = made["id"]
    assert vic.post(f"/api/open-games/{game}/join", headers=vic_csrf, json={}).status_code == 200
    wes = client(setup.url).post(f"/api/open-games/{game}/join", json={"name": "Wes"}).json()
    # Vic's own setting for this game's seat goes before his account's.
    r = vic.put(f"/api/games/{game}/alerts", headers=vic_csrf,
                json={"webhook": f"{setup.hook.url}/vic-here", "quiet_seconds": 0})
    assert r.status_code == 200, r.text
    seats = {"Uma": (uma, uma_csrf), "Vic": (vic, vic_csrf),
             "Wes": (client(setup.url), auth(wes["token"]))}
    expected = {"Uma": 0, "Vic": 0}
    watcher = client(setup.url)

    def deciding() -> set[str]:
        turn = watcher.get(f"/api/games/{game}").json()["turn"]
        return {a["player"] for a in turn["active"]}

    for kind in ["place_bond"] * 3 + ["claim_city"] * 3:
        before = deciding()
        for c, headers in seats.values():
            state = c.get(f"/api/games/{game}", headers=headers).json()
            offered = [o["action"] for d in state["turn"]["decisions"] for o in d["options"]
                       if o["action"]["type"] == kind]
            if offered:
                assert c.post(f"/api/games/{game}/actions", json=offered[0],
                              headers=headers).status_code == 200
                break
        for name in deciding() - before:  # the engine's view says whose decision began
            expected[name] = expected.get(name, 0) + 1
    assert expected["Uma"] and expected["Vic"]
    wait_for(lambda: len(setup.hook.to("/uma")) == expected["Uma"]
             and len(setup.hook.to("/vic-here")) == expected["Vic"], 30)
    _settle()
    assert len(setup.hook.to("/uma")) == expected["Uma"]
    assert len(setup.hook.to("/vic-here")) == expected["Vic"] and setup.hook.to("/vic") == []
    assert all("your turn, Uma" in b["text"] for b in setup.hook.to("/uma"))


def test_alert_settings_refuse_bad_input_naming_the_field(setup: Setup) -> None:
    c = client(setup.url)
    made = create(c)
    game, ann = made["id"], auth(made["tokens"]["Ann"])
    path = f"/api/games/{game}/alerts"
    cases: list[tuple[Any, int, str]] = [
        ({"webhook": "ftp://example.org/x"}, 422, "webhook:"),
        ({"webhook": "https://user:pw@example.org/x"}, 422, "webhook:"),
        ({"webhook": 5}, 422, "webhook:"),
        ({"email": "not-an-address"}, 422, "email:"),
        ({"email": "a@b.org\r\nBcc: x@y.org"}, 422, "email:"),
        ({"quiet_seconds": -1}, 422, "quiet_seconds:"),
        ({"quiet_seconds": True}, 422, "quiet_seconds:"),
        ({"colour": "red"}, 422, "colour:"),
        ([1, 2], 422, "body:"),
    ]
    for body, status, field in cases:
        r = c.put(path, headers=ann, json=body)
        assert r.status_code == status and r.json()["detail"].startswith(field), (body, r.text)
    assert c.put(path, json={"webhook": "https://example.org/x"}).status_code == 401
    assert c.get(path).status_code == 401
    assert c.get(path, headers=auth("junk")).status_code == 401
    assert c.put("/api/games/nosuchgame/alerts", headers=ann, json={}).status_code == 404
    # Nothing was written by the refusals.
    assert c.get(path, headers=ann).json()["webhook"] is None
    hot = create(c, hotseat=True)
    r = c.put(f"/api/games/{hot['id']}/alerts", headers=auth(hot["hotseat_token"]),
              json={"webhook": "https://example.org/x"})
    assert r.status_code == 403 and r.json()["detail"].startswith("token:")


def test_two_processes_on_one_database_send_an_alert_once(setup: Setup) -> None:
    other = ServerProcess(setup.data_dir, *_options(setup.smtp), env=setup.env)
    try:
        a, b = client(setup.url), client(other.url)
        made = create(a)
        game, tokens = made["id"], made["tokens"]
        # Set through the other process: the settings are the database's.
        r = b.put(f"/api/games/{game}/alerts", headers=auth(tokens["Ann"]),
                  json={"webhook": f"{setup.hook.url}/ann-{game}", "quiet_seconds": 0})
        assert r.status_code == 200, r.text
        for _ in range(3):  # the last bond begins Ann's claim: one alert, from one process
            _step(a, game, tokens, "place_bond")
        wait_for(lambda: len(setup.hook.to(f"/ann-{game}")) == 1, 30)
        _settle()  # both processes have swept the game since
        assert len(setup.hook.to(f"/ann-{game}")) == 1
    finally:
        other.stop()


def test_a_hanging_webhook_never_holds_up_a_move_and_failures_are_logged(
        setup: Setup) -> None:
    c = client(setup.url)
    made = create(c)
    game, tokens = made["id"], made["tokens"]
    hanging = HangingReceiver()
    try:
        r = c.put(f"/api/games/{game}/alerts", headers=auth(tokens["Ann"]),
                  json={"webhook": hanging.url, "quiet_seconds": 0})
        assert r.status_code == 200, r.text
        for _ in range(3):  # the last bond begins Ann's claim: her webhook hangs
            _step(c, game, tokens, "place_bond")
        wait_for(lambda: hanging.held == 1, 30)
        # The move was answered while its alert is still on its way, and the game goes on.
        assert hanging.closed_by_client == 0
        assert _step(c, game, tokens, "claim_city") == "Ann"
        assert view(c, game)["last_action_id"] == 4 and hanging.closed_by_client == 0
    finally:
        hanging.close()  # closed without an answer: the server logs the failed alert
    log = setup.data_dir / "server.err"
    wait_for(lambda: f"alert to Ann (webhook) for game {game} failed" in log.read_text(), 30)
    assert view(c, game)["last_action_id"] == 4  # the server goes on


@pytest.mark.parametrize(("args", "env", "message"), [
    (["--smtp-host", "mail.example.org"], {},
     "error: --smtp-from: an e-mail address the alerts are sent from is needed"),
    (["--smtp-host", "m.example.org", "--smtp-from", "a@b.org", "--smtp-port", "0"], {},
     "error: --smtp-port: must be from 1 to 65535, got 0"),
    (["--smtp-host", "m.example.org", "--smtp-from", "a@b.org", "--smtp-user", "me"], {},
     "error: --smtp-user: the password comes from INDIA1853_SMTP_PASSWORD, which is not set"),
    (["--smtp-host", "m.example.org", "--smtp-from", "a@b.org"],
     {"INDIA1853_SMTP_STARTTLS": "maybe"}, "error: INDIA1853_SMTP_STARTTLS: must be 1 or 0"),
    (["--alert-quiet-seconds", "-5"], {}, "error: --alert-quiet-seconds: must be from 0"),
    (["--public-url", "1853.example.org"], {},
     "error: --public-url: '1853.example.org' is not an http(s) URL"),
])
def test_serve_refuses_bad_alert_options_in_one_line(tmp_path: Path, args: list[str],
                                                     env: dict[str, str], message: str) -> None:
    done = forkserver.run(["serve", "--port", "0", "--data-dir", str(tmp_path), *args],
                          timeout=60, env=env)
    assert done.returncode == 2
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr


# --- chat ------------------------------------------------------------------------------------


def test_chat_written_by_seats_read_by_everyone_and_streamed(setup: Setup) -> None:
    c = client(setup.url)
    made = create(c)
    game, tokens = made["id"], made["tokens"]
    path = f"/api/games/{game}/chat"
    spectator = EventStream(setup.url, f"/api/games/{game}/events")
    try:
        wait_for(lambda: len(spectator.events) == 1, 30)
        text = '<img src=x onerror="alert(1)"> & hello'
        r = c.post(path, headers=auth(tokens["Ann"]), json={"text": f"  {text}\n"})
        assert r.status_code == 201, r.text
        message = r.json()
        assert message["seat"] == "Ann" and message["text"] == text
        wait_for(lambda: b"event: chat" in spectator.raw, 30)
        chat_line = next(line for line in spectator.raw.split(b"\n")
                         if line.startswith(b"data: {\"messages\""))
        assert json.loads(chat_line[6:])["messages"] == [message]
        assert len(spectator.events) == 2  # the view once, then the chat: no view again
    finally:
        spectator.close()
    # Everyone who can watch reads it, whatever token (or none) he brings.
    for headers in ({}, auth(tokens["Cat"]), auth("junk")):
        assert c.get(path, headers=headers).json() == {"messages": [message]}
    r = c.post(path, headers=auth(tokens["Bob"]), json={"text": "second"})
    assert c.get(path, params={"after": message["id"]}).json()["messages"] == [r.json()]
    # A stream opened now starts with the chat so far, after the view.
    late = EventStream(setup.url, f"/api/games/{game}/events", token=tokens["Cat"])
    try:
        wait_for(lambda: b"event: chat" in late.raw, 30)
        assert late.raw.index(b"event: chat") > late.raw.index(b"data: {\"game\"")
        assert b"second" in late.raw
    finally:
        late.close()
    assert view(c, game)["last_action_id"] == 0  # the chat is no action


def test_chat_refuses_bad_messages_and_floods(setup: Setup) -> None:
    c = client(setup.url)
    made = create(c, hotseat=True)
    game, ann = made["id"], auth(made["tokens"]["Ann"])
    path = f"/api/games/{game}/chat"
    cases: list[tuple[dict[str, str], Any, int, str]] = [
        ({}, {"text": "hi"}, 401, "token:"),
        (auth("junk"), {"text": "hi"}, 401, "token:"),
        (ann, {"text": ""}, 422, "text:"),
        (ann, {"text": "   "}, 422, "text:"),
        (ann, {"text": "x" * 501}, 422, "text:"),
        (ann, {"text": "bell\x07"}, 422, "text:"),
        (ann, {"text": 5}, 422, "text:"),
        (ann, {"text": "hi", "seat": "Bob"}, 422, "seat:"),
        (ann, "hi", 422, "body:"),
    ]
    for headers, body, status, field in cases:
        r = c.post(path, headers=headers, json=body)
        assert r.status_code == status and r.json()["detail"].startswith(field), (body, r.text)
    r = c.post(path, headers=ann, params={"seat": "Bob"}, json={"text": "hi"})
    assert r.status_code == 403
    assert c.post("/api/games/nosuchgame/chat", headers=ann, json={"text": "hi"}
                  ).status_code == 404
    assert c.get(path, params={"after": -1}).status_code == 422
    r = c.get(path, params={"after": 2**63})  # past any row id: no database error, a 422
    assert r.status_code == 422 and r.json()["detail"].startswith("after:"), r.text
    assert c.get(path).json() == {"messages": []}  # nothing written
    # The shared screen writes as the seat it names.
    r = c.post(path, headers=auth(made["hotseat_token"]), params={"seat": "Cat"},
               json={"text": "from the shared screen"})
    assert r.status_code == 201 and r.json()["seat"] == "Cat"
    assert all(c.post(path, headers=ann, json={"text": f"{i}"}).status_code == 201
               for i in range(10))
    r = c.post(path, headers=ann, json={"text": "one too many"})
    assert r.status_code == 429 and r.json()["detail"].startswith("chat: at most 10")
    assert len(c.get(path).json()["messages"]) == 11
