"""The server's caches, bounded by an estimate of the bytes they hold (issue 19, item 7).

A cache bounded by a count of games is no bound at all: a finished game of 6,000 actions
whose log and history were read holds some 50 MB (the engine's game with a state snapshot
every ``SNAPSHOT_EVERY`` actions, the narrator's game beside it, the history game, the
narrated lines, the encoded views), a game just created a few kilobytes.  Each cached value is
weighed by :func:`game_bytes` and friends, estimates from counts (actions in a log, lines,
bytes of JSON) with constants measured by tracemalloc (``python -m bench web_memory``,
docs/performance.md): cheap enough to weigh a game again after every request, and set at the
high end of what was measured so that the bound holds.

:class:`ByteLRU` evicts the least recently used values while the weights exceed its budget;
the value just stored or weighed again stays, even alone over the budget (the request that
needs it is being served), and goes as soon as another is used.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

from india1853.rules.game.game import Game

# Measured (tracemalloc, bench/web_memory.py) over the fixture games of both editions, 3 to 6
# players, 550 to 6,000 actions; each the high end of its measurements.
GAME_BYTES = 60_000  # a game's settings, its first state and snapshot 0
ACTION_BYTES = 5_000  # one action of a game's log, with its share of the state snapshots
LINE_BYTES = 2_500  # one narrated line of the public log, with the action it shows
RESPONSE_FACTOR = 8  # a view kept as a dict and as JSON, per byte of its JSON
ITEM_BYTES = 300  # a cached value's key and the cache's bookkeeping

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def game_bytes(game: Game | None) -> int:
    """The estimated bytes of an engine's game (0 for none)."""
    return 0 if game is None else GAME_BYTES + ACTION_BYTES * len(game.log)


def entry_bytes(games: Iterable[Game | None], lines: int, encoded: Iterable[bytes]) -> int:
    """A cached game: its engine games (live, narrator, history), ``lines`` narrated lines,
    and the encoded views kept (each also kept as a dict)."""
    return (ITEM_BYTES + sum(game_bytes(g) for g in games) + LINE_BYTES * lines
            + RESPONSE_FACTOR * sum(len(b) for b in encoded))


def response_bytes(data: bytes) -> int:
    """A cached response (history: a view or a board SVG): its bytes and its key."""
    return ITEM_BYTES + len(data)


class ByteLRU(Generic[K, V]):
    """A least-recently-used cache holding at most ``budget`` estimated bytes (and at most
    ``max_items`` values, if given); thread-safe."""

    def __init__(self, budget: int, weigh: Callable[[V], int], *,
                 max_items: int | None = None) -> None:
        if budget < 1:
            raise ValueError(f"budget: must be at least 1 byte, got {budget}")
        self.budget = budget
        self.max_items = max_items
        self._weigh = weigh
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._guard = threading.Lock()

    @property
    def bytes(self) -> int:
        """The estimated bytes held now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        with self._guard:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def peek(self, key: K) -> V | None:
        """The value, if held, without making it the most recently used."""
        with self._guard:
            found = self._items.get(key)
        return None if found is None else found[0]

    def put(self, key: K, value: V) -> None:
        """Store ``value`` (weighed now) as the most recently used, then evict."""
        weight = self._weigh(value)
        with self._guard:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._items[key] = (value, weight)
            self._bytes += weight
            self._evict()

    def reweigh(self, key: K) -> None:
        """Weigh ``key``'s value again (it grew or shrank), then evict others if need be."""
        with self._guard:
            found = self._items.get(key)
            if found is None:
                return
            weight = self._weigh(found[0])
            self._items[key] = (found[0], weight)
            self._bytes += weight - found[1]
            self._items.move_to_end(key)
            self._evict()

    def pop(self, key: K) -> None:
        with self._guard:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]

    def _evict(self) -> None:
        """Drop the least recently used values while over a bound, the newest one kept."""
        while len(self._items) > 1 and (
                self._bytes > self.budget
                or (self.max_items is not None and len(self._items) > self.max_items)):
            _key, (_value, weight) = self._items.popitem(last=False)
            self._bytes -= weight
