"""Secrets over HTTP, tested as the hostile tester found the first-edition bid (issue 19): two
games that differ ONLY in one seat's secret choice, played on with the same public actions.
Every response that another seat's token, the spectator (no token) or a junk token receives
must be the same bytes in both games - over every endpoint: the listing, the game view, the
log, the event stream's snapshot, "My games", the history ``at/N`` for every N since the
secret, the board (now and ``?at=N``), the charts, a preview, the seat's hint, the chat, the
seat's alert settings and the errors of refused actions - until the rules reveal the secret.
After the end every secret is public: the two games' responses differ.

The games come from finished logs of tests/games (both checked by the engine to the end with
the one change), so that each scenario also ends.  The actions before the secret are imported
(the two games are then equal by construction, so ``at/N`` is compared from there on); the
secret action and those after it are posted one by one, the same to both games.  Only what is
not a secret is normalised away: the game's id and the time stamps (``created_at``, and the
seats' ``resolved_at`` and ``since``).

Which viewer asks what, and when (every request costs the server; issue 20 item 6).  The
listing, the log, the board, the charts and the history (``at/N``, ``board.svg?at=N``) are
served by handlers that take no token (web/app.py: their only inputs are the game's id and
``after``/``n``/``at``; the Guard middleware reads a token only to count rate limits, which
these servers switch off): what they return is one function of the game's log, whoever asks.
So they are compared in every state as the spectator receives them, and, to catch a handler
or a middleware that came to read the token after all, as every viewer receives them in one
state (the one before the rules reveal the secret, else the last; the history's ``at/N`` and
``board.svg?at=N`` at the window's last N).  The charts, drawn by matplotlib at a second or
two a picture, are compared in that one state as the spectator receives them (the tokens'
passage through the middleware is checked on the other token-free endpoints there).  The
board of every state is compared once: as ``board.svg?at=N`` for every N of the window (the
same drawing, ``game_board_svg``, of the same position, replayed from the same log: the engine
is event-sourced), and as ``board.svg`` now in that one state.  Everything that reads the token
(the view, the event stream, previews, refused actions) is compared for every viewer in every
state.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import ServerProcess
from webclient import Loopback, auth

from india1853.rules.game import Game, Settings

GAMES = Path(__file__).resolve().parents[1] / "games"
JUNK = "junk-token-that-is-no-seats"
Json = dict[str, Any]


@dataclass(frozen=True)
class Scenario:
    fixture: str
    index: int  # the secret action's index in the log (0-based)
    change: Json  # the fields game B's secret action has instead
    window: int  # actions posted after the secret one (fewer if the secret is revealed)
    revealed: Callable[[Json], bool]  # from the spectator's view: the rules revealed it
    secret_b: str  # a word of game B's secret that is public after the end
    reveals_in_window: bool = False


def _player(view: Json, name: str) -> Json:
    return next(p for p in view["players"] if p["name"] == name)


SCENARIOS = {
    # Second edition: Ann's bond (2.5.2), revealed when every bond is in (2.5.3).
    "second-bond": Scenario("greedy-3p-seed3.json", 0, {"amount": 110}, 4,
                            lambda v: v["round"] != "bonds", "110", reveals_in_window=True),
    # Second edition: Ann's first city (2.5.4), revealed when her contract is fulfilled.
    "second-claim": Scenario("greedy-3p-seed3.json", 3, {"city": "Lucknow"}, 13,
                             lambda v: _player(v, "Ann")["contract"] is not None
                             or v["round"] == "finished", "Lucknow"),
    # First edition: Bob's whole bid (14.5), the same shares and bond, other cities in another
    # order: the shares are stated once every bid is in (15.1), the cities stay secret.
    "first-bid": Scenario("first/greedy-4p-seed5.json", 1, {"claims": [
        {"city": "Lahore", "company": "NWR"}, {"city": "Ajmer", "company": "NWR"},
        {"city": "Peshawar", "company": "NWR"}]}, 6,
        lambda v: _player(v, "Bob")["cities"] is not None or v["round"] == "finished",
        "Peshawar"),
    # MIK 2: C rejects Rice instead of Tea (face down on the discard stack); his hand differs.
    "mik2-reject": Scenario("first/greedy-4p-seed3-mik2-alt-start.json", 543,
                            {"cards": ["COMMODITY:RICE"]}, 5,
                            lambda v: v["round"] == "finished", "COMMODITY:RICE"),
}


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The module's server: a hint's search bounded by its count of router calls alone (a
    CPU budget it never reaches), so that the machine's load cannot make two games' hints
    differ."""
    server = ServerProcess(tmp_path_factory.mktemp("web-server"), "--bot-cpu-seconds", "30")
    try:
        yield server.url
    finally:
        server.stop()


