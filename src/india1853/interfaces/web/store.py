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

:class:`GameStore` is the facade the app calls; its parts are rooms of their own: the SQL
(``rows.py``), who may act for which entity (``access.py``, the engine's answers), time
travel and its caches (``history.py``), the game in memory (``entry.py``) and the board's
picture (``boards.py``, drawn once per board, gzipped, named by an ETag).  Here stay the cache
of games and the locks, the answers built from them, the bots' moves and the charts.
"""

from __future__ import annotations

import hashlib
import json
import logging
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from india1853.errors import InputError, RuleError
from india1853.interfaces.bots import BOT_NAMES, Bot, Decision, decision_for, make_bot
from india1853.interfaces.charts import History as ChartHistory
from india1853.interfaces.charts import draw, history
from india1853.interfaces.logfile import escape_old_names
from india1853.interfaces.narrate import LogLine, narrate, observed
from india1853.interfaces.web.access import (
    Access,
    access_of,
    after_acting,
    authorize,
    decided_by_now,
    deciding_human,
    holds,
    new_token,
    offered,
    token_hash,
    undo_takes_back,
    with_replies,
)
from india1853.interfaces.web.boards import BoardPicture, Boards
from india1853.interfaces.web.budget import ByteLRU
from india1853.interfaces.web.db import Database
from india1853.interfaces.web.entry import ApiError, Entry, Seat, encode, seed_info, server_seed
from india1853.interfaces.web.history import History
from india1853.interfaces.web.rows import Rows
from india1853.interfaces.web.turn import preview, run_draft, turn
from india1853.rules.game.game import ENGINE_VERSION, Game
from india1853.rules.game.secrecy import Observer
from india1853.rules.game.settings import Settings

log = logging.getLogger("india1853.web")
T = TypeVar("T")

WRITE_ATTEMPTS = 3
# The caches' memory (budget.py): games and history responses together hold at most this many
# estimated bytes (india1853 serve --cache-mb), the history responses at most 1/HISTORY_SHARE.
CACHE_BYTES = 512 << 20
HISTORY_SHARE = 8
LOG_ANSWERS = 8  # log answers kept per game between changes (each page asks from its last line)


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
    hints: bool = False  # the strong bot's hints for the humans (always on with a bot seat)


class GameStore:
    """Games in the database and in an LRU cache; every method blocks (run it in a thread).

    The cache holds at most ``cache_size`` games and ``cache_bytes`` estimated bytes (games
    and history responses together; budget.py), the least recently used evicted first.
    ``bot_cpu_seconds`` bounds the strong bot's CPU per decision, and a hint's (None: the
    bot's own default)."""

    def __init__(self, db: Database, *, cache_size: int = 200, cache_bytes: int = CACHE_BYTES,
                 on_change: Callable[[str], None] | None = None,
                 bot_cpu_seconds: float | None = None) -> None:
        if bot_cpu_seconds is not None and not bot_cpu_seconds > 0:
            raise ValueError(f"bot_cpu_seconds: must be positive, got {bot_cpu_seconds}")
        self.db = db
        self.bot_cpu_seconds = bot_cpu_seconds
        self.rows = Rows(db)
        self.cache_size = cache_size
        self.on_change = on_change
        past = max(1, cache_bytes // HISTORY_SHARE)
        self._cache: ByteLRU[str, Entry] = ByteLRU(cache_bytes - past, Entry.nbytes,
                                                   max_items=cache_size)
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._history = History(past)
        self._charts_guard = threading.Lock()  # matplotlib's pyplot is not thread-safe
        self._boards = Boards()
        # The rooms beside the store (clock.py): called after each change is written, with
        # the game's lock held; ``stand_ins`` gives the seats bots play for the time being
        # (absence.py), asked when the game is loaded or another process changed it, before
        # each human action and each bot move; ``stand_in_why`` says why a bot plays a seat.
        self.after_write: list[Callable[[str, Game], None]] = []
        self.stand_ins: Callable[[str], dict[str, str]] | None = None
        self.stand_in_why: Callable[[str, str], str] | None = None
        # Called with the game's id before a human action takes the game's lock: a clock that
        # ran out is acted on first (clock.py), so a move sent after zero cannot slip past it.
        self.before_act: list[Callable[[str], None]] = []
        # Bumped when this process may have missed other processes' changes (pubsub.py lost
        # its subscription): every cached game's stand-ins are read again.
        self._elsewhere = 0

    # --- cache and locks ------------------------------------------------------------------

    def cache_bytes(self) -> tuple[int, int]:
        """The estimated bytes held now by the games' cache and by the history responses'."""
        return self._cache.bytes, self._history.held

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

    @contextmanager
    def held(self, game_id: str) -> Iterator[Entry]:
        """The game, current with the database, under its lock (for the rooms beside the
        store: the seats' rules, seats_api.py)."""
        with self._held(game_id) as entry:
            yield entry

    @contextmanager
    def _held(self, game_id: str) -> Iterator[Entry]:
        """The game, current with the database, under its lock."""
        with self.lock(game_id):
            yield self._read(game_id)

    def _game_lock(self, game_id: str) -> threading.Lock:
        """The game's lock; 404 for a game that does not exist (so that requests for made-up
        ids cannot grow the table of locks)."""
        with self._locks_guard:
            found = self._locks.get(game_id)
        if found is not None:
            return found
        with self.db.read() as conn:
            self.rows.count(conn, game_id)
        with self._locks_guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def _read(self, game_id: str) -> Entry:
        """The game, current with the database (call with the game's lock held): the cached
        game if it holds the database's count of actions, else rebuilt from the rows; the
        seats bots play for the time being read once after a load and after every change
        another process announced (``changed_elsewhere``)."""
        entry = self._current(game_id)
        epoch = self._elsewhere
        if entry.stand_ins_epoch != epoch and self.stand_ins is not None:
            entry.stand_ins_epoch = epoch  # before the read: a change heard meanwhile counts
            self._stand_ins(entry, self.stand_ins(game_id))
        return entry

    def changed_elsewhere(self, game_id: str | None) -> None:
        """Another process changed the game (None: maybe any game; pubsub.py, on the event
        loop): what this process keeps beside its actions, the seats bots play for the time
        being, is read again at its next use."""
        if game_id is None:
            self._elsewhere += 1
            return
        entry = self._cache.peek(game_id)
        if entry is not None:
            entry.stand_ins_epoch = -1

    def _current(self, game_id: str) -> Entry:
        entry = self._cache.get(game_id)
        if entry is not None and self.rows.current_count(game_id) == len(entry.game.log):
            return entry  # the common case, checked by one statement
        with self.db.read() as conn:
            count = self.rows.count(conn, game_id)
            entry = self._cache.get(game_id)
            if entry is not None and len(entry.game.log) == count:
                return entry
            entry = self.rows.load(conn, game_id, count)
        self._cache.put(game_id, entry)
        return entry

    def known_token(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is a seat's (or the hotseat) token of the game: a rate limit's
        key (security.py); False for a game that does not exist."""
        entry = self._cache.get(game_id)
        hashes = entry.token_hashes() if entry is not None else self.rows.token_hashes(game_id)
        return holds(hashes, token)

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
            "hints": entry.hints,
        }

    def _response(self, game_id: str, entry: Entry, access: Access) -> dict[str, Any]:
        key = (access.seat, access.seats, access.covered)
        cached = entry.responses.get(key)
        if cached is not None:
            return cached
        if access.covered:
            out = self._covered_response(game_id, entry, access)
            entry.responses[key] = out
            return out
        bots = entry.bot_seats()
        # A seat a bot plays for the time being is the bot's to act for: no undo or redo.
        acting = replace(access, seats=tuple(s for s in access.seats
                                             if s not in entry.stand_ins))
        undo = offered(entry.game, acting, "undo", bots)
        redo = offered(entry.game, acting, "redo")
        out = {
            "game": self._meta(game_id, entry),
            "seat": access.seat,
            "seats": list(access.seats),
            "turn": turn(entry.game, access.seat),
            "last_action_id": len(entry.game.log),
            "can_undo": undo is not None,
            "undo": undo,
            # How many actions that undo takes back: one's own decision and the bots' replies.
            "undo_takes_back": undo_takes_back(entry.game, acting, bots),
            "can_redo": redo is not None,
            "redo": redo,
            "board_etag": self._board_etag(entry),
            "bot_error": entry.bot_error,
            # The seats a bot plays for the time being (public; absence.py): their humans
            # take them back before acting.
            "stand_ins": dict(entry.stand_ins),
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
            # A seat a bot plays for the time being is not passed the screen.
            "next_seat": deciding_human(entry.game, [s for s in access.seats
                                                     if s not in entry.stand_ins]),
            "turn": turn(entry.game, None),
            "last_action_id": len(entry.game.log),
            "can_undo": False,
            "undo": None,
            "undo_takes_back": 0,
            "can_redo": False,
            "redo": None,
            "board_etag": self._board_etag(entry),
            "bot_error": entry.bot_error,
            "stand_ins": dict(entry.stand_ins),
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
            return self._encode(game_id, entry, access_of(entry, token, seat, cover))

    def last_action_id(self, game_id: str) -> int:
        entry = self._cache.get(game_id)
        if entry is not None:
            return len(entry.game.log)
        return self.database_count(game_id)

    def database_count(self, game_id: str) -> int:
        """The game's count of actions in the database (another process may have written)."""
        with self.db.read() as conn:
            return self.rows.count(conn, game_id)

    def check_access(self, game_id: str, token: str | None, seat: str | None) -> None:
        """Raise the ApiError a request with this token would get (404, 401, 403)."""
        self.access(game_id, token, seat)

    def access(self, game_id: str, token: str | None, seat: str | None) -> Access:
        """What this token may do in the game (404, 401, 403 as a request would get)."""
        with self.lock(game_id):
            return access_of(self._read(game_id), token, seat)

    def inspect(self, game_id: str, read: Callable[[Entry], T]) -> T:
        """``read`` of the game, current with the database, under its lock (chat.py and
        alerts.py ask the engine through it); 404 for a game that does not exist."""
        with self._held(game_id) as entry:
            return read(entry)

    def list_games(self, limit: int = 200) -> list[dict[str, Any]]:
        return self.rows.list_games(limit)

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
        """Narrate the actions not yet narrated, from the events of a replay of their own (the
        public narration: each action as the table saw it)."""
        game = entry.game
        if entry.narrator is None or len(entry.lines) > len(game.log):
            entry.narrator = Game(game.settings)
            entry.lines = []
        narrator = entry.narrator
        ed = narrator.rules.ed
        for action in game.log[len(entry.lines):]:
            line: LogLine = narrate(ed, observed(action), narrator.process(action))
            entry.lines.append({"id": line.id, "entity": line.entity, "lines": list(line.lines)})

    def at_json(self, game_id: str, at: int) -> bytes:
        """The public view after action ``at`` (history), as JSON."""
        return self._history.response(game_id, at, "at", lambda: self._held(game_id),
                                      lambda game: encode({"last_action_id": at,
                                                           "turn": turn(game, None)}))

    def board_svg(self, game_id: str, at: int | None) -> str:
        """The board as SVG, now or after action ``at``."""
        if at is None:
            return self.board_picture(game_id).svg.decode("utf-8")
        return self._history.response(
            game_id, at, "board", lambda: self._held(game_id),
            lambda game: self._boards.svg(game.state.board).encode("utf-8")).decode("utf-8")

    def board_picture(self, game_id: str) -> BoardPicture:
        """The live board's picture (SVG, gzipped, ETag): drawn once per board for every
        viewer, kept until the board changes (boards.py)."""
        with self.lock(game_id):
            entry = self._read(game_id)
            entry.board = self._boards.picture(entry.game.state.board, entry.board)
            return entry.board

    def stats_svg(self, game_id: str) -> str:
        """The charts of ``india1853 stats`` (worth per round, share prices), drawn from the
        public view only (secret-free, the same for every viewer), once per log (seconds of
        matplotlib): kept with the history answers (history.py)."""
        with self._held(game_id) as entry:
            game = entry.game
        return self._history.drawn(game_id, len(game.log), "stats",
                                   lambda: self._draw_stats(game)).decode("utf-8")

    def _draw_stats(self, game: Game) -> bytes:
        """The charts of ``game``'s public history; two logs whose public histories are the
        same (games that differ only in a secret, a replayed copy of a game) share one
        drawing: matplotlib draws the same bytes for the same numbers (charts.draw), and the
        drawing costs seconds, the numbers a replay."""
        colours = {c.initials: c.colour for c in game.rules.ed.companies}
        charted = history(game)
        content = hashlib.sha256(json.dumps(
            [charted.rounds, charted.worth, charted.prices, sorted(colours.items())],
            sort_keys=True).encode()).hexdigest()
        return self._history.drawn(content, 0, "charts of these numbers",
                                   lambda: self._draw(charted, colours))

    def _draw(self, charted: ChartHistory, colours: dict[str, str]) -> bytes:
        with self._charts_guard, tempfile.TemporaryDirectory() as tmp:
            return draw(charted, Path(tmp) / "stats.svg", colours).read_bytes()

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
                            "creator" if spec.seed is not None else "server", spec.hints)

    def import_log(self, data: object, hotseat: bool, hints: bool = False) -> dict[str, Any]:
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
        deciders: list[str | None] = []  # each action's, asked of the engine as it is read
        for i, action in enumerate(log_actions):
            try:
                who = decided_by_now(game, action)
                game.process(action)
            except (InputError, RuleError) as exc:
                raise ApiError(422, f"actions[{i}]: {exc}") from None
            deciders.append(who)
        # A save file of a terminal game started with --hints keeps them (table.hints).
        hints = hints or (isinstance(table, dict) and table.get("hints") is True)
        return self._insert(game, [(p, bots.get(p)) for p in settings.players], deciders,
                            hotseat, chosen_by, hints)

    def _insert(self, game: Game, players: list[tuple[str, str | None]],
                deciders: list[str | None], hotseat: bool,
                seed_chosen_by: str, hints: bool = False) -> dict[str, Any]:
        tokens = {name: new_token() for name, bot in players if bot is None}
        hotseat_token = new_token() if hotseat else None
        seats = [Seat(n, b, token_hash(tokens[n]) if n in tokens else None) for n, b in players]
        game_id, entry = self.rows.insert(
            game, seats, deciders, token_hash(hotseat_token) if hotseat_token else None,
            seed_chosen_by, hints)
        self._cache.put(game_id, entry)
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
        for hook in self.before_act:
            hook(game_id)
        for _attempt in range(WRITE_ATTEMPTS):
            with self.lock(game_id):
                entry = self._read(game_id)
                access = access_of(entry, token, seat)
                action_id = action.get("id")
                if not isinstance(action_id, int) or isinstance(action_id, bool):
                    raise ApiError(422, "action.id: must be an integer (the turn's next_id)")
                if action_id != entry.game.next_id():
                    raise ApiError(409, f"action.id: expected {entry.game.next_id()}, got "
                                        f"{action_id} (the game has moved on: reload it)")
                if self.stand_ins is not None:  # as the database says now (several processes)
                    self._stand_ins(entry, self.stand_ins(game_id))
                bots = entry.bot_seats()
                who = authorize(entry.game, access, action, bots)
                if who in entry.stand_ins:
                    raise ApiError(409, self._stood_in(game_id, entry, who))
                stamped = {**action, "created_at": int(time.time())}
                if self._apply_all(game_id, entry,
                                   with_replies(entry.game, access, stamped, who, bots)):
                    access = after_acting(entry.game, access, cover)
                    return self._encode(game_id, entry, access)[1]
        raise ApiError(409, "the game changed while the action was written; reload it")

    def _stood_in(self, game_id: str, entry: Entry, seat: str) -> str:
        """The refusal of a human's action for a seat a bot plays for the time being: the
        seat is the bot's until its player takes it back (docs/web-api.md)."""
        why = self.stand_in_why(game_id, seat) if self.stand_in_why is not None else ""
        return (f"seat: the {entry.stand_ins[seat]} bot plays {seat}'s seat for now"
                f"{f' ({why})' if why else ''}; take the seat back first (POST "
                f"/api/games/{game_id}/seats/return, \"Take my seat back\" on the page)")

    def preview_json(self, game_id: str, token: str | None, action: object,
                     seat: str | None = None, draft: bool = False) -> bytes:
        """The option ``action`` would be, priced by the rules layer (a composed secret bid:
        its bond), or the engine's one-line refusal (422); nothing is written.  Only for the
        seat that decides the action (a bid is secret).  ``draft``: a run being drawn
        (rules/game/run_draft.py), answered with each route so far and the verdict (200 even
        when the engine refuses the run)."""
        if token is None:
            raise ApiError(401, "token: previewing needs a seat's token (Authorization: Bearer)")
        if not isinstance(action, dict):
            raise ApiError(422, "action: must be a JSON object")
        with self.lock(game_id):
            entry = self._read(game_id)
            access = access_of(entry, token, seat)
            if action.get("type") in ("undo", "redo"):
                raise ApiError(422, "action.type: undo and redo have no preview")
            who = authorize(entry.game, access, action)
            stamped = {**action, "id": entry.game.next_id(), "created_at": 0}
            try:
                if draft:
                    return json.dumps(run_draft(entry.game, who, stamped)).encode()
                option = preview(entry.game, who, stamped)
            except (InputError, RuleError) as exc:
                raise ApiError(422, str(exc)) from None
        return json.dumps({"option": option}).encode()

    def hint_json(self, game_id: str, token: str | None, seat: str | None = None) -> bytes:
        """What the strong bot would do now for the token's seat, and why (bots/hint.py): 401
        without a token, 403 when hints are off in this game or the token views as no seat,
        409 when the seat has no decision to make.  Built from that seat's view and its
        entity's legal actions only, outside the game's lock (it takes up to the bots' CPU
        budget); answered to that seat alone and written nowhere."""
        if token is None:
            raise ApiError(401, "token: a hint needs a seat's token (Authorization: Bearer)")
        with self.lock(game_id):
            entry = self._read(game_id)
            access = access_of(entry, token, seat)
            if access.seat is None or access.covered:
                raise ApiError(403, "hint: a hint is for a seat's own view; this token views "
                                    "as no seat")
            if not entry.hints:
                raise ApiError(403, "hint: hints are off in this game (its creator did not "
                                    "enable them, and no bot plays)")
            game = entry.game
            asker = access.seat
            entity = next((e for e, _ in game.active_entities() if game.decider(e) == asker),
                          None)
            decision = (decision_for(game, asker, entity)
                        if entity is not None and not game.finished else None)
            if decision is None or not [a for a in decision.legal
                                        if a.get("type") not in ("undo", "redo")]:
                raise ApiError(409, f"hint: it is not {asker}'s decision now")
            at = len(game.log)
        from india1853.interfaces.bots.hint import hint  # the strong bot loads when asked
        from india1853.interfaces.bots.strong import BUDGET

        try:
            advice = hint(asker, decision, budget=self.bot_cpu_seconds or BUDGET)
        except (InputError, RuleError) as exc:
            log.error("game %s: hint for %s: %s", game_id, asker, exc)
            raise ApiError(500, "hint: the strong bot could not decide (the reason is in the "
                                "server's log)") from None
        return json.dumps({"seat": asker, "at": at, "hint": advice.to_json()}).encode()

    def _apply(self, game_id: str, entry: Entry, action: dict[str, Any], who: str) -> bool:
        """Process and persist one action (the game's lock held).  False if another process
        wrote an action first (the cache is then dropped and the caller starts again)."""
        return self._apply_all(game_id, entry, [(action, who)])

    def _apply_all(self, game_id: str, entry: Entry,
                   batch: list[tuple[dict[str, Any], str | None]]) -> bool:
        """Process and persist actions, each with its deciding seat, all or none (the game's
        lock held; an undo with the bots' replies is several).  False if another process
        wrote an action first (the cache is then dropped and the caller starts again)."""
        game = entry.game
        trial = game.fork() if len(batch) > 1 else game
        try:
            for action, _who in batch:
                trial.process(action)
        except (InputError, RuleError) as exc:
            raise ApiError(422, str(exc)) from None
        entry.game = trial
        try:
            written = self.rows.append_all(game_id, trial, [who for _action, who in batch])
        except BaseException:
            self._cache.pop(game_id)
            raise
        if not written:
            self._cache.pop(game_id)
            return False
        entry.changed()
        for hook in self.after_write:
            hook(game_id, trial)
        if self.on_change is not None:
            self.on_change(game_id)
        return True

    def apply_built(self, game_id: str,
                    build: Callable[[Entry], list[tuple[dict[str, Any], str | None]]]) -> int:
        """Apply the actions ``build`` makes of the game now (each with its deciding seat;
        it may refuse with an ApiError), all or none, as one write; the new count of actions.
        A takeback by consent is one (takebacks.py)."""
        for _attempt in range(WRITE_ATTEMPTS):
            with self.lock(game_id):
                entry = self._read(game_id)
                if self._apply_all(game_id, entry, build(entry)):
                    return len(entry.game.log)
        raise ApiError(409, "the game changed while the actions were written; reload it")

    def seats_changed(self, game_id: str, bots: dict[str, str]) -> None:
        """The seats bots play for the time being changed (absence.py): the cached game's
        answers are built again, and the pages told."""
        with self.lock(game_id):
            entry = self._read(game_id)
            self._stand_ins(entry, bots)
        if self.on_change is not None:
            self.on_change(game_id)

    def _stand_ins(self, entry: Entry, bots: dict[str, str]) -> None:
        if entry.stand_ins == bots:
            return
        for seat in set(entry.stand_ins) | set(bots):
            if entry.stand_ins.get(seat) != bots.get(seat):
                entry.bots.pop(seat, None)  # a bot of another kind, or the player himself
        entry.stand_ins = dict(bots)
        entry.changed()

    # --- bots -------------------------------------------------------------------------------

    def bot_step(self, game_id: str) -> bool:
        """One bot move if a bot must act now; False when none must (or a bot failed).

        The bot thinks without the game's lock (people's requests for the game go on
        meanwhile); its choice is applied only if the game has not moved on since."""
        with self.lock(game_id):
            entry = self._read(game_id)
            if self.stand_ins is not None:
                self._stand_ins(entry, self.stand_ins(game_id))
            task = self._bot_task(game_id, entry)
            name = entry.bot_of(task[0]) if task is not None else None
        if task is None:
            return False
        player, entity, bot, decision, before = task
        try:
            choice = bot.choose(decision)
            if choice not in decision.legal:
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
            if player in entry.stand_ins and self.stand_ins is not None:
                self._stand_ins(entry, self.stand_ins(game_id))
            if entry.bot_of(player) != name:
                return True  # taken back (or handed to another bot) while it thought
            action = {**choice, "id": game.next_id(), "created_at": int(time.time())}
            try:
                return self._apply(game_id, entry, action, player)
            except ApiError as exc:
                self._bot_failed(game_id, entry, f"bot of {player}: {exc.detail}")
                return False

    def _bot_task(self, game_id: str, entry: Entry
                  ) -> tuple[str, str, Bot, Decision, int] | None:
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
                bot = entry.bots[player] = make_bot(bot_name, player, game.settings.seed,
                                                    budget=self.bot_cpu_seconds)
            decision = decision_for(game, player, entity)
            if not decision.legal:
                self._bot_failed(game_id, entry, f"bot of {player}: the engine offers "
                                                  f"{entity} no legal action")
                return None
            return player, entity, bot, decision, len(game.log)
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
        return self.rows.unfinished_with_bots()


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
