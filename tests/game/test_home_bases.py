"""Home bases placed on a preprinted city that was promoted before the company formed.

Rule 3.3.2 puts a company's home marker on the station of TABLE 1 (BNR: Calcutta's SW station,
preprinted id ``st3``).  Once Calcutta is promoted (here to tile 500 by EIR, in the fixture game
of three greedy bots) that station is the one the promotion's station mapping carried it to
(4.2.4-4.2.6, 4.2.9), not the station of the new tile that happens to share the printed id
(tile 500's ``st3`` is EIR's NW station).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from india1853.board.tiles import promotion_station_map
from india1853.rules.game import Game, Settings

FIXTURE = Path(__file__).resolve().parents[1] / "games" / "greedy-3p-seed3.json"


def _formation_of_bnr(data: dict[str, object]) -> Game:
    """The game just after the stock round in which the BNR formed."""
    actions = data["actions"]
    assert isinstance(actions, list)
    game = Game(Settings.from_json(data["settings"]))
    for action in actions:
        game.process(dict(action))
        if game.state.companies["BNR"].formed:
            return game
    raise AssertionError("the BNR never forms in the fixture game")


def test_home_base_follows_the_promotion_of_its_preprinted_city() -> None:
    game = _formation_of_bnr(json.loads(FIXTURE.read_text()))
    ed = game.rules.ed
    board = game.state.board
    placed = board.tiles["J28"]
    assert placed.tile == "500"  # Calcutta promoted before BNR formed
    mapping = promotion_station_map(ed.tiles["Calcutta"], 0, ed.tiles[placed.tile],
                                    placed.rotation)
    assert mapping is not None
    bases = {b.company: b.station for b in board.bases if b.hex == "J28"}
    assert bases["EIR"] == mapping["st1"]
    assert bases["BNR"] == mapping["st3"]
    per_station = Counter((b.hex, b.station) for b in board.bases)
    assert max(per_station.values()) == 1  # every 500/900 station has one slot
