"""Bots when several processes share a database: no game waits on a process that died.

Each process moves a game's bots after the changes it made itself (bots.py).  Should that
process die between a person's action and the bots' answer (a ``kill -9``, a crash, a
redeploy), the other processes never heard of the pending bot turn.  So with several
processes (``REDIS_URL`` set) each one looks every ``SWEEP_SECONDS`` at the unfinished games
with bot seats that changed lately but not in the last moments, and wakes their bots: a bot
that must act is then moved by whichever process gets there first (the database accepts one
move per turn; bots.py and store.py), and a game whose bots have nothing to do costs one read.

The same look, in every process, also asks its ``looks`` (the chess clocks run out, and the
takebacks left unanswered too long expire: seats_api.py), each of which claims what it acts
on in the database, so that the action at zero is taken once across processes; their games'
bots are woken.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence

from anyio import to_thread
from sqlalchemy import select

from india1853.interfaces.web.bots import BotRunner
from india1853.interfaces.web.db import games, seats
from india1853.interfaces.web.seat_tables import stand_ins
from india1853.interfaces.web.store import GameStore

log = logging.getLogger("india1853.web")

SWEEP_SECONDS = 5.0
QUIET_SECONDS = 2.0  # a game changed this recently still has its own process's bots on it
WINDOW_SECONDS = 3600.0  # games older than this are woken at the next start, not swept


def stalled_games(store: GameStore, now: float) -> list[str]:
    """Unfinished games with a bot seat (or a seat a bot plays for the time being,
    absence.py) that changed in the window, not just now."""
    with store.db.read() as conn:
        rows = conn.execute(
            select(games.c.id).where(games.c.finished.is_(False))
            .where(games.c.updated_at > now - WINDOW_SECONDS)
            .where(games.c.updated_at < now - QUIET_SECONDS)
            .where(games.c.id.in_(select(seats.c.game_id).where(seats.c.bot.is_not(None)))
                   | games.c.id.in_(select(stand_ins.c.game_id)))
        ).all()
    return [r.id for r in rows]


class BotSweep:
    """The periodic look (a task on the event loop; the query runs in a worker thread)."""

    def __init__(self, store: GameStore, runner: BotRunner,
                 interval: float = SWEEP_SECONDS, *, stalled: bool = True,
                 looks: Sequence[Callable[[float], list[str]]] = ()) -> None:
        self.store = store
        self.runner = runner
        self.interval = interval
        self.stalled = stalled  # several processes: look for stalled games too
        self.looks = tuple(looks)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                found: list[str] = []
                if self.stalled:
                    found += await to_thread.run_sync(stalled_games, self.store, time.time())
                for look in self.looks:
                    found += await to_thread.run_sync(look, time.time())
                for game_id in dict.fromkeys(found):
                    self.runner.kick(game_id)
            except Exception as exc:  # the database away for a moment: look again later
                log.warning("bot sweep: %s", exc)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
