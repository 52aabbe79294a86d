"""Change notification for live pages: one event per game, set when the game changes.

The store calls :meth:`Notifier.changed` from a worker thread after it committed an action;
the notifier hands the call to the event loop, which wakes every stream of that game.  A
stream takes the game's event *before* it reads the game's revision, so no change can fall
between its read and its wait.
"""

from __future__ import annotations

import asyncio


class Notifier:
    """Per-game revision counters and the events streams wait on (event-loop side)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._events: dict[str, asyncio.Event] = {}
        self._revisions: dict[str, int] = {}
        self.closing = asyncio.Event()

    def changed(self, game_id: str) -> None:
        """Thread-safe: called by the store after a change to the game."""
        self._loop.call_soon_threadsafe(self._set, game_id)

    def _set(self, game_id: str) -> None:
        self._revisions[game_id] = self._revisions.get(game_id, 0) + 1
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    def event(self, game_id: str) -> asyncio.Event:
        return self._events.setdefault(game_id, asyncio.Event())

    def watched(self) -> list[str]:
        """The games some stream of this process waits on (pubsub wakes them on reconnect)."""
        return list(self._events)

    def revision(self, game_id: str) -> int:
        return self._revisions.get(game_id, 0)

    def close(self) -> None:
        """Wake every stream for the server's shutdown."""
        self.closing.set()
        for event in self._events.values():
            event.set()
        self._events.clear()
