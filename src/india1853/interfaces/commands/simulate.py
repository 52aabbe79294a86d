"""``india1853 simulate``: play bot games and summarise them.

    india1853 simulate --games 100 --bots greedy,greedy,greedy,greedy --edition second
                       [--variant NAME ...] [--jobs 2] [--seed N] [--max-actions N]
                       [--out results.csv]

Game i (from 1) uses the seed ``seed + i - 1``.  A progress bar runs while the games play; then a
summary table (score spread, game length in rounds and actions, wins by seat, end reasons, time
per game).  ``--out`` writes one CSV row per game (columns in docs/bots.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from india1853.errors import InputError
from india1853.interfaces.simulate import (
    DEFAULT_MAX_ACTIONS,
    GameResult,
    Spread,
    Summary,
    check_bots,
    check_run,
    simulate,
    summarise,
    write_csv,
)
from india1853.rules.game.settings import EDITIONS


def register(sub: Any) -> None:
    parser = sub.add_parser("simulate", help="play bot games and summarise the results")
    parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    parser.add_argument("--bots", default="greedy,greedy,greedy,greedy",
                        help="one bot per seat, comma-separated: random, greedy or strong (3 to 6)")
    parser.add_argument("--edition", choices=EDITIONS, default="second",
                        help="first (1989) or second (2009, the default)")
    parser.add_argument("--variant", action="append", default=[],
                        help="an optional rule of the edition (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--max-actions", type=int, default=DEFAULT_MAX_ACTIONS,
                        help="stop a game after this many actions (end reason action_limit)")
    parser.add_argument("--out", type=Path, help="write one CSV row per game here")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    bots = check_bots(args.bots.split(","), args.edition)
    variants = tuple(args.variant)
    check_run(args.games, args.jobs, args.edition, len(bots), variants)
    if args.max_actions < 1:
        raise InputError(f"max-actions: must be at least 1, got {args.max_actions}")
    if args.out is not None:
        check_writable(args.out)
    console = Console()
    results: list[GameResult] = []
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("games", total=args.games)
        for result in simulate(args.games, bots, edition=args.edition, seed=args.seed,
                               variants=variants, jobs=args.jobs,
                               max_actions=args.max_actions):
            results.append(result)
            progress.advance(task)
    if args.out is not None:
        write_csv(results, args.out)
    console.print(summary_table(summarise(results), bots, args.edition))
    if args.out is not None:
        console.print(f"wrote {len(results)} rows to {args.out}")
    return 0


def check_writable(path: Path) -> None:
    """Fail before the games are played, not after: the CSV file must be creatable (a file
    made only for the test is removed again)."""
    if not path.parent.is_dir():
        raise InputError(f"out: no directory {path.parent}")
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise InputError(f"out: cannot write {path}: {exc.strerror or exc}") from None
    if not existed:
        path.unlink()


def _spread(s: Spread, unit: str = "") -> str:
    return (f"{s.low:.0f}{unit} / {s.mean:.1f}{unit} / {s.median:.1f}{unit} / "
            f"{s.high:.0f}{unit}")


def summary_table(summary: Summary, bots: tuple[str, ...], edition: str) -> Table:
    table = Table(title=f"{summary.games} games, {edition} edition, bots {','.join(bots)}")
    table.add_column("measure")
    table.add_column("min / mean / median / max")
    table.add_row("score", _spread(summary.scores))
    table.add_row("winner's lead over last", _spread(summary.score_gap))
    table.add_row("rounds (stock + operating)", _spread(summary.rounds))
    table.add_row("actions", _spread(summary.actions))
    table.add_row("seconds per game", f"{summary.seconds.low:.2f} / {summary.seconds.mean:.2f}"
                  f" / {summary.seconds.median:.2f} / {summary.seconds.high:.2f}")
    wins = ", ".join(f"{seat} ({bots[seat - 1]}): {n}" for seat, n in
                     summary.wins_by_seat.items())
    table.add_row("wins by seat", wins)
    table.add_row("end reasons", ", ".join(f"{r}: {n}" for r, n in summary.end_reasons.items()))
    table.add_row("finished", f"{summary.finished} of {summary.games}")
    return table
