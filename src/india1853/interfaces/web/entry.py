"""One game as the server holds it in memory, and the refusal every part of the store raises.

An :class:`Entry` is the engine's game beside what the server keeps for it: its seats (from the
rows, ``rows.py``), its bots, the answers built once per change (views, the log's answers), the
narration, the history game (``history.py``) and the live board's picture (``boards.py``).  Who
decided an action is never kept here: the engine answers it (``Game.decider``,
``Game.decided_by``; ``access.py``).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from india1853.board.state import BoardState
from india1853.interfaces.bots import Bot
from india1853.interfaces.web.boards import BoardPicture
from india1853.interfaces.web.budget import entry_bytes
from india1853.rules.game.game import Game
from india1853.rules.game.secrecy import SEED_BITS, seed_commitment

# The key of a built answer: the seat viewed as, the seats acted for, the covered screen.
ResponseKey = tuple[str | None, tuple[str, ...], bool]


class ApiError(Exception):
    """A request the server refuses: the HTTP status and a one-line message."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Seat:
    name: str
    bot: str | None
    token_hash: str | None


@dataclass
class Entry:
    """One game in memory: the engine's game and what the server keeps beside it."""

    game: Game
    seats: tuple[Seat, ...]
    hotseat_hash: str | None
    created_at: float
    seed_chosen_by: str | None = None  # "server", "creator"; None: unknown (before 0003)
    hints_enabled: bool = False  # by the creator (0005)
    bots: dict[str, Bot] = field(default_factory=dict)
    # Answers per (seat, seats, covered), built and encoded once per change.
    responses: dict[ResponseKey, dict[str, Any]] = field(default_factory=dict)
    encoded: dict[ResponseKey, bytes] = field(default_factory=dict)
    narrator: Game | None = None
    history: Game | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    bot_error: str | None = None
    # The seats a bot plays for the time being (absence.py), each with its bot's name.
    stand_ins: dict[str, str] = field(default_factory=dict)
    # The store's count of "changed elsewhere" when ``stand_ins`` was read (-1: read them).
    stand_ins_epoch: int = -1
    board: BoardPicture | None = None  # the live board's picture (boards.py)
    board_etag: tuple[BoardState, str] | None = None  # the live board's ETag, for its state
    # The log's answers by ``after``, encoded once per change: every page asks for the same
    # new lines after an action.
    logs: dict[int, bytes] = field(default_factory=dict)

    @property
    def hints(self) -> bool:
        """Whether a seat may ask for a hint: the creator enabled them, or a bot plays."""
        return self.hints_enabled or any(s.bot is not None for s in self.seats)

    def humans(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s.bot is None)

    def bot_seats(self) -> tuple[str, ...]:
        """The seats a bot plays (an undo takes their replies back with one's own move), for
        good or for the time being (absence.py)."""
        return tuple(s.name for s in self.seats
                     if s.bot is not None or s.name in self.stand_ins)

    def bot_of(self, player: str | None) -> str | None:
        if player is not None and player in self.stand_ins:
            return self.stand_ins[player]
        return next((s.bot for s in self.seats if s.name == player), None)

    def token_hashes(self) -> list[str | None]:
        """Every token hash of the game: the seats' and the hotseat's."""
        return [s.token_hash for s in self.seats] + [self.hotseat_hash]

    def changed(self) -> None:
        self.responses.clear()
        self.encoded.clear()
        self.logs.clear()

    def nbytes(self) -> int:
        """The estimated bytes this entry holds (budget.py)."""
        return entry_bytes((self.game, self.narrator, self.history), len(self.lines),
                           [*self.encoded.values(), *self.logs.values()]
                           ) + (self.board.nbytes() if self.board else 0)


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


__all__ = ["ApiError", "Entry", "Seat", "encode", "seed_info", "server_seed"]
