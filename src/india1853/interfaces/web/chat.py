"""A game's chat: plain text from the seated players, kept with the game, read by everyone.

A message is a ``chat_messages`` row (db.py, migration 0007): the game, the seat that wrote it
(the engine's seat of the writer's token, ``access.py``), its text and time.  Anyone who can
watch the game reads the chat (no token needed: a spectator sees what the players see, nothing
of it is a secret); only a seat's token writes, as that seat.  Text is plain (the browser puts
it in the page as text, never as markup), at most :data:`MAX_CHARS` characters, no control
characters but line breaks and tabs; a seat writes at most :data:`BURST` messages in
:data:`WINDOW_SECONDS` (counted in the database, so across server processes).

The chat reaches the pages over the game's event stream (``event: chat``, app.py): the new
messages after those the stream has sent, woken by the same doorbell as actions (pubsub.py).
The chat never enters the engine: it is no action, no game state and no secret.
"""

from __future__ import annotations

import json
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, insert, select

from india1853.interfaces.web.db import Database, chat_messages
from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.store import GameStore

MAX_CHARS = 500
BURST = 10  # messages a seat may write in WINDOW_SECONDS
WINDOW_SECONDS = 60.0
PAGE = 200  # messages per answer at most (the oldest first; ask again with ``after``)
# A message's id is a database row id (SQLite's INTEGER, PostgreSQL's BIGINT): a larger ``after``
# cannot be bound to the query (the fuzz soak's 500: OverflowError from sqlite3).
LAST_ID = 2**63 - 1
ALLOWED_CONTROLS = {"\n", "\t"}

# Every page and stream asks for these: small reads (db.py), each statement built once.
_NEWEST = (select(chat_messages.c.id).where(chat_messages.c.game_id == bindparam("game_id"))
           .order_by(chat_messages.c.id.desc()).limit(PAGE))
_AFTER = (select(chat_messages.c.id, chat_messages.c.seat, chat_messages.c.text,
                 chat_messages.c.created_at)
          .where(chat_messages.c.game_id == bindparam("game_id"))
          .where(chat_messages.c.id > bindparam("after"))
          .order_by(chat_messages.c.id).limit(PAGE))


def message_text(body: object) -> str:
    """The text of a chat message's body ``{"text": "..."}``; a clear error naming the field
    otherwise (nothing is written)."""
    if not isinstance(body, dict):
        raise ApiError(422, "body: must be a JSON object {\"text\": \"...\"}")
    extra = sorted(set(body) - {"text"})
    if extra:
        raise ApiError(422, f"{extra[0]}: unknown field (a chat message has only text)")
    text = body.get("text")
    if not isinstance(text, str):
        raise ApiError(422, "text: must be a string")
    text = text.strip()
    if not text:
        raise ApiError(422, "text: must not be empty")
    if len(text) > MAX_CHARS:
        raise ApiError(422, f"text: at most {MAX_CHARS} characters, got {len(text)}")
    bad = next((c for c in text if c not in ALLOWED_CONTROLS
                and unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")), None)
    if bad is not None:
        raise ApiError(422, f"text: character U+{ord(bad):04X} is not allowed (control or "
                            "unassigned)")
    return text


@dataclass
class Chat:
    """The chat of every game on one database (every method blocks: run it in a thread)."""

    store: GameStore

    @property
    def db(self) -> Database:
        return self.store.db

    def read(self, game_id: str, after: int = 0) -> dict[str, Any]:
        """The messages after message ``after`` (at most PAGE, the oldest first); 404 for a
        game that does not exist."""
        if not 0 <= after <= LAST_ID:
            raise ApiError(422, f"after: must be from 0 to {LAST_ID}, got {after}")
        self.store.last_action_id(game_id)  # 404 for an unknown game
        return {"messages": self._after(game_id, after)}

    def _newest(self, game_id: str) -> list[int]:
        """The ids of the newest PAGE messages, the newest first (each stream asks once)."""
        return [int(i) for i, in self.db.rows(_NEWEST, game_id=game_id)]

    def _after(self, game_id: str, after: int) -> list[dict[str, Any]]:
        return [{"id": i, "seat": seat, "text": text, "created_at": at}
                for i, seat, text, at in self.db.rows(_AFTER, game_id=game_id, after=after)]

    def post(self, game_id: str, token: str | None, seat: str | None,
             body: object) -> dict[str, Any]:
        """Write a message as the token's seat: 401 without a token, 403 for a token that
        views as no seat, 422 for bad text, 429 beyond the seat's rate."""
        if token is None:
            raise ApiError(401, "token: writing in the chat needs a seat's token "
                                "(Authorization: Bearer)")
        text = message_text(body)
        access = self.store.access(game_id, token, seat)
        if access.seat is None or access.covered:
            raise ApiError(403, "seat: a chat message is written by a seat; this token views "
                                "as none")
        now = time.time()
        with self.db.write() as conn:
            recent = conn.execute(select(func.count()).select_from(chat_messages)
                                  .where(chat_messages.c.game_id == game_id)
                                  .where(chat_messages.c.seat == access.seat)
                                  .where(chat_messages.c.created_at > now - WINDOW_SECONDS)
                                  ).scalar_one()
            if recent >= BURST:
                raise ApiError(429, f"chat: at most {BURST} messages in "
                                    f"{WINDOW_SECONDS:g} seconds per seat; wait a little")
            new_id = conn.execute(insert(chat_messages).values(
                game_id=game_id, seat=access.seat, text=text, created_at=now)
            ).inserted_primary_key
        assert new_id is not None
        return {"id": int(new_id[0]), "seat": access.seat, "text": text, "created_at": now}

    def event(self, game_id: str, after: int | None) -> tuple[int, str]:
        """The stream's ``chat`` event with the messages after message ``after`` (None: the
        stream's start, every message up to PAGE of the newest) and the last message id;
        no event ("") when there is none."""
        if after is None:
            ids = self._newest(game_id)
            if not ids:
                return 0, ""
            after = int(ids[-1]) - 1
        messages = self._after(game_id, after)
        if not messages:
            return after, ""
        data = json.dumps({"messages": messages}, ensure_ascii=False, separators=(",", ":"))
        return messages[-1]["id"], f"event: chat\ndata: {data}\n\n"