def _logs(s: Scenario) -> tuple[Json, list[Json], list[Json]]:
    data = json.loads((GAMES / s.fixture).read_text())
    a = [dict(x) for x in data["actions"]]
    b = [dict(x) for x in a]
    b[s.index] = {**b[s.index], **s.change}
    return data, a, b


def _import(c: Loopback, data: Json, actions: list[Json]) -> Json:
    body = {"engine_version": data["engine_version"], "settings": data["settings"],
            "actions": actions}
    # With hints: each seat's hint (the strong bot's search on its view) is compared too.
    r = c.post("/api/games/import", params={"hotseat": "true", "hints": "true"}, json=body,
               timeout=600)
    assert r.status_code == 201, r.text
    made: Json = r.json()
    return made


def _normal(raw: bytes, game_id: str) -> bytes:
    """The bytes less what differs between any two games: the id and the time stamps."""
    raw = raw.replace(game_id.encode(), b"GAME")
    # created_at: the actions', the requests'; resolved_at, since: the seats' (/seats)
    return re.sub(rb'"(created_at|resolved_at|since)": ?[0-9.e+]+', rb'"\1":0', raw)


def _snapshot_event(c: Loopback, path: str, params: dict[str, str]) -> bytes:
    """The event stream's first event (its snapshot), or the refusal."""
    with c.stream("GET", path, params=params, timeout=30) as r:
        if r.status_code != 200:
            return f"{r.status_code} ".encode() + r.read()
        out = bytearray()
        for line in r.iter_lines():
            out += line.encode() + b"\n"
            if line == "" and b"data: " in out:
                return bytes(out)
    raise AssertionError("the stream ended without an event")


