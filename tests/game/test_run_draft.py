"""The run editor's draft (rules/game/run_draft.py): the track between the stations clicked
filled in (4.5.3, 4.5.5), each route so far with its train's reach and revenue (4.5.4, 4.6.2),
and the engine's verdict, on positions of the greedy fixture game."""

from __future__ import annotations

from typing import Any

from fixture_positions import before, logged

from india1853.rules.game.run_draft import run_draft

GREEDY = "greedy-3p-seed3"


def _draft(count: int, routes: list[dict[str, Any]]) -> dict[str, Any]:
    game = before(GREEDY, count)
    recorded = logged(GREEDY, count)
    entity = str(recorded["entity"])
    action = {**recorded, "routes": routes}
    viewer = game.decider(entity)
    assert viewer is not None
    return run_draft(game, viewer, action)


def test_the_track_between_stations_clicked_is_filled_in() -> None:
    """GREEDY, action 610: MSM runs R18-Q17-R16-R14-R12; R18 and R16 are side by side but
    their track goes round through Q17, and the draft finds it; the run is the one recorded."""
    recorded = logged(GREEDY, 610)["routes"]
    assert recorded[0]["hexes"] == ["R18:st1", "Q17", "R16:st1", "R14:st1", "R12:st1"]
    clicked = [{**recorded[0], "hexes": ["R18", "R16", "R14", "R12"]}]
    draft = _draft(610, clicked)
    assert draft["refusal"] is None
    route = draft["routes"][0]
    # Madras has two stations: the one the line leaves from is named.
    assert route["hexes"] == ["R18:st1", "Q17", "R16", "R14", "R12"]
    assert route["stations"] == 4 and route["refusal"] is None
    option = draft["option"]
    assert option["effect"] == _draft(610, recorded)["option"]["effect"]


def test_a_half_drawn_route_says_what_is_wrong_and_the_others_keep_their_revenue() -> None:
    """GREEDY, action 149: the GIP's mail train taken back to L16 (no station there): that
    route is refused with rule 4.5.4, the other two routes still show their revenue, and the
    whole run is refused with the engine's words."""
    routes = [dict(r) for r in logged(GREEDY, 149)["routes"]]
    routes[0] = {**routes[0], "hexes": ["M9:st2", "N10", "M11", "M13", "L14", "L16"]}
    draft = _draft(149, routes)
    first, second, third = draft["routes"]
    assert first["refusal"].startswith("rule 4.5.4: routes[0]: a run ends at a station")
    assert first["reach"] == "up to 2 Large Stations and any Small Stations"
    assert second["refusal"] is None and second["revenue"] == 40
    assert third["refusal"] is None and third["revenue"] == 30
    assert draft["option"] is None
    assert str(draft["refusal"]).startswith("rule 4.5.4")


def test_a_route_of_stations_clicked_is_the_optimal_run_when_it_is() -> None:
    """GREEDY, action 149: Bombay, the town beside it and Nagpur clicked: the track between is
    filled in and the engine accepts the run at the optimal run's value (4.6)."""
    routes = [dict(r) for r in logged(GREEDY, 149)["routes"]]
    routes[0] = {**routes[0], "hexes": ["M9", "N10", "K17"]}
    draft = _draft(149, routes)
    assert draft["refusal"] is None
    option = draft["option"]
    assert option["action"]["routes"][0]["hexes"] == [
        "M9:st2", "N10", "M11", "M13", "L14", "L16", "K17"]
    assert option["ui"]["total"] == 200
