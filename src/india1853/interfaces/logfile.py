"""Game logs and the save files of terminal games: the engine's log plus who plays by bot.

A save file is the engine's log (``Game.to_log()``: ``engine_version``, ``settings``,
``actions``) with one more key, ``"table"``, holding the seating of the terminal game
(``{"bots": {"Bob": "greedy"}}``).  Every other command (``replay``, ``log``, ``render``,
``stats``) reads the engine keys with :func:`load_log` and ignores ``"table"`` whatever it
holds; ``play --load`` (:func:`load_game`) reads it and names the file and the field of a bad
one.

Old files (issue 13): a file written before settings refused control characters in names
may hold a name such as ``"Ann\x1b[2J"``.  Every reader here loads it with the name *escaped*
(:func:`escape_old_names`: each control character replaced by its Python escape, so the
ESC byte becomes the four characters ``\x1b``) in the settings, the actions and the table
alike: the game replays unchanged, nothing ever prints the raw byte, and a game continued
with ``play --load`` is saved with the escaped name (docs/cli.md, "Old files with control
characters in names").

Writes are atomic (a temporary file in the same directory, then ``os.replace``), so an
interrupted process leaves the previous save intact and Ctrl-C never loses an accepted action.
"""

from __future__ import annotations

import glob
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from india1853.data.jsonfile import read_json_file
from india1853.errors import InputError, RuleError
from india1853.interfaces.bots import BOT_NAMES
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

TABLE_KEY = "table"


@dataclass(frozen=True)
class Table:
    """Who sits where in a terminal game: the players run by a bot, and the bots' names; and
    whether the humans may ask for a hint (``play --hints``; always with a bot)."""

    bots: dict[str, str] = field(default_factory=dict)
    hints: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"bots": dict(self.bots), **({"hints": True} if self.hints else {})}

    @staticmethod
    def from_json(data: object) -> Table:
        if data is None:
            return Table()
        if not isinstance(data, dict) or not isinstance(data.get("bots", {}), dict):
            raise InputError("table.bots: must be an object mapping player names to bot names")
        bots = data.get("bots", {})
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in bots.items()):
            raise InputError("table.bots: player and bot names must be strings")
        hints = data.get("hints", False)
        if not isinstance(hints, bool):
            raise InputError("table.hints: must be true or false")
        return Table(dict(bots), hints)

    def check(self, players: Sequence[str], field: str) -> None:
        """Every seat named is a player and every bot is known; ``field`` names where the
        seating came from in the message (``--bots``, or a save file's ``table.bots``)."""
        for player, bot in sorted(self.bots.items()):
            if player not in players:
                raise InputError(f"{field}: {player!r} is not a player ({', '.join(players)})")
            if bot not in BOT_NAMES:
                raise InputError(f"{field}.{player}: unknown bot {bot!r} "
                                 f"(known: {', '.join(BOT_NAMES)})")


def read_json(path: str | Path) -> dict[str, Any]:
    """The JSON object in ``path``; a missing file or bad JSON is a one-line InputError."""
    target = Path(path)
    data = read_json_file(target, repr(str(target)))
    if not isinstance(data, dict):
        raise InputError(f"{str(target)!r}: must hold a JSON object (a game log)")
    return data


def load_game(path: str | Path, up_to: int | None = None) -> tuple[Game, Table]:
    """The game saved in ``path`` (replayed through the actions with id <= ``up_to`` if given)
    and its table (checked: a bad one is an error naming the file and ``table``)."""
    data = escape_old_names(read_json(path))
    try:
        table = Table.from_json(data.get(TABLE_KEY))
        game = _game(path, data, up_to)
        table.check(game.settings.players, "table.bots")
    except InputError as exc:
        text = str(exc)
        prefix = f"{str(path)!r}: "
        raise InputError(text if text.startswith(prefix) else prefix + text) from None
    return game, table


def load_log(path: str | Path, up_to: int | None = None) -> Game:
    """The game logged in ``path`` (through the action with id ``up_to`` if given).  Only the
    engine's keys are read: a save file's ``table`` is ignored, whatever it holds."""
    return _game(path, escape_old_names(read_json(path)), up_to)


def log_start(path: str | Path) -> tuple[Game, list[Any]] | None:
    """The game at the start of the log in ``path`` and the log's actions, for a reader that
    processes them itself (``Game.process`` checks each as loading does) and would otherwise
    load the game only to replay it once more; None when the file's frame (engine version,
    settings, actions) is refused: :func:`load_log` names the fault."""
    data = escape_old_names(read_json(path))
    actions = data.get("actions")
    if not isinstance(actions, list):
        return None
    frame = {k: v for k, v in data.items() if k not in (TABLE_KEY, "actions")}
    try:
        return Game.from_log({**frame, "actions": []}), actions
    except (InputError, RuleError):
        return None


