"""The seats' routes (issue 22 items 5-7): the chess clock, takebacks by consent and absent
players' seats handed to bots.  An ``APIRouter`` the app includes; the rules live in
``clock.py``, ``takebacks.py``, ``absence.py`` and ``consent.py``, their rows in
``seat_tables.py``.  Seat authority is as for actions: a seat's token (``Authorization:
Bearer``) or the signed-in account's seat (request_input.py), the hotseat token for its
seats.  Bad input is refused with one line naming the field, and nothing changes.
Everything here is public to the table (who plays a seat, the clocks, who asked what and who
answered how); no secret of the game is read or written here except through the engine's
own undo (a takeback), whose log shows an undone secret as the secrecy declaration says.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any, Literal, TypeVar

from anyio import to_thread
from fastapi import APIRouter, FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import bindparam, exists, select
from sqlalchemy.exc import IntegrityError

from india1853.interfaces.web import absence, clock, consent
from india1853.interfaces.web.access import Access, access_of
from india1853.interfaces.web.entry import ApiError, Entry, encode
from india1853.interfaces.web.request_input import bearer, read_model
from india1853.interfaces.web.seat_tables import consents, seat_clocks
from india1853.interfaces.web.store import GameStore
from india1853.interfaces.web.takebacks import branch, undos_to

T = TypeVar("T")
MAX_BODY = 4096
MAX_SECONDS = 60.0 * 60 * 24 * 60  # 60 days: a bank, an increment, an absence time
BotName = Literal["random", "greedy", "strong"]

router = APIRouter()


class ClockBody(BaseModel):
    """A game's chess clock, chosen at creation (seconds)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    bank: float = Field(gt=0, le=MAX_SECONDS)
    increment: float = Field(default=0.0, ge=0, le=MAX_SECONDS)
    at_zero: Literal["flag", "bot"] = "flag"
    bot: BotName = "greedy"


class HandBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    bot: BotName = "greedy"


class RequestBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["pause", "resume", "takeback", "absent"]
    to: int | None = Field(default=None, ge=0)  # takeback: the action to take back to
    seat: str | None = None  # absent: the seat to hand to a bot
    bot: BotName = "greedy"  # absent: the bot that plays it


class AnswerBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    accept: bool


def seat_rules(clock_body: ClockBody | None, absent_after: float | None) -> clock.SeatRules:
    if clock_body is None:
        return clock.SeatRules(absent_after=absent_after)
    return clock.SeatRules(bank=clock_body.bank, increment=clock_body.increment,
                           at_zero=clock_body.at_zero, zero_bot=clock_body.bot,
                           absent_after=absent_after)


def install(store: GameStore, game_id: str, rules: clock.SeatRules) -> None:
    """A new game's seats' rules (the creation's ``clock`` and ``absent_after``)."""
    if not rules.any():
        return
    with store.held(game_id) as entry:
        clock.install(store.db, game_id, rules, entry.humans(), entry.game, time.time())


def attach(store: GameStore) -> list[Callable[[float], list[str]]]:
    """The store's hooks (the clocks settled after each write; the seats bots play asked
    before each bot move), and the bot sweep's looks (sweep.py): the games whose clock ran
    out, each claimed by this process, and once, at the first look after the start, every
    unfinished game with a seat a bot plays for the time being - their bots are woken."""
    store.after_write.append(partial(_settle, store))
    store.before_act.append(partial(_expire_before_acting, store))
    store.stand_ins = partial(absence.bots_of, store.db)
    store.stand_in_why = partial(absence.why, store.db)
    woken: list[bool] = []

    def stood_in(_now: float) -> list[str]:
        if woken:
            return []
        woken.append(True)
        return absence.unfinished_games(store.db)

    return [partial(expire_all, store), stood_in]


def _settle(store: GameStore, game_id: str, game: Any) -> None:
    clock.settle(store.db, game_id, game)


def _expire_before_acting(store: GameStore, game_id: str) -> None:
    """A clock that ran out before its player's action arrived is acted on first (the flag
    set, or the seat handed to the bot the creator chose, which then refuses the action):
    otherwise a move sent between zero and the sweep's next look would stop the clock with
    its bank below zero and no flag ever set."""
    expire_all(store, time.time(), game_id)


