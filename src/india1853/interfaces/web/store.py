"""The game store: every game's rows in the database, its state cached in memory.

All engine work (replay, legality, legal actions, views, bots) runs in worker threads, never
on the event loop; the calls here are blocking and the app runs them with ``to_thread``.

Actions on one game are applied strictly one at a time: a lock per game serialises them in
this process, and the write transaction checks the database's count of actions against the
cached game's log before inserting the next row (unique ``(game_id, idx)``), so that no
process ever acts on a stale cache and no action is lost or written twice.  The engine
applies an action to the cached game first (cheap to throw away: an error leaves it
unchanged) and the row is written after; should the write fail, the cached game is dropped
and rebuilt from the rows.  A game not in the cache is rebuilt by the engine's unchecked
replay of its rows, which this server alone wrote after checking each one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, insert, select, update

from india1853.board.state import BoardState
from india1853.errors import InputError, RuleError
from india1853.interfaces.bots import BOT_NAMES, Bot, make_bot
from india1853.interfaces.charts import draw, history
from india1853.interfaces.logfile import escape_old_names
from india1853.interfaces.narrate import LogLine, narrate, observed
from india1853.interfaces.web.boards import BoardPicture, Boards
from india1853.interfaces.web.budget import ByteLRU, entry_bytes, response_bytes
from india1853.interfaces.web.db import Database, actions, games, seats
from india1853.interfaces.web.deciders import Deciders
from india1853.interfaces.web.integrity import CorruptLog, load_rows, row_digest
from india1853.interfaces.web.turn import preview, turn
from india1853.rules.game.game import ENGINE_VERSION, Game, effective_actions, redo_stack
from india1853.rules.game.secrecy import SEED_BITS, Observer, seed_commitment
from india1853.rules.game.settings import Settings

log = logging.getLogger("india1853.web")

TOKEN_BYTES = 24  # 192 random bits per token
GAME_ID_BYTES = 12
WRITE_ATTEMPTS = 3
HISTORY_STEPS = 50  # actions processed forward on the history game, beyond: a replay
PAST_CACHE = 512  # history responses kept (views and boards after a given action)
LOG_ANSWERS = 8  # log answers kept per game between changes (each page asks from its last line)
# The caches' memory (budget.py): games and history responses together hold at most this many
# estimated bytes (india1853 serve --cache-mb), the history responses at most 1/HISTORY_SHARE.
CACHE_BYTES = 512 << 20
HISTORY_SHARE = 8



class ApiError(Exception):
    """A request the server refuses: the HTTP status and a one-line message."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class HashedToken(str):
    """A token's SHA-256 standing for the token (a redeemed stream ticket, tickets.py): the
    store checks it as it would check the token, without hashing it again."""


def token_hash(token: str) -> str:
    if isinstance(token, HashedToken):
        return str.__str__(token)
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class Seat:
    name: str
    bot: str | None
    token_hash: str | None


@dataclass(frozen=True)
class Access:
    """What a request's token may do: the seat it views as and the seats it may act for."""

    seat: str | None
    seats: tuple[str, ...]
    hotseat: bool = False
    # The hotseat token's screen is covered: no seat's view, only what every seat may see.
    covered: bool = False


@dataclass
class Entry:
    """One game in memory: the engine's game and what the server keeps beside it."""

    game: Game
    seats: tuple[Seat, ...]
    hotseat_hash: str | None
    created_at: float
    submitters: list[str | None]  # the deciding player of each action in the log
    seed_chosen_by: str | None = None  # "server", "creator"; None: unknown (before 0003)
    bots: dict[str, Bot] = field(default_factory=dict)
    # Answers per (seat, seats, covered), built and encoded once per change.
    responses: dict[tuple[str | None, tuple[str, ...], bool], dict[str, Any]] = field(
        default_factory=dict)
    encoded: dict[tuple[str | None, tuple[str, ...], bool], bytes] = field(
        default_factory=dict)
    narrator: Game | None = None
    history: Game | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    bot_error: str | None = None
    board: BoardPicture | None = None  # the live board's picture (boards.py)
    board_etag: tuple[BoardState, str] | None = None  # the live board's ETag, for its state
    # The log's answers by ``after``, encoded once per change: every page asks for the same
    # new lines after an action.
    logs: dict[int, bytes] = field(default_factory=dict)

    def humans(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s.bot is None)

    def bot_seats(self) -> tuple[str, ...]:
        """The seats a bot plays (an undo takes their replies back with one's own move)."""
        return tuple(s.name for s in self.seats if s.bot is not None)

    def bot_of(self, player: str | None) -> str | None:
        return next((s.bot for s in self.seats if s.name == player), None)

    def changed(self) -> None:
        self.responses.clear()
        self.encoded.clear()
        self.logs.clear()

    def nbytes(self) -> int:
        """The estimated bytes this entry holds (budget.py)."""
        return entry_bytes((self.game, self.narrator, self.history), len(self.lines),
                           [*self.encoded.values(), *self.logs.values()]
                           ) + (self.board.nbytes() if self.board else 0)