class Table:
    """One game on the server, seen by the viewers who must not learn the secret."""

    def __init__(self, c: Loopback, url: str, made: Json, owner: str) -> None:
        self.c, self.url = c, url
        self.id: str = made["id"]
        self.hot: str = made["hotseat_token"]
        self._spectator: bytes | None = None  # the spectator's GET in this state
        self.viewers: dict[str, str | None] = {
            **{f"seat {n}": t for n, t in made["tokens"].items() if n != owner},
            "spectator": None, "junk token": JUNK}

    def post(self, action: Json) -> None:
        r = self.c.post(f"/api/games/{self.id}/actions", json=action, headers=auth(self.hot))
        assert r.status_code == 200, r.text
        self._spectator = None

    def _spectator_get(self) -> bytes:
        """The spectator's GET of the game (status and body), asked once per state: the
        same URL without a token at the same action is the same answer (the differential's
        view and the check of the revealing rule share it)."""
        if self._spectator is None:
            r = self.c.get(f"/api/games/{self.id}")
            self._spectator = f"{r.status_code} ".encode() + r.content
        return self._spectator

    def spectator_view(self) -> Json:
        view: Json = json.loads(self._spectator_get()[4:])["turn"]["view"]
        return view

    def responses(self, upcoming: Json | None, probe: Json, *,
                  full: bool = False) -> list[tuple[str, bytes]]:
        """Every response each viewer receives now (``upcoming``: the log's next action).
        The listing and the log read no token: after each action they are asked by the
        spectator only; ``full`` (once per game): by every viewer, and the board now too (the
        history has every state's board), and the charts by the spectator (matplotlib is
        slow; see the module's docstring)."""
        out: list[tuple[str, bytes]] = []
        g = f"/api/games/{self.id}"
        for who, token in self.viewers.items():
            h = auth(token) if token else {}

            def get(path: str, label: str, who: str = who, h: dict[str, str] = h,
                    **params: Any) -> None:
                r = self.c.get(path, headers=h, params=params)
                out.append((f"{who}: {label}", f"{r.status_code} ".encode() + r.content))

            def post(path: str, label: str, body: Json, who: str = who,
                     h: dict[str, str] = h) -> None:
                r = self.c.post(path, headers=h, json=body)
                out.append((f"{who}: {label}", f"{r.status_code} ".encode() + r.content))

            if full or token is None:
                listing = self.c.get("/api/games", headers=h).json()["games"]
                mine = next(x for x in listing if x["id"] == self.id)
                out.append((f"{who}: listing", json.dumps(mine, sort_keys=True).encode()))
                get(f"{g}/log", "log")
                get(f"{g}/log", "log after 2", after=2)
                get(f"{g}/seats", "seats")  # clock, stand-ins, requests (token-free)
            if full:
                get(f"{g}/board.svg", "board")
            if full and token is None:
                get(f"{g}/stats.svg", "stats.svg")
            if token is None:
                out.append((f"{who}: view", self._spectator_get()))
            else:
                get(g, "view")
            view = out[-1][1]  # the view now (only refused actions are posted below)
            get(f"{g}/hint", "hint")
            get(f"{g}/chat", "chat")  # issue 22: the chat, and the seat's alert settings
            get(f"{g}/alerts", "alerts")
            # "My games" (issue 22): the game as the seat's own list tells it.
            post("/api/my-games", "my games",
                 {"seats": [{"game": self.id, "token": token}] if token else []})
            params = {"token": token} if token else {}
            out.append((f"{who}: events", _snapshot_event(self.c, f"{g}/events", params)))
            seat = who.removeprefix("seat ") if who.startswith("seat ") else "Nobody"
            own_probe = {**probe, "entity": seat}
            post(f"{g}/preview", "preview of a probe with the secret", own_probe)
            post(f"{g}/preview?draft=true", "run draft of a probe with the secret", own_probe)
            if upcoming is not None:
                post(f"{g}/preview", "preview of the next action", upcoming)
                post(f"{g}/actions", "a stale id", {**upcoming, "id": upcoming["id"] - 1})
                deciding = token is not None and view.startswith(b"200 ") and json.loads(
                    view[4:]).get("turn", {}).get("decisions")
                if not deciding:  # refused: not his to decide
                    post(f"{g}/actions", "another's action", upcoming)
            if full:
                # A takeback asked (the engine's refusal at the undo barrier, or a request
                # opened: the same in both games, and every later answer shows it).
                post(f"{g}/requests", "a takeback to the start",
                     {"kind": "takeback", "to": 0})
                post(f"{g}/requests", "a takeback past the log",
                     {"kind": "takeback", "to": 10 ** 6})
                self._spectator = None  # a request opened may show in the view
            post(f"{g}/actions", "an undo", {"type": "undo", "entity": "Nobody",
                                             "entity_type": "player", "created_at": 0,
                                             "id": upcoming["id"] if upcoming else 1})
        return [(label, _normal(raw, self.id)) for label, raw in out]

    def history(self, start: int, end: int) -> list[tuple[str, bytes]]:
        """``at/N`` and ``board.svg?at=N`` for every N in [start, end] as the spectator
        receives them, and for N = ``end`` as every viewer does (they read no token)."""
        out: list[tuple[str, bytes]] = []
        g = f"/api/games/{self.id}"
        for who, token in self.viewers.items():
            h = auth(token) if token else {}
            for n in range(start if token is None else end, end + 1):
                for label, path, params in ((f"at/{n}", f"{g}/at/{n}", {}),
                                            (f"board.svg?at={n}", f"{g}/board.svg",
                                             {"at": n})):
                    r = self.c.get(path, headers=h, params=params)
                    out.append((f"{who}: {label}", f"{r.status_code} ".encode() + r.content))
        return [(label, _normal(raw, self.id)) for label, raw in out]


def _same(a: list[tuple[str, bytes]], b: list[tuple[str, bytes]], when: str) -> None:
    assert [label for label, _ in a] == [label for label, _ in b]
    for (label, x), (_, y) in zip(a, b, strict=True):
        if x != y:
            at = next(i for i in range(min(len(x), len(y))) if x[i] != y[i]) \
                if x[:min(len(x), len(y))] != y[:min(len(x), len(y))] else min(len(x), len(y))
            raise AssertionError(f"{when}, {label}: the two games differ at byte {at}: "
                                 f"{x[max(0, at - 150):at + 150]!r} / "
                                 f"{y[max(0, at - 150):at + 150]!r}")


