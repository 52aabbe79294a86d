"""The Phase-5 duty (4.2.3, 4.4.2): a tile promoted, or a base placed, outside the company's
TABLE 2 area this turn must be on one of its runs.

The positions come from complete game logs replayed through the public API (no state is
edited): in ``random-3p-seed11`` the SIR, owning a '5' in Phase 5, promotes L10 outside its
area and then runs; in ``random-3p-seed3`` the BBCI, owning a '6', places a base on E7 outside
its area and then runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.errors import RuleError
from india1853.rules.game import Game, Settings

GAMES = Path(__file__).resolve().parents[1] / "games"


def _before(name: str, count: int) -> tuple[Game, list[dict[str, Any]]]:
    data = json.loads((GAMES / f"{name}.json").read_text())
    settings = Settings.from_json(data["settings"])
    # A trusted log (test_fixtures.py replays every one checked): replayed without checks.
    return Game.replay(settings, data["actions"][:count], check=False), data["actions"]


@pytest.fixture(scope="module")
def sir_run() -> tuple[Game, list[dict[str, Any]]]:
    """The SIR's run step right after it promoted L10 outside its area (action 2090)."""
    return _before("random-3p-seed11", 2090)


def _fresh(sir_run: tuple[Game, list[dict[str, Any]]]) -> Game:
    game, _ = sir_run
    return game.fork()


def test_the_promotion_outside_the_area_set_a_duty(
        sir_run: tuple[Game, list[dict[str, Any]]]) -> None:
    game, actions = sir_run
    promotion = next(a for a in reversed(game.log) if a["type"] == "promote_tile")
    assert promotion["entity"] == "SIR" and promotion["hex"] == "L10"
    assert game.state.phase == 5 and game.state.turn.step == "run"
    assert game.active_entities() == [("SIR", "company")]
    assert [t.runs_as for t in game.state.company_trains("SIR")] == ["5"]
    assert actions[2090]["type"] == "run_routes"


def test_only_a_run_is_offered_and_it_covers_the_duty_hex(
        sir_run: tuple[Game, list[dict[str, Any]]]) -> None:
    game = _fresh(sir_run)
    offered = game.legal_actions("SIR")
    assert [a["type"] for a in offered] == ["run_routes"]  # no pass
    hexes = [h.split(":")[0] for r in offered[0]["routes"] for h in r["hexes"]]
    assert "L10" in hexes
    game.process(game.action("run_routes", "SIR", routes=offered[0]["routes"]))
    assert len(game.log) == 2091 and game.state.turn.step != "run"


def test_a_run_that_skips_the_duty_hex_is_refused(
        sir_run: tuple[Game, list[dict[str, Any]]]) -> None:
    game = _fresh(sir_run)
    full = game.legal_actions("SIR")[0]["routes"][0]["hexes"]
    short = full[full.index("M9:st1"):]  # the same line, starting after L10
    before = game.moderator_view()
    with pytest.raises(RuleError, match=r"4\.2\.3.*L10"):
        game.process(game.action("run_routes", "SIR",
                                 routes=[{"train": "5", "hexes": short, "mail": True}]))
    # The duty is checked after every other running rule, so naming it (and L10) shows the
    # shortened line broke nothing else.
    assert game.moderator_view() == before and len(game.log) == 2090


def test_passing_instead_of_running_is_refused(
        sir_run: tuple[Game, list[dict[str, Any]]]) -> None:
    game = _fresh(sir_run)
    before = game.moderator_view()
    with pytest.raises(RuleError, match=r"4\.2\.3 / 4\.4\.2"):
        game.process(game.action("pass", "SIR"))
    assert game.moderator_view() == before and len(game.log) == 2090


# random-4p-seed12 as recorded before the construction rules measured the Phase 5 reach by the
# company's trains (4.2.3): the NWR promoted C15, which no run of its '5' can include.  Checked
# play now refuses that promotion, so the position is rebuilt as a trusted log (check=False),
# which applies a move without that check (docs/rulings.md).
NWR_PROMOTES_C15 = [
    {"type": "promote_tile", "entity": "NWR", "entity_type": "company", "id": 1215,
     "created_at": 0, "hex": "C15", "tile": "234", "rotation": 5},
    {"type": "pass", "entity": "NWR", "entity_type": "company", "id": 1216, "created_at": 0},
]


def test_without_a_duty_the_company_may_pass_its_run() -> None:
    """The NWR's run step after a duty no run can cover: 4.2.3 cannot be met, so the turn's
    run may be passed (docs/rulings.md)."""
    data = json.loads((GAMES / "random-4p-seed12.json").read_text())
    settings = Settings.from_json(data["settings"])
    actions = [*data["actions"][:1214], *NWR_PROMOTES_C15]
    game = Game.replay(settings, actions, check=False)
    assert game.state.turn.duties == ["C15"] and game.state.turn.step == "run"
    assert "pass" in [a["type"] for a in game.legal_actions("NWR")]
    game.process(game.action("pass", "NWR"))
    assert game.state.turn.step != "run"


@pytest.fixture(scope="module")
def bbci_run() -> Game:
    """The BBCI's run step right after it placed a base on E7 outside its area (action 1549)."""
    game, actions = _before("random-3p-seed3", 1549)
    base = game.log[-2]
    assert (base["type"], base["entity"], base["hex"]) == ("place_base", "BBCI", "E7")
    assert actions[1549]["type"] == "run_routes"
    return game


def test_a_base_outside_the_area_must_be_on_a_run(bbci_run: Game) -> None:
    game = bbci_run.fork()
    assert game.state.turn.duties == ["E7"] and game.state.turn.step == "run"
    offered = game.legal_actions("BBCI")
    assert [a["type"] for a in offered] == ["run_routes"]
    routes = offered[0]["routes"]
    assert any(h.startswith("E7") for r in routes for h in r["hexes"])
    skipping = [{**r, "hexes": [h for h in r["hexes"] if not h.startswith("E7")]}
                for r in routes]
    before = game.moderator_view()
    with pytest.raises(RuleError, match=r"4\.2\.3 / 4\.4\.2.*E7"):
        game.process(game.action("run_routes", "BBCI", routes=skipping))
    with pytest.raises(RuleError, match=r"4\.2\.3 / 4\.4\.2"):
        game.process(game.action("pass", "BBCI"))
    assert game.moderator_view() == before
    game.process(game.action("run_routes", "BBCI", routes=routes))
    assert game.state.turn.step != "run"
