"""``india1853 play``: a hotseat game in the terminal, some seats possibly played by bots.

``india1853 play --edition second --players Ann,Bob,Cat [--bots Bob,Cat --bot greedy]
[--hints] [--seed N] [--variant NAME] [--save game.json]`` starts a game; ``india1853 play --load
game.json`` resumes one.  The game is saved after every action (see docs/cli.md).

Both editions can be played: ``--edition first`` (1989: secret contract bids, Company Credits)
or ``second`` (2009, the default).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import IO, Any

from india1853.errors import InputError
from india1853.interfaces.bots import BOT_NAMES
from india1853.interfaces.logfile import Table, load_game
from india1853.interfaces.terminal.console import Console
from india1853.interfaces.terminal.loop import Hotseat
from india1853.rules.game.game import Game
from india1853.rules.game.rules_data import game_rules
from india1853.rules.game.settings import EDITIONS, Settings


def register(sub: Any) -> None:
    parser = sub.add_parser("play", help="play a hotseat game in the terminal (bots optional)")
    parser.add_argument("--edition", choices=EDITIONS, default=None,
                        help="first (1989) or second (2009, the default)")
    parser.add_argument("--players", help="comma-separated names, 3 to 6, e.g. Ann,Bob,Cat")
    parser.add_argument("--bots", default="",
                        help="comma-separated players that a bot plays, e.g. Bob,Cat")
    parser.add_argument("--bot", default="greedy", choices=BOT_NAMES,
                        help="the bot for --bots (default: greedy)")
    parser.add_argument("--hints", action="store_true",
                        help="let the humans ask for a hint (the strong bot's advice, command "
                        "'hint'); always allowed in a game with a bot")
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed of ties by lot and of the bots (default: from the clock)")
    parser.add_argument("--variant", action="append", default=[],
                        help="an optional rule of the edition (repeatable)")
    parser.add_argument("--save", help="the save file, written after every action "
                        "(default: saves/game-DATE-TIME.json)")
    parser.add_argument("--load", help="resume the game saved in this file")
    parser.add_argument("--overwrite", action="store_true",
                        help="let the game replace an existing --save file (a new game, or "
                        "--load A --save B)")
    parser.set_defaults(func=run)


def _names(text: str, field: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise InputError(f"{field}: expected comma-separated player names")
    return names


def _new_game(args: argparse.Namespace) -> tuple[Game, Table, Path]:
    if not args.players:
        raise InputError("--players: required for a new game (or use --load FILE)")
    players = _names(args.players, "--players")
    bots = _names(args.bots, "--bots") if args.bots else ()
    for name in bots:
        if name not in players:
            raise InputError(f"--bots: {name!r} is not one of --players ({', '.join(players)})")
    seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
    edition = args.edition or "second"
    try:
        settings = Settings(players, seed, edition, tuple(args.variant))
    except InputError as exc:
        raise _by_option(exc) from None
    save = Path(args.save) if args.save else Path("saves") / time.strftime(
        "game-%Y%m%d-%H%M%S.json")
    if save.exists() and not args.overwrite:
        raise InputError(f"--save {str(save)!r}: the file exists; resume it with --load or "
                         "pass --overwrite")
    try:
        game_rules(edition, len(players), tuple(args.variant))
    except InputError as exc:
        raise _by_option(exc) from None
    try:
        game = Game(settings)
    except InputError as exc:
        raise _by_option(exc) from None
    return game, Table({name: args.bot for name in bots}, args.hints), save


def _by_option(exc: InputError) -> InputError:
    """The error with the settings' field named by the option that gave it (``--players``,
    ``--variant``)."""
    text = str(exc)
    for key, option in (("settings.players", "--players"), ("settings.variants", "--variant")):
        if text.startswith(key):
            text = option + text[len(key):]
    return InputError(text)


def _loaded_game(args: argparse.Namespace) -> tuple[Game, Table, Path]:
    # The file's settings are the game's: an option that would change them is refused, not
    # silently dropped.
    given = {"--players": args.players is not None, "--edition": args.edition is not None,
             "--seed": args.seed is not None, "--variant": bool(args.variant)}
    for option, present in given.items():
        if present:
            what = "players" if option == "--players" else "settings"
            raise InputError(f"{option}: a loaded game keeps its own {what} (drop {option})")
    game, table = load_game(args.load)
    if args.bots:
        table = Table({name: args.bot for name in _names(args.bots, "--bots")}, table.hints)
        table.check(game.settings.players, "--bots")
    if args.hints:
        table = Table(table.bots, True)
    save = Path(args.save or args.load)
    # Saving a loaded game elsewhere must not clobber another game unasked, as for a new game.
    if (args.save and save.exists() and not save.resolve() == Path(args.load).resolve()
            and not args.overwrite):
        raise InputError(f"--save {str(save)!r}: the file exists (the game is loaded from "
                         f"{args.load!r}); pass --overwrite to replace it")
    return game, table, save


def run(args: argparse.Namespace, stdin: IO[str] | None = None,
        stdout: IO[str] | None = None) -> int:
    game, table, save = _loaded_game(args) if args.load else _new_game(args)
    console = Console(stdin or sys.stdin, stdout or sys.stdout)
    hotseat = Hotseat(game, table, console, save)
    if args.load:
        hotseat.recall_recent()
    console.print(f"Saving to {save} after every action. Type 'help' for the commands.")
    return hotseat.run()
