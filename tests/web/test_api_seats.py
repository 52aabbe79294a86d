"""The seats over HTTP (issue 22 items 5-7): the chess clock (short banks; the claim at zero
with an injected time through the Python API), takebacks by consent (accepted, refused, the
engine's undo barrier), absent players' seats handed to bots by their player, by the clock and
by a vote, a seat a bot plays refused to its human until he takes it back, the clocks held
while a takeback is decided; bad input refused with the field named and nothing changed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from webclient import act, auth, client, create, option, view

from india1853.interfaces.web import clock, consent
from india1853.interfaces.web.db import Database
from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.seat_tables import consents
from india1853.interfaces.web.seats_api import (
    ClockBody,
    RequestBody,
    attach,
    expire_all,
    install,
    seat_rules,
)
from india1853.interfaces.web.seats_api import ask as ask_request
from india1853.interfaces.web.store import GameStore, NewGame, NewSeat

THREE = (NewSeat("Ann"), NewSeat("Bob"), NewSeat("Cat"))
TWO_AND_BOT = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat", "bot": "random"}]
THREE_AND_BOT = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Dan"},
                 {"name": "Cat", "bot": "random"}]


@pytest.fixture(scope="module")
def c(server_url: str) -> Iterator[httpx.Client]:
    with client(server_url) as cl:
        yield cl


def seats(c: httpx.Client, game: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game}/seats")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def ask(c: httpx.Client, game: str, token: str, **body: Any) -> httpx.Response:
    return c.post(f"/api/games/{game}/requests", json=body, headers=auth(token))


def answer(c: httpx.Client, game: str, request: int, token: str,
           accept: bool) -> httpx.Response:
    return c.post(f"/api/games/{game}/requests/{request}", json={"accept": accept},
                  headers=auth(token))


def bond(c: httpx.Client, game: str, token: str) -> None:
    r = act(c, game, token, option(view(c, game, token), "place_bond"))
    assert r.status_code == 200, r.text


def settled(c: httpx.Client, game: str, count: int) -> dict[str, Any]:
    """The view once the bots have answered up to ``count`` actions."""
    for _ in range(200):
        data = view(c, game)
        if data["last_action_id"] >= count:
            return data
        time.sleep(0.02)
    raise AssertionError(f"the game stayed at {view(c, game)['last_action_id']} actions")


def run_out(begun: float, bank: float) -> None:
    """Sleep until a clock of ``bank`` seconds that started before ``begun``
    (``time.monotonic()``) is surely at zero: the time spent since counts."""
    time.sleep(max(0.0, begun + bank + 0.05 - time.monotonic()))


def test_bad_seat_rules_at_creation_name_the_field_and_create_nothing(c: httpx.Client) -> None:
    before = len(c.get("/api/games").json()["games"])
    for body, field in (({"clock": {"bank": -1}}, "clock.bank"),
                        ({"clock": {"bank": 60, "at_zero": "explode"}}, "clock.at_zero"),
                        ({"clock": {"bank": 60, "bot": "genius"}}, "clock.bot"),
                        ({"clock": {"bank": 60, "extra": 1}}, "clock.extra"),
                        ({"absent_after": 0}, "absent_after")):
        r = c.post("/api/games", json={"players": TWO_AND_BOT, **body})
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith(f"{field}:"), r.text
    assert len(c.get("/api/games").json()["games"]) == before


def test_a_takeback_accepted_is_undone_by_replay_and_kept_as_a_branch(c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    settled(c, game, 1)  # Cat's bond
    bond(c, game, ann)
    assert view(c, game)["last_action_id"] == 2
    r = ask(c, game, ann, kind="takeback", to=0)
    assert r.status_code == 200, r.text
    request = r.json()["requests"]["open"][0]
    assert (request["asker"], request["voters"], request["subject"]) == (
        "Ann", ["Bob"], {"to": 0, "actions": 2})
    # Not the asker's to answer; a second takeback waits for the first.
    assert answer(c, game, request["id"], ann, True).status_code == 403
    assert ask(c, game, bob, kind="takeback", to=1).status_code == 409
    r = answer(c, game, request["id"], bob, True)
    assert r.status_code == 200, r.text
    branch = r.json()["requests"]["branches"][0]["outcome"]
    assert branch == {"to": 0, "taken_back": [1, 2], "undos": [3, 4]}
    log = c.get(f"/api/games/{game}/log").json()["actions"]
    assert [line["action"]["type"] for line in log[:4]] == [
        "place_bond", "place_bond", "undo", "undo"]  # the branch stays in the log
    # Ann's bond is hers to write again: the game is back at the start (Cat's bot bonds).
    settled(c, game, 5)
    assert option(view(c, game, ann), "place_bond")


def test_a_takeback_refused_changes_nothing(c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    settled(c, game, 1)
    bond(c, game, ann)
    request = ask(c, game, ann, kind="takeback", to=0).json()["requests"]["open"][0]
    r = answer(c, game, request["id"], bob, False)
    assert r.status_code == 200
    assert r.json()["requests"]["resolved"][0]["status"] == "refused"
    assert r.json()["requests"]["branches"] == []
    assert view(c, game)["last_action_id"] == 2
    assert answer(c, game, request["id"], bob, True).status_code == 409  # answered already


def test_a_takeback_never_crosses_a_revealed_secret(c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    settled(c, game, 1)
    bond(c, game, ann)
    bond(c, game, bob)  # the last bond: every bond revealed (2.5.3)
    r = ask(c, game, ann, kind="takeback", to=0)
    assert r.status_code == 422
    assert r.json()["detail"].startswith("to: rule undo:"), r.text
    assert "revealed secret information" in r.json()["detail"]
    assert seats(c, game)["requests"]["open"] == []
    log = c.get(f"/api/games/{game}/log").json()["actions"]
    assert "undo" not in [line["action"]["type"] for line in log]  # nothing taken back


def test_requests_refuse_bad_input_naming_the_field(c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT)
    game, ann = made["id"], made["tokens"]["Ann"]
    settled(c, game, 1)
    cases = [({"kind": "coffee"}, 422, "kind:"), ({"kind": "takeback"}, 422, "to:"),
             ({"kind": "takeback", "to": -1}, 422, "to:"),
             ({"kind": "takeback", "to": 99}, 422, "to: action 99"),
             ({"kind": "takeback", "to": 1}, 422, "to: no action in force"),
             ({"kind": "pause", "to": 1}, 422, "to:"),
             ({"kind": "pause"}, 409, "kind: this game has no clock"),
             ({"kind": "absent", "seat": "Bob"}, 409, "kind: this game's creator set no"),
             ({"kind": "takeback", "to": "1"}, 422, "to:")]
    for body, status, start in cases:
        r = ask(c, game, ann, **body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["detail"].startswith(start), (body, r.text)
    assert c.post(f"/api/games/{game}/requests", json={"kind": "pause"}).status_code == 401
    assert c.post(f"/api/games/{game}/requests", json={"kind": "pause"},
                  headers=auth("junk")).status_code == 401
    assert answer(c, game, 999, ann, True).status_code == 404
    assert answer(c, game, 2 ** 70, ann, True).status_code == 404  # past the database's integers
    assert c.post(f"/api/games/{game}/seats/hand", json={"bot": "genius"},
                  headers=auth(ann)).json()["detail"].startswith("bot:")
    assert c.post(f"/api/games/{game}/seats/return", headers=auth(ann)).status_code == 409
    assert seats(c, game)["requests"] == {"open": [], "resolved": [], "branches": []}
    assert seats(c, game)["stand_ins"] == {}
    assert view(c, game)["last_action_id"] == 1


def test_a_player_hands_his_seat_to_a_bot_and_takes_it_back(c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    settled(c, game, 1)
    r = c.post(f"/api/games/{game}/seats/hand", json={"bot": "random"}, headers=auth(bob))
    assert r.status_code == 200, r.text
    assert r.json()["stand_ins"]["Bob"]["reason"] == "own"
    settled(c, game, 2)  # Bob's bot writes his bond
    r = c.post(f"/api/games/{game}/seats/return", headers=auth(bob))
    assert r.status_code == 200 and r.json()["stand_ins"] == {}
    bond(c, game, ann)  # the last bond: Bob decides his claim himself now
    time.sleep(0.2)
    state = view(c, game, bob)
    assert state["turn"]["decisions"], "Bob's own decision again, not his bot's"


def test_the_clock_runs_for_the_decider_and_a_turn_ends_with_the_increment(
        c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT, clock={"bank": 600, "increment": 30})
    game, ann = made["id"], made["tokens"]["Ann"]
    settled(c, game, 1)
    assert seats(c, game)["clock"]["seats"]["Ann"]["running"] is True  # her bond (2.5.2)
    bond(c, game, ann)
    data = seats(c, game)["clock"]
    assert data["seats"]["Ann"]["running"] is False
    assert 600 < data["seats"]["Ann"]["left"] <= 630  # her turn ended: the increment
    assert data["seats"]["Bob"]["running"] is True
    assert data["seats"]["Bob"]["left"] < 600


def test_at_zero_a_bot_takes_the_seat_until_the_player_takes_it_back(
        c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT,
                  clock={"bank": 0.15, "at_zero": "bot", "bot": "random"})
    begun = time.monotonic()
    game, bob = made["id"], made["tokens"]["Bob"]
    settled(c, game, 1)
    run_out(begun, 0.15)
    data = seats(c, game)  # both clocks ran out: their seats go to the bot
    assert data["clock"]["seats"]["Bob"]["flagged"] is True
    assert data["stand_ins"]["Bob"]["reason"] == "clock"
    settled(c, game, 3)  # the bots wrote Ann's and Bob's bonds
    r = c.post(f"/api/games/{game}/seats/return", headers=auth(bob))
    assert r.status_code == 200 and list(r.json()["stand_ins"]) == ["Ann"]
    assert seats(c, game)["clock"]["seats"]["Bob"]["flagged"] is True  # the flag stays


def test_a_move_sent_after_zero_finds_the_clock_flagged_first(c: httpx.Client) -> None:
    """Nobody looked at the clocks between zero and the move: the flag is still set (a clock
    stopped below zero with no flag was the gap; the sweep looks only every few seconds)."""
    made = create(c, players=TWO_AND_BOT, clock={"bank": 0.15})
    begun = time.monotonic()
    game, ann = made["id"], made["tokens"]["Ann"]
    settled(c, game, 1)
    run_out(begun, 0.15)  # Ann's clock runs out; nobody has looked yet
    bond(c, game, ann)  # accepted: at zero only the flag
    assert seats(c, game)["clock"]["seats"]["Ann"]["flagged"] is True


def in_process(tmp_path: Path, clock_body: ClockBody) -> tuple[Database, GameStore, str, str]:
    """A store on its own SQLite file with the seats' hooks attached (no server, no sweep):
    a three-player game with ``clock_body``; its id and Ann's token."""
    db = Database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    db.migrate()
    store = GameStore(db)
    attach(store)
    made = store.create(NewGame(players=THREE, seed=3))
    install(store, made["id"], seat_rules(clock_body, None))
    return db, store, made["id"], made["tokens"]["Ann"]


