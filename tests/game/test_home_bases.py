"""Home bases placed on a preprinted city that was promoted before the company formed.

Rule 3.3.2 puts a company's home marker on the station of TABLE 1 (BNR: Calcutta's SW station,
preprinted id ``st3``).  Once Calcutta is promoted (here to tile 500 by EIR) that station is the
one the promotion's station mapping carried it to (4.2.4-4.2.6, 4.2.9), not the station of the
new tile that happens to share the printed id (tile 500's ``st3`` is EIR's NW station).
"""

from __future__ import annotations

from collections import Counter

from india1853.board.tiles import promotion_station_map
from india1853.interfaces.bots import make_bot
from india1853.interfaces.simulate import play_game
from india1853.rules.game.settings import Settings

PLAYERS = ("Ann", "Bob", "Cat")


def test_home_base_follows_the_promotion_of_its_preprinted_city() -> None:
    game = play_game(Settings(PLAYERS, seed=3),
                     {p: make_bot("greedy", p, i) for i, p in enumerate(PLAYERS)})
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