def expire_all(store: GameStore, now: float, game_id: str | None = None) -> list[str]:
    """The takebacks left unanswered too long expired, their clocks running again from that
    moment; then the action at zero of every clock run out (each claimed once across
    processes); the games whose clock ran out (their pages are told, their bots woken)."""
    if game_id is not None and not _may_expire(store, game_id):
        return []
    for g, at_actions, when in consent.expire(store.db, now, game_id):
        with store.held(g) as entry:
            if len(entry.game.log) == at_actions:  # else it held nothing (clock.holding)
                clock.restart(store.db, g, entry.game, when)
        _changed(store, g)
    claimed = clock.expire(store.db, now, game_id)
    games = list(dict.fromkeys(e.game_id for e in claimed))
    for g in games:
        store.seats_changed(g, absence.bots_of(store.db, g))
        with store.held(g) as entry:
            clock.restart(store.db, g, entry.game, now)
    return games


# Whether a game holds anything ``expire_all`` could claim: a clock running unflagged or an
# open takeback (what consent.expire and clock.expire select, less their time and rules
# conditions). One small read (db.py), a hundredth of their two queries on SQLite: it runs
# before every human action, and most games have no clock.
_EXPIRABLE = select(
    exists().where(seat_clocks.c.game_id == bindparam("game_id"))
    .where(seat_clocks.c.running_since.is_not(None)).where(seat_clocks.c.flagged_at.is_(None))
    | exists().where(consents.c.game_id == bindparam("game_id"))
    .where(consents.c.kind == "takeback").where(consents.c.status == "open"))


def _may_expire(store: GameStore, game_id: str) -> bool:
    return bool(store.db.scalar(_EXPIRABLE, game_id=game_id))


# --- answers -----------------------------------------------------------------------------


def seats_json(store: GameStore, game_id: str) -> tuple[bytes, bool]:
    """The seats' state as every viewer sees it, and whether a clock ran out now (the bots
    are then woken).  The clocks are settled first if the process that wrote the last action
    did not live to do it."""
    now = time.time()
    with store.held(game_id) as entry:
        clock.settle(store.db, game_id, entry.game)
        game = entry.game
        count = len(game.log)
        deciding = clock.deciding(game)
        humans = entry.humans()
    ran_out = bool(expire_all(store, now, game_id))
    with store.db.read() as conn:
        rules = clock.rules_of(conn, game_id)
        bots = absence.describe(conn, game_id)
        idle = now - clock.last_action_time(conn, game_id)
        absent_after = rules.absent_after if rules is not None else None
        out = {
            "last_action_id": count,
            "clock": clock.describe(conn, game_id, now, clock.holding(conn, game_id, count)),
            "stand_ins": bots,
            "requests": consent.describe(conn, game_id),
            "absent_after": absent_after,
            "deciding": sorted(d for d in deciding if d in humans),
            # The human seats the others may vote over to a bot now (docs/web-api.md).
            "absent": sorted(d for d in deciding if d in humans and d not in bots
                             and absent_after is not None and idle >= absent_after),
        }
    return encode(out), ran_out


def _access(entry: Entry, token: str | None, seat: str | None, what: str) -> Access:
    if token is None:
        raise ApiError(401, f"token: {what} needs a seat's token (Authorization: Bearer)")
    access = access_of(entry, token, seat)
    if access.seat is None or not access.seats:
        raise ApiError(403, f"token: {what} is for a seat")
    return access


def _changed(store: GameStore, game_id: str) -> None:
    if store.on_change is not None:
        store.on_change(game_id)