@dataclass(frozen=True)
class NewSeat:
    name: str
    bot: str | None = None


@dataclass(frozen=True)
class NewGame:
    players: tuple[NewSeat, ...]
    edition: str = "second"
    variants: tuple[str, ...] = ()
    seed: int | None = None
    hotseat: bool = False


class GameStore:
    """Games in the database and in an LRU cache; every method blocks (run it in a thread).

    The cache holds at most ``cache_size`` games and ``cache_bytes`` estimated bytes (games
    and history responses together; budget.py), the least recently used evicted first."""

    def __init__(self, db: Database, *, cache_size: int = 200, cache_bytes: int = CACHE_BYTES,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.db = db
        self.cache_size = cache_size
        self.on_change = on_change
        history = max(1, cache_bytes // HISTORY_SHARE)
        self._cache: ByteLRU[str, Entry] = ByteLRU(cache_bytes - history, Entry.nbytes,
                                                   max_items=cache_size)
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._past_cache: ByteLRU[tuple[str, int, str], bytes] = ByteLRU(
            history, response_bytes, max_items=PAST_CACHE)
        self._charts_guard = threading.Lock()  # matplotlib's pyplot is not thread-safe
        self._boards = Boards()

    # --- cache and locks ------------------------------------------------------------------

    def cache_bytes(self) -> tuple[int, int]:
        """The estimated bytes held now by the games' cache and by the history responses'."""
        return self._cache.bytes, self._past_cache.bytes

    @contextmanager
    def lock(self, game_id: str) -> Iterator[None]:
        """Hold the game's lock; 404 for a game that does not exist.  At the end the cached
        game is weighed again (whatever the request added to it: its narration, history,
        views), and the cache evicts others if it is over its budget."""
        with self._game_lock(game_id):
            try:
                yield
            finally:
                self._cache.reweigh(game_id)

    def _game_lock(self, game_id: str) -> threading.Lock:
        """The game's lock; 404 for a game that does not exist (so that requests for made-up
        ids cannot grow the table of locks)."""
        with self._locks_guard:
            found = self._locks.get(game_id)
        if found is not None:
            return found
        with self.db.read() as conn:
            self._count(conn, game_id)
        with self._locks_guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def _cached(self, game_id: str) -> Entry | None:
        return self._cache.get(game_id)

    def _remember(self, game_id: str, entry: Entry) -> None:
        self._cache.put(game_id, entry)

    def _forget(self, game_id: str) -> None:
        self._cache.pop(game_id)

    def _count(self, conn: Connection, game_id: str, *, for_update: bool = False) -> int:
        query = select(games.c.actions).where(games.c.id == game_id)
        if for_update:
            query = query.with_for_update()
        count = conn.execute(query).scalar_one_or_none()
        if count is None:
            raise ApiError(404, f"game {game_id!r}: no such game")
        return int(count)

    def _entry(self, conn: Connection, game_id: str, count: int) -> Entry:
        """The cached game if it holds the database's ``count`` actions, else rebuilt."""
        entry = self._cached(game_id)
        if entry is not None and len(entry.game.log) == count:
            return entry
        row = conn.execute(select(games).where(games.c.id == game_id)).one()
        seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id)
                                 .order_by(seats.c.position)).all()
        try:  # integrity.py: every row checked, a damaged log reported, never replayed
            rows = load_rows(conn, game_id, count)
        except CorruptLog as exc:
            log.error("%s", exc)
            raise ApiError(500, str(exc)) from None
        settings = Settings.from_json(row.settings)
        game = Game.replay(settings, [r.data for r in rows], check=False)
        entry = Entry(game=game,
                      seats=tuple(Seat(s.name, s.bot, s.token_hash) for s in seat_rows),
                      hotseat_hash=row.hotseat_hash, created_at=row.created_at,
                      submitters=[r.seat for r in rows], seed_chosen_by=row.seed_chosen_by)
        self._remember(game_id, entry)
        return entry

    def _read(self, game_id: str) -> Entry:
        """The game, current with the database (call with the game's lock held)."""
        with self.db.read() as conn:
            return self._entry(conn, game_id, self._count(conn, game_id))

    # --- tokens -----------------------------------------------------------------------------

    def _access(self, entry: Entry, token: str | None, seat: str | None,
                cover: bool = False) -> Access:
        """401 for a token that is no seat's; 403 for a seat the token may not view as.
        ``cover``: the hotseat token's covered screen (no seat's view; ignored for a seat's
        own token, whose view is only ever its own, and for no token)."""
        if token is None:
            if seat is not None:
                raise ApiError(401, "seat: viewing as a seat needs that seat's token")
            return Access(None, ())
        digest = token_hash(token)
        # Every stored hash is compared (in constant time each), the match taken after.
        matches = [s.name for s in entry.seats
                   if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest)]
        hotseat = entry.hotseat_hash is not None and hmac.compare_digest(entry.hotseat_hash,
                                                                         digest)
        if matches:
            if seat is not None and seat != matches[0]:
                raise ApiError(403, f"seat: this token is {matches[0]}'s, not {seat}'s")
            return Access(matches[0], (matches[0],))
        if hotseat:
            humans = entry.humans()
            if seat is None:
                seat = self._next_human(entry, humans)
            elif seat not in humans:
                raise ApiError(403, f"seat: {seat!r} is not a human seat of this game")
            if cover:
                return self._covered(humans)
            return Access(seat, humans, hotseat=True)
        raise ApiError(401, "token: not a token of this game")

    def known_token(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is a seat's (or the hotseat) token of the game: a rate limit's
        key (security.py); False for a game that does not exist."""
        digest = token_hash(token)
        entry = self._cached(game_id)
        if entry is not None:
            hashes = [s.token_hash for s in entry.seats] + [entry.hotseat_hash]
        else:
            with self.db.read() as conn:
                hashes = list(conn.execute(select(seats.c.token_hash)
                                           .where(seats.c.game_id == game_id)).scalars())
                hashes.append(conn.execute(select(games.c.hotseat_hash)
                                           .where(games.c.id == game_id)).scalar_one_or_none())
        return any(h is not None and hmac.compare_digest(h, digest) for h in hashes)

    @staticmethod
    def _covered(humans: tuple[str, ...]) -> Access:
        """The hotseat token's covered screen: the public view, the seats it may act for."""
        return Access(None, humans, hotseat=True, covered=True)

    @staticmethod
    def _deciding_human(entry: Entry, humans: Sequence[str]) -> str | None:
        """The human seat that must act next, by the engine's active entities and who
        decides for each (3.4.1); None when none must (bots act, or the game is over)."""
        game = entry.game
        for entity, _ in game.active_entities():
            player = game.decider(entity)
            if player is not None and player in humans:
                return player
        return None

    @classmethod
    def _next_human(cls, entry: Entry, humans: Sequence[str]) -> str:
        """The human seat that must act next (the first human seat when none must)."""
        return cls._deciding_human(entry, humans) or humans[0]

    # --- responses --------------------------------------------------------------------------

    def _meta(self, game_id: str, entry: Entry) -> dict[str, Any]:
        settings = entry.game.settings
        return {
            "id": game_id,
            "edition": settings.edition,
            "variants": list(settings.variants),
            "players": [{"name": s.name, "bot": s.bot} for s in entry.seats],
            "hotseat": entry.hotseat_hash is not None,
            "engine_version": ENGINE_VERSION,
            "created_at": entry.created_at,
            "round": entry.game.state.round,
            "finished": entry.game.finished,
            "actions": len(entry.game.log),
            "seed": seed_info(settings.seed, entry.seed_chosen_by, entry.game.finished),
        }

    def _undo_target(self, entry: Entry, kind: str) -> dict[str, Any] | None:
        log_ = entry.game.log
        stack = effective_actions(log_) if kind == "undo" else redo_stack(log_)
        return stack[-1] if stack else None

    def _may(self, entry: Entry, access: Access, kind: str) -> dict[str, Any] | None:
        """The undo (or redo) action this access may take now, or None (the engine's answer:
        ``Game.undo_target``, ``Game.redo_target``)."""
        game = entry.game
        if not access.seats or game.finished:
            return None
        if kind == "undo":
            target = game.undo_target(*access.seats, bots=entry.bot_seats())
        else:
            target = game.redo_target(*access.seats)
        return None if target is None else game.action(kind, str(target["entity"]))

    def _response(self, game_id: str, entry: Entry, access: Access) -> dict[str, Any]:
        key = (access.seat, access.seats, access.covered)
        cached = entry.responses.get(key)
        if cached is not None:
            return cached
        if access.covered:
            out = self._covered_response(game_id, entry, access)
            entry.responses[key] = out
            return out
        undo = self._may(entry, access, "undo")
        redo = self._may(entry, access, "redo")
        out = {
            "game": self._meta(game_id, entry),
            "seat": access.seat,
            "seats": list(access.seats),
            "turn": turn(entry.game, access.seat),
            "last_action_id": len(entry.game.log),
            "can_undo": undo is not None,
            "undo": undo,
            # How many actions that undo takes back: one's own decision and the bots' replies.
            "undo_takes_back": len(entry.game.undo_targets(*access.seats,
                                                           bots=entry.bot_seats()))
            if undo is not None else 0,
            "can_redo": redo is not None,
            "redo": redo,
            "board_etag": self._board_etag(entry),
            "bot_error": entry.bot_error,
        }
        entry.responses[key] = out
        return out

    def _covered_response(self, game_id: str, entry: Entry, access: Access) -> dict[str, Any]:
        """The answer for a covered hotseat screen ("Pass to Ann"): the public view (as a
        spectator's: no seat's secrets), the seats the token may act for, and ``next_seat``,
        the human seat that must act next (None when none must), whom the page asks to
        confirm before it fetches that seat's view.  Nobody is at the screen to act: no
        undo or redo is offered."""
        return {
            "game": self._meta(game_id, entry),
            "seat": None,
            "seats": list(access.seats),
            "covered": True,
            "next_seat": self._deciding_human(entry, access.seats),
            "turn": turn(entry.game, None),
            "last_action_id": len(entry.game.log),
            "can_undo": False,
            "undo": None,
            "undo_takes_back": 0,
            "can_redo": False,
            "redo": None,
            "board_etag": self._board_etag(entry),
            "bot_error": entry.bot_error,
        }

    def _board_etag(self, entry: Entry) -> str:
        """The live board picture's ETag (boards.py): a page whose picture has it asks for
        no new one."""
        board = entry.game.state.board
        if entry.board_etag is None or entry.board_etag[0] is not board:
            entry.board_etag = (board, self._boards.etag(board))
        return entry.board_etag[1]

    def _encode(self, game_id: str, entry: Entry, access: Access) -> tuple[int, bytes]:
        """The response as JSON bytes (encoded once per change and seat: the pages of one
        seat and its stream share them) and its last action id."""
        key = (access.seat, access.seats, access.covered)
        data = entry.encoded.get(key)
        if data is None:
            data = entry.encoded[key] = encode(self._response(game_id, entry, access))
        return len(entry.game.log), data

    # --- reading ----------------------------------------------------------------------------

    def view_json(self, game_id: str, token: str | None,
                  seat: str | None, cover: bool = False) -> tuple[int, bytes]:
        """GET's response as JSON bytes, and its last action id (``cover``: a hotseat
        screen covered until the next seat confirms, _covered_response)."""
        with self.lock(game_id):
            entry = self._read(game_id)
            return self._encode(game_id, entry, self._access(entry, token, seat, cover))

    def last_action_id(self, game_id: str) -> int:
        entry = self._cached(game_id)
        if entry is not None:
            return len(entry.game.log)
        with self.db.read() as conn:
            return self._count(conn, game_id)

    def database_count(self, game_id: str) -> int:
        """The game's count of actions in the database (another process may have written)."""
        with self.db.read() as conn:
            return self._count(conn, game_id)

    def check_access(self, game_id: str, token: str | None, seat: str | None) -> None:
        """Raise the ApiError a request with this token would get (404, 401, 403)."""
        with self.lock(game_id):
            self._access(self._read(game_id), token, seat)

    def list_games(self, limit: int = 200) -> list[dict[str, Any]]:
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

    def public_log(self, game_id: str, after: int = 0) -> dict[str, Any]:
        """The log in words with each action's public data (those after action ``after``);
        the whole log file (seed and secrets) once the game has ended."""
        return json.loads(self.public_log_json(game_id, after))  # type: ignore[no-any-return]

    def public_log_json(self, game_id: str, after: int = 0) -> bytes:
        """:meth:`public_log` as JSON, encoded once per change and ``after`` (after an action
        every page asks for the same new lines)."""
        if after < 0:
            raise ApiError(422, f"after: must be 0 or more, got {after}")
        with self.lock(game_id):
            entry = self._read(game_id)
            found = entry.logs.get(after)
            if found is None:
                if len(entry.logs) >= LOG_ANSWERS:
                    entry.logs.clear()
                found = entry.logs[after] = encode(self._public_log(entry, after))
            return found

    def _public_log(self, entry: Entry, after: int) -> dict[str, Any]:
        game = entry.game
        self._narrate(entry)
        # Each action as the public sees it now (rules/game/secrecy.py: the engine's one
        # declaration of secrets), beside its narration as the table saw it then.
        public = Observer(game, None)
        out: dict[str, Any] = {"finished": game.finished,
                               "settings": _public_settings(game.settings),
                               "last_action_id": len(game.log),
                               "actions": [{**line,
                                            "action": public.observe(game.log[line["id"] - 1])}
                                           for line in entry.lines[after:]]}
        if game.finished:
            out["log"] = game.to_log()
        return out

    def _narrate(self, entry: Entry) -> None:
        """Narrate the actions not yet narrated, on a game of its own (public views only)."""
        game = entry.game
        if entry.narrator is None or len(entry.lines) > len(game.log):
            entry.narrator = Game(game.settings)
            entry.lines = []
        narrator = entry.narrator
        ed = narrator.rules.ed
        before = narrator.view(None)
        for action in game.log[len(entry.lines):]:
            narrator.process(action)
            after = narrator.view(None)
            line: LogLine = narrate(ed, observed(action), before, after)
            entry.lines.append({"id": line.id, "entity": line.entity, "lines": list(line.lines)})
            before = after

    def _game_at(self, game_id: str, at: int | None) -> Game:
        """The live game (``at`` None or the last id); for history, a game of its own."""
        with self.lock(game_id):
            return self._history_game(game_id, self._read(game_id), at)

    def _history_game(self, game_id: str, entry: Entry, at: int | None) -> Game:
        """The game after action ``at`` (the game's lock held).  Each game keeps one history
        game: stepping forward through the history processes the next few actions on it;
        a step back or a long jump replays the log's prefix unchecked."""
        game = entry.game
        if at is None or at == len(game.log):
            return game
        if not 0 <= at <= len(game.log):
            raise ApiError(422, f"at: must be between 0 and {len(game.log)}, got {at}")
        past = entry.history
        if past is None or not 0 <= at - len(past.log) <= HISTORY_STEPS:
            past = Game.replay(game.settings, game.log[:at], check=False)
        else:
            for action in game.log[len(past.log):at]:
                past.process(action)
        entry.history = past
        return past

    def _past(self, game_id: str, at: int, kind: str,
              build: Callable[[Game], bytes]) -> bytes:
        """A history response: the log's prefix never changes, so each is built once."""
        key = (game_id, at, kind)
        found = self._past_cache.get(key)
        if found is not None:
            return found
        with self.lock(game_id):
            entry = self._read(game_id)
            live = at == len(entry.game.log)
            data = build(self._history_game(game_id, entry, at))
        if not live:
            self._past_cache.put(key, data)
        return data

    def at_json(self, game_id: str, at: int) -> bytes:
        """The public view after action ``at`` (history), as JSON."""
        return self._past(game_id, at, "at", lambda game: encode(
            {"last_action_id": at, "turn": turn(game, None)}))

    def board_svg(self, game_id: str, at: int | None) -> str:
        """The board as SVG, now or after action ``at``."""
        if at is None:
            return self.board_picture(game_id).svg.decode("utf-8")
        return self._past(game_id, at, "board",
                          lambda game: self._boards.svg(game.state.board).encode("utf-8")
                          ).decode("utf-8")

    def board_picture(self, game_id: str) -> BoardPicture:
        """The live board's picture (SVG, gzipped, ETag): drawn once per board for every
        viewer, kept until the board changes (boards.py)."""
        with self.lock(game_id):
            entry = self._read(game_id)
            entry.board = self._boards.picture(entry.game.state.board, entry.board)
            return entry.board

    def stats_svg(self, game_id: str) -> str:
        """The charts of ``india1853 stats`` (worth per round, share prices), drawn from the
        public view only (secret-free, the same for every viewer)."""
        game = self._game_at(game_id, None)
        # Drawn once per log (seconds of matplotlib): kept with the history answers.
        key = (game_id, len(game.log), "stats")
        found = self._past_cache.get(key)
        if found is not None:
            return found.decode("utf-8")
        colours = {c.initials: c.colour for c in game.rules.ed.companies}
        with self._charts_guard, tempfile.TemporaryDirectory() as tmp:
            svg = draw(history(game), Path(tmp) / "stats.svg", colours).read_text()
        self._past_cache.put(key, svg.encode("utf-8"))
        return svg

    # --- writing ----------------------------------------------------------------------------

    def create(self, spec: NewGame) -> dict[str, Any]:
        names = tuple(p.name for p in spec.players)
        for i, p in enumerate(spec.players):
            if p.bot is not None and p.bot not in BOT_NAMES:
                raise ApiError(422, f"players[{i}].bot: unknown bot {p.bot!r} "
                                    f"(known: {', '.join(BOT_NAMES)})")
        if all(p.bot is not None for p in spec.players):
            raise ApiError(422, "players: at least one seat must be a human's (no bot)")
        seed = spec.seed if spec.seed is not None else server_seed()
        settings = _settings(lambda: Settings(names, seed, spec.edition, spec.variants))
        game = _game(lambda: Game(settings))
        return self._insert(game, [(p.name, p.bot) for p in spec.players], [], spec.hotseat,
                            "creator" if spec.seed is not None else "server")

    def import_log(self, data: object, hotseat: bool) -> dict[str, Any]:
        """A log file as the command line writes it (a save file's ``table.bots`` names the
        bot seats); every action is checked again.  Player names with control characters (old
        files) are escaped as the command line's loader escapes them."""
        if not isinstance(data, dict):
            raise ApiError(422, "log: must be a JSON object")
        # Old files (issue 13): names with control characters, written before the settings
        # refused them, are loaded escaped, as the command line loads them (docs/cli.md).
        data = escape_old_names(data)
        table = data.get("table") or {}
        bots = table.get("bots", {}) if isinstance(table, dict) else None
        if not isinstance(bots, dict) or not all(isinstance(v, str) for v in bots.values()):
            raise ApiError(422, "table.bots: must map player names to bot names")
        if data.get("engine_version") != ENGINE_VERSION:
            raise ApiError(422, f"log.engine_version: {data.get('engine_version')!r} is not "
                                f"{ENGINE_VERSION!r}")
        raw_settings = data.get("settings")
        chosen_by = "creator"
        if isinstance(raw_settings, dict) and "seed" not in raw_settings:
            # A log without a seed gets one nobody at the table chose (docs/web-api.md).
            raw_settings, chosen_by = {**raw_settings, "seed": server_seed()}, "server"
        settings = _settings(lambda: Settings.from_json(raw_settings))
        for name, bot in bots.items():
            if name not in settings.players:
                raise ApiError(422, f"table.bots: {name!r} is not a player")
            if bot not in BOT_NAMES:
                raise ApiError(422, f"table.bots.{name}: unknown bot {bot!r}")
        if all(p in bots for p in settings.players):
            raise ApiError(422, "table.bots: at least one seat must be a human's (no bot)")
        log_actions = data.get("actions")
        if not isinstance(log_actions, list):
            raise ApiError(422, "log.actions: must be a list")
        game = Game(settings)
        deciders = Deciders()  # deciders.py: in one pass (many undo/redo pairs: linear)
        for i, action in enumerate(log_actions):
            try:
                who = deciders.of(game, action)
                game.process(action)
            except (InputError, RuleError) as exc:
                raise ApiError(422, f"actions[{i}]: {exc}") from None
            deciders.accepted(game.log[-1], who)
        return self._insert(game, [(p, bots.get(p)) for p in settings.players], deciders.seats,
                            hotseat, chosen_by)

    def _insert(self, game: Game, players: list[tuple[str, str | None]],
                submitters: list[str | None], hotseat: bool,
                seed_chosen_by: str) -> dict[str, Any]:
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        tokens = {name: new_token() for name, bot in players if bot is None}
        hotseat_token = new_token() if hotseat else None
        now = time.time()
        with self.db.write() as conn:
            conn.execute(insert(games).values(
                id=game_id, engine_version=ENGINE_VERSION, settings=game.settings.to_json(),
                hotseat_hash=token_hash(hotseat_token) if hotseat_token else None,
                created_at=now, updated_at=now, actions=len(game.log),
                round=game.state.round, finished=game.finished, seed_chosen_by=seed_chosen_by))
            conn.execute(insert(seats), [
                {"game_id": game_id, "position": i, "name": name, "bot": bot,
                 "token_hash": token_hash(tokens[name]) if name in tokens else None}
                for i, (name, bot) in enumerate(players)])
            if game.log:
                conn.execute(insert(actions), [
                    {"game_id": game_id, "idx": a["id"], "data": a, "seat": who,
                     "created_at": now, "digest": row_digest(game_id, a["id"], a, who)}
                    for a, who in zip(game.log, submitters, strict=True)])
        entry = Entry(game=game, seats=tuple(Seat(n, b, token_hash(tokens[n])
                                                  if n in tokens else None)
                                             for n, b in players),
                      hotseat_hash=token_hash(hotseat_token) if hotseat_token else None,
                      created_at=now, submitters=list(submitters), seed_chosen_by=seed_chosen_by)
        self._remember(game_id, entry)
        out: dict[str, Any] = {
            "id": game_id,
            "tokens": tokens,
            "spectator": f"/games/{game_id}",
            "links": {n: f"/games/{game_id}#token={t}" for n, t in tokens.items()},
        }
        if hotseat_token is not None:
            out["hotseat_token"] = hotseat_token
            out["hotseat_link"] = f"/games/{game_id}#token={hotseat_token}"
        return out

    def act_json(self, game_id: str, token: str | None, action: object,
                 seat: str | None = None, cover: bool = False) -> bytes:
        """Check and apply one action sent with ``token``; GET's response after it (JSON;
        ``cover`` with the hotseat token: the covered answer, so the page learns who acts
        next without receiving that seat's view before he confirms)."""
        if token is None:
            raise ApiError(401, "token: acting needs a seat's token (Authorization: Bearer)")
        if not isinstance(action, dict):
            raise ApiError(422, "action: must be a JSON object")
        for _attempt in range(WRITE_ATTEMPTS):
            with self.lock(game_id):
                entry = self._read(game_id)
                access = self._access(entry, token, seat)
                action_id = action.get("id")
                if not isinstance(action_id, int) or isinstance(action_id, bool):
                    raise ApiError(422, "action.id: must be an integer (the turn's next_id)")
                if action_id != entry.game.next_id():
                    raise ApiError(409, f"action.id: expected {entry.game.next_id()}, got "
                                        f"{action_id} (the game has moved on: reload it)")
                who = self._authorize(entry, access, action)
                stamped = {**action, "created_at": int(time.time())}
                if self._apply_all(game_id, entry,
                                   self._with_replies(entry, access, stamped, who)):
                    if access.hotseat and cover:
                        access = self._covered(access.seats)
                    elif access.hotseat:
                        access = Access(self._next_human(entry, access.seats), access.seats,
                                        hotseat=True)
                    return self._encode(game_id, entry, access)[1]
        raise ApiError(409, "the game changed while the action was written; reload it")

    def preview_json(self, game_id: str, token: str | None, action: object,
                     seat: str | None = None) -> bytes:
        """The option ``action`` would be, priced by the rules layer (a composed secret bid:
        its bond), or the engine's one-line refusal (422); nothing is written.  Only for the
        seat that decides the action (a bid is secret)."""
        if token is None:
            raise ApiError(401, "token: previewing needs a seat's token (Authorization: Bearer)")
        if not isinstance(action, dict):
            raise ApiError(422, "action: must be a JSON object")
        with self.lock(game_id):
            entry = self._read(game_id)
            access = self._access(entry, token, seat)
            if action.get("type") in ("undo", "redo"):
                raise ApiError(422, "action.type: undo and redo have no preview")
            who = self._authorize(entry, access, action)
            try:
                option = preview(entry.game, who, {**action, "id": entry.game.next_id(),
                                                   "created_at": 0})
            except (InputError, RuleError) as exc:
                raise ApiError(422, str(exc)) from None
        return json.dumps({"option": option}).encode()

    def _authorize(self, entry: Entry, access: Access, action: dict[str, Any]) -> str:
        """The player deciding the action, if the token may act for him; else 403."""
        kind = action.get("type")
        game = entry.game
        if kind == "undo":
            # One's own last decision with the bots' replies after it (Game.undo_targets).
            targets = game.undo_targets(*access.seats, bots=entry.bot_seats())
            own = entry.submitters[int(targets[0]["id"]) - 1] if targets else None
            if own is not None:
                return own
        if kind in ("undo", "redo"):
            target = self._undo_target(entry, str(kind))
            if target is None:
                raise ApiError(422, f"rule {kind}: there is nothing to {kind}")
            who = entry.submitters[int(target["id"]) - 1]
            if who not in access.seats:
                raise ApiError(403, f"{kind}: the action to {kind} was decided by {who}, "
                                    "not by this token's seat")
            return who
        entity = action.get("entity")
        if not isinstance(entity, str):
            raise ApiError(422, "action.entity: must be a player's name or a company's "
                                "initials")
        if entity not in game.state.companies and entity not in game.settings.players:
            raise ApiError(422, f"action.entity: unknown player or company {entity!r}")
        who = game.decider(entity)
        if who is None or who not in access.seats:
            raise ApiError(403, f"action.entity: {entity} is not decided by this token's "
                                f"seat ({', '.join(access.seats) or 'none'})")
        return who

    @staticmethod
    def _with_replies(entry: Entry, access: Access, action: dict[str, Any],
                      who: str) -> list[tuple[dict[str, Any], str | None]]:
        """The actions one request writes, each with the seat it is recorded for: the action
        itself, decided by ``who``; for an undo of one's own decision that the bots answered,
        one undo per bot reply and one for the decision (Game.undo_targets, the last first),
        each recorded for the seat that decided the action it takes back (as deciders.py
        reads an import)."""
        if action.get("type") != "undo":
            return [(action, who)]
        targets = entry.game.undo_targets(*access.seats, bots=entry.bot_seats())
        if len(targets) < 2 or action.get("entity") != targets[-1]["entity"]:
            return [(action, who)]  # the engine judges it as it is
        return [({**action, "entity": target["entity"], "entity_type": target["entity_type"],
                  "id": int(action["id"]) + i}, entry.submitters[int(target["id"]) - 1])
                for i, target in enumerate(reversed(targets))]

    def _apply(self, game_id: str, entry: Entry, action: dict[str, Any], who: str) -> bool:
        """Process and persist one action (the game's lock held).  False if another process
        wrote an action first (the cache is then dropped and the caller starts again)."""
        return self._apply_all(game_id, entry, [(action, who)])

    def _apply_all(self, game_id: str, entry: Entry,
                   batch: list[tuple[dict[str, Any], str | None]]) -> bool:
        """Process and persist actions, each with its deciding seat, all or none (the game's
        lock held).  False if another process wrote an action first (the cache is then
        dropped and the caller starts again)."""
        game = entry.game
        before = len(game.log)
        trial = game.fork() if len(batch) > 1 else game
        try:
            for action, _who in batch:
                trial.process(action)
        except (InputError, RuleError) as exc:
            raise ApiError(422, str(exc)) from None
        entry.game = game = trial
        accepted = game.log[before:]
        try:
            with self.db.write() as conn:
                if self._count(conn, game_id, for_update=True) != before:
                    self._forget(game_id)
                    return False
                conn.execute(insert(actions), [
                    {"game_id": game_id, "idx": a["id"], "data": a, "seat": who,
                     "created_at": time.time(),
                     "digest": row_digest(game_id, a["id"], a, who)}
                    for a, (_action, who) in zip(accepted, batch, strict=True)])
                conn.execute(update(games).where(games.c.id == game_id).values(
                    actions=len(game.log), round=game.state.round, finished=game.finished,
                    updated_at=time.time()))
        except BaseException:
            self._forget(game_id)
            raise
        entry.submitters.extend(who for _action, who in batch)
        entry.changed()
        if self.on_change is not None:
            self.on_change(game_id)
        return True

    # --- bots -------------------------------------------------------------------------------

    def bot_step(self, game_id: str) -> bool:
        """One bot move if a bot must act now; False when none must (or a bot failed).

        The bot thinks without the game's lock (people's requests for the game go on
        meanwhile); its choice is applied only if the game has not moved on since."""
        with self.lock(game_id):
            entry = self._read(game_id)
            task = self._bot_task(game_id, entry)
        if task is None:
            return False
        player, entity, bot, game_view, legal, before = task
        try:
            choice = bot.choose(game_view, legal)
            if choice not in legal:
                raise InputError(f"chose an action not offered for {entity}: {choice!r}")
        except (InputError, RuleError) as exc:
            with self.lock(game_id):
                self._bot_failed(game_id, self._read(game_id), f"bot of {player}: {exc}")
            return False
        with self.lock(game_id):
            entry = self._read(game_id)
            game = entry.game
            if len(game.log) != before:
                return True  # someone acted meanwhile (bonds are written at once): look again
            action = {**choice, "id": game.next_id(), "created_at": int(time.time())}
            try:
                return self._apply(game_id, entry, action, player)
            except ApiError as exc:
                self._bot_failed(game_id, entry, f"bot of {player}: {exc.detail}")
                return False

    def _bot_task(self, game_id: str, entry: Entry) -> tuple[str, str, Bot, dict[str, Any],
                                               list[dict[str, Any]], int] | None:
        """What the first bot that must act needs to decide (the game's lock held)."""
        game = entry.game
        if game.finished or entry.bot_error is not None:
            return None
        for entity, _ in game.active_entities():
            player = game.decider(entity)
            bot_name = entry.bot_of(player)
            if player is None or bot_name is None:
                continue
            bot = entry.bots.get(player)
            if bot is None:
                bot = entry.bots[player] = make_bot(bot_name, player, game.settings.seed)
            legal = game.legal_actions(entity)
            if not legal:
                self._bot_failed(game_id, entry, f"bot of {player}: the engine offers "
                                                  f"{entity} no legal action")
                return None
            return player, entity, bot, game.view(player), legal, len(game.log)
        return None

    def _bot_failed(self, game_id: str, entry: Entry, message: str) -> None:
        """The failure goes to the server's log whole; every viewer is told only whose bot
        failed: the engine's reason may hold the bot's secrets (its bond, its cards)."""
        log.error("game %s: %s", game_id, message)
        who = message.split(":", 1)[0]
        entry.bot_error = f"{who}: failed to move; the game waits (the reason is in the " \
                          "server's log)"
        entry.changed()
        if self.on_change is not None:
            self.on_change(game_id)

    def games_waiting_for_bots(self) -> list[str]:
        """Unfinished games that have a bot seat (to wake their bots at server start)."""
        with self.db.read() as conn:
            rows = conn.execute(select(games.c.id).where(games.c.finished.is_(False))
                                .where(games.c.id.in_(select(seats.c.game_id)
                                                      .where(seats.c.bot.is_not(None))))
                                ).all()
        return [r.id for r in rows]


def encode(data: Any) -> bytes:
    """Compact JSON as UTF-8."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def server_seed() -> int:
    """A seed nobody at the table chose: SEED_BITS bits from the operating system."""
    return secrets.randbits(SEED_BITS)


SEED_CHOSEN_BY = {"server": "seed chosen by the server (random, committed)",
                  "creator": "seed chosen by the creator", None: "seed of unknown origin"}


def seed_info(seed: int, chosen_by: str | None, finished: bool) -> dict[str, Any]:
    """What every view and listing tells of the seed: its SHA-256 from the start, who chose
    it, and the seed itself (its decimal digits, the string the SHA-256 is of) once the game
    is over: then anyone can check the deal."""
    return {"sha256": seed_commitment(seed), "chosen_by": chosen_by or "unknown",
            "note": SEED_CHOSEN_BY.get(chosen_by, SEED_CHOSEN_BY[None]),
            # A string: a 128-bit number is beyond a JavaScript number's exact integers.
            "value": str(seed) if finished else None}


def _public_settings(settings: Settings) -> dict[str, Any]:
    return {k: v for k, v in settings.to_json().items() if k != "seed"}


def _settings(build: Callable[[], Settings]) -> Settings:
    try:
        return build()
    except (InputError, RuleError) as exc:
        raise ApiError(422, str(exc)) from None


def _game(build: Callable[[], Game]) -> Game:
    try:
        return build()
    except (InputError, RuleError) as exc:
        raise ApiError(422, str(exc)) from None
