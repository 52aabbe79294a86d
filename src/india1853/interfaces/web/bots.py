"""Bots on the server: a game's bots move as soon as it is their turn, in a worker thread.

:meth:`BotRunner.kick` is called after every change a human makes (and for every unfinished
game at start); it starts one task per game that asks the store for bot moves, one at a time
(each its own transaction, each pushed to the pages), until no bot must act.  A kick while the
task runs makes it look once more before it stops.  Each move runs in a worker thread, one
move at a time across all games (taking turns, one move each), so one game's bots never stall
another game and never crowd out people's requests.
"""

from __future__ import annotations

import asyncio
import logging

from anyio import CapacityLimiter, to_thread

from india1853.interfaces.web.store import GameStore

log = logging.getLogger("india1853.web")


class BotRunner:
    def __init__(self, store: GameStore, delay: float = 0.0) -> None:
        self.store = store
        # Seconds before each bot move, so that people can follow the bots' play.
        self.delay = delay
        # One bot move at a time across all games: threads share one interpreter lock, so
        # more would not play faster, only slow down the people's requests beside them.
        self._limiter = CapacityLimiter(1)
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    def kick(self, game_id: str) -> None:
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def _run(self, game_id: str) -> None:
        try:
            while True:
                if self.delay:
                    await asyncio.sleep(self.delay)
                moved = await to_thread.run_sync(self.store.bot_step, game_id,
                                                 limiter=self._limiter)
                if moved:
                    continue
                if game_id not in self._again:
                    return
                self._again.discard(game_id)
        except Exception:
            log.exception("game %s: the bots stopped", game_id)
        finally:
            # No await between the last look and this: a kick now starts a new task.
            self._running.pop(game_id, None)
            self._again.discard(game_id)

    async def stop(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def busy(self) -> bool:
        return bool(self._running)
