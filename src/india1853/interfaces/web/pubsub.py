"""Live updates between server processes: Redis pub/sub when ``REDIS_URL`` is set.

One process alone needs nothing: the store's change callback wakes the game's streams in that
process (:class:`~india1853.interfaces.web.events.Notifier`).  Several processes on one
database (uvicorn workers, or hosts behind a proxy) each wake their own streams and also
publish the game's id on one Redis channel; every process subscribes and wakes its streams of
that game.  A stream woken this way reads the game from the database (the store checks the
cached game against the database's count of actions), so no page is served a stale state.

The message is ``"<process id>:<game id>"``: a process skips its own messages (its streams
were woken already).  Redis is only a doorbell, never a store: an action is committed before
it is published, a failed publish is logged and costs nothing but that push, and when the
subscription is lost and found again every stream of this process is woken once, so that a
page misses no action that was published while the connection was down.  A change that is no
action (a seat handed to a bot or taken back, a request, a vote) goes the same way: the
receiving process's store is told first (``heard``), so that it reads again the seats bots
play for the game before its streams and its next request look.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from india1853.errors import InputError
from india1853.interfaces.web.events import Notifier

log = logging.getLogger("india1853.web")

CHANNEL = "india1853:changes"
RECONNECT_SECONDS = 1.0


class LocalBroadcast:
    """One process: changes wake this process's streams only."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
        # Told of every other process's change before the streams wake (the store reads again
        # what it keeps beside a game's actions: the seats bots play; None: any game).
        self.heard: Callable[[str | None], None] | None = None

    def changed(self, game_id: str) -> None:
        """Thread-safe: called by the store after it committed a change to the game."""
        self.notifier.changed(game_id)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class RedisBroadcast(LocalBroadcast):
    """Several processes: changes are also published on Redis, and other processes' changes
    wake this process's streams."""

    def __init__(self, notifier: Notifier, url: str, channel: str = CHANNEL) -> None:
        super().__init__(notifier)
        import redis.asyncio

        self.url = url
        self.channel = channel
        self.origin = secrets.token_hex(8)
        self._client: Any = redis.asyncio.Redis.from_url(url)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self.published = 0
        self.received = 0

    def changed(self, game_id: str) -> None:
        super().changed(game_id)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            message = f"{self.origin}:{game_id}"
            asyncio.run_coroutine_threadsafe(self._publish(message), loop)

    async def _publish(self, message: str) -> None:
        try:
            await self._client.publish(self.channel, message)
            self.published += 1
        except Exception as exc:  # Redis down: the action stands, only the push is lost.
            log.warning("redis publish failed (%s): %s", self.url, exc)

    async def start(self) -> None:
        """Connect and subscribe; raises InputError (one line) if Redis cannot be reached."""
        self._loop = asyncio.get_running_loop()
        try:
            await self._client.ping()
        except Exception as exc:
            await self._client.aclose()
            raise InputError(f"REDIS_URL: cannot reach Redis at {self.url}: {exc}") from None
        self._listener = self._loop.create_task(self._listen())
        await asyncio.wait_for(self._subscribed.wait(), 30)

    async def _listen(self) -> None:
        first = True
        while True:
            try:
                async with self._client.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._subscribed.set()
                    if not first:
                        self._wake_all()  # whatever was published while we were away
                    first = False
                    async for message in pubsub.listen():
                        self._deliver(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("redis subscription lost (%s): %s; retrying", self.url, exc)
                await asyncio.sleep(RECONNECT_SECONDS)

    def _deliver(self, message: dict[str, Any]) -> None:
        if message.get("type") != "message":
            return
        data = message.get("data")
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
        origin, _, game_id = text.partition(":")
        if not game_id or origin == self.origin:
            return
        self.received += 1
        if self.heard is not None:
            self.heard(game_id)
        self.notifier.changed(game_id)

    def _wake_all(self) -> None:
        if self.heard is not None:
            self.heard(None)
        for game_id in self.notifier.watched():
            self.notifier.changed(game_id)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        with contextlib.suppress(Exception):
            await self._client.aclose()


def broadcast(notifier: Notifier, redis_url: str | None) -> LocalBroadcast:
    """Redis pub/sub if ``redis_url`` is given, else this process alone."""
    if not redis_url:
        return LocalBroadcast(notifier)
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise InputError(f"REDIS_URL: {redis_url!r} is not a Redis URL (redis://HOST:PORT/0)")
    try:
        return RedisBroadcast(notifier, redis_url)
    except ImportError:
        raise InputError("REDIS_URL: the redis package is not installed "
                         "(pip install 'india1853[redis]')") from None


