"""Two server processes on one real PostgreSQL database, live updates through real Redis.

The servers: one real PostgreSQL and one real Redis for the test process (services.py,
shared with test_pg_flow.py), a fresh schema per test, and a factory of server processes
that stops every server it started.
One game, pages on both processes, concurrent actions sent to either: the log has no gap and
no duplicate, every page (on either process) converges to the same state, bots move exactly
once per turn though both processes run a bot runner, and a ``kill -9`` of one process loses
no acknowledged action.  Accounts and open seats across the two processes (a session,
joins racing for the last seats).  And a 128-bit seed on PostgreSQL (issue 19, item 6): the
seed lives in the ``games.settings`` JSON column, which keeps any integer exactly; a server
restarted on the database (no cache) publishes the same commitment and deals the same hand
(here, on the shared PostgreSQL: a cluster of its own cost a second ``initdb``).
Turn alerts sent once and the chat across the processes are test_pg_flow.py's (issue 22's
flow in the browser, on two processes).
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import services
from cluster import Server, Stream, auth, client, warm
from sqlalchemy import create_engine, text

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}, {"name": "Dan"}]

# The fixtures live here, not in a conftest.py: tests/web imports its own ``conftest`` module
# by name, and a second one would shadow it when both directories are collected.


@pytest.fixture
def redis_url(request: pytest.FixtureRequest) -> str:
    """The test process's one Redis (shared with test_pg_flow.py)."""
    return services.shared_redis(request.config)


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    """The test process's one PostgreSQL database (shared with test_pg_flow.py), emptied
    (every table dropped) for this test."""
    return services.empty_postgres(request.config)


class Pair:
    """Two server processes on one database and the Redis, shared by the module's tests
    that neither stop nor kill them: a server's start (its schema check on PostgreSQL
    included) cost about half a second of CPU and two of waiting, twenty times a run."""

    def __init__(self, db: str, a: Server, b: Server) -> None:
        self.db, self.a, self.b = db, a, b


@pytest.fixture(scope="module")
def pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[Pair]:
    """The module's two processes on a database of their own (``pg_url``'s tests empty the
    other one) and the test process's Redis; each test plays its own game on them."""
    warm()  # the fork server's imports beside PostgreSQL's start (the first user's)
    db = services.empty_postgres(request.config, "india1853_pair")
    redis = services.shared_redis(request.config)
    base = tmp_path_factory.mktemp("pair")
    # Both start side by side (their schema checks and starts overlap). Their bot sweeps look
    # every 0.5 s instead of 5 s (`serve --sweep-seconds`): test_bots_go_on_when_the_process_
    # that_woke_them_dies waits for B's sweep, and no test of the pair is about its interval.
    started: list[Server] = []
    try:
        for name in ("a", "b"):
            started.append(Server(base / name, db, redis, options=("--sweep-seconds", "0.5"),
                                  wait=False))
        a, b = (s.ready() for s in started)
    except BaseException:
        for server in started:
            server.stop()
        raise
    yield Pair(db, a, b)
    a.stop()
    b.stop()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(db_url: str, redis_url: str | None = None, bot_delay: float = 0.0,
              options: tuple[str, ...] = ()) -> Server:
        server = Server(tmp_path / f"server{len(started)}", db_url, redis_url, bot_delay,
                        options)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def db_ids(pg_url: str, game_id: str) -> list[tuple[int, int]]:
    engine = create_engine(pg_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT idx, data FROM actions WHERE game_id = :g "
                                 "ORDER BY idx"), {"g": game_id}).all()
    engine.dispose()
    return [(int(r.idx), int(r.data["id"])) for r in rows]


