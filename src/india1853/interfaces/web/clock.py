"""The chess clock, optional per game (issue 22 item 5): a time bank and an increment per turn
for each human seat; pause and resume by the players' consent (consent.py); at zero either a
flag shown to everyone or the seat handed to a bot until its player takes it back.

Whose clock runs follows whose decision it is: the engine's ``Game.decider`` of each of its
active entities (3.4.1), asked after every change of the game - never worked out here.  A
clock is stored, never ticked: each seat's row keeps its bank and the moment it started
running, so the time left at any moment is ``bank - (now - running_since)``, the same in
every server process.  After each action the store's write hook settles the clocks
(``settle``): the seats that stopped deciding are charged and given the increment, the seats
that decide now start running.  The settling is keyed by the game's count of actions, so it
is done once however many processes try, and a process that died before it is made good by
the next one that reads the clocks.  The action at zero is claimed by one conditional update
(``expire``: ``flagged_at`` set only where it is still empty), so it is taken once across
processes, by the bot sweep (sweep.py) or by whichever request notices first.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from india1853.interfaces.web.db import Database, actions, games
from india1853.interfaces.web.seat_tables import seat_clocks, seat_rules, stand_ins
from india1853.rules.game.game import Game

AT_ZERO = ("flag", "bot")


@dataclass(frozen=True)
class SeatRules:
    """What the creator chose: the clock (None: no clock) and the absence time."""

    bank: float | None = None
    increment: float = 0.0
    at_zero: str = "flag"
    zero_bot: str = "greedy"
    absent_after: float | None = None

    def any(self) -> bool:
        return self.bank is not None or self.absent_after is not None


@dataclass(frozen=True)
class Expired:
    """A clock that reached zero, its action claimed by this process."""

    game_id: str
    seat: str
    at_zero: str
    bot: str


def deciding(game: Game) -> set[str]:
    """The players who decide now: the engine's decider of each active entity."""
    if game.finished:
        return set()
    return {p for e, _ in game.active_entities() if (p := game.decider(e)) is not None}


def last_action_time(conn: Connection, game_id: str) -> float:
    """When the game last changed by an action (its creation when none), from its rows."""
    last = conn.execute(select(func.max(actions.c.created_at))
                        .where(actions.c.game_id == game_id)).scalar_one_or_none()
    if last is not None:
        return float(last)
    return float(conn.execute(select(games.c.created_at)
                              .where(games.c.id == game_id)).scalar_one())


def install(db: Database, game_id: str, rules: SeatRules, humans: Collection[str],
            game: Game, now: float) -> None:
    """A new game's rules row and its clocks, the deciding seats' running from ``now``."""
    with db.write() as conn:
        conn.execute(insert(seat_rules).values(
            game_id=game_id, clock_bank=rules.bank, clock_increment=rules.increment,
            clock_at_zero=rules.at_zero if rules.bank is not None else None,
            zero_bot=rules.zero_bot if rules.bank is not None else None,
            absent_after=rules.absent_after, settled_at=len(game.log), paused_since=None))
        if rules.bank is None or not humans:
            return
        running = deciding(game)
        conn.execute(insert(seat_clocks), [
            {"game_id": game_id, "seat": s, "bank": rules.bank,
             "running_since": now if s in running else None, "flagged_at": None}
            for s in humans])


def rules_of(conn: Connection, game_id: str, *, for_update: bool = False) -> Any:
    query = select(seat_rules).where(seat_rules.c.game_id == game_id)
    if for_update:
        query = query.with_for_update()
    return conn.execute(query).one_or_none()


def _stood_in(conn: Connection, game_id: str) -> set[str]:
    return set(conn.execute(select(stand_ins.c.seat)
                            .where(stand_ins.c.game_id == game_id)).scalars())


def _run(conn: Connection, game_id: str, increment: float, running: set[str],
         when: float) -> None:
    """Every clock brought to ``when``: a running clock is charged; one that stops gets the
    increment (its turn ended); the seats in ``running`` run from ``when``."""
    for row in conn.execute(select(seat_clocks).where(seat_clocks.c.game_id == game_id)).all():
        bank = row.bank
        if row.running_since is not None:
            bank -= max(0.0, when - row.running_since)
        if row.seat in running:
            since: float | None = when
        else:
            since = None
            if row.running_since is not None:
                bank += increment
        if since != row.running_since or bank != row.bank:
            conn.execute(update(seat_clocks).where(seat_clocks.c.game_id == game_id)
                         .where(seat_clocks.c.seat == row.seat)
                         .values(bank=bank, running_since=since))