def escaped_name(name: str) -> str:
    """``name`` with every non-printable character replaced by its Python escape
    (``"\x1b"`` -> the four characters ``\x1b``), the same escaping as ``cli.one_line``."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in name)


def escape_old_names(data: dict[str, Any]) -> dict[str, Any]:
    """The file's data with any player name holding a control character (allowed before the
    settings refused them) escaped everywhere it occurs: in ``settings.players``, in every
    action field and in the table's seats that equal it.  A file without such names is
    returned as it is; an escaped name that collides with another is then refused by the
    settings as usual."""
    settings = data.get("settings")
    players = settings.get("players") if isinstance(settings, dict) else None
    if not isinstance(players, list):
        return data
    renames = {p: escaped_name(p) for p in players if isinstance(p, str) and not p.isprintable()}
    if not renames:
        return data
    return {key: _renamed(value, renames) for key, value in data.items()}


def _renamed(value: object, renames: dict[str, str]) -> Any:
    """``value`` (decoded JSON) with each string equal to an old name, as a value or an
    object key, replaced by its escaped form."""
    if isinstance(value, str):
        return renames.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, renames) for v in value]
    if isinstance(value, dict):
        return {renames.get(k, k): _renamed(v, renames) for k, v in value.items()}
    return value


def _game(path: str | Path, data: dict[str, Any], up_to: int | None) -> Game:
    engine_log = {k: v for k, v in data.items() if k != TABLE_KEY}
    if up_to is not None:
        actions = engine_log.get("actions")
        if isinstance(actions, list):
            ids = [a.get("id") if isinstance(a, dict) else None for a in actions]
            if up_to not in ids:
                last = max((i for i in ids if isinstance(i, int)), default=0)
                raise InputError(f"--to {up_to}: no action with that id (the log has 1..{last})")
            # The actions through that id (the engine numbers them 1, 2, ...: a prefix); a
            # malformed id among them is the engine's to name, one after them is not read.
            engine_log["actions"] = actions[:ids.index(up_to) + 1]
    try:
        return Game.from_log(engine_log)
    except (InputError, RuleError) as exc:
        raise InputError(f"{str(path)!r}: {_culprit(engine_log)}{exc}") from None


def _culprit(engine_log: dict[str, Any]) -> str:
    """Which action of a log the engine refused, as a prefix for its message
    (``actions[101] (id 102, lay_tile by BBCI): ``), or "" when the settings or the log's
    frame were at fault.  Found by replaying the actions one by one: only on the error path,
    where a log of hundreds of actions must point at the bad one."""
    actions = engine_log.get("actions")
    try:
        game = Game(Settings.from_json(engine_log.get("settings")))
    except (InputError, RuleError):
        return ""
    if not isinstance(actions, list):
        return ""
    for index, action in enumerate(actions):
        try:
            game.process(action)
        except (InputError, RuleError):
            if not isinstance(action, dict):
                return f"actions[{index}]: "
            return (f"actions[{index}] (id {action.get('id')}, {action.get('type')} by "
                    f"{action.get('entity')}): ")
    return ""


def _write_atomically(target: Path, text: str, durable: bool = True) -> None:
    """Write ``text`` to ``target`` atomically (a temporary file renamed over it: an
    interrupted save leaves the previous file whole) and, if ``durable``, durably (the file
    and then its directory synced before returning: a power cut cannot lose the save)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # A fixed name per process (not mkstemp) so that the file gets the user's umask.
        tmp = _tmp_name(target, os.getpid())
        try:
            with open(tmp, "w", encoding="utf-8") as handle:
                handle.write(text)
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(tmp, target)
            if durable:
                _sync_directory(target.parent)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise InputError(f"--save {str(target)!r}: cannot write: {exc.strerror or exc}") from None


def _tmp_name(target: Path, pid: int) -> Path:
    return target.with_name(f".{target.name}.{pid}.tmp")


def _sync_directory(directory: Path) -> None:
    """Sync the directory entry of a rename (POSIX: the rename is durable only then)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # a platform or file system where directories cannot be opened
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a directory; the rename is still atomic
    finally:
        os.close(fd)


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Remove the temporary files that saves to ``target`` by processes no longer running
    left behind (killed mid-save, ``kill -9``); returns those removed.  A live process's
    temporary file is left alone: it may be saving now."""
    removed: list[Path] = []
    prefix = f".{target.name}."
    try:
        candidates = list(target.parent.glob(f"{glob.escape(prefix)}*.tmp"))
    except OSError:
        return removed
    for path in candidates:
        pid_text = path.name[len(prefix):-len(".tmp")]
        if not pid_text.isdigit() or pid_text.startswith("0"):
            continue
        if path != _tmp_name(target, int(pid_text)) or _running(int(pid_text)):
            continue
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, another user's (PermissionError) or unknown: keep its file
    return True


def _dumps(data: object) -> str:
    # Compact JSON: the C encoder is many times faster than the indenting one.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class SaveFile:
    """The save file of one game, rewritten (atomically) after every action.

    The engine's log only grows (undo and redo are actions too), so each action is encoded
    once and the file is the concatenation of the encoded parts: a save costs one write, not
    a re-encoding of the whole game.
    """

    def __init__(self, path: str | Path, table: Table) -> None:
        self.path = Path(path)
        self.table = table
        self._encoded: list[str] = []
        self._head: str | None = None
        remove_stale_temporaries(self.path)

    def write(self, game: Game, *, durable: bool = True) -> None:
        """Save the game; ``durable=False`` skips the syncs (about 15 ms on a disk), for the
        saves between two bots' moves: the next save that waits for a person syncs."""
        if self._head is None or len(self._encoded) > len(game.log):
            data = game.to_log()
            del data["actions"]
            data[TABLE_KEY] = self.table.to_json()
            self._head = _dumps(data)[:-1] + ',"actions":['
            self._encoded = []
        for action in game.log[len(self._encoded):]:
            self._encoded.append(_dumps(action))
        _write_atomically(self.path, self._head + ",\n".join(self._encoded) + "]}\n", durable)


def save_game(path: str | Path, game: Game, table: Table) -> None:
    """Write the game (its log and its table) to ``path`` atomically."""
    SaveFile(path, table).write(game)