def hand(store: GameStore, game_id: str, token: str | None, seat: str | None,
         bot: str) -> None:
    """The token's seat handed to ``bot`` by its player (409 if a bot plays it already)."""
    now = time.time()
    with store.held(game_id) as entry:
        me = _access(entry, token, seat, "handing a seat to a bot").seat
        assert me is not None
        if entry.game.finished:
            raise ApiError(409, "seat: the game is over")
        if me in absence.bots_of(store.db, game_id):
            raise ApiError(409, f"seat: a bot plays {me}'s seat already (take it back first)")
        with store.db.write() as conn:
            absence.hand_over(conn, game_id, me, bot, "own", now)
        clock.restart(store.db, game_id, entry.game, now)
    store.seats_changed(game_id, absence.bots_of(store.db, game_id))


def take_back(store: GameStore, game_id: str, token: str | None, seat: str | None) -> None:
    """The token's seat taken back from the bot that played it (409 if none did)."""
    now = time.time()
    with store.held(game_id) as entry:
        me = _access(entry, token, seat, "taking a seat back").seat
        assert me is not None
        with store.db.write() as conn:
            if not absence.take_back(conn, game_id, me):
                raise ApiError(409, f"seat: no bot plays {me}'s seat")
        clock.restart(store.db, game_id, entry.game, now)
    store.seats_changed(game_id, absence.bots_of(store.db, game_id))


def ask(store: GameStore, game_id: str, token: str | None, seat: str | None,
        body: RequestBody) -> bool:
    """A request to the other human seats; carried out at once when nobody is left to ask.
    True when the bots may have moves to make (a seat handed over, a takeback).  A clock run
    out before is acted on first (asking stops no clock that reached zero)."""
    now = time.time()
    ran_out = bool(expire_all(store, now, game_id))  # its bots are woken (True)
    with store.held(game_id) as entry:
        access = _access(entry, token, seat, f"asking for a {body.kind}")
        game = entry.game
        stood = absence.bots_of(store.db, game_id)
        voters = [h for h in entry.humans() if h not in stood and h not in access.seats]
        subject = _subject(store, game_id, entry, access, body, now)
        if body.kind == "absent":
            voters = [v for v in voters if v != body.seat]
        try:
            with store.db.write() as conn:
                request_id = consent.ask(conn, game_id, body.kind, access.seat or "",
                                         subject, voters, len(game.log), now)
        except IntegrityError:
            raise ApiError(409, "request: another request was asked at the same moment; "
                                "ask again") from None
        if body.kind == "takeback":
            clock.restart(store.db, game_id, game, now)  # held while the players decide
    if voters:
        _changed(store, game_id)
        return ran_out
    return _carry_out(store, game_id, request_id) or ran_out


def _subject(store: GameStore, game_id: str, entry: Entry, access: Access,
             body: RequestBody, now: float) -> dict[str, Any]:
    """What the request asks, checked now (refused with the field named)."""
    if body.kind != "takeback" and body.to is not None:
        raise ApiError(422, f"to: only a takeback names an action, not a {body.kind}")
    if body.kind != "absent" and (body.seat is not None or "bot" in body.model_fields_set):
        raise ApiError(422, f"seat: only an absent request names a seat and a bot, not a "
                            f"{body.kind}")
    with store.db.read() as conn:
        rules = clock.rules_of(conn, game_id)
        idle = now - clock.last_action_time(conn, game_id)
    if entry.game.finished:
        raise ApiError(409, "kind: the game is over")
    if body.kind == "takeback":
        if body.to is None:
            raise ApiError(422, "to: a takeback names the action to take the game back to")
        _batch, taken = undos_to(entry.game, body.to, int(now))  # the engine's refusal
        return {"to": body.to, "actions": len(taken)}
    if body.kind in ("pause", "resume"):
        if rules is None or rules.clock_bank is None:
            raise ApiError(409, "kind: this game has no clock to pause or resume")
        if (rules.paused_since is not None) == (body.kind == "pause"):
            state = "paused" if body.kind == "pause" else "running"
            raise ApiError(409, f"kind: the clock is {state} already")
        return {}
    if rules is None or rules.absent_after is None:
        raise ApiError(409, "kind: this game's creator set no absence time (absent_after)")
    if body.seat is None:
        raise ApiError(422, "seat: an absent request names the seat to hand to a bot")
    if body.seat not in entry.humans():
        raise ApiError(422, f"seat: {body.seat!r} is not a human seat of this game")
    if body.seat in access.seats:
        raise ApiError(422, "seat: your own seat is handed over with POST .../seats/hand")
    if body.seat in absence.bots_of(store.db, game_id):
        raise ApiError(409, f"seat: a bot plays {body.seat}'s seat already")
    if body.seat not in clock.deciding(entry.game) or idle < rules.absent_after:
        raise ApiError(409, f"seat: {body.seat} is not absent (a seat is absent when the game "
                            f"has waited for it {rules.absent_after:g} s without an action; "
                            f"{idle:.0f} s now)")
    return {"seat": body.seat, "bot": body.bot}


