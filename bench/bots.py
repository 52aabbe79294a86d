"""Bot strength benchmark (issue 23): one ``strong`` bot against three others, seats rotated.

Seeded 4-player games: game i (from 0) uses seed ``SEED + i`` and puts the strong bot in seat
``(SEED + i) mod 4``, the other seats played by the opponent bot.  Reported per match-up: the
strong bot's wins (a tie counts as a win, 5.2.3) with the Wilson 95% interval of its win rate,
its mean rank (1 best; tied players share the best rank), its mean score margin over the best
other seat, the games that did not end (``action_limit``), and the CPU seconds
(``time.process_time``) of the strong bot's decisions (mean, p95, max) and of a whole game.
Four strong bots are also played, to show that their games end.

Environment (so a quick run is possible; defaults are the issue's full runs):

- ``INDIA1853_BENCH_BOTS_GAMES``: second-edition games against three greedy (200)
- ``INDIA1853_BENCH_BOTS_FIRST_GAMES``: first-edition games against three greedy (100)
- ``INDIA1853_BENCH_BOTS_OTHER_GAMES``: games against three random, and of four strong (20)
- ``INDIA1853_BENCH_BOTS_BUDGET``: the strong bot's CPU seconds per decision (its default)
- ``INDIA1853_BENCH_BOTS_SEED``: the seed of the first game (0); game i uses seed SEED + i and
  the strong seat is the seed mod 4, so runs of different seeds (starting at multiples of 4)
  can be pooled
- ``INDIA1853_BENCH_BOTS_RECORDS``: a file to which every game's record (match, edition, seed,
  strong seat, rank, margin, finished, game CPU, the strong bots' decision CPU seconds) is
  appended as one JSON line; ``python -m bench.bots_pool FILE...`` prints the same table from
  the records of several files
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from typing import Any

from india1853.interfaces.bots import Bot, Decision, make_bot
from india1853.interfaces.bots.strong import BUDGET, StrongBot
from india1853.interfaces.simulate import next_action
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

MAX_ACTIONS = 20_000
Z95 = 1.959964


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion ``wins / games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + Z95 ** 2 / games
    centre = (p + Z95 ** 2 / (2 * games)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95 ** 2 / (4 * games ** 2)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class _Timed:
    """A bot whose decisions' CPU seconds are recorded."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self._bot = bot
        self._times = times

    @property
    def player(self) -> str:
        return self._bot.player

    def choose(self, decision: Decision) -> dict[str, Any]:
        start = time.process_time()
        out = self._bot.choose(decision)
        self._times.append(time.process_time() - start)
        return out


def _play(seed: int, edition: str, variants: tuple[str, ...], seats: list[str],
          budget: float, times: list[float]) -> tuple[Game, list[str], float]:
    players = [f"{name}{i + 1}" for i, name in enumerate(seats)]
    settings = Settings(players=tuple(players), seed=seed, edition=edition, variants=variants)
    bots: dict[str, Bot] = {}
    for i, (player, name) in enumerate(zip(players, seats, strict=True)):
        bot: Bot = (StrongBot(player, seed + i, budget=budget) if name == "strong"
                    else make_bot(name, player, seed + i))
        bots[player] = _Timed(bot, times) if name == "strong" else bot
    game = Game(settings)
    start = time.process_time()
    while not game.finished and len(game.log) < MAX_ACTIONS:
        game.process(next_action(game, bots))
    return game, players, time.process_time() - start


def play_record(opponent: str, seed: int, edition: str = "second",
                variants: tuple[str, ...] = (), budget: float = BUDGET) -> dict[str, Any]:
    """One game of one strong bot against three ``opponent`` bots (or four strong), as a record.

    The strong bot sits in seat ``seed mod 4``, so batches that start at a multiple of 4 pool
    into the same rotation as one long run.  The record is everything the summary needs, so
    records of several processes can be pooled (``bench/bots_pool.py``).
    """
    times: list[float] = []
    seat = seed % 4
    seats = [opponent] * 4
    seats[seat] = "strong"
    game, players, cpu = _play(seed, edition, variants, seats, budget, times)
    scores = game.scores()
    me = players[seat]
    others = [scores[p] for p in players if p != me]
    return {
        "match": _label(opponent, edition, variants),
        "edition": edition,
        "variants": list(variants),
        "budget": budget,
        "seed": seed,
        "strong_seat": seat,
        "rank": 1 + sum(1 for s in others if s > scores[me]),
        "margin": scores[me] - max(others),
        "finished": game.finished,
        "actions": len(game.log),
        "game_cpu_s": round(cpu, 4),
        "decision_cpu_s": [round(t, 5) for t in times],
    }


def _label(opponent: str, edition: str, variants: tuple[str, ...]) -> str:
    label = "4 strong" if opponent == "strong" else f"strong vs 3 {opponent}"
    return f"{label}, {edition}{' + ' + ','.join(variants) if variants else ''}"


def summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The table row of one match-up's game records (all of the same ``match``)."""
    games = len(records)
    ranks = [r["rank"] for r in records]
    wins = sum(1 for rank in ranks if rank == 1)
    margins = [r["margin"] for r in records]
    times = sorted(t for r in records for t in r["decision_cpu_s"])
    low, high = wilson(wins, games)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return {
        "match": records[0]["match"] if records else "",
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "wilson95": f"{low:.2f}-{high:.2f}",
        "mean_rank": statistics.fmean(ranks) if ranks else 0.0,
        "mean_margin": statistics.fmean(margins) if margins else 0.0,
        "unfinished": sum(1 for r in records if not r["finished"]),
        "decisions": len(times),
        "cpu_mean_s": statistics.fmean(times) if times else 0.0,
        "cpu_p95_s": p95,
        "cpu_max_s": times[-1] if times else 0.0,
        "game_cpu_mean_s": statistics.fmean(r["game_cpu_s"] for r in records) if records else 0.0,
        "game_cpu_max_s": max((r["game_cpu_s"] for r in records), default=0.0),
    }


def match(opponent: str, games: int, edition: str = "second",
          variants: tuple[str, ...] = (), budget: float = BUDGET,
          first_seed: int = 0) -> dict[str, Any]:
    """One strong bot against three ``opponent`` bots (or four strong: ``"strong"``).

    With ``INDIA1853_BENCH_BOTS_RECORDS`` naming a file, each game's record is appended to it
    as one JSON line as soon as the game ends (a run cut short still leaves its games).
    """
    path = os.environ.get("INDIA1853_BENCH_BOTS_RECORDS")
    records: list[dict[str, Any]] = []
    for seed in range(first_seed, first_seed + games):
        record = play_record(opponent, seed, edition, variants, budget)
        records.append(record)
        if path:
            with open(path, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
    return summarise(records)


def run() -> list[dict[str, Any]]:
    budget = float(os.environ.get("INDIA1853_BENCH_BOTS_BUDGET", str(BUDGET)))
    second = _env_int("INDIA1853_BENCH_BOTS_GAMES", 200)
    first = _env_int("INDIA1853_BENCH_BOTS_FIRST_GAMES", 100)
    other = _env_int("INDIA1853_BENCH_BOTS_OTHER_GAMES", 20)
    seed = _env_int("INDIA1853_BENCH_BOTS_SEED", 0)
    rows: list[dict[str, Any]] = []
    if second:
        rows.append(match("greedy", second, "second", budget=budget, first_seed=seed))
    if first:
        rows.append(match("greedy", first, "first", budget=budget, first_seed=seed))
    if other:
        rows.append(match("random", other, "second", budget=budget, first_seed=seed))
        rows.append(match("strong", other, "second", budget=budget, first_seed=seed))
    return rows
