"""Actions on one game are applied strictly one at a time: many simultaneous submissions
leave a log with no gap and no duplicate, and a ``kill -9`` of the server after acknowledged
actions loses none of them."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from conftest import ServerProcess
from webclient import EventStream, act, client, create, view, wait_for

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}, {"name": "Dan"}]


def random_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    options = [o["action"] for d in state["turn"]["decisions"] for o in d["options"]]
    assert options, f"nothing for {state['seat']} to do"
    return dict(rng.choice(options))


def db_rows(data_dir: Path, game_id: str) -> list[tuple[int, int]]:
    with sqlite3.connect(data_dir / "india1853.sqlite3") as db:
        rows = db.execute("SELECT idx, json_extract(data, '$.id') FROM actions "
                          "WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()
    return [(int(a), int(b)) for a, b in rows]


def test_simultaneous_submissions_leave_no_gap_and_no_duplicate(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess]) -> None:
    server = start_server(tmp_path / "db")
    c = client(server.url)
    made = create(c, players=PLAYERS, hotseat=True, seed=3)
    game, hot = made["id"], made["hotseat_token"]

    # The same action from 16 pages at once: exactly one is accepted, the rest are stale.
    first = random_action(view(c, game, hot), random.Random(0))
    barrier = threading.Barrier(16)
    statuses: list[int] = []

    def same() -> None:
        with client(server.url) as mine:
            barrier.wait()
            statuses.append(act(mine, game, hot, first).status_code)

    threads = [threading.Thread(target=same) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 15

    # Eight pages playing as fast as they can, each from the view it last saw.
    accepted: list[int] = []
    other: list[int] = []
    target = 70
    deadline = time.monotonic() + 90

    def page(seed: int) -> None:
        rng = random.Random(seed)
        with client(server.url) as mine:
            while time.monotonic() < deadline:
                state = view(mine, game, hot)
                if state["last_action_id"] >= target or state["turn"]["finished"]:
                    return
                r = act(mine, game, hot, random_action(state, rng), seat=state["seat"])
                if r.status_code == 200:
                    accepted.append(r.json()["last_action_id"])
                elif r.status_code != 409:
                    other.append(r.status_code)

    pages = [threading.Thread(target=page, args=(i,)) for i in range(8)]
    for t in pages:
        t.start()
    for t in pages:
        t.join()
    assert other == []
    final = view(c, game, hot)
    last = final["last_action_id"]
    assert last >= target
    # Every acknowledged action holds its own place; together with the first, all of them.
    assert sorted(accepted) == list(range(2, last + 1))
    assert [a["id"] for a in c.get(f"/api/games/{game}/log").json()["actions"]] == \
        list(range(1, last + 1))
    assert db_rows(tmp_path / "db", game) == [(i, i) for i in range(1, last + 1)]

    # A new server on the same database rebuilds the same game from the rows.
    server.stop()
    again = start_server(tmp_path / "db")
    assert view(client(again.url), game, hot, seat=final["seat"]) == final


def test_kill_9_loses_no_acknowledged_action(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess]) -> None:
    server = start_server(tmp_path / "db")
    c = client(server.url)
    made = create(c, players=PLAYERS, hotseat=True, seed=4)
    game, hot = made["id"], made["hotseat_token"]
    acked: dict[int, dict[str, Any]] = {}
    stop = threading.Event()

    def play() -> None:
        rng = random.Random(1)
        with client(server.url) as mine:
            try:
                while not stop.is_set():
                    state = view(mine, game, hot)
                    action = random_action(state, rng)
                    r = act(mine, game, hot, action, seat=state["seat"])
                    if r.status_code == 200:
                        acked[action["id"]] = action
            except httpx.HTTPError:
                return  # the server is gone

    player = threading.Thread(target=play)
    player.start()
    wait_for(lambda: len(acked) >= 25, 90)
    server.kill()  # SIGKILL while the client keeps sending
    stop.set()
    player.join(30)
    last_acked = max(acked)

    again = start_server(tmp_path / "db")
    state = view(client(again.url), game, hot)
    # Every acknowledged action is there; at most the one in flight besides.
    assert last_acked <= state["last_action_id"] <= last_acked + 1
    rows = db_rows(tmp_path / "db", game)
    assert [r[0] for r in rows] == list(range(1, state["last_action_id"] + 1))
    logged = {a["id"]: a["action"] for a in
              client(again.url).get(f"/api/games/{game}/log").json()["actions"]}
    for action_id, action in acked.items():
        kept = logged[action_id]
        assert (kept["type"], kept["entity"]) == (action["type"], action["entity"])


def test_two_servers_on_one_database_never_act_on_a_stale_cache(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess]) -> None:
    one = client(start_server(tmp_path / "db").url)
    two = client(start_server(tmp_path / "db").url)
    made = create(one, players=PLAYERS, hotseat=True, seed=8)
    game, hot = made["id"], made["hotseat_token"]
    rng = random.Random(2)
    assert view(two, game, hot)["last_action_id"] == 0  # cached by the second server
    for turn in range(12):
        here, there = (one, two) if turn % 2 else (two, one)
        state = view(here, game, hot)
        assert state["last_action_id"] == turn
        action = random_action(state, rng)
        assert act(here, game, hot, action, seat=state["seat"]).status_code == 200
        # The other server saw the game one action ago: its page's id is stale now.
        r = act(there, game, hot, action, seat=state["seat"])
        assert r.status_code == 409, r.text
    assert db_rows(tmp_path / "db", game) == [(i, i) for i in range(1, 13)]
    assert view(one, game, hot) == view(two, game, hot)


def test_a_stream_hears_of_actions_another_server_process_wrote(
        tmp_path: Path, start_server: Callable[[Path], ServerProcess]) -> None:
    one = client(start_server(tmp_path / "db").url)
    # The second server's streams look at the database every 0.2 s (--stream-poll-seconds;
    # 5 s by default): the same look, sooner.
    two_server = start_server(tmp_path / "db", "--stream-poll-seconds", "0.2")
    made = create(one, players=PLAYERS, hotseat=True, seed=9)
    game, hot = made["id"], made["hotseat_token"]
    stream = EventStream(two_server.url, f"/api/games/{game}/events", token=hot)
    try:
        wait_for(lambda: len(stream.events) == 1, 30)
        state = view(one, game, hot)
        action = random_action(state, random.Random(3))
        assert act(one, game, hot, action, seat=state["seat"]).status_code == 200
        # The second server learns of it from the database within its poll (no Redis).
        wait_for(lambda: len(stream.events) == 2, 30)
        assert stream.events[1][0] == 1
    finally:
        stream.close()
