"""Bots: automatic players that choose among the engine's legal actions.

A bot plays for one player.  It sees what that player may see and nothing more: the player's
view (``Game.view(player)``, hidden bonds and cities of the others removed) and the list of legal
actions of the entity that must act (the player, or a company the player directs or manages).
It returns one action of that list; the caller fills in ``id`` and ``created_at``.

``make_bot(name, player, seed, budget=...)`` builds one (``budget``: the strong bot's CPU
seconds per decision; the server's ``--bot-cpu-seconds``); :data:`BOT_NAMES` lists the names
it knows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from india1853.errors import InputError


class Bot(Protocol):
    """An automatic player."""

    @property
    def player(self) -> str:
        """The name of the player the bot plays for."""
        ...

    def choose(self, game_view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """One action of ``legal`` (never empty), chosen from what ``game_view`` shows."""
        ...


class UnknownBotError(InputError):
    """A bot name that :func:`make_bot` does not know."""


def _random(player: str, seed: int, budget: float | None) -> Bot:
    from india1853.interfaces.bots.random import RandomBot

    return RandomBot(player, seed)


def _greedy(player: str, seed: int, budget: float | None) -> Bot:
    from india1853.interfaces.bots.greedy import GreedyBot

    return GreedyBot(player, seed)


def _strong(player: str, seed: int, budget: float | None) -> Bot:
    from india1853.interfaces.bots.strong import BUDGET, StrongBot

    return StrongBot(player, seed, budget=BUDGET if budget is None else budget)


_FACTORIES: dict[str, Callable[[str, int, float | None], Bot]] = {
    "random": _random, "greedy": _greedy, "strong": _strong}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, player: str, seed: int, *, budget: float | None = None) -> Bot:
    """The bot called ``name`` playing for ``player``; ``seed`` makes its choices repeatable;
    ``budget`` bounds a searching bot's CPU seconds per decision (None: its default)."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise UnknownBotError(f"bot: unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")
    return factory(player, seed, budget)


__all__ = ["BOT_NAMES", "Bot", "UnknownBotError", "make_bot"]