def settle(db: Database, game_id: str, game: Game) -> bool:
    """The clocks brought up to the game's last action (the store's write hook; also called
    by a reader that finds them behind).  Charged up to the time of that action's row; done
    once per count of actions, whichever process comes first.  True if settled now.  Looked
    at in a read first: a reader finding the clocks settled takes no write lock."""
    with db.read() as conn:
        rules = rules_of(conn, game_id)
        if rules is None or rules.clock_bank is None or rules.settled_at == len(game.log):
            return False
    with db.write() as conn:
        rules = rules_of(conn, game_id, for_update=True)
        if rules is None or rules.clock_bank is None or rules.settled_at == len(game.log):
            return False
        when = last_action_time(conn, game_id)
        running = set() if rules.paused_since is not None else (
            deciding(game) - _stood_in(conn, game_id))
        _run(conn, game_id, rules.clock_increment or 0.0, running, when)
        conn.execute(update(seat_rules).where(seat_rules.c.game_id == game_id)
                     .values(settled_at=len(game.log)))
    return True


def restart(db: Database, game_id: str, game: Game, now: float) -> None:
    """The clocks run again for who decides now (a seat taken back from a bot, a resume)."""
    with db.write() as conn:
        rules = rules_of(conn, game_id, for_update=True)
        if rules is None or rules.clock_bank is None:
            return
        running = set() if rules.paused_since is not None else (
            deciding(game) - _stood_in(conn, game_id))
        _run(conn, game_id, 0.0, running, now)


def pause(conn: Connection, game_id: str, now: float) -> None:
    """Every clock stopped (no increment: no turn ended)."""
    conn.execute(update(seat_rules).where(seat_rules.c.game_id == game_id)
                 .values(paused_since=now))
    _run(conn, game_id, 0.0, set(), now)


def resume(conn: Connection, game_id: str, game: Game, now: float) -> None:
    """The pause lifted: the deciding seats' clocks run from ``now``."""
    conn.execute(update(seat_rules).where(seat_rules.c.game_id == game_id)
                 .values(paused_since=None))
    _run(conn, game_id, 0.0, deciding(game) - _stood_in(conn, game_id), now)


def expire(db: Database, now: float, game_id: str | None = None) -> list[Expired]:
    """Claim the action at zero of every clock that ran out by ``now`` (of one game, or of
    all): each claimed by exactly one process (``flagged_at`` set where still empty); a claim
    of a game whose creator chose "bot" hands the seat to that bot in the same transaction."""
    out = (seat_clocks.c.running_since.is_not(None)
           & seat_clocks.c.flagged_at.is_(None)
           & (seat_clocks.c.running_since + seat_clocks.c.bank <= now))
    query = (select(seat_clocks.c.game_id, seat_clocks.c.seat, seat_rules.c.clock_at_zero,
                    seat_rules.c.zero_bot)
             .join(seat_rules, seat_rules.c.game_id == seat_clocks.c.game_id)
             .where(out).where(seat_rules.c.paused_since.is_(None)))
    if game_id is not None:
        query = query.where(seat_clocks.c.game_id == game_id)
    with db.read() as conn:
        due = conn.execute(query).all()
    claimed: list[Expired] = []
    for row in due:
        with db.write() as conn:
            done = conn.execute(update(seat_clocks)
                                .where(seat_clocks.c.game_id == row.game_id)
                                .where(seat_clocks.c.seat == row.seat).where(out)
                                .values(flagged_at=now))
            if done.rowcount != 1:
                continue  # another process took it
            if row.clock_at_zero == "bot":
                conn.execute(delete(stand_ins).where(stand_ins.c.game_id == row.game_id)
                             .where(stand_ins.c.seat == row.seat))
                conn.execute(insert(stand_ins).values(game_id=row.game_id, seat=row.seat,
                                                      bot=row.zero_bot, since=now,
                                                      reason="clock"))
        claimed.append(Expired(row.game_id, row.seat, row.clock_at_zero, row.zero_bot))
    return claimed


def describe(conn: Connection, game_id: str, now: float) -> dict[str, Any] | None:
    """The clock as every viewer sees it (nothing secret): each human seat's seconds left
    now, whether it runs, whether it reached zero; None for a game without a clock."""
    rules = rules_of(conn, game_id)
    if rules is None or rules.clock_bank is None:
        return None
    seats: dict[str, Any] = {}
    for row in conn.execute(select(seat_clocks).where(seat_clocks.c.game_id == game_id)).all():
        left = row.bank
        if row.running_since is not None:
            left -= max(0.0, now - row.running_since)
        seats[row.seat] = {"left": round(left, 3), "running": row.running_since is not None,
                           "flagged": row.flagged_at is not None}
    return {"bank": rules.clock_bank, "increment": rules.clock_increment,
            "at_zero": rules.clock_at_zero, "bot": rules.zero_bot,
            "paused": rules.paused_since is not None, "seats": seats}


__all__ = ["AT_ZERO", "Expired", "SeatRules", "deciding", "describe", "expire", "install",
           "last_action_time", "pause", "restart", "resume", "rules_of", "settle"]
