"""A random legal-move player, for tests and soak runs.

It picks an entity that may act and one of the actions ``legal_actions`` lists, seeded for
reproducibility.  To keep games short it usually runs the router's optimum and usually pays
dividends, and at the track step it first chooses between laying, promoting and passing and
asks ``legal_actions`` for that kind of move only (enumerating every promotion is the costly
part, and the long list of promotions would crowd out the lays).  Beyond the engine's list it
sometimes makes moves the list leaves open: a legal run worse than the optimum (a part of the
optimal set, or without its mail train, 4.5-4.6), and an offer for another controller's train
(4.8.9; ``legal_actions`` offers only trains between companies of the same controller).
"""

from __future__ import annotations

import random
from typing import Any

from india1853.rules.game import trains
from india1853.rules.game.game import Game
from india1853.rules.game.legal import TRACK_MOVES, legal_actions
from india1853.rules.game.shares import ordinary_shares

TRACK_CHOICES = ("lay_tile", "lay_tile", "promote_tile", "pass")
KEEP_FIRST = {"run_routes": 0.85, "dividend": 0.7}
WORSE_RUN = 0.05  # of runs: a legal run worse than the optimum
SELL_TRAIN = 0.05  # of track steps, where trains may be sold to the bank: try to sell one
FOREIGN_OFFER = 0.1  # of trains steps: an offer for another controller's train
# MIK 2: of the sales that include a Director's Share (which goes to the discard stack and may
# leave the company without a director for long), the share kept; of the card steps where a
# Director's Share may be actioned, the share where one is (companies without a director are
# run by managers who withhold, and then the bank never breaks).
KEEP_DIRECTORS_SHARE = 0.99
PLAY_DIRECTORS_SHARE = 0.8


def random_action(game: Game, rng: random.Random) -> dict[str, Any]:
    """One legal action, with the next id and ``created_at`` 0."""
    entities = game.active_entities()
    entity, entity_type = entities[rng.randrange(len(entities))]
    st = game.state
    track_step = not st.pending and st.round == "operating" and st.turn.step == "track"
    kind = rng.choice(TRACK_CHOICES) if track_step else None
    if track_step and game.rules.train_sales_phase is not None and rng.random() < SELL_TRAIN:
        kind = "sell_train"  # Alternative Rules 4.0 (no draw at all where it is not played)
    # At the track step the list is asked for the chosen kind of move only.
    actions = legal_actions(game.rules, st, entity, track=(kind,) if kind else TRACK_MOVES)
    if st.kit is not None and rng.random() < KEEP_DIRECTORS_SHARE:
        actions = [a for a in actions if not _sells_directors_share(game, a)]
    plays = [a for a in actions if a["type"] == "play_card" and a["card"].startswith("DS:")]
    if plays and rng.random() < PLAY_DIRECTORS_SHARE:
        actions = plays
    if not actions:
        raise AssertionError(f"{entity} ({entity_type}) may act but has no legal action")
    chosen = _choose(game, rng, actions, kind)
    fields = {k: v for k, v in chosen.items() if k not in ("type", "entity", "entity_type")}
    return game.action(chosen["type"], entity, **fields)


def _choose(game: Game, rng: random.Random, actions: list[dict[str, Any]],
            track_kind: str | None) -> dict[str, Any]:
    if track_kind is not None:
        of_kind = [a for a in actions if a["type"] == track_kind]
        return rng.choice(of_kind) if of_kind else _pass(actions)
    types = {a["type"] for a in actions}
    first = actions[0]
    if first["type"] == "run_routes" and rng.random() < WORSE_RUN:
        worse = _worse_run(game, first)
        if worse is not None:
            return worse
    if "buy_train" in types and rng.random() < FOREIGN_OFFER:
        offer = _foreign_offer(game, rng, first["entity"])
        if offer is not None:
            return offer
    if rng.random() < KEEP_FIRST.get(first["type"], 0.0):
        return first
    return rng.choice(actions)


def _sells_directors_share(game: Game, action: dict[str, Any]) -> bool:
    """MIK 2: a sale of more shares than the seller's single shares."""
    if action["type"] != "sell_shares":
        return False
    player = game.state.player(action["entity"])
    return bool(action["count"] > ordinary_shares(game.rules, game.state, player,
                                                  action["company"]))


def _pass(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return next(a for a in actions if a["type"] == "pass")


def _worse_run(game: Game, best: dict[str, Any]) -> dict[str, Any] | None:
    """The optimal set less one route, or without its mail train: still legal unless a duty
    hex (4.2.3 / 4.4.2) must be on a run, when nothing else is tried."""
    routes: list[dict[str, Any]] = best["routes"]
    if game.state.turn.duties:
        return None
    if len(routes) > 1:
        return {**best, "routes": routes[1:]}
    if any(r.get("mail") for r in routes):
        return {**best, "routes": [{**r, "mail": False} for r in routes]}
    return None


def _foreign_offer(game: Game, rng: random.Random, buyer: str) -> dict[str, Any] | None:
    """4.8.9: an offer for a train of a company another player controls, at the minimum price
    or up to the buyer's treasury; the seller's controller answers it."""
    st, rules = game.state, game.rules
    co = st.companies[buyer]
    options = trains.company_sales(rules, st, co, same_controller=False)
    if not options:
        return None
    seller_initials, name = rng.choice(options)
    price = rng.randint(rules.train_sale_minimum, max(rules.train_sale_minimum, co.cash))
    return {"type": "buy_train", "entity": buyer, "entity_type": "company", "train": name,
            "source": seller_initials, "price": price}
