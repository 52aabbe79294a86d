"""Games with open seats: created by one player, joined by the others, started when full.

A *seating* is a game waiting for its players: the settings (edition, variants, the seed if
the creator chose one, hints) and its seats in their order - the creator's own, bots, and
open seats that anyone may join (from the lobby's list or the invite link ``/join/{id}``)
under a name of his own (a signed-in player's name by default).  Nobody receives another
seat's token: a guest's seat is his alone (the token is answered to him once and kept in his
browser), an account's seat belongs to the account (any browser where it is signed in has
it: accounts.py finds it by the session).  When the last open seat is taken - or the creator
fills the rest with bots - the game's rows are written under the seating's id in the same
transaction (rows.py ``insert_on``), and the game starts: the engine's ``Game`` from the
settings, like any other.

"My games" lists every game of an account and of the seats a browser keeps, with whose turn
it is - the turn model's ``active`` entities and the player deciding each (``Game.decider``,
3.4.1), read from the answer the seat itself receives: nothing here works out a rule - the
ones waiting for the asker first, the finished ones with their scores.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from india1853.errors import InputError, RuleError
from india1853.interfaces.bots import BOT_NAMES
from india1853.interfaces.web.access import HashedToken, new_token, token_hash
from india1853.interfaces.web.accounts import Account
from india1853.interfaces.web.db import games, seating_seats, seatings, seats
from india1853.interfaces.web.entry import ApiError, Seat, server_seed
from india1853.interfaces.web.rows import GAME_ID_BYTES
from india1853.interfaces.web.store import GameStore
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

MAX_OPEN_LISTED = 100
MAX_KEPT = 200  # seats a browser may ask "My games" about at once


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a new seating: a bot (named), open, or the creator's (``mine``)."""

    name: str | None = None
    bot: str | None = None
    open: bool = False


@dataclass(frozen=True)
class SeatingSpec:
    seats: tuple[SeatSpec, ...]
    edition: str = "second"
    variants: tuple[str, ...] = ()
    seed: int | None = None
    hints: bool = False


def _engine(build: Any) -> Any:
    try:
        return build()
    except (InputError, RuleError) as exc:
        raise ApiError(422, str(exc)) from None


def _fillers(taken: Sequence[str], count: int) -> list[str]:
    """Names that stand for the open seats while the engine checks the others."""
    keys = {t.casefold() for t in taken}
    out: list[str] = []
    n = 1
    while len(out) < count:
        name = f"Open seat {n}"
        if name.casefold() not in keys:
            out.append(name)
        n += 1
    return out


def _settings(spec: dict[str, Any], names: Sequence[str | None], seed: int = 0) -> Settings:
    """The engine's settings with these names, open seats stood for by fillers: the engine
    checks the number of players, the edition, the variants and every name."""
    given = [n for n in names if n is not None]
    fill = iter(_fillers(given, len(names) - len(given)))
    players = tuple(n if n is not None else next(fill) for n in names)
    settings: Settings = _engine(lambda: Settings(players, seed, spec["edition"],
                                                  tuple(spec["variants"])))
    return settings


