"""The store's rows: every SQL statement the game store runs (db.py holds the tables).

A game is a ``games`` row (its settings, hotseat token hash, count of actions, round), its
``seats`` rows (name, bot, token hash) and one ``actions`` row per action of its log, each
with the seat that decided it and its digest (integrity.py).  The count of actions on the
game row is the check that keeps processes apart: an action is appended only if the count
read for update is the one the cached game was built on.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from india1853.interfaces.web.db import Database, actions, games, seats
from india1853.interfaces.web.entry import ApiError, Entry, Seat, seed_info
from india1853.interfaces.web.integrity import CorruptLog, load_rows, row_digest
from india1853.rules.game.game import ENGINE_VERSION, Game
from india1853.rules.game.settings import Settings

log = logging.getLogger("india1853.web")

GAME_ID_BYTES = 12

# The statements every request runs, built once: building a statement costs several times
# what SQLite takes to run it (every page's request reads the game's count of actions).
_COUNT = select(games.c.actions).where(games.c.id == bindparam("game_id"))
_COUNT_FOR_UPDATE = _COUNT.with_for_update()
_INSERT_ACTIONS = insert(actions)
_UPDATE_GAME = update(games).where(games.c.id == bindparam("game_id")).values(
    actions=bindparam("new_actions"), round=bindparam("new_round"),
    finished=bindparam("new_finished"), updated_at=bindparam("new_updated_at"))


@dataclass
class Rows:
    """The game store's statements on one database."""

    db: Database

    def count(self, conn: Connection, game_id: str, *, for_update: bool = False) -> int:
        """The game row's count of actions; 404 for a game that does not exist."""
        query = _COUNT_FOR_UPDATE if for_update else _COUNT
        count = conn.execute(query, {"game_id": game_id}).scalar_one_or_none()
        if count is None:
            raise ApiError(404, f"game {game_id!r}: no such game")
        return int(count)

    def current_count(self, game_id: str) -> int:
        """The game row's count of actions now, read alone (one statement; on SQLite without
        a transaction of its own); 404 for a game that does not exist."""
        count = self.db.scalar(_COUNT, game_id=game_id)
        if count is None:
            raise ApiError(404, f"game {game_id!r}: no such game")
        return int(count)

    def load(self, conn: Connection, game_id: str, count: int) -> Entry:
        """The game rebuilt from its rows: the engine's unchecked replay of the ``count``
        actions this server wrote after checking each one (every row's digest checked
        first: a damaged log is reported, never replayed)."""
        row = conn.execute(select(games).where(games.c.id == game_id)).one()
        seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id)
                                 .order_by(seats.c.position)).all()
        try:
            rows = load_rows(conn, game_id, count)
        except CorruptLog as exc:
            log.error("%s", exc)
            raise ApiError(500, str(exc)) from None
        settings = Settings.from_json(row.settings)
        game = Game.replay(settings, [r.data for r in rows], check=False)
        return Entry(game=game,
                     seats=tuple(Seat(s.name, s.bot, s.token_hash) for s in seat_rows),
                     hotseat_hash=row.hotseat_hash, created_at=row.created_at,
                     seed_chosen_by=row.seed_chosen_by, hints_enabled=bool(row.hints))

    def insert(self, game: Game, players: Sequence[Seat], deciders: Sequence[str | None],
               hotseat_hash: str | None, seed_chosen_by: str,
               hints: bool = False) -> tuple[str, Entry]:
        """A new game's rows (its log's actions, each with the seat that decided it) under a
        new random id; the id and the game's entry."""
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        with self.db.write() as conn:
            entry = self.insert_on(conn, game_id, game, players, deciders, hotseat_hash,
                                   seed_chosen_by, hints)
        return game_id, entry

    def insert_on(self, conn: Connection, game_id: str, game: Game, players: Sequence[Seat],
                  deciders: Sequence[str | None], hotseat_hash: str | None,
                  seed_chosen_by: str, hints: bool = False) -> Entry:
        """A new game's rows under ``game_id``, written on the caller's transaction (a game
        whose seats were taken by joining starts in the transaction of its last seat,
        seating.py); the game's entry."""
        now = time.time()
        conn.execute(insert(games).values(
            id=game_id, engine_version=ENGINE_VERSION, settings=game.settings.to_json(),
            hotseat_hash=hotseat_hash, created_at=now, updated_at=now,
            actions=len(game.log), round=game.state.round, finished=game.finished,
            seed_chosen_by=seed_chosen_by, hints=hints))
        conn.execute(insert(seats), [
            {"game_id": game_id, "position": i, "name": s.name, "bot": s.bot,
             "token_hash": s.token_hash} for i, s in enumerate(players)])
        if game.log:
            conn.execute(insert(actions), [
                {"game_id": game_id, "idx": a["id"], "data": a, "seat": who,
                 "created_at": now, "digest": row_digest(game_id, a["id"], a, who)}
                for a, who in zip(game.log, deciders, strict=True)])
        return Entry(game=game, seats=tuple(players), hotseat_hash=hotseat_hash,
                     created_at=now, seed_chosen_by=seed_chosen_by, hints_enabled=hints)

    def append(self, game_id: str, game: Game, who: str) -> bool:
        """The row of the game's last action (decided by ``who``), and the game row brought
        up to date; False, writing nothing, if another process wrote an action first."""
        return self.append_all(game_id, game, [who])

    def append_all(self, game_id: str, game: Game, deciders: Sequence[str | None]) -> bool:
        """The rows of the game's last ``len(deciders)`` actions (each with the seat that
        decided it: one undo request taking back the bots' replies writes several), all in
        one transaction, and the game row brought up to date; False, writing nothing, if
        another process wrote an action first."""
        accepted = game.log[len(game.log) - len(deciders):]
        now = time.time()
        with self.db.write() as conn:
            if self.count(conn, game_id, for_update=True) != len(game.log) - len(deciders):
                return False
            conn.execute(_INSERT_ACTIONS, [
                {"game_id": game_id, "idx": a["id"], "data": a, "seat": who,
                 "created_at": now, "digest": row_digest(game_id, a["id"], a, who)}
                for a, who in zip(accepted, deciders, strict=True)])
            conn.execute(_UPDATE_GAME, {
                "game_id": game_id, "new_actions": len(game.log),
                "new_round": game.state.round, "new_finished": game.finished,
                "new_updated_at": time.time()})
        return True

    def token_hashes(self, game_id: str) -> list[str | None]:
        """The game's seats' token hashes and its hotseat token's (none for no such game)."""
        with self.db.read() as conn:
            hashes: list[str | None] = list(conn.execute(
                select(seats.c.token_hash).where(seats.c.game_id == game_id)).scalars())
            hashes.append(conn.execute(select(games.c.hotseat_hash)
                                       .where(games.c.id == game_id)).scalar_one_or_none())
        return hashes

    def list_games(self, limit: int) -> list[dict[str, Any]]:
        """The newest games first, as the lobby lists them."""
        with self.db.read() as conn:
            rows = conn.execute(select(games).order_by(games.c.created_at.desc())
                                .limit(limit)).all()
            ids = [r.id for r in rows]
            seat_rows = conn.execute(select(seats).where(seats.c.game_id.in_(ids))
                                     .order_by(seats.c.position)).all() if ids else []
        players: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        for s in seat_rows:
            players[s.game_id].append({"name": s.name, "bot": s.bot})
        return [{"id": r.id, "edition": r.settings.get("edition"),
                 "variants": r.settings.get("variants", []), "players": players[r.id],
                 "round": r.round, "finished": r.finished, "created_at": r.created_at,
                 "actions": r.actions,
                 "seed": seed_info(int(r.settings.get("seed", 0)), r.seed_chosen_by,
                                   bool(r.finished))} for r in rows]

    def unfinished_with_bots(self) -> list[str]:
        """Unfinished games that have a bot seat."""
        with self.db.read() as conn:
            rows = conn.execute(select(games.c.id).where(games.c.finished.is_(False))
                                .where(games.c.id.in_(select(seats.c.game_id)
                                                      .where(seats.c.bot.is_not(None))))
                                ).all()
        return [r.id for r in rows]


__all__ = ["GAME_ID_BYTES", "Rows"]