def _revealing(s: Scenario, data: Json, logs: tuple[list[Json], ...], end: int) -> int | None:
    """The index of the first action in the window after which the rules have revealed the
    secret in either game (the engine's public view), or None."""
    settings = Settings.from_json(data["settings"])
    found: list[int] = []
    for log in logs:
        game = Game.replay(settings, log[:s.index], check=False)
        for k in range(s.index, end):
            game.process(log[k])
            if s.revealed(json.loads(json.dumps(game.view(None)))):
                found.append(k)
                break
    return min(found) if found else None


def _owner(action: Json) -> str:
    return str(action["entity"])


# The second-edition scenarios here, the first edition's in test_secrecy_differential_first.py
# (the same checks: a file each, so that two test workers share them).
SECOND = ["second-bond", "second-claim"]
FIRST = ["first-bid", "mik2-reject"]


@pytest.mark.parametrize("name", SECOND)
def test_one_secret_choice_changes_no_byte_another_seat_receives(
        server_url: str, name: str) -> None:
    one_secret_choice_changes_no_byte_another_seat_receives(server_url, name)


@pytest.mark.parametrize("name", [n for n in SECOND if n != "second-bond"])
def test_after_the_end_every_secret_is_public(server_url: str, name: str) -> None:
    after_the_end_every_secret_is_public(server_url, name)


def one_secret_choice_changes_no_byte_another_seat_receives(server_url: str, name: str) -> None:
    s = SCENARIOS[name]
    data, log_a, log_b = _logs(s)
    c = Loopback(server_url)
    owner = _owner(log_a[s.index])
    tables = [Table(c, server_url, _import(c, data, log_a[:s.index]), owner),
              Table(c, server_url, _import(c, data, log_b[:s.index]), owner)]
    # A probe each viewer previews for his own seat: the secret action with game A's secret.
    probe = {**log_a[s.index], "id": s.index + 1}
    end = min(len(log_a), s.index + 1 + s.window)
    revealing = _revealing(s, data, (log_a, log_b), end)  # the engine says where (checked)
    revealed_at = None
    for k in range(s.index, end):
        upcoming = [{**log[k], "created_at": 0} for log in (log_a, log_b)]
        probe = {**probe, "id": k + 1}
        full = k == revealing  # before the revealing action: every endpoint, every viewer
        _same(tables[0].responses(upcoming[0] if k > s.index else None, probe, full=full),
              tables[1].responses(upcoming[1] if k > s.index else None, probe, full=full),
              f"before action {k + 1}")
        for table, action in zip(tables, upcoming, strict=True):
            table.post(action)
        views = [t.spectator_view() for t in tables]
        if any(s.revealed(v) for v in views):
            revealed_at = k + 1
            break
    assert revealed_at == (None if revealing is None else revealing + 1)
    if revealed_at is None:
        _same(tables[0].responses(None, probe, full=True),
              tables[1].responses(None, probe, full=True), f"after action {end}")
    done = (revealed_at or end) - (1 if revealed_at else 0)
    _same(tables[0].history(s.index, done), tables[1].history(s.index, done),
          f"history up to action {done}")
    if s.reveals_in_window:
        assert revealed_at is not None, "the rules reveal this secret within the window"
        # The rule revealed it: now the public responses differ, as they should.
        assert tables[0].spectator_view() != tables[1].spectator_view()
    else:
        assert revealed_at is None


def after_the_end_every_secret_is_public(server_url: str, name: str) -> None:
    s = SCENARIOS[name]
    data, log_a, log_b = _logs(s)
    c = Loopback(server_url)
    made = [_import(c, data, log) for log in (log_a, log_b)]
    logs = [c.get(f"/api/games/{m['id']}/log").content for m in made]
    views = [c.get(f"/api/games/{m['id']}").content for m in made]
    assert all(json.loads(v)["game"]["finished"] for v in views)
    assert _normal(logs[0], made[0]["id"]) != _normal(logs[1], made[1]["id"])
    b_log = json.loads(logs[1])
    secret = b_log["actions"][s.index]["action"]
    assert "hidden" not in secret and json.dumps(secret).find(s.secret_b) >= 0
    assert b_log["log"]["actions"][s.index] == log_b[s.index]
    assert json.loads(logs[0])["actions"][s.index]["action"] == log_a[s.index]