def answer(store: GameStore, game_id: str, request_id: int, token: str | None,
           seat: str | None, accept: bool) -> bool:
    """The token's seat accepts or refuses a request; carried out when the last voter
    accepts.  True when the bots may have moves to make."""
    now = time.time()
    with store.held(game_id) as entry:
        access = _access(entry, token, seat, "answering a request")
        with store.db.write() as conn:
            row = consent.get(conn, game_id, request_id, for_update=True)
            status = consent.vote(conn, row, access.seats, accept)
            if status == "refused":
                consent.resolve(conn, game_id, request_id, "refused", now)
        if status == "refused":
            clock.restart(store.db, game_id, entry.game, now)  # a takeback held them
    if status != "accepted":
        _changed(store, game_id)
        return False
    return _carry_out(store, game_id, request_id)


def _carry_out(store: GameStore, game_id: str, request_id: int) -> bool:
    """An accepted request done: the clock paused or resumed, a seat handed to a bot, the
    game taken back (void, with the reason, if the game moved on since it was asked)."""
    now = time.time()
    with store.db.read() as conn:
        row = consent.get(conn, game_id, request_id)
    subject = dict(row.subject)
    try:
        if row.kind == "takeback":
            return _take_back_game(store, game_id, row, int(subject["to"]), now)
        with store.held(game_id) as entry, store.db.write() as conn:
            if row.kind == "pause":
                clock.pause(conn, game_id, now)
            elif row.kind == "resume":
                clock.resume(conn, game_id, entry.game, now)
            else:
                absence.hand_over(conn, game_id, subject["seat"], subject["bot"], "vote", now)
            consent.resolve(conn, game_id, request_id, "accepted", now)
        if row.kind == "absent":
            with store.held(game_id) as entry:
                clock.restart(store.db, game_id, entry.game, now)
            store.seats_changed(game_id, absence.bots_of(store.db, game_id))
            return True
        return False
    finally:
        _changed(store, game_id)


def _take_back_game(store: GameStore, game_id: str, row: Any, to: int, now: float) -> bool:
    outcome: dict[str, Any] = {}

    def build(entry: Entry) -> list[tuple[dict[str, Any], str | None]]:
        count = len(entry.game.log)
        if count != row.at_actions:
            raise ApiError(409, f"request: the game has moved on since the takeback was asked "
                                f"({row.at_actions} actions then, {count} now); ask again")
        batch, taken = undos_to(entry.game, to, int(now))
        outcome.update(branch(batch, taken))
        return batch

    try:
        store.apply_built(game_id, build)
    except ApiError as exc:
        with store.db.write() as conn:
            consent.resolve(conn, game_id, row.number, "void", now, {"reason": exc.detail})
        raise
    with store.db.write() as conn:
        consent.resolve(conn, game_id, row.number, "accepted", now, {"to": to, **outcome})
    return True


def withdraw(store: GameStore, game_id: str, request_id: int, token: str | None,
             seat: str | None) -> None:
    """The token's seat withdraws the open request it asked (the clocks a takeback held run
    again)."""
    now = time.time()
    with store.held(game_id) as entry:
        access = _access(entry, token, seat, "withdrawing a request")
        with store.db.write() as conn:
            row = consent.get(conn, game_id, request_id, for_update=True)
            consent.withdraw(conn, row, access.seats)
            consent.resolve(conn, game_id, request_id, "withdrawn", now)
        clock.restart(store.db, game_id, entry.game, now)
    _changed(store, game_id)


