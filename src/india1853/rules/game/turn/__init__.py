"""The turn model: what is decided now, by whom, and every legal option with its price and effect.

``turn_model(game, viewer)`` is what an interface (the terminal, the web page) renders: nothing
an interface shows needs a rule computed outside the engine.  It is built from what ``viewer``
may see (a player's name, or None for a spectator): the tables come from ``game.view(viewer)``
(secret bonds and contract cities removed, 2.5.2-2.5.4, 4.3.2), and the options are listed only
for the entities ``viewer`` decides for, so a bid's secret notes never reach another seat.

Each option carries the exact action ``Game.process`` accepts (its id filled), the money the
acting entity pays (negative: receives), one sentence of effect, a note, the rule, and the data
a board picture needs.  The prices are those the engine applies: par and market prices (3.1.4,
3.1.7), sale prices (2.8.3, 3.1.7), bond values (2.5.9), TABLE 4 tile and base prices (4.1.12,
4.2.13, 4.4.4), the run's revenue and mail (4.6), the dividend per share and the share price's
move (4.6.4, 4.7.1), train prices (4.8).  The legal actions are asked of the engine once per
deciding entity: the router runs at most once per call.

The model is assembled here from its three parts: ``decisions`` (the round in words, who
decides what now and under which rule, the headline, the first edition's bid composer),
``options`` (each legal action priced, the options not possible now with the engine's reasons,
what is missing) and ``tables`` (players, companies, market, trains, the viewer's contract).
"""

from __future__ import annotations

from typing import Any

from india1853.data.citations import cite, cite_text
from india1853.data.summaries import rule_summary
from india1853.rules.game import steps
from india1853.rules.game.game import Game
from india1853.rules.game.legal import disabled_options
from india1853.rules.game.turn.decisions import bid_composer, deciding, headline, title
from india1853.rules.game.turn.options import disabled, options, unavailable
from india1853.rules.game.turn.tables import tables

Action = dict[str, Any]
Json = dict[str, Any]


def turn_model(game: Game, viewer: str | None, *, moderator: bool = False) -> dict[str, Any]:
    """The turn as ``viewer`` may see it (see the module docstring; docs/turn-model.md).
    ``moderator``: the tables from the moderator's view (every secret; for the replay of a
    finished game's log), with no decisions."""
    view = game.moderator_view() if moderator else game.view(viewer)  # checks the name
    active, active_cited, headline_cited = game.per_state("turn.active",
                                                          lambda: _active(game))
    step = steps.current(game.state)
    secret = step is not None and step.secret
    decisions = []
    for a in active:
        if viewer is None or moderator or a["player"] != viewer:
            continue
        legal = game.legal_actions(a["entity"])
        # The options not possible now are asked of the engine once for both lists.
        missing = disabled_options(game.rules, game.state, a["entity"])
        decision = {**a, "secret": secret,
                    "options": options(game, a["entity"], legal, view),
                    "disabled": disabled(game, a["entity"], view, missing),
                    "unavailable": (unavailable(game, a["entity"], missing)
                                    if a["entity_type"] == "player" else [])}
        if a["step"] == "bids":
            decision["composer"] = bid_composer(game, a["entity"])
        decisions.append(decision)
    edition = game.rules.ed.name
    model = {
        "next_id": game.next_id(),
        "edition": edition,
        "round": view["round"],
        "phase": view["phase"],
        "finished": game.finished,
        "title": title(view),
        "headline": headline_cited,
        "active": active_cited,
        "decisions": [_cited(edition, d) for d in decisions],
        "tables": tables(game, view, viewer),
        "view": view,
    }
    contract = model["tables"]["contract"]
    if contract is not None:
        contract["rule"] = cite(edition, contract["rule"])
        progress = contract["progress"]
        if progress is not None:
            progress["rule"] = cite(edition, progress["rule"])
            for key in ("status", "warning"):
                if progress[key] is not None:
                    progress[key] = cite_text(edition, progress[key])
    return model


def _active(game: Game) -> tuple[list[Json], list[Json], str]:
    """Who decides what now, as it is and citing the game's edition, and the headline: the
    same for every viewer (kept per state, ``Game.per_state``; read, never changed)."""
    edition = game.rules.ed.name
    active = deciding(game)
    return (active, [_cited(edition, a) for a in active],
            cite_text(edition, headline(game, active)))


def preview(game: Game, viewer: str, action: Action) -> Json:
    """The option ``action`` would be, priced as in the turn model (a composed bid: its bond,
    14.4), if the engine accepts it now for ``viewer``; else the engine's error (a
    :class:`~india1853.errors.RuleError` naming the rule, or an InputError naming the field).
    Nothing changes: the action is tried on a fork."""
    trial = game.fork()
    trial.process(action)
    entity = str(action["entity"])
    option = options(game, entity, [action], game.view(viewer))[0]
    return _cited(game.rules.ed.name, option)


# The fields of a decision, an option or a missing option that cite rules in their text.
_CITING_TEXT = ("what", "effect", "note", "reason", "warning")


def _cited(edition: str, item: Json) -> Json:
    """``item`` (an active entity, a decision with its options and missing options) citing the
    game's own edition: the turn model's rules are named by the second edition's numbers where
    the editions share the code, and a first-edition game cites the 1989 rules' paragraphs
    instead (``data/rule_citations.json``), with their summaries."""
    out = dict(item)
    if "rule" in out:
        out["rule"] = cite(edition, str(out["rule"]))
        out["rule_summary"] = rule_summary(edition, out["rule"])
    for key in _CITING_TEXT:
        if isinstance(out.get(key), str):
            out[key] = cite_text(edition, out[key])
    for key in ("options", "disabled", "unavailable"):
        if key in out:
            out[key] = [_cited(edition, o) for o in out[key]]
    return out


__all__ = ["preview", "turn_model"]
