"""The scenario builder (``india1853.rules.game.scenario.build``): a game played to a described
point from settings and a short script, deterministic from the seed, built from legal actions
only, and a normal game whose log replays (issue 13)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from india1853.errors import InputError
from india1853.rules.game import Game, Settings
from india1853.rules.game.scenario import build

SETTINGS = Settings(("Ann", "Bob", "Cat"), seed=4)


@cache
def _built(*script: str) -> Game:
    """``build(SETTINGS, script)`` of points, built once for the file's tests (which only look
    at it; test_deterministic_from_the_seed builds its own twice)."""
    return build(SETTINGS, list(script))


def _replays(game: Game) -> None:
    again = Game.from_log(game.to_log())  # checked replay: every action legal
    assert again.moderator_view() == game.moderator_view()


def test_the_first_operating_round_is_a_company_operating() -> None:
    game = _built("first operating round")
    st = game.state
    assert st.round == "operating" and st.turn.order[st.turn.index] in st.companies
    assert game.active_entities() == [(st.turn.order[st.turn.index], "company")]
    _replays(game)


def test_a_company_at_its_track_step() -> None:
    game = _built("EIR track")
    st = game.state
    assert (st.round, st.turn.order[st.turn.index], st.turn.step) == ("operating", "EIR", "track")
    assert not st.pending
    assert {a["type"] for a in game.legal_actions("EIR")} >= {"lay_tile", "pass"}
    _replays(game)


def test_points_in_order_phase_and_end() -> None:
    game = _built("stock round 2", "phase 3")
    assert game.state.phase >= 3
    stock_2 = _built("stock round 2")
    assert (stock_2.state.round, stock_2.state.stock_round) == ("stock", 2)
    # The later point plays on from the earlier one: the same first actions.
    assert game.log[:len(stock_2.log)] == stock_2.log
    end = _built("end")
    assert end.finished and end.scores()
    _replays(end)


def test_deterministic_from_the_seed() -> None:
    one, two = build(SETTINGS, ["EIR track"]), build(SETTINGS, ["EIR track"])
    assert one.log == two.log == _built("EIR track").log
    other = build(Settings(("Ann", "Bob", "Cat"), seed=5), ["stock round 2"])
    assert other.log != _built("stock round 2").log


def test_intents_are_played_as_legal_actions() -> None:
    # Every bond written down as scripted (a value between the engine's £10 steps too), then
    # the first stock round; there the first player to act passes.
    bonds: list[dict[str, Any]] = [{"entity": "Ann", "type": "place_bond", "amount": 200},
                                   {"entity": "Bob", "type": "place_bond", "amount": 205},
                                   {"entity": "Cat", "type": "place_bond"}]
    game = build(SETTINGS, [*bonds, "stock round"])
    assert [(a["entity"], a.get("amount")) for a in game.log[:2]] == [("Ann", 200), ("Bob", 205)]
    assert game.log[2]["entity"] == "Cat" and game.log[2]["type"] == "place_bond"
    who = game.active_entities()[0][0]
    more = build(SETTINGS, [*bonds, "stock round", {"entity": who, "type": "pass"}])
    assert more.log[:-1] == game.log
    assert (more.log[-1]["entity"], more.log[-1]["type"]) == (who, "pass")
    _replays(more)


@pytest.mark.parametrize(("script", "message"), [
    (["the middle"], r"script\[0\]: unknown point 'the middle' \(known: 'stock round N'"),
    ([{"entity": "Zed", "type": "pass"}], r"script\[0\]\.entity: 'Zed' may not act now"),
    ([{"type": "pass"}], r"script\[0\]\.entity: must name"),
    ([{"entity": "Ann", "type": "buy_share"}],
     r"script\[0\]: no legal action of Ann matches .*\(offered: place_bond\)"),
    ([{"entity": "Ann", "type": "place_bond", "amount": 1}], r"script\[0\]: .*bond"),
    (["end", "stock round"], r"script\[1\]: the game ended before 'stock round'"),
    ([7], r"script\[0\]: must be an intent"),
])
def test_a_step_that_cannot_be_played_is_a_one_line_error(script: list[object],
                                                         message: str) -> None:
    with pytest.raises(InputError, match=message):
        build(SETTINGS, script)  # type: ignore[arg-type]


def test_a_point_not_reached_in_time_is_an_error() -> None:
    with pytest.raises(InputError, match=r"script\[0\]: 'phase 4' not reached in 50 actions"):
        build(SETTINGS, ["phase 4"], max_actions=50)


def test_the_example_of_docs_actions_md() -> None:
    game = build(SETTINGS, [
        {"entity": "Ann", "type": "place_bond", "amount": 200},
        {"entity": "Bob", "type": "place_bond", "amount": 205},
        {"entity": "Cat", "type": "place_bond"},
        "stock round",
        "EIR track",
    ])
    assert {"lay_tile", "pass"} <= {a["type"] for a in game.legal_actions("EIR")}
    _replays(game)
