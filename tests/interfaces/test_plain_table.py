"""PlainTable and PlainColumns write the same characters as rich's Table and Columns.

The turn screens' tables (players, companies, the options, in columns or not) of positions of a
stored game are rendered twice, as the terminal draws them and as rich alone would, on
uncoloured consoles of two widths (the narrow one wraps the companies' last heading) and on a
coloured one (where rich lays out everything).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table

from india1853.interfaces.terminal import screen
from india1853.interfaces.terminal.plain_table import PlainColumns, PlainTable
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings
from india1853.rules.game.turn import turn_model

GAME = Path(__file__).parents[1] / "games" / "greedy-3p-seed3.json"
# Positions spread over the game: bids, stock rounds, operating rounds of each phase.
EVERY = 200


def _as_rich(item: RenderableType) -> RenderableType:
    """The same renderable with rich's own Table and Columns in place of the plain ones."""
    if isinstance(item, Group):
        return Group(*(_as_rich(r) for r in item.renderables))
    for plain, rich_class in ((PlainTable, Table), (PlainColumns, Columns)):
        if isinstance(item, plain):
            copy = rich_class.__new__(rich_class)
            copy.__dict__.update(vars(item))
            return copy
    return item


def _text(item: RenderableType, width: int, colour: bool) -> str:
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=colour, highlight=False).print(item)
    return out.getvalue()


@pytest.fixture(scope="module")
def screens() -> list[list[RenderableType]]:
    # A stored (trusted) log: its positions without a checked replay.
    log = json.loads(GAME.read_text(encoding="utf-8"))
    found = []
    positions = Game.positions(Settings.from_json(log["settings"]), log["actions"])
    for number, (position, _) in enumerate(positions):
        if number % EVERY:
            continue
        entity, _ = position.active_entities()[0]
        player = position.decider(entity)
        model = turn_model(position, player)
        decision = screen.decision_of(model, entity)
        found.append([screen.players_table(model), screen.companies_table(model),
                      screen.options_table(decision["options"] if decision else [])])
    return found


@pytest.mark.parametrize(("width", "colour"), [(110, False), (70, False), (110, True)])
def test_the_plain_layout_is_riches(screens: list[list[RenderableType]], width: int,
                                    colour: bool) -> None:
    for parts in screens:
        for part in parts:
            assert _text(part, width, colour) == _text(_as_rich(part), width, colour)


def test_the_plain_layout_is_taken_without_colours(
        screens: list[list[RenderableType]]) -> None:
    # Else the comparison above would only compare rich with itself.
    console = Console(file=io.StringIO(), width=110)
    tables = [part for parts in screens for part in parts[:2]]
    assert all(isinstance(t, PlainTable) and t._plain_lines(console, console.options)
               for t in tables)
    assert len(tables) >= 10