def options(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [o["action"] for d in state["turn"]["decisions"] for o in d["options"]]


def public(state: dict[str, Any]) -> dict[str, Any]:
    """What every page of one seat must agree on."""
    return {"last": state["last_action_id"], "turn": state["turn"]}


def test_two_processes_one_game_concurrent_pages_converge(pair: Pair) -> None:
    a, b, pg_url = pair.a, pair.b, pair.db
    made = client(a.url).post("/api/games", json={"players": PLAYERS, "seed": 11}).json()
    game, tokens = made["id"], made["tokens"]
    # Every seat and a spectator follow the game on both processes, each seat's stream opened
    # with a ticket the other process issued.
    streams = {(name, s.url): Stream(s.url, game, tokens.get(name),
                                     ticket_from=(b if s is a else a).url)
               for s in (a, b) for name in [*tokens, None]}
    accepted: list[int] = []
    refused: list[str] = []
    target = 60
    deadline = time.monotonic() + 120

    def page(name: str, server: Server, seed: int) -> None:
        """A seat's page as the browser's follows the game: its first answer, then what its
        own stream pushes (the same JSON as GET) and the answers to its own actions."""
        rng = random.Random(seed)
        stream = streams[(name, server.url)]  # the page's own stream, on its own process
        with client(server.url) as c:
            state = c.get(f"/api/games/{game}", headers=auth(tokens[name])).json()
            while time.monotonic() < deadline:
                if state["last_action_id"] >= target or state["turn"]["finished"]:
                    return
                mine = options(state)
                if mine:
                    posted = c.post(f"/api/games/{game}/actions", json=rng.choice(mine),
                                    headers=auth(tokens[name]))
                    if posted.status_code == 200:
                        state = posted.json()
                        accepted.append(state["last_action_id"])
                        continue
                    if posted.status_code != 409:
                        refused.append(f"{posted.status_code} {posted.text[:200]}")
                # Not this seat's turn, or its page was stale (409: another page acted first):
                # until the next action reaches its page.
                stream.wait(state["last_action_id"] + 1,
                            timeout=max(0.1, deadline - time.monotonic()))
                state = stream.latest()

    # Two pages per seat, one on each process, all sending at once.
    pages = [threading.Thread(target=page, args=(name, server, i))
             for i, (name, server) in enumerate((n, s) for n in tokens for s in (a, b))]
    for t in pages:
        t.start()
    for t in pages:
        t.join()
    assert refused == []
    last = max(accepted)
    assert last >= target
    assert sorted(accepted) == list(range(1, last + 1))  # each acknowledged id once
    assert db_ids(pg_url, game) == [(i, i) for i in range(1, last + 1)]
    for name in [*tokens, None]:
        views = [client(s.url).get(f"/api/games/{game}", headers=auth(tokens.get(name)))
                 .json() for s in (a, b)]
        assert public(views[0]) == public(views[1])
        for s in (a, b):
            pushed = streams[(name, s.url)].wait(last)
            assert public(pushed) == public(views[0]), (name, s.url)
    for stream in streams.values():
        stream.close()


def test_an_action_on_one_process_is_pushed_to_pages_on_the_other(pair: Pair) -> None:
    a, b = pair.a, pair.b
    made = client(a.url).post("/api/games", json={"players": PLAYERS[:3], "seed": 2}).json()
    game, tokens = made["id"], made["tokens"]
    watcher = Stream(b.url, game)
    watcher.wait(0)
    delays: list[float] = []
    for n in range(1, 9):
        with client(a.url) as c:
            state = next(s for s in (c.get(f"/api/games/{game}", headers=auth(t)).json()
                                     for t in tokens.values()) if options(s))
            start = time.monotonic()
            r = c.post(f"/api/games/{game}/actions", json=options(state)[0],
                       headers=auth(tokens[state["seat"]]))
            assert r.status_code == 200, r.text
        pushed = watcher.wait(n, timeout=10)
        delays.append(time.monotonic() - start)
        assert pushed["last_action_id"] == n
    # Through Redis, at once: the streams' own look at the database (every 5 s) would take
    # 2.5 s on average.
    assert sorted(delays)[len(delays) // 2] < 1.0, delays
    assert max(delays) < 4.0, delays
    watcher.close()


def test_bots_move_once_with_two_processes(
        pair: Pair, redis_url: str, start_server: Callable[..., Server]) -> None:
    a, pg_url = pair.a, pair.db
    players = [{"name": "Ann"}, {"name": "B1", "bot": "greedy"},
               {"name": "B2", "bot": "greedy"}, {"name": "B3", "bot": "greedy"}]
    made = client(a.url).post("/api/games", json={"players": players, "seed": 9}).json()
    game, token = made["id"], made["tokens"]["Ann"]
    # A second process starts while the bots play: it wakes the same game's bots too.
    b = start_server(pg_url, redis_url)
    stream_b = Stream(b.url, game, token)
    rng = random.Random(5)
    last = 0
    for _ in range(12):
        state = stream_b.wait(last, timeout=60)
        # Wait until the bots are done and it is Ann's turn, as a page on B sees it.
        deadline = time.monotonic() + 60
        while not options(state):
            assert time.monotonic() < deadline, "Ann never got a turn"
            state = stream_b.wait(state["last_action_id"] + 1, timeout=60)
        server = (a, b)[rng.randrange(2)]
        r = client(server.url).post(f"/api/games/{game}/actions",
                                    json=rng.choice(options(state)), headers=auth(token))
        assert r.status_code in (200, 409), r.text
        last = r.json()["last_action_id"] if r.status_code == 200 else state["last_action_id"]
    count = client(a.url).get(f"/api/games/{game}").json()["last_action_id"]
    assert db_ids(pg_url, game) == [(i, i) for i in range(1, count + 1)]
    log = client(b.url).get(f"/api/games/{game}/log").json()["actions"]
    assert [line["id"] for line in log] == list(range(1, count + 1))
    stream_b.close()


def test_kill_9_of_one_process_loses_no_acknowledged_action(
        pair: Pair, redis_url: str, start_server: Callable[..., Server]) -> None:
    pg_url, b = pair.db, pair.b  # B, the survivor, is the module's
    a = start_server(pg_url, redis_url)
    made = client(a.url).post("/api/games", json={"players": PLAYERS, "hotseat": True,
                                                   "seed": 4}).json()
    game, hot = made["id"], made["hotseat_token"]
    acked: dict[int, dict[str, Any]] = {}
    stop = threading.Event()

    def play(server: Server, seed: int) -> None:
        rng = random.Random(seed)
        with client(server.url) as c:
            try:
                while not stop.is_set():
                    state = c.get(f"/api/games/{game}", headers=auth(hot)).json()
                    action = rng.choice(options(state))
                    r = c.post(f"/api/games/{game}/actions", json=action, headers=auth(hot),
                               params={"seat": state["seat"]})
                    if r.status_code == 200:
                        acked[action["id"]] = action
            except (httpx.HTTPError, ValueError):
                return  # this server is gone

    players = [threading.Thread(target=play, args=(s, i)) for i, s in enumerate((a, b))]
    for t in players:
        t.start()
    deadline = time.monotonic() + 90
    while len(acked) < 20:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    a.kill()  # SIGKILL mid-stream; B goes on: until it has acknowledged five more actions
    goes_on = len(acked) + 5
    while len(acked) < goes_on:
        assert time.monotonic() < deadline, "B did not go on after A's kill"
        time.sleep(0.02)
    stop.set()
    for t in players:
        t.join()
    restarted = start_server(pg_url, redis_url)
    log = client(restarted.url).get(f"/api/games/{game}/log").json()["actions"]
    kept = {line["id"]: line["action"] for line in log}
    for action_id, action in acked.items():
        assert kept[action_id]["type"] == action["type"]
        assert kept[action_id]["entity"] == action["entity"]
    assert sorted(kept) == list(range(1, len(kept) + 1))
    # The restarted process and the survivor replay the same game.
    views = [client(s.url).get(f"/api/games/{game}").json() for s in (restarted, b)]
    assert public(views[0]) == public(views[1])


def test_processes_starting_at_once_on_an_empty_database(pg_url: str) -> None:
    """Every server migrates the schema at start: several at once on an empty database."""
    from india1853.interfaces.web.db import Database

    barrier = threading.Barrier(4)
    errors: list[str] = []

    def start() -> None:
        db = Database(pg_url)
        try:
            barrier.wait()
            db.migrate()
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
        finally:
            db.dispose()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    engine = create_engine(pg_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    engine.dispose()


def test_bots_go_on_when_the_process_that_woke_them_dies(
        pair: Pair, redis_url: str, start_server: Callable[..., Server]) -> None:
    # B (the module's) started before the game was made, so that its start-up look for games
    # with bots found nothing: only its sweep (sweep.py) can learn that A left the bots of
    # this game with a turn to play.
    pg_url, b = pair.db, pair.b
    a = start_server(pg_url, redis_url, bot_delay=1.0)
    players = [{"name": "Ann"}, {"name": "B1", "bot": "greedy"},
               {"name": "B2", "bot": "greedy"}, {"name": "B3", "bot": "greedy"}]
    made = client(a.url).post("/api/games", json={"players": players, "seed": 9}).json()
    game, token = made["id"], made["tokens"]["Ann"]
    r = None
    while r is None or r.status_code == 409:  # a bot's bond came first (a slow machine)
        state = client(a.url).get(f"/api/games/{game}", headers=auth(token)).json()
        r = client(a.url).post(f"/api/games/{game}/actions", json=options(state)[0],
                               headers=auth(token))
    assert r.status_code == 200, r.text
    a.kill()  # the bots were to move in a second each, on A
    moved = client(b.url).get(f"/api/games/{game}").json()["last_action_id"]
    assert moved < 4, "the bots were quicker than the kill: the test proves nothing"
    deadline = time.monotonic() + 60
    while True:
        state = client(b.url).get(f"/api/games/{game}", headers=auth(token)).json()
        if state["last_action_id"] >= 4 and options(state):
            break  # the three bots' bonds and Ann's: Ann's turn again
        assert time.monotonic() < deadline, f"the bots stalled at {state['last_action_id']}"
        time.sleep(0.1)
    assert db_ids(pg_url, game) == [(i, i) for i in range(1, state["last_action_id"] + 1)]


def test_actions_stand_through_a_redis_outage_and_pages_catch_up(
        pg_url: str, start_server: Callable[..., Server]) -> None:
    port = services.free_port()
    with services.redis(port) as url:
        a = start_server(pg_url, url)
        b = start_server(pg_url, url)
        made = client(a.url).post("/api/games", json={"players": PLAYERS[:3],
                                                       "seed": 6}).json()
        game, tokens = made["id"], made["tokens"]
        watcher = Stream(b.url, game)
        watcher.wait(0)
    # Redis is gone: an action is still accepted (Redis only rings the bell).
    state = next(s for s in (client(a.url).get(f"/api/games/{game}", headers=auth(t)).json()
                             for t in tokens.values()) if options(s))
    r = client(a.url).post(f"/api/games/{game}/actions", json=options(state)[0],
                           headers=auth(tokens[state["seat"]]))
    assert r.status_code == 200, r.text
    assert client(b.url).get(f"/api/games/{game}").json()["last_action_id"] == 1
    with services.redis(port):
        # B's page hears of it (B subscribes again and wakes its pages; the streams' own
        # look at the database every 5 s would also find it).
        assert watcher.wait(1, timeout=30)["last_action_id"] == 1
    watcher.close()


def csrf(c: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": c.cookies["india1853_csrf"]}


def test_accounts_and_joining_across_two_processes(pair: Pair) -> None:
    """Accounts and open seats (issue 22 items 1-2): migration 0006 on PostgreSQL, a session
    made by one process good at the other, a seat joined at one and taken by the account at
    the other, and three guests racing for the two last open seats at two processes: two get
    them, one is told the game has started (the seating's row locked FOR UPDATE)."""
    one, two = pair.a, pair.b
    ann, bob = client(one.url), client(two.url)
    r = ann.post("/api/account/sign-up", json={"name": "Ann", "password": "ann password"})
    assert r.status_code == 201, r.text
    made = ann.post("/api/open-games", headers=csrf(ann), json={
        "players": [{}, {"open": True}, {"open": True}, {"open": True}]}).json()
    game = made["id"]
    # Ann's session, made by process one, is good at process two.
    at_two = client(two.url)
    at_two.cookies.update(ann.cookies)
    assert at_two.get("/api/account").json()["account"] == {"name": "Ann"}
    r = bob.post("/api/account/sign-up", json={"name": "Bob", "password": "bob password"})
    assert r.status_code == 201
    assert bob.post(f"/api/open-games/{game}/join", json={},
                    headers=csrf(bob)).json()["started"] is False
    # Two guests at two processes race for the two last seats, and a third for none.
    answers: list[httpx.Response] = []

    def join(url: str, name: str) -> None:
        with client(url) as c:
            answers.append(c.post(f"/api/open-games/{game}/join", json={"name": name}))

    racers = [threading.Thread(target=join, args=(url, name))
              for url, name in ((one.url, "Cat"), (two.url, "Dan"), (one.url, "Eve"))]
    for t in racers:
        t.start()
    for t in racers:
        t.join()
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 200, 409], [r.text for r in answers]
    refused = next(r for r in answers if r.status_code == 409)
    assert refused.json()["detail"] == "join: the game has started; no seat is open"
    seated = [r.json() for r in answers if r.status_code == 200]
    assert sorted(s["started"] for s in seated) == [False, True]
    # Every seat is its own at either process: the accounts by session, guests by token.
    assert at_two.get(f"/api/games/{game}").json()["seat"] == "Ann"
    assert client(one.url).get(f"/api/games/{game}",
                               headers=auth(seated[0]["token"])).json()["seat"] == \
        seated[0]["seat"]
    players = [p["name"] for p in bob.get(f"/api/games/{game}").json()["game"]["players"]]
    assert players[:2] == ["Ann", "Bob"] and sorted(players[2:]) == sorted(
        s["seat"] for s in seated)


def test_a_clock_runs_out_once_across_processes_and_a_takeback_crosses_them(
        pair: Pair) -> None:
    """Issue 22 items 5-7 on two processes: the action at zero claimed once (both processes
    asked at once, both sweeps running), a takeback asked on one process and accepted on
    the other, and a seat handed to a bot and taken back heard at once across them."""
    a, b, pg_url = pair.a, pair.b, pair.db
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat", "bot": "greedy"}]
    made = client(a.url).post("/api/games", json={
        "players": players, "seed": 4,
        "clock": {"bank": 2.0, "increment": 300, "at_zero": "bot", "bot": "greedy"}}).json()
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    started = time.monotonic()
    for _ in range(3):  # Cat's bot may write its bond meanwhile (409: look again)
        state = client(b.url).get(f"/api/games/{game}", headers=auth(ann)).json()
        bond = next(o for o in options(state) if o["type"] == "place_bond")
        r = client(b.url).post(f"/api/games/{game}/actions", json=bond, headers=auth(ann))
        if r.status_code != 409:
            break
    assert r.status_code == 200, r.text  # Ann's turn ended with 300 s more: only Bob runs out
    time.sleep(max(0.0, 2.1 - (time.monotonic() - started)))
    answers: list[dict[str, Any]] = []

    def ask(url: str) -> None:
        answers.append(client(url).get(f"/api/games/{game}/seats").json())

    threads = [threading.Thread(target=ask, args=(s.url,)) for s in (a, b, a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(x["stand_ins"].get("Bob", {}).get("reason") == "clock" for x in answers[-1:])
    deadline = time.monotonic() + 60
    while "Bob" not in {line["action"]["entity"] for line in
                        client(a.url).get(f"/api/games/{game}/log").json()["actions"]
                        if line["action"]["type"] == "place_bond"}:
        assert time.monotonic() < deadline, "Bob's bot never wrote his bond"
        time.sleep(0.05)
    engine = create_engine(pg_url)
    with engine.connect() as conn:
        flags = conn.execute(text("SELECT seat, flagged_at FROM seat_clocks WHERE game_id = :g "
                                  "AND flagged_at IS NOT NULL"), {"g": game}).all()
        bonds = conn.execute(text("SELECT count(*) FROM actions WHERE game_id = :g AND "
                                  "seat = 'Bob'"), {"g": game}).scalar_one()
    engine.dispose()
    assert [f.seat for f in flags] == ["Bob"]
    assert bonds >= 1
    # Cat's bot may still be moving: the log read first, then the count, which it cannot be
    # ahead of (no gap, no duplicate in what was read).
    ids = db_ids(pg_url, game)
    count = client(a.url).get(f"/api/games/{game}").json()["last_action_id"]
    assert ids == [(i, i) for i in range(1, len(ids) + 1)] and len(ids) <= count
    # Bob takes his seat back on A; Ann asks a takeback on A, Bob accepts it on B.
    r = client(a.url).post(f"/api/games/{game}/seats/return", headers=auth(bob))
    assert r.status_code == 200 and "Bob" not in r.json()["stand_ins"], r.text
    last = client(a.url).get(f"/api/games/{game}").json()["last_action_id"]
    for token in (ann, bob):  # whoever decides now (the bonds are in) acts
        state = client(a.url).get(f"/api/games/{game}", headers=auth(token)).json()
        mine = [o for o in options(state) if o["type"] not in ("undo", "redo")]
        if mine:
            r = client(a.url).post(f"/api/games/{game}/actions", json=mine[0],
                                   headers=auth(token))
            assert r.status_code == 200, r.text
            break
    r = client(a.url).post(f"/api/games/{game}/requests", json={"kind": "takeback",
                                                                 "to": last},
                           headers=auth(ann))
    assert r.status_code == 200, r.text
    number = r.json()["requests"]["open"][0]["id"]
    r = client(b.url).post(f"/api/games/{game}/requests/{number}", json={"accept": True},
                           headers=auth(bob))
    assert r.status_code == 200, r.text
    assert r.json()["requests"]["branches"][0]["outcome"]["taken_back"] == [last + 1]
    assert client(a.url).get(f"/api/games/{game}").json()["last_action_id"] == last + 2
    stand_in_crosses(a, b, game, {"Ann": ann, "Bob": bob})


def stand_in_crosses(a: Server, b: Server, game: str, tokens: dict[str, str]) -> None:
    """A seat handed to a bot on one process, and taken back on the other: the other
    process's page hears it at once (Redis), not at its next bot move, and its views and
    refusals follow.  A seat that decides nothing now is handed over, so that no bot move
    tells the other process anything."""
    for _ in range(len(tokens)):  # a decision every human seat makes at once: one decides
        deciding = client(a.url).get(f"/api/games/{game}/seats").json()["deciding"]
        away = next((name for name in tokens if name not in deciding), None)
        if away is not None:
            break
        state = client(a.url).get(f"/api/games/{game}", headers=auth(tokens[deciding[0]]))
        move = next(o for o in options(state.json()) if o["type"] not in ("undo", "redo"))
        r = client(a.url).post(f"/api/games/{game}/actions", json=move,
                               headers=auth(tokens[deciding[0]]))
        assert r.status_code == 200, r.text
    assert away is not None, "every human seat decides now"
    token = tokens[away]
    pages = {s.url: Stream(s.url, game, token) for s in (a, b)}
    for page in pages.values():
        page.wait(0)

    def heard(server: Server, bots: dict[str, str], since: float) -> float:
        """Seconds until ``server``'s page of the seat shows ``bots`` as its stand-ins."""
        page = pages[server.url]
        while not any(state.get("stand_ins") == bots for _id, state in page.events[-3:]):
            assert page.error is None, page.error
            assert time.monotonic() - since < 10, f"{server.url} never heard of {bots}"
            time.sleep(0.02)
        return time.monotonic() - since

    start = time.monotonic()
    r = client(a.url).post(f"/api/games/{game}/seats/hand", json={"bot": "random"},
                           headers=auth(token))
    assert r.status_code == 200, r.text
    count = r.json()["last_action_id"]
    delays = [heard(b, {away: "random"}, start)]
    state = client(b.url).get(f"/api/games/{game}", headers=auth(token)).json()
    assert state["stand_ins"] == {away: "random"} and state["can_undo"] is False
    start = time.monotonic()
    r = client(b.url).post(f"/api/games/{game}/seats/return", headers=auth(token))
    assert r.status_code == 200 and r.json()["stand_ins"] == {}, r.text
    delays.append(heard(a, {}, start))
    assert client(a.url).get(f"/api/games/{game}", headers=auth(token)).json()[
        "stand_ins"] == {}
    # Told through Redis: the bot sweep (5 s) and the streams' own look (5 s) are slower.
    assert max(delays) < 3.0, delays
    assert client(a.url).get(f"/api/games/{game}").json()["last_action_id"] == count
    for page in pages.values():
        page.close()


def test_a_128_bit_seed_survives_postgresql(pair: Pair, tmp_path: Path) -> None:
    seed = 2**128 - 3
    with client(pair.a.url) as c:
        r = c.post("/api/games", json={"players": PLAYERS, "seed": seed,
                                       "edition": "first", "variants": ["mik2"]})
        assert r.status_code == 201, r.text
        made = r.json()
        ann = c.get(f"/api/games/{made['id']}", headers=auth(made["tokens"]["Ann"])).content
    # A process started now has the game in no cache: it reads the seed from PostgreSQL.
    again = Server(tmp_path / "two", pair.db)
    try:
        with client(again.url) as c:
            view = c.get(f"/api/games/{made['id']}", headers=auth(made["tokens"]["Ann"]))
            assert view.content == ann
            assert view.json()["game"]["seed"]["sha256"] == hashlib.sha256(
                str(seed).encode()).hexdigest()
            assert view.json()["game"]["seed"]["chosen_by"] == "creator"
    finally:
        again.stop()
