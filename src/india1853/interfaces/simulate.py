"""Bot games: play one game with bots, many games in parallel, and summarise the results.

The table (this module) asks the engine who must act, finds the player who decides for that
entity (a company's director or manager, from the public view), and hands that player's bot its
own view and the legal actions.  The bot never sees the game object or another player's view.

``play_game`` plays one game; ``simulate`` plays many (``jobs`` worker processes);
``summarise`` and ``write_csv`` report them.  A game that reaches ``max_actions`` without ending
is stopped and reported with the end reason ``"action_limit"``, so a bot that loops cannot hang
a simulation.
"""

from __future__ import annotations

import csv
import multiprocessing
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from india1853.errors import India1853Error, InputError
from india1853.interfaces.bots import BOT_NAMES, Bot, decision_for, make_bot, reads_prices
from india1853.rules.game.game import Game
from india1853.rules.game.rules_data import game_rules
from india1853.rules.game.settings import EDITIONS, Settings, player_counts

DEFAULT_MAX_ACTIONS = 20_000
# What the fork server of ``simulate(jobs > 1)`` imports before forking its workers: the table,
# with the engine and the bots, and the router's loops compiled (loaded once, not per worker).
WORKER_PRELOAD = ("india1853.interfaces.simulate", "numba", "india1853.interfaces.bots.warm")
ACTION_LIMIT = "action_limit"

CSV_COLUMNS: tuple[str, ...] = (
    "game", "seed", "edition", "bots", "end_reason", "stock_rounds", "operating_rounds",
    "rounds", "actions", "seconds", "winners", "scores",
)


class BotError(India1853Error):
    """A bot chose an action that the engine did not offer."""


@dataclass(frozen=True)
class GameResult:
    """One finished (or stopped) bot game.  Seats count from 1 in the order of ``bots``."""

    game: int
    seed: int
    edition: str
    bots: tuple[str, ...]
    end_reason: str
    stock_rounds: int
    operating_rounds: int
    actions: int
    seconds: float
    scores: tuple[int, ...]

    @property
    def rounds(self) -> int:
        return self.stock_rounds + self.operating_rounds

    @property
    def finished(self) -> bool:
        return self.end_reason != ACTION_LIMIT

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest score (5.2.3); ties share the win."""
        best = max(self.scores)
        return tuple(i + 1 for i, s in enumerate(self.scores) if s == best)

    def csv_row(self) -> dict[str, str]:
        return {
            "game": str(self.game),
            "seed": str(self.seed),
            "edition": self.edition,
            "bots": ";".join(self.bots),
            "end_reason": self.end_reason,
            "stock_rounds": str(self.stock_rounds),
            "operating_rounds": str(self.operating_rounds),
            "rounds": str(self.rounds),
            "actions": str(self.actions),
            "seconds": f"{self.seconds:.3f}",
            "winners": ";".join(str(s) for s in self.winners),
            "scores": ";".join(str(s) for s in self.scores),
        }


def check_bots(bots: Sequence[str], edition: str = "second") -> tuple[str, ...]:
    """The bot names of a game, one per seat; raises InputError for a bad list (as many seats
    as the edition's TABLE 3 has columns: the engine's ``player_counts``)."""
    names = tuple(b.strip() for b in bots)
    for name in names:
        if name not in BOT_NAMES:
            raise InputError(f"bots: unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")
    counts = player_counts(edition if edition in EDITIONS else "second")
    if len(names) not in counts:
        raise InputError(f"bots: {min(counts)} to {max(counts)} bots needed, got {len(names)}")
    return names


def seat_names(bots: Sequence[str]) -> tuple[str, ...]:
    """Player names for the seats: the bot's name and the seat number, e.g. ``greedy2``."""
    return tuple(f"{bot}{i}" for i, bot in enumerate(bots, start=1))


def decider(game: Game, entity: str) -> str:
    """The player who decides for an entity (the engine's answer, ``Game.decider``); a
    company nobody decides for is a clear error."""
    who = game.decider(entity)
    if who is None:
        raise BotError(f"company {entity} must act but has no director or manager")
    return who


def next_action(game: Game, bots: dict[str, Bot]) -> dict[str, Any]:
    """Ask the bot of whoever must act now for its choice; the action is ready to process."""
    entity, _ = game.active_entities()[0]
    player = decider(game, entity)
    bot = bots[player]
    decision = decision_for(game, player, entity, priced=reads_prices(bot))
    if not decision.legal:
        raise BotError(f"{entity} must act but the engine offers no legal action")
    choice = bot.choose(decision)
    if choice not in decision.legal:
        raise BotError(f"bot of {player} chose an action not offered: {choice!r}")
    return {**choice, "id": game.next_id(), "created_at": 0}


def play_game(settings: Settings, bots: dict[str, Bot], *,
              max_actions: int = DEFAULT_MAX_ACTIONS,
              on_action: Callable[[Game], None] | None = None) -> Game:
    """Play a game with one bot per player until it ends or ``max_actions`` are in the log."""
    game = Game(settings)
    while not game.finished and len(game.log) < max_actions:
        game.process(next_action(game, bots))
        if on_action is not None:
            on_action(game)
    return game