def test_a_move_sent_after_zero_finds_the_seat_given_to_the_bot(tmp_path: Path) -> None:
    """The same with "bot" at zero, through the Python API (no sweep, no bot moving first):
    the seat went to the bot before the move arrived, so the move is refused."""
    db, store, game, ann = in_process(tmp_path, ClockBody(bank=0.15, at_zero="bot",
                                                          bot="random"))
    begun = time.monotonic()
    state = json.loads(store.view_json(game, ann, None)[1])
    run_out(begun, 0.15)
    with pytest.raises(ApiError, match="seat: the random bot plays Ann's seat"):
        store.act_json(game, ann, option(state, "place_bond"))
    db.dispose()


def test_pause_and_resume_by_consent_and_an_absent_seat_voted_to_a_bot(
        c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT, clock={"bank": 600}, absent_after=0.15)
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    settled(c, game, 1)
    request = ask(c, game, ann, kind="pause").json()["requests"]["open"][0]
    assert answer(c, game, request["id"], bob, True).json()["clock"]["paused"] is True
    left = seats(c, game)["clock"]["seats"]["Bob"]["left"]
    time.sleep(0.1)
    assert seats(c, game)["clock"]["seats"]["Bob"]["left"] == left  # stopped
    assert ask(c, game, ann, kind="pause").status_code == 409
    request = ask(c, game, bob, kind="resume").json()["requests"]["open"][0]
    assert answer(c, game, request["id"], ann, True).json()["clock"]["paused"] is False
    bond(c, game, ann)
    run_out(time.monotonic(), 0.15)  # 0.15 s since the last action (Ann's bond)
    assert seats(c, game)["absent"] == ["Bob"]
    assert ask(c, game, ann, kind="absent", seat="Ann").status_code == 422  # his own
    r = ask(c, game, ann, kind="absent", seat="Bob", bot="random")
    assert r.status_code == 200, r.text  # nobody else to ask: Cat is a bot
    assert r.json()["stand_ins"]["Bob"]["reason"] == "vote"
    settled(c, game, 3)


