"""The board of a game at any point, for every interface (``india1853 render game.json``, the
terminal's ``board`` and ``run``, the web's board picture).

The game's tiles and bases are drawn by :func:`india1853.interfaces.render.render_board_svg`,
bases in company colours.  With a company named, the router's optimal run for that company's
trains on that board (4.5, 4.6; the duties of a promotion this turn, 4.2.6, when the company
is the one operating) is drawn on top, one colour per train.
"""

from __future__ import annotations

from dataclasses import dataclass

from india1853.board.graph import TrackGraph
from india1853.errors import InputError, RuleError
from india1853.interfaces.render import render_board_svg
from india1853.interfaces.render.board import BoardPainter
from india1853.rules.game import board_port
from india1853.rules.game.game import Game
from india1853.rules.router import Budget, best_run
from india1853.rules.routes import Route


@dataclass(frozen=True)
class OptimalRun:
    """A company's optimal run on the board: the routes (one per train that runs) and the
    total it earns (revenue plus mail)."""

    company: str
    routes: tuple[Route, ...]
    total: int
    # False when a search budget ran out first: the best run found so far, not yet proven.
    proven: bool = True


def company_initials(game: Game, text: str) -> str:
    key = text.strip().upper()
    if key not in game.state.companies:
        known = ", ".join(game.state.companies)
        raise InputError(f"--routes: unknown company {text!r} (one of {known})")
    return key


def optimal_run(game: Game, company: str, budget_seconds: float | None = None) -> OptimalRun:
    """The router's best run for ``company`` on the game's board now (4.5, 4.6); no routes if
    the company has no trains or no legal run.  With ``budget_seconds`` the router answers
    within about that time (a screen must not freeze): if it could not prove its run optimal
    by then, the run is the best found so far and ``proven`` is False."""
    st = game.state
    initials = company_initials(game, company)
    co = st.companies[initials]
    trains = board_port.running_trains(game.rules, st, co)
    if not trains:
        return OptimalRun(initials, (), 0)
    operating = st.round == "operating" and st.turn.order[st.turn.index] == initials
    duties = list(st.turn.duties) if operating else []
    graph = TrackGraph.build(st.board)
    try:
        best = best_run(graph, initials, trains, duties,
                        budget=None if budget_seconds is None else Budget(budget_seconds))
    except RuleError:
        return OptimalRun(initials, (), 0)
    return OptimalRun(initials, tuple(rv.route for rv in best.run.routes), best.run.total,
                      best.optimal)


def game_board_svg(game: Game, routes: OptimalRun | None = None,
                   painter: BoardPainter | None = None) -> str:
    """The game's board (tiles, bases) as SVG, with the run's routes highlighted if given.
    ``painter``: one kept for the game's edition, which redraws only the hexes that changed
    since its last board (the same picture, cheaper for a board drawn again and again)."""
    highlight = [list(r.nodes) for r in routes.routes] if routes else []
    if painter is None:
        return render_board_svg(game.state.board, highlight_routes=highlight)
    return painter.svg(game.state.board, highlight)


def describe_run(run: OptimalRun) -> str:
    if not run.routes:
        return f"{run.company}: no train can run (no routes drawn)"
    trains = "; ".join(f"'{r.train.name}'{' (mail)' if r.mail else ''} "
                       + "-".join(r.hexes) for r in run.routes)
    if not run.proven:
        return f"{run.company}: best so far, not yet proven: run £{run.total}: {trains}"
    return f"{run.company}: optimal run £{run.total}: {trains}"