def _result(index: int, seed: int, bots: tuple[str, ...], game: Game,
            seconds: float) -> GameResult:
    public = game.view(None)
    end_reason = public["end_reason"] if game.finished else ACTION_LIMIT
    totals = game.scores()
    return GameResult(
        game=index,
        seed=seed,
        edition=game.settings.edition,
        bots=bots,
        end_reason=str(end_reason),
        stock_rounds=int(public["stock_round"]),
        operating_rounds=int(public["operating_round"]),
        actions=len(game.log),
        seconds=seconds,
        scores=tuple(totals[name] for name in game.settings.players),
    )


def run_one(index: int, seed: int, bots: tuple[str, ...], edition: str,
            max_actions: int = DEFAULT_MAX_ACTIONS,
            variants: tuple[str, ...] = ()) -> GameResult:
    """Play game number ``index`` of a simulation with the given seed (one seed drives the
    engine's lots and every bot)."""
    names = seat_names(bots)
    settings = Settings(players=names, seed=seed, edition=edition, variants=variants)
    players = {name: make_bot(bot, name, seed) for name, bot in zip(names, bots, strict=True)}
    start = time.perf_counter()
    game = play_game(settings, players, max_actions=max_actions)
    return _result(index, seed, bots, game, time.perf_counter() - start)


def check_run(games: int, jobs: int, edition: str, seats: int | None = None,
              variants: tuple[str, ...] = ()) -> None:
    """Bad numbers, an unknown edition or variant, or an edition the engine cannot play with
    ``seats`` players fail before any game starts."""
    if games < 1:
        raise InputError(f"games: must be at least 1, got {games}")
    if jobs < 1:
        raise InputError(f"jobs: must be at least 1, got {jobs}")
    if edition not in EDITIONS:
        raise InputError(f"edition: unknown edition {edition!r}")
    if seats is not None:
        try:
            game_rules(edition, seats, variants)
        except InputError as exc:
            raise InputError(f"edition: {exc}") from None


def simulate(games: int, bots: Sequence[str], *, edition: str = "second", seed: int = 0,
             variants: tuple[str, ...] = (),
             jobs: int = 1, max_actions: int = DEFAULT_MAX_ACTIONS) -> Iterator[GameResult]:
    """Play ``games`` bot games (game i with seed ``seed + i``); yield each result as it is
    done (in completion order when ``jobs`` > 1)."""
    names = check_bots(bots, edition)
    check_run(games, jobs, edition, len(names), variants)
    if jobs == 1:
        for i in range(games):
            yield run_one(i + 1, seed + i, names, edition, max_actions, variants)
        return
    # A fork server, not fork: the caller may be running a progress bar's thread (a lock
    # held by it would stay held in a forked worker).  Not spawn either: each worker would
    # import the engine and the router's compiler again; the server imports them once
    # (single-threaded) and forks every worker from itself.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(WORKER_PRELOAD))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(run_one, i + 1, seed + i, names, edition, max_actions,
                               variants)
                   for i in range(games)]
        for future in as_completed(futures):
            yield future.result()


@dataclass(frozen=True)
class Spread:
    """Minimum, mean, median and maximum of some numbers."""

    low: float
    mean: float
    median: float
    high: float

    @staticmethod
    def of(values: Sequence[float]) -> Spread:
        return Spread(min(values), statistics.fmean(values), statistics.median(values),
                      max(values))


@dataclass(frozen=True)
class Summary:
    games: int
    finished: int
    scores: Spread
    score_gap: Spread
    rounds: Spread
    actions: Spread
    seconds: Spread
    wins_by_seat: dict[int, int]
    end_reasons: dict[str, int]


def summarise(results: Sequence[GameResult]) -> Summary:
    """Score spread (every final score; per game, the winner's lead over the last), game length,
    wins by seat (a tie counts for each tied seat), end reasons and time per game."""
    if not results:
        raise InputError("summary: no game was played")
    seats = len(results[0].bots)
    wins = Counter(seat for r in results for seat in r.winners)
    return Summary(
        games=len(results),
        finished=sum(r.finished for r in results),
        scores=Spread.of([s for r in results for s in r.scores]),
        score_gap=Spread.of([max(r.scores) - min(r.scores) for r in results]),
        rounds=Spread.of([r.rounds for r in results]),
        actions=Spread.of([r.actions for r in results]),
        seconds=Spread.of([r.seconds for r in results]),
        wins_by_seat={seat: wins.get(seat, 0) for seat in range(1, seats + 1)},
        end_reasons=dict(Counter(r.end_reason for r in results).most_common()),
    )


def write_csv(results: Sequence[GameResult], path: Path) -> None:
    """One row per game under :data:`CSV_COLUMNS` (lists joined with ``;``), in game order."""
    try:
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(CSV_COLUMNS))
            writer.writeheader()
            for r in sorted(results, key=lambda r: r.game):
                writer.writerow(r.csv_row())
    except OSError as exc:
        raise InputError(f"out: cannot write {path}: {exc.strerror}") from None