def test_the_action_at_zero_is_claimed_once_with_an_injected_time(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    db.migrate()
    store = GameStore(db)
    made = store.create(NewGame(players=THREE, seed=3))
    game = made["id"]
    t0 = time.time()
    install(store, game, seat_rules(None, None))  # no rules: no row, no clock
    with db.read() as conn:
        assert clock.describe(conn, game, t0) is None
    other = store.create(NewGame(players=THREE, seed=3))["id"]
    install(store, other, seat_rules(ClockBody(bank=100, at_zero="bot"), None))
    with db.read() as conn:
        later = clock.describe(conn, other, t0 + 40)
    assert later is not None and 59 < later["seats"]["Ann"]["left"] < 61
    assert clock.expire(db, t0 + 50) == []
    claimed = clock.expire(db, t0 + 105)
    assert sorted(e.seat for e in claimed) == ["Ann", "Bob", "Cat"]
    assert all(e.game_id == other and e.at_zero == "bot" for e in claimed)
    assert clock.expire(db, t0 + 200) == []  # taken once
    db.dispose()


def test_a_takeback_asked_before_the_game_moved_on_is_void_and_replaced(
        c: httpx.Client) -> None:
    made = create(c, players=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Dan"},
                              {"name": "Cat", "bot": "random"}])
    game, tokens = made["id"], made["tokens"]
    settled(c, game, 1)
    bond(c, game, tokens["Ann"])
    first = ask(c, game, tokens["Ann"], kind="takeback", to=1).json()["requests"]["open"][0]
    bond(c, game, tokens["Bob"])  # the game moves on (Dan's bond still secret to come)
    r = ask(c, game, tokens["Ann"], kind="takeback", to=1)
    assert r.status_code == 200, r.text
    requests = r.json()["requests"]
    assert [(x["id"], x["subject"]) for x in requests["open"]] == [
        (first["id"] + 1, {"to": 1, "actions": 2})]
    assert requests["resolved"][0]["status"] == "void"
    assert answer(c, game, first["id"], tokens["Bob"], True).status_code == 409
    for name in ("Bob", "Dan"):
        r = answer(c, game, first["id"] + 1, tokens[name], True)
        assert r.status_code == 200, r.text
    assert r.json()["requests"]["branches"][0]["outcome"]["taken_back"] == [2, 3]


