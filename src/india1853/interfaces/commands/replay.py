"""``india1853 replay game.json [--to ACTION_ID] [--json] [--moderator]``: a game's state.

Replays the log (through action ``--to`` if given) and prints the state as tables, or with
``--json`` one JSON document whose top-level keys are exactly :data:`JSON_KEYS` (documented in
docs/cli.md).  Secrets still hidden at that point (bonds, a bid's cities) are left out unless
``--moderator`` is given.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console

from india1853.interfaces.logfile import load_log
from india1853.interfaces.terminal import screen
from india1853.rules.game.game import Game
from india1853.rules.game.turn import turn_model

# The width of the tables when the output is not a terminal: the widest table (the players
# with six cities and eight companies) fits.
PIPE_WIDTH = 200

JSON_KEYS: tuple[str, ...] = (
    "actions", "edition", "round", "phase", "stock_round", "operating_round", "bank",
    "players", "companies", "board", "finished", "end_reason", "scores",
)


def register(sub: Any) -> None:
    parser = sub.add_parser("replay", help="replay a game log and print the state")
    parser.add_argument("log", help="a game log (the file `play --save` writes)")
    parser.add_argument("--to", type=int, default=None, metavar="ACTION_ID",
                        help="stop after the action with this id")
    parser.add_argument("--json", action="store_true", help="one JSON document (stable keys)")
    parser.add_argument("--moderator", action="store_true",
                        help="show secrets (bonds, bid cities) not yet revealed")
    parser.set_defaults(func=run)


def state_document(game: Game, moderator: bool = False) -> dict[str, Any]:
    """The state under :data:`JSON_KEYS`."""
    view = game.moderator_view() if moderator else game.view(None)
    cards = {t["id"]: t["card"] for t in view["trains"]}
    bases: dict[str, list[dict[str, Any]]] = {}
    for company, hex_, station in view["board"]["bases"]:
        bases.setdefault(company, []).append({"hex": hex_, "station": station})
    return {
        "actions": len(game.log),
        "edition": game.settings.edition,
        "round": view["round"],
        "phase": view["phase"],
        "stock_round": view["stock_round"],
        "operating_round": view["operating_round"],
        "bank": view["bank"],
        "players": [
            {"name": p["name"], "cash": p["cash"], "shares": p["shares"],
             "unredeemed": p["unredeemed"], "bond": p["bond"], "bond_returned":
             p["bond_returned"], "cities": p["cities"], "contract": p["contract"]}
            for p in view["players"]
        ],
        "companies": {
            initials: {"cash": c["cash"], "share_price": c["price"], "director": c["director"],
                       "ipo": c["ipo"], "pool": c["pool"], "floated": c["floated"],
                       "formed": c["formed"], "trains": [cards.get(t, t) for t in c["trains"]],
                       # 4.8.10 / 35.9: the train bought on credit and not yet paid for
                       "credit_train": cards.get(c["credit_train"]) if c["credit_train"] else None,
                       "bases": bases.get(initials, [])}
            for initials, c in view["companies"].items()
        },
        "board": {"tiles": {h: {"tile": t, "rotation": r}
                            for h, (t, r) in sorted(view["board"]["tiles"].items())}},
        "finished": game.finished,
        "end_reason": view.get("end_reason"),
        "scores": game.scores() if game.finished else None,
    }


def run(args: argparse.Namespace) -> int:
    game = load_log(args.log, args.to)
    if args.json:
        print(json.dumps(state_document(game, args.moderator), ensure_ascii=False, indent=1))
        return 0
    model = turn_model(game, None, moderator=args.moderator)
    # Into a pipe or a file rich would assume 80 columns and cut the cells (a bid's cities
    # to "Jai…"); there the tables get the width they need.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else PIPE_WIDTH)
    console.print(screen.status_line(model))
    console.print(f"{len(game.log)} actions replayed")
    console.print(screen.players_table(model, title="Players"))
    console.print(screen.companies_table(model, title="Companies"))
    console.print(screen.train_market(model))
    console.print(screen.market_line(model))
    console.print(screen.board_table(model["view"], game.rules.ed))
    if game.finished:
        scores = sorted(game.scores().items(), key=lambda kv: -kv[1])
        console.print("Final scores: " + ", ".join(f"{n} £{s}" for n, s in scores))
    return 0
