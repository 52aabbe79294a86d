"""Bots: automatic players that choose among the engine's legal actions.

A bot plays for one player.  It sees what that player may see and nothing more: a
:class:`~india1853.interfaces.bots.decision.Decision` (:func:`decision_for`), which holds the
player's view (``Game.view(player)``, hidden bonds and cities of the others removed), the legal
actions of the entity that must act (the player, or a company the player directs or manages)
priced by the engine's turn model, and the engine's outlook (train limits and offers, shares
to float).  It returns one action of ``decision.legal``; the caller fills in ``id`` and
``created_at``.  :func:`ask` does all of it for a game in hand.

``make_bot(name, player, seed, budget=...)`` builds one (``budget``: the strong bot's CPU
seconds per decision; the server's ``--bot-cpu-seconds``); :data:`BOT_NAMES` lists the names
it knows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from india1853.errors import InputError
from india1853.interfaces.bots.decision import Decision, decision_for
from india1853.rules.game.game import Game


class Bot(Protocol):
    """An automatic player."""

    @property
    def player(self) -> str:
        """The name of the player the bot plays for."""
        ...

    def choose(self, decision: Decision) -> dict[str, Any]:
        """One action of ``decision.legal`` (never empty), chosen from what the decision
        shows."""
        ...


def reads_prices(bot: Bot) -> bool:
    """Whether ``bot`` reads the priced options and the outlook of its decisions: every bot
    does unless it says otherwise with a ``priced = False`` attribute (the random bot, which
    chooses among the legal actions alone); the table then asks the engine for less
    (``decision_for(..., priced=False)``)."""
    return bool(getattr(bot, "priced", True))


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


def ask(bot: Bot, game: Game, entity: str) -> dict[str, Any]:
    """The bot's choice for ``entity`` (which its player decides for) in ``game`` now: one of
    the legal actions, without ``id`` and ``created_at``; an InputError if the bot chose an
    action the engine does not offer."""
    decision = decision_for(game, bot.player, entity, priced=reads_prices(bot))
    choice = bot.choose(decision)
    if choice not in decision.legal:
        raise InputError(f"bot {bot.player} chose an action not offered for {entity}: "
                         f"{choice!r}")
    return choice


__all__ = ["BOT_NAMES", "Bot", "Decision", "UnknownBotError", "ask", "decision_for",
           "make_bot", "reads_prices"]