def test_a_seat_a_bot_plays_is_the_bots_until_its_player_takes_it_back(
        c: httpx.Client) -> None:
    made = create(c, players=THREE_AND_BOT)
    game, tokens = made["id"], made["tokens"]
    bob = tokens["Bob"]
    settled(c, game, 1)  # Cat's bond
    bond(c, game, tokens["Ann"])
    bond(c, game, bob)  # Dan's bond still to come: Bob's may be undone, Bob decides nothing
    undo = view(c, game, bob)["undo"]
    assert undo is not None
    r = c.post(f"/api/games/{game}/seats/hand", json={"bot": "random"}, headers=auth(bob))
    assert r.status_code == 200, r.text
    state = view(c, game, bob)
    assert state["stand_ins"] == {"Bob": "random"}
    assert (state["can_undo"], state["undo"], state["can_redo"]) == (False, None, False)
    r = act(c, game, bob, undo)  # the bot's seat now: refused, and how to get it back said
    assert r.status_code == 409, r.text
    detail = r.json()["detail"]
    assert detail.startswith("seat: the random bot plays Bob's seat for now (handed over by "
                             "its player); take the seat back first"), detail
    assert f"/api/games/{game}/seats/return" in detail
    assert view(c, game)["last_action_id"] == 3  # nothing written
    r = c.post(f"/api/games/{game}/seats/return", headers=auth(bob))
    assert r.status_code == 200, r.text
    assert view(c, game, bob)["stand_ins"] == {}
    r = act(c, game, bob, undo)  # his own seat again: his undo stands
    assert r.status_code == 200, r.text
    assert r.json()["last_action_id"] == 4


