"""A game's board and companies at any action, as a position (docs/positions.md).

The ``moves`` and ``routes`` commands read positions; :func:`game_position` turns a game into
one, so that they work on one's own games (``india1853 export-position``).  Only public
information goes into it: the board, and each formed company's trains, treasury, type, lay
option (4.1.3), credit train (3.4.6) and extra bases (4.4.4).  During a company's operating
turn the position also records, under ``game``, the lays already made and the run duties
(4.2.3, 4.4.2) - ``moves --lays-done`` and ``--promoted`` take the former.
"""

from __future__ import annotations

from typing import Any, Literal

from india1853.rules.game.board_port import owes_for_credit_train
from india1853.rules.game.game import Game
from india1853.rules.position import CompanyState, Position

DOUBLE_LAY: dict[int, Literal["later", "paid"]] = {1: "later", 2: "paid"}


def game_position(game: Game) -> Position:
    """The position of ``game`` now: its board and its formed companies."""
    st = game.state
    operating = st.turn.order[st.turn.index] if st.round == "operating" else None
    companies: dict[str, CompanyState] = {}
    for initials, co in st.companies.items():
        if not co.formed:
            continue
        extra: dict[str, Any] = {}
        if initials == operating and st.turn.duties:
            extra["run_duties"] = list(st.turn.duties)
        companies[initials] = CompanyState(
            company=initials,
            trains=tuple(t.runs_as for t in st.company_trains(initials)),
            cash=co.cash,
            running=True,
            type="major" if co.kind == "major" else "minor",
            double_lay=DOUBLE_LAY.get(co.lay_option or 0),
            owes_credit_train=owes_for_credit_train(game.rules, co),
            bases_placed=co.extra_bases,
            extra=extra,
        )
    about: dict[str, Any] = {"action": len(game.log), "round": st.round, "phase": st.phase}
    if operating is not None:
        about |= {"operating": operating, "step": st.turn.step,
                  "lays_done": [{"hex": h, "tile": t, "rotation": r}
                                for h, t, r in st.turn.lays_done],
                  "promoted": st.turn.promoted}
    return Position(game.rules.ed, st.phase, st.board, companies,
                    frozenset((h, c) for h, c in st.frontier_paid), {"game": about})
