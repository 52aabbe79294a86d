"""Time travel: the game after action N (``/at/N``, the board then) and the caches that make
stepping through a game's history cheap.

Each game keeps one history game beside the live one (``Entry.history``): stepping forward
processes the next few actions on it, a step back or a long jump replays the log's prefix
unchecked.  A history response (a view or a board after action N) never changes once built -
the log's prefix is fixed - so each is built once and kept in a cache bounded by estimated
bytes (budget.py), shared by all games.  The charts of a game's log (stats.svg: seconds of
matplotlib) are kept there too, by the log's length: a longer log is another answer; and by
the numbers they chart, so that two logs with the same public history (games that differ
only in a secret) are drawn once.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from india1853.interfaces.web.budget import ByteLRU, response_bytes
from india1853.interfaces.web.entry import ApiError, Entry
from india1853.rules.game.game import Game

HISTORY_STEPS = 50  # actions processed forward on the history game, beyond: a replay
PAST_CACHE = 512  # history responses kept (views, boards and charts after a given action)


def game_after(entry: Entry, at: int | None) -> Game:
    """The game after action ``at`` (the game's lock held): the live game for None or the
    last id, else the entry's history game brought there."""
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


class History:
    """The history responses of every game, each built once (at most ``budget`` estimated
    bytes and :data:`PAST_CACHE` of them)."""

    def __init__(self, budget: int) -> None:
        self._cache: ByteLRU[tuple[str, int, str], bytes] = ByteLRU(
            budget, response_bytes, max_items=PAST_CACHE)

    @property
    def held(self) -> int:
        """The estimated bytes the responses kept hold."""
        return self._cache.bytes

    def response(self, game_id: str, at: int, kind: str,
                 held: Callable[[], AbstractContextManager[Entry]],
                 build: Callable[[Game], bytes]) -> bytes:
        """The ``kind`` response after action ``at``, built by ``build`` on the game then
        (``held``: the game's entry under its lock) unless kept; one of the live game (``at``
        its last action) is never kept: the next action changes it."""
        key = (game_id, at, kind)
        found = self._cache.get(key)
        if found is not None:
            return found
        with held() as entry:
            live = at == len(entry.game.log)
            data = build(game_after(entry, at))
        if not live:
            self._cache.put(key, data)
        return data

    def drawn(self, game_id: str, at: int, kind: str, build: Callable[[], bytes]) -> bytes:
        """The ``kind`` answer for the log's first ``at`` actions (fixed once written, the
        live game's included: the next action makes the log longer), built by ``build``
        unless kept."""
        key = (game_id, at, kind)
        found = self._cache.get(key)
        if found is None:
            found = build()
            self._cache.put(key, found)
        return found


__all__ = ["HISTORY_STEPS", "PAST_CACHE", "History", "game_after"]