def test_no_clock_runs_while_a_takeback_is_decided(c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT, clock={"bank": 600})
    game, ann, bob = made["id"], made["tokens"]["Ann"], made["tokens"]["Bob"]
    settled(c, game, 1)
    bond(c, game, ann)  # Bob's bond to come: his clock runs
    assert seats(c, game)["clock"]["seats"]["Bob"]["running"] is True
    r = ask(c, game, ann, kind="takeback", to=0)
    assert r.status_code == 200, r.text
    number = r.json()["requests"]["open"][0]["id"]
    held = r.json()["clock"]
    assert held["held_by"] == number and held["paused"] is False
    assert not any(x["running"] for x in held["seats"].values())
    time.sleep(0.05)
    assert seats(c, game)["clock"]["seats"]["Bob"]["left"] == held["seats"]["Bob"]["left"]
    r = answer(c, game, number, bob, False)  # refused: Bob's clock runs again
    assert r.json()["clock"]["held_by"] is None
    assert r.json()["clock"]["seats"]["Bob"]["running"] is True
    # Asked again and withdrawn by its asker (not by another seat): the clock runs again.
    number = ask(c, game, ann, kind="takeback", to=0).json()["requests"]["open"][0]["id"]
    assert seats(c, game)["clock"]["seats"]["Bob"]["running"] is False
    withdraw = f"/api/games/{game}/requests/{number}/withdraw"
    r = c.post(withdraw, headers=auth(bob))
    assert r.status_code == 403 and r.json()["detail"].startswith("request:"), r.text
    r = c.post(withdraw, headers=auth(ann))
    assert r.status_code == 200, r.text
    assert r.json()["requests"]["resolved"][0]["status"] == "withdrawn"
    assert r.json()["clock"]["seats"]["Bob"]["running"] is True
    assert c.post(withdraw, headers=auth(ann)).status_code == 409  # resolved already
    assert view(c, game)["last_action_id"] == 2


def test_a_takeback_asked_after_a_clock_ran_out_stops_no_flag(c: httpx.Client) -> None:
    made = create(c, players=TWO_AND_BOT, clock={"bank": 0.15})
    begun = time.monotonic()
    game, ann = made["id"], made["tokens"]["Ann"]
    settled(c, game, 1)
    bond(c, game, ann)
    run_out(begun, 0.15)  # Bob's clock runs out; nobody has looked yet
    r = ask(c, game, ann, kind="takeback", to=0)
    assert r.status_code == 200, r.text
    assert r.json()["clock"]["seats"]["Bob"]["flagged"] is True  # acted on before the hold
    assert r.json()["clock"]["held_by"] is not None


def test_an_unanswered_takeback_expires_once_and_the_clocks_run_from_then(
        tmp_path: Path) -> None:
    """With an injected time through the Python API (no ten minutes' wait)."""
    db, store, game, ann = in_process(tmp_path, ClockBody(bank=1000))
    _count, data = store.view_json(game, ann, None)
    state = json.loads(data)
    store.act_json(game, ann, option(state, "place_bond"))
    ask_request(store, game, ann, None, RequestBody(kind="takeback", to=0))
    with db.read() as conn:
        asked = conn.execute(select(consents.c.created_at)).scalar_one()
        assert clock.holding(conn, game, 1) == 1
    expiry = asked + consent.TAKEBACK_SECONDS
    assert expire_all(store, expiry - 1, game) == [] and _open(db) == 1
    expire_all(store, expiry + 50, game)
    assert _open(db) == 0
    with db.read() as conn:
        held = clock.describe(conn, game, expiry + 60, clock.holding(conn, game, 1))
    assert held is not None and held["held_by"] is None
    bob = held["seats"]["Bob"]
    assert bob["running"] is True and 939 < bob["left"] < 941  # running since the expiry
    assert held["seats"]["Ann"]["running"] is False
    expire_all(store, expiry + 100, game)  # claimed once: nothing more
    with pytest.raises(ApiError, match="expired unanswered"):  # not asked again and again
        ask_request(store, game, ann, None, RequestBody(kind="takeback", to=0))
    db.dispose()


def _open(db: Database) -> int:
    with db.read() as conn:
        return len(conn.execute(select(consents).where(consents.c.status == "open")).all())