class Seating:
    """Seatings in the database; every method blocks (run it in a thread)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.db = store.db

    # --- creating, joining, starting --------------------------------------------------------

    def create(self, spec: SeatingSpec, account: Account | None) -> dict[str, Any]:
        """A new seating; the creator sits in his seat (an account's, or a guest's with a
        token answered to him alone).  With no open seat it starts at once."""
        mine = [i for i, s in enumerate(spec.seats) if not s.open and s.bot is None]
        if len(mine) != 1:
            raise ApiError(422, "players: exactly one seat is yours (no bot, not open); "
                                f"got {len(mine)}")
        creator = mine[0]
        names: list[str | None] = []
        for i, s in enumerate(spec.seats):
            if s.open:
                if s.name is not None or s.bot is not None:
                    raise ApiError(422, f"players[{i}]: an open seat has no name and no bot "
                                        "(the player who joins names it)")
                names.append(None)
            elif s.bot is not None:
                if s.bot not in BOT_NAMES:
                    raise ApiError(422, f"players[{i}].bot: unknown bot {s.bot!r} (known: "
                                        f"{', '.join(BOT_NAMES)})")
                if not s.name:
                    raise ApiError(422, f"players[{i}].name: a bot's seat needs a name")
                names.append(s.name)
            else:
                name = s.name if s.name is not None else account.name if account else None
                if not name:
                    raise ApiError(422, f"players[{i}].name: your seat needs a name (or sign "
                                        "in: your account's name is taken)")
                names.append(name)
        stored = {"edition": spec.edition, "variants": list(spec.variants), "seed": spec.seed}
        settings = _settings(stored, names, spec.seed or 0)
        _engine(lambda: Game(settings))  # the variants and their combinations (the engine's)
        seating_id = secrets.token_urlsafe(GAME_ID_BYTES)
        token = None if account else new_token()
        now = time.time()
        with self.db.write() as conn:
            conn.execute(insert(seatings).values(
                id=seating_id, settings=stored, hints=spec.hints, creator=creator,
                created_at=now, started_at=None))
            conn.execute(insert(seating_seats), [
                {"seating_id": seating_id, "position": i, "name": names[i],
                 "bot": s.bot, "joined_at": now if names[i] is not None else None,
                 "account_id": account.id if i == creator and account else None,
                 "token_hash": token_hash(token) if i == creator and token else None}
                for i, s in enumerate(spec.seats)])
            started = self._start_if_full(conn, seating_id)
        return self._seated(seating_id, str(names[creator]), token, started)

    def join(self, seating_id: str, name: str | None, account: Account | None
             ) -> dict[str, Any]:
        """Take the first open seat under ``name`` (an account's name when not given); the
        game starts if it was the last one."""
        token = None if account else new_token()
        with self.db.write() as conn:
            row, seat_rows = self._locked(conn, seating_id)
            if row.started_at is not None:
                raise ApiError(409, "join: the game has started; no seat is open")
            if account is not None and any(s.account_id == account.id for s in seat_rows):
                raise ApiError(409, "join: you hold a seat in this game already")
            if name is None:
                if account is None:
                    raise ApiError(422, "name: a guest joins under a name of his own")
                name = account.name
            taken = [s.name for s in seat_rows if s.name is not None]
            if name.casefold() in {t.casefold() for t in taken}:
                raise ApiError(409, f"name: {name!r} is taken in this game; choose another")
            free = [s.position for s in seat_rows if s.name is None]
            if not free:
                raise ApiError(409, "join: no seat is open")
            names = [s.name if s.position != free[0] else name for s in seat_rows]
            try:
                _settings(row.settings, names)
            except ApiError as exc:
                raise ApiError(422, "name: " + exc.detail.split(": ", 1)[-1]) from None
            conn.execute(update(seating_seats)
                         .where(seating_seats.c.seating_id == seating_id)
                         .where(seating_seats.c.position == free[0])
                         .values(name=name, joined_at=time.time(),
                                 account_id=account.id if account else None,
                                 token_hash=token_hash(token) if token else None))
            started = self._start_if_full(conn, seating_id)
        return self._seated(seating_id, name, token, started)

    def start(self, seating_id: str, bot: str, account: Account | None,
              token: str | None) -> dict[str, Any]:
        """The creator fills the open seats with bots (``bot``) and the game starts."""
        if bot not in BOT_NAMES:
            raise ApiError(422, f"bot: unknown bot {bot!r} (known: {', '.join(BOT_NAMES)})")
        with self.db.write() as conn:
            row, seat_rows = self._locked(conn, seating_id)
            mine = seat_rows[row.creator]
            if not ((account is not None and mine.account_id == account.id)
                    or (token is not None and mine.token_hash is not None
                        and secrets.compare_digest(mine.token_hash, token_hash(token)))):
                raise ApiError(403, "start: only the game's creator starts it early (signed "
                                    "in, or with his seat's token)")
            if row.started_at is not None:
                raise ApiError(409, "start: the game has started already")
            taken = [s.name for s in seat_rows if s.name is not None]
            fill = iter(_fillers_for_bots(taken, sum(s.name is None for s in seat_rows)))
            now = time.time()
            for s in seat_rows:
                if s.name is None:
                    conn.execute(update(seating_seats)
                                 .where(seating_seats.c.seating_id == seating_id)
                                 .where(seating_seats.c.position == s.position)
                                 .values(name=next(fill), bot=bot, joined_at=now))
            self._start_if_full(conn, seating_id)
        return {"id": seating_id, "started": True, "link": f"/games/{seating_id}"}

    def _locked(self, conn: Connection, seating_id: str) -> tuple[Any, list[Any]]:
        """The seating's row, locked for this transaction (PostgreSQL; SQLite's write lock
        is the transaction's), and its seats in order; 404 if there is none."""
        query = select(seatings).where(seatings.c.id == seating_id)
        if not self.db.sqlite:
            query = query.with_for_update()
        row = conn.execute(query).first()
        if row is None:
            raise ApiError(404, f"game {seating_id!r}: no such game with open seats")
        seat_rows = list(conn.execute(select(seating_seats)
                                      .where(seating_seats.c.seating_id == seating_id)
                                      .order_by(seating_seats.c.position)))
        return row, seat_rows

    def _start_if_full(self, conn: Connection, seating_id: str) -> bool:
        """With every seat taken: the game's rows (rows.py ``insert_on``), under the
        seating's id, in the caller's transaction.  An account's seat gets a token nobody
        receives (the account reaches it by its session); a guest's keeps his token."""
        row, seat_rows = self._locked(conn, seating_id)
        if row.started_at is not None or any(s.name is None for s in seat_rows):
            return False
        chosen = row.settings.get("seed")
        seed = chosen if chosen is not None else server_seed()
        settings = _settings(row.settings, [s.name for s in seat_rows], seed)
        game = _engine(lambda: Game(settings))
        players = [Seat(s.name, s.bot,
                        None if s.bot is not None
                        else s.token_hash if s.token_hash is not None
                        else token_hash(new_token()))
                   for s in seat_rows]
        self.store.rows.insert_on(conn, seating_id, game, players, [], None,
                                  "creator" if chosen is not None else "server",
                                  bool(row.hints))
        conn.execute(update(seatings).where(seatings.c.id == seating_id)
                     .values(started_at=time.time()))
        return True

    @staticmethod
    def _seated(seating_id: str, name: str, token: str | None,
                started: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"id": seating_id, "seat": name, "started": started,
                               "invite": f"/join/{seating_id}",
                               "link": f"/games/{seating_id}"}
        if token is not None:  # a guest's: answered to him once, kept by his browser
            out["token"] = token
        return out

    # --- reading ----------------------------------------------------------------------------

    def open_games(self) -> list[dict[str, Any]]:
        """The seatings waiting for players, newest first (no token, no account)."""
        with self.db.read() as conn:
            rows = list(conn.execute(select(seatings).where(seatings.c.started_at.is_(None))
                                     .order_by(seatings.c.created_at.desc())
                                     .limit(MAX_OPEN_LISTED)))
            seat_rows = self._seats_of(conn, [r.id for r in rows])
        return [_public(r, seat_rows.get(r.id, [])) for r in rows]

    def one(self, seating_id: str, account: Account | None = None) -> dict[str, Any]:
        """One seating as the lobby shows it (started ones too: the page then opens the
        game), and whether the signed-in ``account`` holds a seat in it (``yours``); 404 for a
        game created without open seats."""
        with self.db.read() as conn:
            row = conn.execute(select(seatings).where(seatings.c.id == seating_id)).first()
            if row is None:
                raise ApiError(404, f"game {seating_id!r}: no such game with open seats")
            seat_rows = self._seats_of(conn, [seating_id])[seating_id]
        yours = account is not None and any(s.account_id == account.id for s in seat_rows)
        return {**_public(row, seat_rows), "yours": yours}

    @staticmethod
    def _seats_of(conn: Connection, ids: list[str]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {i: [] for i in ids}
        if ids:
            for s in conn.execute(select(seating_seats)
                                  .where(seating_seats.c.seating_id.in_(ids))
                                  .order_by(seating_seats.c.position)):
                out[s.seating_id].append(s)
        return out

    def my_games(self, account: Account | None,
                 kept: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        """Every game of the account and of the ``(game id, token)`` seats a browser keeps:
        those waiting for the asker first, then the others in play, those waiting for
        players, the finished ones (each group newest first)."""
        if len(kept) > MAX_KEPT:
            raise ApiError(422, f"seats: at most {MAX_KEPT}, got {len(kept)}")
        found: dict[str, dict[str, Any]] = {}
        with self.db.read() as conn:
            if account is not None:
                ids = list(conn.execute(select(seating_seats.c.seating_id)
                                        .where(seating_seats.c.account_id == account.id)
                                        ).scalars())
                rows = {r.id: r for r in conn.execute(select(seatings)
                                                      .where(seatings.c.id.in_(ids)))}
                seat_rows = self._seats_of(conn, ids)
                for game_id in ids:
                    mine = next(s for s in seat_rows[game_id] if s.account_id == account.id)
                    found[game_id] = self._waiting_or_none(rows[game_id], seat_rows[game_id],
                                                           mine) or {"via": "account"}
            for game_id, token in kept:
                if game_id in found:
                    continue
                row = conn.execute(select(seatings).where(seatings.c.id == game_id)).first()
                if row is not None and row.started_at is None:
                    seats_here = self._seats_of(conn, [game_id])[game_id]
                    mine = next((s for s in seats_here if s.token_hash is not None
                                 and secrets.compare_digest(s.token_hash, token_hash(token))),
                                None)
                    if mine is not None:
                        found[game_id] = self._waiting_or_none(row, seats_here, mine) or {}
                    continue
                exists = conn.execute(select(games.c.id).where(games.c.id == game_id)).first()
                if exists is not None:
                    found[game_id] = {"via": "token", "token": token}
        out = []
        for game_id, item in found.items():
            if "status" in item:
                out.append(item)
                continue
            seat_token = item.get("token")
            if item.get("via") == "account" and account is not None:
                digest = self.account_seat(account.id, game_id)
                seat_token = HashedToken(digest) if digest else None
            if seat_token is None:
                continue
            playing = self._playing(game_id, seat_token)
            if playing is not None:
                out.append(playing)
        order = {"your turn": 0, "playing": 1, "waiting for players": 2, "finished": 3}
        out.sort(key=lambda g: (order[g["status"]], -g["created_at"]))
        return out

    def account_seat(self, account_id: int, game_id: str) -> str | None:
        """The token hash of the account's seat in the game (started from a seating), or
        None: the account views the game as a spectator (accounts.py's ``seat_of``)."""
        with self.db.read() as conn:
            row = conn.execute(
                select(seats.c.token_hash)
                .join(seating_seats, (seating_seats.c.seating_id == seats.c.game_id)
                      & (seating_seats.c.position == seats.c.position))
                .where(seating_seats.c.account_id == account_id)
                .where(seats.c.game_id == game_id)).first()
        return None if row is None or row.token_hash is None else str(row.token_hash)

    @staticmethod
    def _waiting_or_none(row: Any, seat_rows: list[Any], mine: Any) -> dict[str, Any] | None:
        if row.started_at is not None:
            return None
        public = _public(row, seat_rows)
        return {**public, "status": "waiting for players", "seat": mine.name,
                "my_seats": [mine.name], "my_turn": False, "to_act": [], "scores": None,
                "is_creator": mine.position == row.creator, "link": f"/join/{row.id}"}

    def _playing(self, game_id: str, token: str) -> dict[str, Any] | None:
        """The game as the seat's own answer tells it (covered for a hotseat token: the
        public view); None if the token is no longer the game's."""
        try:
            _last, data = self.store.view_json(game_id, token, None, True)
        except ApiError:
            return None
        answer = json.loads(data)
        turn, game = answer["turn"], answer["game"]
        seats_here = list(answer["seats"])
        to_act = [a["player"] for a in turn["active"] if a["player"] is not None]
        mine = any(p in seats_here for p in to_act)
        finished = bool(turn["finished"])
        scores = turn["tables"].get("scores") if finished else None
        status = "finished" if finished else "your turn" if mine else "playing"
        return {"id": game_id, "status": status, "seat": answer["seat"] or ", ".join(seats_here),
                "my_seats": seats_here, "edition": game["edition"], "variants": game["variants"],
                "players": [p["name"] for p in game["players"]], "created_at": game["created_at"],
                "round": game["round"], "title": turn["title"], "headline": turn["headline"],
                "to_act": list(dict.fromkeys(to_act)), "my_turn": mine and not finished,
                "scores": (sorted(({"name": n, "score": v} for n, v in scores.items()),
                                  key=lambda s: -s["score"]) if isinstance(scores, dict)
                           else None),
                "actions": answer["last_action_id"], "link": f"/games/{game_id}"}


def _fillers_for_bots(taken: Sequence[str], count: int) -> list[str]:
    """Names for the bots that fill the open seats: "Bot 1", "Bot 2", ... not taken."""
    keys = {t.casefold() for t in taken}
    out: list[str] = []
    n = 1
    while len(out) < count:
        name = f"Bot {n}"
        if name.casefold() not in keys:
            out.append(name)
        n += 1
    return out


def _public(row: Any, seat_rows: list[Any]) -> dict[str, Any]:
    """A seating as everyone may see it: the seats' names and bots, which are open."""
    settings = row.settings
    return {"id": row.id, "edition": settings.get("edition"),
            "variants": settings.get("variants", []), "hints": bool(row.hints),
            "seed_chosen_by": "creator" if settings.get("seed") is not None else "server",
            "seats": [{"name": s.name, "bot": s.bot, "open": s.name is None}
                      for s in seat_rows],
            "open": sum(s.name is None for s in seat_rows),
            "creator": seat_rows[row.creator].name if seat_rows else None,
            "created_at": row.created_at, "started": row.started_at is not None,
            "invite": f"/join/{row.id}", "link": f"/games/{row.id}"}


__all__ = ["SeatSpec", "Seating", "SeatingSpec"]