# --- routes ------------------------------------------------------------------------------


async def _run(func: Callable[..., T], *args: Any) -> T:
    return await to_thread.run_sync(partial(func, *args))



async def _model(request: Request, model: type[BaseModel]) -> Any:
    return await read_model(request, model, MAX_BODY)


def _json(data: bytes) -> Response:
    return Response(content=data, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


def _body_doc(model: type[BaseModel], description: str) -> dict[str, Any]:
    return {"requestBody": {"required": True, "description": description,
                            "content": {"application/json": {
                                "schema": model.model_json_schema()}}}}


async def _answer(request: Request, game_id: str, woke: bool) -> Response:
    app: FastAPI = request.app
    store: GameStore = app.state.store
    data, ran_out = await _run(seats_json, store, game_id)
    if woke or ran_out:
        app.state.bots.kick(game_id)
    return _json(data)


@router.get("/api/games/{game_id}/seats")
async def game_seats(game_id: str, request: Request) -> Response:
    """The seats' state, the same for every viewer: each clock (seconds left now, running,
    reached zero; paused), the seats bots play for the time being and why, the requests open
    and answered, the takebacks accepted (the undone branches), and the seats the others may
    vote absent now.  A clock found run out is acted on at once (docs/web-api.md)."""
    return await _answer(request, game_id, False)


@router.post("/api/games/{game_id}/seats/hand",
             openapi_extra=_body_doc(HandBody, "the bot that plays the seat"))
async def hand_seat(game_id: str, request: Request, seat: str | None = None) -> Response:
    """Hand the token's seat to a bot (random, greedy or strong) until its player takes it
    back."""
    body: HandBody = await _model(request, HandBody)
    await _run(hand, request.app.state.store, game_id, bearer(request), seat, body.bot)
    return await _answer(request, game_id, True)


@router.post("/api/games/{game_id}/seats/return")
async def return_seat(game_id: str, request: Request, seat: str | None = None) -> Response:
    """Take the token's seat back from the bot that played it."""
    await _run(take_back, request.app.state.store, game_id, bearer(request), seat)
    return await _answer(request, game_id, True)


@router.post("/api/games/{game_id}/requests",
             openapi_extra=_body_doc(RequestBody, "what the other players are asked"))
async def ask_request(game_id: str, request: Request, seat: str | None = None) -> Response:
    """Ask the other human seats: pause or resume the clock, take the game back to action
    ``to``, hand an absent ``seat`` to a ``bot``.  Done at once when no other human seat is
    there to answer (bots accept)."""
    body: RequestBody = await _model(request, RequestBody)
    woke = await _run(ask, request.app.state.store, game_id, bearer(request), seat, body)
    return await _answer(request, game_id, woke)


@router.post("/api/games/{game_id}/requests/{request_id}",
             openapi_extra=_body_doc(AnswerBody, "accept (true) or refuse (false)"))
async def answer_request(game_id: str, request_id: int, request: Request,
                         seat: str | None = None) -> Response:
    """Accept or refuse a request that asks the token's seat: one refusal refuses it, the
    last acceptance carries it out."""
    body: AnswerBody = await _model(request, AnswerBody)
    if not 0 < request_id < 2 ** 63:  # past the database's integers: no such request
        raise ApiError(404, f"request {request_id}: no such request in this game")
    woke = await _run(answer, request.app.state.store, game_id, request_id,
                      bearer(request), seat, body.accept)
    return await _answer(request, game_id, woke)


@router.post("/api/games/{game_id}/requests/{request_id}/withdraw")
async def withdraw_request(game_id: str, request_id: int, request: Request,
                           seat: str | None = None) -> Response:
    """Withdraw an open request the token's seat asked (a takeback's clocks run again)."""
    if not 0 < request_id < 2 ** 63:
        raise ApiError(404, f"request {request_id}: no such request in this game")
    await _run(withdraw, request.app.state.store, game_id, request_id, bearer(request), seat)
    return await _answer(request, game_id, False)


__all__ = ["ClockBody", "attach", "install", "router", "seat_rules"]
